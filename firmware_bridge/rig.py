"""Rig files: how a physical board's modules and cells map to a variant's squares.

A rig is a TOML file (format in docs/rig.md) or one of the built-in rigs named after a variant
(:data:`BUILTIN_RIGS`). It lists the board's modules (by the names the board announces in its
HELLO, e.g. ``main``, ``hell``, ``ring``), the square under each cell, which way each grid faces
(``rotation``), which board button index is which button, and the LED and display settings,
which are kept as plain data for the ``hardware`` package.

Cell numbering of a grid module: cell ``i`` is column ``i % width``, row ``i // width``; with
``rotation = 0`` cell 0 is a1 (White's left corner), columns run along the files and rows along
the ranks. ``rotation`` is how far the board is turned clockwise, seen from above with White at
the bottom: 180 puts cell 0 on h8.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final

from firmware_bridge.errors import RigError
from firmware_bridge.events import BUTTON_NAMES, is_square


def _builtin_names() -> tuple[str, ...]:
    folder = resources.files("firmware_bridge").joinpath("rigs")
    return tuple(sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".toml")))


#: Names of the built-in rigs (``firmware_bridge/rigs/<name>.toml``, one per variant): the
#: files themselves, so this package names no variant.
BUILTIN_RIGS: Final = _builtin_names()

MODULE_KINDS: Final = ("grid", "ring", "strip")
ROTATIONS: Final = (0, 90, 180, 270)
_LETTERS: Final = "abcdefghijklmnopqrstuvwxyz"
_TOP_KEYS: Final = ("name", "sensor", "module", "buttons", "leds", "display", "gpio_buttons",
                     "game", "implicit_regions", "fallback")
_MODULE_KEYS: Final = ("name", "kind", "width", "height", "region", "files", "ranks",
                       "rotation", "cells")


@dataclass(frozen=True)
class ModuleMap:
    """One board module: its HELLO ``name``, ``kind``, size in cells and cell -> square map.

    ``cells[i]`` is the square under cell ``i``, or None for a cell that maps to nothing.
    """

    name: str
    kind: str
    width: int
    height: int
    cells: tuple[str | None, ...]

    @property
    def size(self) -> int:
        """Number of cells (``width * height``)."""
        return self.width * self.height


@dataclass(frozen=True)
class Rig:
    """A validated rig; build it with :func:`load_rig`, :func:`builtin_rig` or :func:`parse_rig`.

    ``buttons`` maps board button index -> button name; ``leds`` and ``display`` are the raw
    TOML tables (read-only) for the ``hardware`` package. ``sensor`` is the board's URL and
    ``game`` the game's defaults (variant, options, clock...), kept as data for the referee's
    ``gravekeeper run``.
    """

    name: str
    modules: tuple[ModuleMap, ...]
    buttons: Mapping[int, str] = field(default_factory=lambda: MappingProxyType({}))
    leds: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    display: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    gpio_buttons: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    source: str = "<rig>"
    sensor: str = ""
    game: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    implicit_regions: tuple[str, ...] = ()
    fallback: bool = False

    def module(self, name: str) -> ModuleMap:
        """The module called ``name``. Raises RigError if the rig has none."""
        for m in self.modules:
            if m.name == name:
                return m
        raise RigError(f"{self.source}: the rig has no module {name!r}")

    def square_of(self, module: str, cell: int) -> str | None:
        """The square under ``cell`` of ``module``, or None (unknown module or unused cell)."""
        for m in self.modules:
            if m.name == module:
                return m.cells[cell] if 0 <= cell < m.size else None
        return None

    def cell_of(self, square: str) -> tuple[str, int]:
        """(module name, cell index) under ``square``. Raises RigError if no cell has it."""
        for m in self.modules:
            if square in m.cells:
                return m.name, m.cells.index(square)
        raise RigError(f"{self.source}: no cell of the rig maps to square {square!r}")

    @property
    def squares(self) -> frozenset[str]:
        """Every square some cell maps to."""
        return frozenset(s for m in self.modules for s in m.cells if s is not None)


#: A rig file is a page of TOML; anything far larger (``/dev/zero``) is not one.
MAX_RIG_BYTES = 1024 * 1024


def load_rig(path_or_name: str | Path) -> Rig:
    """Load a rig file, or a built-in rig when given a variant name that is not a file.

    Raises:
        RigError: the file is missing, not TOML, or invalid (the message names file and key).
    """
    path = Path(path_or_name)
    if str(path_or_name) in BUILTIN_RIGS and not path.exists():
        return builtin_rig(str(path_or_name))
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_RIG_BYTES + 1)
        text = data.decode("utf-8")
    except OSError as exc:
        raise RigError(f"{path}: cannot read rig file: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise RigError(f"{path}: cannot read rig file: not UTF-8 text ({exc.reason})") from exc
    if len(data) > MAX_RIG_BYTES:
        raise RigError(f"{path}: cannot read rig file: larger than {MAX_RIG_BYTES // 1024} KB")
    return parse_rig(text, source=str(path), default_name=path.stem)


def builtin_rig(variant: str) -> Rig:
    """The built-in rig for ``variant`` (one of :data:`BUILTIN_RIGS`). Raises RigError."""
    if variant not in BUILTIN_RIGS:
        raise RigError(f"no built-in rig {variant!r} (known: {', '.join(BUILTIN_RIGS)})")
    text = resources.files("firmware_bridge").joinpath("rigs", f"{variant}.toml").read_text()
    return parse_rig(text, source=f"<built-in rig {variant}>", default_name=variant)


def parse_rig(text: str, source: str = "<rig>", default_name: str = "rig") -> Rig:
    """Parse and validate rig TOML ``text``; ``source`` names it in error messages.

    Raises:
        RigError: invalid TOML or contents; the message names ``source`` and the key.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RigError(f"{source}: not valid TOML: {exc}") from None
    _reject_unknown(data, _TOP_KEYS, source, "")
    name = _get(data, "name", str, source, "name", default_name)
    implicit = _implicit_regions(data, source)
    raw_modules = _get(data, "module", list, source, "module", None)
    if not raw_modules:
        raise RigError(f"{source}: module: at least one [[module]] table is required")
    modules = tuple(_parse_module(m, source, f"module[{i}]", implicit)
                    for i, m in enumerate(raw_modules))
    _check_unique(modules, source)
    return Rig(
        name=name,
        modules=modules,
        buttons=_parse_buttons(data.get("buttons", {}), source),
        leds=MappingProxyType(_parse_leds(data.get("leds", {}), modules, source)),
        display=MappingProxyType(_parse_display(data.get("display", {}), source)),
        gpio_buttons=MappingProxyType(_parse_table(data.get("gpio_buttons", {}), source,
                                                   "gpio_buttons")),
        source=source,
        sensor=_get(data, "sensor", str, source, "sensor", ""),
        game=MappingProxyType(_parse_table(data.get("game", {}), source, "game")),
        implicit_regions=implicit,
        fallback=_flag(data, "fallback", source),
    )


