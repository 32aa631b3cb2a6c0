"""Automatic board localisation: find the outer corners a8, h8, h1, a1 in a photo.

Method (why: the inner-corner detectors of OpenCV need an almost unoccluded pattern, and real
games crowd the board with pieces, logos and printed coordinates):

1. *Square blobs*: convex four-sided blobs of both square colours from a global (Otsu) and a
   local (adaptive, with an offset so flat background stays out) threshold, eroded so squares
   touching at corners separate.
2. *Lattice by consensus*: each blob (most typical size first) seeds one lattice cell; the
   lattice is grown outwards over the blobs that fall on its cell centres and are about one cell
   large, re-fitting a homography as it grows. The lattices explaining the most blobs are
   placed as an 8x8 window where the light/dark alternation is strongest inside and weakest in
   the ring around it (printed margins and floors are not squares), and the clearest wins.
3. *Refinement by the known square lattice*: the 7x7 inner corners it predicts are moved to the
   nearest saddle point (``cornerSubPix``), outliers (pieces) dropped, the homography re-fitted.
4. Fallbacks: ``findChessboardCornersSB`` and ``findChessboardCorners`` (7x7 inner corners), then
   a frame already rectified to the board.

Orientation (:func:`_orient`): clockwise, a8 on a light square (the squares of one colour
lighter on average than the other's), then of the two 180-degree turns: the pieces when their
average ranks say it clearly, else the near side of an oblique view is White's, else the
pieces' weaker say. When the board is re-found after the camera moved, the labelling nearest
the previous corners is kept.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from vision.classify import BLACK, EMPTY, WHITE, classify_board
from vision.errors import BoardNotFoundError
from vision.geometry import Corners, dark_squares, rotate_corners, warp_board
from vision.sources import Frame

MAX_SIDE = 800  # photos are searched at most this large (pixels), then scaled back
CELL = 16  # pixels per square when scoring a lattice placement
SNAP_SHARE = 0.97  # the image frame replaces a found board nearly filling it at this score
MIN_FRAME_SCORE = 20.0  # light/dark alternation (grey levels) for the whole image as a board
LEAD_CLEAR = 0.75  # white pieces this many ranks nearer one edge than black ones, on average,
LEAD_PIECES = 10  # ... with at least this many pieces read, settle the orientation
NEAR_RATIO = 1.1  # a rank edge this much longer than the other is the near one
NEAR_SPREAD = 0.5  # weight of the near edge's spread of cells (grey levels) in the score
ALIGN_CELL = 24  # template pixels per square when aligning a checkerboard to the picture
ALIGN_STEPS = 60  # ... at most this many ECC iterations
MAX_SEEDS = 40  # blobs tried as the lattice's seed cell
FINALISTS = 4  # lattices explaining the most blobs that are placed and compared
LOCAL_OFFSET = 6  # grey levels from the local mean that make a pixel dark or light

Matrix = np.ndarray[Any, np.dtype[np.float64]]


def _fit(ideal: Any, pts: Any) -> Matrix | None:
    h, _ = cv2.findHomography(np.asarray(ideal, np.float32), np.asarray(pts, np.float32))
    return None if h is None else np.asarray(h, dtype=np.float64)


def _lattice(a: int, b: int) -> Any:
    return np.array([[i, j] for j in range(b) for i in range(a)], dtype=np.float32)


def _shift(h: Matrix, dx: float, dy: float) -> Matrix:
    """``h`` (sub-lattice coordinates -> image) re-expressed in board coordinates, given that
    sub-lattice point (0, 0) is board point (dx, dy)."""
    t = np.array([[1, 0, -dx], [0, 1, -dy], [0, 0, 1]], dtype=np.float64)
    return np.asarray(h @ t, dtype=np.float64)


def _checker_score(grey: Any, h: Matrix) -> float:
    """How well board coordinates 0..8 (via ``h``) frame a checkerboard: the light/dark
    alternation inside the 8x8 squares minus the alternation in the ring of squares around.

    Each square is judged on its central half, or in an oblique view on the half of it nearest
    the camera (:func:`_toward_camera`). Why: a piece leans away from the camera over the
    square behind it, so the near half of a square is hidden only by a piece in front of it,
    and never on the near rank. Judged on the centres, a near rank of tall pieces alternated
    no more than a row beyond the far edge that the back rank's heads stand over, and rendered
    boards of pieces seen from 30-45 degrees were framed a rank or a file off in 54 of 162
    photos (38 with the near halves; docs/vision.md, *Auto corners in oblique views*). In an
    oblique view the near edge's spread counts too (:func:`_near_edge`)."""
    s = np.array([[CELL, 0, CELL], [0, CELL, CELL], [0, 0, 1]], dtype=np.float64)
    try:
        m = s @ np.linalg.inv(h)
    except np.linalg.LinAlgError:
        return -1e9
    side = 10 * CELL
    w = cv2.warpPerspective(grey, m, (side, side), flags=cv2.INTER_AREA).astype(np.float64)
    q = CELL // 4
    toward = _toward_camera(h)
    dx = dy = 0
    if toward is not None:  # the near half, a quarter square towards the camera (from a
        # corner of the table, the near quarter: both ways)
        dx, dy = (int(round(q * v)) for v in toward / np.abs(toward).max())
    cells = w.reshape(10, CELL, 10, CELL)[:, q + dy:CELL - q + dy, :, q + dx:CELL - q + dx]
    cells = cells.mean(axis=(1, 3))
    r, c = np.indices((10, 10))
    odd = (r + c) % 2 == 1
    inside = (r >= 1) & (r <= 8) & (c >= 1) & (c <= 8)

    def alternation(mask: Any) -> float:
        return abs(float(cells[mask & odd].mean()) - float(cells[mask & ~odd].mean()))

    score = alternation(inside) - alternation(~inside)
    if toward is None:
        return score
    shown = cv2.warpPerspective(np.ones_like(grey), m, (side, side), flags=cv2.INTER_NEAREST)
    whole = shown.reshape(10, CELL, 10, CELL).min(axis=(1, 3)) > 0
    return score + NEAR_SPREAD * _near_edge(cells, whole, dx, dy)


