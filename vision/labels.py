"""Reading a labels CSV (``file,fen_board,corners_a8_h8_h1_a1,...``).

A row's ``file`` is resolved relative to the CSV's own folder first, then to that folder's parent
(the shipped ``photos/labels.csv`` names ``photos/pcwawc/x.jpg``, i.e. relative to the parent);
the first that exists wins. Extra columns are ignored.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.classify import IntGrid, fen_to_grid
from vision.errors import CornersError, LabelsError, SourceNotFoundError
from vision.geometry import Corners, parse_corners

REQUIRED = ("file", "fen_board", "corners_a8_h8_h1_a1")


@dataclass(frozen=True)
class LabelledPhoto:
    """One labelled photo: its resolved path, expected grid (row 0 = rank 8) and corners."""

    path: Path
    grid: IntGrid
    corners: Corners

    @property
    def empty(self) -> bool:
        """True for an empty board (its corner order is ambiguous by 180 degrees)."""
        return not bool(np.any(self.grid))


def resolve(csv_path: Path, name: str) -> Path:
    """The photo path for a row's ``file`` (see module docstring); raises SourceNotFoundError."""
    p = Path(name)
    if p.is_absolute():
        candidates = [p]
    else:
        candidates = [csv_path.parent / p, csv_path.parent.parent / p]
    for c in candidates:
        if c.is_file():
            return c
    raise SourceNotFoundError(
        f"photo not found: {name} (looked in {csv_path.parent} and its parent)")


def read_labels(csv_path: str | Path) -> list[LabelledPhoto]:
    """Read and check every row of a labels CSV.

    Raises:
        SourceNotFoundError: the CSV, or a photo it names, does not exist.
        LabelsError: missing columns, a bad FEN or bad corners (message names the line).
    """
    path = Path(csv_path)
    if not path.is_file():
        raise SourceNotFoundError(f"no such labels file: {path}")
    try:
        with path.open(newline="", encoding="utf-8-sig") as fh:
            rows = list(csv.DictReader(fh))
    except (UnicodeDecodeError, csv.Error) as e:
        raise LabelsError(f"{path}: not a readable CSV ({e})") from e
    if not rows:
        raise LabelsError(f"{path}: no rows")
    missing = [c for c in REQUIRED if c not in rows[0]]
    if missing:
        raise LabelsError(f"{path}: missing column(s) {', '.join(missing)}")
    out = []
    for line, row in enumerate(rows, start=2):
        try:
            grid = fen_to_grid(row["fen_board"] or "")
            corners = parse_corners(row["corners_a8_h8_h1_a1"] or "")
        except (ValueError, CornersError) as e:
            raise LabelsError(f"{path}:{line}: {e}") from e
        out.append(LabelledPhoto(resolve(path, row["file"] or ""), grid, corners))
    return out
