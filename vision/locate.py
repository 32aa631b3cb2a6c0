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

MAX_SIDE = 1000  # photos are searched at most this large (pixels), then scaled back


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


def _outer(points: Any) -> Corners:
    pts = np.asarray(points, dtype=np.float32).reshape(-1, 2)
    ideal = np.array([[i + 1, j + 1] for j in range(7) for i in range(7)], dtype=np.float32)
    h, _ = cv2.findHomography(ideal, pts)
    if h is None:
        raise BoardNotFoundError("board lattice could not be fitted")
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
    pts = _inner_corners(grey)
    if pts is None:
        raise BoardNotFoundError("no chessboard lattice found")
    corners = _clockwise(_outer(pts) / scale)
    return _orient(image, corners)
