"""Which legal continuation a settled picture shows: the candidates and their scores.

Why a module of its own: the tracker (:mod:`referee.app.vision_track`) follows a camera's
frames (settling, the reference picture, a bumped or hand-held camera, taking back, other
lines); this is the judgement it asks for on each settled picture. From the game's position,
every board that can follow (an action, an action and a reply, up to MAX_SEQUENCE actions when
re-synchronising) is a :class:`Candidate`, and :meth:`Decoder.decide` scores each against the
change map (:mod:`vision.change`), the classifier's agreement and, seen from the side, what
the pieces cover of the squares behind them (:class:`Lean`), the table beyond the board
(:class:`Halo`) and the pieces' outlines (:class:`Fit`). The track module's docstring
describes the whole method; docs/vision.md measures it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from itertools import chain
from typing import Any

import cv2
import numpy as np

from referee.app.vision_view import view_of
from referee.rules.actions import MOVE, Action
from referee.rules.game import Game
from referee.rules.state import State
from vision.change import threshold
from vision.classify import EMPTY
from vision.errors import UnsupportedVariantError
from vision.geometry import Outlines

MAX_CHANGED = 12      # more changed squares than this: a hand or an arm is on the board
MARGIN = 0.15         # the best candidate must beat the runner-up by this share of its score
MIN_LEAD = 0.6        # ... and by at least this much (in change-threshold units)
CLASSIFIER_WEIGHT = 0.6  # weight of the classifier's opinion on a candidate's squares
PAIR_PENALTY = 1.0    # each action beyond the first pays this (threshold units) ...
PAIR_PENALTY_PHOTOS = 2.0  # ... and this in photos, one per position: a photo missed is
#                            rarer than a video's settled frame (docs/vision.md)
WEAK_CHANGE = 0.4     # a candidate square may change this little (x threshold) if the
#                       classifier agrees with its new content
UNEXPLAINED_SHARE = 0.9  # an unexplained square changing more than this x the weakest move
#                          square (and more than twice the threshold) vetoes the candidate
PROMOTION_ORDER = ("", "q", "r", "b", "n")  # preferred when the squares cannot tell
MAX_SEQUENCE = 3      # longest action sequence tried when re-synchronising
#: a piece's height in squares by its letter (a Staunton set: the king about 1.7 squares tall,
#: a pawn 0.9); other variants' pieces stand PIECE_OTHER tall
PIECE_HEIGHT = {"K": 1.7, "Q": 1.55, "B": 1.3, "N": 1.15, "R": 1.0, "P": 0.9}
PIECE_OTHER = 1.2
HEIGHTS = tuple(sorted({*PIECE_HEIGHT.values(), PIECE_OTHER}))  # shortest first
LEAN_COVER = 0.1      # a changed piece seen over this share of a square: it may change ...
LEAN_SHOULD = 0.15    # ... over this share: it should (LEAN_MISS when it does not) ...
LEAN_SHOULD_CENTRE = 0.05  # ... when it is seen over this share of the square's centre too ...
LEAN_STRONG = 0.3     # ... over this share: its change counts whole
LEAN_CREDIT = 0.5     # share of a leaning square's change credited to a move
LEAN_MISS = 1.0       # debit for a leaning square that should change and did not
COVERED_READ = 0.3    # a moved piece seen over this share of a square's centre it left may
#                       be what the classifier reads there (Decoder._read_under_body)
VEIL_COVER = 0.5      # a piece in front over this share of a square: the camera sees it there
OFF_CENTRE_COVER = 0.2  # a moved piece off centre may cover this share: its change is no hand's
VEIL_MAYBE_SHARE = 0.2  # a piece in front covering this share, off centre maybe half (VEIL_COVER)
VEIL_DOUBT = 1.0      # ... hides a candidate's square only so: the candidate pays this for it
MIX_SAME = 0.3        # ... as does a square whose seen colours, all pieces' covers mixed, change
#                       over at most this share of it (Decoder.mixed)
CODES = 1 << 6        # piece codes are below this (kind | colour << 4: colours 0, empty, to 3)
# a candidate's square that may look the same (Decoder._veiled)
VEILED, VEILED_IF_SAME, VEILED_MAYBE = 1, 2, 3
FIT_REACH = 3.0       # a close call: candidates this much (threshold units) past the lead ...
FIT_FLOOR = 1.0       # ... that score at least this ...
FIT_REACH_MOVED = 6.0  # ... (this far, the camera having moved, when that settles nothing) ...
FIT_MARGIN = 8        # ... single actions told apart when one's outlines miss this many fewer
FIT_MARGIN_MOVED = 10  # ... (this many when the camera moved between the two pictures) ...
FIT_SHARE = 0.6       # ... and at most this share of the next's
FIT_FAVOUR = 5        # ... or fewer than the margin but this many: favoured (kept open)
FIT_SHORT = 2.5       # ... and this many more per point the pick scores behind the best
KEEP_LEAD = 1.5       # a photo's rival trailing by no more (half a leaning square's most) is kept
GUESS_RIVALS = 3      # a photo's close rivals (as long as the best) kept open with it taken
MAX_VEILED = 1        # actions of the longest candidate whose veiled squares are looked for
SWAY_CHANGE = 250.0  # Lab change allowed a square per share of it pieces' outlines swept
LEAN_SHARE = 2.0      # a square behind another's piece that changed this much less: leaning
MAX_OCCLUDED = 6      # squares a hand or an arm from the edge may cover in a settled frame
BARE_SHARE = 0.5      # a piece's head left a cell beyond the board: over this share of it must
#                       look bare (within vision.change.BARE_TOLERANCE of the table's colour)
LOOK_WEIGHT = 3.0     # threshold units per cell's share of a look beyond the board explained
STANDARD_INDEX = tuple(range(64))


@dataclass(frozen=True)
class Candidate:
    """A board that can follow the current position: ``actions`` lead to it, ``mask`` (64
    bools, a1 = 0) marks the squares whose content changes, ``colour`` (64 ints) the colour
    then on every square (0 empty, 1 white, 2 black)."""

    actions: tuple[Action, ...]
    mask: np.ndarray[Any, np.dtype[np.bool_]]
    colour: np.ndarray[Any, np.dtype[np.int64]]
    #: squares whose piece changes but not its colour (taken and retaken): they may look
    #: changed or not, and count neither way
    optional: np.ndarray[Any, np.dtype[np.bool_]] | None = None
    #: a capture attempt the rules turn down: the picture is the capture made on the board,
    #: the position stays (the player puts both pieces back)
    attempt: bool = False
    #: the piece code then on every square (0 empty): how tall what stands there is
    pieces: np.ndarray[Any, np.dtype[np.int64]] = field(kw_only=True)
    #: the same actions promoting to other pieces: the same picture (a knight and a queen on
    #: e8 are both a white piece there), kept as alternatives when this one is taken
    twins: tuple[Candidate, ...] = field(default=(), kw_only=True)

    @property
    def squares(self) -> frozenset[int]:
        return frozenset(int(i) for i in np.flatnonzero(self.mask))


@dataclass(frozen=True)
class Decision:
    """The outcome of judging one settled frame (for tests and the camera sensor)."""

    candidate: Candidate | None
    score: float  # the best plausible candidate's (0.0 when no candidate is plausible)
    changed: int
    loose: int = 0  # changed squares the candidate leaves unexplained (a hand's, or a move's)
    #: candidates the picture shows the same as ``candidate`` (they differ only on squares a
    #: piece in front hides), nearly as well supported: a later picture may tell them apart
    alternatives: tuple[Candidate, ...] = ()
    #: the squares the candidate explains: its own, and those its pieces are seen over
    explained: frozenset[int] = frozenset()
    #: ``score`` before a close call was settled by the outlines (:meth:`Decoder._fitted`)
    evidence: float | None = None
    #: the alternative the outlines prefer but could not settle (:meth:`Decoder._fitted`)
    favoured: Candidate | None = None

    @property
    def shown(self) -> float:
        """What the picture shows for the candidate: its score before the outlines settled a
        close call. Lines are compared by it (:meth:`Tracker._other_line`): the outlines
        raise the one they pick to the lead a decision needs, a choice between the moves of
        one position, not more evidence for its line against another's."""
        return self.score if self.evidence is None else self.evidence


@dataclass(frozen=True)
class Branch:
    """A decision taken between candidates the picture could not tell apart: ``ply`` actions
    had been played before it, it played ``taken`` actions, ``alternatives`` are the others'
    actions; ``decided``: the tracker's count of accepted decisions when it was taken."""

    ply: int
    taken: int
    alternatives: tuple[tuple[Action, ...], ...]
    decided: int
    #: the alternative the pieces' outlines preferred (:attr:`Decision.favoured`), if any
    favoured: tuple[Action, ...] | None = None
    #: the outlines settled the call for the reading taken (:meth:`Decoder._fitted`)
    settled: bool = False


@dataclass(frozen=True)
class Halo:
    """What the camera sees of the table beyond the board's edges (:meth:`Tracker._halo`),
    one value a cell of :func:`vision.geometry.halo_cells`: ``change`` since the reference
    picture (0 on cells no piece is seen over or the picture does not show); ``cover``: what
    a piece of each of HEIGHTS on each square covers of each cell; ``sway``: how much of each
    cell those outlines moved over since the reference picture's view, or None (a camera
    that did not move); ``bare``: the share of each cell that looks like the table where no
    piece is seen (NaN where the picture does not show it); ``apart``: cells counted for no
    candidate, as though a piece that stays were seen over them (two lines' readings of one
    action compared on what both see alike: :meth:`Tracker._apart`), or None."""

    change: np.ndarray[Any, np.dtype[np.float64]]
    cover: np.ndarray[Any, np.dtype[np.float64]]
    sway: np.ndarray[Any, np.dtype[np.float64]] | None
    bare: np.ndarray[Any, np.dtype[np.float64]]
    apart: np.ndarray[Any, np.dtype[np.bool_]] | None = None


@dataclass(frozen=True)
class Lean:
    """What a piece of each of HEIGHTS on each square covers of every square, seen from where
    the camera stands (:func:`vision.geometry.silhouettes`): ``cover`` for a piece on its
    square's centre, ``far`` what it may cover put down off it (its outline grown by
    PLACEMENT).

    Why: players leave pieces a fifth of a square off centre, and the model's piece is a
    generic one; an oblique camera then sees a piece over a little more or less of the
    squares round it than ``cover`` says. Rendered photo games with every piece put down up
    to 0.15 square off centre lost 155 of 840 moves (seeds 4-7, seven views) without it."""

    cover: np.ndarray[Any, np.dtype[np.float64]]
    far: np.ndarray[Any, np.dtype[np.float64]]
    #: as ``cover``, of each square's central part, where a change is measured
    #: (:func:`vision.geometry.silhouettes_and_centres`)
    centre: np.ndarray[Any, np.dtype[np.float64]]


@dataclass(frozen=True)
class Fit:
    """The cells of the board's plane (:data:`vision.geometry.COVER_RASTER` a square's side)
    that changed between the two pictures a decision compares (``cells``, worked out when
    first asked: :func:`changed_cells`), and where a piece on each square is seen there in
    the later picture and in the earlier (:func:`vision.geometry.outlines`; the same object
    unless the camera moved): :meth:`Decoder._fitted`.

    Why the changed cells only when asked: whether the camera moved decides which close
    calls are looked at (FIT_REACH_MOVED), and for a camera that did not move most of them
    are then none; the outlines are kept by the tracker, the changed cells are not."""

    outlines: Outlines
    cells: Callable[[], np.ndarray[Any, np.dtype[np.bool_]]]
    earlier: Outlines

    @cached_property
    def changed(self) -> np.ndarray[Any, np.dtype[np.bool_]]:
        return self.cells()


class Once:
    """A truth worked out the first time it is asked, and kept: :meth:`Tracker._judge`'s
    ``deep`` (is the board the same as at the last check?) costs a change map, and most
    checks never ask (a move found with every changed square explained, no open branch)."""

    def __init__(self, work: Callable[[], bool]) -> None:
        self._work: Callable[[], bool] | None = work
        self._value = False

    def __bool__(self) -> bool:
        if self._work is not None:
            self._value, self._work = self._work(), None
        return self._value


def occupancy_of(state: State, index: Sequence[int] = STANDARD_INDEX) -> tuple[int, ...]:
    """Per visible square (a1 = 0) the colour on it: 0 empty, 1 white, 2 black.

    ``index[i]`` is the variant's own index of the 8x8 square ``i`` (see :func:`board_index`).
    """
    board = state.board
    return tuple((board[j] >> 4) if board[j] else 0 for j in index)


def pieces_of(state: State, index: Sequence[int] = STANDARD_INDEX) -> tuple[int, ...]:
    """Per visible square (a1 = 0) the piece code on it (0 empty)."""
    board = state.board
    return tuple(int(board[j]) for j in index)


