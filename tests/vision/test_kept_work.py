"""Work the tracker keeps or reads in place instead of doing again gives what doing it again
gives: the shifted squares' regions read as views of the picture (``vision.change``), and
the pieces' outlines kept per camera place (``vision.geometry.Drawings``). Both were added
for speed only (docs/vision.md, *The tracker's cost per photo*); these pin that no value
changed."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision import variations as V
from vision.change import ROI_MARGIN, SMALL, _rolled_regions
from vision.geometry import Drawings, beyond, silhouettes_and_centres, swept


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("squares", [(8, 8), (14, 14), (3, 16)])
def test_shifted_regions_are_those_of_the_rolled_picture(dtype: type,
                                                         squares: tuple[int, int]) -> None:
    rows, cols = squares
    b = np.random.default_rng(rows * cols).random((rows * SMALL, cols * SMALL, 3)).astype(dtype)
    m = int(round(SMALL * ROI_MARGIN))
    for dy in range(-m - 2, m + 3):
        for dx in (-m - 2, -1, 0, 3, m):
            rolled = np.roll(b, (dy, dx), axis=(0, 1)).reshape(rows, SMALL, cols, SMALL, 3)
            want = rolled[:, m:SMALL - m, :, m:SMALL - m]
            assert np.array_equal(_rolled_regions(b, rows, cols, dy, dx, m), want)


def test_outlines_kept_are_those_drawn_anew_and_only_for_the_last_places() -> None:
    heights = (0.5, 1.0, 1.6)
    cameras = V.hand_cameras(0.0, 35.0, 5, 3)
    shape = (720, 1280)
    drawings = Drawings()
    for k, camera in enumerate(cameras):
        corners = V.camera_corners(camera)
        earlier = V.camera_corners(cameras[k - 1])
        for _ in range(2):  # drawn, then kept
            kept = silhouettes_and_centres(corners, shape, heights, ROI_MARGIN,
                                           drawings=drawings)
            anew = silhouettes_and_centres(corners, shape, heights, ROI_MARGIN)
            assert kept is not None and anew is not None
            assert all(np.array_equal(a, b) for a, b in zip(kept, anew, strict=True))
            assert np.array_equal(swept(earlier, corners, shape, heights, drawings=drawings),
                                  swept(earlier, corners, shape, heights))
            assert np.array_equal(beyond(corners, shape, heights, drawings=drawings),
                                  beyond(corners, shape, heights))
        assert len(drawings._kept) <= Drawings.PLACES
    assert len(drawings._kept) == Drawings.PLACES
