# Developer entry points. `make test` is what CI runs first (see .ci/run).

VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed.stamp
PYTEST_ARGS ?=

.PHONY: venv run test lint lint-imports format bench clean

## venv: create .venv with Python >= 3.12 and install the pinned dependencies
venv: $(STAMP)

$(STAMP): pyproject.toml requirements.lock games/bots/dds.c
	@if [ ! -x $(PY) ]; then \
		python=$$(scripts/find-python) || exit 1; \
		echo "Creating $(VENV) with $$python"; \
		"$$python" -m venv $(VENV) || exit 1; \
	fi
	$(PY) -m pip install --quiet -c requirements.lock -e ".[dev]"
	@touch $@

## run: development server (Daphne) and task worker on http://127.0.0.1:8000/
run: venv
	scripts/run-dev

## test: lint, the import contracts, Django checks, missing migrations, then the test suite
test: venv
	$(VENV)/bin/ruff check
	$(VENV)/bin/ruff format --check
	$(MAKE) --no-print-directory lint-imports
	$(PY) manage.py check
	$(PY) manage.py makemigrations --check --dry-run
	$(VENV)/bin/pytest $(PYTEST_ARGS)

## lint-imports: the layer map (README "Layers"), as import-linter contracts in pyproject.toml
lint-imports: venv
	$(VENV)/bin/lint-imports --no-cache

## lint: ruff, without changing anything
lint: venv
	$(VENV)/bin/ruff check
	$(VENV)/bin/ruff format --check

## format: let ruff fix imports and format the code
format: venv
	$(VENV)/bin/ruff check --fix
	$(VENV)/bin/ruff format

## bench: run every bench/*.py script (none is fine)
bench: venv
	@for f in bench/*.py; do \
		[ -e "$$f" ] || continue; \
		echo "== $$f"; \
		$(PY) "$$f" || exit 1; \
	done

## clean: remove the virtualenv and caches (keeps db.sqlite3)
clean:
	rm -rf $(VENV) *.egg-info .pytest_cache .ruff_cache .hypothesis staticfiles
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
