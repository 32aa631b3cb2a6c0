"""How much each square changed between two pictures of the same board: change maps.

Why a module of its own: this is picture maths, no chess. The tracker
(:mod:`referee.app.vision_track`) asks which legal move a change map shows; this module only
says how much each square's central region changed, after the two pictures are made as alike as
a camera allows: the light matched (auto-exposure, white balance, a shadow), the boards aligned
(frames rectified one by one shift by a few pixels), each square compared at small shifts, the
board's own noise (its median square) taken off. Beyond the main board the same is done for a
composite picture's extra rows (a printed ring, a second board: :mod:`referee.app.vision_view`)
and for the table round the board (:func:`halo_picture`), where tall pieces' heads are seen.

Pictures are warped boards (:func:`vision.geometry.warp_board`): the main 8 x 8 board, then,
in a composite picture, rows of squares beyond it (:func:`main_part`). Square values are in
square order (a1 = 0, :func:`to_index_order`); grids have rank 8 on top.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from vision.geometry import HALO, Corners, dark_squares, halo_cells, homography, warp_widened

CHANGE_FLOOR = 6.0    # the change threshold is at least this (Lab units) ...
NOISE_MADS = 5.0      # ... and at least the median + this many MADs of the change map
ROI_MARGIN = 0.22     # share of a square left out on each side when measuring change
SMALL = 25            # pixels per square of the change map's working copy
SHIFT = 1             # squares are compared at every shift up to this many SMALL pixels
#                       (after the ECC alignment: what is left is local)
SHIFT_EXTRA = 4       # squares beyond the main board (a ring) are compared at shifts up to this:
#                       no ECC alignment reaches them (a frame turned 1 degree moves them 5)
TONE_CLIP = 8         # levels this near 0 or 255 may be clipped: they bound a pixel, no more
SHADE_SPLIT = 5       # a shadow's light is measured on parts of a square, this many a side ...
SHADE_CELLS = 7       # ... as the median over this many parts a side round each
SHADE_DEPTH = float(np.log(1 / 0.3))  # a shadow leaves at least 30 % of the light (log gain)
PUSH_PX = 5           # SMALL pixels (a fifth of a square): a piece moved this far within its
#                       square was pushed, not moved (:func:`pushed`) ...
PUSH_NOISE = 4.0      # ... when the moved picture differs less than this x threshold (its
#                       shadow and its sides seen a little otherwise) ...
PUSH_SHARE = 1.0 / 3.0  # ... and less than this share of the square's change
BARE_TOLERANCE = 15.0  # Lab: a cell beyond the board this close to the table's colour is bare
TABLE_PLAIN = 0.8     # the cells no piece is seen over this much within BARE_TOLERANCE of
#                       their median colour: a plain table (:func:`halo_bare`)
#: The shifts (files right, ranks down in the warped board) of :func:`shifted_windows`' windows.
WINDOW_SHIFTS = ((0, 0), (-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1))


def to_index_order(grid: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """An 8x8 grid (row 0 = rank 8) as 64 values in square order (a1 = 0)."""
    return np.asarray(grid[::-1].reshape(64))


def main_part(warped: Any) -> Any:
    """The main 8x8 board of a composite picture (:mod:`referee.app.vision_view`: the board's
    warp, then rows of squares beyond it); a plain warp is its own main board."""
    return warped[:warped.shape[1]]


def _bgr_small(warped: Any) -> Any:
    small = cv2.resize(main_part(warped), (8 * SMALL, 8 * SMALL), interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(small, (3, 3), 0)


def contrast(warped: Any) -> float:
    """The main board's light/dark contrast (grey levels): the median light square's median
    grey less the median dark square's, as the camera sees it."""
    grey = cv2.cvtColor(_bgr_small(warped), cv2.COLOR_BGR2GRAY).astype(np.float32)
    squares = np.median(grey.reshape(8, SMALL, 8, SMALL).transpose(0, 2, 1, 3)
                        .reshape(8, 8, -1), axis=2)
    dark = dark_squares()
    return abs(float(np.median(squares[~dark]) - np.median(squares[dark])))