def _near_edge(cells: Any, whole: Any, dx: int, dy: int) -> float:
    """How much more the (10x10) ``cells`` of the window's near rank or file differ from one
    another than those just beyond it, towards the camera (``dx``, ``dy``); on the cells the
    picture shows ``whole``, averaged over both near edges from a corner of the table.

    Why: nothing stands in front of the board's near edge, so its near rank is a row of
    light and dark squares and pieces, and the table or the board's border beyond it is
    plain. Seen from 35-45 degrees, a crowded far rank (its near halves under the heads of
    the pieces in front of it) alternates no more than a plain row of table, and the window
    was often placed a rank towards the camera, its far rank left out."""
    spreads = []
    for step, lines, shown in ((dy, cells, whole), (dx, cells.T, whole.T)):
        if not step:
            continue
        near, beyond = (8, 9) if step > 0 else (1, 0)
        ok = shown[near, 1:9] & shown[beyond, 1:9]
        if ok.sum() >= 4:
            spreads.append(float(lines[near, 1:9][ok].std() - lines[beyond, 1:9][ok].std()))
    return float(np.mean(spreads)) if spreads else 0.0


def _toward_camera(h: Matrix) -> np.ndarray[Any, np.dtype[np.float64]] | None:
    """The unit direction, in board coordinates, towards the camera: where the board grows in
    the picture (``h``: board coordinates -> image). None when a square 2 squares from the
    centre that way is less than NEAR_RATIO times as large as the one 2 squares the other way
    (seen from about above)."""
    def log_area(x: float, y: float) -> float:
        pts = np.array([[[x, y]], [[x + 0.01, y]], [[x, y + 0.01]]], dtype=np.float64)
        a, b, c = cv2.perspectiveTransform(pts, h).reshape(3, 2)
        (ux, uy), (vx, vy) = b - a, c - a
        return float(np.log(max(abs(float(ux * vy - uy * vx)), 1e-12)))

    grow = np.array([log_area(6.0, 4.0) - log_area(2.0, 4.0),
                     log_area(4.0, 6.0) - log_area(4.0, 2.0)])
    size = float(np.linalg.norm(grow))
    if not np.isfinite(size) or size < np.log(NEAR_RATIO):
        return None
    return np.asarray(grow / size, dtype=np.float64)


