"""Per-square classification of a warped board into empty / white piece / black piece.

Everything is calibrated from the image itself (there is no training set):

1. The board is warped top-down (:func:`vision.geometry.warp_board`) and converted to CIE Lab.
2. For each square we take a central region of interest (ROI) and its median colour.
3. The *expected empty colour* of a light or dark square comes from the half of the squares of
   that colour that look the plainest (lowest texture): on any legal position at least half of
   the 32 light (or dark) squares are usually empty. It is their colour *near the square*
   (:func:`_local_colours`): a lamp to one side, a window or a webcam's vignetting light one
   part of a board more than another, and one colour for the whole board made every square
   of a brighter corner "unlike an empty square" (the shared video: f6, g5, f4, 27 wrong squares
   in its 7 settled frames, 8 now).
4. A pixel of a square's ROI "deviates" when its Lab distance from that expected empty colour
   exceeds a threshold scaled by the board's own light/dark contrast. The occupancy score is a
   weighted sum of the share of deviating pixels, the Canny edge density and the lightness
   texture (standard deviation over the board contrast) in the ROI.
5. A square is occupied when its score is above a threshold, unless it is a light square whose
   unlike pixels are a mark printed in the dark squares' ink (:func:`_printed`: a logo read as
   a piece in every photo of its board); its piece colour comes from the mean
   lightness of the deviating pixels, split into white/black by Otsu's method over all occupied
   squares of the image (falling back to the light/dark square midpoint when the split is weak).

The Canny thresholds follow the board's own light/dark contrast downwards (:func:`_edge_map`):
a piece's outline is about as sharp as the board's squares, so on a board of low contrast (dim
light, a soft or small picture, pale squares) the fixed thresholds miss the outlines of dark
pieces on dark squares. The lower thresholds are kept only when the plainest squares (the empty
reference) do not gain edges with them: a board whose own surface (wood grain, printed lines,
sensor noise) breaks into edges keeps the fixed ones. Measured held out (docs/vision.md).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from vision.geometry import SQUARE, dark_squares

EMPTY, WHITE, BLACK = 0, 1, 2
W_SHARE, W_EDGES, W_TEXTURE = 1.0, 8.0, 2.0
ROI_MARGIN = 0.25  # share of the square left out on each side of the ROI
THRESHOLD = 1.1  # occupancy score at which a square counts as occupied
CANNY_LOW, CANNY_RATIO = 40.0, 3.0  # Canny low threshold (grey levels) and high/low ratio
CANNY_CONTRAST = 0.3  # the low threshold drops to this share of the board contrast, if lower
CANNY_PLAIN_GAIN = 0.005  # ... unless the plainest squares' edge density grows by more than this

EMPTY_SIGMA = 2.5  # squares: how far the plain squares' colour is taken as the empty look

# A mark printed in the dark squares' ink on a light square (a logo, an emblem): see _printed.
PRINT_CHROMA = 12.0  # the two inks' colours (a*, b*) at least this far apart: a coloured board
WOOD_HUES = (30.0, 110.0)  # degrees of hue (a*, b*) of wood, cream and brown: a dark ink there
# has the hue of wooden pieces' shading (a light wooden piece on a maple square darkens towards
# the walnut square's colour), so no mark in it can be told from a piece
PRINT_OFF = 8.0  # the unlike pixels' median distance (Lab) from the line between the two inks
PRINT_TOWARD = 0.25  # ... their median hue moved at least this share of the way to the dark ink
PRINT_INK = 0.03  # ... and at least this share of the ROI is the dark ink itself
PRINT_NEAR_INK = 0.35  # "the dark ink itself": within this share of the inks' distance of it

FloatGrid = np.ndarray[Any, np.dtype[np.float64]]
IntGrid = np.ndarray[Any, np.dtype[np.int64]]
BoolGrid = np.ndarray[Any, np.dtype[np.bool_]]


@dataclass(frozen=True)
class BoardReading:
    """What :func:`classify_board` saw.

    ``labels`` is an 8x8 int grid (row 0 = rank 8) of EMPTY / WHITE / BLACK; ``occupancy`` the
    per-square occupancy score (about 0 empty, 1 at the threshold, larger = surer);
    ``lightness`` the mean Lab lightness (0-255) of the deviating pixels (the piece), ``whiteness``
    a signed score, positive for a white piece, negative for a black one.
    """

    labels: IntGrid
    occupancy: FloatGrid
    lightness: FloatGrid
    whiteness: FloatGrid


@functools.cache
def _nearness() -> np.ndarray[Any, np.dtype[np.float64]]:
    """(64, 64) Gaussian weights of the distance between squares, EMPTY_SIGMA squares wide."""
    r, c = np.indices((8, 8))
    pts = np.stack([r.ravel(), c.ravel()], axis=1).astype(np.float64)
    d2 = ((pts[:, None, :] - pts[None, :, :]) ** 2).sum(axis=2)
    weights = np.asarray(np.exp(-d2 / (2.0 * EMPTY_SIGMA ** 2)), dtype=np.float64)
    weights.setflags(write=False)  # computed once, shared: nobody may change it
    return weights


def _local_colours(med: FloatGrid, texture: FloatGrid
                   ) -> tuple[dict[bool, np.ndarray[Any, Any]], dict[bool, float],
                              np.ndarray[Any, Any]]:
    """The expected empty colour (Lab) *of each square colour* near every square (True =
    dark: an 8x8x3 grid each), the board-wide empty lightness of each square colour, and which
    squares were taken as plain.

    Of each square colour, the plainest half (texture at or below the median) are taken as
    empty; the colour near a square is their median colours weighted by nearness
    (EMPTY_SIGMA squares), so uneven light is followed and a square far from every plain
    one (an edge rank at the start) takes its nearest plain squares' colour, never an
    extrapolation. EMPTY_SIGMA was chosen on the photos (2.5, 3 and 4 tied, 1.5 and 2 and
    a fitted plane worse) and measured held out on the video's frames (docs/vision.md)."""
    dark = dark_squares()
    local: dict[bool, np.ndarray[Any, Any]] = {}
    ref_l: dict[bool, float] = {}
    plain_sq = np.zeros((8, 8), dtype=bool)
    weights = _nearness()
    for parity in (False, True):
        sel = dark == parity
        tex = texture[sel]
        plain = tex <= np.median(tex)
        plain_sq[sel] = plain
        ref_l[parity] = float(np.median(med[sel][plain], axis=0)[0])
        source = np.flatnonzero(sel.ravel())[plain]
        w = weights[:, source]
        local[parity] = ((w @ med.reshape(64, 3)[source]) / w.sum(axis=1, keepdims=True)
                         ).reshape(8, 8, 3)
    return local, ref_l, plain_sq


