"""No module reaches into another module's private names (``_name``): what one module of
the site offers another is public, named for what it does (issue 14). Checked on the
source: a ``from x import _name`` of the site's own modules, or ``module._name`` on a
module of the site imported whole. (The tests may look inside what they test.)"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("games", "accounts", "belote_site")


def _ours(module: str | None) -> bool:
    return bool(module) and module.split(".")[0] in PACKAGES


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _is_module(dotted: str) -> bool:
    path = ROOT / dotted.replace(".", "/")
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def reaches(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    modules: set[str] = set()  # local names bound to modules of the site
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and _ours(node.module):
            for alias in node.names:
                if _private(alias.name):
                    found.append(f"{path}:{node.lineno} imports {node.module}.{alias.name}")
                elif _is_module(f"{node.module}.{alias.name}"):
                    modules.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if _ours(alias.name) and alias.asname:
                    modules.add(alias.asname)
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and _private(node.attr)
            and isinstance(node.value, ast.Name)
            and node.value.id in modules
        ):
            found.append(f"{path}:{node.lineno} uses {node.value.id}.{node.attr}")
    return found


def test_no_module_uses_another_modules_private_names():
    sources = [p for package in PACKAGES for p in (ROOT / package).rglob("*.py")]
    found = [hit for path in sources if "migrations" not in path.parts for hit in reaches(path)]
    assert found == []