def _refine(grey: Any, h: Matrix) -> Matrix:
    """Re-fit ``h`` (board coordinates -> image) on the 7x7 inner corners it predicts, each
    moved to the nearest saddle point; occluded or doubtful corners are left out."""
    for _ in range(2):
        ideal = _lattice(7, 7) + 1.0
        guess = cv2.perspectiveTransform(ideal.reshape(-1, 1, 2), h).reshape(-1, 2)
        step = float(np.median(np.linalg.norm(np.diff(guess.reshape(7, 7, 2), axis=1), axis=2)))
        win = max(2, int(step / 5))
        pts = guess.reshape(-1, 1, 2).astype(np.float32).copy()
        crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.01)
        try:
            cv2.cornerSubPix(grey, pts, (win, win), (-1, -1), crit)
        except cv2.error:
            return h
        found = pts.reshape(-1, 2)
        keep = np.linalg.norm(found - guess, axis=1) < step / 6
        if keep.sum() < 12:
            return h
        h2, _ = cv2.findHomography(ideal[keep], found[keep], cv2.RANSAC, step / 10)
        if h2 is None:
            return h
        h = np.asarray(h2, dtype=np.float64)
    return h


def _place(grey: Any, h0: Matrix, lo: tuple[int, int], hi: tuple[int, int]) -> Matrix | None:
    """Best 8x8 board placement for a lattice ``h0`` whose squares were seen at cells
    ``lo``..``hi`` (inclusive): the one framing the clearest checkerboard."""
    options = []
    for x0 in range(min(lo[0], hi[0] - 7), max(lo[0], hi[0] - 7) + 1):
        for y0 in range(min(lo[1], hi[1] - 7), max(lo[1], hi[1] - 7) + 1):
            options.append(_shift(h0, -x0, -y0))
    if not options:
        return None
    return max(options, key=lambda hh: _checker_score(grey, hh))