def _printed(flat: np.ndarray[Any, Any], local: dict[bool, np.ndarray[Any, Any]], tol: float,
             candidates: BoolGrid) -> BoolGrid:
    """Which light ``candidates`` hold a mark printed in the dark squares' ink, not a piece.

    Why: a printed logo or emblem on a light square has edges, texture and pixels unlike the
    square, so the three cues read it as a piece (the US Chess emblem on h1 of the afka2d
    board: 22 of the 41 wrong squares of the shared photos). What tells it from a piece is its
    colour: a print's pixels are the two inks and their blends (anti-aliasing, blur, JPEG),
    so they lie on the line between the two squares' colours in Lab, and on a board whose inks
    differ in hue (green and cream, not black and white) their hue moves towards the dark
    ink's and some of them are that ink. A white piece's shading stays off that line or keeps
    the light square's hue; a black piece is darker than any ink. Only light squares: a white
    piece on a dark square *is* the light ink's colour (cream pieces on cream squares), so a
    light mark on a dark square cannot be told from one by colour. Only on boards whose dark
    ink is a colour no piece has (:func:`_coloured_ink`: green, blue, red; not black and white,
    grey, or wood, whose light pieces' shading darkens towards the dark wood's colour).
    Constants chosen on the afka2d photos (the emblem's unlike pixels: median distance from
    the line 2.1-3.1, hue 0.41-0.58 of the way, 5-11 % of the ROI the dark ink; the pieces on
    light squares that pass the hue and ink tests are black, 18.5 and more from the line; the
    white ones nearest: hue 0.30-0.34 of the way, no pixel of the ink). Measured on generated
    marks of other shapes on other squares, and on darkened, noisy, recompressed and unevenly
    lit copies of every shared photo and the video's frames (docs/vision.md, *Printed marks*;
    tests/vision/test_print.py)."""
    light, dark = local[False], local[True]
    printed = np.zeros((8, 8), dtype=bool)
    if not _coloured_ink(light, dark):
        return printed
    for r, c in zip(*np.nonzero(candidates & ~dark_squares()), strict=True):
        printed[r, c] = _is_print(flat[r, c], light[r, c], dark[r, c], tol)
    return printed


