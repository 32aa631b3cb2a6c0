"""Betza notation for Afterlife Chess: the piece table as data, and the tables built from it.

RULINGS §4.3 could only *propose* how the Afterlife pieces move, so the movement of every piece
is a Betza string held in one table (:data:`PROPOSED`, option ``alc.piece_table``); the engine
reads nothing else. This module parses the small Betza subset we need and compiles a definition
into per-square move tables over a :class:`~referee.rules.geometry.Geometry`, so that the real
definitions can be dropped in without touching the engine.

Supported Betza (Ralph Betza's "funny notation", the subset the table uses and a little more):

* atoms (upper case): leapers ``W`` (1,0) ``F`` (1,1) ``D`` (2,0) ``N`` (2,1) ``A`` (2,2)
  ``H`` (3,0) ``C`` (3,1) ``Z`` (3,2) ``G`` (3,3); compounds ``K`` = WF, ``R`` = WW, ``B`` = FF,
  ``Q`` = WWFF. A doubled atom (``WW``, ``NN``) rides; a number after an atom limits the ride
  (``R2``, ``W3``).
* modifiers (lower case, before their atom): ``m`` move only, ``c`` capture only, ``e`` may also
  capture en passant, ``i`` only from the piece's home rank in the World, ``n`` lame (the
  squares passed over must be empty: the D of a pawn's double step). Directions, relative to the
  mover: ``f`` forward, ``b`` backward, ``l`` left, ``r`` right, ``v`` vertical (mostly
  forward/backward), ``s`` sideways. ``f``/``b`` followed by ``l``/``r``/``s``/``v`` is one
  direction (``fl`` = forward-left) when that selects anything for the atom, otherwise the
  letters add up (``fsW`` = forward and sideways steps, as in Betza).

Vectors are written relative to the mover: x to its right, y forward. White's forward is up the
board (rank 1 towards rank 7), Black's is down; a gray piece uses the orientation of the player
moving it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from referee.rules.geometry import Geometry

# Flags of one compiled move.
MOVE: Final = 1        # may move to an empty square
CAPTURE: Final = 2     # may capture on the target
EN_PASSANT: Final = 4  # may capture en passant (World only)
INITIAL: Final = 8     # only from the home rank in the World
LAME: Final = 16       # the squares passed over must be empty

#: The piece letters of the table (case-insensitive in options): Pharaoh, High Priest, Warrior,
#: Slave, Mercenary, Sethling.
PIECE_KEYS: Final = "PHWSME"
REGIONS: Final = ("world", "hours", "hall")

#: RULINGS §4.3 PROPOSED defaults. The Twelve Hours use the World patterns (§4.3 "pieces use
#: their World moves but only on the 8 cells"); the Hall is SOURCE: step one cell (Wazir) to an
#: empty cell or capture there, or capture two cells away leaping the middle (Dabbabah).
PROPOSED: Final[Mapping[str, Mapping[str, str]]] = {
    "world": {"P": "K", "H": "Q", "W": "R", "S": "fmWfceFifmnD", "M": "N", "E": "K"},
    "hours": {"P": "K", "H": "Q", "W": "R", "S": "fmWfceFifmnD", "M": "N", "E": "K"},
    "hall": {"P": "WcD", "H": "WcD", "W": "WcD", "S": "WcD", "M": "WcD", "E": "WcD"},
}
PRESETS: Final[Mapping[str, Mapping[str, Mapping[str, str]]]] = {"proposed": PROPOSED}

_BASE: Final = {"W": (1, 0), "F": (1, 1), "D": (2, 0), "N": (2, 1), "A": (2, 2),
                "H": (3, 0), "C": (3, 1), "Z": (3, 2), "G": (3, 3)}
# Compound atoms: (base atom, rides?) parts.
_COMPOUND: Final = {"K": (("W", False), ("F", False)), "R": (("W", True),),
                    "B": (("F", True),), "Q": (("W", True), ("F", True))}
_TOKEN: Final = re.compile(r"(?P<mods>[a-z]*)(?P<atom>[A-Z])(?P<double>(?P=atom))?(?P<range>\d*)")
_MODIFIERS: Final = frozenset("mcfblrvsine")
_DIRECTIONS: Final[dict[str, Callable[[int, int], bool]]] = {
    "f": lambda x, y: y > 0, "b": lambda x, y: y < 0,
    "r": lambda x, y: x > 0, "l": lambda x, y: x < 0,
    "v": lambda x, y: abs(y) > abs(x), "s": lambda x, y: abs(x) > abs(y),
}

Vector = tuple[int, int]


@dataclass(frozen=True)
class Atom:
    """One parsed move pattern.

    ``vectors`` are relative to the mover (x right, y forward); ``limit`` is 1 for a leaper,
    0 for an unlimited rider, n for a rider of at most n steps; ``flags`` combine MOVE, CAPTURE,
    EN_PASSANT, INITIAL and LAME.
    """

    vectors: tuple[Vector, ...]
    limit: int
    flags: int


def symmetric(base: Vector) -> tuple[Vector, ...]:
    """The (up to 8) distinct images of a leap vector under the board's symmetries."""
    a, b = base
    seen: dict[Vector, None] = {}
    for x, y in ((a, b), (b, a)):
        for sx in (1, -1):
            for sy in (1, -1):
                seen[(sx * x, sy * y)] = None
    return tuple(seen)


