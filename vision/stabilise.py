"""Keeping the board's corners on the board in every frame of a camera held in the hand.

Why: the tracker compares warped boards frame to frame (is the board still?) and settled board
to settled board (which squares changed?). With the corners fixed and the camera in a hand, the
board drifts under them by a good part of a square and turns by degrees: the warped board never
looks still, and every square looks changed. Finding the board afresh on every frame
(:func:`vision.locate.locate_board`) costs about 50 ms at 720p and can place the 8x8 window one
square off on a crowded board.

How: each frame is warped top-down with the *previous* frame's corners, and a perspective ECC
fit (:func:`cv2.findTransformECC`, ``MOTION_HOMOGRAPHY``) of that small grey board onto a
*reference* picture of the board gives the correction, which is composed into the corners.

* Starting from the previous corners the fit only has to absorb one frame's motion, so it
  converges to the nearby optimum and cannot jump a square on the repetitive lattice: a
  correction that would move a corner by more than ``MAX_STEP`` of a square is refused.
* The fit is coarse to fine (``LEVELS`` pyramid levels, on a blurred copy), so a few pixels of
  motion between frames of a slow phone still converge, and the fine level is accurate to a
  fraction of a pixel.
* The reference is a picture of the whole board, not the previous frame (no drift from frame to
  frame); the tracker renews it (:meth:`Stabiliser.refresh`) when it takes a new picture of
  a settled board, so pieces that moved do not pile up against it. ECC is invariant to the
  light's gain and offset (zero-mean normalised correlation).
* A hand over part of the board, or pieces moving, pull the fit less than the 7 x 7 lattice
  lines and the rest of the board hold it; a fit whose correlation is below ``MIN_CC``, or whose
  correction is implausible, is refused and the previous corners are kept. After ``LOST``
  refused frames in a row the stabiliser says it is lost (:attr:`Stabiliser.lost`): the caller
  finds the board again (the tracker's bump re-finding) and hands the corners back with
  :meth:`Stabiliser.reset`.

Cost: one small warp and one ECC fit per frame (figures in docs/vision.md).

Photos taken one by one may each be framed a square or more away from the last, beyond what
the fit from the previous corners absorbs: :func:`scene_motion` first estimates how the whole
picture moved (table, both boards, everything on one plane), coarse to fine on small copies,
and the corners start from there.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from vision.geometry import Corners, board_points, homography

SIZE = 200          # pixels of the grey board the fit runs on (25 a square)
LEVELS = 2          # pyramid levels of the fit (SIZE, SIZE / 2)
BLUR = 5            # Gaussian blur (pixels) before the fit
ITERATIONS = 30     # ECC iterations per level at most ...
EPSILON = 1e-4      # ... or until the warp changes less than this
MIN_CC = 0.55       # a fit correlating less with the reference is refused
MAX_STEP = 0.4      # share of a square a corner may move in one correction
LOST = 8            # refused frames in a row: the board is lost
MASK_FLOOR = 6.0    # a square whose blurred grey level moved less than this is always used ...
MASK_FACTOR = 2.5   # ... else only if it moved at most this many times the median square
MIN_SQUARES = 24    # fewer usable squares than this: refused (a hand over most of the board)


class Stabiliser:
    """The board's corners, carried from frame to frame onto the board.

    ``corners`` (a8, h8, h1, a1, pixels) are where the board is in the first frame; call
    :meth:`track` with every frame, in order.
    """

    def __init__(self, corners: Corners) -> None:
        self.corners: Corners = np.asarray(corners, dtype=np.float32)
        self.fits = 0        # frames whose correction was taken
        self.refused = 0     # frames whose correction was refused
        self.misses = 0      # refused frames in a row
        self.last_cc = 0.0   # the last fit's correlation
        self._reference: Any = None
        self._frame: Any = None  # the last frame whose fit was taken (refresh() warps it)

    @property
    def lost(self) -> bool:
        """Whether the last LOST frames were all refused (a hand over the board that stays,
        or a camera moved too far in one frame)."""
        return self.misses >= LOST

    def _board(self, frame: Any, corners: Corners) -> Any:
        """``frame``'s board, warped with ``corners``, grey, SIZE pixels a side, blurred."""
        grey = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        board = cv2.warpPerspective(grey, homography(corners, 2 * SIZE), (2 * SIZE, 2 * SIZE),
                                    flags=cv2.INTER_LINEAR)
        small = cv2.resize(board, (SIZE, SIZE), interpolation=cv2.INTER_AREA)
        return cv2.GaussianBlur(small, (BLUR, BLUR), 0).astype(np.float32)

    def track(self, frame: Any) -> Corners:
        """The board's corners in ``frame`` (the previous ones when the fit is refused)."""
        board = self._board(frame, self.corners)
        if self._reference is None:
            self._reference = board
            self._frame = frame
            return self.corners
        fitted = self._fit(board)
        if fitted is None:
            self.refused += 1
            self.misses += 1
            self._frame = None
            return self.corners
        self.fits += 1
        self.misses = 0
        self.corners = fitted
        self._frame = frame
        return self.corners

    def _fit(self, board: Any) -> Corners | None:
        """The corners corrected by the ECC fit of ``board`` onto the reference, or None."""
        mask = self._mask(board)
        if mask is None:
            return None
        warp = np.eye(3, dtype=np.float32)
        cc = 0.0
        for level in range(LEVELS - 1, -1, -1):
            f = 2 ** level
            ref, new, valid = self._reference, board, mask
            if f > 1:
                size = (SIZE // f, SIZE // f)
                ref = cv2.resize(ref, size, interpolation=cv2.INTER_AREA)
                new = cv2.resize(new, size, interpolation=cv2.INTER_AREA)
                valid = cv2.resize(mask, size, interpolation=cv2.INTER_NEAREST)
            down = np.diag([1.0 / f, 1.0 / f, 1.0]).astype(np.float32)
            up = np.diag([float(f), float(f), 1.0]).astype(np.float32)
            scaled = down @ warp @ up
            criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, ITERATIONS, EPSILON)
            try:
                ecc: Any = cv2.findTransformECC
                cc, scaled = ecc(ref, new, scaled, cv2.MOTION_HOMOGRAPHY, criteria, valid, 1)
            except cv2.error:
                return None  # did not converge (a featureless or covered board)
            warp = up @ np.asarray(scaled, dtype=np.float32) @ down
        self.last_cc = float(cc)
        if not np.all(np.isfinite(warp)) or cc < MIN_CC:
            return None
        pts = board_points(SIZE).reshape(-1, 1, 2)
        moved = cv2.perspectiveTransform(pts, warp.astype(np.float64))
        if float(np.abs(moved - pts).max()) > MAX_STEP * SIZE / 8:
            return None  # more than a plausible correction: a jump on the lattice
        to_image = np.linalg.inv(homography(self.corners, SIZE))
        out = cv2.perspectiveTransform(moved.astype(np.float64), to_image).reshape(4, 2)
        return np.asarray(out, dtype=np.float32)

    def _mask(self, board: Any) -> Any:
        """The squares the fit may use (255) and those it may not (0): a square whose look,
        blurred over most of a square (so that the motion of one frame hardly counts), differs
        from the reference's much more than most squares do holds a hand, an arm or a piece
        that moved, which would pull the fit. None when fewer than MIN_SQUARES are left."""
        keep = ~self._changed(board)
        if int(keep.sum()) < MIN_SQUARES:
            return None
        s = SIZE // 8
        return np.repeat(np.repeat(keep.astype(np.uint8) * 255, s, axis=0), s, axis=1)

    def _changed(self, board: Any) -> Any:
        """8 x 8 bools: the squares of ``board`` that look unlike the reference's (see
        :meth:`_mask`)."""
        s = SIZE // 8
        diff = np.abs(cv2.blur(board, (s, s)) - cv2.blur(self._reference, (s, s)))
        per_square = diff.reshape(8, s, 8, s).mean(axis=(1, 3))
        return per_square > max(MASK_FLOOR, MASK_FACTOR * float(np.median(per_square)))

    def refresh(self) -> None:
        """Take the squares of the last tracked frame's board (with its corrected corners)
        that changed into the reference: the tracker calls this when it takes a new picture of
        a settled board. Only the changed squares (pieces moved): the others keep the first
        picture's look, so that the corners do not drift with each renewal."""
        if self._frame is None:  # not after a refused fit
            return
        board = self._board(self._frame, self.corners)
        changed = self._changed(board)
        s = SIZE // 8
        where = np.repeat(np.repeat(changed, s, axis=0), s, axis=1)
        self._reference = np.where(where, board, self._reference).astype(np.float32)

    def reset(self, corners: Corners) -> None:
        """Corners found afresh (and registered to the same board picture): carry on from
        them, with the same reference."""
        self.corners = np.asarray(corners, dtype=np.float32)
        self.misses = 0