def _flag(data: Mapping[str, Any], key: str, source: str) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise RigError(f"{source}: {key}: expected true or false, got {value!r}")
    return value


def _implicit_regions(data: Mapping[str, Any], source: str) -> tuple[str, ...]:
    """The ``implicit_regions`` key: regions whose squares NOTATION.md writes without their
    prefix (a variant's main region: Dead Man's ``earth``, Afterlife's ``world``). The rig
    says it, since the variant is not this package's business: ``earth:e4`` then means
    ``e4``."""
    names = _get(data, "implicit_regions", list, source, "implicit_regions", [])
    for name in names:
        if not isinstance(name, str) or not name.isalpha() or not name.islower():
            raise RigError(f"{source}: implicit_regions: {name!r} is not a region name "
                           "(lower-case letters)")
    return tuple(names)


def _get(table: Mapping[str, Any], key: str, typ: type, source: str, where: str,
         default: Any) -> Any:
    value = table.get(key, default)
    # bool is an int in Python, but `width = true` is a mistake worth reporting.
    if value is not None and (not isinstance(value, typ) or isinstance(value, bool)):
        raise RigError(f"{source}: {where}: expected {typ.__name__}, got {value!r}")
    return value


def _reject_unknown(table: Mapping[str, Any], known: tuple[str, ...], source: str,
                    where: str) -> None:
    for key in table:
        if key not in known:
            prefix = f"{where}." if where else ""
            raise RigError(f"{source}: {prefix}{key}: unknown key (expected one of "
                           f"{', '.join(known)})")


