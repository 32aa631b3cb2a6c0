"""Board geometry: corners, perspective warp to a square top-down board, square indexing.

Conventions: corners are given in the order a8, h8, h1, a1 (image pixels). The warped board has
a8 at the top-left and h1 at the bottom-right, ``SQUARE`` pixels per square. Grids are 8x8 arrays
indexed ``[row, col]`` with row 0 = rank 8 and col 0 = file a; :func:`grid_to_index` gives the
engine's square index (rank * 8 + file, a1 = 0).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, NamedTuple

import cv2
import numpy as np

from vision.errors import CornersError

SQUARE = 50  # pixels per square in the warped board
MAX_PIXEL = 1e6  # no camera has corners a million pixels away
BOARD = 8 * SQUARE
UNSEEN_INNER = 0.25  # a square is seen when the picture shows it from this far in from its edges
#: a generic turned piece: (share of its height, radius in squares) of the rings its outline
#: is the hull of (foot, waist, head)
PIECE_PROFILE = ((0.0, 0.33), (0.6, 0.2), (1.0, 0.15))
LEAN_STRETCH = 4.0  # a camera at about a piece's height sees its head at most this far out
COVER_RASTER = 8  # raster cells a side of a square when measuring what a piece covers (8: a
#                   square's row of cells is one byte, :class:`Drawings`)
HALO = 3  # squares beyond the board's edges where a piece's head may be seen (:func:`beyond`)

Corners = np.ndarray[Any, np.dtype[np.float32]]


def parse_corners(text: str | list[Any]) -> Corners:
    """Parse four ``[x, y]`` points (JSON text or a list) into a (4, 2) float32 array.

    Raises:
        CornersError: not valid JSON, not four numeric pairs, or a degenerate quadrilateral.
    """
    try:
        data = json.loads(text) if isinstance(text, str) else text
    except json.JSONDecodeError as e:
        raise CornersError(f"corners are not valid JSON: {e.msg}") from e
    except (ValueError, RecursionError):  # integers of 5000 digits, nesting 100,000 deep
        raise CornersError("corners must be four [x, y] number pairs (a8, h8, h1, a1)") from None
    try:
        wide = np.asarray(data, dtype=np.float64)  # float32 would overflow (with a warning)
    except (TypeError, ValueError, OverflowError) as e:
        raise CornersError("corners must be four [x, y] number pairs") from e
    if wide.shape != (4, 2) or not np.all(np.isfinite(wide)) or np.any(np.abs(wide) > MAX_PIXEL):
        raise CornersError("corners must be four [x, y] number pairs (a8, h8, h1, a1)")
    pts: Corners = wide.astype(np.float32)
    area = cv2.contourArea(pts.reshape(-1, 1, 2))
    if area < 64.0:
        raise CornersError("corners enclose (almost) no area")
    return pts


def board_points(size: int = BOARD) -> Corners:
    """The warped board's corners a8, h8, h1, a1."""
    s = float(size)
    return np.array([[0, 0], [s, 0], [s, s], [0, s]], dtype=np.float32)


def homography(corners: Corners, size: int = BOARD) -> np.ndarray[Any, np.dtype[np.float64]]:
    """The 3x3 matrix mapping image pixels to warped-board pixels."""
    return np.asarray(cv2.getPerspectiveTransform(corners, board_points(size)), dtype=np.float64)


def outline(corners: Corners, margin: float = 0.0) -> np.ndarray[Any, np.dtype[np.float64]] | None:
    """The picture's points (a8, h8, h1, a1 order) of the board at ``corners`` grown by
    ``margin`` squares each way; None when part of it would lie beyond the horizon of a
    steep view (behind the camera)."""
    grown = np.array([[-margin, -margin], [8 + margin, -margin], [8 + margin, 8 + margin],
                      [-margin, 8 + margin]], dtype=np.float64) * SQUARE
    to_image = np.linalg.inv(homography(corners))
    points = np.c_[grown, np.ones(4)] @ to_image.T
    centre = np.array([4.0 * SQUARE, 4.0 * SQUARE, 1.0]) @ to_image.T
    if (points[:, 2] * centre[2] <= 0).any():
        return None
    return np.asarray(points[:, :2] / points[:, 2:], dtype=np.float64)


