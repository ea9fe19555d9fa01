"""The layer map of the README holds: import-linter's contracts (pyproject.toml) pass on
the code, and fail when a module imports across them (checked on a copy of the code with
one forbidden import added, so that the check is seen to bite)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("games", "accounts", "belote_site")
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"


def lint_imports(tree: Path) -> subprocess.CompletedProcess:
    # The copy comes first on the path: grimp reads the packages it finds there.
    env = {**os.environ, "PYTHONPATH": str(tree)}
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", "--config", str(tree / "pyproject.toml")],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def copy_of_the_code(tmp_path: Path) -> Path:
    for package in PACKAGES:
        shutil.copytree(
            ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def add_import(module: Path, line: str) -> None:
    module.write_text(f"{line}\n{module.read_text()}")


def test_the_code_keeps_its_contracts(tmp_path):
    checked = lint_imports(copy_of_the_code(tmp_path))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "0 broken" in checked.stdout


def test_the_engine_importing_django_breaks_its_contract(tmp_path):
    tree = copy_of_the_code(tmp_path)
    add_import(tree / "games/rules/cards.py", "import django  # noqa")
    checked = lint_imports(tree)
    assert checked.returncode == 1
    assert "The engine imports no Django and nothing of the site BROKEN" in checked.stdout
    assert "games.rules.cards -> django" in checked.stdout


def test_a_lower_layer_importing_a_higher_one_breaks_the_layers(tmp_path):
    tree = copy_of_the_code(tmp_path)
    add_import(tree / "games/ratings/service.py", "from games.live import consumers  # noqa")
    checked = lint_imports(tree)
    assert checked.returncode == 1
    assert "Each concern imports only the ones below it BROKEN" in checked.stdout
    assert "games.ratings is not allowed to import games.live" in checked.stdout
