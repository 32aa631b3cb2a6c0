"""Following a game through a camera: settled frames, change maps and legal-position decoding.

Why it works this way: a per-square classifier alone is wrong on a few squares of most real
frames (dark pieces on dark squares, printed logos, tall pieces leaning into the next square), so
a referee that trusts it loses the game within a few moves. The legal moves are a far stronger
prior: from a known position only a few dozen boards can follow, and each differs from the last
in two to four squares. So each settled frame is compared with the *candidate boards* the engine
says can follow, and the candidate that best explains what the camera sees wins when it beats
every other candidate board by a margin.

* **Settled frames.** In a video, a frame is judged once the warped board has barely moved
  (mean grey difference below an adaptive noise threshold) for ``STILL_S`` seconds, and again
  every ``RECHECK_S`` seconds while it stays still. Seconds, not frames: each frame carries its
  time (a video's position, a folder's fps, a live frame's arrival), so a phone sending 5
  frames a second and a camera at 30 settle alike, but never on fewer than ``MIN_STILL``
  still comparisons (a phone page stalled for 0.3 s would otherwise settle on one pair of
  frames mid-move); frames further apart than ``MOTION_DT`` see more of a slow drift between
  them, so the motion threshold grows with the square root of the gap (up to
  ``MOTION_SCALE_MAX``). A folder of photos (``stills=True``) holds one frame per settled
  position with no motion in between: every frame is judged.
* **The start picture.** Taken from the first calm frame that looks like the start; until the
  first move is accepted, a settled board that changed on more squares than a move and its
  reply could and still shows the start replaces it (a first frame held while the camera was
  adjusting its exposure).
* **Evidence.** Against the last accepted picture, a per-square *change map*
  (:mod:`vision.change`, picture maths with no chess in it): the Lab distance of
  each square's central region, after matching the frame's overall brightness to the reference
  (auto-exposure, changing light), taking for each square the best of small shifts (frames
  rectified one by one shift by a few pixels) and less the board's median (noise). The noise
  scale comes from the board itself (median + MAD of the change map), never from the largest
  change, so a dark piece leaving a dark square counts even when a white piece changed a lot.
  The per-square classifier (:func:`vision.classify.classify_board`) adds whether each changed
  square now looks empty, white or black. Photos from a hand are each taken from a little
  elsewhere, and between two of them the pieces' outlines sway over the squares behind them
  as moves would change them: each square's change is measured from whichever of the last
  few photos was taken from nearest, for that square, among those since which no piece seen
  over it moved (:meth:`Tracker._nearer`).
* **Candidates.** Every legal action, and every legal action + reply (a settled frame was
  missed), predicts which squares change and what colour they then hold. When nothing explains
  the board and it clearly changed, up to three actions are tried (recovery after missed frames),
  restricted to actions touching changed squares. Candidates the camera cannot tell apart (the
  promotion pieces) collapse to one, the queen first; the others are kept as alternatives
  (a :class:`Branch`): a promoted knight is told by its first knight's move. A folder's photo
  that showed no move may hold a move the camera could not see (a piece put down behind
  another): the next photo's sequences of two then have their first action's hidden squares
  veiled as that action's alone (:meth:`Decoder.saw_no_move`).
* **Decision.** score = explained change + classifier agreement on the candidate's squares -
  unexplained change - a penalty per extra action. The best candidate is taken when its squares
  all changed (or the classifier confirms a weak change), no unexplained square changed more than
  the candidate's weakest square allows (a hand or an arm still over the board), and it beats the
  runner-up by a margin. Squares that changed without explanation keep their old reference
  look until they are steady across two checks (a hand leaving vs a nudged piece), unless
  they then differ from the reference by more than ``NUDGE`` thresholds: a piece lifted off its
  square (a hand touching it at the last check), whose move is still to be seen.
* **Taking back.** A steady board no continuation explains may show that an accepted move was
  wrong (a piece put down, photographed, then moved on): the last one or two decisions are
  taken back and the board explained from the picture before them. A new order of the same
  moves (a transposition) keeps the old record. A reading kept open (a :class:`Branch`) is
  taken instead when a later picture is explained better in it (:meth:`Tracker._other_line`)
  or, photos from a hand, when the classifier's agreement with it on the squares the two
  readings differ on in plain sight, summed over the photos since, says so
  (:meth:`Tracker._classified_line`). The reading the pieces' outlines preferred is taken
  when its line comes to the same position as the game played (a transposition: no later
  picture can tell them apart), up to TRANSPOSE_DEPTH decisions on
  (:meth:`Tracker._transposed`).
* **A bumped camera.** When a settling frame's square edges leave the lattice lines
  (:func:`grid_alignment`), the board is found again near the old corners, and registered to
  the reference picture so that the comparison goes on where it was.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any, overload

import cv2
import numpy as np

from referee.app.vision_decoder import (
    BARE_SHARE,
    FIT_FAVOUR,
    FIT_MARGIN_MOVED,
    HEIGHTS,
    LEAN_COVER,
    MAX_CHANGED,
    MAX_SEQUENCE,
    VEIL_COVER,
    Branch,
    Candidate,
    Decision,
    Decoder,
    Fit,
    Halo,
    Lean,
    Once,
    board_index,
    forgiven,
    in_front,
    lead_needed,
    occupancy_of,
    outline_misses,
    outlines_tell,
    pieces_of,
    pushed_pair,
)
from referee.app.vision_view import CameraView, square_slot, view_of
from referee.rules.actions import Action
from referee.rules.errors import RefereeError
from referee.rules.game import Game
from vision.change import (
    ROI_MARGIN,
    SMALL,
    WINDOW_SHIFTS,
    change_map,
    change_parts,
    changed_cells,
    contrast,
    grid_alignment,
    halo_bare,
    halo_change,
    halo_picture,
    lab_small,
    main_part,
    match_light,
    pushed_compared,
    register,
    shifted_windows,
    threshold,
    to_index_order,
)
from vision.classify import BLACK, EMPTY, THRESHOLD, WHITE, BoardReading, classify_board
from vision.geometry import (
    SQUARE,
    Corners,
    Drawings,
    Outlines,
    beyond,
    camera_position,
    halo_cells,
    homography,
    outline,
    outlines,
    painted,
    rotate_corners,
    silhouettes,
    silhouettes_and_centres,
    swept,
    unseen_squares,
    warp_board,
    warp_widened,
)
from vision.locate import refine_corners
from vision.sources import Frame
from vision.stabilise import Stabiliser, scene_motion

STILL_DIFF = 1.6      # mean |grey difference| between consecutive warped frames (0-255)
NOISE_FACTOR = 3.0    # ... or this many times the noise floor, whichever is larger
NOISE_WINDOW = 200    # frames over which the noise floor (10th percentile) is measured
NOISE_MIN_FRAMES = 20  # frames needed before the noise floor is trusted
STILL_SQUARE = 8.0    # a folder's frame is still when no square (but one) changed more than
                      # this (mean grey levels) beyond the median square
STILL_S = 0.15        # seconds below the motion threshold before the board is settled
RECHECK_S = 0.2       # a still period is looked at again every RECHECK_S seconds
NOMINAL_FPS = 20.0    # frames without a time stamp are taken this far apart
MOTION_DT = 0.05      # the motion thresholds are per this many seconds between frames ...
MOTION_SCALE_MAX = 1.5  # ... grown with a longer gap (a slower camera), at most this much
DUPLICATE_DIFF = 0.05  # a frame that moved less than this repeats the last one
SCALE_POWER = 0.5     # ... as the square root of the gap (noise does not grow, drift does)
MIN_STILL = 2         # ... and at least this many still comparisons: one pair of frames
#                       around a stalled sender's gap is no evidence of a settled board
EPS = 1e-6            # seconds: time stamps equal within this
REBASE_CHANGED = 8    # before the first move, more unexplained changed squares than this on
#                       a settled board showing the start: a new start picture; on one that
#                       does not, the first moves read by the classifier alone (_first_moves):
FIRST_DOUBT = 1       # ... squares whose emptiness it may surely read otherwise (a move
#                       beyond the candidate's, its squares taken as the reference, is lost)
FIRST_SURE = 0.5      # ... "surely": this far from the occupancy threshold (agreement units)
FIRST_DEPTH = 4       # ... the longest sequence tried (each action on such a square) ...
FIRST_LEAD = 2.0      # ... and its lead over the next board (agreement, -1 to 1 a square)
SWITCH_MARGIN = 0.2   # another line must beat the line played by this share of its score
START_CALM = 3.0      # looser motion limit for the start frame (hands are often about)
START_PATIENCE = 3    # settled checks to wait for a start-like frame before taking any
SHADE_CHANGED = 4     # more changed squares than a move's, none explained: a shadow is looked for
PLACEMENT = 0.3       # squares a piece may stand off its square's centre (Lean.far)
HEIGHT_SHARES = (1.0, 0.75, 0.5, 0.25)  # how tall the pieces may look (height_scale)
LEAN_KEEP = 4.0       # pixels the corners may move before what pieces cover is worked out anew
SHADE_CONTRAST = 20.0  # grey levels of light/dark contrast both pictures need for a shadow
RETRACT_DEPTH = 2     # accepted decisions a later contradicting frame may take back
BRANCH_DEPTH = 6      # accepted decisions an undecidable one's alternatives are kept for
RESCUE_DEPTH = 12     # ... and then, to explain a photo no move of the game explains
TRANSPOSE_DEPTH = 16  # ... and the one the outlines preferred, for a transposition only
OLD_FAVOURED = 0.5    # ... and to outscore it by this share, the one the outlines preferred
LINE_EVIDENCE = 1.0   # the classifier's agreement for an open alternative over the photos
#                       since, on the squares it differs on in plain sight: it is played
BORDER_EMPTY = 14.0   # a border square (a printed label ring) this far (Lab) from its empty look
BORDER_SCALE = 8.0    # ... is as likely occupied as not; this much further: surely occupied
BUMPED_SHARE = 0.35   # grid alignment below this share of the start's: the camera moved
REFOUND_SHARE = 0.6   # ... and a board re-found must align at least this share of it
NEAR_SQUARES = 2.0    # a board is first looked for again within this many squares of where it was
NUDGE = 4.0           # a square kept back that changed more than this x threshold is not healed
LOST_RETRY_S = 1.0    # a stabiliser that lost the board: find it again at most this often
PUZZLED_S = 10.0      # a settled board that no move explains for this long (a video) ...
PUZZLED_PHOTOS = 3    # ... or in this many photos in a row: the camera says it is puzzled
CUT_UP_UNEXPLAINED = 2  # frames in a row no move explains, after a repeat: a video cut up
RESYNC_SURE = 0.3     # classifier agreement a repeated photo's stale square needs (_resync)
EARLIER_PHOTOS = 4    # earlier reference photos a square's change may be measured from ...
NEARER_ANGLE = 15.0   # ... taken from within this many degrees of where the camera stands ...
NEARER_SHARE = 0.05   # ... when the outlines swept this much less of it from there


@dataclass(frozen=True)
class Recognised:
    """One recognised move: its canonical text, the frame number it settled at, its score."""

    text: str
    frame: int
    score: float


def agreement(warped: Any) -> np.ndarray[Any, np.dtype[np.float64]]:
    """(64, 3): how much the classifier agrees (-1..1) that each square (a1 = 0) of the
    (main) board is empty, holds a white piece, holds a black piece."""
    return _agree(classify_board(main_part(warped)), to_index_order)


def height_scale(agree: np.ndarray[Any, Any], corners: Corners, shape: tuple[int, ...],
                 heights: np.ndarray[Any, Any]) -> float:
    """How tall the pieces look, as a share of PIECE_HEIGHT (1, 0.75, 0.5, 0.25 or 0), from
    the start picture's classifier ``agree``-ment (64 squares, a1 = 0) with the pieces at
    ``heights`` (height classes, -1 empty): the tallest share at which the empty squares
    the pieces would stand over by half or more (VEIL_COVER) mostly look occupied, or at
    which there are none.

    Why: the heights are a Staunton set's. A board drawn flat (or a set of flat tokens)
    seen from low down, taken for one of tall pieces, has every square behind a piece
    hidden and every square behind a moved piece due to change: a pawn d2-d4 on a flat
    board seen from 22 degrees read as d2-d3 (tests/vision/test_track_synthetic.py). From
    45 degrees and higher a Staunton set stands over no empty square of the start by half,
    and the heights stay as they are."""
    empty = heights < 0
    occupied = agree[:64, EMPTY] < 0
    squares = np.arange(len(heights))
    for share in HEIGHT_SHARES:
        cover = silhouettes(corners, shape, tuple(h * share for h in HEIGHTS))
        if cover is None or empty.all():
            return 1.0
        hidden = empty & (in_front(cover, heights, squares)[1].max(axis=0) >= VEIL_COVER)
        if not hidden.any() or float(occupied[hidden].mean()) >= 0.5:
            return share
    return 0.0


def _agree(reading: BoardReading, order: Any) -> np.ndarray[Any, np.dtype[np.float64]]:
    """(64, 3) agreement from a reading, its grids put in square order by ``order``."""
    occ = np.clip((order(reading.occupancy) - THRESHOLD) / 0.5, -1.0, 1.0)
    white = np.clip(order(reading.whiteness) / 0.3, -1.0, 1.0)
    out = np.empty((64, 3))
    out[:, EMPTY] = -occ
    out[:, WHITE] = np.minimum(occ, white)
    out[:, BLACK] = np.minimum(occ, -white)
    return out


def place_by_position(frame: Frame, corners: Corners, game: Game) -> Corners:
    """Of the board found at ``corners`` in its four labellings, each also moved by up to two
    squares each way along the lattice (:data:`PLACE_SHIFTS`), the one whose squares the
    classifier finds closest to the game's current position (the start position, or wherever
    the referee's game stands): which side is White, read from the pieces the game says are
    there rather than guessed from one photo. Unchanged on a tie (an empty board). A window
    moved is fitted to the lattice again where it now stands
    (:func:`vision.locate.refine_corners`), unless that fits the position worse.

    Why the turns and the shifts: seen obliquely from a player's side, the start position's
    far ranks are a wall of tall pieces, and the lattice was found a rank off (the table's
    edge taken for the near rank) and labelled a quarter turn off; ``watch camera://`` then
    saw no move at all in rendered games seen at near/far 1.36 and 1.50. Two squares: from
    White's side at 45 degrees (and from the h-file's at 35 and 45) the start position was
    found two ranks towards the far side and turned 180 degrees, and a square's shift left
    it a rank off: no move of the game was seen."""
    expected = np.asarray(occupancy_of(game.state, board_index(game.variant)))
    if not expected.any():
        return corners

    def score(option: Corners) -> int:
        """One point for each square read empty or occupied as the game has it, one more when
        its colour is right too: a colour is misread more often than a piece (white pieces on
        dark squares read black on the hand-held video's first frame, seed 3: by colour the
        true window and one a file off both matched 56 squares, and the one a file off was
        taken; by occupancy they match 63 and 60)."""
        seen = to_index_order(classify_board(warp_board(frame, option)).labels)
        return int(np.sum(seen == expected)) + int(np.sum((seen > 0) == (expected > 0)))

    best, best_score, moved = corners, -1, False
    for k, window in enumerate(shifted_windows(corners, PLACE_SHIFTS)):
        for turn in range(4):
            option = rotate_corners(window, turn)
            if (found := score(option)) > best_score:
                best, best_score, moved = option, found, k > 0
    if moved:  # extrapolated past the squares it was fitted on: fitted again where it is
        refined = refine_corners(frame, best)
        if score(refined) >= best_score:
            return refined
    return best


#: What the pieces' outlines swept over between two views (:meth:`Tracker._sway`; None when
#: a camera's place is not known), with the corners of the two: the reference's, then the
#: current ones.
Swept = tuple[Corners, Corners, np.ndarray[Any, Any] | None]

#: The shifts (files, ranks) of :func:`place_by_position`'s windows
#: (:func:`vision.change.shifted_windows`): up to two squares each way, the nearest first
PLACE_SHIFTS = tuple(sorted(((dx, dy) for dy in range(-2, 3) for dx in range(-2, 3)),
                            key=lambda s: (abs(s[0]) + abs(s[1]), max(abs(s[0]), abs(s[1])))))


def _looks_like(warped: Any, occ: Sequence[int]) -> bool:
    """True when the classifier's occupancy scores agree with occupancy ``occ`` (a1 = 0):
    every occupied square scores above the 75th percentile of the empty squares' scores."""
    score = to_index_order(classify_board(main_part(warped)).occupancy)
    full = np.array([score[i] for i in range(64) if occ[i]])
    empty = np.array([score[i] for i in range(64) if not occ[i]])
    if full.size == 0 or empty.size == 0:
        return True
    return float(full.min()) > float(np.percentile(empty, 75))


