"""What a module of the project imports, read from its source (ast) so that lazy imports inside functions count
too: the import checks of tests/test_engine_purity.py and tests/test_layers.py."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def module_name(path: Path) -> str:
    """Dotted module name of a file under ROOT (a package's __init__ is the package)."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def package_files(package: str) -> list[Path]:
    """Every .py file of a package (a top-level one like `workers` too)."""
    return sorted(ROOT.joinpath(*package.split(".")).rglob("*.py"))


def is_under(name: str, roots: tuple[str, ...]) -> bool:
    """True when `name` is one of `roots` or a submodule of one."""
    return any(name == root or name.startswith(root + ".") for root in roots)


def statements(source: str, package: str) -> list[tuple[int, str, tuple[str, ...]]]:
    """(line, absolute module, the names taken from it: none for `import module`) of every import anywhere in
    `source`, a module of `package` (relative imports resolved against it)."""
    parts = package.split(".") if package else []
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name, ()) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = parts[: len(parts) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            found.append((node.lineno, module, tuple(alias.name for alias in node.names)))
    return found


def import_statements(path: Path) -> list[tuple[int, str, tuple[str, ...]]]:
    """`statements` of a file of the project."""
    package = module_name(path)
    if path.name != "__init__.py":
        package = package.rpartition(".")[0]
    return statements(path.read_text(encoding="utf-8"), package)


def imported_names(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import anywhere in the file, relative imports resolved; for `from
    module import name` both the module and `module.name` (which may be a submodule)."""
    return [(line, name) for line, module, names in import_statements(path)
            for name in (module, *(f"{module}.{alias}" for alias in names))]