def _square_quads(grey: Any) -> list[Any]:
    """Convex four-sided blobs (candidate squares) of both colours, as (4, 2) vertex arrays,
    from a global (Otsu) and a local (adaptive) threshold: the global one separates the squares
    of an evenly lit board, the local one those under a shadow or a light gradient."""
    quads = []
    blur = cv2.GaussianBlur(grey, (5, 5), 0)
    _, dark = cv2.threshold(blur, 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    block = max(15, (min(grey.shape[:2]) // 8) | 1)
    # Flat areas (a grey background) sit in neither local mask: pixels must differ from their
    # neighbourhood's mean by LOCAL_OFFSET grey levels, not by sensor noise.
    local_dark = cv2.adaptiveThreshold(blur, 255, cv2.ADAPTIVE_THRESH_MEAN_C,
                                       cv2.THRESH_BINARY_INV, block, LOCAL_OFFSET)
    local_light = cv2.adaptiveThreshold(blur, 255, cv2.ADAPTIVE_THRESH_MEAN_C,
                                        cv2.THRESH_BINARY, block, -LOCAL_OFFSET)
    kernel = np.ones((3, 3), np.uint8)
    for mask in (dark, 255 - dark, local_dark, local_light):
        mask = cv2.erode(mask, kernel, iterations=2)
        contours, _ = cv2.findContours(mask, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
        for cnt in contours:
            area = cv2.contourArea(cnt)
            if area < 60:
                continue
            approx = cv2.approxPolyDP(cnt, 0.08 * cv2.arcLength(cnt, True), True)
            if len(approx) == 4 and cv2.isContourConvex(approx):
                q = approx.reshape(4, 2).astype(np.float32)
                quads.append(q[np.argsort(np.arctan2(*(q - q.mean(axis=0)).T[::-1]))])
    return quads


def _on_lattice(h: Matrix, quads: Any, centres: Any) -> tuple[Any, Any]:
    """Which blobs sit on a cell of lattice ``h`` (centre within 0.25 cell of a cell centre and
    about one cell large, less the erosion), and their cells."""
    try:
        inv = np.linalg.inv(h)
    except np.linalg.LinAlgError:
        return np.zeros(len(centres), dtype=bool), np.zeros((len(centres), 2))
    cells = cv2.perspectiveTransform(centres.reshape(-1, 1, 2), inv).reshape(-1, 2) - 0.5
    idx = np.round(cells)
    verts = cv2.perspectiveTransform(quads.reshape(-1, 1, 2), inv).reshape(-1, 4, 2)
    x, y = verts[..., 0], verts[..., 1]
    area = 0.5 * np.abs(np.sum(x * np.roll(y, -1, axis=1) - np.roll(x, -1, axis=1) * y, axis=1))
    good = (np.linalg.norm(cells - idx, axis=1) < 0.25) & (area > 0.3) & (area < 1.3)
    return good, idx


def _grow(h: Matrix, quads: Any, centres: Any,
          radii: tuple[float, ...]) -> tuple[Matrix, Any, Any]:
    """Re-fit a lattice ``h`` (cell coordinates -> image) on the blobs that fall on its cells,
    first near the seed cell and then further out (a homography fitted on one square
    extrapolates badly far away). Returns the lattice, the inliers and their cells."""
    for radius in radii:
        good, idx = _on_lattice(h, quads, centres)
        good &= np.max(np.abs(idx), axis=1) <= radius
        if len({(a, b) for a, b in idx[good]}) < 5:
            continue
        h2, _ = cv2.findHomography((idx[good] + 0.5).astype(np.float32), centres[good])
        if h2 is None or abs(np.linalg.det(h2)) < 1e-9:
            break
        h = np.asarray(h2, dtype=np.float64)
    good, idx = _on_lattice(h, quads, centres)
    return h, good, idx


def _from_squares(grey: Any) -> Matrix | None:
    """Fallback: fit the lattice to the square-shaped blobs of the image (contours).

    Every blob is tried as the seed cell (RANSAC-like): its four corners define one lattice
    cell, the lattice is grown outwards over the blobs whose centres fall on cell centres, and
    the seed whose lattice explains the most blobs (each cell counted once, squares of both
    colours) wins. Pieces hide squares, printed labels and wood grain add blobs; neither moves
    the lattice the majority of the squares agree on."""
    quads = _square_quads(grey)
    if len(quads) < 8:
        return None
    centres = np.array([q.mean(axis=0) for q in quads], dtype=np.float32)
    stack = np.array(quads, dtype=np.float32)
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], dtype=np.float32)
    areas = np.array([cv2.contourArea(q.reshape(-1, 1, 2)) for q in quads])
    # Seeds in order of how many other blobs share their size (a board's squares do).
    similar = (np.abs(areas[:, None] - areas[None, :]) < 0.3 * areas[:, None]).sum(axis=1)
    found: list[tuple[int, Matrix, Any, Any]] = []
    for tried, k in enumerate(np.argsort(-similar, kind="stable")):
        if tried >= MAX_SEEDS:
            break
        h0 = _fit(unit, quads[k])
        if h0 is None:
            continue
        h, good, idx = _grow(h0, stack, centres, (1.5, 2.5, 4.5, 9.0))
        cells = {(a, b) for a, b in idx[good]}
        if len(cells) >= 8:
            found.append((len(cells), h, good, idx))
    # The lattices explaining the most blobs are placed; the clearest checkerboard wins (a
    # lattice of look-alike blobs in wood grain or noise frames no checkerboard).
    found.sort(key=lambda f: -f[0])
    best: tuple[float, Matrix] | None = None
    for _, h, good, idx in found[:FINALISTS]:
        lo = (int(idx[good, 0].min()), int(idx[good, 1].min()))
        hi = (int(idx[good, 0].max()), int(idx[good, 1].max()))
        placed = _place(grey, h, lo, hi)
        if placed is None:
            continue
        score = _checker_score(grey, placed)
        if best is None or score > best[0]:
            best = (score, placed)
    return None if best is None else _aligned(grey, _refine(grey, best[1]))


def _aligned(grey: Any, h: Matrix) -> Matrix:
    """``h`` (board coordinates -> image) moved to where an ideal checkerboard best matches the
    picture on the board's plainest squares (OpenCV's ECC, a homography; the plainest half of
    each square colour under ``h``, where no piece stands). Kept as it was when the alignment
    does not converge or moves a corner by more than a square.

    Why: the lattice is fitted through the squares seen as blobs and refined on the inner
    corners seen as saddle points; in a crowded board seen from 35 degrees those are a band
    across the middle ranks, and the homography, extrapolated to the near and far ranks, was
    a third of a square off there (rendered real games' positions from 35 degrees: 25 of 136
    photos more than a quarter square off at a corner, 8 after). The plain squares are seen
    over the whole board. The template's light squares are its even ones, whichever the
    picture's are (the board is not labelled yet): a template matched to the picture's
    lighter squares was tried and was no better on rendered games, and worse on the shared
    photos (occupancy with auto corners 0.73 -> 0.84 %)."""
    side = 8 * ALIGN_CELL
    to_image = np.asarray(np.diag([1 / ALIGN_CELL, 1 / ALIGN_CELL, 1.0]), dtype=np.float64)
    start = h @ to_image  # template pixels -> image
    plain = cv2.warpPerspective(grey, start, (side, side),
                                flags=cv2.WARP_INVERSE_MAP | cv2.INTER_AREA).astype(np.float64)
    cells = plain.reshape(8, ALIGN_CELL, 8, ALIGN_CELL)
    texture = cells.std(axis=(1, 3))
    light = ~dark_squares()
    mask = np.zeros((8, 8), dtype=bool)
    for parity in (True, False):
        mask |= (light == parity) & (texture <= np.median(texture[light == parity]))
    template = np.kron(np.where(light, 1.0, 0.0), np.ones((ALIGN_CELL, ALIGN_CELL)))
    shown = np.kron(mask, np.ones((ALIGN_CELL, ALIGN_CELL))).astype(np.uint8) * 255
    in_image = cv2.warpPerspective(shown, start, grey.shape[1::-1], flags=cv2.INTER_NEAREST)
    crit = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, ALIGN_STEPS, 1e-5)
    try:
        _, warp = cv2.findTransformECC(
            cv2.GaussianBlur(template.astype(np.float32), (5, 5), 0),
            cv2.GaussianBlur(grey, (5, 5), 0).astype(np.float32), start.astype(np.float32),
            cv2.MOTION_HOMOGRAPHY, crit, in_image, 1)
    except cv2.error:
        return h
    moved = np.asarray(warp, dtype=np.float64) @ np.linalg.inv(to_image)
    before, after = _outer(h), _outer(moved)
    square = float(np.mean(np.linalg.norm(before - np.roll(before, 1, axis=0), axis=1))) / 8
    if not np.all(np.isfinite(after)) or np.linalg.norm(after - before, axis=1).max() > square:
        return h
    return np.asarray(moved / moved[2, 2], dtype=np.float64)


def _board_homography(grey: Any) -> Matrix | None:
    """Board coordinates (0..8 per side, inner corners at 1..7) -> image, or None."""
    h = _from_squares(grey)
    if h is not None:
        return h
    pts = _inner_corners(grey)
    if pts is not None:
        return _fit(_lattice(7, 7) + 1.0, pts.reshape(-1, 2))
    return None


def _inner_corners(grey: Any) -> Any | None:
    ok, pts = cv2.findChessboardCornersSB(grey, (7, 7), flags=cv2.CALIB_CB_EXHAUSTIVE
                                          | cv2.CALIB_CB_ACCURACY)
    if ok and pts is not None:
        return pts
    flags = cv2.CALIB_CB_ADAPTIVE_THRESH | cv2.CALIB_CB_NORMALIZE_IMAGE
    ok, pts = cv2.findChessboardCorners(grey, (7, 7), flags=flags)
    if ok and pts is not None:
        return pts
    return None


def _outer(h: Matrix) -> Corners:
    outer = np.array([[[0, 0]], [[8, 0]], [[8, 8]], [[0, 8]]], dtype=np.float32)
    return np.asarray(cv2.perspectiveTransform(outer, h), dtype=np.float32).reshape(4, 2)


def _clockwise(c: Corners) -> Corners:
    x, y = c[:, 0], c[:, 1]
    area = float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y))
    return c if area > 0 else np.asarray(c[[0, 3, 2, 1]], dtype=np.float32)