def board_index(variant: Any) -> tuple[int, ...]:
    """The variant's square index for each square a1..h8 of the 8x8 board the camera sees.

    Raises:
        UnsupportedVariantError: the variant has no such 8x8 board.
    """
    layout = variant.layout
    names = [f"{'abcdefgh'[i % 8]}{i // 8 + 1}" for i in range(64)]
    if not all(layout.has_square(n) for n in names):
        raise UnsupportedVariantError(
            f"variant {variant.name!r} has no 8x8 board for the camera to follow")
    return tuple(int(layout.square(n)) for n in names)


def _reach(rows: np.ndarray[Any, Any], links: np.ndarray[Any, Any]
           ) -> np.ndarray[Any, np.dtype[np.bool_]]:
    """(n, t): whether row ``n`` reaches ``t`` through some ``s`` with ``rows[n, s]`` and
    ``links[s, t]`` (a product of boolean matrices; the rows are a few squares each).

    Why not ``@``: a float product of a decision's size runs on OpenBLAS's threads, which
    spin while they wait, and on a busy machine (a Pi running the referee and its pages, the
    test suite) they took the CPU: the photo games' tests took 77 s of CPU, 44 s without."""
    n, s = np.nonzero(rows)
    return _any_by_row(rows.shape[0], n, links[s])


def _any_by_row(count: int, n: np.ndarray[Any, Any], links: np.ndarray[Any, Any]
                ) -> np.ndarray[Any, np.dtype[np.bool_]]:
    """(count, t): for each row, whether any of the rows of ``links`` given to it (``n``,
    ascending, one row number per row of ``links``) holds at ``t``."""
    out = np.zeros((count, links.shape[1]), dtype=bool)
    if len(n):
        starts = np.flatnonzero(np.r_[True, n[1:] != n[:-1]])
        out[n[starts]] = np.logical_or.reduceat(links, starts, axis=0)
    return out


def _less_sway(change: np.ndarray[Any, Any], sway: np.ndarray[Any, Any],
               heights: np.ndarray[Any, Any]) -> np.ndarray[Any, np.dtype[np.float64]]:
    """``change`` (its first values those of ``sway``'s targets) less SWAY_CHANGE per share
    of each target that the outlines of the pieces standing (``heights``: each square's
    height class, -1 empty) moved over (``sway``, :meth:`Tracker._sway` or
    :attr:`Halo.sway`)."""
    standing = np.flatnonzero(heights >= 0)
    swept = np.zeros(len(change))
    swept[:sway.shape[2]] = sway[heights[standing], standing].sum(axis=0)
    return np.asarray(np.maximum(change - SWAY_CHANGE * swept, 0.0), dtype=np.float64)


def _add_rows(out: np.ndarray[Any, Any], rows: np.ndarray[Any, Any],
              values: np.ndarray[Any, Any]) -> None:
    """``out[rows[i]] += values[i]`` for rows in order (as :func:`numpy.nonzero` gives them),
    summed per row first: ``np.add.at`` took most of a decision's time beyond the board."""
    if len(rows):
        starts = np.flatnonzero(np.r_[True, rows[1:] != rows[:-1]])
        out[rows[starts]] += np.add.reduceat(values.astype(out.dtype), starts, axis=0)


def _swayed(change: np.ndarray[Any, Any], excess: np.ndarray[Any, Any], tau: float
            ) -> np.ndarray[Any, np.dtype[np.bool_]]:
    """The squares that changed (above ``tau``) only as the camera's own move may have made
    them change: not above ``tau`` in ``excess`` (:meth:`Decoder._unswayed`). None of them
    when the camera did not move (``excess`` is then the change itself)."""
    return np.asarray((change > tau) & (excess <= tau), dtype=bool)


def _square_tone(side: int) -> np.ndarray[Any, np.dtype[np.int8]]:
    """(side, side) cells of the board's plane, row 0 = rank 8: 1 on the light squares and 2
    on the dark, the colour (:meth:`Decoder._painted`) of the pieces an empty square looks
    like. A white piece over a light square, or a black one over a dark square, changes it
    too little to count on (:meth:`Decoder._fitted`)."""
    cell = side // 8
    rank = 7 - np.arange(side) // cell
    file = np.arange(side) // cell
    return np.where((rank[:, None] + file[None, :]) % 2 == 0, 2, 1).astype(np.int8)


def _next_to(a: int, b: int) -> bool:
    """Whether squares ``a`` and ``b`` of the 8x8 board (a1 = 0) touch (a king's step)."""
    return a != b and abs(a % 8 - b % 8) <= 1 and abs(a // 8 - b // 8) <= 1


def _read(agree: np.ndarray[Any, Any]) -> np.ndarray[Any, np.dtype[np.int64]]:
    """The colour the classifier reads on each square (``agree``: (n, 3)), -1 where it
    agrees with none."""
    best = np.argmax(agree, axis=1)
    return np.where(agree[np.arange(len(agree)), best] > 0, best, -1)


def pushed_pair(pushed: np.ndarray[Any, Any] | None, tau: float) -> bool:
    """Whether two or more squares of the main board changed by more than ``tau`` as though
    their piece were only pushed within them (``pushed``: :meth:`Tracker._unpushed`), as a
    move's two squares may when all else is still: :meth:`Decoder.decide` looks for a move
    there (a camera that did not move).

    Why: a black pawn c7-c6 seen from White's side at 35 degrees, behind a black knight on
    c5: the pawn on c6 stood where the knight's head had been seen and over c7 where it had
    stood, and both squares looked like their old picture moved by a few pixels. Counted as
    no change, the move was never looked for, its picture became the reference, and the
    game was lost there (an engine game, 19 of 87 moves in order)."""
    return pushed is not None and int(np.sum(pushed[:64] > tau)) >= 2


#: where a candidate changes the piece seen, and where it changes the look
#: (:meth:`Decoder.outline_change`)
OutlineChange = tuple[np.ndarray[Any, np.dtype[np.bool_]], np.ndarray[Any, np.dtype[np.bool_]]]


def outline_misses(changes: Sequence[OutlineChange], changed: np.ndarray[Any, Any]
                   ) -> np.ndarray[Any, np.dtype[np.int64]]:
    """For each candidate's :meth:`Decoder.outline_change`, the cells where they do not all
    agree that it misses: a cell that changed (``changed``) where it changes nothing, or one
    it changes the look of that did not change (:meth:`Decoder._fitted`)."""
    moved = [m for m, _ in changes]
    told = np.any(moved, axis=0) & ~np.all(moved, axis=0)
    return np.array([np.count_nonzero(((v & ~changed) | (~m & changed)) & told)
                     for m, v in changes], dtype=np.int64)


def outlines_tell(fewer: int, more: int, margin: float) -> bool:
    """Whether outlines missing ``fewer`` cells (:func:`outline_misses`) tell their reading
    from one missing ``more``: ``margin`` cells fewer, and at most FIT_SHARE of them (a
    difference of a few cells says nothing when both miss many; :meth:`Decoder._fitted`)."""
    return more - fewer >= margin and fewer <= FIT_SHARE * more


def lead_needed(best: float, margin: float = MARGIN) -> float:
    """How far the best candidate scoring ``best`` must lead the next to be taken: ``margin``
    of its score (MARGIN; another line against the line played, SWITCH_MARGIN), and at least
    MIN_LEAD."""
    return max(MIN_LEAD, margin * best)


def in_front(cover: np.ndarray[Any, Any], heights: np.ndarray[Any, Any],
              squares: np.ndarray[Any, Any]) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """The squares pieces stand on (``heights``: height classes, -1 empty) and the share of
    each of ``squares`` each of them covers (``cover``: :func:`vision.geometry.silhouettes`),
    its own square left out: (standing, (len(standing), len(squares)))."""
    standing = np.flatnonzero(heights >= 0)
    share = cover[heights[standing], standing][:, squares]
    share[standing[:, None] == squares[None, :]] = 0.0
    return standing, share


class _Over:
    """What the pieces of one height class that candidates move (``standing``, (n, size))
    are seen over, less what a piece in front of each hides of it (``hidden``:
    :meth:`Decoder._hidden_behind`, of the position before; a piece in front that the
    candidate moves hides nothing).

    Why: seen from White's side at 35 degrees from a hand, the black knight's f6-d7 changed
    d7 by 3 thresholds, and f6xd5 (the white pawn's square, behind the white queen on d4)
    was credited with d7 whole, as though the knight were seen over it from d5: the queen,
    taller, hides all of the knight but its head (a held-out engine game lost at its 20th
    move)."""

    def __init__(self, standing: np.ndarray[Any, Any], cover: np.ndarray[Any, Any],
                 hidden: tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]],
                 moved: np.ndarray[Any, Any]) -> None:
        self.n, self.s = np.nonzero(standing)
        size = standing.shape[1]
        self.rows = standing.shape[0]
        shares, squares = hidden[0][self.s], hidden[1][self.s]
        gone = np.zeros(squares.shape, dtype=bool)
        known = squares >= 0
        gone[known] = moved[np.broadcast_to(self.n[:, None], squares.shape)[known],
                            squares[known]]
        self.seen = np.maximum(cover[self.s, :size] - np.where(gone, 0.0, shares), 0.0)

    def reach(self, share: float, rows: np.ndarray[Any, Any] | None = None,
              also: np.ndarray[Any, Any] | None = None) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """(n, size): the squares some piece of ``rows`` (default: all standing) is seen over
        by at least ``share`` (and where ``also``, (size, size), holds from its square)."""
        pick = np.ones(len(self.n), dtype=bool) if rows is None else rows[self.n, self.s]
        links = self.seen[pick] >= share
        if also is not None:
            links &= also[self.s[pick]]
        return _any_by_row(self.rows, self.n[pick], links)


def _promo_rank(action: Action) -> int:
    promo = (action.promo or "").lower()
    return PROMOTION_ORDER.index(promo) if promo in PROMOTION_ORDER else len(PROMOTION_ORDER)


def _promoted_otherwise(actions: tuple[Action, ...], other: tuple[Action, ...]) -> bool:
    """Whether ``actions`` are ``other`` but for the piece some promotion makes (a camera
    sees the colour on e8, not which piece: an under-promotion is told only by how the piece
    moves later, :meth:`Tracker._other_line`)."""
    return len(actions) == len(other) and actions != other and all(
        a._replace(promo="") == b._replace(promo="") for a, b in zip(actions, other, strict=True))


def _occluded(change: np.ndarray[Any, Any], tau: float, explained: np.ndarray[Any, Any],
              put: np.ndarray[Any, Any] | None = None) -> np.ndarray[Any, np.dtype[np.bool_]]:
    """Squares (a1 = 0) that changed beyond what ``explained`` (a candidate's squares) allows
    and cannot be a hand or an arm reaching in from the side of the board: an unexplained square
    counts when it changed more than twice the threshold and more than UNEXPLAINED_SHARE of the
    candidate's weakest square; such squares are forgiven when, connected to each other, they
    reach the board's edge (at most MAX_OCCLUDED of them), since the squares under a hand keep
    their old look in the reference until the hand has gone; but not when they touch a square
    the candidate ``put`` a piece on: that hand may still hold the piece (the shared video's
    queen, held still over g4 on her way to h5 with the arm over h5, was taken for Qg4 once the
    classifier read d1 rightly as empty; the move is seen at the next check, the hand gone)."""
    weakest = float(change[explained].min()) if explained.any() else 0.0
    limit = max(2.0 * tau, UNEXPLAINED_SHARE * weakest)
    strong = (change > limit) & ~explained
    if not strong.any() or int(strong.sum()) > MAX_OCCLUDED:
        return np.asarray(strong, dtype=bool)
    # squares beyond the board (a ring, a second board) are where hands reach in from: only
    # the main board's groups away from its edge can veto
    grid = strong[:64].reshape(8, 8)
    near = np.zeros((8, 8), dtype=bool)
    if put is not None:  # the squares a piece was put on, and around them
        near = cv2.dilate(np.asarray(put[:64]).reshape(8, 8).astype(np.uint8),
                          np.ones((3, 3), np.uint8)) > 0
    count, labels = cv2.connectedComponents(grid.astype(np.uint8), connectivity=8)
    out = np.zeros((8, 8), dtype=bool)
    for k in range(1, count):
        part = labels == k
        rows, cols = np.nonzero(part)
        edge = rows.min() == 0 or cols.min() == 0 or rows.max() == 7 or cols.max() == 7
        if not edge or (part & near).any():
            out |= part
    return np.concatenate([out.reshape(64), np.zeros(len(change) - 64, dtype=bool)])


def _unseen(single: Candidate, row: np.ndarray[Any, Any] | None) -> bool:
    """Whether every square ``single`` changes is VEILED or VEILED_IF_SAME for it (``row``,
    :meth:`Decoder._veiled`): the camera cannot see the action at all."""
    if row is None:
        return False
    return bool(np.all((row[single.mask] == VEILED) | (row[single.mask] == VEILED_IF_SAME)))


def forgiven(change: np.ndarray[Any, Any], tau: float, explained: np.ndarray[Any, Any]) -> bool:
    """Whether :func:`_occluded` forgave some strongly changed unexplained squares."""
    weakest = float(change[explained].min()) if explained.any() else 0.0
    limit = max(2.0 * tau, UNEXPLAINED_SHARE * weakest)
    strong = (change > limit) & ~explained
    return bool(strong.any()) and not _occluded(change, tau, explained).any()