def _coloured_ink(light: np.ndarray[Any, Any], dark: np.ndarray[Any, Any]) -> bool:
    """Whether the board's dark ink (8x8x3 Lab, as ``light``) is a colour no piece has: far
    from the light ink in (a*, b*) and of a hue outside WOOD_HUES (green, blue, red)."""
    light_ab = np.median(light.reshape(64, 3), axis=0)[1:] - 128.0
    dark_ab = np.median(dark.reshape(64, 3), axis=0)[1:] - 128.0
    if float(np.linalg.norm(dark_ab - light_ab)) < PRINT_CHROMA:
        return False
    hue = float(np.degrees(np.arctan2(dark_ab[1], dark_ab[0]))) % 360.0
    return not WOOD_HUES[0] <= hue <= WOOD_HUES[1]


def _is_print(pixels: np.ndarray[Any, Any], light: np.ndarray[Any, Any],
              dark: np.ndarray[Any, Any], tol: float) -> bool:
    """Whether one light square's ROI ``pixels`` (k, 3 Lab) unlike it are dark ink (_printed).

    The light end of the inks' line takes the square's own median lightness when that is
    within ``tol`` of the light squares' colour near it (``light``): a mark covers less than
    half of the ROI, so the median is the square's own ink as this photo lights it (the nearby
    light squares' colour is an average: a board lit unevenly made a corner square's cream 20
    Lab lighter than it). Its hue stays the nearby squares': JPEG spreads a mark's hue over
    its blocks, and a median taken there had moved half way to the dark ink's."""
    own = float(np.median(pixels[:, 0]))
    if abs(own - float(light[0])) <= tol:
        light = np.array([own, light[1], light[2]])
    unlike = pixels[np.linalg.norm(pixels - light, axis=1) > tol]
    if not len(unlike):
        return False
    seg = dark - light
    rel = unlike - light
    t = np.clip(rel @ seg / max(float(seg @ seg), 1e-6), 0.0, 1.0)
    off = np.linalg.norm(rel - t[:, None] * seg, axis=1)
    toward = rel[:, 1:] @ seg[1:] / max(float(seg[1:] @ seg[1:]), 1e-6)
    ink = float((np.linalg.norm(pixels - dark, axis=1)
                 < PRINT_NEAR_INK * float(np.linalg.norm(seg))).mean())
    return bool(np.median(off) <= PRINT_OFF and np.median(toward) >= PRINT_TOWARD
                and ink >= PRINT_INK)


def _rois(lab: np.ndarray[Any, Any], margin: float) -> np.ndarray[Any, Any]:
    """(8, 8, k, k, 3) array of every square's central ROI."""
    s = lab.shape[0] // 8
    m = int(round(s * margin))
    sq = lab.reshape(8, s, 8, s, 3).transpose(0, 2, 1, 3, 4)
    return sq[:, :, m:s - m, m:s - m, :]


def _otsu_split(values: FloatGrid) -> tuple[float, float]:
    """Best two-class split of ``values``: (threshold, between-class separation in value units)."""
    v = np.sort(values.ravel()).astype(np.float64)
    if v.size < 2:
        return float(v[0]) if v.size else 0.0, 0.0
    n = v.size
    left = np.arange(1, n)  # sizes of the lower class for splits after 1..n-1 values
    csum = np.cumsum(v)[:-1]
    mean_a = csum / left
    mean_b = (v.sum() - csum) / (n - left)
    score = left * (n - left) * (mean_b - mean_a) ** 2
    i = int(np.argmax(score))  # the first best split, as the loop it replaces chose
    return float((v[i] + v[i + 1]) / 2), float(mean_b[i] - mean_a[i])


def _edge_density(edges: np.ndarray[Any, Any], margin: float) -> FloatGrid:
    """Share of edge pixels in every square's central ROI (8x8)."""
    s = edges.shape[0] // 8
    m = int(round(s * margin))
    sq = edges.reshape(8, s, 8, s).transpose(0, 2, 1, 3)[:, :, m:s - m, m:s - m]
    return np.asarray(sq.reshape(8, 8, -1).mean(axis=2), dtype=np.float64)