def parse_betza(text: str) -> tuple[Atom, ...]:
    """The atoms of a Betza string (``""`` = the piece cannot move).

    Raises:
        ValueError: the text is not in the supported subset (the message says where).
    """
    atoms: list[Atom] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            raise ValueError(f"cannot read Betza {text!r} at {text[pos:]!r}")
        atoms.extend(_atoms_of(m, text))
        pos = m.end()
    return tuple(atoms)


def _atoms_of(m: re.Match[str], text: str) -> list[Atom]:
    mods, letter = m.group("mods"), m.group("atom")
    bad = set(mods) - _MODIFIERS
    if bad:
        raise ValueError(f"Betza {text!r}: unknown modifier {sorted(bad)[0]!r}")
    if letter in _COMPOUND:
        if m.group("double"):
            raise ValueError(f"Betza {text!r}: {letter}{letter} is not an atom")
        parts = _COMPOUND[letter]
    elif letter in _BASE:
        parts = ((letter, bool(m.group("double"))),)
    else:
        raise ValueError(f"Betza {text!r}: unknown atom {letter!r}")
    flags = _flags(mods)
    limit_text = m.group("range")
    out = []
    for base, rides in parts:
        limit = int(limit_text) if limit_text else (0 if rides else 1)
        if limit_text and limit < 1:
            raise ValueError(f"Betza {text!r}: a range must be at least 1")
        vectors = _select(symmetric(_BASE[base]), mods)
        if vectors:
            out.append(Atom(vectors, limit, flags))
    return out


def _flags(mods: str) -> int:
    move, capture = "m" in mods, "c" in mods
    flags = 0
    if move or not capture:
        flags |= MOVE
    if capture or not move:
        flags |= CAPTURE
    if "e" in mods:
        flags |= EN_PASSANT | CAPTURE
    if "i" in mods:
        flags |= INITIAL
    if "n" in mods:
        flags |= LAME
    return flags


def _select(vectors: tuple[Vector, ...], mods: str) -> tuple[Vector, ...]:
    """The vectors the direction modifiers keep (all of them when there are none)."""
    letters = [c for c in mods if c in _DIRECTIONS]
    if not letters:
        return vectors
    keep: set[Vector] = set()
    i = 0
    while i < len(letters):
        first = _DIRECTIONS[letters[i]]
        if letters[i] in "fb" and i + 1 < len(letters) and letters[i + 1] in "lrsv":
            second = _DIRECTIONS[letters[i + 1]]
            both = {v for v in vectors if first(*v) and second(*v)}
            if both:  # "fl" on a diagonal is one direction; "fs" on W adds up instead
                keep |= both
                i += 2
                continue
        keep |= {v for v in vectors if first(*v)}
        i += 1
    return tuple(v for v in vectors if v in keep)


def lame_path(vector: Vector) -> tuple[Vector, ...]:
    """Relative squares a lame (``n``) leap passes over: straight lines step by step, oblique
    leaps go orthogonally first along their longer side (the xiangqi horse)."""
    x, y = vector
    if x == 0 or y == 0 or abs(x) == abs(y):
        n = max(abs(x), abs(y))
        ux, uy = (x > 0) - (x < 0), (y > 0) - (y < 0)
        return tuple((ux * k, uy * k) for k in range(1, n))
    if abs(x) > abs(y):
        return tuple((((x > 0) - (x < 0)) * k, 0) for k in range(1, abs(x)))
    return tuple((0, ((y > 0) - (y < 0)) * k) for k in range(1, abs(y)))


# ------------------------------------------------------------------------------ the option


def check_piece_table(value: Any) -> Any:
    """Validate an ``alc.piece_table`` value and return it unchanged.

    Accepted: a preset name (``"proposed"``), or an object of overrides on a preset:
    ``{"preset": "proposed", "H": "B", "hours:S": "fmWfcF", "hall:*": "WcD"}``. A bare piece
    letter (P H W S M E, either case) sets the World and the Twelve Hours; ``region:letter`` sets
    one region (``world``, ``hours``, ``hall``); ``*`` stands for every piece.

    Raises:
        ValueError: an unknown preset, region, piece or a Betza string that does not parse.
    """
    resolve_piece_table(value)
    return value