def _unshaded(small: Any, ref: Any) -> Any:
    """``small`` (BGR, SMALL pixels a square) with a shadow's light taken out: the lightness
    of every SHADE_SPLIT x SHADE_SPLIT-th part of a square against ``ref``'s (the ratio of
    their medians), smoothed as the median over the SHADE_CELLS x SHADE_CELLS parts round it,
    interpolated between their centres and divided out.

    A shadow (a spectator leaning over, the photographer's own) scales the light of every
    square it falls on, light and dark alike, smoothly across the board, with soft edges
    that cross squares: one value a square left the squares along its edge changed (a1 and
    c6 by 4 thresholds). A move changes whole squares, about half of the parts the median
    is taken over, so most of its change is left."""
    cell = SMALL // SHADE_SPLIT
    side = 8 * SHADE_SPLIT

    def medians(img: Any) -> Any:
        grey = img[:side * cell, :side * cell].astype(np.float32).mean(axis=2) + 1.0
        return np.median(grey.reshape(side, cell, side, cell).transpose(0, 2, 1, 3)
                         .reshape(side, side, -1), axis=2)

    half = SHADE_CELLS // 2
    ratio = np.pad(np.log(medians(small) / medians(ref)), half, mode="constant",
                   constant_values=np.nan)
    windows = np.lib.stride_tricks.sliding_window_view(ratio, (SHADE_CELLS, SHADE_CELLS))
    field = np.nanmedian(windows.reshape(side, side, -1), axis=2).astype(np.float32)
    field = np.clip(field, -SHADE_DEPTH, SHADE_DEPTH)
    gain = cv2.resize(np.exp(field), (small.shape[1], small.shape[0]),
                      interpolation=cv2.INTER_LINEAR)
    return np.clip(small.astype(np.float32) / gain[..., None] + 0.5, 0, 255).astype(np.uint8)


def _lab(small: Any) -> np.ndarray[Any, np.dtype[np.float32]]:
    return np.asarray(cv2.cvtColor(small, cv2.COLOR_BGR2LAB), dtype=np.float32)


def lab_small(warped: Any) -> np.ndarray[Any, np.dtype[np.float32]]:
    """The main board, SMALL pixels a square, in Lab."""
    return _lab(_bgr_small(warped))


def _balanced(small: Any, ref: Any) -> Any:
    """``small`` (BGR, :func:`_bgr_small`) given ``ref``'s colour balance: each of blue, green
    and red through one gain (:func:`_paired_tone`), its clipped pixels as ``ref`` has them
    where they agree (:func:`_uncensored`). A camera's white balance and exposure are a gain
    on each channel, before and after its gamma curve alike; in Lab they shift a light
    square's colour more than a dark one's, which one shift of the colour medians
    (:func:`match_light`) cannot (photos whose white balance differed by up to 15 % a
    channel: 2 of 6 games lost, none now).

    Why a gain fitted on the pixels paired, not the histograms matched: a histogram's ends
    are the pieces' darkest and lightest pixels, and a move moves them. A black king's
    capture c8xc7 seen from White's side at 45 degrees showed more dark pixels, and the
    unmoved rook and pawn on h3 and h2 changed by 44 (an engine game lost at its 121st of
    130 moves); paired, a move's few squares do not pull the median ratio. 45 engine games
    rendered one photo per position (docs/vision.md): still camera 4,590 -> 4,528 of 4,778
    (38 -> 40 games exact), held out 2,642 -> 2,705 of 2,774 (21 -> 22 exact); from a hand
    3,346 -> 3,314, held out 1,910 -> 1,897."""
    table = np.empty((256, 1, 3), dtype=np.uint8)
    for ch in range(3):
        table[:, 0, ch] = np.clip(_paired_tone(small[..., ch], ref[..., ch]) + 0.5, 0, 255)
    return _uncensored(cv2.LUT(small, table), small, ref)


def _uncensored(mapped: Any, small: Any, ref: Any) -> Any:
    """``mapped`` (``small`` through its tone table) where ``small`` said something: a level
    ``small`` clipped (within TONE_CLIP of 255 or 0) only bounds the pixel's level, and where
    ``ref``'s lies beyond that bound (brighter than the clipped pixel maps to, or darker) the
    two agree, and the pixel takes ``ref``'s level. Why: a photo 1.28 times as bright as its
    reference clipped every light square to 255, which are 200-248 in the reference: one
    level cannot be all of them (an empty square changed by 35 through one gain)."""
    top = (small >= 255 - TONE_CLIP) & (ref > mapped)
    bottom = (small <= TONE_CLIP) & (ref < mapped)
    return np.where(top | bottom, ref, mapped)


