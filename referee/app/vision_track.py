"""Following a game on video: motion gating, change maps and legal-move decoding.

The tracker keeps the warped image of the last *settled* position. A frame is settled when the
board has barely changed (mean absolute grey difference below ``STILL_DIFF``) for ``STILL_FRAMES``
consecutive frames. For each settled frame it measures, per square, how much the central region
changed since the last settled position (the *change map*, Lab units). Every legal move (and, in
case a settled frame was missed, every legal pair of move and reply) predicts the set of squares
whose content changes; the candidate whose squares changed most, minus a per-square threshold,
wins when it clearly beats the runner-up. A settled frame where many squares changed (a hand or an
arm resting on the board) or where nothing matches is ignored. The start position is assumed.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from referee.rules.actions import Action
from referee.rules.game import Game
from referee.rules.state import State
from vision.classify import classify_board
from vision.errors import UnsupportedVariantError
from vision.geometry import SQUARE, Corners, grid_to_index, warp_board
from vision.sources import Frame

STILL_DIFF = 1.6      # mean |grey difference| between consecutive warped frames (0-255)
NOISE_FACTOR = 3.0    # ... or this many times the noise floor, whichever is larger
NOISE_WINDOW = 200    # frames over which the noise floor (10th percentile) is measured
NOISE_MIN_FRAMES = 20  # frames needed before the noise floor is trusted
STILL_FRAMES = 4      # frames in a row below STILL_DIFF before the board counts as settled
CHANGE_FLOOR = 12.0   # a square "changed" above max(CHANGE_FLOOR, CHANGE_SHARE * largest change)
CHANGE_SHARE = 0.3
MAX_CHANGED = 10      # more changed squares than this: a hand is still on the board
MARGIN = 0.15         # the best candidate must beat the runner-up by this share of its score
UNEXPLAINED_SHARE = 1.0  # an unexplained square changing more than the weakest move square vetoes
PAIR_PENALTY = 1.0      # a missed-settle pair of plies pays this many thresholds
START_CALM = 3.0         # looser motion limit for the start frame (hands are often about)
START_PATIENCE = 3       # settled checks to wait for a start-like frame before taking any
PROMOTION_ORDER = ("", "q", "r", "b", "n")  # preferred when the squares cannot tell
RECHECK = 4              # a still period is looked at every RECHECK frames after STILL_FRAMES
ROI_MARGIN = 0.22     # share of a square left out on each side when measuring change


@dataclass(frozen=True)
class Recognised:
    """One recognised move: its canonical text, the frame number it settled at, its score."""

    text: str
    frame: int
    score: float


STANDARD_INDEX = tuple(range(64))


def occupancy_of(state: State, index: Sequence[int] = STANDARD_INDEX) -> tuple[int, ...]:
    """Per visible square (a1 = 0) the colour on it: 0 empty, 1 white, 2 black.

    ``index[i]`` is the variant's own index of the 8x8 square ``i`` (see :func:`board_index`).
    """
    board = state.board
    return tuple((board[j] >> 4) if board[j] else 0 for j in index)


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


def change_map(before: Any, after: Any) -> np.ndarray[Any, np.dtype[np.float64]]:
    """64 values (a1 = 0): mean Lab distance between the central regions of each square, less
    the median over the board (noise and lighting drift)."""
    a = cv2.cvtColor(cv2.GaussianBlur(before, (5, 5), 0), cv2.COLOR_BGR2LAB).astype(np.float64)
    b = cv2.cvtColor(cv2.GaussianBlur(after, (5, 5), 0), cv2.COLOR_BGR2LAB).astype(np.float64)
    d = np.linalg.norm(a - b, axis=2)
    s = SQUARE
    m = int(round(s * ROI_MARGIN))
    per = d.reshape(8, s, 8, s).transpose(0, 2, 1, 3)[:, :, m:s - m, m:s - m]
    grid = per.reshape(8, 8, -1).mean(axis=2)
    # Most squares never change in one move: their median is the camera noise / light drift.
    grid = np.maximum(grid - float(np.median(grid)), 0.0)
    out = np.zeros(64)
    for r in range(8):
        for c in range(8):
            out[grid_to_index(r, c)] = grid[r, c]
    return out


def _looks_like(warped: Any, occ: Sequence[int]) -> bool:
    """True when the classifier's occupancy scores agree with occupancy ``occ`` (a1 = 0):
    every occupied square scores above the 75th percentile of the empty squares' scores."""
    score = classify_board(warped).occupancy
    full = np.array([score[7 - i // 8, i % 8] for i in range(64) if occ[i]])
    empty = np.array([score[7 - i // 8, i % 8] for i in range(64) if not occ[i]])
    if full.size == 0 or empty.size == 0:
        return True
    return float(full.min()) > float(np.percentile(empty, 75))


def _promo_rank(action: Action) -> int:
    promo = (action.promo or "").lower()
    return PROMOTION_ORDER.index(promo) if promo in PROMOTION_ORDER else len(PROMOTION_ORDER)


def _copy_square(dst: Any, src: Any, index: int) -> None:
    """Copy square ``index`` (a1 = 0) of warped board ``src`` into ``dst``."""
    r, c = 7 - index // 8, index % 8
    s = SQUARE
    dst[r * s:(r + 1) * s, c * s:(c + 1) * s] = src[r * s:(r + 1) * s, c * s:(c + 1) * s]


class Tracker:
    """Follows one game of ``variant`` seen through a fixed camera with board ``corners``.

    Opens nothing: feed it frames with :meth:`run`.
    Raises (constructor): the referee's UnknownVariantError / VariantNotImplementedError;
    UnsupportedVariantError when the variant has no 8x8 board. Squares off the 8x8 board (a
    ghost ring, a second board) are invisible: moves there are decoded from the 8x8 changes only.
    """

    def __init__(self, corners: Corners, variant: str = "standard") -> None:
        self.corners = corners
        self.game = Game(variant)
        self._index = board_index(self.game.variant)
        self._cached: tuple[int, list[tuple[list[Action], frozenset[int]]]] | None = None
        self.frames = 0
        self.settled = 0
        self.ignored = 0
        self._reference: Any = None
        self._last_check: Any = None
        self._dirty: set[int] = set()
        self._previous: Any = None
        self._still = 0
        self._diffs: list[float] = []
        self._start_checks = 0
        self._calm = False  # the last frame moved less than START_CALM motion thresholds

    def _candidates(self) -> list[tuple[list[Action], frozenset[int]]]:
        """Every legal move and move + reply, with the squares (a1 = 0) whose content changes;
        computed once per position."""
        ply = len(self.game.played)
        if self._cached is None or self._cached[0] != ply:
            self._cached = (ply, self._enumerate())
        return self._cached[1]

    def _enumerate(self) -> list[tuple[list[Action], frozenset[int]]]:
        game = self.game
        start = occupancy_of(game.state, self._index)
        out = []
        for a in game.legal():
            after = game.variant.apply(game.state, a)
            occ = occupancy_of(after, self._index)
            out.append(([a], frozenset(i for i in range(64) if occ[i] != start[i])))
            for b in game.variant.legal_actions(after):
                occ2 = occupancy_of(game.variant.apply(after, b), self._index)
                out.append(([a, b], frozenset(i for i in range(64) if occ2[i] != start[i])))
        # Candidates the camera cannot tell apart (promotion pieces, identity-only actions)
        # collapse to one: single moves first, then the promotion order of PROMOTION_ORDER.
        out.sort(key=lambda c: (len(c[0]), [_promo_rank(x) for x in c[0]]))
        seen: set[tuple[int, frozenset[int]]] = set()
        unique = []
        for actions, squares in out:
            key = (len(actions), squares)
            if key not in seen:
                seen.add(key)
                unique.append((actions, squares))
        return unique

    def _decode(self, change: np.ndarray[Any, Any],
                share: float) -> tuple[list[Action], float, frozenset[int]] | None:
        tau = max(CHANGE_FLOOR, CHANGE_SHARE * float(change.max()))
        changed = int(np.sum(change > tau))
        if changed == 0 or changed > MAX_CHANGED:
            return None
        gain = change - tau
        total = float(gain[gain > 0].sum())
        scored = []
        for actions, squares in self._candidates():
            if not squares:
                continue
            # Changed squares the candidate explains count for it, the others against it.
            explained = float(sum(gain[i] for i in squares))
            score = 2.0 * explained - total
            if len(actions) > 1:
                score -= PAIR_PENALTY * tau  # prefer one move when two explain the change
            scored.append((score, actions, squares))
        if not scored:
            return None
        scored.sort(key=lambda t: -t[0])
        best_score, best, squares = scored[0]
        runner = scored[1][0] if len(scored) > 1 else 0.0
        if best_score <= 0 or any(change[i] <= tau for i in squares):
            return None
        # Every clearly changed square must be explained: otherwise a hand is still there.
        weakest = min(float(change[i]) for i in squares)
        limit = max(tau, share * weakest)
        if any(change[i] > limit for i in range(64) if i not in squares):
            return None
        if best_score - runner < MARGIN * best_score:
            return None
        return best, best_score, squares

    def _new_reference(self, warped: Any, change: np.ndarray[Any, Any],
                       squares: frozenset[int]) -> Any:
        """The settled frame, except squares that changed with no move to explain it (most
        likely a hand or sleeve still over them), which keep their previous appearance."""
        tau = max(CHANGE_FLOOR, CHANGE_SHARE * float(change.max()))
        ref = warped.copy()
        unexplained = {i for i in range(64) if i not in squares and change[i] > tau}
        for i in unexplained:
            _copy_square(ref, self._reference, i)
        # The move's squares may still be settling (a hand straightening the piece).
        self._dirty = unexplained | set(squares)
        self._last_check = warped
        return ref

    def _heal(self, warped: Any) -> None:
        """Adopt the new look of squares kept back by :meth:`_new_reference` once it has
        stayed the same across two checks (a nudged piece, not a passing hand)."""
        last, self._last_check = self._last_check, warped
        if not self._dirty or last is None:
            return
        steady = change_map(last, warped)
        for i in list(self._dirty):
            if steady[i] < CHANGE_FLOOR:
                _copy_square(self._reference, warped, i)
                self._dirty.discard(i)

    def _is_still(self, diff: float) -> bool:
        """Below the motion threshold: STILL_DIFF, raised for noisy cameras to NOISE_FACTOR
        times the camera's noise floor (the 10th percentile of recent differences)."""
        if diff >= 1e9:  # the first frame: nothing to compare with
            return False
        self._diffs.append(diff)
        recent = self._diffs[-NOISE_WINDOW:]
        floor = float(np.percentile(recent, 10)) if len(recent) >= NOISE_MIN_FRAMES else 0.0
        self._calm = diff < START_CALM * max(STILL_DIFF, NOISE_FACTOR * floor)
        return diff < max(STILL_DIFF, NOISE_FACTOR * floor)

    def _take_start(self, warped: Any) -> None:
        """Take the start position's picture: the first calm frame (moved less than
        START_CALM motion thresholds since the previous one) that looks like the variant's
        start (every square the start occupies scores above most of the squares it leaves
        empty), or failing that after START_PATIENCE settled checks, the first settled frame."""
        if self._still >= STILL_FRAMES and (self._still - STILL_FRAMES) % RECHECK == 0:
            self._start_checks += 1
        if self._start_checks > START_PATIENCE or (
                self._calm and _looks_like(warped, occupancy_of(self.game.state, self._index))):
            self._reference = warped

    def step(self, frame: Frame) -> list[Recognised]:
        """Process one frame; return the moves it completed (usually none)."""
        self.frames += 1
        warped = warp_board(frame, self.corners)
        grey = cv2.GaussianBlur(cv2.cvtColor(warped, cv2.COLOR_BGR2GRAY), (5, 5), 0)
        grey = grey.astype(np.float64)
        moved = float(np.abs(grey - self._previous).mean()) if self._previous is not None else 1e9
        if self._is_still(moved):
            self._still += 1
        else:
            self._still = 0
        self._previous = grey
        if self._reference is None:
            self._take_start(warped)
            return []
        if self._still < STILL_FRAMES or (self._still - STILL_FRAMES) % RECHECK:
            return []
        self.settled += 1
        change = change_map(self._reference, warped)
        decoded = self._decode(change, UNEXPLAINED_SHARE)
        if decoded is None:
            self._heal(warped)
            if float(change.max()) < CHANGE_FLOOR:
                self._reference = warped  # nothing moved: follow slow lighting drift
            else:
                self.ignored += 1  # a hand, or a change no legal move explains
            return []
        actions, score, squares = decoded
        self._reference = self._new_reference(warped, change, squares)
        out = []
        for a in actions:
            played = self.game.play(a)
            out.append(Recognised(played.text, self.frames - 1, score))
        return out

    def run(self, frames: Iterable[Frame]) -> Iterator[Recognised]:
        """Process every frame, yielding moves as they are recognised."""
        for frame in frames:
            yield from self.step(frame)

    def summary(self) -> str:
        """One line: moves recognised, frames read, settled frames, ignored settled frames."""
        outcome = self.game.outcome
        result = getattr(outcome, "result", outcome)
        return (f"{len(self.game.played)} moves recognised; {self.frames} frames, "
                f"{self.settled} settled, {self.ignored} ignored; result {result}")