def resolve_piece_table(value: Any) -> dict[str, dict[str, str]]:
    """The full table ``{region: {piece letter: Betza}}`` an option value stands for.

    Raises:
        ValueError: as :func:`check_piece_table`.
    """
    if isinstance(value, str):
        return _preset(value)
    if not isinstance(value, Mapping):
        raise ValueError("must be a preset name or an object of Betza strings")
    preset = value.get("preset", "proposed")
    if not isinstance(preset, str):
        raise ValueError("'preset' must be a preset name")
    table = _preset(preset)
    for key, betza in value.items():
        if key == "preset":
            continue
        if not isinstance(key, str) or not isinstance(betza, str):
            raise ValueError(f"{key!r}: keys and Betza definitions must be strings")
        parse_betza(betza)
        for region, piece in _targets(key):
            table[region][piece] = betza
    return table


def _preset(name: str) -> dict[str, dict[str, str]]:
    if name not in PRESETS:
        raise ValueError(f"unknown preset {name!r} (known: {', '.join(PRESETS)})")
    return {region: dict(pieces) for region, pieces in PRESETS[name].items()}


def _targets(key: str) -> Iterable[tuple[str, str]]:
    region, sep, piece = key.partition(":")
    regions: tuple[str, ...] = ("world", "hours")
    if not sep:
        piece = region
    elif region.lower() in REGIONS:
        regions = (region.lower(),)
    else:
        raise ValueError(f"{key!r}: unknown region {region!r} (known: {', '.join(REGIONS)})")
    letters = PIECE_KEYS if piece == "*" else piece.upper()
    if piece != "*" and (len(letters) != 1 or letters not in PIECE_KEYS):
        raise ValueError(f"{key!r}: unknown piece {piece!r} (known: {' '.join(PIECE_KEYS)}, *)")
    return [(r, p) for r in regions for p in letters]


# ------------------------------------------------------------------------------ compiling

#: A leap: (target, squares that must be empty, flags, en passant square it skips or -1).
Leap = tuple[int, tuple[int, ...], int, int]
#: A ride: (squares along the ray, nearest first; flags).
Ride = tuple[tuple[int, ...], int]


@dataclass
class SquareMoves:
    """Compiled moves of one piece (kind and orientation) from one square."""

    leaps: tuple[Leap, ...] = ()
    rides: tuple[Ride, ...] = ()


def compile_moves(
    atoms: Iterable[Atom], geo: Geometry, sq: int, forward: int, *,
    home: bool, en_passant: bool,
) -> SquareMoves:
    """The moves of ``atoms`` from ``sq`` on ``geo`` for a mover whose forward is ``forward``
    (+1 up the board, -1 down). ``home``: the square is on the piece's home rank in the World,
    so ``i`` atoms apply; ``en_passant``: ``e`` may capture en passant here (the World)."""
    plane, x0, y0 = geo.coords(sq)
    leaps: list[Leap] = []
    rides: list[Ride] = []
    for atom in atoms:
        if atom.flags & INITIAL and not home:
            continue
        flags = atom.flags if en_passant else atom.flags & ~EN_PASSANT
        for rx, ry in atom.vectors:
            dx, dy = rx * forward, ry * forward
            if atom.limit == 1:
                leap = _leap(geo, plane, x0, y0, (dx, dy), flags)
                if leap is not None:
                    leaps.append(leap)
            else:
                ray = _ride(geo, plane, x0, y0, (dx, dy), atom.limit)
                if ray:
                    rides.append((ray, flags))
    return SquareMoves(tuple(leaps), tuple(rides))


def _leap(geo: Geometry, plane: str, x0: int, y0: int, step: Vector, flags: int) -> Leap | None:
    target = geo.at(plane, x0 + step[0], y0 + step[1])
    if target < 0:
        return None  # leapers land only on real cells
    path: tuple[int, ...] = ()
    if flags & LAME:
        path = tuple(geo.at(plane, x0 + px, y0 + py) for px, py in lame_path(step))
        if any(p < 0 for p in path):
            return None  # a missing cell blocks a lame leap like a board edge
    skipped = path[-1] if flags & INITIAL and path and not flags & CAPTURE else -1
    return (target, path, flags, skipped)


def _ride(geo: Geometry, plane: str, x0: int, y0: int, step: Vector, limit: int
          ) -> tuple[int, ...]:
    out: list[int] = []
    x, y = x0, y0
    while not limit or len(out) < limit:
        x, y = x + step[0], y + step[1]
        target = geo.at(plane, x, y)
        if target < 0:
            return tuple(out)  # rays stop at the first missing cell
        out.append(target)
    return tuple(out)