def _paired_tone(src: np.ndarray[Any, Any], ref: np.ndarray[Any, Any], lift: float = 0.0
                 ) -> np.ndarray[Any, np.dtype[np.float64]]:
    """A table of 256 levels taking ``src`` onto ``ref`` (two aligned pictures of the same
    board, one channel): one gain on the level plus ``lift``, the median ratio of the same
    pixel's two levels where neither is within TONE_CLIP of an end (a clipped level only
    bounds its pixel: :func:`_uncensored` takes it up for the colour channels)."""
    a = np.asarray(src[::3, ::3], dtype=np.float64).ravel()
    b = np.asarray(ref[::3, ::3], dtype=np.float64).ravel()
    low, high = TONE_CLIP, 255 - TONE_CLIP
    fair = (a > low) & (a < high) & (b > low) & (b < high)
    gain = float(np.median((b[fair] + lift) / (a[fair] + lift))) if fair.any() else 1.0
    table = (np.arange(256.0) + lift) * gain - lift
    return np.asarray(table, dtype=np.float64)


def match_light(lab: np.ndarray[Any, Any], ref: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """``lab`` lit like ``ref`` (the same board's picture): its lightness through one gain on
    L + 16 (Lab's lightness is a cube root of the light, so a gain on the light is one on
    L + 16) and its colour moved by the median of the pixels' differences, both fitted on the
    pixels paired (:func:`_paired_tone`; every caller's two pictures are the same board's,
    the same size): auto-exposure and changing light move the whole
    board, a move changes only a few squares."""
    return _match_light_with(lab, lab, ref)


def _align(lab: np.ndarray[Any, Any], ref: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """``lab`` moved onto ``ref`` by the affine map that best aligns their lightness (ECC):
    frames rectified one by one are shifted, turned and scaled a little against each other;
    a move changes too few squares to pull the alignment. Unchanged if ECC fails.

    The fit runs at half the size (a quarter of the pixels: 1.2 ms against 5.3, the largest
    part of every frame judged), its shift doubled. Against the fit at full size on the
    shared video's frames: 0.04 px apart (median; 0.15 at the 90th percentile, where the
    change map tries shifts of a pixel anyway; the half pixel between the two grids' centres
    is left out, at most 0.1 px for the maps accepted); 43 real games from a still camera
    played action for action the same, from a hand 1,926 -> 1,929 moves in order."""
    warp = np.eye(2, 3, dtype=np.float32)
    criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 40, 1e-4)
    half = (lab.shape[1] // 2, lab.shape[0] // 2)
    try:
        ecc: Any = cv2.findTransformECC
        _, warp = ecc(cv2.resize(ref[..., 0], half, interpolation=cv2.INTER_AREA),
                      cv2.resize(lab[..., 0], half, interpolation=cv2.INTER_AREA),
                      warp, cv2.MOTION_AFFINE, criteria, None, 3)
    except cv2.error:
        return lab
    warp = np.asarray(warp, dtype=np.float32)
    warp[:, 2] *= 2.0
    if np.abs(warp[:, 2]).max() > 2 * SMALL or np.abs(warp[:, :2] - np.eye(2)).max() > 0.1:
        return lab  # not a small correction: something else moved
    size = (lab.shape[1], lab.shape[0])
    return np.asarray(cv2.warpAffine(lab, warp, size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                     borderMode=cv2.BORDER_REPLICATE), dtype=np.float32)


def register(reference: Any, warped: Any, corners: Corners) -> Corners:
    """``corners`` corrected so that their warp lines up with the ``reference`` warp: the
    perspective (homography) ECC fit of the two boards' lightness, composed into the corners.
    A board found afresh differs from the one the reference was taken with by a few pixels of
    perspective, which the per-frame affine alignment cannot absorb. Unchanged if ECC fails."""
    lab = lab_small(reference)
    ref = cv2.GaussianBlur(lab[..., 0], (5, 5), 0)
    new = cv2.GaussianBlur(match_light(lab_small(warped), lab)[..., 0], (5, 5), 0)
    w = np.eye(3, dtype=np.float32)
    criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 60, 1e-5)
    try:
        ecc: Any = cv2.findTransformECC
        _, w = ecc(ref, new, w, cv2.MOTION_HOMOGRAPHY, criteria, None, 5)
    except cv2.error:
        return corners
    small = 8.0 * SMALL
    pts = np.array([[[0, 0]], [[small, 0]], [[small, small]], [[0, small]]], dtype=np.float32)
    moved = cv2.perspectiveTransform(pts, np.asarray(w, dtype=np.float64)).reshape(4, 2)
    if float(np.abs(moved - pts.reshape(4, 2)).max()) > SMALL:
        return corners  # more than a square: not a correction
    to_image = np.linalg.inv(homography(corners, int(small)))
    out = cv2.perspectiveTransform(moved.reshape(-1, 1, 2).astype(np.float64), to_image)
    return np.asarray(out.reshape(4, 2), dtype=np.float32)


def change_map(before: Any, after: Any) -> np.ndarray[Any, np.dtype[np.float64]]:
    """64 values (a1 = 0): how much each square's central region changed from ``before`` to
    ``after`` (warped boards), in Lab units, brightness matched, best over small shifts, less the
    median over the board."""
    return change_parts(before, after)[0]


def change_parts(before: Any, after: Any, unshade: bool = False
                 ) -> tuple[np.ndarray[Any, np.dtype[np.float64]], np.ndarray[Any, Any],
                       np.ndarray[Any, Any], float]:
    """:func:`change_map`, with the two main boards as compared (:func:`_compared`) and the
    median square's distance, for :func:`pushed_compared` to look further into without doing
    it again; ``unshade``: a shadow's light taken out first (:func:`_unshaded`)."""
    a, b = _compared(before, after, unshade)
    best = _square_diffs(a, b)
    median = float(np.median(best))
    grid = np.maximum(best - median, 0.0)
    main = np.asarray(to_index_order(grid), dtype=np.float64)
    if before.shape[0] == before.shape[1]:
        return main, a, b, median
    extra = _extra_change(before, after, lab_small(after), a, median)
    return np.concatenate([main, extra]), a, b, median


def _compared(before: Any, after: Any, unshade: bool = False
              ) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """The two main boards as :func:`change_map` compares them: Lab, SMALL pixels a square,
    ``after`` lit like ``before`` (``unshade``: and a shadow's light taken out,
    :func:`_unshaded`) and aligned onto it."""
    ref = _bgr_small(before)
    small = _bgr_small(after)
    if unshade:
        small = _unshaded(small, ref)
    a = _lab(ref)
    return a, _align(match_light(_lab(_balanced(small, ref)), a), a)


def _square_diffs(a: np.ndarray[Any, Any], b: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """(8, 8): every square's mean Lab distance between ``a``'s central region and ``b``'s,
    the best over shifts up to SHIFT pixels (row 0 = rank 8)."""
    return _best_shift(a, b, SHIFT)


def pushed(before: Any, after: Any, change: np.ndarray[Any, Any], tau: float,
           occupied: np.ndarray[Any, Any]) -> np.ndarray[Any, np.dtype[np.bool_]]:
    """Squares (a1 = 0) of the main board that changed only because the piece on them was
    pushed within its square: a neighbour knocked while a move was made, a piece straightened.
    The square's central region is found in the other picture both ways (the old in the new,
    the new in the old) moved by up to PUSH_PX (a fifth of a square), what is left of the
    change being a third of it at most (PUSH_SHARE) and not far over the board's noise
    (PUSH_NOISE x ``tau``: a pushed piece's shadow and sides are seen a little otherwise).
    Only squares the classifier sees ``occupied`` now are tried: a piece that left, or came
    from the next square (a whole square away), is never a push.

    Why: a square that changed and that no move explains vetoes every candidate. A piece put
    down a little off its square, or its neighbour knocked aside by 10 % of a square, then
    kept a move from being seen: photo games where every move knocked a neighbour by up to
    15 % of a square were lost after 1 to 20 moves, 5 of 5 (tests/vision/test_pushed.py)."""
    a, b = _compared(before, after)
    return pushed_compared(a, b, float(np.median(_square_diffs(a, b))), change, tau, occupied)


def pushed_compared(a: np.ndarray[Any, Any], b: np.ndarray[Any, Any], median: float,
                    change: np.ndarray[Any, Any], tau: float,
                    occupied: np.ndarray[Any, Any]) -> np.ndarray[Any, np.dtype[np.bool_]]:
    """:func:`pushed` on the boards as :func:`change_map` compared them (:func:`change_parts`)."""
    out = np.zeros(len(change), dtype=bool)
    for i in np.flatnonzero((change[:64] > tau) & occupied[:64]):
        row, col = 7 - int(i) // 8, int(i) % 8
        # both ways: an empty square's old look is found beside a piece put down off-centre
        best = max(_found_near(a, b, row, col), _found_near(b, a, row, col))
        # the push explains most of the change, and what is left is not much over the noise
        out[i] = best - median < min(PUSH_NOISE * tau, PUSH_SHARE * change[i])
    return out


def _found_near(a: np.ndarray[Any, Any], b: np.ndarray[Any, Any], row: int, col: int) -> float:
    """How well square (``row``, ``col``)'s central region of ``a`` is found in ``b`` moved
    by up to PUSH_PX pixels: the least mean Lab distance."""
    s, p = SMALL, PUSH_PX
    m = int(round(s * ROI_MARGIN))
    k = s - 2 * m
    y, x = row * s + m, col * s + m
    old = a[y:y + k, x:x + k]
    padded = np.pad(b[max(0, y - p):y + k + p, max(0, x - p):x + k + p],
                    ((max(0, p - y), max(0, y + k + p - b.shape[0])),
                     (max(0, p - x), max(0, x + k + p - b.shape[1])), (0, 0)), mode="edge")
    windows = np.lib.stride_tricks.sliding_window_view(padded, (k, k, 3))[:, :, 0]
    diff = windows - old  # (2p + 1, 2p + 1, k, k, 3): every shift at once
    return float(np.sqrt(np.einsum("abijc,abijc->abij", diff, diff)).mean(axis=(2, 3)).min())


def _lab_rows(warped: Any) -> np.ndarray[Any, np.dtype[np.float32]]:
    """The composite picture's rows below the main board, SMALL pixels a square, in Lab."""
    rest = warped[warped.shape[1]:]
    rows = rest.shape[0] * 8 // warped.shape[1]
    small = cv2.resize(rest, (8 * SMALL, rows * SMALL), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (3, 3), 0)
    return np.asarray(cv2.cvtColor(small, cv2.COLOR_BGR2LAB), dtype=np.float32)


def _match_light_with(lab: np.ndarray[Any, Any], src: np.ndarray[Any, Any],
                      ref: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """``lab`` moved by the light mapping that takes the main board ``src`` onto ``ref``
    (:func:`match_light`; ``src`` and ``ref`` the same board's pictures, pixel for pixel):
    squares beyond the board are lit like it."""
    out = lab.copy()
    table = np.clip(_paired_tone(src[..., 0], ref[..., 0], lift=16.0), 0, 255).astype(np.float32)
    whole = np.clip(lab[..., 0] + 0.5, 0, 255).astype(np.uint8)
    out[..., 0] = cv2.LUT(whole, table).reshape(whole.shape)
    for ch in (1, 2):
        out[..., ch] += float(np.median(ref[::3, ::3, ch] - src[::3, ::3, ch]))
    return out


def _extra_change(before: Any, after: Any, main_after: np.ndarray[Any, Any],
                  main_before: np.ndarray[Any, Any], median: float
                  ) -> np.ndarray[Any, np.dtype[np.float64]]:
    """Per square beyond the main board (composite order), its change from ``before`` to
    ``after``, best over small shifts, less a median. The ring's rows come first: lit like
    the main board (``main_after`` onto ``main_before``), shifts up to SHIFT_EXTRA (no lattice
    to align them by), less the main board's ``median``; then each 8-row block (a second
    board) is judged as the main board is: its own light matching, ECC alignment, shifts up to
    SHIFT and its own median."""
    a = _lab_rows(before)
    raw = _lab_rows(after)
    rows = a.shape[0] // SMALL
    ring = rows % 8
    s = SMALL
    out = []
    if ring:
        part = slice(0, ring * s)
        b = _match_light_with(raw[part], main_after, main_before)
        best = _best_shift(a[part], b, SHIFT_EXTRA)
        out.append(np.maximum(best - median, 0.0).reshape(-1))
    for top in range(ring, rows, 8):
        part = slice(top * s, (top + 8) * s)
        b = _align(match_light(raw[part], a[part]), a[part])
        best = _best_shift(a[part], b, SHIFT)
        out.append(np.maximum(best - float(np.median(best)), 0.0).reshape(-1))
    return np.asarray(np.concatenate(out), dtype=np.float64)


def _best_shift(a: np.ndarray[Any, Any], b: np.ndarray[Any, Any],
                shift: int) -> np.ndarray[Any, Any]:
    """(rows, columns): per square the mean Lab distance of ``a``'s central region to ``b``'s,
    least over shifts of ``b`` up to ``shift`` pixels."""
    s = SMALL
    rows, cols = a.shape[0] // s, a.shape[1] // s
    m = int(round(s * ROI_MARGIN))
    best = np.full((rows, cols), np.inf)
    inner = a.reshape(rows, s, cols, s, 3)[:, m:s - m, :, m:s - m]
    for dy in range(-shift, shift + 1):
        for dx in range(-shift, shift + 1):
            diff = inner - _rolled_regions(b, rows, cols, dy, dx, m)
            d = np.sqrt(np.einsum("ijklc,ijklc->ijkl", diff, diff))
            best = np.minimum(best, d.mean(axis=(1, 3)))
    return best


def _rolled_regions(b: np.ndarray[Any, Any], rows: int, cols: int, dy: int, dx: int,
                    m: int) -> np.ndarray[Any, Any]:
    """(rows, SMALL - 2 m, cols, SMALL - 2 m, 3): the central regions (``m`` pixels left out
    on each side) of every square of ``b`` (rows x cols squares of SMALL pixels) shifted by
    (``dy``, ``dx``) as ``np.roll`` shifts it. Within ``m`` pixels a region never reaches
    across the picture's edge, and it is a view of ``b`` itself: rolling the whole picture
    copied it 9 times a comparison, a third of :func:`_best_shift`'s time (4.5 -> 3.1 ms for
    the table round the board, 1.6 -> 1.0 for the board; the same values)."""
    s = SMALL
    if max(abs(dy), abs(dx)) > m or b.shape != (rows * s, cols * s, 3):
        # the region wraps round to the picture's other side (or not such a picture: the
        # reshape says so, as it did)
        shifted = np.roll(b, (dy, dx), axis=(0, 1)).reshape(rows, s, cols, s, 3)
        return np.asarray(shifted[:, m:s - m, :, m:s - m])
    k = s - 2 * m
    row, col, channel = b.strides
    return np.lib.stride_tricks.as_strided(
        b[m - dy:, m - dx:], shape=(rows, k, cols, k, 3),
        strides=(s * row, row, s * col, col, channel), writeable=False)


def halo_picture(frame: Any, corners: Corners) -> np.ndarray[Any, np.dtype[np.float32]]:
    """The board's plane HALO squares beyond its edges on every side, warped top-down at
    SMALL pixels a square (:func:`vision.geometry.warp_widened`), in Lab."""
    return _lab(cv2.GaussianBlur(warp_widened(frame, corners, HALO, SMALL), (3, 3), 0))


def _halo_slots() -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """Where each cell of :func:`vision.geometry.halo_cells` lies in a :func:`halo_picture`,
    counted in squares: its rows (rank 8 + HALO at the top) and its columns."""
    cells = halo_cells()
    return (np.array([7 + HALO - r for _, r in cells]), np.array([f + HALO for f, _ in cells]))


def halo_change(before: np.ndarray[Any, Any], after: np.ndarray[Any, Any],
                main_after: np.ndarray[Any, Any], main_before: np.ndarray[Any, Any]
                ) -> np.ndarray[Any, np.dtype[np.float64]]:
    """Per cell of :func:`vision.geometry.halo_cells`, its change between two
    :func:`halo_picture` (``after`` lit as the main board ``main_after`` is onto
    ``main_before``), best over shifts up to SHIFT, less the median cell's."""
    best = _best_shift(before, _match_light_with(after, main_after, main_before), SHIFT)
    values = best[_halo_slots()]
    return np.asarray(np.maximum(values - float(np.median(values)), 0.0), dtype=np.float64)


def halo_bare(picture: np.ndarray[Any, Any], table: np.ndarray[Any, Any]
              ) -> np.ndarray[Any, np.dtype[np.float64]] | None:
    """Per cell of :func:`vision.geometry.halo_cells` of a :func:`halo_picture`, the share
    of it within BARE_TOLERANCE (Lab) of the table's colour: the median of the ``table``
    cells (those no piece is seen over). The whole cell, as :func:`vision.geometry.beyond`
    measures what a piece covers. None when there is no such table: no ``table`` cell, or
    under TABLE_PLAIN of their pixels near their median (a patterned cloth, the black
    player's sleeves, a room beyond the table's edge: a piece's head there would look no
    different from them)."""
    s = SMALL
    side = picture.shape[0] // s
    inner = picture.reshape(side, s, side, s, 3).transpose(0, 2, 1, 3, 4)
    rows, cols = _halo_slots()
    pixels = inner[rows, cols].reshape(len(rows), -1, 3)
    if not table.any():
        return None
    colour = np.median(pixels[table].reshape(-1, 3), axis=0)
    near = np.linalg.norm(pixels - colour, axis=2) <= BARE_TOLERANCE
    if float(near[table].mean()) < TABLE_PLAIN:
        return None
    return np.asarray(near.mean(axis=1), dtype=np.float64)


def threshold(change: np.ndarray[Any, Any]) -> float:
    """The change a square needs to count as changed: above the board's own noise."""
    med = float(np.median(change))
    mad = float(np.median(np.abs(change - med))) * 1.4826
    return max(CHANGE_FLOOR, med + NOISE_MADS * mad)


def changed_cells(before: Any, after: Any, side: int) -> np.ndarray[Any, np.dtype[np.bool_]]:
    """(side, side), row 0 = rank 8: the cells of the main board whose Lab distance from
    ``before`` to ``after``, compared as :func:`change_map` compares them (lit alike,
    aligned), is above the cells' own noise (:func:`threshold`)."""
    a, b = _compared(before, after)
    diff = a - b
    distance = np.sqrt(np.einsum("ijc,ijc->ij", diff, diff))
    cells = cv2.resize(distance, (side, side), interpolation=cv2.INTER_AREA)
    return np.asarray(cells > threshold(cells))


def shifted_windows(corners: Corners,
                    shifts: tuple[tuple[int, int], ...] = WINDOW_SHIFTS) -> list[Corners]:
    """The 8x8 windows of the lattice of the board at ``corners`` moved by ``shifts`` (files,
    ranks; ``corners`` itself first): a lattice repeats, and a crowded or partly hidden
    board can be found a square off."""
    board = np.array([[0, 0], [8, 0], [8, 8], [0, 8]], dtype=np.float32)
    h = cv2.getPerspectiveTransform(board, np.asarray(corners, dtype=np.float32))
    out = []
    for dx, dy in shifts:
        moved = (board + np.array([dx, dy], dtype=np.float32)).reshape(-1, 1, 2)
        out.append(np.asarray(cv2.perspectiveTransform(moved, h).reshape(4, 2),
                              dtype=np.float32))
    return out


def grid_alignment(warped: Any) -> float:
    """How sharply the warped board's square edges fall on the lattice lines: the median (over
    rows, so pieces and a hand on part of the board do not count) horizontal and vertical
    gradient on the 7 inner lines, over the median elsewhere. A camera bumped by even a third
    of a square drops it several-fold; the ratio does not depend on the light."""
    g = cv2.cvtColor(cv2.resize(main_part(warped), (8 * SMALL, 8 * SMALL),
                                interpolation=cv2.INTER_AREA),
                     cv2.COLOR_BGR2GRAY).astype(np.float32)
    profile = (np.median(np.abs(cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3)), axis=0)
               + np.median(np.abs(cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3)), axis=1))
    lines = [k * SMALL + d for k in range(1, 8) for d in (-1, 0)]
    return float(profile[lines].mean() / (float(np.median(profile)) + 1e-3))
