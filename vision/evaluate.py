"""Scoring the pipeline on labelled photos (the ``vision-eval`` command's figures)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass

import numpy as np

from vision.classify import EMPTY, IntGrid, classify_board
from vision.errors import BoardNotFoundError
from vision.geometry import SQUARE, Corners, rotate_corners, warp_board
from vision.labels import LabelledPhoto
from vision.sources import Frame, read_image

Locator = Callable[[Frame], Corners]


@dataclass(frozen=True)
class EvalSummary:
    """The figures printed by ``vision-eval`` (the JSON keys are these field names)."""

    photos: int
    corners: str
    occupancy_error_pct: float
    colour_error_pct: float
    perfect_boards_pct: float
    corner_error_px: float | None
    corner_error_median_px: float | None
    boards_found_pct: float
    ms_per_photo: float

    def as_dict(self) -> dict[str, object]:
        """The summary as a JSON-ready dict."""
        return asdict(self)


def corner_error(found: Corners, truth: Corners, orientation_free: bool) -> float:
    """Mean distance in pixels between found and labelled corners.

    With ``orientation_free`` (empty boards) the 180-degree turn of the labels counts as well.
    """
    turns = (0, 2) if orientation_free else (0,)
    return min(float(np.linalg.norm(rotate_corners(found, t) - truth, axis=1).mean())
               for t in turns)


def square_size(corners: Corners) -> float:
    """Mean side of one square in image pixels."""
    sides = np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1)
    return float(sides.mean() / 8.0)


def evaluate(photos: Sequence[LabelledPhoto], locate: Locator | None = None) -> EvalSummary:
    """Classify every photo (with its labelled corners, or ``locate``'s) and score it.

    A photo whose board is not found (or found more than a quarter square off) counts all its
    64 squares as wrong.
    """
    occ_err = col_err = perfect = found_n = 0
    corner_errs: list[float] = []
    elapsed = 0.0
    for ph in photos:
        image = read_image(ph.path)
        t0 = time.perf_counter()
        corners: Corners | None = ph.corners
        if locate is not None:
            try:
                corners = locate(image)
            except BoardNotFoundError:
                corners = None
        labels: IntGrid | None = None
        if corners is not None:
            labels = classify_board(warp_board(image, corners)).labels
        elapsed += time.perf_counter() - t0
        ok = corners is not None
        if locate is not None and corners is not None:
            err = corner_error(corners, ph.corners, ph.empty)
            corner_errs.append(err)
            ok = err <= 0.25 * square_size(ph.corners)
        if not ok or labels is None:
            occ_err += 64
            col_err += 64
            continue
        found_n += 1
        o = int(np.sum((labels != EMPTY) != (ph.grid != EMPTY)))
        c = int(np.sum(labels != ph.grid))
        occ_err += o
        col_err += c
        perfect += c == 0
    n = max(len(photos), 1)
    return EvalSummary(
        photos=len(photos),
        corners="auto" if locate is not None else "given",
        occupancy_error_pct=round(100.0 * occ_err / (64 * n), 2),
        colour_error_pct=round(100.0 * col_err / (64 * n), 2),
        perfect_boards_pct=round(100.0 * perfect / n, 2),
        corner_error_px=(round(float(np.mean(corner_errs)), 2) if corner_errs else None)
        if locate is not None else 0.0,
        corner_error_median_px=(round(float(np.median(corner_errs)), 2) if corner_errs else None)
        if locate is not None else 0.0,
        boards_found_pct=round(100.0 * found_n / n, 2),
        ms_per_photo=round(1000.0 * elapsed / n, 2),
    )


__all__ = ["SQUARE", "EvalSummary", "corner_error", "evaluate"]
