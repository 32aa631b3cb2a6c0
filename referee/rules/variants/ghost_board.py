"""Ghost Chess geometry: the edge ring, its options, spawn distances and the ghosts' move tables.

Coordinates (RULINGS.md §2.2, NOTATION.md): the extended 10x10 plane ``ext`` has x (files) and
y (ranks) from 0 to 9; the 8x8 board sits at 1..8 (a1 = (1, 1)); ring cells are ``a0``..``h0``
(y = 0), ``a9``..``h9`` (y = 9), ``z1``..``z8`` (x = 0) and ``i1``..``i8`` (x = 9). The four
corners never exist. Everything here is computed once per variant instance and then only read,
so move generation is a few table lookups per ghost (ghosts phase: no ray is ever blocked).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import groupby
from operator import itemgetter
from typing import Any, NamedTuple

from referee.rules.actions import MOVE, Action
from referee.rules.geometry import (
    DIAGONAL,
    DIRECTIONS,
    FILES,
    KNIGHT_VECTORS,
    ORTHOGONAL,
    Cell,
    Geometry,
)
from referee.rules.pieces import BISHOP, BLACK, KNIGHT, PAWN, QUEEN, ROOK, WHITE

PLANE = "ext"
SIDES: tuple[str, ...] = ("bottom", "top", "left", "right")
RING_MODES: tuple[str, ...] = ("full", "two_sided", "custom")
_CELL = re.compile(r"^(?:[a-h][09]|[zi][1-8])$")
#: How far a ghost bishop or knight slides along its edge line (SOURCE "up to 3 squares").
EDGE_STEPS = 3


def ring_coords() -> list[tuple[str, str, int, int]]:
    """Every possible ring cell as (name, side, x, y), in canonical order (bottom, top, left,
    right; each from a / 1 upwards)."""
    out = [(f"{FILES[x - 1]}0", "bottom", x, 0) for x in range(1, 9)]
    out += [(f"{FILES[x - 1]}9", "top", x, 9) for x in range(1, 9)]
    out += [(f"z{y}", "left", 0, y) for y in range(1, 9)]
    out += [(f"i{y}", "right", 9, y) for y in range(1, 9)]
    return out


_ORDER = {name: i for i, (name, *_rest) in enumerate(ring_coords())}


# ---------------------------------------------------------------------------- options


def cell_list(value: Any) -> list[str]:
    """Canonical list of ring cell names from a JSON list or a comma-separated string.

    Raises:
        ValueError: not a list/string of ring cell names (``a0``..``h0``, ``a9``..``h9``,
            ``z1``..``z8``, ``i1``..``i8``).
    """
    if isinstance(value, str):
        items: list[Any] = [v for v in value.split(",") if v.strip()]
    elif isinstance(value, list | tuple):
        items = list(value)
    else:
        raise ValueError(f"{value!r} is not a list of ring cells")
    names = []
    for item in items:
        if not isinstance(item, str) or not _CELL.match(item.strip().lower()):
            raise ValueError(f"{item!r} is not a ring cell (a0-h0, a9-h9, z1-z8, i1-i8)")
        names.append(item.strip().lower())
    return sorted(set(names), key=_ORDER.__getitem__)


def check_edge_ring(value: Any) -> Any:
    """``ghost.edge_ring``: ``full``, ``two_sided``, ``custom`` (cells in ``ghost.custom_cells``),
    or the custom cells themselves (a JSON list, or the text ``custom:a0,b0,z1``)."""
    if isinstance(value, str):
        low = value.strip().lower()
        if low in RING_MODES:
            return low
        if low.startswith("custom:"):
            return cell_list(low[len("custom:"):])
        raise ValueError(f"{value!r} is not full, two_sided, custom or a list of cells")
    return cell_list(value)


def check_two_sides(value: Any) -> str:
    """``ghost.two_sided_edges``: two different sides of bottom/top/left/right, as
    ``"bottom,left"`` (a JSON list is accepted too); returned in canonical order."""
    items = value.split(",") if isinstance(value, str) else value
    if not isinstance(items, list | tuple):
        raise ValueError(f"{value!r} is not two sides such as bottom,left")
    sides = {str(s).strip().lower() for s in items}
    if len(items) != 2 or len(sides) != 2 or not sides <= set(SIDES):
        raise ValueError(f"{value!r} must name two different sides of {', '.join(SIDES)}")
    return ",".join(s for s in SIDES if s in sides)


def ring_cells(options: dict[str, Any]) -> tuple[Cell, ...]:
    """The ring cells that exist under the options, on plane ``ext``.

    Raises:
        ValueError: ``ghost.edge_ring=custom`` without ``ghost.custom_cells``.
    """
    mode = options["ghost.edge_ring"]
    if isinstance(mode, list):
        wanted = set(mode)
    elif mode == "custom":
        wanted = set(options["ghost.custom_cells"])
        if not wanted:
            raise ValueError("ghost.edge_ring=custom needs the cells in ghost.custom_cells")
    elif mode == "two_sided":
        sides = set(options["ghost.two_sided_edges"].split(","))
        wanted = {name for name, side, _x, _y in ring_coords() if side in sides}
    else:
        wanted = {name for name, *_rest in ring_coords()}
    return tuple(Cell(name, PLANE, x, y) for name, _s, x, y in ring_coords() if name in wanted)


# ---------------------------------------------------------------------------- tables

class GhostMoves(NamedTuple):
    """Move tables of one ghost piece code, indexed by its ring square.

    ``steps``: (ring cell, move action) for cells it may end on when empty or held by an enemy
    ghost, without promotion; ``promos``: the same for a pawn's promotion cells, one action per
    promotion piece; ``caps``: (board square, action) where it may capture an enemy living
    piece; ``takes``: (ring cell, action) where it may end only by taking an enemy ghost (a
    bishop's diagonal under ``ghost.bishop_diagonal_edge_to_edge=false``: RULINGS §2.3 forbids
    the crossing *without* capturing; ending on an enemy ghost is an ordinary ghost capture).
    Actions are built once here, so generating a ghost move allocates nothing.
    """

    steps: list[tuple[tuple[int, Action], ...]]
    promos: list[tuple[tuple[int, tuple[Action, ...]], ...]]
    caps: list[tuple[tuple[int, Action], ...]]
    takes: list[tuple[tuple[int, Action], ...]]


def _move(frm: int, to: int, promo: str = "") -> Action:
    # tuple.__new__ skips NamedTuple's Python-level constructor: tables hold thousands of these.
    return tuple.__new__(Action, (MOVE, frm, to, promo, -1, ""))


@dataclass(frozen=True)
class GhostRules:
    """The ghost options that change how ghosts move."""

    bishop_edge_to_edge: bool
    knight_edge_l: bool
    far_row_promotes: bool


class GhostTables:
    """Precomputed ghost moves and spawn tiers over the extended geometry ``ext``.

    Attributes:
        ring: the ring squares (global indices) in canonical order.
        is_ring: per global square, whether it is a ring cell.
        promo_cells: per colour, ring cells where a ghost pawn promotes.

    The move tables of a ghost piece code (:meth:`moves`) and the spawn tiers of a board square
    (:meth:`tiers`) are built on first use and then only read: most games never meet every kind
    of ghost, and a variant instance is built for every game loaded.
    """

    def __init__(self, ext: Geometry, ring: Sequence[int], rules: GhostRules,
                 promo_letters: str = "QRBN") -> None:
        self.ext = ext
        self.promo_letters = promo_letters
        self.ring = tuple(ring)
        self.is_ring = [False] * ext.size
        for sq in self.ring:
            self.is_ring[sq] = True
        self.rules = rules
        self.promo_cells = {c: self._promotion_cells(c) for c in (WHITE, BLACK)}
        self._moves: dict[int, GhostMoves] = {}
        coords = ext.coords
        self._ring_xy = [(cell, coords(cell)[1], coords(cell)[2]) for cell in self.ring]
        # Spawn tiers are worked out on first use: a game captures on a few squares only.
        self._tiers: list[tuple[tuple[int, ...], ...] | None] = [None] * ext.size

    def _promotion_cells(self, colour: int) -> frozenset[int]:
        """White: z8, i8 (+ the top row with far_row_promotes); Black: z1, i1 (+ bottom row)."""
        last, far = (8, 9) if colour == WHITE else (1, 0)
        out = set()
        for sq in self.ring:
            _p, x, y = self.ext.coords(sq)
            if (x in (0, 9) and y == last) or (self.rules.far_row_promotes and y == far):
                out.add(sq)
        return frozenset(out)

    def moves(self, piece: int) -> GhostMoves:
        """The move tables of a ghost piece code (built on first use; idempotent, so two
        threads racing here build equal tables)."""
        found = self._moves.get(piece)
        if found is None:
            found = self._moves[piece] = self._build(piece & 15, piece >> 4)
        return found

    def _build(self, kind: int, colour: int) -> GhostMoves:
        promo_cells = self.promo_cells[colour] if kind == PAWN else frozenset()
        steps: list[tuple[tuple[int, Action], ...]] = [()] * self.ext.size
        promos: list[tuple[tuple[int, tuple[Action, ...]], ...]] = [()] * self.ext.size
        caps: list[tuple[tuple[int, Action], ...]] = [()] * self.ext.size
        takes: list[tuple[tuple[int, Action], ...]] = [()] * self.ext.size
        for sq in self.ring:
            ring_to, board_to, take_to = (self._pawn_targets(sq, colour) if kind == PAWN
                                          else self._targets(sq, kind))
            steps[sq] = tuple((t, _move(sq, t)) for t in ring_to if t not in promo_cells)
            promos[sq] = tuple((t, tuple(_move(sq, t, p) for p in self.promo_letters))
                               for t in ring_to if t in promo_cells)
            caps[sq] = tuple((t, _move(sq, t)) for t in board_to)
            takes[sq] = tuple((t, _move(sq, t)) for t in take_to)
        return GhostMoves(steps, promos, caps, takes)

    def _targets(self, sq: int, kind: int) -> tuple[list[int], list[int], list[int]]:
        """(ring cells, board squares, ring cells only to take an enemy ghost) a non-pawn
        ghost on ring cell ``sq`` may end on."""
        ring_to: list[int] = []
        board_to: list[int] = []
        take_to: list[int] = []
        if kind in (BISHOP, KNIGHT):
            ring_to += self._edge_line(sq)
        if kind in (ROOK, BISHOP, QUEEN):
            dirs = {ROOK: ORTHOGONAL, BISHOP: DIAGONAL, QUEEN: ORTHOGONAL + DIAGONAL}[kind]
            for d in dirs:
                for t in self.ext.rays[d][sq]:  # phasing: every cell of the ray is a candidate
                    if not self.is_ring[t]:
                        board_to.append(t)
                    elif kind != BISHOP or self.rules.bishop_edge_to_edge:
                        ring_to.append(t)
                    else:
                        take_to.append(t)
        if kind == KNIGHT:
            for t in self._leaps(sq, KNIGHT_VECTORS):
                if not self.is_ring[t]:
                    board_to.append(t)
                elif self.rules.knight_edge_l:
                    ring_to.append(t)
        take_to = [t for t in dict.fromkeys(take_to) if t not in ring_to]
        return list(dict.fromkeys(ring_to)), list(dict.fromkeys(board_to)), take_to

    def _edge_line(self, sq: int) -> list[int]:
        """Ring cells 1..3 steps away along the ring line through ``sq`` (no corner turning;
        a missing cell ends the line)."""
        out: list[int] = []
        for d in ORTHOGONAL:
            for t in self.ext.rays[d][sq][:EDGE_STEPS]:
                if not self.is_ring[t]:
                    break
                out.append(t)
        return out

    def _pawn_targets(self, sq: int, colour: int) -> tuple[list[int], list[int], list[int]]:
        """Forward/sideways steps to ring cells; diagonal-forward captures onto the board."""
        fwd = 1 if colour == WHITE else -1
        ring_to = [t for t in self._leaps(sq, ((0, fwd), (1, 0), (-1, 0))) if self.is_ring[t]]
        board_to = [t for t in self._leaps(sq, ((1, fwd), (-1, fwd))) if not self.is_ring[t]]
        return ring_to, board_to, []

    def _leaps(self, sq: int, vectors: Sequence[tuple[int, int]]) -> list[int]:
        return [t for t in (self.ext.leap(v)[sq] for v in vectors) if t >= 0]

    def tiers(self, sq: int) -> tuple[tuple[int, ...], ...]:
        """Ring cells grouped by equal Euclidean distance from board square ``sq``, nearest
        tier first (cells within a tier in canonical ring order)."""
        found = self._tiers[sq]
        if found is None:
            _p, bx, by = self.ext.coords(sq)
            by_dist = sorted(((x - bx) ** 2 + (y - by) ** 2, i, cell)
                             for i, (cell, x, y) in enumerate(self._ring_xy))
            found = tuple(tuple(cell for _d, _i, cell in group)
                          for _k, group in groupby(by_dist, key=itemgetter(0)))
            self._tiers[sq] = found  # idempotent memo: safe if two threads race here
        return found


def board_lines(geo: Geometry, board: Sequence[int]) -> list[frozenset[int]]:
    """Per board square, the board squares on its eight rays: only a capture on one of these
    can uncover a line attack on a king standing there."""
    lines: list[frozenset[int]] = [frozenset()] * geo.size
    for sq in board:
        lines[sq] = frozenset(t for d in range(len(DIRECTIONS)) for t in geo.rays[d][sq])
    return lines