def painted(frame: Any, areas: list[np.ndarray[Any, Any]], *, outside: bool = False) -> Any:
    """A copy of ``frame`` with the quadrilaterals ``areas`` (picture points, e.g. from
    :func:`outline`), or everything outside them, painted over with the picture's median
    colour: a board there is no candidate for the board finder."""
    out = np.array(frame, copy=True)
    fill = np.median(out.reshape(-1, out.shape[2]), axis=0).astype(out.dtype)
    inside = np.zeros(out.shape[:2], dtype=np.uint8)
    for area in areas:
        cv2.fillConvexPoly(inside, np.round(area).astype(np.int32), 255)
    out[(inside == 0) if outside else (inside > 0)] = fill
    return out


def warp_board(image: np.ndarray[Any, Any], corners: Corners, size: int = BOARD) -> Any:
    """Warp ``image`` so that the board fills a ``size`` x ``size`` square (a8 top-left)."""
    h = homography(corners, size)
    return cv2.warpPerspective(image, h, (size, size), flags=cv2.INTER_AREA)


def warp_widened(image: np.ndarray[Any, Any], corners: Corners, margin: int,
                 square: int = SQUARE, *, replicate: bool = True) -> Any:
    """The board's plane ``margin`` squares beyond its edges on every side, warped top-down
    at ``square`` pixels a square (a8's corner ``margin`` squares in from the top-left); the
    picture's own edge pixels repeated where it ends (``replicate``), or black there as in
    :func:`warp_board`."""
    pad = margin * square
    side = (8 + 2 * margin) * square
    shift = np.array([[1.0, 0.0, pad], [0.0, 1.0, pad], [0.0, 0.0, 1.0]])
    border = cv2.BORDER_REPLICATE if replicate else cv2.BORDER_CONSTANT
    return cv2.warpPerspective(image, shift @ homography(corners, 8 * square), (side, side),
                               flags=cv2.INTER_AREA, borderMode=border)


def unseen_squares(corners: Corners, shape: tuple[int, ...]) -> np.ndarray[Any, np.dtype[np.bool_]]:
    """8x8 (row 0 = rank 8): the squares of the board at ``corners`` whose central half (the
    part a piece stands on and the classifier reads, UNSEEN_INNER from each edge) a picture
    of ``shape`` (height, width, ...) does not show whole: a photo framed so tightly that an
    edge of the board is cut off. Their warped pixels are the warp's black border, not the
    board. A board whose corners are the picture's own (a rectified frame) is seen whole."""
    to_image = np.linalg.inv(homography(corners))
    # the inverse's scale may be negative (it is only defined up to one): the board's own
    # points then have w < 0 and were all taken for points behind the camera (every square
    # of a board seen at 35 degrees "unseen", so no move was ever seen)
    centre = to_image @ np.array([BOARD / 2.0, BOARD / 2.0, 1.0])
    if centre[2] < 0:
        to_image = -to_image
    rows, cols = np.indices((8, 8))
    offsets = [(UNSEEN_INNER, UNSEEN_INNER), (1 - UNSEEN_INNER, UNSEEN_INNER),
               (UNSEEN_INNER, 1 - UNSEEN_INNER), (1 - UNSEEN_INNER, 1 - UNSEEN_INNER)]
    seen = np.ones((8, 8), dtype=bool)
    h, width = shape[:2]
    for dx, dy in offsets:
        pts = np.stack([(cols + dx).ravel(), (rows + dy).ravel(), np.full(64, 1.0 / SQUARE)],
                       axis=1) * SQUARE
        points = pts @ to_image.T
        w = points[:, 2]
        with np.errstate(divide="ignore", invalid="ignore"):
            x, y = points[:, 0] / w, points[:, 1] / w
        inside = (w > 0) & (x >= -0.5) & (x <= width - 0.5) & (y >= -0.5) & (y <= h - 0.5)
        seen &= inside.reshape(8, 8)
    return np.asarray(~seen)