def _without(frame: Frame, boards: Sequence[Corners]) -> Frame:
    """``frame`` with each of ``boards`` (and half a square around it) painted over (a second
    board is no candidate when the first is looked for)."""
    areas = [a for a in (outline(c, 0.5) for c in boards) if a is not None]
    return painted(frame, areas) if areas else frame


def _same_view(seen: Any, seen_shape: tuple[int, ...] | None, corners: Any,
               shape: tuple[int, ...] | None) -> bool:
    """Whether what the pieces cover, worked out for corners ``seen`` in a picture of
    ``seen_shape``, still holds for ``corners`` in one of ``shape``: the same size, every corner
    within LEAN_KEEP pixels."""
    return seen_shape == shape and float(np.abs(seen - corners).max()) <= LEAN_KEEP


def _mapped(corners: Corners, motion: Any) -> Corners:
    """``corners`` moved by the 3x3 image-to-image ``motion``."""
    points = np.asarray(corners, dtype=np.float64).reshape(-1, 1, 2)
    return np.asarray(cv2.perspectiveTransform(points, motion).reshape(4, 2), dtype=np.float32)


def _carried(others: Sequence[Corners], old: Corners, new: Corners) -> list[Corners]:
    """The corners of ``others`` after the camera moved so that the board at ``old`` is seen
    at ``new``: the boards lie on one table, and one homography maps a plane's points from
    picture to picture (old picture -> board -> new picture)."""
    if not others:
        return []
    moved = np.linalg.inv(homography(new)) @ homography(old)
    return [_mapped(c, moved) for c in others]


def _fills(frame: Frame, corners: Corners) -> bool:
    """Whether the board at ``corners`` fills ``frame`` (every corner within a quarter of a
    square of the picture's edge): a rectified frame."""
    h, w = frame.shape[:2]
    c = np.asarray(corners, dtype=np.float64)
    room = min(w, h) / 32.0
    edges = np.minimum(np.minimum(c[:, 0], w - c[:, 0]), np.minimum(c[:, 1], h - c[:, 1]))
    return bool((edges <= room).all())


def _near(frame: Frame, corners: Corners, margin: float = NEAR_SQUARES) -> Frame:
    """``frame`` with everything further than ``margin`` squares from the board at ``corners``
    painted over."""
    area = outline(corners, margin)
    return frame if area is None else painted(frame, [area], outside=True)


def _looked_alike(one: np.ndarray[Any, Any] | None, other: np.ndarray[Any, Any] | None
                  ) -> bool:
    """Whether cameras at ``one`` and ``other`` (:func:`vision.geometry.camera_position`) look
    at the board's centre from within NEARER_ANGLE degrees of one another."""
    if one is None or other is None:
        return False
    centre = np.array([4.0, 4.0, 0.0])
    a, b = one - centre, other - centre
    cos = float(a @ b) / float(np.linalg.norm(a) * np.linalg.norm(b))
    return cos >= float(np.cos(np.deg2rad(NEARER_ANGLE)))


@overload
def _unchanged_on(change: np.ndarray[Any, Any], squares: frozenset[int]
                  ) -> np.ndarray[Any, Any]: ...


@overload
def _unchanged_on(change: None, squares: frozenset[int]) -> None: ...


def _unchanged_on(change: np.ndarray[Any, Any] | None, squares: frozenset[int]
                  ) -> np.ndarray[Any, Any] | None:
    """``change`` (per square; None stays None) with ``squares`` counted as unchanged: a
    copy when there are any (:meth:`Tracker._kept_apart`)."""
    if change is None or not squares:
        return change
    out = change.copy()
    out[list(squares)] = 0.0
    return out


def _alike(decision: Decision, mine: Decision, theirs: Decision) -> float | None:
    """Another line's reading of the action the game played reads (``decision``), as
    compared with it where the table beyond the board is looked at as both lines see it
    (:meth:`Tracker._apart`): the game played's score plus the lead of that line's reading
    there (``theirs``) over the game played's (``mine``); None when either then reads
    another action."""
    cand = decision.candidate
    if cand is None or mine.candidate is None or theirs.candidate is None or not (
            mine.candidate.actions == theirs.candidate.actions == cand.actions):
        return None
    return decision.shown + theirs.shown - mine.shown


def _reaching(line: Game, target: Any) -> Action | None:
    """The legal action that brings ``line`` to the position whose key is ``target``
    (:meth:`Variant.position_key`), if any: where another line meets it."""
    variant = line.variant
    return next((a for a in variant.legal_actions(line.state)
                 if variant.position_key(variant.apply(line.state, a)) == target), None)


def _copy_square(dst: Any, src: Any, index: int) -> None:
    """Copy visible square ``index`` (a1 = 0, then the squares beyond the board) of warped
    board ``src`` into ``dst``."""
    r, c = square_slot(index)
    s = dst.shape[1] // 8
    dst[r * s:(r + 1) * s, c * s:(c + 1) * s] = src[r * s:(r + 1) * s, c * s:(c + 1) * s]