def attempt_picture(action: Action, before: Sequence[int] | np.ndarray[Any, Any],
                    index: Sequence[int]) -> np.ndarray[Any, np.dtype[np.int64]] | None:
    """What the camera sees of a move that changes nothing (a capture attempt the rules turn
    down): ``before`` (colours of the visible squares ``index``) with the mover taken from its
    square to the target's. None when it is no move between two visible squares."""
    if action.kind != MOVE or action.frm not in index or action.to not in index:
        return None
    frm, to = index.index(action.frm), index.index(action.to)
    if not before[frm] or frm == to:
        return None
    shown = np.array(before, dtype=np.int64)
    shown[to], shown[frm] = shown[frm], 0
    return shown


class Decoder:
    """Chooses which legal board a settled frame shows, from the game's current position.

    Holds the game (a :class:`~referee.rules.game.Game`); :meth:`decide` judges evidence,
    :meth:`accept` plays the chosen candidate's actions.
    """

    def __init__(self, game: Game, index: Sequence[int] | None = None) -> None:
        self.game = game
        self.index = tuple(view_of(game.variant).index if index is None else index)
        self._where = np.asarray(self.index, dtype=np.intp)
        self._cached: tuple[State, list[Candidate]] | None = None
        #: each candidate's veiled squares (:meth:`_veiled`) for one position and one cover
        self._veils: tuple[State, Any, dict[tuple[Action, ...], Any]] | None = None
        self._height_table: np.ndarray[Any, np.dtype[np.int64]] | None = None
        #: a close call is guessed (kept open as a Branch) rather than left undecided: one
        #: photo per position, where waiting shows nothing more
        self.guess = False
        #: the position a photo showed no move in (:meth:`saw_no_move`)
        self._no_move_in: State | None = None
        #: the position and the action played from it that an earlier photo showed
        #: (:meth:`played_first`)
        self._played: tuple[State, Action] | None = None

    def saw_no_move(self) -> None:
        """A photo of the current position showed no move: the next may show a move after one
        the camera could not see, and a sequence of two actions has its first action's squares
        veiled as that action's alone (:meth:`_veiled`), until the position changes."""
        self._no_move_in = self.game.state

    @property
    def sees_no_move(self) -> bool:
        """Whether a photo of the current position showed no move (:meth:`saw_no_move`)."""
        return self._no_move_in is self.game.state

    def played_first(self, action: Action) -> None:
        """``action`` was read from the current position on an earlier photo (a retraction
        judges again what was played since): a sequence beginning with it has its squares
        veiled as the action's alone (:meth:`_veiled`), until the position changes."""
        self._played = (self.game.state, action)

    def occupancy(self) -> tuple[int, ...]:
        """The colour on each visible square (a1 = 0) in the current position."""
        return occupancy_of(self.game.state, self.index)

    def candidates(self) -> list[Candidate]:
        """Every legal action and action + reply from the current position (cached per
        position: a take-back that replaces two moves by two others comes back to the same
        ply in another position), those the camera cannot tell apart collapsed to one."""
        state = self.game.state
        if self._cached is None or self._cached[0] is not state:
            self._cached = (state, self._enumerate(2))
        return self._cached[1]

    def sequences(self, depth: int, touching: frozenset[int]) -> list[Candidate]:
        """Every sequence of ``depth`` actions from the current position each of which changes
        one of the ``touching`` squares, those the camera cannot tell apart collapsed."""
        return self._enumerate(depth, touching)

    def _enumerate(self, depth: int, touching: frozenset[int] | None = None) -> list[Candidate]:
        variant = self.game.variant
        root = self.game.state
        start = np.asarray(occupancy_of(root, self.index), dtype=np.int64)
        pieces = np.asarray(pieces_of(root, self.index))

        looked = [self.index[i] for i in touching] if touching is not None else []

        def touches(state: State, nxt: State) -> bool:
            """Whether the colour on one of the ``touching`` squares changed."""
            return touching is None or any(state.board[j] >> 4 != nxt.board[j] >> 4
                                           for j in looked)

        made_on_board = variant.board_kinds  # a roll, an assignment, a pass: only followed
        found: list[tuple[tuple[Action, ...], State]] = []

        def walk(state: State, actions: tuple[Action, ...]) -> None:
            for a in variant.legal_actions(state):
                if a.kind not in made_on_board:
                    continue
                nxt = variant.apply(state, a)
                if not touches(state, nxt):
                    continue
                seq = (*actions, a)
                if len(seq) >= (1 if touching is None else depth):
                    found.append((seq, nxt))
                if len(seq) < depth:
                    walk(nxt, seq)

        walk(root, ())
        return self._collapsed(found, start, pieces)

    def _collapsed(self, found: list[tuple[tuple[Action, ...], State]],
                   start: np.ndarray[Any, Any], pieces: np.ndarray[Any, Any]
                   ) -> list[Candidate]:
        """One candidate per picture the sequences ``found`` (with the states they reach)
        leave: the first of those that leave it
        (fewest actions, the queen), the same actions promoting to other pieces as its twins.
        Sequences that change nothing the camera sees are dropped, but for a capture attempt
        the rules turn down (:func:`attempt_picture`).

        Why all boards at once: this runs for a position's thousand sequences at every
        decision, and one array of them costs a fraction of a thousand small ones (read
        through one iterator, each picture's key cut from one buffer: a middle-game
        position's 1,402 sequences 10.1 -> 7.1 ms, the candidates the same)."""
        if not found:
            return []
        size = len(found[0][1].board)
        after = np.fromiter(chain.from_iterable(state.board for _, state in found),
                            dtype=np.int64, count=len(found) * size
                            ).reshape(len(found), size)[:, self._where]
        colour = after >> 4  # as pieces_of and occupancy_of: a code's colour is its high bits
        mask = colour != start[None, :]
        optional = (after != pieces[None, :]) & ~mask
        seen, some_optional = mask.any(axis=1).tolist(), optional.any(axis=1).tolist()
        lengths = [len(actions) for actions, _ in found]
        if any(a.promo for actions, _ in found for a in actions):
            order = sorted(range(len(found)), key=lambda k: (
                lengths[k], [_promo_rank(x) for x in found[k][0]]))
        else:  # the same order: every action's promotion rank is the same
            order = sorted(range(len(found)), key=lengths.__getitem__)
        # each row's colours as bytes, cut from one buffer (a picture's key)
        pictures, width = colour.tobytes(), colour.shape[1] * colour.itemsize
        groups: dict[tuple[int, bytes], list[Candidate]] = {}
        for k in order:
            actions = found[k][0]
            if not seen[k]:
                shown = attempt_picture(actions[0], start, self.index) if len(actions) == 1 \
                    else None
                if shown is None:
                    continue  # nothing the camera sees
                # a failed attempt: the capture is made, then undone
                cand = Candidate(actions, shown != start, shown, None, attempt=True,
                                 pieces=pieces)
                key = (lengths[k], shown.tobytes())
            else:
                key = (lengths[k], pictures[k * width:(k + 1) * width])
                cand = None
            group = groups.get(key)
            if group is not None and not _promoted_otherwise(actions, group[0].actions):
                continue
            if cand is None:  # rows of the arrays of all (read only, as every candidate)
                cand = Candidate(actions, mask[k], colour[k],
                                 optional[k] if some_optional[k] else None, pieces=after[k])
            if group is None:
                groups[key] = [cand]
            else:
                group.append(cand)
        return [replace(g[0], twins=tuple(g[1:])) if len(g) > 1 else g[0]
                for g in groups.values()]

    def decide(self, change: np.ndarray[Any, Any], agree: np.ndarray[Any, Any],
               deep: bool | Once = False, lean: Lean | None = None,
               sway: np.ndarray[Any, Any] | None = None, halo: Halo | None = None,
               pushed: np.ndarray[Any, Any] | None = None,
               fit: Callable[[], Fit] | None = None,
               before: np.ndarray[Any, Any] | None = None) -> Decision:
        """The candidate the evidence shows, or a Decision without one.

        ``change``: 64 change values; ``agree``: (64, 3) classifier agreement; ``deep``: also
        try sequences of up to MAX_SEQUENCE actions touching the changed squares; ``lean``:
        what pieces cover seen from the camera; ``sway``: how much of each square the pieces'
        outlines moved over since the reference picture (:meth:`Tracker._sway`); ``halo``:
        what changed beyond the board's edges, where pieces' heads are seen; ``pushed``: the
        change of the squares counted as unchanged because their piece was only pushed
        within them (:meth:`Tracker._unpushed`), which a move may claim (:meth:`_score`)
        when the camera did not move (no ``sway``); ``fit``: what settles a close call
        (:meth:`_fitted`), worked out when one comes; ``before``: the classifier's agreement
        on the reference picture, from a camera that moved (:meth:`_seen_over`).

        Why claimed: seen from Black's side at 45 degrees, a black queen e8-e7 put her foot
        where her body had stood over e7 (0.41 of it), and e7, a dark square, looked like the
        same black shape moved by a fifth of a square: a push, counted as no change. e8-e7
        was then implausible and e8-e6 was taken (Anastasian-Lewis 2016, 79 of 81 moves);
        seen from White's side at 35 degrees, the queen d8-c7 put her foot where the outline
        of the piece in front had stood over c7, and d8-c8 was taken (Tal-Furster 1958, 27
        of 55). Why only with the camera still: a camera that moved (photos from a hand)
        moves the outlines of the pieces over the squares behind them in every photo; a
        queen d8's over the empty d7 was read as a bishop's move there when any move could
        claim any pushed square, and when only moves of a piece seen over the square could,
        a pawn e2-e4 was read as e2-e3 (the pawn's outline over e3; Napoleon-Bertrand from a
        hand, 5 -> 0 moves; 43 real games from a hand 1,692 -> 1,661 moves in order). With
        the camera moved, a move still claims a square it leaves behind a piece in front
        (VEILED for it, :meth:`_score`): a knight g8-f6 seen from White's side at 35 degrees
        left g8, behind the g7 pawn, looking pushed (42 against a threshold of 6), and scored
        3.27 against the pawn's f7-f6 2.99 (12 from a still camera). Photos from a hand
        3,463 -> 3,604 of 4,778, held out 1,966 -> 1,993 of 2,774; any square a move leaves
        gained as much on the first (3,561) and lost a held-out game (1,909).
        """
        tau = threshold(change)
        e = np.clip((change - tau) / tau, -1.0, 3.0)
        changed = int(np.sum(e > 0))
        excess = self._unswayed(change, sway)
        beyond = halo is not None and bool(np.any(halo.change > tau))
        # the camera moved: a move claims only the pushed squares it leaves behind a piece in
        # front (:meth:`_score`), and they alone are no reason to look for a move
        moved = sway is not None
        claims = lean is not None and not moved and pushed_pair(pushed, tau)
        if (changed == 0 and not beyond and not claims) or int(np.sum(excess > tau)) > MAX_CHANGED:
            return Decision(None, 0.0, changed)
        cands = self.candidates()
        best = self._score(cands, change, tau, agree, lean, excess, halo, pushed, fit,
                           left_only=moved, before=before)
        if (best.candidate is None or best.loose) and deep:  # deep asked only then
            # a move that leaves changed squares unexplained may be one of a longer sequence
            # (a king's step e7-e8 hidden behind the king, after two moves already taken)
            touching = frozenset(int(i) for i in np.flatnonzero(e > 0))
            deeper = self._enumerate(MAX_SEQUENCE, touching)
            again = self._score(cands + deeper, change, tau, agree, lean, excess, halo,
                                pushed, fit, left_only=moved, before=before)
            if again.candidate is not None or best.candidate is None:
                best = again
        return replace(best, changed=changed)

    def _unswayed(self, change: np.ndarray[Any, Any], sway: np.ndarray[Any, Any] | None
                  ) -> np.ndarray[Any, Any]:
        """``change`` less what the camera's own move may have made of each square: SWAY_CHANGE
        per share of it that the outlines of the pieces standing now moved over (``sway``).

        Why: photos taken from a hand (each from a little elsewhere: 5 degrees round the
        table, 3 up or down) see every piece from another side; where a piece in front stands
        over another (a white pawn d4 over a black one on d5, seen from White's side), the
        line between them moves by a few pixels and the square changes by three thresholds
        with no move there, so the move (h7-h5) was refused as a hand on the board."""
        if sway is None:
            return change
        heights = self.heights(np.asarray(pieces_of(self.game.state, self.index)))[:64]
        return _less_sway(change, sway, heights)

    def _score(self, cands: list[Candidate], change: np.ndarray[Any, Any], tau: float,
               agree: np.ndarray[Any, Any], lean: Lean | None = None,
               excess: np.ndarray[Any, Any] | None = None, halo: Halo | None = None,
               claimable: np.ndarray[Any, Any] | None = None,
               fit: Callable[[], Fit] | None = None, left_only: bool = False,
               before: np.ndarray[Any, Any] | None = None) -> Decision:
        """The best candidate for ``change`` (``excess``: the change no camera's move makes,
        for the squares a candidate leaves unexplained; :meth:`_unswayed`; ``halo``: beyond
        the board, :meth:`_beyond`; ``claimable``: the change of pushed squares, counted for
        the candidates that change them, :meth:`decide`, and with ``left_only`` (the camera
        moved) only for those that leave them behind a piece in front; ``fit``:
        :meth:`_fitted`)."""
        e = np.clip((change - tau) / tau, -1.0, 3.0)
        excess = change if excess is None else excess
        if not cands:
            return Decision(None, 0.0, 0)
        mask = np.stack([c.mask for c in cands])
        colour = np.stack([c.colour for c in cands])
        big = np.broadcast_to(e[None, :], mask.shape)
        veils = None if lean is None else self._veiled(cands, mask, lean)
        if veils is not None and before is not None and lean is not None:
            veils = self._seen_over(cands, veils, colour, before, agree, lean)
        claimed = None  # the pushed squares a candidate may claim
        if claimable is not None and veils is not None and claimable.any():
            claimed = claimable > 0
            raw = np.clip((claimable - tau) / tau, -1.0, 3.0)[None, :]
            if left_only:  # a camera that moved: only a square a move leaves behind a piece
                # in front (veiled), when it changed as a push would
                leaving = mask & claimed[None, :] & (colour == EMPTY) & (veils == VEILED)
                big = np.where(leaving, np.maximum(big, raw), big)
            else:
                big = np.where(mask & claimed[None, :], raw, big)
        length = np.array([len(c.actions) for c in cands], dtype=np.float64)
        support = big + CLASSIFIER_WEIGHT * np.take_along_axis(
            np.broadcast_to(agree[None, :, :], (len(cands), agree.shape[0], 3)), colour[:, :, None],
            axis=2)[:, :, 0]
        if lean is not None:
            support = self._read_under_body(cands, colour, agree, lean, big, support)
        positive = np.clip((excess - tau) / tau, 0.0, 1.0)  # a hand's squares cost 1 each
        veiled = np.zeros_like(mask)    # squares it changes that look the same
        doubted = np.zeros_like(mask)   # ... only if the pieces stand off their centres
        if veils is not None:
            doubted = (veils == VEILED_MAYBE) & (big <= 0)
            veiled = ((veils == VEILED) | ((veils == VEILED_IF_SAME) & (big <= 0))
                      | doubted)
        # Only candidates whose every square changed (or changed a little, with the classifier
        # agreeing on its new content) can explain the frame; the best of them must beat the
        # next by a margin. The others are not scored at all (most of a position's thousand).
        changed = (big > 0) | ((big > WEAK_CHANGE - 1.0) & (support > 0))
        if not self.guess:
            # In a video, a sequence of moves (re-synchronising over one missed) shows each
            # of its squares clearly once the board settles: one that changed by less than
            # twice the threshold counts only with the classifier not against it. A player's
            # arm held still over the h-file (the shared video, corners found: off by up to
            # 6 px) was taken for h2-h4, Nf6xh5, Rh1-h3, with f6 changed by 1.3 thresholds and
            # read a black piece still, instead of waiting for Qxf7#.
            changed &= (length[:, None] < 2) | (big >= 1.0) | (support > 0)
        plausible = np.flatnonzero(np.all(changed | ~(mask & ~veiled), axis=1))
        if not len(plausible):
            return Decision(None, 0.0, 0)
        cands = [cands[k] for k in plausible]
        mask, colour, big, support = mask[plausible], colour[plausible], big[plausible], \
            support[plausible]
        length, veiled, doubted = length[plausible], veiled[plausible], doubted[plausible]
        optional = np.zeros_like(mask)
        for k, c in enumerate(cands):
            if c.optional is not None:
                optional[k] = c.optional
        leaning = np.zeros_like(mask)   # squares a changed piece is seen over
        should = np.zeros_like(mask)    # ... that should change with it
        expected = np.zeros_like(mask)  # ... mostly: their change counts whole
        seconded = np.zeros_like(mask)  # a sequence's squares its own pieces are seen over
        excused = np.zeros_like(mask)   # ... or may be, the piece off its centre
        if lean is not None:
            leaning, should, expected, seconded, excused = self._leaning(
                cands, mask, optional, change, lean, agree)
            if claimed is not None and not left_only:
                # a square a piece is seen over that should change, and that changed as
                # though a piece were pushed within it, changed: a black queen d4xd5 seen
                # from White's side at 35 degrees moved her head over d6 by a third of a
                # square (no credit: every piece seen over it would claim it)
                should &= ~claimed[None, :]
            mask = mask & ~veiled  # may change or not
            optional = optional | veiled
        # What a sequence claims where the camera's own move made all the change is no
        # evidence for it either way (:meth:`_phantoms`).
        # (``swept``: a sequence's squares so changed, below for the squares it is seen over)
        swept = self._phantoms(length, _swayed(change, excess, tau))
        phantom = swept & mask
        big, support = np.where(phantom, 0.0, big), np.where(phantom, 0.0, support)
        gain = np.maximum(big, 0.0)
        # Nor are, for a sequence, the squares its pieces are seen over where the camera's
        # move made all the change: from a hand at White's side, 35 degrees, g4xf3 with the
        # pawn's e2xf3 was credited with e3 (the e2 pawn's outline swaying over it, 5
        # thresholds), 10.40 against g4xf3's 9.00. A single move's keep their credit: a
        # piece's outline sways most where it moved (a single move's too credited only with
        # the change beyond the camera's move: 45 games from a hand 4,203 -> 4,153 moves in
        # order, a pawn's e6-d5 lost to a king's e8-d7).
        credit = np.where(seconded, LEAN_CREDIT * gain, support)
        score = ((credit * mask).sum(axis=1) + (gain * optional).sum(axis=1)
                 + (np.where(swept, 0.0, gain)
                    * np.where(expected, 1.0, LEAN_CREDIT) * leaning).sum(axis=1)
                 - LEAN_MISS * (should & (big <= 0)).sum(axis=1)
                 - (positive[None, :] * ~(mask | optional | leaning | excused)).sum(axis=1)
                 - VEIL_DOUBT * doubted.sum(axis=1)
                 - (PAIR_PENALTY_PHOTOS if self.guess else PAIR_PENALTY) * (length - 1))
        if halo is not None:
            score = score + self._beyond(cands, mask | optional, tau, halo)
        unfitted = score
        favoured: int | None = None
        if fit is not None:
            score, favoured = self._fitted(cands, score, length, fit)
        order = [int(k) for k in np.argsort(-score, kind="stable")]
        top = order[0]
        # A photo, one per position: a sequence means a photo missed, and is read only when it
        # leads every shorter candidate by the margin; a shorter one within it is the reading,
        # the sequence kept open (``demoted``). From a hand at White's side, 35 degrees, two
        # photos after e7-e5 (behind the e4 pawn; e7-e6 kept open) the pawn's a7-a5 scored 8.37
        # and a7-a5 with the knight's f3xe5 8.97, e5 changed as the e4 pawn's outline swayed
        # over it: no move was read, and e7-e6's line explained the photo with a7-a5 and a
        # phantom e4-e5 and was taken (the twelfth held-out set's game 11, lost at its 12th
        # move of 112).
        demoted: int | None = None
        if self.guess and length[top] > 1:
            close = lead_needed(float(score[top]))
            shorter = next((k for k in order[1:] if length[k] < length[top]
                            and float(score[top] - score[k]) < close), None)
            if shorter is not None:
                demoted, top = top, shorter
                order = [top] + [k for k in order if k != top]
        best_score = float(score[top])
        # The runner-up is the best explanation of another picture: a longer sequence that
        # leaves the same picture (a move, then a capture attempt the rules turned down while
        # no frame was taken) is the same evidence explained at a cost, not a rival.
        # So is a longer sequence whose own squares are the best's squares (those it may
        # change unseen too: a white bishop d5xb7 seen from White's side at 35 degrees left
        # d5 behind the d4 pawn, and d5xb7 with d7-d5 claimed d5 and the d7 its head had
        # covered: 11.39 against 13.39, a hair under the margin, and no move was ever read
        # again in that engine game), the squares its pieces are seen over
        # (:data:`LEAN_SHARE`) and squares only the camera's own move changed (``phantom``:
        # no evidence for it, :meth:`_phantoms`).
        covered = mask[top] | optional[top] | leaning[top]
        # Nor is a longer sequence that plays the best's actions and more, scoring no more than
        # the best less a pair's penalty for each action more: its other actions explain
        # nothing (a bishop's b7-c8 at 14.72 was left undecided by b7-c8 with a knight's
        # h6-f5 at 12.63, from a hand at White's side, 35 degrees).
        penalty = PAIR_PENALTY_PHOTOS if self.guess else PAIR_PENALTY
        mine = set(cands[top].actions)
        # A photo: a pair beginning with the best single action (a photo missed) is no rival
        # to it, as a single action within a pair that leads is read and the pair kept open
        # (``demoted`` above); the best such pair, when close to it, is kept open (below).
        # From a hand at White's side, 35 degrees, the pawn's e4-e5 (e4 behind the king on
        # e3, e5 behind e4) changed nothing; the next photo showed it and the black pawn's
        # f6xe5 (f6 behind the f5 bishop): e4-e5 scored 6.00 and e4-e5 with f6xe5 5.48 (a
        # pair's penalty paid), which was dropped (its own squares are the best's), and the
        # white pawn's f4xe5 next, which that line alone can play, was read as the bishop's
        # f5-e4 (the fifteenth held-out set's game 16, lost at its 68th move of 93). In that
        # line f4xe5 scored 9.64 and f4xe5 with the bishop's f5-e6 9.57, a rival within the
        # margin, and no move was read (docs/vision.md, *A move seen late keeps its reply
        # open*).
        late = [k for k in order[1:] if length[k] == 2
                and cands[k].actions[0] == cands[top].actions[0]
                ] if self.guess and demoted is None and length[top] == 1 else []
        rivals = [k for k in order[1:] if k != demoted and k not in late
                  and not np.array_equal(colour[k], colour[top])
                  and not (length[k] > length[top]
                           and not np.any(mask[k] & ~seconded[k] & ~covered & ~phantom[k]))
                  and not (length[k] > length[top] and mine <= set(cands[k].actions)
                           and unfitted[k] + penalty * (length[k] - length[top])
                           <= unfitted[top])]
        # A rival that changes the same visible squares to the same colours differs only
        # where a piece in front hides the board (a black pawn f7-f6 or a knight g8-f6, seen
        # from White's side): no picture of this position tells them apart, a later one may
        # (Tracker._other_line). The best is taken, the others kept as alternatives.
        alike = {k for k in rivals if length[k] == length[top]
                 and np.array_equal(mask[k], mask[top])
                 and np.array_equal(colour[k][mask[top]], colour[top][mask[top]])}
        need = lead_needed(best_score)
        # A photo's best single move that nothing but the camera's own move speaks for (its
        # score less the change its squares owe to that is none) is no reading of the move:
        # its rivals within the margin of that (``bare``) are kept open too. From a hand at
        # White's side, 35 degrees, a black queen's d8-d7 (both squares hidden by the pieces
        # in front) changed nothing, and a7-a6 scored 1.42 on a6's sway alone (-0.01 for
        # d8-d7): the queen's move was dropped, and the game lost at its 20th move of 107
        # (the fourth held-out set's game 11; Tracker._diverge). Only then: any best's
        # rivals within the margin of its score less its swayed squares (a knight's d7-b6
        # at 6.07, d7 changed as the outlines swayed) made more lines, and one of them was
        # switched to wrongly (test_photos_from_a_hand_the_outlines_choice_is_kept_open).
        bare = best_score
        if self.guess and length[top] == 1:
            owed = float(gain[top][(mask[top] | optional[top])
                                   & _swayed(change, excess, tau)].sum())
            if best_score - owed <= 0:
                bare = best_score - owed
        unlike = [k for k in rivals if k not in alike]
        if self.guess:
            # A photo: no better picture of this position will come. The close rivals (up to
            # GUESS_RIVALS of the first not alike, as long as the best) are kept as
            # alternatives too, the best taken (a black pawn c7-c6 or c7-c5 seen from Black's
            # side, c6 and c5 both changed: 6.52 against 6.11), however close: left
            # undecided, the move was later taken with the next one as a shorter sequence to
            # the same picture (a queen d1-d3, then d3-c2, read as d1-c2: 8.49 against 8.41
            # for d1-d2), a ply short, and the game was lost from there. Not only the only
            # close one: from White's side at 35 degrees from a hand, c7-c6, c7-c5, b8-c6 and
            # f8-c5 scored 3.04, 2.76, 2.56 and 2.47, no move was read, and the next photo was
            # explained better in another line kept open (an engine game lost at its 4th
            # move; photos from a hand 3,604 -> 3,721 of 4,778, held out 1,993 -> 2,117 of
            # 2,774). The alike ones are alternatives anyway: after a photo that showed no
            # move, the bishop f1-e2 and the king e1-e2 (both behind the e3 bishop, seen from
            # Black's side) with the knight's h5-f4 were alike, and f2-f3 with it close (8.11
            # against 8.50): no move was read at all.
            # Kept open too when it trails by no more than KEEP_LEAD, the half credit of one
            # leaning square that changed fully (LEAN_CREDIT): a low score's margin is a
            # few tenths, and such a lead may be the camera's own move over one square.
            # From a phone at White's side, 35 degrees, a knight's f6-d5 (4.00) led f6-d7
            # (3.04) on half of d6's change, credited to its head: f6-d7 was not kept open
            # and the bench's game 21 was lost at its 14th move (two photos later the
            # queen's d8-c7 read 5.33 in f6-d7's line against 2.39).
            # So is an alike one (every candidate alike when the pieces in front hide all
            # their squares): from a hand at White's side, 35 degrees, a black rook's d8-d7
            # (d7 behind the pieces on d6 and d5) scored 0.89 against d8-e8's 1.78, both
            # alike, a lead past MIN_LEAD: d8-d7 was dropped, and the eleventh held-out
            # set's game 21 lost at its 50th move of 97 (kept open, its line explains the
            # photo three moves later that the line played does not).
            # No more than KEEP_LEAD, not less: from a hand at White's side, 35 degrees, a
            # black bishop's b4-e7 (e7 behind the e6 pawn) scored 8.10 and b4-a5 (a5 behind
            # the white queen on a4) 9.60, a5, changed fully, counted whole for b4-a5 and
            # half for b4-e7 (the bishop's outline over it as it left): b4-e7 was dropped,
            # 1.5 behind (the nineteenth held-out set's game 16, lost at its 17th move).
            keep = max(need, KEEP_LEAD)
            if unlike and length[unlike[0]] == length[top]:
                alike.update(k for k in unlike[:GUESS_RIVALS] if length[k] == length[top]
                             and bare - float(score[k]) <= keep)
                if favoured is not None and favoured != top and favoured in rivals:
                    alike.add(favoured)  # the outlines' choice (:meth:`_fitted`) stays open
        else:
            keep = need
        alternatives = tuple(cands[k] for k in rivals
                             if k in alike and (bare - float(score[k]) <= keep
                                                or k == favoured)
                             ) + cands[top].twins
        if demoted is not None:
            alternatives += (cands[demoted],)
        elif late and float(unfitted[top] - unfitted[late[0]]) < KEEP_LEAD:
            alternatives += (cands[late[0]],)
        rivals = [k for k in rivals if k not in alike]
        runner = float(score[rivals[0]]) if rivals else 0.0
        cand = cands[top]
        sq = cand.mask & ~veiled[top]
        seen = cand.mask | optional[top] | leaning[top] | excused[top]
        change_ok = True
        unseen = np.where(seen, change, excess)
        if left_only and lean is not None:
            unseen = self._looks_as_expected(cand, unseen, seen, tau, agree, lean)
        hand = bool(_occluded(unseen, tau, seen, sq & (cand.colour != EMPTY)).any())
        if forgiven(unseen, tau, seen):  # a hand at the edge: the classifier must agree too,
            # and on something: a move none of whose squares is in plain sight (a pawn d2-d3
            # seen only by the lean of its head over d4) is no reading past a hand
            agreed = agree[np.flatnonzero(sq), cand.colour[sq]]
            hand = hand or not sq.any() or bool(np.any(agreed <= 0))
        lead = best_score - runner
        if best_score <= 0 or not change_ok or hand or lead < need:
            return Decision(None, best_score, 0)
        swayed = _swayed(change, excess, tau)  # the camera's move changed them
        kept = None if favoured is None else cands[favoured]
        if kept is None and fit is not None and cand.twins:
            kept = self._twin_fitted(cand, fit)
        return Decision(cand, best_score, 0, int(np.sum((excess > tau) & ~seen)), alternatives,
                        frozenset(int(i) for i in np.flatnonzero(seen | swayed)),
                        float(unfitted[top]),
                        kept if any(c is kept for c in alternatives) else None)

    def _looks_as_expected(self, cand: Candidate, unseen: np.ndarray[Any, Any],
                           seen: np.ndarray[Any, Any], tau: float, agree: np.ndarray[Any, Any],
                           lean: Lean) -> np.ndarray[Any, Any]:
        """``unseen`` (the change of the squares ``cand`` leaves unexplained, less the
        camera's own move's) with the squares the classifier reads as they look after
        ``cand`` (in the colour of the piece in front that covers VEIL_COVER of them, else of
        their own: :meth:`looks`) at most ``tau``: no square a hand or an unexplained change
        holds (:func:`_occluded`). Only for a camera that moved (``lean``: what the pieces
        cover from where it stands now).

        Why: from a hand the outline of a piece standing sways over the square behind it by
        more than the sway's allowance (SWAY_CHANGE) at times: seen from White's side at 35
        degrees, a black knight on e5 was seen over e6, and e6 changed by 9.3 thresholds
        beyond the allowance as the camera moved. The pawn's g4xf3 was then refused as a
        hand's on e6 (13.57 against 9.31), and the retraction that followed dropped the
        knight's d7-e5 two moves back (an engine game lost at its 102nd move of 130). e6 was
        read black, as the knight in front over it looks: a hand there would have to look
        just like the piece it covers. Nor only behind a piece: a white knight's d4xc6 seen
        from the same side (the engine game's 15th move) was refused for c5, where a black
        knight stands, changed beyond the allowance as the camera moved and read black.

        Why also in the colour of a piece in front seen over LEAN_STRONG of the square, not
        only VEIL_COVER: a black rook on d5 seen from White's side at 35 degrees from a hand
        stood over 0.36 of d7 (the model's rook is a little shorter than a real one), and d7
        changed by 5 thresholds beyond the allowance and was read black. The white rook's
        e1-e3 (14.73, 5.42 ahead of the next) was refused as a hand's on d7, and the
        retraction that followed took back three moves for a black rook's d5-e5 and back
        with e1-e3 (2.14): the eleventh held-out set's game 16, lost at its 80th move of 130."""
        size = lean.cover.shape[1]
        squares = np.flatnonzero((unseen[:size] > tau) & ~seen[:size])
        if not len(squares):
            return unseen
        looked = self.looks(cand.pieces, lean.cover, squares)[0]
        front = self.looks(cand.pieces, lean.cover, squares, LEAN_STRONG)[0]
        expected = squares[(agree[squares, looked] > 0) | (agree[squares, front] > 0)]
        out = np.array(unseen, dtype=np.float64, copy=True)
        out[expected] = np.minimum(out[expected], tau)
        return out

    def _fitted(self, cands: list[Candidate], score: np.ndarray[Any, Any],
                length: np.ndarray[Any, Any], fit: Callable[[], Fit]
                ) -> tuple[np.ndarray[Any, Any], int | None]:
        """``score`` with a close call between single actions settled by the pieces'
        outlines. The candidates as long as the best that score FIT_FLOOR or more and fall
        short of its lead (:func:`lead_needed`) by FIT_REACH at most each change the cells
        where the piece seen (:meth:`_painted`) differs before and after them. Over the cells
        where they do not all agree, a candidate misses a cell that changed where it changes
        nothing, and one it changes so as to be seen (not a white piece's over a light square
        or a black piece's over a dark one, :func:`_square_tone`) that did not change; the one
        that misses FIT_MARGIN cells fewer than the next (FIT_MARGIN_MOVED when the camera
        moved), and at most FIT_SHARE of the next's, leads the others by the margin
        (:meth:`_fit_pick`). When the camera moved and that settles nothing, the same is
        asked of the candidates that fall short by FIT_REACH_MOVED at most.

        Why: a piece moved along a line the camera looks down is seen over the square behind
        its own, and by the square the square it stopped on and the next change alike: seen
        from Black's side at 60 degrees a black rook e3-e2 covered e1 as a rook on e1 would,
        and e3-e1 scored 8.42 against 8.33; a queen d1-e2, 16.31 for d1-e1 against 16.30;
        from White's side at 35 degrees a black queen e4-e5 read e4-e6 (5.39 against 2.60).
        Cell by cell the two differ by most of a square (e3-e2 missed 17 cells, e3-e1 53).
        Why only where they disagree: from a hand the camera's own move changes the cells
        every piece's outline swept, for every candidate alike; counted everywhere, a pawn
        e7-e5 missed 147 cells and e7-e6 178 (White's side at 35 degrees from a hand), no
        clear share, where they disagree 6 and 37. Why not a faint change: a white pawn d2-d4
        seen from there puts its head over the light d5 and leaves the light d3, and neither
        changed enough to count; d2-d3 missed fewer cells (29 against 57) until those were
        no miss. Why FIT_SHARE: a difference of a few cells says nothing when both miss many.
        Why FIT_MARGIN_MOVED: the camera's move changes cells everywhere, where the
        candidates disagree too: from a hand a king e7-d7 against e7-d8 missed 12 cells
        against 4 out of 18, the camera's move having changed 547 cells of the board; a
        black queen's d8-c7 against d8-c8 missed 8 against 18 out of 27, a lead of 10 (no
        reading a lead of 10 settled from a hand was wrong, on the tuned games or the held
        out: docs/vision.md, *A lead of 10 cells from a hand*). From a stand 8 tells a rook's
        c8-b8 from a bishop's c7-b8 (2 cells against 10, 50 changed). Why single
        actions: a sequence's candidates (a re-synchronisation's) differ in several places
        at once, and the outlines raised a wrong one 5 points below the best (c3-d5 c4-c3
        a4-b5, 12.65, over 17.52). Measured in docs/vision.md (*Outlines compared where the
        readings disagree*). Why FIT_FLOOR:
        a bishop e2-f3 seen from Black's side behind the f4 knight changes the board little
        (1.12; its head beyond the board tells it, which the cells do not look at), and a
        pawn f2-f3 that scored 0.02 missed fewer cells (Anastasian-Lewis 2016). Why
        FIT_REACH_MOVED: from a hand the camera's move sways the pieces' outlines over the
        squares behind them, and a single move keeps the credit of such squares
        (:meth:`_score`): from White's side at 35 degrees a black queen's e5-d6 scored 15.56
        against e5-e7's 9.78, 8.3 of it from d7, e7 and d8, changed by the sway alone; the
        outlines missed 18 cells for e5-e7, 38 for the next and 45 for e5-d6. Why only
        when the close call within FIT_REACH is not settled: more candidates bring a next
        closer to the best's outlines (a queen's d8-c7, settled by 8 cells against d8-c8's
        18, was left to d8-c8 by a third candidate within the wider reach: Kasparov-Deep
        Blue 1997 from a hand 69 -> 23 moves in order).

        Also returned: the candidate whose outlines miss at most FIT_SHARE of the next's but
        fewer than the margin fewer (None when there is none or one was settled); from photos
        :meth:`decide` keeps it open when it is not the best. Why: a lead of 8 cells was
        wrong once (the king's above), so it settles nothing, but it is evidence: from a hand
        at White's side, 35 degrees, a black queen's d8-b6 (4.90; 5 cells missed) lost to the
        knight's d7-b6 (6.07, 12 cells; d7 changed only as the outlines swayed), a lead past
        the margin, so d8-b6 was not kept open, and the queen's b6-c7 six moves later was read
        as the knight's b6-d7 (the first held-out set's game 16, lost at its 12th move of
        130)."""
        top = int(np.argmax(score))
        best = float(score[top])
        if best <= 0 or length[top] > 1:
            return score, None
        need = lead_needed(best)
        alike = length == length[top]
        near = np.flatnonzero((score > max(best - need - FIT_REACH, FIT_FLOOR)) & alike)
        wide = np.flatnonzero((score > max(best - need - FIT_REACH_MOVED, FIT_FLOOR)) & alike)
        if len(wide) < 2:
            return score, None
        seen = fit()
        moved = seen.earlier is not seen.outlines
        favoured = None
        for close in (near, wide) if moved else (near,):
            k, short = self._fit_pick(cands, close, seen,
                                      FIT_MARGIN_MOVED if moved else FIT_MARGIN, best - score)
            if k is not None:
                fitted = score.copy()
                fitted[k] = max(float(fitted[k]), best + need)
                return fitted, None
            favoured = short if favoured is None else favoured
        return score, favoured

    def _fit_pick(self, cands: list[Candidate], close: np.ndarray[Any, Any], seen: Fit,
                  margin: float, behind: np.ndarray[Any, Any]
                  ) -> tuple[int | None, int | None]:
        """The one of the ``close`` candidates whose outlines miss ``margin`` cells fewer than
        the next's, and FIT_SHORT more per point it scores ``behind`` the best (each
        candidate's), and at most FIT_SHARE of them (:meth:`_fitted`), and None; or None and
        the one missing at most FIT_SHARE of the next's, fewer than ``margin`` fewer but at
        least FIT_FAVOUR (kept open by :meth:`decide` from photos when it is not the best,
        taken when the lines meet: :meth:`Tracker._transposed`); or None and None.

        Why FIT_FAVOUR: a lead of a few cells is within what the outlines' model misses
        anyway, however small a share of the next's. From a hand at White's side, 45
        degrees, a white rook's a8-e8 (read right) missed 5 cells and a8-g8 2; the rook went
        on to h8, the lines met, and the record took a8-g8 (the fifth held-out set's game 5,
        86 of 130 moves). The leads that were right: 7 cells and 8.

        Why FIT_SHORT: the further the pick scores behind the best, the more the squares'
        change said against it, and the more the outlines must say to overturn that. From a
        hand at Black's side, 45 degrees, a white bishop's c1-d2 (7.80) was overturned by
        c1-e3 (3.08, 4.7 behind; the outlines missed 8 cells against 24; the sixteenth
        held-out set's game 12, lost at its 55th move of 104); at White's side, 35 degrees, a
        black king's d7-e6 by d7-e7 (5.8 short of the lead; the outlines' lead 14 cells; the
        bench's game 26 at its last move). The overturnings that were right on the tuned
        games and the sixteenth set, and the wrong ones: docs/vision.md, *The outlines' lead
        grows with how far behind*."""
        if len(close) < 2:
            return None, None
        missed = self._missed([cands[j] for j in close], seen)
        ranked = np.argsort(missed, kind="stable")
        first, second = int(missed[ranked[0]]), int(missed[ranked[1]])
        pick = int(close[ranked[0]])
        if outlines_tell(first, second, margin + FIT_SHORT * max(float(behind[pick]), 0.0)):
            return pick, None
        return None, pick if outlines_tell(first, second, FIT_FAVOUR) else None

    def _twin_fitted(self, cand: Candidate, fit: Callable[[], Fit]) -> Candidate | None:
        """The twin of ``cand`` (the same promotion to another piece, :attr:`Candidate.twins`)
        whose outlines miss fewest cells (:func:`outline_misses`), when it misses
        FIT_MARGIN_MOVED fewer than ``cand``, and at most FIT_SHARE of them: the outlines'
        choice (:attr:`Decision.favoured`), taken when the lines meet
        (:meth:`Tracker._transposed`); else None.

        Why: a promotion is read as a queen and the other pieces kept open, told by the
        piece's first move (a knight's) or not at all; a rook promoted and taken at once
        leaves the lines in one position, and the queen stayed in the record. The pieces'
        heights differ, and so do their outlines: from a hand at White's side, 35 degrees, a
        black pawn's c2-c1 promoted to a rook (taken by the king next) missed 6 cells as a
        rook, 9 as a knight, 13 as a bishop and 33 as a queen (the seventeenth held-out set's
        game 11, lost at its 58th move of 102). Why against ``cand`` and not the next twin:
        the question a photo can answer is whether the piece is a queen; a rook and a knight
        a few cells apart are both the other reading. From Black's side at 60 degrees a
        rook promoted on h1, at the far edge, missed no more cells than a queen (0 and 1):
        no choice (the thirteenth held-out set's game 13)."""
        family = (cand, *cand.twins)
        missed = self._missed(family, fit())
        twin = 1 + int(np.argmin(missed[1:]))
        if not outlines_tell(int(missed[twin]), int(missed[0]), FIT_MARGIN_MOVED):
            return None
        return family[twin]

    def _missed(self, cands: Sequence[Candidate], seen: Fit
                ) -> np.ndarray[Any, np.dtype[np.int64]]:
        """:func:`outline_misses` of ``cands``' outlines (:meth:`outline_change`) between the
        two pictures of ``seen``."""
        before = self._painted_now(seen)
        return outline_misses([self.outline_change(c, seen, before) for c in cands],
                              seen.changed)

    def _painted_now(self, seen: Fit) -> np.ndarray[Any, np.dtype[np.int8]]:
        """:meth:`_painted` for the current position, seen from where the earlier picture
        was taken."""
        root = np.asarray(pieces_of(self.game.state, self.index), dtype=np.int64)[:64]
        return self._painted(root, seen.earlier)

    def outline_change(self, cand: Candidate, seen: Fit,
                       before: np.ndarray[Any, Any] | None = None) -> OutlineChange:
        """Where ``cand`` changes the piece seen (:meth:`_painted`) between the two pictures
        of ``seen``, and where it changes the look (not a white piece's over a light square
        or a black piece's over a dark one): :func:`outline_misses`. ``before``: the current
        position painted (:meth:`_painted_now`), when already known."""
        before = self._painted_now(seen) if before is None else before
        tone = _square_tone(before.shape[0])
        after = self._painted(np.asarray(cand.pieces[:64], dtype=np.int64), seen.outlines)
        return after != before, (np.where(after > 0, after, tone)
                                 != np.where(before > 0, before, tone))

    def _painted(self, pieces: np.ndarray[Any, Any], seen: Outlines
                 ) -> np.ndarray[Any, np.dtype[np.int8]]:
        """The colour (0 none, 1 white, 2 black) of the piece the camera sees at each cell of
        the board's plane with ``pieces`` (64 codes) on the board: the nearest piece whose
        outline covers it."""
        heights = self.heights(pieces)
        canvas = np.zeros(seen.masks.shape[2:], dtype=np.int8)
        for square in seen.far_first:
            if pieces[square]:
                canvas[seen.masks[heights[square], square]] = pieces[square] >> 4
        return canvas

    @staticmethod
    def _phantoms(length: np.ndarray[Any, Any], swayed: np.ndarray[Any, Any]
                  ) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """For each candidate (``length``: its actions), the squares whose change the camera's
        own move explains (``swayed``, :func:`_swayed`) if it is a sequence of two actions or
        more, none if it is one: a sequence's own squares among them count neither for nor
        against it.

        Why: photos from a hand, White's side at 35 degrees. After d2-d4, d7-d5 changed e2
        and e3 by 1.1 and 3 thresholds, the outline of the e2 pawn swept over e3 as the camera
        moved. d7-d5 left them unexplained at no cost (the camera's move explains them), but
        d7-d5 with e2-e3 claimed them as its own: 10.8 against 9.1. The phantom e2-e3 was
        taken, and the game lost from the first moves (Schlechter-Przepiorka). A single
        move's own squares still count whole: a pawn put down behind another (d7-d5 behind
        the d4 pawn) is where the outlines sweep most.

        Why any of a sequence's actions, not only those after the first (as before the
        sixteenth session): a pair's first action is White's, and may be the phantom. In an
        engine game from the same hand, the pawn's e5xd6 (12.67) was left undecided by the
        queen's e2-e3 with d6xe5 (12.43), e2 and e3 changed only by the queen's outline
        swaying; the next photo read e2-e4, and the game was lost at its 27th move (26 of
        130; now 117).

        Nor is such a sequence a rival of its first move (:meth:`_score`): castling e1-g1
        (18.91) was left undecided by e1-g1 with a phantom e6-e5 (16.91: a lead of 2.0, under
        the margin of 2.84; Nepomniachtchi-Ding from a hand at 35 degrees, in a line already
        wrong by e7-e6)."""
        return np.asarray((length[:, None] > 1) & swayed[None, :], dtype=bool)

    def _beyond(self, cands: list[Candidate], moved: np.ndarray[Any, Any], tau: float,
                halo: Halo) -> np.ndarray[Any, np.dtype[np.float64]]:
        """Each candidate's support from the table beyond the board's edges (``moved``: the
        squares it changes; the pieces that were and that are on them count).

        Why: seen from a player's side the pieces on the far rank stand over the table
        beyond it, and the pieces in front hide their squares: a queen d8-c7 seen from
        White's side at 35 degrees changed no square of the board at all (d8 behind the d7
        pawn, c7 behind the c6 pawn), only the table where her head was and is; a knight
        b8-c6 photographed from a little elsewhere changed c6 alone, as c7-c6 would have.

        Two parts, each counted only for a candidate that explains it (the table beyond the
        board holds a player's hands, captured pieces, people passing):

        * its change (:meth:`_halo_change`), as on leaning squares;
        * its look (:meth:`_halo_look`): how much of each cell is not the table, against how
          much the moved pieces cover of it before and after the candidate. The look needs
          no reference picture, so a camera that moved between photos (the heads of the far
          rank sway with it, and the change there is mostly allowed as sway) still sees
          where a head is and is not.

        Why LOOK_WEIGHT 3: a cell is a square of the board's plane, and a cell a head wholly
        left looks as plainly as a square a piece left changes (a square's change counts up
        to 3 thresholds). Weighed 1, the look of a rook's f8-f7 hidden behind the f6 pawn
        from White's side at 35 degrees from a hand (its head gone from beyond f8, no square
        changed) scored 0.81, and f8-d8, 1.20 from squares the camera's move swayed, was
        taken (bench game 26). From a hand 4,545 -> 4,692 of 4,778 moves in order, held out
        2,334 -> 2,480 of 2,774 (with HALO 3: docs/vision.md, *Three squares beyond the
        board, the look as a square*)."""
        size = halo.cover.shape[1]
        out = np.zeros(len(cands))
        # only the candidates that move a piece some cell beyond the board is seen over
        cells = ~np.isnan(halo.bare) | (halo.change > 0)
        reach = np.asarray((halo.cover[:, :, cells] >= LEAN_COVER).any(axis=(0, 2)), dtype=bool)
        some = np.flatnonzero((moved[:, :size] & reach[None, :]).any(axis=1))
        if not len(some):
            return out
        root = np.asarray(pieces_of(self.game.state, self.index), dtype=np.int64)[:size]
        standing = self.heights(root)
        after = self.heights(np.stack([cands[k].pieces for k in some])[:, :size])
        mine = moved[some, :size]
        gone = np.zeros((len(some), halo.cover.shape[2]))
        come = np.zeros_like(gone)
        seen_over = np.zeros(gone.shape[1])  # how many pieces standing are seen over a cell
        left = np.zeros_like(gone)  # ... of them, how many the candidate moves
        for k in range(len(HEIGHTS)):
            near = halo.cover[k] >= LEAN_COVER
            seen_over += near[standing == k].sum(axis=0)
            rows, squares = np.nonzero(mine & (standing == k)[None, :])
            _add_rows(gone, rows, halo.cover[k][squares])
            _add_rows(left, rows, near[squares])
            rows, squares = np.nonzero(mine & (after == k))
            _add_rows(come, rows, halo.cover[k][squares])
        stay = seen_over[None, :] - left > 0.5  # cells a piece that stays is seen over
        if halo.apart is not None:
            stay = stay | halo.apart[None, :]
        change = self._halo_change(tau, halo, standing, gone, come, stay)
        look = self._halo_look(halo, gone, come, stay)
        out[some] = change + LOOK_WEIGHT * look
        return out

    @staticmethod
    def _halo_change(tau: float, halo: Halo, standing: np.ndarray[Any, Any],
                     gone: np.ndarray[Any, Any], come: np.ndarray[Any, Any],
                     stay: np.ndarray[Any, Any]) -> np.ndarray[Any, np.dtype[np.float64]]:
        """The change of the cells beyond the board a candidate's pieces are seen over (the
        share of each cell the pieces that left covered, ``gone``, or those put down cover,
        ``come``), counted as on a leaning square (whole where they cover LEAN_STRONG, else
        LEAN_CREDIT), less the change of the cells no such piece is seen over, and LEAN_MISS
        for each cell they mostly cover that did not change and no piece that stays
        (``stay``) is seen over; never below 0. Only the change the camera's own move cannot
        have made counts (:meth:`Decoder._unswayed`). Nothing when a cell a head left, that
        no piece is seen over now, does not look like the table: a hand just there is no
        move (a queen d8-c7 would have changed nothing else the camera sees: her head over
        c8 is black over the black bishop's)."""
        change = halo.change if halo.sway is None else _less_sway(halo.change, halo.sway,
                                                                   standing)
        e = np.clip((change - tau) / tau, -1.0, 3.0)
        gain = np.maximum(e, 0.0)[None, :]
        cover = np.maximum(gone, come)
        near, strong = cover >= LEAN_COVER, cover >= LEAN_STRONG
        credit = ((gain * np.where(strong, 1.0, LEAN_CREDIT) * near).sum(axis=1)
                  - (np.minimum(gain, 1.0) * ~near).sum(axis=1)
                  - LEAN_MISS * (strong & ~stay & (e <= 0)[None, :]).sum(axis=1))
        left = (gone >= LEAN_STRONG) & (come < LEAN_COVER) & ~stay
        unlike = left & (halo.bare < BARE_SHARE)[None, :]
        return np.asarray(np.where(unlike.any(axis=1), 0.0, np.maximum(credit, 0.0)),
                          dtype=np.float64)

    @staticmethod
    def _halo_look(halo: Halo, gone: np.ndarray[Any, Any], come: np.ndarray[Any, Any],
                   stay: np.ndarray[Any, Any]) -> np.ndarray[Any, np.dtype[np.float64]]:
        """How much better the cells beyond the board look as a candidate leaves them than
        as they were: on each cell no piece that stays is seen over, the share of it that is
        not the table against the share the moved pieces covered before (``gone``) and
        cover after (``come``), summed over the cells the picture shows."""
        seen = 1.0 - halo.bare
        shown = ~np.isnan(seen)
        seen = np.where(shown, seen, 0.0)[None, :]
        use = shown[None, :] & ~stay
        gap = np.abs(seen - np.minimum(gone, 1.0)) - np.abs(seen - np.minimum(come, 1.0))
        return np.asarray((gap * use).sum(axis=1), dtype=np.float64)

    def heights(self, codes: np.ndarray[Any, Any]) -> np.ndarray[Any, np.dtype[np.int64]]:
        """The height class (an index into HEIGHTS, -1: no piece) of each piece code (a
        table by code, made once: this runs for every candidate of every decision)."""
        if self._height_table is None:
            self._height_table = np.array([self._height_class(c) for c in range(CODES)],
                                          dtype=np.int64)
        return np.asarray(self._height_table[codes], dtype=np.int64)

    def _height_class(self, code: int) -> int:
        """:meth:`heights` of one code (-1: empty; a code no piece has: PIECE_OTHER)."""
        if not code:
            return -1
        try:
            letter = self.game.variant.piece_letter(code).upper()
        except (IndexError, KeyError, ValueError):
            letter = ""
        return HEIGHTS.index(PIECE_HEIGHT.get(letter, PIECE_OTHER))

    def _leaning(self, cands: list[Candidate], mask: np.ndarray[Any, Any],
                 optional: np.ndarray[Any, Any], change: np.ndarray[Any, Any],
                 lean: Lean, agree: np.ndarray[Any, Any]
                 ) -> tuple[np.ndarray[Any, Any], ...]:
        """For each candidate: the squares the pieces it changes are seen over (the taller
        of the one that was and the one that is on each square, ``cover`` being
        :func:`vision.geometry.silhouettes` for HEIGHTS); those of them that should change
        with it, unless what stands there is of its colour (however tall: the piece in
        front hides it, a white bishop c6-b5 seen from White's side at 35 degrees uncovered
        the black queen on c7, which changed by 23 thresholds, and c6-b5 with Qc7-b7 was as
        likely as c6-b5 alone); those it mostly covers (LEAN_STRONG), whose change counts
        whole; and the squares of a sequence that one of its own pieces is seen over.

        Why: from a player's side a tall piece put on a square, or gone from it, was seen
        over the squares behind too; from low down a pawn's body stands over the next square
        and a king's head over the one after. A move changes them, and a candidate that
        puts a piece where the square behind it did not change is less likely (a pawn
        pushed to f3 seen at 35 degrees changed f2 by 48, f3 by 20 and f4 by 38: the push
        to f4 explained the same squares, but its head would have changed f5). Even a
        fifth of a square covered changes the square's measured centre by several
        thresholds (a black pawn c7-c6 seen from Black's side at 45 degrees: c5, covered
        0.23, changed by 2.6 thresholds), so a square covered LEAN_SHOULD should change: a
        pawn pushed to c5 instead would have changed c4 (covered 0.3, and unchanged; from
        0.1 of a square on, 111 of 120 moves seen from Black's corner against 120), when
        some of it is in the square's centre (LEAN_SHOULD_CENTRE), where the change is
        measured: seen from White's side at 35 degrees from a hand, a white king's f3xg4
        (taking a pawn, with the pawn's g5-g4 a photo before unseen) covered 0.23 of g6 with
        its head, none of g6's centre; g6 did not change, and the pair lost to the black
        king's g6-g7 with it (an engine game lost at its 118th move of 130).
        A square a piece put down is seen over need not change when the classifier reads
        that piece's colour on it (``agree``): a white pawn's head over a light square
        changes it little (a pawn g2-g3 seen from White's side at 35 degrees changed g4 by
        0.9 thresholds, read white: taken for g2-g4). Last, the squares a moved piece may
        cover by OFF_CENTRE_COVER standing off its centre (``lean.far``) and is not seen
        over on it: their change is not held against the candidate, nor credited to it (a
        knight e3-g2 put down off centre, seen from Black's corner, stood over f1, and the
        change there was taken for a hand)."""
        cover = lean.cover
        size = cover.shape[1]
        root = np.asarray(pieces_of(self.game.state, self.index), dtype=np.int64)[:size]
        after = np.stack([c.pieces for c in cands])[:, :size]
        was, now = self.heights(root)[None, :], self.heights(after)
        tallest = np.maximum(was, now)
        hue = np.where(was >= now, root[None, :] >> 4, after >> 4)  # the taller one's colour
        moved = (mask | optional)[:, :size]
        leaning = np.zeros_like(mask)
        excused = np.zeros_like(mask)
        should = np.zeros_like(mask)
        expected = np.zeros_like(mask)
        hidden = self._hidden_behind(root, cover)
        for k in range(len(HEIGHTS)):
            standing = moved & (tallest == k)
            if not standing.any():
                continue
            over = _Over(standing, cover[k], hidden, moved)
            leaning[:, :size] |= over.reach(LEAN_COVER)
            excused[:, :size] |= _reach(standing, lean.far[k] >= OFF_CENTRE_COVER)
            # ... and it changes unless a piece of its colour stands there
            centred = lean.centre[k] >= LEAN_SHOULD_CENTRE
            for side in (1, 2):
                mine = standing & (hue == side)
                bare = np.broadcast_to(root[None, :] >> 4 != side, tallest.shape)
                put = mine & (now == k)  # the piece put down is the tall one
                seen = (agree[:size, side] > 0)[None, :]  # its colour read there
                should[:, :size] |= ((over.reach(LEAN_SHOULD, mine & ~put, centred)
                                      | (over.reach(LEAN_SHOULD, put, centred) & ~seen))
                                     & bare)
                expected[:, :size] |= over.reach(LEAN_STRONG, mine) & bare
        leaning &= ~(mask | optional)
        excused &= ~(mask | optional | leaning)
        should &= leaning
        should[:, :size] &= ~self._still_over(root, after, was[0], now, should[:, :size],
                                              cover)
        expected &= leaning
        # A sequence must not claim as its own moves what its own pieces' heights explain
        # (a rook's capture a6xa4 read as a6-a7 and a4-a5: a7 and a5 changed by 38 and 17,
        # behind a6 and a4 that changed by 180): in a sequence, a square a tall piece on
        # another of its squares is seen over, that changed under half as much, is leaning.
        length = np.array([len(c.actions) for c in cands])
        small = change[:size]
        behind = (cover[-1] >= LEAN_COVER) & ~np.eye(size, dtype=bool)
        shaded = behind & (small[:, None] > LEAN_SHARE * small[None, :])
        mine = mask[:, :size] & (length > 1)[:, None]
        seconded = np.zeros_like(mask)
        seconded[:, :size] = mine & _reach(mine, shaded)
        return leaning, should, expected, seconded, excused

    def _hidden_behind(self, root: np.ndarray[Any, Any], cover: np.ndarray[Any, Any]
                       ) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        """For a piece on each square ``s`` seen over each square ``x``: the share of ``x``
        that a piece of ``root`` in front of it (covering VEIL_COVER of ``s``) covers, the
        most of them, and that piece's square (-1: none): ``(shares, squares)``, each
        (size, size). What a piece behind another is seen over, the one in front hides up to
        its own share (:class:`_Over`)."""
        size = cover.shape[1]
        heights = self.heights(root)
        standing = np.flatnonzero(heights >= 0)
        shares = np.zeros((size, size))
        squares = np.full((size, size), -1, dtype=np.int64)
        for q in standing:
            own = cover[heights[q], q, :size]
            hides = np.flatnonzero(own >= VEIL_COVER)
            hides = hides[hides != q]
            if not len(hides):
                continue
            more = own[None, :] > shares[hides]
            shares[hides] = np.where(more, own[None, :], shares[hides])
            squares[hides] = np.where(more, q, squares[hides])
        return shares, squares

    def _still_over(self, root: np.ndarray[Any, Any], after: np.ndarray[Any, Any],
                    was_h: np.ndarray[Any, Any], now_hs: np.ndarray[Any, Any],
                    should: np.ndarray[Any, Any], cover: np.ndarray[Any, Any]
                    ) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """Of the squares each candidate's moved pieces are seen over that ``should`` change
        with it, those a piece it moves covers (VEIL_COVER) from where it stood and one of
        the same colour covers from where it is put down: a piece moved along the camera's
        line of sight is seen over them before and after. ``was_h`` and ``now_hs``: the
        height classes before and after each candidate (:meth:`_leaning` has them).

        Why: seen from White's side at 35 degrees from a hand, the black king's d6-d5: his
        head stood over d8 (0.62 of it) and stands over it still from d5 (0.61). d8 did not
        change, d6-d5 paid for it as a square his leaving should have changed (-0.24), no
        move explained the photo, and a retraction replaced the bishop's e6-d7 two moves
        back by e6-d5 (the fourth held-out set's game 1, lost at its 86th move of 112).
        Only the moved pieces themselves: any piece of one colour over the square before and
        after (the bishop on d7 over d8 too) is a screen the model's shares do not tell well
        enough from one a square still shows round (a white pawn on e3 over 0.56 of e4, a
        bishop's e2-d3 then scored as the pawn's d2-d4: the second held-out set's game 1
        lost at its 21st move). Nor when a moved piece of the other colour is seen over the
        square (LEAN_COVER): a black queen d4xd5 from the same side stood over 0.62 of d6
        and stands over 0.75 of it, but the white pawn she took had stood over 0.56 of it
        (test_a_square_seen_over_that_changed_as_a_push_is_no_miss)."""
        def over(heights: np.ndarray[Any, Any], at: list[Any], squares: np.ndarray[Any, Any]
                 ) -> np.ndarray[Any, Any]:
            """The most of each of ``squares`` the pieces standing ``at`` cover."""
            return np.asarray(cover[heights[at], at][:, squares].max(axis=0))

        out = np.zeros_like(should)
        size = should.shape[1]
        for k in np.flatnonzero(should.any(axis=1)):
            now_h = now_hs[k]
            moved = np.flatnonzero(root[:size] != after[k][:size])
            squares = np.flatnonzero(should[k])
            left = {side: [m for m in moved if was_h[m] >= 0 and root[m] >> 4 == side]
                    for side in (1, 2)}
            put = {side: [m for m in moved if now_h[m] >= 0 and after[k][m] >> 4 == side]
                   for side in (1, 2)}
            for side, other in ((1, 2), (2, 1)):
                if not left[side] or not put[side]:
                    continue
                same = ((over(was_h, left[side], squares) >= VEIL_COVER)
                        & (over(now_h, put[side], squares) >= VEIL_COVER))
                # a moved piece of the other colour seen over it changes it all the same
                for gone, h in ((left[other], was_h), (put[other], now_h)):
                    if gone:
                        same &= over(h, gone, squares) < LEAN_COVER
                out[k, squares] |= same
        return out

    def looks(self, codes: np.ndarray[Any, Any], cover: np.ndarray[Any, Any],
               squares: np.ndarray[Any, Any], veil: float = VEIL_COVER
               ) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        """The colour the camera sees on each of ``squares`` with ``codes`` on the board: that
        of the piece in front that covers most of it (at least ``veil``; a piece's own
        foot is in the middle of its square, its body stands over the squares behind), else
        the square's own; and the share of it the piece in front that covers most covers (0
        with none)."""
        size = cover.shape[1]
        standing, share = in_front(cover, self.heights(codes[:size]), squares)
        colour = codes[squares] >> 4
        if not len(standing):
            return np.asarray(colour), np.zeros(len(squares))
        front = share.argmax(axis=0)
        most = share[front, np.arange(len(squares))]
        return np.asarray(np.where(most >= veil, codes[standing[front]] >> 4, colour)), most

    def _veiled(self, cands: list[Candidate], mask: np.ndarray[Any, Any],
                lean: Lean) -> np.ndarray[Any, Any]:
        """The squares a candidate changes that look the same before and after: a piece in
        front covers them with one colour both times (seen from White's side at 45 degrees a
        black pawn f7-f6 stands over f7 as it stood on it: f7 changed by 0, f6 by 101, and
        f7-f6 was implausible; a knight leaving b1 behind the b2 pawn, seen from Black's
        side, changed b1 by 12; a rook h8-f8 put down behind the f7 pawn changed f8 by 0):
        VEILED, they may change or not, as a square taken and retaken. A square a piece is
        put down on that it stood over before the move (a king e7-e8 seen from White's
        side: e8 changed by 0; a king c6-b6 seen from the h-file's side) is VEILED_IF_SAME:
        veiled when it did not change, else judged as any square (a queen d4xb2 seen from
        Black's corner, c3 changed: d4-c3 with c3 veiled, its change a bonus, was as good).

        A sequence of two, after a photo that showed no move (:meth:`saw_no_move`), has its
        first action's squares veiled as that action's alone (:meth:`_veiled_first`); when
        the camera cannot see that action at all (:func:`_unseen`), the pair's squares are
        veiled as a single action's, its second action's too. Why: seen from White's side at
        45 degrees from a hand, a black king's f8-f7 behind the f6 knight showed nothing, and
        the next photo showed the white queen's d3-d2 with d3, behind her on d2, as it was
        (0.6 of a threshold): the pair was implausible, every later photo was a move further
        behind, and no move was read again (a held-out engine game, 53 of 97 moves).

        So has a sequence of any length that begins with the action a retraction takes back
        (:meth:`played_first`): its photo showed it, and what it hid then it hides in the
        line played, continued. Why: from a hand at White's side, 35 degrees, a black
        rook's h8-g8 behind the h7 pawn was read right; two photos later a retraction from
        before it found no line h8-g8, h3xg4, c8xg4 (h8, unchanged, had to change) and took
        the queen's f6xf4 with the two captures instead, which h8-g8's own photo had scored
        -0.38 against 7.90 (the fifth held-out set's game 16, 23 of 83 moves)."""
        state = self.game.state
        cover = lean.cover
        if self._veils is None or self._veils[0] is not state or self._veils[1] is not cover:
            self._veils = (state, cover, {})  # the same every frame until a move or a bump
        known = self._veils[2]
        size = cover.shape[1]
        root = np.asarray(pieces_of(state, self.index), dtype=np.int64)
        veiled = np.zeros(mask.shape, dtype=np.int8)
        no_move = self._no_move_in is state
        played = self._played[1] if self._played is not None and self._played[0] is state \
            else None
        singles: dict[tuple[Action, ...], Candidate] = {
            c.actions: c for c in cands if len(c.actions) == 1} \
            if no_move or played is not None else {}
        for k, c in enumerate(cands):
            if len(c.actions) > MAX_VEILED:
                single = singles.get(c.actions[:1]) if (
                    (no_move and len(c.actions) == 2) or c.actions[0] == played) else None
                if single is None:
                    continue
                first = known.get(single.actions)
                if not _unseen(single, first):
                    veiled[k] = self._veiled_first(c, single, first)
                    continue
            row = known.get(c.actions)
            if row is None:
                row = known[c.actions] = self._veil_row(root, c, mask[k, :size], lean)
            veiled[k] = row
        return veiled

    def _seen_over(self, cands: list[Candidate], veils: np.ndarray[Any, Any],
                   colour: np.ndarray[Any, Any], before: np.ndarray[Any, Any],
                   agree: np.ndarray[Any, Any], lean: Lean) -> np.ndarray[Any, Any]:
        """``veils`` with VEILED_IF_SAME on the square a single move puts its piece down on
        when that square is next to the one it left, the piece was seen over its centre
        (by LEAN_COVER) before the move, and the classifier read the piece's colour there in
        the picture before (``before``) and now (``agree``).

        Why: seen from the h-file's side by a phone held less steadily, a black queen d7-c7
        had stood over c7's centre (0.38 of it; under half of the whole square, so the
        pieces' model said c7 looked empty), c7 changed by nothing, and d7-c7 was
        implausible: d7-b7 was taken (her head over b7 either way). The picture read c7
        black both times. The same from White's side at 35 degrees from a hand: a black
        rook's d1-d2 (Kasparov-Deep Blue 1997, 81 of 98 moves). Only the moving piece's own
        body a step away: with any square read alike, a queen's e5-e3 seen from Black's
        side passed for her e5-e4 (e3 under her head both times)."""
        n = min(before.shape[0], agree.shape[0], veils.shape[1], lean.centre.shape[1])
        then, now = _read(before[:n]), _read(agree[:n])
        out = veils
        for k, cand, frm, to, height in self._single_moves(cands, n):
            if veils[k, to]:
                continue
            put = cand.colour[to]
            if (put != EMPTY and put == then[to] == now[to] and _next_to(frm, to)
                    and lean.centre[height][frm, to] >= LEAN_COVER):
                if out is veils:
                    out = veils.copy()
                out[k, to] = VEILED_IF_SAME
        return out

    def _single_moves(self, cands: list[Candidate], n: int
                      ) -> Iterator[tuple[int, Candidate, int, int, int]]:
        """Each candidate of ``cands`` that is a single move of a piece between two of the
        view's first ``n`` squares: its number, itself, the two squares (view indices) and
        the moving piece's height class (:meth:`heights`)."""
        heights = self.heights(np.asarray(pieces_of(self.game.state, self.index)))
        where = {sq: i for i, sq in enumerate(self.index[:n])}
        for k, cand in enumerate(cands):
            if len(cand.actions) != 1 or cand.actions[0].kind != MOVE:
                continue
            frm, to = where.get(cand.actions[0].frm), where.get(cand.actions[0].to)
            if frm is not None and to is not None and heights[frm] >= 0:
                yield k, cand, frm, to, int(heights[frm])

    def _read_under_body(self, cands: list[Candidate], colour: np.ndarray[Any, Any],
                         agree: np.ndarray[Any, Any], lean: Lean, big: np.ndarray[Any, Any],
                         support: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        """``support`` with the classifier's reading of a square a single move empties
        counted as agreeing when it reads the moving piece's colour there, the piece, on its
        new square, is seen over that square's centre by COVERED_READ or more (the picture
        then shows the piece's body where the square's own look would be), and the square
        changed plainly (by twice the threshold): one that hardly did is no evidence of the
        move either way (seen from Black's side at 45 degrees, a white pawn's f2-f3 would
        stand over f2 as the pawn on it does; f2 changed by 1.2 thresholds, and f2-f3 was
        taken for the bishop's e2-f3 hidden behind the e3 bishop).

        Why: seen from White's side at 35 degrees from a hand, the black queen's c7xc6 (a
        step toward the camera) left her body over c7's centre, and the classifier read c7
        black after the move as before. Held to c7 looking empty, c7xc6 scored 3.90 against
        the queen's c7-a7 at 4.08, for which c7 is behind the white knight on c6 and may look
        like anything (bench game 21, its 30th move; 5.10 now). Only the moved piece's own
        body over the square it left: the veils (:meth:`_veil_row`) ask half of the whole
        square covered, and her body covered less of it than of its centre."""
        n = min(agree.shape[0], lean.centre.shape[1])
        out = support
        for k, cand, _, to, height in self._single_moves(cands, n):
            put = int(cand.colour[to])
            over = lean.centre[height][to, :n] >= COVERED_READ
            squares = np.flatnonzero(over & cand.mask[:n] & (colour[k, :n] == EMPTY)
                                     & (big[k, :n] >= 1.0))
            if not len(squares):
                continue
            better = np.maximum(agree[squares, EMPTY], agree[squares, put])
            if out is support:
                out = support.copy()
            out[k, squares] = big[k, squares] + CLASSIFIER_WEIGHT * better
        return out

    def _veil_row(self, root: np.ndarray[Any, Any], cand: Candidate,
                  mask: np.ndarray[Any, Any], lean: Lean) -> np.ndarray[Any, Any]:
        """Each square's veil (0, VEILED, VEILED_IF_SAME or VEILED_MAYBE) for ``cand``, whose
        changed squares on the board are ``mask``, from the pieces ``root`` (:meth:`_veiled`)."""
        cover = lean.cover
        row = np.zeros(len(cand.mask), dtype=np.int8)
        squares = np.flatnonzero(mask)
        if len(squares):
            before = self.looks(root, cover, squares)[0]
            after, front = self.looks(cand.pieces, cover, squares)
            # a piece left, or one is put down behind a piece in front (else it is put
            # down where it stood over the square before)
            hidden = (front >= VEIL_COVER) | (cand.pieces[squares] == 0)
            same = (before == after) & (before > 0)
            row[squares] = np.where(same, np.where(hidden, VEILED, VEILED_IF_SAME), 0)
            maybe = self._maybe_veiled(root, cand.pieces, lean, squares, front)
            row[squares] = np.where(~same & maybe, VEILED_MAYBE, row[squares])
        return row

    @staticmethod
    def _veiled_first(cand: Candidate, single: Candidate, row: Any) -> Any:
        """The squares of ``cand``, a sequence of two actions, that its first action alone
        (``single``, whose veiled squares are ``row``: single actions come first) changes as
        the pair does, veiled as they are for it (VEILED or VEILED_IF_SAME); used after a
        photo that showed no move (:meth:`saw_no_move`).

        Why: one photo per position, a move the camera cannot see leaves a photo with no move
        in it, and the next shows the move after it: a black rook e7-e6 seen from White's
        side at 35 degrees (e6 and e7 behind the pieces on e5 and e4) changed nothing, and the
        next photo, a bishop c1-e3, was explained only by a line of three actions whose first
        and last undo each other (Stockfish 8 - AlphaZero, 41 of 134 moves); a king d7-d6
        behind the d5 pawn the same (77 of 118). Only after such a photo: veiling every
        sequence's first action made far more sequences plausible, and they outbid moves
        seen whole (a still camera 2,461 -> 2,437 moves in order when it was tried). A
        retraction's line played, continued, is judged the same way, whatever its length
        (:meth:`played_first`)."""
        out = np.zeros(len(cand.mask), dtype=np.int8)
        if row is None:
            return out
        keep = (((row == VEILED) | (row == VEILED_IF_SAME)) & cand.mask & single.mask
                & (cand.colour == single.colour))
        out[keep] = row[keep]
        return out

    def _maybe_veiled(self, before: np.ndarray[Any, Any], after: np.ndarray[Any, Any],
                      lean: Lean, squares: np.ndarray[Any, Any], front: np.ndarray[Any, Any]
                      ) -> np.ndarray[Any, Any]:
        """Which of ``squares`` (changed by a candidate from ``before`` to ``after``) look the
        same both times if the pieces stand off their squares' centres (``lean.far``), a
        piece left them or is put down behind one in front, and a piece in front covers at
        least VEIL_MAYBE_SHARE of them on its centre (``front``, :meth:`looks` after the
        candidate); or which, left by their piece, the pieces in front together cover so
        that what the camera sees there changes over at most MIX_SAME of them
        (:meth:`mixed`): VEILED_MAYBE, at a cost (VEIL_DOUBT).

        Why: seen from White's side at 45 degrees, a black pawn g7-g6 put down a little off
        g6's centre stood over g7 as the pawn that left it had (g7 changed by nothing), where
        on its centre it covers less than half of g7: g7-g6 was refused and the game lost at
        its second move. Without the share in front on the centre, a knight's h6-g4 was taken
        for a white pawn's g2-g4 in photos from a hand (the knight on g1 in front of g2).
        Why mixed: from White's side at 35 degrees from a hand, a black pawn h7-h6 covered
        0.48 of h7 and the white bishop on g5 0.28; neither alone hid it (VEIL_COVER), and
        together they left a quarter of it to see: h7 changed by nothing, h7-h6 had to
        change it, and h7-h5 was taken with e7-d6 kept open (two held-out engine games lost
        at their 10th and 12th moves)."""
        was = self.looks(before, lean.far, squares)[0]
        now, far_front = self.looks(after, lean.far, squares)
        alike = ((was == now) & (was > 0)
                 & ((after[squares] == 0) | (far_front >= VEIL_COVER))
                 & (front >= VEIL_MAYBE_SHARE))
        seen = np.abs(self.mixed(before, lean.cover, squares)
                      - self.mixed(after, lean.cover, squares)).sum(axis=1) / 2.0
        return np.asarray(alike | ((seen <= MIX_SAME) & (after[squares] == 0)))

    def mixed(self, codes: np.ndarray[Any, Any], cover: np.ndarray[Any, Any],
              squares: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        """The share of each of ``squares`` the camera sees of each colour (0 empty, then the
        pieces' colours: a code's high bits) with ``codes`` on the board: every piece in front
        covers its share (together at most the whole square), the square's own content the
        rest."""
        size = cover.shape[1]
        standing, share = in_front(cover, self.heights(codes[:size]), squares)
        colours, own = codes[standing] >> 4, codes[squares] >> 4
        out = np.zeros((len(squares), CODES >> 4))
        if len(standing):
            np.add.at(out.T, colours, share)
            out /= np.maximum(out.sum(axis=1), 1.0)[:, None]
        out[np.arange(len(squares)), own] += 1.0 - out.sum(axis=1)
        return out

    def seen_colours(self, squares: np.ndarray[Any, Any], lean: Lean | None
                     ) -> np.ndarray[Any, np.dtype[np.int64]]:
        """The colour (0 empty, 1 white, 2 black) the camera sees on each of ``squares`` in
        the current position: that of a piece in front over most of it (``lean``), else the
        square's own."""
        if lean is None:
            seen = np.asarray(occupancy_of(self.game.state, self.index), dtype=np.int64)
            return np.asarray(seen[squares], dtype=np.int64)
        codes = np.asarray(pieces_of(self.game.state, self.index), dtype=np.int64)
        return np.asarray(self.looks(codes, lean.cover, squares)[0], dtype=np.int64)

    def accept(self, candidate: Candidate) -> list[str]:
        """Play the candidate's actions; their canonical texts."""
        return [self.game.play(a).text for a in candidate.actions]