def _parse_module(raw: Any, source: str, where: str, implicit: tuple[str, ...]) -> ModuleMap:
    if not isinstance(raw, dict):
        raise RigError(f"{source}: {where}: expected a table")
    name = _get(raw, "name", str, source, f"{where}.name", None)
    if not name:
        raise RigError(f"{source}: {where}.name: a module needs a name")
    where = f"module {name!r}"
    _reject_unknown(raw, _MODULE_KEYS, source, where)
    kind = _get(raw, "kind", str, source, f"{where}.kind", "grid")
    if kind not in MODULE_KINDS:
        raise RigError(f"{source}: {where}.kind: must be one of {', '.join(MODULE_KINDS)}")
    if "cells" in raw:
        cells = _explicit_cells(raw, source, where, implicit)
        width = _get(raw, "width", int, source, f"{where}.width", len(cells))
        height = _get(raw, "height", int, source, f"{where}.height", 1)
        if width * height != len(cells):
            raise RigError(f"{source}: {where}.cells: {len(cells)} cells but the module is "
                           f"{width}x{height}")
        return ModuleMap(name, kind, width, height, cells)
    if kind != "grid":
        raise RigError(f"{source}: {where}.cells: a {kind} module needs an explicit cells list")
    return _grid_module(raw, name, source, where, implicit)


def _explicit_cells(raw: Mapping[str, Any], source: str, where: str,
                    implicit: tuple[str, ...]) -> tuple[str | None, ...]:
    cells = _get(raw, "cells", list, source, f"{where}.cells", None)
    out: list[str | None] = []
    for i, sq in enumerate(cells):
        if not isinstance(sq, str):
            raise RigError(f"{source}: {where}.cells[{i}]: expected a square string")
        out.append(_square(sq, source, f"{where}.cells[{i}]", implicit) if sq else None)
    return tuple(out)


def _square(text: str, source: str, where: str, implicit: tuple[str, ...]) -> str:
    region, colon, rest = text.partition(":")
    if colon and region in implicit:
        text = rest
    if not is_square(text):
        raise RigError(f"{source}: {where}: {text!r} is not a square (NOTATION.md form, "
                       f"e.g. e4, hell:d1, a0, limbo)")
    return text


