"""Regions, square names and precomputed movement tables.

Every square of every region of a variant gets one global integer index (``0 .. n-1``), in the
order the regions are listed. The engine works only with these integers; names appear at the
edges (notation, records, output). Coordinates follow NOTATION.md: x grows from White's left to
right (files), y from White's side upwards (ranks).

A :class:`Geometry` lays some squares out on *planes* (a plane is a set of cells with integer
coordinates) and precomputes, for every square, the rays in the eight directions and the targets
of any leap vector. Rays stop at the first coordinate that has no cell on the same plane, so
irregular shapes (the bone-shaped Twelve Hours, the ghost ring without corners) need no special
code. A variant may build several geometries over the same squares (Ghost Chess: living pieces
see only the 8x8, ghosts see the 10x10 extended grid).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from referee.rules.errors import NotationError

#: Unit steps of the eight directions: 0-3 orthogonal (N, S, E, W), 4-7 diagonal (NE, NW, SE, SW).
DIRECTIONS: tuple[tuple[int, int], ...] = (
    (0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, 1), (1, -1), (-1, -1),
)
ORTHOGONAL: tuple[int, ...] = (0, 1, 2, 3)
DIAGONAL: tuple[int, ...] = (4, 5, 6, 7)
KNIGHT_VECTORS: tuple[tuple[int, int], ...] = (
    (1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2),
)
KING_VECTORS: tuple[tuple[int, int], ...] = DIRECTIONS

FILES = "abcdefgh"


@dataclass(frozen=True)
class Cell:
    """One square: its canonical text, the plane it lies on and its coordinates there."""

    text: str
    plane: str
    x: int
    y: int


@dataclass(frozen=True)
class Region:
    """A named group of squares (a board, Hell, the ghost ring, Limbo...).

    ``implicit`` regions are written without a prefix (the variant's main region, the ghost
    ring); the others are written ``name:square``.

    Where the region lies on a physical board (for LED pictures, rigs and the camera) is said
    here too: the ``panel`` it is part of (regions sharing a panel are one piece of board; by
    default ``Board`` for implicit regions, else the region's name capitalised), the ``shift``
    added to its cells' coordinates on that panel, and its ``look``: ``checker`` (light and
    dark squares), ``plain`` or ``border`` (a label ring around a board).
    """

    name: str
    cells: tuple[Cell, ...]
    implicit: bool = False
    panel: str = ""
    shift: tuple[int, int] = (0, 0)
    look: str = "checker"

    @property
    def panel_name(self) -> str:
        """The panel this region is drawn on."""
        return self.panel or ("Board" if self.implicit else self.name.capitalize())


def grid_cells(
    plane: str, width: int, height: int, *, prefix: str = "", x0: int = 0, y0: int = 0,
    files: str = FILES, skip: Iterable[tuple[int, int]] = (),
) -> tuple[Cell, ...]:
    """Cells of a ``width`` x ``height`` grid named ``a1``-style, placed at (x0, y0) on ``plane``.

    ``skip`` lists local (x, y) coordinates that do not exist. ``prefix`` is prepended to the
    name (``"hell:"``).
    """
    gone = set(skip)
    return tuple(
        Cell(f"{prefix}{files[x]}{y + 1}", plane, x0 + x, y0 + y)
        for y in range(height)
        for x in range(width)
        if (x, y) not in gone
    )


class Layout:
    """All squares of a variant, with names both ways.

    Raises:
        ValueError: two cells share a name (a bug in a variant definition).
    """

    def __init__(self, regions: Sequence[Region]) -> None:
        self.regions: tuple[Region, ...] = tuple(regions)
        self.cells: tuple[Cell, ...] = tuple(c for r in self.regions for c in r.cells)
        self.size = len(self.cells)
        self._region_of: list[str] = [r.name for r in self.regions for _ in r.cells]
        self._by_text: dict[str, int] = {}
        for index, cell in enumerate(self.cells):
            self._add(cell.text, index)
        for region in self.regions:
            if region.implicit:  # "earth:e4" is accepted for "e4"
                for cell in region.cells:
                    qualified = f"{region.name}:{cell.text}"
                    self._by_text.setdefault(qualified, self._by_text[cell.text])
        self.region_squares: dict[str, tuple[int, ...]] = {
            r.name: tuple(i for i, name in enumerate(self._region_of) if name == r.name)
            for r in self.regions
        }

    def _add(self, text: str, index: int) -> None:
        if text in self._by_text:
            raise ValueError(f"duplicate square name {text!r}")
        self._by_text[text] = index

    def square(self, text: str) -> int:
        """The index of a square written in NOTATION.md form.

        Raises:
            NotationError: no such square in this variant.
        """
        index = self._by_text.get(text.strip().lower())
        if index is None:
            raise NotationError(f"no square {text!r} in this variant")
        return index

    def has_square(self, text: str) -> bool:
        """Whether ``text`` names a square of this layout."""
        return text.strip().lower() in self._by_text

    def name(self, index: int) -> str:
        """The canonical text of square ``index``."""
        return self.cells[index].text

    def region(self, index: int) -> str:
        """The name of the region that holds square ``index``."""
        return self._region_of[index]

    def places(self) -> dict[str, tuple[str, int, int, str]]:
        """Every square's physical place as plain data: name -> (panel, x, y, look), y growing
        away from White. Handed to ``hardware`` (pictures) and checked against rigs."""
        return {cell.text: (region.panel_name, cell.x + region.shift[0],
                            cell.y + region.shift[1], region.look)
                for region in self.regions for cell in region.cells}

    def needs_prefix(self, index: int) -> bool:
        """Whether the canonical text of ``index`` carries a region prefix."""
        return ":" in self.cells[index].text or self.cells[index].text == "limbo"


@dataclass
class Geometry:
    """Rays and leaps over some squares of a layout, on planes of integer coordinates.

    ``rays[d][sq]`` is the tuple of squares met walking from ``sq`` in direction ``d``
    (``DIRECTIONS``), nearest first; squares not in this geometry have empty rays.
    """

    size: int
    placed: dict[int, tuple[str, int, int]]
    rays: list[list[tuple[int, ...]]] = field(default_factory=list)
    _at: dict[tuple[str, int, int], int] = field(default_factory=dict)
    _leaps: dict[tuple[int, int], list[int]] = field(default_factory=dict)

    @classmethod
    def build(cls, layout: Layout, squares: Iterable[int],
              coords: dict[int, tuple[str, int, int]] | None = None) -> Geometry:
        """Geometry over ``squares`` of ``layout``, at their cells' coordinates.

        ``coords`` overrides a square's (plane, x, y): Ghost Chess puts the 8x8 board inside the
        ring's 10x10 plane that way.
        """
        placed: dict[int, tuple[str, int, int]] = {}
        for sq in squares:
            cell = layout.cells[sq]
            placed[sq] = coords[sq] if coords and sq in coords else (cell.plane, cell.x, cell.y)
        geo = cls(layout.size, placed)
        geo._at = {pos: sq for sq, pos in placed.items()}
        geo.rays = [[geo._ray(sq, d) for sq in range(layout.size)] for d in DIRECTIONS]
        return geo

    def at(self, plane: str, x: int, y: int) -> int:
        """The square at these coordinates, or -1."""
        return self._at.get((plane, x, y), -1)

    def coords(self, sq: int) -> tuple[str, int, int]:
        """(plane, x, y) of a square of this geometry."""
        return self.placed[sq]

    def _ray(self, sq: int, step: tuple[int, int]) -> tuple[int, ...]:
        if sq not in self.placed:
            return ()
        plane, x, y = self.placed[sq]
        out: list[int] = []
        while True:
            x, y = x + step[0], y + step[1]
            nxt = self._at.get((plane, x, y), -1)
            if nxt < 0:
                return tuple(out)
            out.append(nxt)

    def leap(self, vector: tuple[int, int]) -> list[int]:
        """``leap(v)[sq]``: the square reached from ``sq`` by vector ``v``, or -1 (cached)."""
        table = self._leaps.get(vector)
        if table is None:
            table = [-1] * self.size
            for sq, (plane, x, y) in self.placed.items():
                table[sq] = self._at.get((plane, x + vector[0], y + vector[1]), -1)
            self._leaps[vector] = table
        return table

    def leap_targets(self, vectors: Sequence[tuple[int, int]]) -> list[tuple[int, ...]]:
        """Per square, the existing targets of all ``vectors`` (in the order given)."""
        tables = [self.leap(v) for v in vectors]
        return [tuple(t[sq] for t in tables if t[sq] >= 0) for sq in range(self.size)]

    def between(self, a: int, b: int) -> tuple[int, ...]:
        """Squares strictly between ``a`` and ``b`` on a shared ray, or () if none."""
        for d in range(8):
            ray = self.rays[d][a]
            if b in ray:
                return ray[: ray.index(b)]
        return ()


def standard_board(prefix: str = "", plane: str = "board") -> tuple[Cell, ...]:
    """The 64 cells ``a1``..``h8`` (with an optional region prefix)."""
    return grid_cells(plane, 8, 8, prefix=prefix)


def square_colour_is_light(x: int, y: int) -> bool:
    """Chessboard colouring with a1 (0, 0) dark, as on every board in our variants."""
    return (x + y) % 2 == 1