SCENE_WIDTH = 320    # pixels across the small grey copies :func:`scene_motion` fits
SCENE_LEVELS = 4     # ... coarse to fine over this many halvings
SCENE_MIN_CC = 0.6   # a scene fit correlating less is refused


def scene_motion(before: Any, after: Any) -> Any:
    """The 3x3 image-to-image motion (an affine map: turned, scaled, moved) of the whole
    picture from ``before`` to ``after``, or None when the fit fails or correlates below
    SCENE_MIN_CC. Pieces moved between the two pictures are a small part of it."""
    scale = SCENE_WIDTH / float(before.shape[1])
    size = (SCENE_WIDTH, max(8, int(round(before.shape[0] * scale))))

    def small(frame: Any) -> Any:
        grey = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        grey = cv2.resize(grey, size, interpolation=cv2.INTER_AREA)
        return cv2.GaussianBlur(grey, (BLUR, BLUR), 0).astype(np.float32)

    if after.shape[:2] != before.shape[:2]:
        return None
    a, b = small(before), small(after)
    warp = np.eye(2, 3, dtype=np.float32)
    cc = 0.0
    criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 50, 1e-4)
    for level in range(SCENE_LEVELS - 1, -1, -1):
        f = 2 ** level
        shape = (size[0] // f, size[1] // f)
        ref = cv2.resize(a, shape, interpolation=cv2.INTER_AREA)
        new = cv2.resize(b, shape, interpolation=cv2.INTER_AREA)
        scaled = warp.copy()
        scaled[:, 2] /= f
        try:
            ecc: Any = cv2.findTransformECC
            cc, scaled = ecc(ref, new, scaled, cv2.MOTION_AFFINE, criteria, None, 1)
        except cv2.error:
            return None
        warp = np.asarray(scaled, dtype=np.float32)
        warp[:, 2] *= f
    if not np.all(np.isfinite(warp)) or cc < SCENE_MIN_CC:
        return None
    # ECC's warp maps ``before``'s small picture onto ``after``'s points: back to full pixels
    full = np.vstack([warp, [0.0, 0.0, 1.0]]).astype(np.float64)
    to_small = np.diag([scale, scale, 1.0])
    return np.linalg.inv(to_small) @ full @ to_small