def camera_position(corners: Corners, shape: tuple[int, ...]
                    ) -> np.ndarray[Any, np.dtype[np.float64]] | None:
    """Where the camera that took a picture of ``shape`` (height, width, ...) stands, from the
    board's ``corners`` in it: (x, y, z) in squares, x along rank 1 from a1's outer corner,
    y along the a-file, z above the board. None when the picture cannot tell: seen from
    straight above (any height fits), or corners that no camera could see.

    Why: in an oblique view a tall piece covers the squares behind its own, away from the
    camera's foot, and by more the lower the camera (:func:`silhouettes`). The board's
    homography is K [r1 r2 t] (Zhang's plane calibration) with K unknown only in its focal
    length when the pixels are square and the optical axis meets the picture's centre (a
    phone's or a webcam's whole picture): r1 and r2 are orthogonal and of one length, which
    gives the focal length, and then the camera's pose."""
    h, w = shape[:2]
    board = np.array([[0, 8], [8, 8], [8, 0], [0, 0]], dtype=np.float32)
    to_image = cv2.getPerspectiveTransform(board, np.asarray(corners, dtype=np.float32))
    centred = np.array([[1.0, 0, -w / 2.0], [0, 1.0, -h / 2.0], [0, 0, 1.0]]) @ to_image
    (a1, a2, a3), (b1, b2, b3), (c1, c2, c3) = centred
    focal2 = []  # (how well determined, estimate) from each of the two conditions
    if c1 * c2 != 0.0:
        focal2.append((abs(c1 * c2), -(a1 * a2 + b1 * b2) / (c1 * c2)))
    if c1 * c1 != c2 * c2:
        focal2.append((abs(c1 * c1 - c2 * c2),
                       -(a1 * a1 + b1 * b1 - a2 * a2 - b2 * b2) / (c1 * c1 - c2 * c2)))
    usable = [(weight, f2) for weight, f2 in focal2 if f2 > 0.0]
    if not usable:
        return None
    focal = float(np.sqrt(max(usable)[1]))
    m = np.diag([1.0 / focal, 1.0 / focal, 1.0]) @ centred
    scale = 2.0 / float(np.linalg.norm(m[:, 0]) + np.linalg.norm(m[:, 1]))
    if m[2, 2] < 0:  # the board in front of the camera
        scale = -scale
    r1, r2, t = m[:, 0] * scale, m[:, 1] * scale, m[:, 2] * scale
    rotation = np.stack([r1, r2, np.cross(r1, r2)], axis=1)
    position = -rotation.T @ t
    if not np.all(np.isfinite(position)) or position[2] <= 0.0:
        return None
    return np.asarray(position, dtype=np.float64)


def view_elevation(corners: Corners, shape: tuple[int, ...]) -> float | None:
    """Degrees above the table at which the camera that took a picture of ``shape`` sees the
    board's centre (:func:`camera_position`); None when the picture cannot tell (seen from
    straight above, or corners no camera could see). As :func:`camera_position`, it holds
    for a whole picture, the optical axis through its centre (rendered views from 35 to 60
    degrees read within 0.1 degree); a cropped picture moves it."""
    position = camera_position(corners, shape)
    if position is None:
        return None
    across = float(np.hypot(position[0] - 4.0, position[1] - 4.0))
    return float(np.degrees(np.arctan2(position[2], across)))


def silhouettes(corners: Corners, shape: tuple[int, ...], heights: Sequence[float],
                reach: float = 0.0, *, drawings: Drawings | None = None
                ) -> np.ndarray[Any, np.dtype[np.float64]] | None:
    """(len(heights), 64, 64), square indices (a1 = 0): ``[k, s, t]`` is the share of square
    ``t`` that a piece ``heights[k]`` squares tall standing on ``s`` covers in a picture of
    ``shape`` with the board at ``corners`` (its outline seen from the camera, drawn on the
    board's plane); None when the camera's place is unknown (:func:`camera_position`).

    From above a piece covers its own square (about a third of it); from a player's side
    it also covers the square behind; from low down its body stands over the next square
    and its head over the one after, diagonally when the camera is at a corner. The
    outline is the hull of PIECE_PROFILE's rings: a generic turned piece, not a model.
    ``reach``: every ring grown by this much (squares), what a piece may cover standing up
    to ``reach`` off its square's centre (the hull of rings grown by a disc is the hull
    grown by it). ``drawings``: outlines drawn before to draw from (:class:`Drawings`), as
    for every function here that measures outlines."""
    grid = _covers(corners, shape, heights, 0, reach, drawings=drawings)
    return None if grid is None else grid[0].reshape(len(heights), 64, 64)


