"""What the camera sees of a variant: its 8x8 board, the regions around it, a second board.

Why a view: every variant says where its regions lie physically (``Region.panel``, ``shift``,
``look``; :meth:`referee.rules.geometry.Layout.places`), and the camera must see each square
the rules move pieces to or from, or a move there is decoded from one end only. The tracker
(:mod:`referee.app.vision_track`) works on one *composite picture* per frame:

* rows 0-7: the main board warped top-down (a8 top-left), exactly as before, so everything
  that judges the 8x8 (the classifier, the lattice check, the ECC alignment) is unchanged;
* then rows of 8 *extra* squares, each ``SQUARE`` pixels: the other squares on the main
  board's panel (a printed label ring one square beyond the board on each side, reached with
  the board's own homography), then each second 8x8 board (its own corners, a8 top-left, so
  its 8 rows are a warped board the classifier reads as it reads the first).

The visible squares are numbered in that order: 0-63 the main board a1..h8, then the extras
row by row (:attr:`CameraView.index`). Squares the camera cannot see (a panel that is neither
a ring around the board nor a second 8x8 board) are left out; a variant whose main region is
not an 8x8 board is refused. No variant is named here: only the regions' places are read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from vision.errors import UnsupportedVariantError
from vision.geometry import BOARD, SQUARE, Corners, outline, painted, warp_board, warp_widened

FILES = "abcdefgh"
#: how far beyond the main board (in squares) the camera looks for squares of its panel
MARGIN = 1


@dataclass(frozen=True)
class Block:
    """A second 8x8 board: its ``panel`` name and its squares a8..h8, a7..h7, ..., a1..h1 (the
    variant's indices), in the order its warp shows them."""

    panel: str
    squares: tuple[int, ...]


@dataclass(frozen=True)
class CameraView:
    """The squares a camera sees of one variant, and how to cut them out of a frame.

    ``index``: the variant's square index of every visible square, in composite order (0-63
    the main board a1..h8); ``looks``: each one's look (``checker``, ``border``, ``plain``);
    ``ring``: the main panel's extra squares as (variant index, x, y) panel coordinates, in
    composite order after the main board; ``blocks``: the second boards, after the ring.
    """

    index: tuple[int, ...]
    looks: tuple[str, ...]
    ring: tuple[tuple[int, int, int], ...]
    blocks: tuple[Block, ...]

    @property
    def size(self) -> int:
        """How many squares the camera sees."""
        return len(self.index)

    @property
    def plain(self) -> bool:
        """Whether the camera sees the main 8x8 board only (the composite is its warp)."""
        return not self.ring and not self.blocks

    def compose(self, frame: Any, corners: Corners, others: Sequence[Corners] = ()) -> Any:
        """The composite picture of ``frame``: the main board warped with ``corners``, then
        the ring squares, then each second board warped with its corners in ``others``.

        Raises:
            UnsupportedVariantError: fewer corners than second boards.
        """
        main = warp_board(frame, corners)
        if self.plain:
            return main
        if len(others) < len(self.blocks):
            raise UnsupportedVariantError(
                f"the camera needs the corners of {len(self.blocks)} more board(s) "
                f"({', '.join(b.panel for b in self.blocks)})")
        parts = [main]
        if self.ring:
            parts.append(self._ring_rows(frame, corners))
        for other in others[:len(self.blocks)]:
            parts.append(warp_board(frame, other))
        return np.vstack(parts)

    def _ring_rows(self, frame: Any, corners: Corners) -> Any:
        """The ring's squares, 8 a row, cut from the board's plane widened by MARGIN squares."""
        wide = warp_widened(frame, corners, MARGIN)
        rows = ring_rows(len(self.ring))
        out = np.zeros((rows * SQUARE, BOARD, 3), dtype=np.uint8)
        for k, (_, x, y) in enumerate(self.ring):
            col, row = x + MARGIN, 7 - y + MARGIN
            r, c = divmod(k, 8)
            out[r * SQUARE:(r + 1) * SQUARE, c * SQUARE:(c + 1) * SQUARE] = \
                wide[row * SQUARE:(row + 1) * SQUARE, col * SQUARE:(col + 1) * SQUARE]
        return out


def ring_rows(count: int) -> int:
    """Composite rows holding ``count`` ring squares, 8 a row."""
    return (count + 7) // 8


def main_board(layout: Any) -> tuple[int, ...]:
    """The variant's index of each square a1..h8 of its 8x8 board.

    Raises:
        UnsupportedVariantError: the variant has no such board.
    """
    names = [f"{FILES[i % 8]}{i // 8 + 1}" for i in range(64)]
    if not all(layout.has_square(n) for n in names):
        raise UnsupportedVariantError("this variant has no 8x8 board for the camera to follow")
    return tuple(int(layout.square(n)) for n in names)


def view_of(variant: Any) -> CameraView:
    """What a camera sees of ``variant`` (see the module's docstring).

    Raises:
        UnsupportedVariantError: the variant has no 8x8 board (the message names it).
    """
    layout = variant.layout
    try:
        main = main_board(layout)
    except UnsupportedVariantError:
        raise UnsupportedVariantError(
            f"variant {variant.name!r} has no 8x8 board for the camera to follow") from None
    places = layout.places()
    panel = places[layout.name(main[0])][0]
    taken = set(main)
    ring: list[tuple[int, int, int]] = []
    others: dict[str, dict[tuple[int, int], int]] = {}
    for sq in range(layout.size):
        if sq in taken:
            continue
        where, x, y, look = places[layout.name(sq)]
        if where == panel:
            if -MARGIN <= x < 8 + MARGIN and -MARGIN <= y < 8 + MARGIN:
                ring.append((sq, x, y))
        elif look == "checker":
            others.setdefault(where, {})[(x, y)] = sq
    blocks = []
    for name, cells in others.items():
        if set(cells) == {(x, y) for x in range(8) for y in range(8)}:
            blocks.append(Block(name, tuple(cells[(x, y)] for y in range(7, -1, -1)
                                            for x in range(8))))
    ring.sort(key=lambda c: (c[2], c[1]))
    if blocks and len(ring) % 8:
        raise UnsupportedVariantError(
            f"variant {variant.name!r}: a second board and {len(ring)} squares around the "
            "first are more than the camera can follow")
    index = (*main, *(sq for sq, _, _ in ring), *(sq for b in blocks for sq in b.squares))
    looks = tuple(places[layout.name(i)][3] for i in index)
    return CameraView(index, looks, tuple(ring), tuple(blocks))


def extra_slot(i: int) -> tuple[int, int]:
    """(row, column) in the composite picture of visible square ``i`` >= 64."""
    return 8 + (i - 64) // 8, (i - 64) % 8


def square_slot(i: int) -> tuple[int, int]:
    """(row, column) in the composite picture of visible square ``i``."""
    return (7 - i // 8, i % 8) if i < 64 else extra_slot(i)


def find_second(frame: Any, corners: Corners) -> Corners:
    """The corners (a8, h8, h1, a1) of a second board in ``frame`` beside the first one
    (``corners``): the first board and the squares around it are painted over with the
    picture's median colour, the board finder (:func:`vision.locate.locate_board`) looks at
    what is left, and of the four labellings of what it finds the one the same way round as
    the first board is kept (a second board stands beside the first as it does: its rank 1 on
    White's side).

    Raises:
        BoardNotFoundError: no second board in the picture.
    """
    from vision.locate import locate_board

    area = outline(corners, MARGIN + 0.5)
    found = locate_board(frame if area is None else painted(frame, [area]))
    target = corners - corners.mean(axis=0) + found.mean(axis=0)
    turns = [np.roll(found, -k, axis=0) for k in range(4)]
    best = min(turns, key=lambda c: float(((c - target) ** 2).sum()))
    return np.asarray(best, dtype=np.float32)
