"""The package's layout rules (CONTRIBUTING, design §4): no module imports another module's
private (underscore) names, no import cycles, no module over 800 lines (the target is about
650; split a module by subject before it gets there), every private module named on the
architecture page. import-linter checks the layers (pyproject.toml); these are the rules it
does not express."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "wkappa"
MAX_LINES = 800  # the hard stop; the target is about 650 lines


def _modules() -> list[Path]:
    return sorted(SRC.rglob("*.py"))


def _module_name(path: Path) -> str:
    parts = path.relative_to(SRC.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _resolve(path: Path, node: ast.ImportFrom) -> str:
    """The absolute module a ``from ... import`` reads from."""
    if node.level == 0:
        return node.module or ""
    package = _module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    base = package[: len(package) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def _is_module(name: str) -> bool:
    relative = Path(*name.split(".")[1:])
    return (SRC / relative).with_suffix(".py").exists() or (SRC / relative).is_dir()


def test_no_module_imports_private_names_of_another():
    found = []
    for path in _modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom):
                continue
            source = _resolve(path, node)
            if not source.startswith("wkappa"):
                continue
            for alias in node.names:
                name = alias.name
                private = name.startswith("_") and not name.startswith("__")
                if private and not _is_module(f"{source}.{name}"):
                    found.append(f"{path.relative_to(SRC)}:{node.lineno} {source}.{name}")
    assert not found, "private names imported across modules:\n" + "\n".join(found)


def test_modules_stay_small():
    long = {
        str(path.relative_to(SRC)): n
        for path in _modules()
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert not long, f"modules over {MAX_LINES} lines (split them by subject): {long}"


def test_no_import_cycles():
    grimp = pytest.importorskip("grimp")
    # Imports under `if TYPE_CHECKING:` never run; they are annotations, not dependencies.
    graph = grimp.build_graph("wkappa", exclude_type_checking_imports=True, cache_dir=None)
    cycles = sorted(
        {
            tuple(sorted((module, imported)))
            for module in graph.modules
            for imported in graph.find_modules_directly_imported_by(module)
            if graph.chain_exists(importer=imported, imported=module)
            and not module.startswith(imported + ".")  # a package importing its modules
            and not imported.startswith(module + ".")
        }
    )
    assert not cycles, f"import cycles: {cycles}"


def test_every_error_and_warning_is_a_name_of_wkappa():
    # One rule: a user catches or filters any of them as wkappa.X or wkappa.exceptions.X.
    import wkappa
    from wkappa import exceptions

    for name in exceptions.__all__:
        assert name in wkappa.__all__, name
        assert getattr(wkappa, name) is getattr(exceptions, name), name


def test_the_architecture_page_names_every_module():
    """docs/explanation/architecture.md is where a newcomer finds a module's subject: every
    module of the private packages is named there."""
    page = (SRC.parents[1] / "docs" / "explanation" / "architecture.md").read_text("utf-8")
    words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", page))
    missing = [
        str(path.relative_to(SRC))
        for path in _modules()
        if not path.stem.startswith("__")
        and path.relative_to(SRC).parts[0].startswith("_")
        and path.stem not in words
    ]
    assert not missing, "modules the architecture page does not name:\n" + "\n".join(missing)