def _orient(image: Frame, corners: Corners) -> Corners:
    """Label the corners a8, h8, h1, a1: a8 on a light square (parity), then of the two
    180-degree turns left, the one the evidence favours.

    The parity: the squares of one colour (a8's, or its neighbours') are lighter than the
    other's, by the mean of their central halves' medians. It was the median of the
    plainest half of all squares: in an oblique view flat-coloured pieces are among the
    plainest, and a crowded board seen from Black's side had its light squares' median
    pulled below the dark ones' by black pieces and was labelled a quarter turn off (the
    mean of all 32 squares of each colour keeps the squares' own difference, the pieces
    standing on both colours).

    Evidence, in order: the pieces when they say it clearly (:func:`_white_lead`: the white
    pieces stand ``LEAD_CLEAR`` ranks or more nearer one edge than the black ones, on average,
    with ``LEAD_PIECES`` or more pieces read: the start position, middlegames, most endgames);
    otherwise an oblique view (one rank edge ``NEAR_RATIO`` longer than the other) puts rank 1
    on the near side (a camera looking at a board from one end stands behind White more often
    than not, and a sparse endgame's pieces can sit anywhere: the shared endgame studies put
    White's king on rank 7); otherwise the pieces' weaker say; an empty top-down board keeps
    the detector's choice (it is ambiguous).

    Why the average rank and not a count of pieces on each half: an oblique view reads many
    pieces twice, by the squares behind them, which moves both colours' pieces towards the far
    side alike; their difference stays, while the count of each half's pieces shrinks. In
    43 real games (2,522 positions) the black pieces stand 0.5 ranks or more further up than
    the white ones in 98.8 % of positions and 0.5 ranks or more lower in 0.1 %. Rendered
    photos of those games (every 12th position, six views) are found the right way round in
    1,221 of 1,368 (1,195 with the count; none of the six views worse), the gain from
    Black's side, where the count often fell short and the near side put White there.
    """
    warped = warp_board(image, corners)
    grey = cv2.cvtColor(warped, cv2.COLOR_BGR2GRAY).astype(np.float64)
    s = grey.shape[0] // 8
    centre = grey.reshape(8, s, 8, s)[:, s // 4:3 * s // 4, :, s // 4:3 * s // 4]
    cells = np.median(centre.transpose(0, 2, 1, 3).reshape(8, 8, -1), axis=2)
    light = ~dark_squares()
    light_parity = float(cells[light].mean()) >= float(cells[~light].mean())
    if not light_parity:
        corners = rotate_corners(corners, 1)
    labels = classify_board(warp_board(image, corners)).labels
    lead = _white_lead(labels)
    rank1 = float(np.linalg.norm(corners[2] - corners[3]))
    rank8 = float(np.linalg.norm(corners[0] - corners[1]))
    if abs(lead) >= LEAD_CLEAR and int(np.sum(labels != EMPTY)) >= LEAD_PIECES:
        turn = lead < 0
    elif max(rank1, rank8) >= NEAR_RATIO * min(rank1, rank8):
        turn = rank8 > rank1
    else:
        turn = lead < 0
    return rotate_corners(corners, 2) if turn else corners


def _white_lead(labels: Any) -> float:
    """How many ranks nearer rank 1 the white pieces stand than the black ones, on average
    (labels: row 0 = rank 8); 0 when a colour has none."""
    rank = 7 - np.indices((8, 8))[0]
    white, black = labels == WHITE, labels == BLACK
    if not white.any() or not black.any():
        return 0.0
    return float(rank[black].mean() - rank[white].mean())


def _nearest_turn(corners: Corners, previous: Corners) -> Corners:
    """The labelling of ``corners`` (one of four quarter turns) closest to ``previous``."""
    turns = [rotate_corners(corners, t) for t in range(4)]
    return min(turns, key=lambda t: float(np.linalg.norm(t - previous, axis=1).sum()))


def _grey(image: Frame) -> tuple[Any, float]:
    """``image`` in grey, shrunk to at most MAX_SIDE pixels a side, and the scale it took."""
    scale = min(1.0, MAX_SIDE / max(image.shape[:2]))
    small = image if scale == 1.0 else cv2.resize(image, None, fx=scale, fy=scale,
                                                  interpolation=cv2.INTER_AREA)
    return cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), scale


