"""The house rules of docs/architecture.md, read from the imports themselves.

Every ``import`` and ``from ... import`` in the shipped packages counts, at module level or inside
a function, except those under ``if TYPE_CHECKING:`` (they never run). Two rules:

- who may import whom (:data:`ALLOWED`): the rules import only the rules; the live referee the
  rules and the sensor events; vision and the firmware bridge only themselves; hardware itself
  and the one URL grammar (``firmware_bridge.urls``, which imports no project module at all);
  the application layer anything;
- no import circles between modules.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from hardware import sides
from referee.rules import pieces

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("referee", "firmware_bridge", "hardware", "vision")

#: layer -> the layers it may import (its own always allowed). The longest prefix decides.
ALLOWED: dict[str, set[str]] = {
    "referee.rules": set(),
    "referee.live": {"referee.rules", "firmware_bridge"},
    "referee.app": {"referee.rules", "referee.live", "firmware_bridge", "firmware_bridge.urls",
                    "hardware", "vision"},
    "referee": set(),
    "firmware_bridge": {"firmware_bridge.urls"},
    "firmware_bridge.urls": set(),
    "hardware": {"firmware_bridge.urls"},
    "vision": set(),
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def layer_of(module: str) -> str:
    return max((name for name in ALLOWED if module == name or module.startswith(name + ".")),
               key=len)


def _type_checking_lines(tree: ast.Module) -> set[int]:
    """Line numbers of statements inside ``if TYPE_CHECKING:`` blocks."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in node.body:
                for sub in ast.walk(inner):
                    if hasattr(sub, "lineno"):
                        lines.add(sub.lineno)
    return lines


def imports_of(path: Path, here: str | None = None) -> Iterator[str]:
    """The project modules ``path`` (module ``here``) imports at run time, relative ones
    resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _type_checking_lines(tree)
    here = here or module_name(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    for node in ast.walk(tree):
        if getattr(node, "lineno", None) in skip:
            continue
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base
                     for alias in node.names]
        else:
            continue
        for name in names:
            if name.split(".")[0] in PACKAGES:
                yield name


def project_modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            found[module_name(path)] = path
    return found


def _resolve(name: str, modules: dict[str, Path]) -> str | None:
    """The project module an imported name lives in (``a.b.C`` -> ``a.b``)."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


MODULES = project_modules()


def graph() -> dict[str, set[str]]:
    modules = project_modules()
    edges: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets = {_resolve(imported, modules) for imported in imports_of(path)}
        edges[name] = {t for t in targets if t and t != name}
    return edges


def test_layers_import_only_what_they_may() -> None:
    wrong = []
    for module, targets in graph().items():
        mine = layer_of(module)
        for target in targets:
            theirs = layer_of(target)
            if theirs != mine and theirs not in ALLOWED[mine] and not mine.startswith(theirs):
                wrong.append(f"{module} imports {target} ({mine} may not import {theirs})")
    assert not wrong, "\n".join(sorted(wrong))


def test_the_url_grammar_imports_no_project_module() -> None:
    # hardware may import it because it stands on nothing: not even the rest of its package.
    path = project_modules()["firmware_bridge.urls"]
    assert list(imports_of(path)) == []
    assert layer_of("firmware_bridge.urls") == "firmware_bridge.urls"
    assert layer_of("firmware_bridge.factory") == "firmware_bridge"


def test_the_package_roots_import_nothing_of_their_layers_below() -> None:
    # ``referee/__init__.py`` importing e.g. the app would make every rules import load the app.
    edges = graph()
    assert not {t for t in edges.get("referee", set()) if layer_of(t) != "referee"}


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in edges.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def _without_parent_packages(edges: dict[str, set[str]]) -> dict[str, set[str]]:
    """A module importing its own parent package (``from referee.rules import actions``) is
    importing a sibling, not the package's code: keep only edges into packages with code."""
    modules = project_modules()
    hollow = {name for name, path in modules.items()
              if path.name == "__init__.py" and not _has_code(path)}
    return {m: {t for t in ts if t not in hollow} for m, ts in edges.items()}


def _has_code(path: Path) -> bool:
    """Anything in the file but its docstring and ``from __future__`` lines."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return any(not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant))
               and not (isinstance(n, ast.ImportFrom) and n.module == "__future__")
               for n in tree.body)


def test_no_import_circles() -> None:
    circles = _cycles(_without_parent_packages(graph()))
    assert not circles, "import circles: " + "; ".join(" <-> ".join(c) for c in circles)


def test_the_rule_checker_sees_a_planted_violation(tmp_path: Path) -> None:
    planted = tmp_path / "planted.py"
    planted.write_text("def f():\n    from hardware.leds import scene\nif TYPE_CHECKING:\n"
                       "    from vision import classify\n", encoding="utf-8")
    seen = set(imports_of(planted, "referee.rules._planted_for_test"))
    assert "hardware.leds.scene" in seen and not any(s.startswith("vision") for s in seen)
    assert layer_of("referee.rules._planted_for_test") == "referee.rules"
    assert "hardware" not in ALLOWED["referee.rules"]


def test_hardware_sides_match_the_referee_colours() -> None:
    assert (sides.WHITE, sides.BLACK, sides.GRAY) == (pieces.WHITE, pieces.BLACK, pieces.GRAY)
