"""Automatic board localisation: find the outer corners a8, h8, h1, a1 in a photo.

Method: ``cv2.findChessboardCornersSB`` looks for the 7x7 inner corners (it tolerates pieces
poorly, so empty boards and sparse positions work best); the classic
``cv2.findChessboardCorners`` is the fallback. A homography fitted from the ideal 7x7 lattice to
the points extrapolates the four outer corners. The labelling is then fixed from the image:
the quadrilateral is made clockwise, a8 is put on a light square (square-colour parity), and of
the two remaining 180-degree turns the one with more white-looking pieces on ranks 1-4 wins (an
empty board keeps the detector's choice: it is ambiguous by nature).
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from vision.classify import BLACK, WHITE, classify_board
from vision.errors import BoardNotFoundError
from vision.geometry import Corners, rotate_corners, warp_board
from vision.sources import Frame

MAX_SIDE = 800  # photos are searched at most this large (pixels), then scaled back
CELL = 16  # pixels per square when scoring a lattice placement
SNAP_SHARE = 0.97  # the image frame replaces a found board nearly filling it at this score
MIN_FRAME_SCORE = 20.0  # light/dark alternation (grey levels) for the whole image as a board

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
    alternation inside the 8x8 squares minus the alternation in the ring of squares around."""
    s = np.array([[CELL, 0, CELL], [0, CELL, CELL], [0, 0, 1]], dtype=np.float64)
    try:
        m = s @ np.linalg.inv(h)
    except np.linalg.LinAlgError:
        return -1e9
    side = 10 * CELL
    w = cv2.warpPerspective(grey, m, (side, side), flags=cv2.INTER_AREA).astype(np.float64)
    q = CELL // 4
    cells = w.reshape(10, CELL, 10, CELL)[:, q:CELL - q, :, q:CELL - q].mean(axis=(1, 3))
    r, c = np.indices((10, 10))
    odd = (r + c) % 2 == 1
    inside = (r >= 1) & (r <= 8) & (c >= 1) & (c <= 8)

    def alternation(mask: Any) -> float:
        return abs(float(cells[mask & odd].mean()) - float(cells[mask & ~odd].mean()))

    return alternation(inside) - alternation(~inside)


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
    for x0 in range(hi[0] - 7, lo[0] + 1):
        for y0 in range(hi[1] - 7, lo[1] + 1):
            options.append(_shift(h0, -x0, -y0))
    if not options:
        return None
    return max(options, key=lambda hh: _checker_score(grey, hh))


def _square_quads(grey: Any) -> list[Any]:
    """Convex four-sided blobs (candidate squares) of both colours, as (4, 2) vertex arrays."""
    quads = []
    _, dark = cv2.threshold(cv2.GaussianBlur(grey, (5, 5), 0), 0, 255,
                            cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    kernel = np.ones((3, 3), np.uint8)
    for mask in (dark, 255 - dark):
        mask = cv2.erode(mask, kernel, iterations=2)
        contours, _ = cv2.findContours(mask, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
        for cnt in contours:
            area = cv2.contourArea(cnt)
            if area < 60:
                continue
            approx = cv2.approxPolyDP(cnt, 0.08 * cv2.arcLength(cnt, True), True)
            if len(approx) == 4 and cv2.isContourConvex(approx):
                quads.append(approx.reshape(4, 2).astype(np.float32))
    return quads


def _from_squares(grey: Any) -> Matrix | None:
    """Fallback: fit the lattice to the square-shaped blobs of the image (contours)."""
    quads = _square_quads(grey)
    if len(quads) < 8:
        return None
    areas = np.array([cv2.contourArea(q.reshape(-1, 1, 2)) for q in quads])
    med = float(np.median(areas))
    quads = [q for q, a in zip(quads, areas, strict=True) if med / 2.5 < a < med * 2.5]
    centres = np.array([q.mean(axis=0) for q in quads], dtype=np.float32)
    if len(quads) < 8:
        return None
    # Seed: the square nearest the centre of the others; its corners define one lattice cell.
    seed = quads[int(np.argmin(np.linalg.norm(centres - centres.mean(axis=0), axis=1)))]
    seed = seed[np.argsort(np.arctan2(*(seed - seed.mean(axis=0)).T[::-1]))]
    h = _fit(np.array([[0, 0], [1, 0], [1, 1], [0, 1]], dtype=np.float32), seed)
    if h is None:
        return None
    for _ in range(3):
        inv = np.linalg.inv(h)
        cells = cv2.perspectiveTransform(centres.reshape(-1, 1, 2), inv).reshape(-1, 2) - 0.5
        idx = np.round(cells)
        good = np.linalg.norm(cells - idx, axis=1) < 0.3
        if good.sum() < 8:
            return None
        h2, _ = cv2.findHomography((idx[good] + 0.5).astype(np.float32), centres[good],
                                   cv2.RANSAC, 0.1 * float(np.sqrt(med)))
        if h2 is None:
            return None
        h = np.asarray(h2, dtype=np.float64)
    lo = (int(idx[good, 0].min()), int(idx[good, 1].min()))
    hi = (int(idx[good, 0].max()), int(idx[good, 1].max()))
    if hi[0] - lo[0] > 7 or hi[1] - lo[1] > 7:
        # More than 8 columns of squares: keep the densest 8 (printed margins, floor tiles...).
        return None
    placed = _place(grey, h, lo, hi)
    return None if placed is None else _refine(grey, placed)


def _board_homography(grey: Any) -> Matrix | None:
    """Board coordinates (0..8 per side, inner corners at 1..7) -> image, or None."""
    pts = _inner_corners(grey)
    if pts is not None:
        return _fit(_lattice(7, 7) + 1.0, pts.reshape(-1, 2))
    return _from_squares(grey)


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
    warped = warp_board(image, corners)
    grey = cv2.cvtColor(warped, cv2.COLOR_BGR2GRAY).astype(np.float64)
    s = grey.shape[0] // 8
    cells = grey.reshape(8, s, 8, s)[:, s // 4:3 * s // 4, :, s // 4:3 * s // 4].mean(axis=(1, 3))
    r, c = np.indices((8, 8))
    light_parity = float(cells[(r + c) % 2 == 0].mean()) >= float(cells[(r + c) % 2 == 1].mean())
    if not light_parity:
        corners = rotate_corners(corners, 1)
    labels = classify_board(warp_board(image, corners)).labels
    white_low = int(np.sum(labels[4:] == WHITE)) + int(np.sum(labels[:4] == BLACK))
    white_high = int(np.sum(labels[:4] == WHITE)) + int(np.sum(labels[4:] == BLACK))
    if white_high > white_low:
        corners = rotate_corners(corners, 2)
    return corners


def locate_board(image: Frame) -> Corners:
    """Find the board's outer corners (a8, h8, h1, a1) in ``image``.

    Raises:
        BoardNotFoundError: no 7x7 inner-corner lattice was found.
    """
    scale = min(1.0, MAX_SIDE / max(image.shape[:2]))
    small = image if scale == 1.0 else cv2.resize(image, None, fx=scale, fy=scale,
                                                  interpolation=cv2.INTER_AREA)
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    h = _board_homography(grey)
    if h is None:
        h = _frame_homography(grey)  # a rectified frame crowded with pieces
        if _checker_score(grey, h) < MIN_FRAME_SCORE:
            raise BoardNotFoundError("no chessboard lattice found")
    h = _snap_to_frame(grey, h)
    corners = _clockwise(_outer(h) / scale)
    return _orient(image, corners)


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