def locate_board(image: Frame, previous: Corners | None = None) -> Corners:
    """Find the board's outer corners (a8, h8, h1, a1) in ``image``.

    With ``previous`` (the corners before the camera moved) the labelling nearest to it is kept
    instead of judging the orientation afresh (a game in progress has no start position to
    read it from).

    Raises:
        BoardNotFoundError: no 7x7 inner-corner lattice was found.
    """
    grey, scale = _grey(image)
    h = _board_homography(grey)
    if h is None:
        h = _frame_homography(grey)  # a rectified frame crowded with pieces
        if _checker_score(grey, h) < MIN_FRAME_SCORE:
            raise BoardNotFoundError("no chessboard lattice found")
    h = _snap_to_frame(grey, h)
    corners = _clockwise(_outer(h) / scale)
    if previous is not None:
        return _nearest_turn(corners, previous)
    return _orient(image, corners)


def refine_corners(image: Frame, corners: Corners) -> Corners:
    """``corners`` (a8, h8, h1, a1, as labelled) fitted again to the lattice in ``image``: the
    7x7 inner corners they predict, each moved to the nearest saddle point (:func:`_refine`),
    the labelling kept. Unchanged where the picture shows too few of them.

    Why: a board placed by the start position a square or two along its lattice
    (``referee.app.vision_track.place_by_position``) is a homography extrapolated past the
    squares it was fitted on; seen from White's side at 45 degrees the lattice had been found
    two ranks towards the far side, and moved back it stood 0.4 of a square off."""
    grey, scale = _grey(image)
    board = np.array([[0, 0], [8, 0], [8, 8], [0, 8]], dtype=np.float32)
    h = cv2.getPerspectiveTransform(board, np.asarray(corners, dtype=np.float32) * scale)
    return np.asarray(_outer(_refine(grey, np.asarray(h, dtype=np.float64))) / scale,
                      dtype=np.float32)


def _frame_homography(grey: Any) -> Matrix:
    """Board coordinates 0..8 -> the whole image."""
    rows, cols = grey.shape[:2]
    frame = np.array([[0, 0], [cols, 0], [cols, rows], [0, rows]], dtype=np.float32)
    board = np.array([[0, 0], [8, 0], [8, 8], [0, 8]], dtype=np.float32)
    return np.asarray(cv2.getPerspectiveTransform(board, frame), dtype=np.float64)


def _snap_to_frame(grey: Any, h: Matrix) -> Matrix:
    """The image's own frame instead of ``h`` when the board found nearly fills the image
    (within a quarter square at every corner) and the frame frames the checkerboard about as
    well: a rectified frame *is* its board, and its edges are a sharper estimate than a lattice
    fitted through pieces."""
    full = _frame_homography(grey)
    frame = _outer(full)
    found = _outer(h)
    side = float(np.mean(np.linalg.norm(frame - np.roll(frame, 1, axis=0), axis=1))) / 8.0
    near = [float(np.min(np.linalg.norm(found - p, axis=1))) for p in frame]
    if max(near) > 0.25 * side:
        return h
    if _checker_score(grey, full) >= SNAP_SHARE * _checker_score(grey, h):
        return full
    return h
