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
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Final

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
    "vision": {"firmware_bridge.urls"},
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
    # hardware and vision may import it because it stands on nothing: not even the rest of
    # its package.
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


# Each variant says everything about itself once: outside referee/rules (and the tests), no
# string of the shipped code names a built-in variant, one of its regions or one of its
# markers. The words come from the variants themselves, so a new variant is covered at once.
# Not words: ``standard`` (the default variant) and its region ``board``, and ``die`` (a die
# is a physical device the board can read, like a clock).
#: Layers that must not name a variant.
OUTSIDE_RULES: Final = ("referee/app", "referee/live", "hardware", "firmware_bridge", "vision")
#: (file, word) that may stay, and why. Kept short: each entry must still be needed.
NAMES_ALLOWED: Final = {
    # NOTATION.md's square grammar: limbo is the one square written without coordinates
    ("firmware_bridge/events.py", "limbo"), ("firmware_bridge/rig.py", "limbo"),
    ("firmware_bridge/rig.py", "hell"),  # an example square in that grammar's error line
    # a rig module's physical shape (grid, ring, strip), not Ghost's region
    ("firmware_bridge/rig.py", "ring"), ("firmware_bridge/sim.py", "ring"),
    ("firmware_bridge/cli.py", "deadmans"),  # --help: an example of a built-in rig file
}


def variant_words() -> set[str]:
    """The names of the built-in variants, their regions and their markers."""
    from referee.rules.variants import VARIANTS, make_variant

    words: set[str] = set()
    for name in VARIANTS:
        variant = make_variant(name)
        words |= {name, *variant.layout.region_squares, *(k.name for k in variant.marker_kinds)}
    return words - {"standard", "die", *make_variant("standard").layout.region_squares}


def named_words(path: Path, words: set[str]) -> set[str]:
    """The ``words`` that string constants of ``path`` name (docstrings and comments aside)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and node.body and isinstance(node.body[0], ast.Expr)}
    pattern = re.compile(r"\b(" + "|".join(sorted(words)) + r")\b", re.IGNORECASE)
    return {m.group(0).lower() for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and id(node) not in docs for m in pattern.finditer(node.value)}


def test_no_layer_outside_the_rules_names_a_variant() -> None:
    words = variant_words()
    assert {"deadmans", "zombie", "hell", "limbo", "tombstone"} <= words
    found = {(path.relative_to(ROOT).as_posix(), word)
             for layer in OUTSIDE_RULES for path in sorted((ROOT / layer).rglob("*.py"))
             for word in named_words(path, words)}
    assert found - NAMES_ALLOWED == set(), "variant knowledge outside referee/rules"
    assert NAMES_ALLOWED - found == set(), "stale allow-list entries"


def test_the_name_check_sees_a_planted_name(tmp_path: Path) -> None:
    planted = tmp_path / "planted.py"
    planted.write_text('"""Zombie docs are fine."""\nLAYERS = {"Zombie": 1}\n', encoding="utf-8")
    assert named_words(planted, {"zombie", "hell"}) == {"zombie"}