def silhouettes_and_centres(corners: Corners, shape: tuple[int, ...],
                            heights: Sequence[float], inset: float, *,
                            drawings: Drawings | None = None
                            ) -> tuple[np.ndarray[Any, np.dtype[np.float64]],
                                       np.ndarray[Any, np.dtype[np.float64]]] | None:
    """:func:`silhouettes`, and as it the share of each square's central part (``inset`` of
    its side left out on each side: the part a change is measured on,
    :data:`vision.change.ROI_MARGIN`) that a piece covers, from the same outlines drawn once.
    None when the camera's place is unknown.

    Why the centre: seen from White's side at 35 degrees a white king on g4 covers 0.23 of g6
    with its head, all of it in g6's near quarter, and g6's centre did not change at all."""
    grid = _covers(corners, shape, heights, 0, insets=(0.0, inset), drawings=drawings)
    if grid is None:
        return None
    return grid[0].reshape(len(heights), 64, 64), grid[1].reshape(len(heights), 64, 64)


def swept(since: Corners, corners: Corners, shape: tuple[int, ...], heights: Sequence[float],
          *, drawings: Drawings | None = None) -> np.ndarray[Any, np.dtype[np.float64]] | None:
    """(len(heights), 64, 64) as :func:`silhouettes`: the share of square ``t`` that the
    outline of a piece ``heights[k]`` tall on ``s`` covers seen from where the camera stood
    for ``since`` and not from where it stands for ``corners``, or the other way round: what
    the outline swept over as the camera moved. None when either place is unknown.

    Why not the difference of the shares covered: an outline that turns about its foot (the
    camera 5 degrees further round the table) covers as much of a square behind it as before,
    but elsewhere in it; the line between a white pawn e4 and a black one on e5 behind it
    moved across e5's middle and changed it by five thresholds, where the shares differed by
    0.02."""
    grid = _covers(corners, shape, heights, 0, since=since, drawings=drawings)
    return None if grid is None else grid[0].reshape(len(heights), 64, 64)


class Outlines(NamedTuple):
    """Where each piece is seen on the board's plane, cell by cell (:func:`outlines`)."""

    #: (len(heights), 64, 8 COVER_RASTER, 8 COVER_RASTER): the cells (row 0 = rank 8, as a
    #: warped board) the outline of a piece of each height on each square (a1 = 0) covers
    masks: np.ndarray[Any, np.dtype[np.bool_]]
    #: the 64 squares from the farthest from the camera to the nearest: the order in which
    #: pieces hide one another
    far_first: np.ndarray[Any, np.dtype[np.intp]]