def _grid_module(raw: Mapping[str, Any], name: str, source: str, where: str,
                 implicit: tuple[str, ...]) -> ModuleMap:
    width = _get(raw, "width", int, source, f"{where}.width", 8)
    height = _get(raw, "height", int, source, f"{where}.height", 8)
    if not (1 <= width <= 26 and 1 <= height <= 9):
        raise RigError(f"{source}: {where}.width/height: {width}x{height} is not a board size")
    rotation = _get(raw, "rotation", int, source, f"{where}.rotation", 0)
    if rotation not in ROTATIONS:
        raise RigError(f"{source}: {where}.rotation: must be one of 0, 90, 180, 270 "
                       f"(got {rotation})")
    n_files, n_ranks = (width, height) if rotation in (0, 180) else (height, width)
    files = _get(raw, "files", str, source, f"{where}.files", _LETTERS[:n_files])
    ranks = _get(raw, "ranks", str, source, f"{where}.ranks", "123456789"[:n_ranks])
    if len(files) != n_files or len(ranks) != n_ranks:
        raise RigError(f"{source}: {where}.files/ranks: need {n_files} files and {n_ranks} "
                       f"ranks for a {width}x{height} grid at rotation {rotation}")
    region = _get(raw, "region", str, source, f"{where}.region", "")
    prefix = f"{region}:" if region else ""
    cells = []
    for i in range(width * height):
        f, r = grid_to_board(i % width, i // width, width, height, rotation)
        cells.append(_square(f"{prefix}{files[f]}{ranks[r]}", source, f"{where} cell {i}",
                             implicit))
    return ModuleMap(name, "grid", width, height, tuple(cells))


def grid_to_board(col: int, row: int, width: int, height: int, rotation: int) -> tuple[int, int]:
    """Map a grid cell (column, row) to (file index, rank index) for a board turned clockwise
    by ``rotation`` degrees (0, 90, 180, 270). Both are 0-based from White's left/bottom."""
    if rotation == 0:
        return col, row
    if rotation == 90:
        return row, width - 1 - col
    if rotation == 180:
        return width - 1 - col, height - 1 - row
    return height - 1 - row, col


def _check_unique(modules: tuple[ModuleMap, ...], source: str) -> None:
    seen: dict[str, str] = {}
    names: set[str] = set()
    for m in modules:
        if m.name in names:
            raise RigError(f"{source}: module {m.name!r}: two modules have this name")
        names.add(m.name)
        for sq in m.cells:
            if sq is None:
                continue
            if sq in seen:
                raise RigError(f"{source}: module {m.name!r}: square {sq!r} is already mapped "
                               f"by module {seen[sq]!r}")
            seen[sq] = m.name


def _parse_buttons(raw: Any, source: str) -> Mapping[int, str]:
    if not isinstance(raw, dict):
        raise RigError(f"{source}: buttons: expected a table of name = index")
    out: dict[int, str] = {}
    for name, index in raw.items():
        if name not in BUTTON_NAMES:
            raise RigError(f"{source}: buttons.{name}: unknown button (expected one of "
                           f"{', '.join(BUTTON_NAMES)})")
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index <= 255:
            raise RigError(f"{source}: buttons.{name}: expected a board button index 0..255")
        if index in out:
            raise RigError(f"{source}: buttons.{name}: index {index} is already {out[index]!r}")
        out[index] = name
    return MappingProxyType(out)


# Known hardware keys and their types; other keys are kept untouched for `hardware/`.
_LED_TYPES: Final[dict[str, tuple[type, ...]]] = {
    "kind": (str,), "brightness": (int, float), "order": (str,), "pin": (int,),
    "chain": (list,), "fps": (int, float)}
_DISPLAY_TYPES: Final[dict[str, tuple[type, ...]]] = {
    "kind": (str,), "width": (int,), "height": (int,), "address": (int,), "rotate": (int,),
    "interface": (str,)}


def _check_types(raw: Any, types: Mapping[str, tuple[type, ...]], source: str,
                 where: str) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise RigError(f"{source}: {where}: expected a table")
    for key, typ in types.items():
        if key in raw and (not isinstance(raw[key], typ) or isinstance(raw[key], bool)):
            names = " or ".join(t.__name__ for t in typ)
            raise RigError(f"{source}: {where}.{key}: expected {names}, got {raw[key]!r}")
    return dict(raw)


def _parse_leds(raw: Any, modules: tuple[ModuleMap, ...], source: str) -> dict[str, Any]:
    leds = _check_types(raw, _LED_TYPES, source, "leds")
    if "brightness" in leds and not 0 <= leds["brightness"] <= 1:
        raise RigError(f"{source}: leds.brightness: must be between 0 and 1")
    if "order" in leds and sorted(leds["order"]) != ["B", "G", "R"]:
        raise RigError(f"{source}: leds.order: must be a permutation of RGB, e.g. GRB")
    names = {m.name for m in modules}
    for item in leds.get("chain", []):
        if item not in names:
            raise RigError(f"{source}: leds.chain: {item!r} is not a module of this rig")
    return leds


def _parse_table(raw: Any, source: str, where: str) -> dict[str, Any]:
    """A table kept as data for ``hardware/`` (which validates its keys and values)."""
    if not isinstance(raw, dict):
        raise RigError(f"{source}: {where}: expected a table")
    return dict(raw)


def _parse_display(raw: Any, source: str) -> dict[str, Any]:
    return _check_types(raw, _DISPLAY_TYPES, source, "display")