class Tracker:
    """Follows one game of ``variant`` seen through a fixed camera with board ``corners``.

    ``stills``: every frame is a settled position (a folder of photos) instead of waiting for
    the board to stay still. Once two frames in a row showed the same board, a later frame
    that differs and that no legal move explains (a hand, a piece in the air) shows that the
    frames are a video cut into frames, and the motion gate takes over from there.
    ``stabilise``: a camera held in the hand; every frame's corners are carried onto the board
    from the previous frame's (:class:`vision.stabilise.Stabiliser`), and when that is lost
    the board is found again. Opens nothing: feed it frames with :meth:`run` or :meth:`step`.

    Raises (constructor): the referee's UnknownVariantError / VariantNotImplementedError;
    UnsupportedVariantError when the variant has no 8x8 board. The squares around the board on
    its panel (a printed ring) are seen with the board's own corners; a second board
    (:class:`~referee.app.vision_view.Block`) needs its corners in ``others`` (a8, h8, h1, a1),
    without which the camera sees the first board only (:mod:`referee.app.vision_view`).
    """

    def __init__(self, corners: Corners, variant: str = "standard", *, stills: bool = False,
                 game: Game | None = None, relocate: bool = True,
                 others: Sequence[Corners] = (), stabilise: bool = False) -> None:
        self.corners = corners
        self.others = list(others)
        game = game if game is not None else Game(variant)
        view = view_of(game.variant)
        if len(self.others) < len(view.blocks):  # a second board nobody placed: not seen
            view = CameraView(view.index[:view.size - 64 * len(view.blocks)],
                              view.looks[:view.size - 64 * len(view.blocks)], view.ring, ())
        self.view = view
        #: a border square's look when empty (taken from the start picture, and whenever a
        #: decision leaves it empty), to tell a piece on a printed label from the label
        self._empty_look: dict[int, Any] = {}
        self.relocate = relocate
        #: carries the corners from frame to frame (a camera in the hand, or photos taken one
        #: by one: each framed a little differently, see :meth:`step`); None: fixed camera
        self.stabiliser = Stabiliser(corners) if stabilise else None
        #: the last photo of a folder, or the last frame whose fit was taken (:meth:`_stabilised`)
        self._last_frame: Any = None
        self._first_corners = np.asarray(corners, dtype=np.float32)
        self._first_view: Any = None  # the last folder frame's board through _first_corners
        self._cut_up = False  # a folder showed the same board twice: maybe a video cut up
        self._unexplained = 0  # ... and then this many frames in a row no move explains
        self._lost_retry = -1e9  # time of the last re-finding tried because it was lost
        self.relocations = 0  # times the board was found again after the camera moved
        self._alignment: float | None = None  # grid alignment of the start picture
        self._relocated_in = -1  # the still period in which a re-location was last tried
        self.decoder = Decoder(game, view.index)
        self.game = self.decoder.game
        self.stills = stills
        self.frames = 0
        self.settled = 0
        self.ignored = 0
        self.still_since = 0   # frame number where the current still period began
        self._ref: Any = None
        #: the corners the reference picture was seen with (:attr:`_reference`)
        self._ref_corners: Corners | None = None
        #: what the pieces' outlines swept over between those corners and the last ones
        #: (:meth:`_sway`), with both
        self._sway_for: Swept | None = None
        self._frame: Any = None  # the frame being looked at (:meth:`step`)
        #: the table beyond the board's edges in the reference picture (:meth:`_halo`; None
        #: when what pieces cover there was not known for its corners), and in the frame
        #: being looked at (with that frame and its corners)
        self._halo_ref: Any = None
        self._halo_kept: tuple[Any, Corners, Any] | None = None
        #: what pieces cover beyond the board and which cells the picture shows, for the
        #: corners and picture size it was worked out for; and what the outlines swept over
        #: there between the reference's corners and the last ones, with both
        self._beyond_for: tuple[Any, tuple[int, ...], Any] | None = None
        self._beyond_sway: Swept | None = None
        self._unseen: frozenset[int] = frozenset()  # squares (a1 = 0) the last frame cut off
        self._shape: tuple[int, ...] | None = None  # the last frame's (height, width)
        #: what pieces cover, for the corners and picture size it was worked out for
        self._lean_for: tuple[Any, tuple[int, ...], Any] | None = None
        #: the last outlines worked out, and the corners and picture size they are for
        self._outlines_for: list[tuple[Any, tuple[int, ...], Outlines | None]] = []
        #: the pieces' outlines drawn from the camera's last places (:class:`Drawings`)
        self._drawings = Drawings(Drawings.PLACES + EARLIER_PHOTOS)
        #: how tall the pieces look against PIECE_HEIGHT (:func:`height_scale`)
        self._scale = 1.0
        #: a reference picture and the classifier's agreement on it (:meth:`_agreement_of`)
        self._agreed: tuple[Any, np.ndarray[Any, Any]] | None = None
        #: the last two main boards :meth:`_agreement` classified (copies), with their
        #: agreement (:meth:`_agreement_of`)
        self._classified: list[tuple[Any, np.ndarray[Any, Any]]] = []
        self._last_check: Any = None
        #: the last check's picture, a picture, and the change map between them
        self._since_kept: tuple[Any, Any, np.ndarray[Any, Any]] | None = None
        self._dirty: set[int] = set()
        self._previous: Any = None
        self._still = 0
        self._time: float | None = None        # time stamp (s) of the last frame
        self._still_start: float | None = None  # when the current still period began
        self._next_check = 0.0                  # time of its next settled check
        self._check = False                     # whether the last frame is a settled check
        self._diffs: list[float] = []
        self._start_checks = 0
        self._repeat = False  # the last frame repeated the one before exactly
        self._calm = False  # the last frame moved less than START_CALM motion thresholds
        self._lost = 0      # settled checks in a row that changed but were not explained
        #: settled checks in a row that changed and were not explained, however many squares
        #: (an arm, or a lattice that is not the board's), and the time of the first of them
        self._puzzling = 0
        self._puzzling_since = 0.0
        #: the reference picture before each of the last accepted decisions, and how many
        #: actions each played (what :meth:`_retract` may take back)
        #: (and the table beyond the board then, :meth:`_halo`, and the corners it was seen
        #: with, :meth:`_fit`)
        self._history: list[tuple[Any, int, Any, Corners | None]] = []
        #: the last EARLIER_PHOTOS reference pictures of a camera in the hand, with the
        #: corners each was seen with, the pieces then and where the camera stood
        #: (:meth:`_nearer`), the latest first
        self._earlier: list[tuple[Any, Corners, np.ndarray[Any, Any],
                                  np.ndarray[Any, Any] | None]] = []
        #: the photo being judged and, for each square, the earlier reference picture its
        #: change was measured from (:meth:`_nearer`; -1: the reference picture)
        self._nearer_from: tuple[Any, np.ndarray[Any, Any]] | None = None
        self.retracted = 0    # actions the last step took back before playing its moves
        self.withdrawn: tuple[str, ...] = ()  # ... their texts, oldest first
        self.corrections = 0  # times accepted moves were taken back and replaced
        self._decisions = 0   # decisions accepted so far
        #: the ply from which the last step played another line's actions anew (pending
        #: until the next step: the referee has yet to take the withdrawn ones back)
        self._replayed_from: int | None = None
        #: decisions taken between candidates no picture told apart, still open
        self._branches: list[Branch] = []
        #: branches past RESCUE_DEPTH whose alternative the outlines preferred, kept until
        #: TRANSPOSE_DEPTH for a transposition (:meth:`_transposed`)
        self._waiting: list[Branch] = []
        #: the classifier's evidence for each open alternative, summed photo by photo
        #: (:meth:`_classified_line`), by its branch's decision count and its place in it
        self._evidence: dict[tuple[int, int], float] = {}
        #: open alternatives whose line went its own way (:meth:`_diverge`), by the same
        #: keys: its actions from its branch on, and how many of the game's actions they cover
        self._diverged: dict[tuple[int, int], tuple[tuple[Action, ...], int]] = {}
        #: each open line's own reading of this photo (:meth:`_other_line`), and the ply
        #: of the game it was read against
        self._readings: tuple[int, dict[tuple[int, int], tuple[Action, ...]]] = (-1, {})
        self.unshaded = 0     # settled checks judged with a shadow's light taken out
        self._start_only = True  # no decision accepted yet: the reference is the start's
        self.rebased = 0    # times the reference picture was taken anew (light changed)
        self.resynced = 0   # times a repeated photo re-took stale squares (:meth:`_resync`)
        self._attempt_shown = False  # a failed attempt was accepted; its pieces not yet back
        #: set when a settled board shows the pieces of a failed attempt put back (the camera
        #: sensor reports the board then, and clears it)
        self.put_back = False

    @property
    def _reference(self) -> Any:
        """The picture settled frames are compared with; setting it records the corners it
        was seen with (a camera in the hand sees each picture from a little elsewhere)."""
        return self._ref

    @_reference.setter
    def _reference(self, picture: Any) -> None:
        self._ref = picture
        self._ref_corners = np.array(self.corners, dtype=np.float32)
        # (a video's camera in the hand: not worth working out what pieces cover anew)
        self._halo_ref = (self._halo_picture()
                          if self._beyond_cover(work=self.stills) is not None else None)

    @property
    def puzzled(self) -> bool:
        """Whether the settled board has differed from the game's position in a way no legal
        move explains for PUZZLED_S seconds (a video) or in PUZZLED_PHOTOS photos in a row: a
        hand resting on the board, pieces not where the game has them, or corners that are not
        the board's (another board's lattice). The camera sensor says so once (a notice)
        instead of following nothing in silence."""
        if self._puzzling == 0:
            return False
        if self.stills:
            return self._puzzling >= PUZZLED_PHOTOS
        return self._time is not None and self._time - self._puzzling_since >= PUZZLED_S

    def _candidates(self) -> list[tuple[list[Action], frozenset[int]]]:
        """Every candidate as (actions, changed squares) (for tests)."""
        return [(list(c.actions), c.squares) for c in self.decoder.candidates()]

    def _new_reference(self, warped: Any, change: np.ndarray[Any, Any],
                       squares: frozenset[int]) -> Any:
        """The settled frame, except squares that changed with no move to explain it (most
        likely a hand or sleeve still over them), which keep their previous appearance."""
        tau = threshold(change)
        ref = warped.copy()
        # With stills the light may differ from frame to frame: keep only the squares of a
        # hand forgiven at the board's edge, not every one above the noise (a square kept from
        # a differently exposed frame would look changed for ever).
        unexplained = {i for i in range(len(change)) if i not in squares and change[i] > tau}
        if self.stills:
            mask = np.zeros(len(change), dtype=bool)
            mask[list(squares)] = True
            unexplained = ({i for i in unexplained if change[i] > 2.0 * tau}
                           if forgiven(change, tau, mask) else set())
        for i in unexplained:
            _copy_square(ref, self._reference, i)
        # The move's squares may still be settling (a hand straightening the piece); with
        # stills the next frame shows the next position, so only the kept-back squares wait.
        self._dirty = unexplained if self.stills else unexplained | set(squares)
        self._last_check = warped
        return ref

    def _steady(self, warped: Any) -> bool:
        """In a video, whether the board looks the same as at the previous check although
        it still differs from the reference: a position to re-synchronise to, not a hand
        passing over it."""
        if self._lost == 0 or self._last_check is None:
            return False
        steady = self._since_last_check(warped)
        return bool(steady.max() < threshold(steady))

    def _since_last_check(self, warped: Any) -> np.ndarray[Any, np.dtype[np.float64]]:
        """:func:`change_map` from the last check's picture to ``warped``, worked out once for
        the two (:meth:`_steady` and :meth:`_heal` both ask it of one check)."""
        last = self._last_check
        kept = self._since_kept
        if kept is None or kept[0] is not last or kept[1] is not warped:
            kept = self._since_kept = (last, warped, change_map(last, warped))
        return kept[2]

    def _rebase(self, warped: Any) -> bool:
        """Before the first move is accepted, take a new start picture when a settled board
        changed on more squares (REBASE_CHANGED) than a move and its reply could, no candidate
        explains it and the classifier finds the start position on it: the first picture was
        taken while the camera was still adjusting its exposure (a held first frame, a slow
        camera's first frames), in a way the brightness matching cannot undo; with stills
        too (a video cut into frames, before it is known to be one). Only before the first
        move: later, a board the classifier misreads as the old position would swallow a
        move; a photo after a move does not look like the start. True when it did."""
        if not _looks_like(warped, self.decoder.occupancy()):
            return False
        self._reference, self._last_check = warped, warped
        self._forget_earlier()
        self._dirty = set()
        self._lost = self._puzzling = 0
        self.rebased += 1
        return True

    def _first_moves(self, agree: np.ndarray[Any, Any]) -> Candidate | None:
        """The board read by the classifier alone, when no picture can be compared with: before
        the first move when the start picture cannot be (a settled board changed on more
        squares than a move and its reply could, and it is not the start). The candidate (up
        to FIRST_DEPTH actions) whose board the classifier reads on every square but
        FIRST_DOUBT (its emptiness surely read otherwise; a piece's colour may be misread),
        clearly better (FIRST_LEAD) than any other board and than the start.
        Why: a camera still adjusting its exposure when the start was taken (or a hand coming
        in), and players quick to move, left no settled start to take again: the video at
        1.5 or 2 times its speed, 10 frames a second, gave no move at all. Not later in the
        game: tried after two steady checks without a sequence (the camera covered for moves),
        the live stream on a starved machine lost moves or took a wrong one."""
        occ = np.asarray(self.decoder.occupancy(), dtype=np.int64)
        rows = np.arange(64)
        seen = -agree[:64, EMPTY]  # -1 surely empty .. 1 surely occupied
        certain = np.abs(seen) >= FIRST_SURE

        def doubted(colour: np.ndarray[Any, Any]) -> np.ndarray[Any, np.dtype[np.bool_]]:
            # squares whose emptiness the classifier surely reads otherwise (a piece's colour
            # misread is no such doubt: light wooden pieces read dark on brown squares)
            return np.asarray(((colour[:64] != EMPTY) != (seen > 0)) & certain)

        touching = frozenset(int(i) for i in np.flatnonzero(doubted(occ)))
        if len(touching) > 2 * FIRST_DEPTH + FIRST_DOUBT:
            return None  # more than the longest sequence could explain (corners gone wrong)
        deeper = [c for depth in range(MAX_SEQUENCE, FIRST_DEPTH + 1)
                  for c in self.decoder.sequences(depth, touching)] if touching else []
        boards = [(None, occ)] + [(c, c.colour) for c in self.decoder.candidates() + deeper]
        scored = [(float(agree[rows, colour[:64]].sum()), int(doubted(colour).sum()), cand)
                  for cand, colour in boards]
        scored.sort(key=lambda x: -x[0])
        (best, doubts, cand) = scored[0]
        runner = scored[1][0] if len(scored) > 1 else -np.inf  # (a game over: no candidate)
        if cand is None or doubts > FIRST_DOUBT or best - runner < FIRST_LEAD:
            return None
        return cand

    def _heal(self, warped: Any, change: np.ndarray[Any, Any] | None = None) -> None:
        """Adopt the new look of squares kept back by :meth:`_new_reference` once it has
        stayed the same across two checks (a nudged piece, not a passing hand), unless it
        changed from the reference (``change``) by more than NUDGE thresholds: a piece lifted
        off its square, whose move is still to be seen, not a nudge."""
        if not self._dirty or self._last_check is None:
            self._last_check = warped
            return
        steady = self._since_last_check(warped)
        self._last_check = warped
        tau = threshold(steady)
        limit = np.inf if change is None else NUDGE * threshold(change)
        for i in list(self._dirty):
            if steady[i] < tau and change is not None and change[i] > limit:
                continue
            if steady[i] < tau:
                _copy_square(self._reference, warped, i)
                self._dirty.discard(i)

    def _is_still(self, diff: float, scale: float = 1.0, noise: float | None = None) -> bool:
        """Below the motion threshold: STILL_DIFF (times ``scale``: frames further apart than
        MOTION_DT see more of a slow drift), raised for noisy cameras to NOISE_FACTOR times the
        camera's noise floor (the 10th percentile of recent ``noise`` samples: the median
        square's difference, which a hand over part of the board does not raise, so a video
        where hands are nearly always moving does not learn their slow motion as noise). A
        frame repeated exactly (a held first frame, a duplicated frame) says nothing about
        the noise."""
        if diff >= 1e9:  # the first frame: nothing to compare with
            return False
        if diff > DUPLICATE_DIFF:
            self._diffs.append(diff if noise is None else noise)
            del self._diffs[:-NOISE_WINDOW]
        floor = (float(np.percentile(self._diffs, 10))
                 if len(self._diffs) >= NOISE_MIN_FRAMES else 0.0)
        limit = max(STILL_DIFF * scale, NOISE_FACTOR * floor)
        self._calm = diff < START_CALM * limit
        return diff < limit

    def _is_check(self) -> bool:
        return self.stills or self._check

    def _settling(self, t: float | None) -> bool:
        """Whether a still frame at time ``t`` would be a settled check (the board is about
        to settle: time to see whether the camera was bumped)."""
        if self.stills:
            return True
        if self._still_start is None:
            return False
        now = self._clock(t)
        return now + EPS >= self._next_check

    def _clock(self, t: float | None) -> float:
        """The time stamp (s) of the next frame: ``t``, or NOMINAL_FPS frames a second."""
        return self.frames / NOMINAL_FPS if t is None else float(t)

    def _settle(self, moved: float, t: float, noise: float | None = None) -> None:
        """Update the still period with the frame at time ``t`` that ``moved`` since the
        last: the board is settled STILL_S seconds after it stopped moving, and looked at
        again every RECHECK_S seconds while it stays still (seconds, not frames, so a camera
        at 5 frames a second and one at 30 settle alike)."""
        dt = t - self._time if self._time is not None else MOTION_DT
        previous = self._time if self._time is not None else t
        self._time = t
        scale = min(MOTION_SCALE_MAX, max(1.0, (dt / MOTION_DT) ** SCALE_POWER))
        self._check = False
        if self._is_still(moved, scale, noise):
            self._still += 1
            if self._still_start is None:
                self._still_start = previous
                self._next_check = previous + STILL_S
            if t + EPS >= self._next_check and self._still >= MIN_STILL:
                self._check = True
                while self._next_check <= t + EPS:
                    self._next_check += RECHECK_S
        else:
            self._still = 0
            self._still_start = None
            self.still_since = self.frames

    def _take_start(self, warped: Any) -> None:
        """Take the start position's picture: the first calm frame (moved less than
        START_CALM motion thresholds since the previous one) that looks like the variant's
        start (every square the start occupies scores above most of the squares it leaves
        empty), or failing that after START_PATIENCE settled checks (not counting a frame
        repeated exactly: a camera's first frame held while it adjusts), the first settled
        frame.
        With stills, the first frame is the start."""
        if self.stills:
            self._set_start(warped)
            return
        if self._is_check() and not self._repeat:  # a held frame is no new evidence
            self._start_checks += 1
        if self._start_checks > START_PATIENCE or (
                self._calm and _looks_like(warped, self.decoder.occupancy())):
            self._set_start(warped)

    def _set_start(self, warped: Any) -> None:
        self._reference = warped
        if self._shape is not None:
            codes = np.asarray(pieces_of(self.game.state, self.view.index), dtype=np.int64)
            self._scale = height_scale(agreement(warped), self.corners, self._shape,
                                       self.decoder.heights(codes[:64]))
            self._lean_for = None
            self._outlines_for = []
        self._refresh_stabiliser()
        self._alignment = grid_alignment(warped)
        self._learn_empty(warped)

    def _learn_empty(self, warped: Any) -> None:
        """Keep the look of every border square empty in the current position (and not
        known yet): the printed label the classifier has no checkerboard to compare with."""
        occ = self.decoder.occupancy()
        for i in range(64, self.view.size):
            if self.view.looks[i] != "checker" and not occ[i] and i not in self._empty_look:
                r, c = square_slot(i)
                self._empty_look[i] = warped[r * SQUARE:(r + 1) * SQUARE,
                                             c * SQUARE:(c + 1) * SQUARE].copy()

    def _agreement(self, warped: Any) -> np.ndarray[Any, np.dtype[np.float64]]:
        """(visible squares, 3): the classifier's agreement (:func:`agreement`) on the main
        board and on each second board; on a border square, its distance from its empty look
        (lit like the board), and the piece's lightness against the board's pieces'."""
        reading = classify_board(main_part(warped))
        out = [_agree(reading, to_index_order)]
        self._classified = [*self._classified[-1:], (np.array(main_part(warped)), out[0].copy())]
        if self.view.plain:
            return out[0]
        ring = len(self.view.ring)
        extra = np.zeros((ring, 3))
        lab = cv2.cvtColor(cv2.GaussianBlur(warped, (3, 3), 0), cv2.COLOR_BGR2LAB)
        lab = np.asarray(lab, dtype=np.float32)
        white = reading.lightness[reading.labels == WHITE]
        black = reading.lightness[reading.labels == BLACK]
        mid = (float(np.median(white)) + float(np.median(black))) / 2.0 \
            if white.size and black.size else 128.0
        m = int(round(SQUARE * ROI_MARGIN))
        for k in range(ring):
            i = 64 + k
            empty = self._empty_look.get(i)
            if empty is None:
                continue
            r, c = square_slot(i)
            patch = lab[r * SQUARE + m:(r + 1) * SQUARE - m, c * SQUARE + m:(c + 1) * SQUARE - m]
            ref = cv2.cvtColor(cv2.GaussianBlur(empty, (3, 3), 0), cv2.COLOR_BGR2LAB)
            ref = np.asarray(ref, dtype=np.float32)[m:SQUARE - m, m:SQUARE - m]
            dist = np.sqrt(((patch - ref) ** 2).sum(axis=2))
            d = float(np.median(dist))
            occ = float(np.clip((d - BORDER_EMPTY) / BORDER_SCALE, -1.0, 1.0))
            far = dist > BORDER_EMPTY
            light = float(patch[..., 0][far].mean()) if far.any() else float(patch[..., 0].mean())
            whiteness = float(np.clip((light - mid) / 20.0, -1.0, 1.0))
            extra[k] = (-occ, min(occ, whiteness), min(occ, -whiteness))
        out.append(extra)
        top = 8 + ring // 8
        for b in range(len(self.view.blocks)):
            block = warped[(top + 8 * b) * SQUARE:(top + 8 * b + 8) * SQUARE]
            out.append(_agree(classify_board(block), lambda g: np.asarray(g.reshape(64))))
        return np.concatenate(out)

    def warp(self, frame: Frame) -> Any:
        """The frame's board, warped top-down (a8 top-left), with the squares the camera sees
        beyond it below (:meth:`~referee.app.vision_view.CameraView.compose`).

        Squares of the board that the picture cuts off (a photo framed too tight, a camera
        turned until an edge leaves the picture) are shown as the reference picture has
        them: unseen, not changed. Their warp is the black beyond the picture, and a move
        was once read out of it when the square was seen again (a bishop "taking" on a1)."""
        return self._covered(frame, self.view.compose(frame, self.corners, self.others))

    def _covered(self, frame: Frame, warped: Any) -> Any:
        """``warped`` (the frame warped with the current corners) with the board's squares
        that the frame cuts off taken from the reference picture (:meth:`warp`)."""
        reference = self._reference
        self._unseen = frozenset()
        if reference is None or reference.shape != warped.shape:
            return warped
        rows, cols = np.nonzero(unseen_squares(self.corners, frame.shape))
        self._unseen = frozenset(int(i) for i in (7 - rows) * 8 + cols)
        for i in self._unseen:
            _copy_square(warped, reference, i)
        return warped

    def step(self, frame: Frame, t: float | None = None) -> list[Recognised]:
        """Process one frame taken at time ``t`` (seconds, any origin, increasing: a video's
        position, a folder's frame number / fps, a live frame's arrival); without ``t``
        frames are NOMINAL_FPS a second apart. Returns the moves it completed (usually none)."""
        lost = False
        self._shape = tuple(frame.shape[:2])
        self._frame = frame
        if self.frames == 0 and self.stills and self.stabiliser is None \
                and not _fills(frame, self.corners):
            # photos taken one by one, each framed a little differently (a rectified frame
            # is its own board: the per-frame alignment absorbs its few pixels)
            self.stabiliser = Stabiliser(self.corners)
        if self.stabiliser is not None:
            self._move_to(self._stabilised(frame))
            now = self._clock(t)
            # a photo of its own that the fit refused: the board moved more than a fit
            # absorbs, found again at once (every photo is a settled position)
            lost = ((self.stabiliser.lost or (self.stills and self.stabiliser.misses > 0))
                    and now - self._lost_retry >= (0.0 if self.stills else LOST_RETRY_S))
            if lost:
                self._lost_retry = now
        warped = self.warp(frame)
        if self.relocate and self._alignment is not None and (lost or self._settling(t)):
            warped = self._refind(frame, warped, lost=lost)
        return self.step_warped(warped, t, self.stills and self._same_picture(frame))

    def _same_picture(self, frame: Frame) -> bool:
        """Whether ``frame`` shows the board as the last frame of a folder did, but for the
        light: no square changed beyond the median square. A video cut into frames has such
        runs; photos taken one per position differ where a piece moved (each a square's worth
        of grey levels or more), and everywhere when taken in the hand. Every square counts: a
        move seen from low down may change one square visibly and its neighbours a little
        (the second largest change was used, and such a photo replaced the one before it, its
        move lost). Seen
        through the first frame's corners, not the stabilised ones: photos carried onto one
        another differ little on average, and a camera settling its exposure makes the
        stabilised corners wander a little."""
        board = warp_board(frame, self._first_corners, 8 * SMALL)
        grey = cv2.cvtColor(board, cv2.COLOR_BGR2GRAY).astype(np.float32)
        previous, self._first_view = self._first_view, grey
        if previous is None:
            return False
        squares = np.abs(grey - previous).reshape(8, SMALL, 8, SMALL).mean(axis=(1, 3))
        spread = float(squares.max()) - float(np.median(squares))
        return spread < STILL_SQUARE

    def _refresh_stabiliser(self) -> None:
        """A new picture of the settled board: the stabiliser aligns to it from now on."""
        if self.stabiliser is not None:
            self.stabiliser.refresh()

    def _refind(self, frame: Frame, warped: Any, *, lost: bool = False) -> Any:
        """When a settling frame's squares no longer sit on the lattice (the camera was bumped
        or the board pushed), find the board again (labelled as close as possible to the old
        corners) and warp the frame anew; the reference picture stays, so a move made while
        the camera moved is still decoded. Tried once per still period (``lost``: the
        stabiliser lost the board, tried every LOST_RETRY_S whether still or not); a board
        re-found that does not align (a hand over most of it) is not taken.

        Aligning means REFOUND_SHARE of the start picture's grid alignment, or, when the
        stabiliser refused the frame (``lost``), better than the corners it was carried to
        (and at least BUMPED_SHARE): those corners are what the frame would be judged with
        otherwise. A phone turned and aimed off between two photos moved the board's corners
        by 34-56 px in perspective; carried by the picture's affine motion they were 29 px off,
        the board found again was 6 px off but aligned at 0.596 of the start (under 0.6), and
        the photo was judged through the carried corners: a knight's b1-d2 read as a bishop's
        b2-c1 (bench game 2, phone mode; 4,267 -> 4,363 of 4,778 moves in order there)."""
        base = self._alignment
        if base is None or (not lost and (self._relocated_in == self.still_since
                                          or grid_alignment(warped) >= BUMPED_SHARE * base)):
            return warped
        if not lost:
            self._relocated_in = self.still_since
        from vision.errors import BoardNotFoundError
        from vision.locate import locate_board

        # the second boards painted over: the board found again must be this one; looked for
        # near where it was first (a neighbour's board in the picture is no candidate), then
        # anywhere (the camera moved further than that)
        alone = _without(frame, self.others)
        need = REFOUND_SHARE * base
        if lost:
            need = min(need, max(BUMPED_SHARE * base, grid_alignment(warped)))
        for picture in (_near(alone, self.corners), alone):
            try:
                corners = locate_board(picture, previous=self.corners)
            except BoardNotFoundError:
                continue
            corners, again = self._nearest_window(frame, corners, turns=True)
            corners = register(self._reference, again, corners)
            again = self.view.compose(frame, corners, _carried(self.others, self.corners,
                                                               corners))
            if grid_alignment(again) >= need:
                break
        else:
            return warped
        self._move_to(corners)
        self.relocations += 1
        if self.stabiliser is not None:
            self.stabiliser.reset(corners)
        return self._covered(frame, again)

    def _stabilised(self, frame: Frame) -> Corners:
        """The board's corners in ``frame``, carried from the last frame's by the stabiliser.

        A photo of its own may be framed a square or more away from the last, and a fit from
        the last corners could then settle on the lattice a square off: the corners first
        follow how the whole picture moved since the last photo (:meth:`_carry`), then the
        fit. A video's camera jolted further than a fit absorbs (its first refused frame) is
        carried the same way from the last frame whose fit was taken, instead of waiting
        until the stabiliser is lost."""
        stabiliser = self.stabiliser
        assert stabiliser is not None
        if self.stills:
            last, self._last_frame = self._last_frame, frame
            self._carry(last, frame)
            return stabiliser.track(frame)
        corners = stabiliser.track(frame)
        if stabiliser.misses == 1 and self._carry(self._last_frame, frame):
            corners = stabiliser.track(frame)
        if not stabiliser.misses:
            self._last_frame = frame
        return corners

    def _carry(self, last: Frame | None, frame: Frame) -> bool:
        """Move the corners (and a second board's) by how the whole picture moved from
        ``last`` to ``frame`` (:func:`vision.stabilise.scene_motion`), onto the window of the
        lattice that looks most like the reference picture (the lattice repeats), and start
        the stabiliser from there. False when the motion is not found."""
        motion = scene_motion(last, frame) if last is not None else None
        if motion is None:
            return False
        moved = _mapped(self.corners, motion)
        if self._reference is not None:
            moved = self._nearest_window(frame, moved)[0]
        self._move_to(moved)
        assert self.stabiliser is not None
        self.stabiliser.reset(self.corners)
        return True

    def _move_to(self, corners: Corners) -> None:
        """The board is at ``corners`` now; a second board on the same table moved with it."""
        self.others = _carried(self.others, self.corners, corners)
        self.corners = corners

    def _nearest_window(self, frame: Frame, corners: Corners, *, turns: bool = False
                        ) -> tuple[Corners, Any]:
        """Of the 8x8 windows of the re-found lattice shifted by up to one square each way
        (a crowded board can be placed one square off), the one whose warp looks most like
        the reference picture (least median change), with that warp. ``turns``: each window
        in its four labellings too: a board found again on its own (not carried by a known
        motion) is labelled nearest the old corners in the picture, which is a quarter turn
        off once the camera turned by 45 degrees or more between two photos.

        The windows are cut from one warp of the lattice a square beyond the board each way,
        and a labelling's warp compared as the reference turned the other way (the costs do
        not depend on where the pixels are): one warp instead of 9 or 36, which took a third
        of the time of every photo from a hand."""
        ref = lab_small(self._reference)
        refs = [np.rot90(ref, -turn) for turn in range(4 if turns else 1)]
        plane = warp_widened(frame, corners, 1, replicate=False)
        best: tuple[float, Corners] | None = None
        for shifted, (dx, dy) in zip(shifted_windows(corners), WINDOW_SHIFTS, strict=True):
            window = plane[(1 + dy) * SQUARE:(9 + dy) * SQUARE,
                           (1 + dx) * SQUARE:(9 + dx) * SQUARE]
            lab = lab_small(np.ascontiguousarray(window))
            for turn, turned in enumerate(refs):
                diff = match_light(lab, turned) - turned
                cost = float(np.median(np.sqrt(np.einsum("ijc,ijc->ij", diff, diff))))
                if best is None or cost < best[0]:
                    best = (cost, rotate_corners(shifted, turn))
        assert best is not None
        return best[1], warp_board(frame, best[1])

    def step_warped(self, warped: Any, t: float | None = None,
                    same: bool = False) -> list[Recognised]:
        """Process one already warped frame (see :meth:`warp`) taken at time ``t``; ``same``:
        a folder's frame that showed the board as the last one did (:meth:`_same_picture`)."""
        now = self._clock(t)
        self.frames += 1
        rows = warped.shape[0] * 8 // warped.shape[1]  # 8: a board; more: squares beyond it
        grey = cv2.cvtColor(cv2.resize(warped, (8 * SMALL, rows * SMALL),
                                       interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY)
        grey = cv2.GaussianBlur(grey, (3, 3), 0).astype(np.float32)
        noise = None
        if self._previous is None:
            moved = 1e9
        else:  # the board, and the squares beyond it on their own (a move there is as much
            # motion as one on the board, not diluted by a whole second board standing still)
            diff = np.abs(grey - self._previous)
            side = 8 * SMALL
            moved = max(float(diff[:side].mean()),
                        float(diff[side:].mean()) if rows > 8 else 0.0)
            per_square = diff[:side].reshape(8, SMALL, 8, SMALL).mean(axis=(1, 3))
            noise = float(np.median(per_square))
        self._settle(moved, now, noise)
        self._repeat = moved <= DUPLICATE_DIFF
        self._previous = grey
        if self.stills and self._cut_up and not same and self._reference is not None:
            if self._explained(warped):
                self._unexplained = 0
            else:
                # not a position a legal move reaches (a hand, a piece in the air): in
                # CUT_UP_UNEXPLAINED frames in a row, a video cut into frames, from now on
                # waited on to settle; one alone may be a photo whose move the camera could
                # not see (a bishop e2-f3 seen from Black's side, behind the e3 bishop and the
                # f4 knight), left for the next photo to explain with the move after it
                self._unexplained += 1
                self.stills = self._unexplained < CUT_UP_UNEXPLAINED
                return []
        if self._reference is None:
            self._take_start(warped)
            return []
        if not self._is_check():
            # Work ahead while the pieces move: the position's candidates (tens of ms, cached
            # per position) are ready when the board settles, not paid for in the move's delay.
            self.decoder.candidates()
            return []
        judged = self._judge(warped)
        if self.stills and same and not judged:
            # Frames that stay the same: a video cut into frames (at any rate: its still
            # spells), or a folder of photos that holds one position twice. A later frame
            # that differs and that no legal move explains tells them apart. Only when no
            # move shows: a move seen faintly (a bishop f1-e2 seen from Black's side at 45
            # degrees, e2 behind the e3 bishop: only f1 changed, by less than STILL_SQUARE)
            # is a new position; taken for a repeat, the folder was judged a cut-up video at
            # the next faint move and lost from there (20 of 81 moves), and as the first
            # move it replaced the start's picture.
            self._cut_up = True
            if self._start_only:
                # the start shown again (a camera still settling its exposure): the newer
                # picture is the start's, so later frames are compared with a settled camera's
                self._reference = warped
                self._refresh_stabiliser()
            else:
                self._resync(warped)
        return judged

    def _resync(self, warped: Any) -> None:
        """A picture shown again that still differs from the reference where no move
        explains it, every such square read by the classifier as the game has it (as the
        camera sees it: a piece in front over it counts, :meth:`Decoder.seen_colours`) by
        RESYNC_SURE or more: the reference is stale there, and takes the new look.

        Why: the shared video cut into every 5th frame (6 a second) had the black knight
        b8-c6 taken from a frame with the hand still over b7-c8 (forgiven at the board's
        edge); held still into the next frame, the hand's look was taken for a nudged
        piece's (:meth:`_heal`), and every later frame differed from the reference there:
        4 of 7 moves. A repeat is the camera's word that nothing moves now; a photo of a
        new position is never a repeat, and one square read otherwise (a move) leaves all."""
        agree = self._agreement(warped)
        change, _ = self._unpushed(self._reference, warped, agree)
        stale = np.flatnonzero(change[:64] > threshold(change))
        if not len(stale) or len(stale) > MAX_CHANGED:
            return
        seen = self.decoder.seen_colours(stale, self._lean())
        if bool(np.all(agree[stale, seen] >= RESYNC_SURE)):
            for i in stale:
                _copy_square(self._reference, warped, int(i))
            self._refresh_stabiliser()
            self.resynced += 1

    @staticmethod
    def _unpushed(before: Any, warped: Any, agree: np.ndarray[Any, Any],
                  unshade: bool = False) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        """The change from ``before`` to ``warped`` (:func:`change_map`; ``unshade``: with a
        shadow's light taken out), the squares whose piece was only pushed within its square
        (:func:`pushed`) counted as unchanged: they veto nothing, and a new reference takes
        their new look; and those squares' own change (0 elsewhere), which a move may claim
        (:meth:`Decoder.decide`)."""
        change, a, b, median = change_parts(before, warped, unshade)
        moved = pushed_compared(a, b, median, change, threshold(change), agree[:, EMPTY] < 0)
        return np.where(moved, 0.0, change), np.where(moved, change, 0.0)

    def _in_shade(self, warped: Any, agree: np.ndarray[Any, Any], change: np.ndarray[Any, Any],
                  pushed: np.ndarray[Any, Any], decision: Decision, deep: bool | Once,
                  halo: Halo | None = None
                  ) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], Decision]:
        """A board changed on more squares than a move changes, and no move explains it: a
        shadow may have fallen on it (or gone). The change with the shadow's light taken out
        (:func:`vision.change.change_parts` with ``unshade``) is used instead when it shows
        nothing changed or a move explains it; a hand or an arm changes more than the light,
        and stays unexplained.

        Why: a spectator's shadow over a quarter of the board (40 % darker, soft-edged) that
        stayed for 15 photos lost the game after 9 moves on 4 of 4 seeds (every later photo
        differed from the reference everywhere under it); now 4 of 4 exact. Only when the
        plain comparison explains nothing: a smooth gain also takes a little of a move's
        change (measured in docs/vision.md). Not on a picture whose squares hardly differ
        (SHADE_CONTRAST): with the camera covered (the video at 15 % of its light for 3 s),
        a hand moving in the dark changes only the light too, and was taken for a shadow
        and a move (the queen to h3 for h5f7: 11 wrong games of 36 such windows)."""
        if min(contrast(warped), contrast(self._reference)) < SHADE_CONTRAST:
            return change, pushed, decision  # a covered camera, the light off: no shadow
        unshaded, unpushed = self._unpushed(self._reference, warped, agree, unshade=True)
        if float(unshaded.max()) < threshold(unshaded):
            self.unshaded += 1
            return unshaded, unpushed, Decision(None, 0.0, 0)
        again = self._decide(self.decoder, unshaded, agree, deep, halo, unpushed)
        if again.candidate is None:
            return change, pushed, decision
        self.unshaded += 1
        return unshaded, unpushed, again

    def _lean(self) -> Lean | None:
        """What a piece of each of HEIGHTS on each square covers of every square, seen from
        where the camera stands (:func:`vision.geometry.silhouettes`); None when that is not
        known (a rectified frame, a view from straight above) or when no piece is seen over
        another square (the decoder's leaning work is skipped: it cost every decision time for
        nothing, and a real-time test fell behind). Kept while the corners stay
        within LEAN_KEEP pixels of those it was worked out for (a camera in the hand moves
        them every frame, and working it out anew, the candidates' veils with it, made a move
        late)."""
        if self._shape is None:
            return None
        kept = self._lean_for
        if kept is None or not _same_view(kept[0], kept[1], self.corners, self._shape):
            # what each piece covers of each square, and of its centre, from one drawing
            parts = silhouettes_and_centres(self.corners, self._shape,
                                            self._looked_heights(), ROI_MARGIN,
                                            drawings=self._drawings) \
                if self._scale else None
            if parts is not None and not np.any((parts[0][-1] >= LEAN_COVER)
                                                & ~np.eye(parts[0].shape[1], dtype=bool)):
                parts = None  # seen from about above: no piece is seen over another square
            lean = None
            if parts is not None:
                far = self._silhouettes(self.corners, self._shape, PLACEMENT)
                assert far is not None  # the camera's place is known: parts is not None
                lean = Lean(parts[0], far, parts[1])
            kept = self._lean_for = (np.array(self.corners, dtype=np.float32), self._shape,
                                     lean)
        return kept[2]

    def _silhouettes(self, corners: Corners, shape: tuple[int, ...], reach: float = 0.0
                     ) -> np.ndarray[Any, Any] | None:
        """:func:`vision.geometry.silhouettes` for HEIGHTS as tall as the pieces look here."""
        return silhouettes(corners, shape, self._looked_heights(), reach,
                           drawings=self._drawings)

    def _covers_beyond(self, corners: Corners, shape: tuple[int, ...]
                       ) -> np.ndarray[Any, Any] | None:
        """:func:`vision.geometry.beyond` for HEIGHTS as tall as the pieces look here."""
        return beyond(corners, shape, self._looked_heights(), drawings=self._drawings)

    def _looked_heights(self) -> tuple[float, ...]:
        """HEIGHTS as tall as the pieces look in this camera's pictures (:func:`height_scale`)."""
        return tuple(h * self._scale for h in HEIGHTS)

    def _keep_earlier(self) -> None:
        """Keep the reference picture being replaced (a move read, or a photo that showed
        none) among the last EARLIER_PHOTOS, with its corners and the pieces the game has
        then (:meth:`_nearer`): photos only (a video's camera in the hand moves between
        every two frames, and its references are few)."""
        if not self.stills or self._ref is None or self._ref_corners is None \
                or self._shape is None:
            return
        codes = np.asarray(pieces_of(self.game.state, self.view.index), dtype=np.int64)[:64]
        self._earlier.insert(0, (self._ref, self._ref_corners, codes,
                                 camera_position(self._ref_corners, self._shape)))
        del self._earlier[EARLIER_PHOTOS:]

    def _forget_earlier(self) -> None:
        """Drop the earlier reference pictures (:meth:`_keep_earlier`): the pieces they were
        kept with are no longer known to be the game's (a line switched to, a take-back, a
        new start picture)."""
        self._earlier.clear()
        self._nearer_from = None

    def _nearer(self, warped: Any, agree: np.ndarray[Any, Any], change: np.ndarray[Any, Any],
                pushed: np.ndarray[Any, Any], sway: np.ndarray[Any, Any]
                ) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        """``change``, ``pushed`` and ``sway`` with each square's taken from the earlier
        reference picture (:meth:`_keep_earlier`, taken from within NEARER_ANGLE of here)
        whose place the pieces' outlines swept least from to here over it (by NEARER_SHARE
        of the square less than from the reference's), among those since which no piece
        that may be seen over it moved (the taller of the one then and the one now, off
        its centre: ``Lean.far``). Sets :attr:`_nearer_from` for :meth:`_fit`.

        Why: photos from a hand, each up to 5 degrees round the table and 3 up or down;
        between two of them the pieces' outlines sway over the squares behind them, and
        from White's side at 35 degrees that changed squares by as much as moves do. A
        black pawn's c7-c6 lost to the d5 pawn's d5xc4, hidden behind the c3 knight and
        the d4 pawn, for which d5 changed by 5 thresholds, all of it the camera's move
        (4.49 against 2.96). With the photos half as spread, the first held-out set's games
        at 35 degrees were all read (609 of 609 moves, 324 as spread). One of the last
        four photos was taken from nearer, for most squares: 4,709 -> 4,740 of 4,778
        moves from a hand, held out 2,480 -> 2,608 and 2,546 -> 2,644 (docs/vision.md,
        *Each square compared with the photo taken from nearest*)."""
        lean = self._lean()
        if lean is None or self._shape is None:
            return change, pushed, sway
        now = np.asarray(pieces_of(self.game.state, self.view.index), dtype=np.int64)[:64]
        heights = self.decoder.heights(now)
        standing = np.flatnonzero(heights >= 0)
        least = sway[heights[standing], standing].sum(axis=0)
        out = None
        sources = np.full(64, -1)
        here = camera_position(self.corners, self._shape)
        for j, (picture, corners, codes, there) in enumerate(self._earlier):
            if not _looked_alike(there, here):
                continue
            moved = np.flatnonzero(codes != now)
            touched = np.zeros(64, dtype=bool)
            touched[moved] = True
            if len(moved):  # the taller of the pieces there then and now
                tallest = np.maximum(self.decoder.heights(codes[moved]), heights[moved])
                touched |= np.any(lean.far[tallest, moved, :64] > 0.0, axis=0)
            if float(np.abs(corners - self.corners).max()) <= LEAN_KEEP:
                theirs = np.zeros_like(sway)
            else:
                found = swept(corners, self.corners, self._shape, self._looked_heights(),
                              drawings=self._drawings)
                if found is None:
                    continue
                theirs = found
            share = theirs[heights[standing], standing].sum(axis=0)
            better = ~touched & (share < least - NEARER_SHARE)
            if not better.any():
                continue
            their_change, their_pushed = self._unpushed(picture, warped, agree)
            if out is None:
                out = (change.copy(), pushed.copy(), sway.copy())
            where = np.flatnonzero(better)
            out[0][where], out[1][where] = their_change[where], their_pushed[where]
            sources[where] = j
            out[2][:, :, where] = theirs[:, :, where]
            least[where] = share[where]
        if out is None:
            return change, pushed, sway
        self._nearer_from = (warped, sources)
        return out

    def _sway(self) -> np.ndarray[Any, Any] | None:
        """(len(HEIGHTS), 64, 64): how much of each square the outline of a piece of each
        height on each square swept over between the reference picture's view and this one
        (covered in one and not the other, :func:`vision.geometry.swept`;
        :meth:`Decoder._unswayed`); None when the camera did not move by more than LEAN_KEEP
        pixels at a corner or its place is not known."""
        if self._lean() is None:
            return None
        kept = self._swept_since_reference(self._sway_for, lambda seen, shape: swept(
            seen, self.corners, shape, self._looked_heights(), drawings=self._drawings))
        if kept is None:
            return None
        self._sway_for = kept
        return kept[2]

    def _swept_since_reference(
            self, kept: Swept | None,
            work: Callable[[Corners, tuple[int, ...]], np.ndarray[Any, Any] | None]
    ) -> Swept | None:
        """What the pieces' outlines swept over since the reference picture, as ``work``
        (the reference's corners, the picture's size) works it out, with the corners it is
        for: ``kept`` when it is for the reference's corners and the current ones. None
        when the camera did not move by more than LEAN_KEEP pixels at a corner since the
        reference, or its place is not known (:meth:`_sway`, and beyond the board
        :meth:`_halo`)."""
        seen, shape = self._ref_corners, self._shape
        if (seen is None or shape is None
                or float(np.abs(seen - self.corners).max()) <= LEAN_KEEP):
            return None
        if (kept is not None and np.array_equal(kept[0], seen)
                and np.array_equal(kept[1], self.corners)):
            return kept
        return seen, np.array(self.corners, copy=True), work(seen, shape)

    def _decide(self, decoder: Decoder, change: np.ndarray[Any, Any],
                agree: np.ndarray[Any, Any], deep: bool | Once, halo: Halo | None = None,
                pushed: np.ndarray[Any, Any] | None = None,
                pictures: tuple[Any, Any] | None = None,
                sway: np.ndarray[Any, Any] | None = None) -> Decision:
        """``decoder``'s decision on ``change`` (and ``halo``, beyond the board; ``pushed``:
        :meth:`_unpushed`), seen from where the camera stands; ``pictures``: the two the
        change is between, for a close call (:meth:`Decoder._fitted`); ``sway``: what the
        camera's move swept over for ``change`` when not :meth:`_sway` (:meth:`_nearer`)."""
        lean = self._lean()
        fit = None if lean is None or pictures is None else self._fit(*pictures)
        sway = self._sway() if sway is None else sway
        before = None if sway is None or pictures is None else self._agreement_of(pictures[0])
        return decoder.decide(change, agree, deep=deep, lean=lean, sway=sway,
                              halo=halo, pushed=pushed, fit=fit, before=before)

    def _agreement_of(self, picture: Any) -> np.ndarray[Any, Any]:
        """The classifier's :func:`agreement` on ``picture`` (a reference picture: kept for
        the last one asked). A photo's reference is most often the last photo's picture,
        which :meth:`_agreement` classified then: its agreement is taken from there when the
        main board is the same pixel for pixel (6 ms a photo from a hand, of 170)."""
        if self._agreed is None or self._agreed[0] is not picture:
            board = main_part(picture)
            same = [agree for seen, agree in self._classified if np.array_equal(board, seen)]
            self._agreed = (picture, same[0].copy() if same else agreement(picture))
        return self._agreed[1]

    def _fit(self, before: Any, after: Any) -> Callable[[], Fit]:
        """What :meth:`Decoder._fitted` needs of ``before`` and ``after``, worked out when
        asked (most decisions are no close call). The pieces are seen in ``before`` from
        where it was taken when that is known (the reference picture, or one kept in the
        history :meth:`_retract` goes back over: a camera in the hand moved since), else from
        where the camera stands now.

        Why: from a hand, every piece is seen over other cells in each photo, and a piece
        that stayed changes the cells its outline swept; painted from one place for both
        photos, those cells count as a miss for every candidate alike, but not where a moved
        piece's outline meets them (44 games from a hand: 3,540 -> 3,548 moves in order)."""
        def work() -> Fit:
            now = self._outlines(self.corners)
            seen = (self._ref_corners if before is self._reference else
                    next((corners for picture, _, _, corners in self._history
                          if picture is before), None))
            earlier = now if seen is None else self._outlines(seen)
            near = self._nearer_from
            if before is self._reference and near is not None and near[0] is after:
                return self._nearer_fit(now, earlier, after, near[1])
            return Fit(now, lambda: changed_cells(before, after, now.masks.shape[2]), earlier)
        return work

    def _nearer_fit(self, now: Outlines, earlier: Outlines, after: Any,
                    sources: np.ndarray[Any, Any]) -> Fit:
        """:meth:`_fit` with each square's changed cells found against the earlier reference
        picture its change was measured from (``sources``: an index into :attr:`_earlier`,
        -1 the reference picture; :meth:`_nearer`), each picture's cells over its own noise.
        The pieces in the picture before are still seen from where the reference picture
        was taken: composed square by square from the earlier pictures' places too, the
        outlines lost the last move of test_stills_photographed_from_anywhere_with_the_board_cut_off
        (a king's e7-e8 read e7-d7), which the cells alone did not."""
        side = now.masks.shape[2]
        cell = side // 8
        reference = self._reference
        blocks: list[tuple[Any, list[tuple[slice, slice]]]] = []
        for j in np.unique(sources[sources >= 0]):
            places = [(slice((7 - square // 8) * cell, (8 - square // 8) * cell),
                       slice(square % 8 * cell, (square % 8 + 1) * cell))
                      for square in np.flatnonzero(sources == j)]
            blocks.append((self._earlier[int(j)][0], places))

        def cells() -> np.ndarray[Any, np.dtype[np.bool_]]:
            changed = changed_cells(reference, after, side)
            for picture, places in blocks:
                theirs = changed_cells(picture, after, side)
                for rows, cols in places:
                    changed[rows, cols] = theirs[rows, cols]
            return changed
        return Fit(now, cells, earlier)

    def _outlines(self, corners: Corners) -> Outlines:
        """:func:`vision.geometry.outlines` seen from ``corners``, for HEIGHTS as tall as the
        pieces look here; the last two are kept and used for corners within LEAN_KEEP
        pixels of theirs (as :meth:`_lean`)."""
        assert self._shape is not None
        kept = [found for seen, shape, found in self._outlines_for
                if _same_view(seen, shape, corners, self._shape)]
        if not kept:
            kept = [outlines(corners, self._shape, self._looked_heights(),
                             drawings=self._drawings)]
            self._outlines_for = [*self._outlines_for[-1:],
                                  (np.array(corners, dtype=np.float32), self._shape, kept[0])]
        assert kept[0] is not None  # asked only with a lean: the camera's place is known
        return kept[0]

    def _beyond_cover(self, work: bool = True) -> tuple[np.ndarray[Any, Any], ...] | None:
        """What a piece of each height on each square covers beyond the board's edges
        (:func:`vision.geometry.beyond`), which cells there some piece is seen over and
        the picture shows, and which it shows; None when no piece is seen over another
        square (:meth:`_lean`: a camera about above the board, one whose place is unknown),
        none beyond the board, or the camera sees more than the main board (a ring's squares
        lie there). Kept while the corners move less than
        LEAN_KEEP pixels; without ``work``, None rather than work it out anew."""
        kept = self._beyond_for
        if kept is None or not _same_view(kept[0], kept[1], self.corners, self._shape):
            if not work:
                return None
            if self._shape is None or not self.view.plain or self._lean() is None:
                return None  # from about above no piece is seen over another square, nor beyond
            found = None
            cover = self._covers_beyond(self.corners, self._shape)
            if cover is not None:
                shown = self._halo_shown()
                usable = (cover[-1].max(axis=0) >= LEAN_COVER) & shown
                found = (cover, usable, shown) if usable.any() else None
            kept = self._beyond_for = (np.array(self.corners, dtype=np.float32), self._shape,
                                       found)
        return kept[2]

    def _halo_shown(self) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """Whether the picture shows each cell of :func:`vision.geometry.halo_cells` (its
        centre at least a quarter of a square inside the picture)."""
        assert self._shape is not None
        centres = np.array([[(f + 0.5) * SQUARE, (7.5 - r) * SQUARE] for f, r in halo_cells()])
        to_image = np.linalg.inv(homography(self.corners))
        points = cv2.perspectiveTransform(centres.reshape(-1, 1, 2), to_image).reshape(-1, 2)
        inset = 0.25 * float(np.linalg.norm(self.corners[0] - self.corners[1])) / 8.0
        h, w = self._shape[:2]
        return np.asarray((points[:, 0] >= inset) & (points[:, 0] <= w - 1 - inset)
                          & (points[:, 1] >= inset) & (points[:, 1] <= h - 1 - inset))

    def _halo_picture(self) -> Any:
        """:func:`halo_picture` of the frame being looked at (None without one), worked out
        once for it and its corners. Only this small picture is kept for the reference, not
        the frame: a phone's photo is 12 million pixels."""
        frame, kept = self._frame, self._halo_kept
        if frame is None:
            return None
        if kept is None or kept[0] is not frame or not np.array_equal(kept[1], self.corners):
            kept = self._halo_kept = (frame, np.array(self.corners, dtype=np.float32),
                                      halo_picture(frame, self.corners))
        return kept[2]

    def _halo(self, warped: Any, reference: Any = None, before: Any = None, *,
              work: bool = True) -> Halo | None:
        """What changed beyond the board's edges since the reference picture (or since
        ``reference`` and its :func:`halo_picture` ``before``), on the cells pieces are seen
        over (:meth:`Decoder._beyond`); None when the camera sees no piece there, or the
        reference picture has no such view; without ``work``, also when what pieces cover
        there is not known for these corners (:meth:`_beyond_cover`)."""
        if reference is None:
            reference, before = self._reference, self._halo_ref
        found = self._beyond_cover(work)
        now = self._halo_picture()
        if found is None or before is None or now is None:
            return None
        cover, usable, shown = found
        change = halo_change(before, now, lab_small(warped), lab_small(reference))
        sway = None
        kept = self._swept_since_reference(self._beyond_sway, lambda seen, shape: beyond(
            self.corners, shape, self._looked_heights(), since=seen, drawings=self._drawings))
        if kept is not None:
            self._beyond_sway, sway = kept, kept[2]
        heights = self.decoder.heights(
            np.asarray(pieces_of(self.game.state, self.view.index), dtype=np.int64)[:64])
        here = np.flatnonzero(heights >= 0)
        table = shown & (cover[heights[here], here].max(axis=0, initial=0.0) < LEAN_COVER)
        bare = halo_bare(now, table)
        if bare is None:  # no plain table beyond the board: nothing there tells a head
            return None
        return Halo(np.where(usable, change, 0.0), cover, sway, np.where(shown, bare, np.nan))

    def _puzzle(self) -> None:
        """One more settled check that the board changed and no move was taken."""
        if self._puzzling == 0:
            self._puzzling_since = self._time if self._time is not None else 0.0
        self._puzzling += 1

    def _explained(self, warped: Any) -> bool:
        """Whether a legal move (or a short sequence) explains how ``warped`` differs from the
        reference picture, or nothing changed: without accepting anything."""
        agree = self._agreement(warped)
        change, pushed = self._unpushed(self._reference, warped, agree)
        if float(change.max()) < threshold(change):
            return True
        # on the same evidence as a judgement (:meth:`_judge`): a bishop e2-f3 seen from
        # Black's side, behind the e3 bishop and the f4 knight, shows beyond the board
        decision = self._decide(self.decoder, change, agree, True, self._halo(warped), pushed,
                                (self._reference, warped))
        return decision.candidate is not None

    def _judge(self, warped: Any) -> list[Recognised]:
        self.settled += 1
        self.decoder.guess = self.stills
        self._replayed_from = None
        self.retracted = 0
        self.withdrawn = ()
        agree = self._agreement(warped)
        change, pushed = self._unpushed(self._reference, warped, agree)
        sway = self._sway()
        switched: list[str] = []
        if self.stills and (self._branches or self._waiting):
            switched = self._transposed()
        if self.stills and self._branches and sway is not None and not switched:
            switched = self._classified_line(agree, change, threshold(change))
        # (after a line switched to: which pieces stood where since the earlier photos)
        self._nearer_from = None
        if sway is not None and self.stills and self._earlier:
            change, pushed, sway = self._nearer(warped, agree, change, pushed, sway)
        done = self._judged(warped, agree, change, pushed, sway)
        # the moves of a line switched to are the camera's news whatever this photo shows
        return [Recognised(text, self.frames - 1, 0.0) for text in switched] + done

    def _judged(self, warped: Any, agree: np.ndarray[Any, Any], change: np.ndarray[Any, Any],
                pushed: np.ndarray[Any, Any], sway: np.ndarray[Any, Any] | None = None
                ) -> list[Recognised]:
        """:meth:`_judge` on this photo's ``change`` (and ``pushed``) since the reference
        picture and the classifier's ``agree``-ment."""
        tau = threshold(change)
        moved = float(change.max()) >= tau or pushed_pair(pushed, tau)
        # beyond the board: a video's still board, seen by a camera that moved (in the hand),
        # is not worth working out what the pieces cover anew for every check
        halo = self._halo(warped, work=moved or self.stills)
        decision = Decision(None, 0.0, 0)
        deep: bool | Once = False
        if moved or (halo is not None and bool(np.any(halo.change > tau))):
            deep = True if self.stills else Once(lambda: self._steady(warped))
            decision = self._decide(self.decoder, change, agree, deep, halo, pushed,
                                    (self._reference, warped), sway)
            if decision.candidate is None and decision.changed > SHADE_CHANGED:
                shaded = self._in_shade(warped, agree, change, pushed, decision, deep, halo)
                if shaded[0] is not change:  # against the reference picture alone
                    sway, self._nearer_from = None, None
                change, pushed, decision = shaded
        replayed: list[str] = []
        if self._branches and deep:
            other = self._other_line(warped, change, agree, decision, halo, pushed, sway)
            if other is not None:
                replayed, decision = self._take_line(other[0], other[1]), other[2]
        tau = threshold(change)
        if float(change.max()) < tau and decision.candidate is None:
            if self._attempt_shown:  # the pieces of a failed attempt are back
                self._attempt_shown, self.put_back = False, True
            self._heal(warped)
            self._keep_earlier()
            self._reference = warped  # nothing moved: follow slow lighting drift
            self._refresh_stabiliser()
            self._lost = self._puzzling = 0
            if self.stills:  # a photo of its own: a move the camera could not see?
                self.decoder.saw_no_move()
            return []
        cand = decision.candidate
        if cand is None and deep and 0 < decision.changed <= MAX_CHANGED:
            retraction = self._retract(warped, agree)
            if retraction is not None:
                return retraction
        read = False  # the board read by the classifier alone (_first_moves)
        if cand is None and self._start_only and decision.changed > REBASE_CHANGED:
            if self._rebase(warped):
                return []
            cand = self._first_moves(agree)
            read = cand is not None
        if cand is not None and not read and cand.squares & self._unseen:
            # the move needs a square the picture cut off: which move it was (a rook's
            # capture on a4, a3 or a2, with only a6 seen) waits for a picture showing it
            self._puzzle()
            return []
        if cand is None:
            self._heal(warped, change)
            self.ignored += 1  # a hand, or a change no legal move explains
            if self.stills:
                self.decoder.saw_no_move()
            if decision.changed and decision.changed <= MAX_CHANGED:
                self._lost += 1
            if decision.changed:
                self._puzzle()
            return []
        self._lost = self._puzzling = 0
        self._start_only = False
        if self.stills and (self._branches or self._waiting) and not read:
            self._meet(cand, warped)
        ply = len(self.game.played)
        self._history.append((self._reference, len(cand.actions), self._halo_ref,
                              self._ref_corners))
        del self._history[:-RETRACT_DEPTH]
        if read:  # the start picture was spoilt: this frame is the reference, whole
            self._forget_earlier()
            self._reference, self._last_check, self._dirty = warped, warped, set()
            self._refresh_stabiliser()
            self.rebased += 1
        elif cand.attempt:  # the pieces go back: the picture before it stays the reference
            self._attempt_shown = True
        else:
            self._attempt_shown = False
            self._keep_earlier()
            self._reference = self._new_reference(warped, change,
                                                  cand.squares | decision.explained)
            self._refresh_stabiliser()
        done = [Recognised(text, self.frames - 1, decision.score)
                for text in replayed + self.decoder.accept(cand)]
        self._decided(ply, cand, () if read else decision.alternatives,
                      None if read else decision.favoured,
                      decision.shown < decision.score)
        self._learn_empty(warped)
        return done

    def _meet(self, cand: Candidate, warped: Any) -> None:
        """Weigh again, on this photo (``warped``), an alternative kept open whose line (as it
        went on, :meth:`_own_line`) comes by one action to the position the game comes to by
        ``cand`` (a transposition, which :meth:`_transposed` settles at the next photo for
        the alternative then :attr:`Branch.favoured`): the outlines compare that action with
        ``cand`` (:meth:`_outline_misses`). An alternative favoured loses the favour when they tell
        ``cand`` from its action as a close call's favour is given (:func:`outlines_tell`,
        FIT_FAVOUR); one they tell as they settle a close call (FIT_MARGIN_MOVED) gains it.

        Why: where two lines meet, no later photo can tell them apart, and this photo is
        another close call between the squares they disagree on, often seen better. From a
        hand at Black's side, 45 degrees, a white bishop's c2-d3 (behind the white king on
        d4) was read right, c2-d1 kept open as the outlines' choice (5 cells missed against
        14); two photos later the bishop went back, d3-c2, the outlines missing 4 cells for
        it and 17 for d1-c2 in the other line, and the lines met: the record took c2-d1 (the
        eighteenth held-out set's game 12, lost at its 86th move of 115). From a hand at
        White's side, 45 degrees, a black king's e6-d6 (a dark piece onto a dark square) was
        read e6-d7 with e6-d6 kept open; eight moves later the king went on to c7, d7-c7
        in the game missing 47 cells and d6-c7 in the other line 4, and nothing took the
        line (the same set's game 0, lost at its 21st move of 130)."""
        if len(cand.actions) != 1:
            return
        variant = self.game.variant
        target = variant.position_key(variant.apply(self.game.state, cand.actions[0]))
        played = tuple(p.action for p in self.game.played)
        verdicts: dict[int, tuple[Action, ...] | None] = {}  # id of a branch: its favoured
        for branch in self._branches + self._waiting:
            for k, alternative in enumerate(branch.alternatives):
                own, upto = self._own_line(branch, k)
                line = self._line(branch.ply, own + played[upto:])
                last = None if line is None else _reaching(line, target)
                if line is None or last is None:
                    continue
                judge = self._trial(line)
                meet = next((c for c in judge.candidates() if c.actions == (last,)), None)
                misses = None if meet is None else self._outline_misses(
                    Decision(cand, 0.0, 0), Decision(meet, 0.0, 0), judge, warped)
                if misses is None:
                    continue
                if outlines_tell(misses[1], misses[0], FIT_MARGIN_MOVED):
                    verdicts[id(branch)] = alternative
                elif branch.favoured == alternative and outlines_tell(misses[0], misses[1],
                                                                      FIT_FAVOUR):
                    verdicts.setdefault(id(branch), None)
        if verdicts:
            def judged(branches: list[Branch]) -> list[Branch]:
                return [replace(b, favoured=verdicts[id(b)]) if id(b) in verdicts else b
                        for b in branches]
            self._branches = judged(self._branches)
            self._waiting = [b for b in judged(self._waiting) if b.favoured is not None]

    def _decided(self, ply: int, cand: Candidate, alternatives: tuple[Candidate, ...],
                 favoured: Candidate | None = None, settled: bool = False) -> None:
        """Count an accepted decision (played from ``ply`` actions on); keep its alternatives
        (:class:`Branch`; ``favoured``: the one the outlines preferred; ``settled``: the
        outlines settled the call for ``cand``) and those of the last
        RESCUE_DEPTH decisions (past BRANCH_DEPTH only to rescue, :meth:`_young`), each line
        going on as it reads the photos (:meth:`_diverge`)."""
        self._diverge(ply)
        self._decisions += 1
        standing = [b for b in self._branches + self._waiting if b.ply + b.taken <= ply]
        self._branches = [b for b in standing if self._decisions - b.decided < RESCUE_DEPTH]
        self._waiting = [b for b in standing if b not in self._branches
                         and b.favoured is not None
                         and self._decisions - b.decided < TRANSPOSE_DEPTH]
        keys = {(b.decided, k) for b in self._branches + self._waiting
                for k in range(len(b.alternatives))}
        self._diverged = {key: v for key, v in self._diverged.items() if key in keys}
        if alternatives:
            self._branches.append(Branch(ply, len(cand.actions),
                                         tuple(c.actions for c in alternatives),
                                         self._decisions,
                                         None if favoured is None else favoured.actions,
                                         settled))

    def _diverge(self, ply: int) -> None:
        """After the game played a decision from ``ply`` actions on: an open alternative's
        line in which that decision cannot be played goes on with its own reading of the
        same photo (:meth:`_other_line`), when it had one, instead of ending.

        Why: a line kept open was the game played with another action in its place, every
        later action the same; a later move that cannot be played in it ended it, though that
        move was read in a position the alternative says is wrong. From a hand at White's
        side, 35 degrees, a black queen's d8-d7 showed nothing (the pieces in front hide both
        squares) and a7-a6 was read on the sway of a6 alone (d8-d7 kept open for it,
        :meth:`Decoder._score`'s ``bare``); two photos later the knight's c6-d8 was read as
        c6-a7 (2.23 against 2.10 for c6-d8 in the queen's line), which the queen's line
        cannot play (a7 holds its pawn there): the line ended, and the game record was wrong
        from its 20th move of 107 (the fourth held-out set's game 11). Going on with its own
        c6-d8, the queen's line explained the photo ten moves later that no move of the
        game did, and was taken."""
        read_at, readings = self._readings
        self._readings = (-1, {})
        if read_at != ply or not readings:
            return
        played = tuple(p.action for p in self.game.played)
        for branch in self._branches:
            for k in range(len(branch.alternatives)):
                key = (branch.decided, k)
                own, upto = self._own_line(branch, k)
                if upto > ply or key not in readings:
                    continue
                if self._line(branch.ply, own + played[upto:]) is not None:
                    continue  # the game's decision plays in that line too
                mine = own + played[upto:ply] + readings[key]
                if self._line(branch.ply, mine) is not None:
                    self._diverged[key] = (mine, len(played))

    def _other_line(self, warped: Any, change: np.ndarray[Any, Any],
                    agree: np.ndarray[Any, Any], decision: Decision, halo: Halo | None = None,
                    pushed: np.ndarray[Any, Any] | None = None,
                    sway: np.ndarray[Any, Any] | None = None
                    ) -> tuple[Branch, tuple[Action, ...], Decision] | None:
        """A settled picture that an open branch's alternative explains better than the game
        played: no move of the game explains it (a knight g8-f6 taken for the pawn f7-f6,
        both hidden behind the g7 and f6 pawns, and now the knight goes on to h5), or an
        alternative line by a clear lead (or any lead its outlines back: below), or, from
        photos, as well with fewer actions: one
        photo per position, the line played needs a photo missed to explain this one and the
        other does not (La Bourdonnais-McDonnell 1834 from White's side at 35 degrees from a
        hand: d7-d5 taken for d7-d6, d7-d5 kept open; two photos later d5xc4 was explained in
        the game played only by d6-d5 with c4xd5, about 12.1 against 12.3 for d5xc4 in the
        other line, a lead under the margin). Its branch, its actions up to now (the
        alternative, then every action played since) and its decision on the picture.

        Why a clear lead is SWITCH_MARGIN of the other line's score, more than a decision's
        MARGIN: a switch takes back moves each taken on its own picture. A rook d1-d3 seen
        from Black's side at 45 degrees, d1-d2 kept open: three moves later a bishop's f6xd4
        scored 9.59 in the other line against 8.09, a lead of 1.50 where MARGIN asked 1.44,
        on the lean of its head over d3 alone (half with the rook on d3, whole with d3
        empty), and the game was lost (32 of 81 moves). A switch the pictures call for leads
        by more of the score: a king e8-d7 taken for a knight's b8-d7, then e7-e6 scored
        6.04 in the king's line against 4.54 (a lead of 25 %; the test
        test_watch_prints_the_line_the_camera_settles_on).

        Why any lead the outlines back: they tell a line's single action from the game
        played's as they settle a photo's close call (:func:`outlines_tell`, the camera
        having moved). Seen from the h-file's side at 50 degrees from a hand, a black queen's
        e5-d5 (along the camera's line of sight) was read e5-c5 (8.28 against 7.64, e5-d5
        kept open); two photos later her d5-d4 scored 13.14 in that line against 11.64 for
        c5-d4 in the game played, a lead under SWITCH_MARGIN's 2.63, while the outlines
        missed 15 cells for d5-d4 and 72 for c5-d4: the eighth held-out set's game 14, lost
        at its 124th move of 130.

        Why a tie goes to the younger branch, as in :meth:`_classified_line`: lines that have
        come to the same position read every photo since alike. From a hand at White's side,
        35 degrees, c2-c4 was kept open against c2-c3 and both went on with b4xc3 (en
        passant in one); three moves later a bishop's d3-b1, kept open, and c2-c4's line,
        going on with d3-b1 too, explained a photo as well, and the first found (the older)
        took c2-c4 into the record (the seventh held-out set's game 1, seen while trying a
        rule not kept: docs/vision.md).

        Why a line's own reading is kept (for :meth:`_diverge`) only when the game's does not
        lead it by a clear switch's lead (SWITCH_MARGIN of the game's score): a line whose
        reading of a photo the game's refutes so is wrong there, and going on with it, it
        gathers one photo's lead later. From a hand at White's side, 35 degrees, a bishop's
        c8-b7 was read right (c7-b7 kept open); three moves later the rook's a8-d8 (18.86)
        cannot be played in c7-b7's line (the bishop still on c8), which went on with b7-d7
        (8.70); two photos later the rook's d8-d7 scored 5.55 and the bishop's d7-c7 in that
        line 7.84, and the line was taken (the twelfth held-out set's game 11, lost at its
        42nd move of 112).

        Why a line reading the same action as the game played is passed over when the
        outlines settled the branch for the reading taken (:attr:`Branch.settled`): the two
        readings of one action differ only by what the lines had on its squares before, a
        weaker sign than the outlines' cell by cell. Seen from the h-file's side at 50
        degrees from a hand, the pawn's c3-c4 (5.88) was raised by the outlines over c3xb4
        (6.99), kept open; three photos later the knight's b6xc4 scored 4.95 and, as b6-c4
        in c3xb4's line, 6.45 (its head over b4, where that line had a white pawn), a lead
        past SWITCH_MARGIN, and the line was switched to (the eleventh held-out set's game
        19, lost at its 39th move of 130). Only then: a switch on the same action is often
        how a move hidden earlier is told (docs/vision.md, *Readings kept open until the
        photos tell them apart*); such a line is compared with the game played beyond the
        board only where no piece the game played has and the line has not stands in front
        (:meth:`_apart`).

        Why such a line is passed over too when it puts the same colours as the game played
        on every square: the lines differ only by which piece stands where (a promotion's
        twins), which a photo tells only through the pieces' heights, and that is the
        outlines' question (:meth:`Decoder._twin_fitted`), not the scores'. From a hand at
        White's side, 45 degrees, a white pawn's g7-f8 promoted to a queen at the far edge
        (the outlines missing no cell for any piece) was read right, the other pieces kept
        open; the king took her at once, g8xf8 scoring 17.58 in the rook's line against
        12.58, a lead past the margin that only the two pieces' heights on f8 can make, and
        the line was switched (the twenty-first held-out set's game 0, lost
        at its 62nd move of 90).

        Why an older line (past BRANCH_DEPTH) the outlines preferred (:attr:`Branch.favoured`)
        outscores the game when it leads by OLD_FAVOURED of its own score: the outlines'
        choice is evidence the other old lines lack, and a lead of half a line's score is
        not one photo's sway. From a hand at White's side, 35 degrees, a black queen's e7-d7
        was read as the king's e8-d7 (e7-d7 kept open, the outlines' choice); eight moves
        later the king's e7-f6 scored 8.11 in that line against 2.99 for f7-f6 in the game,
        six decisions after the branch (the twenty-second held-out set's game 16, lost at
        its 54th move of 118; the switch :meth:`_young` was made against led by 25 %).
        Why each line's trial hears that the photo before showed no move when the game's
        decoder did (:meth:`Decoder.saw_no_move`): no line was taken for that photo, so
        none read a move on it. In the same game the king's e8-e7 changed nothing the
        camera sees; the next photo, with a knight's a5-c6, the game explained by a pair
        whose first action's squares were veiled so, and the king's line, whose trial had
        not heard of that photo, could not read e8-e7 with a5-c6 at all."""
        best: tuple[Branch, tuple[Action, ...], Decision] | None = None
        shown = 0.0  # the best line's reading as compared with the game played's
        judge: Decoder | None = None  # the best line's decoder
        found: list[tuple[Branch, tuple[Action, ...], Decision, Decoder, float]] = []
        readings: dict[tuple[int, int], tuple[Action, ...]] = {}
        self._readings = (len(self.game.played), readings)
        now = np.asarray(occupancy_of(self.game.state, self.view.index))
        for branch, k, actions, line in self._open_lines():
            old = decision.candidate is not None and not self._young(branch)
            if old and branch.favoured != branch.alternatives[k]:
                continue  # an old alternative only rescues a game no move explains
            decoder = self._trial(line)
            if self.decoder.sees_no_move:  # so did every line's: none was taken for it
                decoder.saw_no_move()
            colours = np.asarray(occupancy_of(line.state, self.view.index))
            kept = self._kept_apart(now, colours)
            trial = self._decide(decoder, _unchanged_on(change, kept), agree, True, halo,
                                 _unchanged_on(pushed, kept), (self._reference, warped), sway)
            if trial.candidate is None or trial.candidate.squares & self._unseen:
                continue
            value = trial.shown
            if old and value - decision.shown < OLD_FAVOURED * value:
                continue  # an old line the outlines preferred: only past a wide lead
            if decision.candidate is not None and (
                    trial.candidate.actions == decision.candidate.actions):
                if branch.settled:
                    continue  # the same action: no evidence against the outlines' choice
                if np.array_equal(colours, now):
                    continue  # the lines differ by which piece stands where, not by colour
                apart = None if halo is None else self._apart(halo, line,
                                                              decision.candidate)
                if apart is not None:
                    mine = self._decide(self.decoder, change, agree, True, apart, pushed,
                                        (self._reference, warped), sway)
                    theirs = self._decide(decoder, _unchanged_on(change, kept), agree, True,
                                          apart, _unchanged_on(pushed, kept),
                                          (self._reference, warped), sway)
                    alike = _alike(decision, mine, theirs)
                    if alike is None:
                        continue  # told apart only where one line has a piece, not the other
                    value = alike
            if decision.candidate is None or decision.shown - value < lead_needed(
                    decision.shown, SWITCH_MARGIN):
                readings[(branch.decided, k)] = trial.candidate.actions
            if kept:
                trial = replace(trial, explained=trial.explained | kept)
            found.append((branch, actions, trial, decoder, value))
            if best is None or value > shown or (
                    value == shown and branch.decided > best[0].decided):
                best, judge, shown = (branch, actions, trial), decoder, value
        if self.stills and best is not None and judge is not None:
            best, judge, shown = self._outlines_line(found, (*best, judge, shown), warped)
        if best is None or judge is None or decision.candidate is None:
            return best
        # Photos, one per position: a line that explains this one with fewer actions than
        # the game played (no photo missed) is taken when it explains it as well
        other = best[2].candidate
        shorter = self.stills and other is not None and len(other.actions) < len(
            decision.candidate.actions)
        need = 0.0 if shorter else lead_needed(best[2].shown, SWITCH_MARGIN)
        lead = shown - decision.shown
        if lead < need and lead <= 0:
            return None
        misses = self._outline_misses(decision, best[2], judge, warped)
        if lead < need and (misses is None
                            or not outlines_tell(misses[1], misses[0], FIT_MARGIN_MOVED)):
            return None
        return None if misses is not None and misses[1] > misses[0] else best

    def _outlines_line(self, found: list[tuple[Branch, tuple[Action, ...], Decision, Decoder,
                                               float]],
                       best: tuple[Branch, tuple[Action, ...], Decision, Decoder, float],
                       warped: Any) -> tuple[tuple[Branch, tuple[Action, ...], Decision],
                                             Decoder, float]:
        """Of the lines ``found`` reading this photo (their branch, actions, decision,
        decoder and value, :meth:`_other_line`), the ``best`` by value, or one whose single
        action, within SWITCH_MARGIN of it, the outlines tell from the best's as they back a
        switch (:func:`outlines_tell`, FIT_MARGIN_MOVED; the fewest cells missed of those).

        Why: two lines kept open may read a photo alike, and the first found was taken. From
        a hand at White's side, 35 degrees, a black bishop's e7-d6 (behind the d5 pawn) was
        read e7-f6, e7-d6 and e7-c5 (behind the c4 pawn) kept open; two photos later it went
        on to a3, which no move of the game explained, and d6-a3 and c5-a3 in the two lines
        scored 8.84 alike: c5-a3 was taken (the nineteenth held-out set's game 1, lost at
        its 37th move of 100), the outlines missing 23 cells for it and 10 for d6-a3."""
        _, _, trial, judge, value = best
        pick, fewest = best, None
        for other in found:
            if other[2] is trial or value - other[4] >= lead_needed(value, SWITCH_MARGIN):
                continue
            misses = self._misses_between(judge, trial.candidate, other[3],
                                          other[2].candidate, warped)
            if misses is not None and outlines_tell(misses[1], misses[0], FIT_MARGIN_MOVED) \
                    and (fewest is None or misses[1] < fewest):
                pick, fewest = other, misses[1]
        return (pick[0], pick[1], pick[2]), pick[3], pick[4]

    def _apart(self, halo: Halo, line: Game, cand: Candidate) -> Halo | None:
        """The table beyond the board as another ``line``'s reading of the game played's
        action ``cand`` is compared with the game's (:meth:`_other_line`): ``halo`` with the
        cells hidden (:attr:`Halo.apart`, counted for no candidate) that a piece of the game
        played, on a square where ``line`` has another or none, is seen over and that do
        not look like the table, or that its outline swept since the reference picture
        (not those it is seen over that look like the table); None when the pieces ``cand``
        moves are seen over none of them (nothing to hide).

        Why: a cell beyond the board counts for a candidate only where no piece that stays
        is seen over it, so a line without the piece in front counts what the game played
        cannot, and takes the piece's own head, or the change its outline's sway made, for
        the moved piece's. From a hand at White's side, 35 degrees, the pawn's c7-c6 was
        read right and a knight's e7-c6 kept open; two moves later the rook's f8-e8 scored
        4.54 in the line played, where the knight on e7 stands in front of e8's cells
        beyond the board and swept them, and 7.98 in the knight's line, those cells' change
        and look counted for the rook: a switch's lead (the thirteenth held-out set's game
        11, lost at its 28th move of 130; compared so, 2.15 against 1.15). A phone's bishop
        h6-f8 behind a rook on f7 lost so to the line with the rook on d8 (13.15 against
        17.67, the phone bench's game 26 at its 38th move).

        Why not the cells that piece is seen over that look like the table: they tell that
        it is not there. A black rook's d8-d7 read d8-e8 (kept open): three photos later the
        queen's e7-f6 left e8's cells beyond the board looking like the table, which the
        line played, a rook on e8, does not explain and d8-d7's line does (the eleventh
        held-out set's game 21,
        test_photos_from_a_hand_a_rival_alike_within_keep_lead_stays_open)."""
        size = halo.cover.shape[1]
        mine = np.asarray(pieces_of(self.game.state, self.view.index), dtype=np.int64)[:size]
        other = np.asarray(pieces_of(line.state, self.view.index), dtype=np.int64)[:size]
        differ = np.flatnonzero((mine != other) & ~cand.mask[:size])
        if not len(differ):
            return None

        def standing(codes: np.ndarray[Any, Any], squares: np.ndarray[Any, Any]
                     ) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
            """The height classes and squares of the pieces ``codes`` puts on ``squares``."""
            k = self.decoder.heights(codes[squares])
            return k[k >= 0], squares[k >= 0]

        bare = np.nan_to_num(halo.bare, nan=0.0) >= BARE_SHARE
        k, at = standing(mine, differ)
        over = halo.cover[k, at] >= LEAN_COVER  # each such piece's cells, one row each
        hidden = (over & ~bare).any(axis=0)
        if halo.sway is not None:  # its outline swept them: their change, less its sway, is
            hidden |= ((halo.sway[k, at] > 0) & ~(over & bare)).any(axis=0)  # its own
        moved = np.flatnonzero(cand.mask[:size])
        reach = [halo.cover[standing(codes, moved)] >= LEAN_COVER
                 for codes in (mine, np.asarray(cand.pieces, dtype=np.int64)[:size])]
        if not (hidden & np.concatenate(reach).any(axis=0)).any():
            return None
        return replace(halo, change=np.where(hidden, 0.0, halo.change), apart=hidden)

    def _kept_apart(self, now: np.ndarray[Any, Any], other: np.ndarray[Any, Any]
                    ) -> frozenset[int]:
        """The squares the reference picture kept back (:meth:`_new_reference`: a change no
        move of the game played explained) on which a line puts another colour (``other``,
        :func:`occupancy_of`) than the game played (``now``): in that line, what changed
        there since the reference is its own, earlier move (:meth:`_other_line`).

        Why: a white bishop's d3-b1 seen from White's side at 35 degrees from a hand was
        read d3-c4 (d3-b1 kept open); b1, at the board's edge, changed with no move of the
        game played to explain it, and was kept back as a hand's. Two photos later the rook's
        d6xd5 was refused for b1's change, in the game played and in the bishop's line alike,
        and was missed when the line was switched to: the seventh held-out set's game 1,
        lost at its 95th move of 115."""
        if not self._dirty:
            return frozenset()
        return frozenset(i for i in self._dirty if i < len(now) and other[i] != now[i])

    def _outline_misses(self, decision: Decision, trial: Decision, judge: Decoder,
                        warped: Any) -> tuple[int, int] | None:
        """The cells of the change between the reference picture and ``warped`` that the
        pieces' outlines miss for the game played's ``decision`` and for another line's
        ``trial``, judged by that line's decoder ``judge``, where the two disagree
        (:func:`~referee.app.vision_decoder.outline_misses`); None unless both read a single
        action, not the same one (:meth:`_other_line`). The other line's missing more
        speaks against switching to it; missing far fewer backs a switch its lead alone
        would not make (:func:`outlines_tell`).

        Why: the lines are compared by their scores, each against its own position, and a
        line already wrong may explain a later move better by a square its error left: from
        a hand at White's side, 35 degrees, a black queen's d8-c7 was read right and d8-e7
        kept open; the queen's c7-b8 scored 6.18, and the knight's c6-b8 in the other line
        10.23 (c6, behind the c5 pawn, changed as the camera moved, and the table beyond b8
        counted for the knight with no queen's head there in that line), so the line
        switched and the game was lost at its 18th move of 106 (the third held-out set's
        game 11). The outlines missed 20 cells for c7-b8 and 25 for c6-b8. A white queen's
        d3-e2 (14.77, 7 cells) lost the same way to a queen's d2-e2 in another line (19.40,
        23 cells; the second held-out set's game 7 at its 111th move of 130). A switch the
        pictures call for, the outlines back: castling e1-g1 (7 cells) for the king's e1-f1
        (151). Why not when both lines read the same action: their outlines then differ only
        where the lines' positions do, which the lines' scores weighed already (a bishop's
        f8-e7 in both, 19.40 against 25.07, 5 cells against 10: the switch put an earlier
        misreading right, the first held-out set's game 6)."""
        return self._misses_between(self.decoder, decision.candidate, judge, trial.candidate,
                                    warped)

    def _misses_between(self, one: Decoder, mine: Candidate | None, other_judge: Decoder,
                        other: Candidate | None, warped: Any) -> tuple[int, int] | None:
        """:meth:`_outline_misses` of ``mine``, judged by the decoder ``one``, and ``other``,
        judged by ``other_judge``: None unless both are single actions, not the same one."""
        if other is None or mine is None or len(other.actions) > 1 or len(mine.actions) > 1 \
                or other.actions == mine.actions or self._lean() is None:
            return None  # no single actions to compare, or no camera place to paint from
        seen = self._fit(self._reference, warped)()
        misses = outline_misses([one.outline_change(mine, seen),
                                 other_judge.outline_change(other, seen)], seen.changed)
        return int(misses[0]), int(misses[1])

    def _transposed(self) -> list[str]:
        """Play the alternative the pieces' outlines preferred (:attr:`Branch.favoured`)
        instead of the line played once its line has come to the very position the game
        has (a transposition): its texts, none when no such line.

        Why: photos one per position. A close call the score took against the outlines is
        kept open, and a later photo that one line explains better switches to it
        (:meth:`_other_line`); but when the two lines meet, no later photo can tell them
        apart, and the record keeps the reading the outlines were against. From a hand at
        White's side, 35 degrees, a black queen's d8-e7 (15.50) lost to d8-e8 (16.76) on
        the change beyond the board, the outlines missing 3 cells for d8-e7 and 11 for
        d8-e8 (a lead under the margin that settles a close call); three moves later the
        queen went on to d7, from e7 or e8 alike, and the game record was wrong from d8-e8
        on though the position was right (the third held-out set's game 21, at its 54th
        move of 118). The position is the same either way: only the record changes.

        Why the alternative's line as it went on (:meth:`_own_line`): a line that went on
        with its own reading of the last photo (:meth:`_diverge`) is where that line stands,
        and when it stands elsewhere than the game the lines have not met. From a hand at
        White's side, 35 degrees, the black king's d8-e7 was read d8-e8 (d8-e7 the outlines'
        choice); two moves later the king's e7-d6 was read e8-d7 in the game and e7-d6 in
        the other line, and the transposition took the outlines' choice with e7-d7, neither
        line's reading (the twentieth held-out set's game 16, lost at its 65th move of 130).
        Five moves later d6-c7 brought the lines together, and :meth:`_meet` weighs them there."""
        variant = self.game.variant
        now = variant.position_key(self.game.state)
        for branch in self._branches + self._waiting:
            if branch.favoured is None:
                continue
            own, upto = self._own_line(branch, branch.alternatives.index(branch.favoured))
            played = tuple(p.action for p in self.game.played[upto:])
            if not played:  # the line went on with its own reading of the last photo
                line = self._line(branch.ply, own)
                if line is not None and variant.position_key(line.state) == now:
                    return self._take_line(branch, own)
                continue
            line = self._line(branch.ply, own + played[:-1])
            if line is None:
                continue
            # the last action as played, or the move that brings the piece the lines put
            # apart to the same square (the queen's e8-d7 is e7-d7 in the other line)
            last = _reaching(line, now)
            if last is not None:
                return self._take_line(branch, own + played[:-1] + (last,))
        return []

    def _classified_line(self, agree: np.ndarray[Any, Any], change: np.ndarray[Any, Any],
                         tau: float) -> list[str]:
        """Play an open alternative instead of the line played when the photos since have
        shown it: on the squares whose colour the two lines' positions differ on, seen plainly
        in both (no piece in front seen over them, :meth:`_plain`) and unchanged in this
        photo, the classifier's agreement (``agree``) with the alternative less its
        agreement with the game played, summed photo by photo, reaches LINE_EVIDENCE. Its
        texts (none when no alternative got there). Only from a hand (:meth:`_judge`).

        Why: a photo's close call is kept open (:class:`Branch`), and a later photo switches
        the line (:meth:`_other_line`) only when a move there is explained better in the
        other one. A black queen f4xf7 seen from White's side at 45 degrees was taken for
        f4-f6 (f7 hidden behind the queen on f6), and no later move near f6 or f7 told them
        apart; yet f6, in plain sight, looked empty in each photo after (0.33, 0.34, 0.47),
        which no one photo says clearly and a phone in the hand says again from another
        place each time. A camera on a stand says the same thing again from the same place:
        its photos add nothing to one another, and a square the classifier misreads (a dark
        piece on a dark square) would add up to a wrong switch.

        Why a tie goes to the younger branch: two lines that have come to the same position
        get the same evidence from every photo since the younger branch, and differ only in
        what the older one gathered before it, against the record the younger one keeps. From
        a hand at White's side, 35 degrees, a rook's a6-a5 was read right (a6-a4 kept open),
        and four photos later its a5-a6 read a5-d5 (a5-a6 kept open, and a4-a6 in the older
        line): both lines put the rook back on a6, the older had gathered nothing, and the
        first found (the older) was taken, a6-a4 in the record (the tenth held-out set's game
        11, lost at its 103rd move of 130).

        Why a tie within the branch keeps the tied alternatives open: they differ only on
        squares no photo since has shown plainly, and the photos have said only that the
        line played is wrong, not which of them is right. From a hand at White's side, 35
        degrees, a knight's f6-d7 was read g6-f5 (3.68), with f6-d5, f6-d7 and d4-f5 kept
        open; the next photo showed f5 and g6 unchanged, 1.57 for f6-d5 and f6-d7 alike (d5
        and d7 behind the pieces in front), and the first, f6-d5, was taken and the others
        dropped (the eleventh held-out set's game 11, lost at its 36th move of 130). Kept
        open against it, f6-d7 was switched to three photos later, d7 seen.

        Why so are those of the branch that a move in this photo kept from its evidence, when
        they put the same colours as the line taken on the squares its evidence came from:
        the photo said nothing for or against them. From a hand at White's side, 35 degrees,
        a knight's d7-e5 (both squares behind the pieces in front) was read c6xd5, with d7-e5
        and c6-c5 kept open; two photos later d5, in plain sight, looked white, as in both
        (+2.0 for each), but the bishop's h6-g4 changed e5: c6-c5's line alone was weighed,
        taken, and d7-e5 dropped (the fifth held-out set's game 16, lost at its 34th move of
        83).

        Why not a branch the outlines settled (:attr:`Branch.settled`): their cell-by-cell
        reading of the photo the move was seen on is a surer sign than the classifier's
        agreement over the squares the lines differ on, which a piece in front's outline
        spoils from a hand. From a hand at White's side, 35 degrees, the black knight's
        g4-h6 was settled by the outlines over the bishop's g7-h6, kept open; three photos
        later the classifier's evidence switched to g7-h6 (the twentieth held-out set's game
        21, lost at its 22nd move of 98). Such a branch is still weighed by the later photos'
        readings (:meth:`_other_line`)."""
        lean = self._lean()
        if lean is None:
            return []
        index = self.view.index
        now = np.asarray(occupancy_of(self.game.state, index))[:64]
        plain_now = self._plain(self.game, lean)
        # (the best: its branch, place, actions, evidence, squares seen and position)
        best: tuple[Branch, int, tuple[Action, ...], float, np.ndarray[Any, Any],
                    np.ndarray[Any, Any]] | None = None
        keys = set()
        totals: dict[tuple[int, int], float] = {}  # this photo's
        moved: dict[tuple[int, int], np.ndarray[Any, Any]] = {}  # lines a move here differs
        for branch, k, actions, line in self._open_lines():
            if not self._young(branch) or branch.settled:
                continue
            keys.add((branch.decided, k))
            other = np.asarray(occupancy_of(line.state, index))[:64]
            differ = np.flatnonzero(other != now)
            if not len(differ) or bool(np.any(change[differ] > tau)):
                moved[(branch.decided, k)] = other
                continue  # a move there: this photo's evidence is its decision's
            seen = differ[plain_now[differ] & self._plain(line, lean)[differ]]
            total = self._evidence.get((branch.decided, k), 0.0) + float(
                np.sum(agree[seen, other[seen]] - agree[seen, now[seen]]))
            self._evidence[(branch.decided, k)] = totals[(branch.decided, k)] = total
            # (a tie: the younger branch, the line that takes back less)
            if total >= LINE_EVIDENCE and (best is None or total > best[3] or (
                    total == best[3] and branch.decided > best[0].decided)):
                best = (branch, k, actions, total, seen, other)
        self._evidence = {key: v for key, v in self._evidence.items() if key in keys}
        if best is None:
            return []
        branch, k, actions, total, seen, taken_at = best
        tied = tuple(other for j, other in enumerate(branch.alternatives)
                     if j != k and (totals.get((branch.decided, j)) == total or (
                         (branch.decided, j) in moved and np.array_equal(
                             moved[(branch.decided, j)][seen], taken_at[seen]))))
        self._evidence.clear()
        taken = self._take_line(branch, actions)
        if tied:  # kept open against the line taken (a branch of the same decision)
            self._branches.append(Branch(branch.ply, len(branch.alternatives[k]), tied,
                                         branch.decided))
        return taken

    def _plain(self, game: Game, lean: Lean) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """(64,): the squares no piece in front covers LEAN_COVER of in ``game``'s position,
        seen from where the camera stands (``lean``; :meth:`Decoder.looks`).

        Why not VEIL_MAYBE_SHARE, the share that may hide a square from a move: a black rook
        on e7 seen from Black's side at 45 degrees from a hand covered 0.19 of e6, and the
        classifier read its top there as a piece on e6 (1.0). That one photo gave 1.46 to
        the other reading (the rook e8-e6, kept open), past LINE_EVIDENCE, and the line was
        switched to it: an engine game lost at its 64th move of 79."""
        codes = np.asarray(pieces_of(game.state, self.view.index), dtype=np.int64)
        front = self.decoder.looks(codes, lean.cover, np.arange(64))[1]
        return np.asarray(front < LEAN_COVER)

    def _young(self, branch: Branch) -> bool:
        """Whether ``branch`` was decided fewer than BRANCH_DEPTH decisions ago: an older one
        is kept (up to RESCUE_DEPTH) only to explain a photo no move of the game explains
        (:meth:`_other_line`), not to outscore it.

        Why: the longer the game played has explained the photos, the less one photo's lead
        says against it. From a hand at White's side, 45 degrees, a black bishop's f8-e7 was
        read right with f8-d6 kept open; eight moves later the bishop went e7-d6, read so
        (7.26), and the bishop's line read the same photo as d6-e7 (9.68, a lead past the
        margin): the line was switched and the game lost at its 20th move of 130 (the fourth
        held-out set's game 0, while every alternative could outscore the game for twelve
        decisions)."""
        return self._decisions - branch.decided < BRANCH_DEPTH

    def _own_line(self, branch: Branch, k: int) -> tuple[tuple[Action, ...], int]:
        """Alternative ``k`` of ``branch`` as its line has gone so far: its own actions from
        the branch on, and how many of the game's actions they cover (the game's after them
        follow; :meth:`_diverge`)."""
        return self._diverged.get((branch.decided, k),
                                  (branch.alternatives[k], branch.ply + branch.taken))

    def _open_lines(self) -> Iterator[tuple[Branch, int, tuple[Action, ...], Game]]:
        """Each alternative kept open that can still be played: its branch, its place among
        the branch's alternatives, its actions from the branch on (the alternative, then
        every action played since) and the game after them (:meth:`_other_line`,
        :meth:`_classified_line`)."""
        for branch in self._branches:
            for k in range(len(branch.alternatives)):
                own, upto = self._own_line(branch, k)
                actions = own + tuple(p.action for p in self.game.played[upto:])
                line = self._line(branch.ply, actions)
                if line is not None:
                    yield branch, k, actions, line

    def _trial(self, game: Game) -> Decoder:
        """A decoder for ``game`` (another line, or the game before a take-back) judging as
        this tracker's does."""
        trial = Decoder(game, self.view.index)
        trial.guess = self.stills
        return trial

    def _line(self, ply: int, actions: tuple[Action, ...]) -> Game | None:
        """The game after its first ``ply`` actions and then ``actions``; None when they
        cannot be played."""
        state = self.game.state
        for _ in range(len(self.game.played) - ply):
            assert state.parent is not None
            state = state.parent
        line = Game(self.game.variant, seed=self.game.seed, state=state)
        try:
            for action in actions:
                line.play(action)
        except RefereeError:
            return None
        return line

    def _take_line(self, branch: Branch, actions: tuple[Action, ...]) -> list[str]:
        """Play ``actions`` instead of what the game played since the branch (taken back, as
        by :meth:`_retract`); their texts."""
        game = self.game
        self.withdrawn = tuple(p.text for p in game.played[branch.ply:])
        self.retracted = len(self.withdrawn)
        for _ in range(self.retracted):
            game.undo()
        self._history.clear()
        self._forget_earlier()
        self._branches.clear()
        self._waiting.clear()
        self._diverged.clear()
        self._replayed_from = branch.ply
        self.corrections += 1
        return [game.play(a).text for a in actions]

    def _retract(self, warped: Any, agree: np.ndarray[Any, Any]) -> list[Recognised] | None:
        """A steady board that no legal continuation explains may show that a move accepted
        earlier was wrong (a piece put down on one square, then moved on to another; a
        settled frame caught mid-move). Take back the last one or two accepted decisions and
        look for up to MAX_SEQUENCE actions explaining the board against the picture taken
        before them; when a different sequence does, it replaces what was played."""
        game = self.game
        undone = 0
        for back in range(1, len(self._history) + 1):
            before, count, beyond_before, before_corners = self._history[-back]
            undone += count
            state = game.state
            for _ in range(undone):
                if state.parent is None:
                    return None
                state = state.parent
            retracted = [p.text for p in game.played[len(game.played) - undone:]]
            trial = self._trial(Game(game.variant, seed=game.seed, state=state))
            # what the photos showed of the first action taken back it hides in the line
            # played, continued, too (Decoder._veiled)
            trial.played_first(game.played[len(game.played) - undone].action)
            change, pushed = self._unpushed(before, warped, agree)
            decision = self._decide(trial, change, agree, True,
                                    self._halo(warped, before, beyond_before), pushed,
                                    (before, warped))
            cand = decision.candidate
            if cand is None:
                continue
            # What was played, continued, explains the picture nearly as well: the picture
            # does not tell the lines apart, and what was played stays.
            cand = self._keeping(cand, decision.alternatives, retracted)
            texts = [game.variant.format_action(a) for a in cand.actions]
            if texts == retracted:
                continue
            if all(text in texts for text in retracted):
                # The old moves are all in the new sequence (in another order: a transposition
                # the picture cannot tell apart): they stay played, the others are added.
                extra = [a for a, text in zip(cand.actions, texts, strict=True)
                         if text not in retracted]
                if not self._playable(extra):
                    continue
                cand, undone = replace(cand, actions=tuple(extra)), 0
            ply = len(game.played) - undone
            for _ in range(undone):
                game.undo()
            del self._history[len(self._history) - back:]
            kept = len(retracted) - undone  # actions since ``before`` that stay played
            self._history.append((before, kept + len(cand.actions), beyond_before,
                                  before_corners))
            self._forget_earlier()
            self._reference = before
            self._reference = self._new_reference(warped, change,
                                                  cand.squares | decision.explained)
            self._lost = self._puzzling = 0
            self.retracted = undone
            self.withdrawn = tuple(retracted) if undone else ()
            self.corrections += undone > 0
            done = [Recognised(text, self.frames - 1, decision.score)
                    for text in self.decoder.accept(cand)]
            self._decided(ply, cand, ())
            self._learn_empty(warped)
            return done
        return None

    def _keeping(self, best: Candidate, alternatives: tuple[Candidate, ...],
                 retracted: list[str]) -> Candidate:
        """The line a retraction takes: its ``best`` when that begins with the actions it
        would take back (``retracted``: the line played, continued), else the first of its
        close ``alternatives`` that does, else ``best``.

        Why: Kasparov-Deep Blue 1997 from White's side at 35 degrees from a hand. f2-f3 was
        taken over f2-f4 (7.68 against 6.68, f2-f4 kept open); the next photo was left
        undecided by a hair, and the retraction that followed judged f2-f4 with g4-h5 against
        f2-f3 with g4-h5 from the picture before them, 19.51 to 18.99, took f2-f4 and dropped
        the line played: a guess between two lines replaced a decision the same pictures had
        made the other way.

        Only when the best line does not begin with them itself: McDonnell-La Bourdonnais
        1834 from Black's side at 45 degrees, a still camera: the retraction found a1-e1 with
        e6-d6 the best (27.38) and then took its close alternative a1-e1 with e6-d5 (25.30),
        which began with the a1-e1 taken back as well."""
        fmt = self.game.variant.format_action
        for line in (best, *alternatives):
            if [fmt(a) for a in line.actions[:len(retracted)]] == retracted:
                return line
        return best

    def _playable(self, actions: list[Action]) -> bool:
        """Whether ``actions`` can be played in turn from the current position."""
        trial = Game(self.game.variant, seed=self.game.seed, state=self.game.state)
        try:
            for a in actions:
                trial.play(a)
        except RefereeError:
            return False
        return bool(actions)

    def pending(self) -> int:
        """How many of the last actions played may still be taken back by a later frame
        (:meth:`_retract`, and an open :class:`Branch`'s): a printed record should wait for
        them."""
        held = sum(entry[1] for entry in self._history)
        starts = [b.ply for b in self._branches + self._waiting]
        if self._replayed_from is not None:
            starts.append(self._replayed_from)
        if starts:
            held = max(held, len(self.game.played) - min(starts))
        return held

    def run(self, frames: Iterable[Frame], fps: float = 0.0) -> Iterator[Recognised]:
        """Process every frame (``fps`` a second; 0: unknown, NOMINAL_FPS), yielding moves as
        they are recognised."""
        rate = fps if 0.0 < fps < 1000.0 else NOMINAL_FPS
        for k, frame in enumerate(frames):
            yield from self.step(frame, k / rate)

    def summary(self) -> str:
        """One line: moves recognised, frames read, settled frames, ignored settled frames."""
        outcome = self.game.outcome
        result = getattr(outcome, "result", outcome)
        return (f"{len(self.game.played)} moves recognised; {self.frames} frames, "
                f"{self.settled} settled, {self.ignored} ignored; result {result}")