def _edge_map(gray: np.ndarray[Any, Any], contrast: float,
              plain: np.ndarray[Any, np.dtype[np.bool_]]) -> FloatGrid:
    """Per-square Canny edge density, with thresholds lowered on a board of low contrast.

    Why: the fixed thresholds (40/120) were set on boards of 130-190 grey levels of light/dark
    contrast; on one of 80 the outline of a dark piece on a dark square falls below them (a
    blurred 527 px photo lost 6 pieces so). The low threshold becomes ``CANNY_CONTRAST`` x
    contrast when that is lower (never higher: a high-contrast board keeps today's edges), and
    only if the ``plain`` squares (the empty reference) gain at most ``CANNY_PLAIN_GAIN`` edge
    pixels with it: a textured or noisy board surface keeps the fixed thresholds.
    """
    fixed = _edge_density(cv2.Canny(gray, CANNY_LOW, CANNY_RATIO * CANNY_LOW) > 0, ROI_MARGIN)
    low = CANNY_CONTRAST * contrast
    if low >= CANNY_LOW:
        return fixed
    lowered = _edge_density(cv2.Canny(gray, low, CANNY_RATIO * low) > 0, ROI_MARGIN)
    if float(lowered[plain].mean() - fixed[plain].mean()) > CANNY_PLAIN_GAIN:
        return fixed
    return lowered


def classify_board(warped: np.ndarray[Any, Any]) -> BoardReading:
    """Classify every square of a warped board image (BGR, a8 top-left, square size)."""
    if warped.shape[0] != 8 * SQUARE or warped.shape[1] != 8 * SQUARE:
        warped = cv2.resize(warped, (8 * SQUARE, 8 * SQUARE), interpolation=cv2.INTER_AREA)
    blur = cv2.GaussianBlur(warped, (3, 3), 0)
    lab = cv2.cvtColor(blur, cv2.COLOR_BGR2LAB).astype(np.float32)
    rois = _rois(lab, ROI_MARGIN)
    flat = rois.reshape(8, 8, -1, 3)
    med = np.median(flat, axis=2)
    texture = flat[..., 0].std(axis=2)
    local, ref_l, plain_sq = _local_colours(med, texture)
    dark = dark_squares()[:, :, None]
    ref = np.where(dark, local[True], local[False])
    contrast = max(abs(ref_l[True] - ref_l[False]), 20.0)
    tol = max(10.0, 0.3 * contrast)

    diff = np.linalg.norm(flat - ref[:, :, None, :], axis=3)
    deviating = diff > tol
    share = deviating.mean(axis=2)

    gray = cv2.cvtColor(blur, cv2.COLOR_BGR2GRAY)
    edge_density = _edge_map(gray, contrast, plain_sq)

    # Weights of the three cues (a square is occupied at a weighted sum of 1): the share of
    # ROI pixels unlike the empty square, Canny edge density, and lightness texture relative to
    # the board's light/dark contrast. Set by hand on the shipped photos (pcwawc + afka2d).
    occupancy = (W_SHARE * share + W_EDGES * edge_density
                 + W_TEXTURE * texture / contrast)
    occupied = occupancy >= THRESHOLD
    occupied &= ~_printed(flat, local, tol, occupied)

    count = deviating.sum(axis=2)
    total = (flat[..., 0] * deviating).sum(axis=2)
    lightness = np.where(count > 0, total / np.maximum(count, 1), med[..., 0])
    mid = (ref_l[True] + ref_l[False]) / 2.0
    if occupied.sum() >= 4:
        t, sep = _otsu_split(lightness[occupied])
        if sep > 0.4 * contrast:
            mid = t
    whiteness = (lightness - mid) / contrast
    labels = np.where(occupied, np.where(whiteness >= 0, WHITE, BLACK), EMPTY).astype(np.int64)
    return BoardReading(labels, occupancy, lightness, whiteness)


def fen_to_grid(fen_board: str) -> IntGrid:
    """8x8 grid of EMPTY / WHITE / BLACK from a FEN piece-placement field (rank 8 first)."""
    ranks = fen_board.strip().split("/")
    if len(ranks) != 8:
        raise ValueError(f"FEN board needs 8 ranks: {fen_board!r}")
    grid = np.zeros((8, 8), dtype=np.int64)
    for r, rank in enumerate(ranks):
        c = 0
        for ch in rank:
            if ch.isdigit():
                c += int(ch)
            elif ch.isalpha():
                if c >= 8:
                    raise ValueError(f"FEN rank too long: {rank!r}")
                grid[r, c] = WHITE if ch.isupper() else BLACK
                c += 1
            else:
                raise ValueError(f"bad FEN character {ch!r}")
        if c != 8:
            raise ValueError(f"FEN rank {rank!r} does not have 8 squares")
    return grid