def outlines(corners: Corners, shape: tuple[int, ...], heights: Sequence[float], *,
             drawings: Drawings | None = None) -> Outlines | None:
    """The outlines :func:`silhouettes` measures by the square, kept cell by cell; None when
    the camera's place is unknown (:func:`camera_position`).

    Why: a rook put on e2 seen from Black's side is seen over e1, as a rook put on e1 is; by
    the square the two moves change alike, but the cells each covers differ by most of a
    square (``referee.app.vision_track.Decoder._fitted``)."""
    camera = camera_position(corners, shape)
    if camera is None:
        return None
    side = 8 * COVER_RASTER
    drawings = drawings if drawings is not None else Drawings()
    masks = np.zeros((len(heights), 64, side, side), dtype=bool)
    for k, height in enumerate(heights):
        canvas = np.unpackbits(drawings.drawn(camera, height, 0, 0.0), axis=-1)
        masks[k] = canvas[:, ::-1, :] > 0  # the canvas's row 0 is rank 1's edge
    centres = np.stack([np.arange(64) % 8 + 0.5, np.arange(64) // 8 + 0.5], axis=1)
    distance = np.hypot(centres[:, 0] - camera[0], centres[:, 1] - camera[1])
    return Outlines(masks, np.argsort(-distance, kind="stable"))


def halo_cells(margin: int = HALO) -> tuple[tuple[int, int], ...]:
    """The cells of the board's plane up to ``margin`` squares beyond its edges, one square
    each, as (file, rank) with a1 = (0, 0) (so -1 is beyond the a-file or rank 1): rank by
    rank from the nearest to White, file by file."""
    span = range(-margin, 8 + margin)
    return tuple((f, r) for r in span for f in span if not (0 <= f < 8 and 0 <= r < 8))


def beyond(corners: Corners, shape: tuple[int, ...], heights: Sequence[float],
           margin: int = HALO, *, since: Corners | None = None, drawings: Drawings | None = None
           ) -> np.ndarray[Any, np.dtype[np.float64]] | None:
    """(len(heights), 64, len(halo_cells(margin))): :func:`silhouettes` beyond the board,
    the share of each cell of the board's plane outside it that a piece on each square
    covers. None when the camera's place is unknown.

    Why: seen from a player's side a piece on the far rank stands over the table beyond
    the board, and from low down the pieces in front of it hide its square: a queen d8-c7
    seen from White's side at 35 degrees changed no square at all (d8 behind the d7 pawn,
    c7 behind the c6 pawn), only the picture beyond the board where her head was and is.
    ``since``: what the outlines swept over there as the camera moved (:func:`swept`).

    Why HALO 3 squares, not 2: from White's side at 35 degrees the heads of the far rank
    reach further than two squares beyond it, and within two a bishop's head on e7 covers
    the same cells as the king's on e8, each as much of them; the bishop's e7-f8 was read
    as the king's e8-f8 (6.63 against 6.59, bench game 21 from a hand), the third row still
    showing the king's head. Measured with LOOK_WEIGHT 3 in docs/vision.md (*Three squares
    beyond the board, the look as a square*)."""
    grid = _covers(corners, shape, heights, margin, since=since, drawings=drawings)
    if grid is None:
        return None
    grid = grid[0]
    cells = halo_cells(margin)
    rows = np.array([r + margin for _, r in cells])
    cols = np.array([f + margin for f, _ in cells])
    return np.asarray(grid[:, :, rows, cols], dtype=np.float64)


def _covers(corners: Corners, shape: tuple[int, ...], heights: Sequence[float], margin: int,
            reach: float = 0.0, since: Corners | None = None, insets: Sequence[float] = (0.0,),
            drawings: Drawings | None = None) -> np.ndarray[Any, np.dtype[np.float64]] | None:
    """(len(insets), len(heights), 64, 8 + 2 margin, 8 + 2 margin): the share of every cell
    of the board's plane (rank + margin, file + margin) that a piece of each height on each
    square covers (:func:`silhouettes`), of the whole cell and of its central part with each
    of ``insets`` of its side left out on each side (:func:`silhouettes_and_centres`);
    ``since``: the share it covers seen from one of the two places (``since``'s camera and
    this one) and not from the other (:func:`swept`). The outlines come from ``drawings``
    (drawn anew without it)."""
    camera = camera_position(corners, shape)
    before = None if since is None else camera_position(since, shape)
    if camera is None or (since is not None and before is None):
        return None
    drawings = drawings if drawings is not None else Drawings()
    side = 8 + 2 * margin
    out = np.zeros((len(insets), len(heights), 64, side, side), dtype=np.float64)
    for k, height in enumerate(heights):
        packed = drawings.drawn(camera, height, margin, reach)
        if before is not None:
            packed = np.bitwise_xor(packed, drawings.drawn(before, height, margin, reach))
        for j, inset in enumerate(insets):
            out[j, k] = _cell_shares(packed, side, inset)
    return out


class Drawings:
    """The outlines :func:`_outlines` drew, kept for the camera's last PLACES places, each
    canvas packed a bit a cell (a cell's row of a square is one byte: COVER_RASTER is 8).

    Why: a photo from a hand asks what the pieces cover five ways
    (:func:`silhouettes_and_centres`, :func:`silhouettes` grown by a reach, :func:`swept`,
    :func:`beyond`, :func:`beyond` since the reference), each drawing every piece's outline
    of every height anew, from where the camera stands and, for the last two, from where it
    stood for the reference picture (the last photo's place).
    tests/vision/test_camera.py::test_stills_photographed_in_the_hand (41 photos) drew 1,925
    canvases of 64 outlines; kept, 847, the same bit for bit. Packed, a place's drawings take
    about 1.2 MB (7 heights, on the board and 3 squares beyond it), not 9. One per tracker,
    not shared: a module-level cache would keep a camera's places for every tracker of the
    process."""

    #: the camera's place now, where it stood for the reference picture, and the place
    #: before (a photo's first drawings come from its own place, then the reference's: with
    #: two places kept, the least recently used was the last photo's, the reference now)
    PLACES = 3

    def __init__(self, places: int = PLACES) -> None:
        #: how many places are kept: PLACES, and more for a caller that compares a photo
        #: with pictures taken from more places than the reference's
        self.places = places
        #: per place of the camera (its position's bytes), the least recently used first: the
        #: packed canvases by (height, margin, reach)
        self._kept: dict[bytes, dict[tuple[float, int, float], np.ndarray[Any, Any]]] = {}

    def drawn(self, camera: np.ndarray[Any, Any], height: float, margin: int,
              reach: float) -> np.ndarray[Any, np.dtype[np.uint8]]:
        """(64, side cell, side): :func:`_outlines`' canvas for these, bits packed along its
        rows (``np.packbits``); kept, not to be written to."""
        key = np.asarray(camera, dtype=np.float64).tobytes()
        place = self._kept.pop(key, None)
        if place is None:
            place = {}
            while len(self._kept) >= self.places:
                del self._kept[next(iter(self._kept))]
        self._kept[key] = place  # the most recent last
        found = place.get((height, margin, reach))
        if found is None:
            side = (8 + 2 * margin) * COVER_RASTER
            canvas = np.zeros((64, side, side), dtype=np.uint8)
            _outlines(canvas, camera, height, margin, reach)
            found = place[(height, margin, reach)] = np.packbits(canvas, axis=-1)
            found.flags.writeable = False
        return found


def _outlines(canvas: np.ndarray[Any, Any], camera: np.ndarray[Any, Any], height: float,
              margin: int, reach: float) -> None:
    """Draw on ``canvas`` (64, side cell, side cell; cleared first) the outline of a piece
    ``height`` squares tall on each square, seen from ``camera``, as 1s on the board's plane
    (COVER_RASTER cells a square, ``margin`` squares beyond its edges)."""
    turn = np.linspace(0.0, 2.0 * np.pi, 16, endpoint=False)
    ring = np.stack([np.cos(turn), np.sin(turn)], axis=1)
    centres = np.stack([np.arange(64) % 8 + 0.5, np.arange(64) // 8 + 0.5], axis=1)
    rings = []
    for share, radius in PIECE_PROFILE:
        # a point at height z is seen over the ground where the camera's ray meets it
        z = share * height
        stretch = min(camera[2] / max(camera[2] - z, 1e-9), LEAN_STRETCH)
        around = centres[:, None, :] + max(radius + reach, 0.0) * ring[None, :, :]
        rings.append(camera[:2] + (around - camera[:2]) * stretch)
    outline = np.round((np.concatenate(rings, axis=1) + margin) * COVER_RASTER * 16
                       ).astype(np.int32)
    canvas[:] = 0
    for s in range(64):
        cv2.fillConvexPoly(canvas[s], cv2.convexHull(outline[s]), 1, shift=4)


def _cell_shares(packed: np.ndarray[Any, Any], side: int, inset: float = 0.0
                 ) -> np.ndarray[Any, np.dtype[np.float64]]:
    """(64, side, side): the share of each COVER_RASTER x COVER_RASTER block of a canvas
    (64, side cell, side cell; 0 or 1), given with its bits packed along its rows
    (:class:`Drawings`), that is set (``inset``: of the block's central part, that share of
    its side left out on each side). A block's row is one byte: its bits counted
    (``np.bitwise_count``, the inset's bits masked off), then its rows added as whole rows.
    Why: numpy's mean over two axes at once took three quarters of :func:`_covers`' time, and
    a sum of the unpacked cells in two passes of integers (the first way round) took 0.16 ms
    a canvas of the board (0.36 with 3 squares beyond it); this takes 0.035 (0.06)."""
    cell = COVER_RASTER
    lo = int(round(inset * cell))
    hi = cell - lo
    inner = packed if lo == 0 else packed & np.uint8((0xFF >> lo) & (0xFF << lo) & 0xFF)
    bits = np.bitwise_count(inner).reshape(64 * side, cell, side)
    count = bits[:, lo].copy()
    for row in range(lo + 1, hi):  # row by row: summing the short middle axis is slower
        count += bits[:, row]
    return np.asarray(count.reshape(64, side, side) / float((hi - lo) ** 2), dtype=np.float64)


def grid_to_index(row: int, col: int) -> int:
    """Engine square index (a1 = 0) of grid cell ``[row, col]`` (row 0 = rank 8)."""
    return (7 - row) * 8 + col


def is_dark(row: int, col: int) -> bool:
    """True for dark squares (a1 is dark)."""
    return (row + col) % 2 == 1


def dark_squares() -> np.ndarray[Any, np.dtype[np.bool_]]:
    """8x8 (row 0 = rank 8): True on the dark squares (:func:`is_dark`)."""
    return np.asarray(np.fromfunction(is_dark, (8, 8), dtype=int), dtype=bool)


def rotate_corners(corners: Corners, quarter_turns: int) -> Corners:
    """The same quadrilateral with the corner labels shifted by ``quarter_turns``."""
    return np.roll(corners, -quarter_turns, axis=0)
