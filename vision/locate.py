"""Automatic board localisation (placeholder until implemented)."""

from __future__ import annotations

from vision.errors import BoardNotFoundError
from vision.geometry import Corners
from vision.sources import Frame


def locate_board(image: Frame) -> Corners:
    """Find the board's outer corners a8, h8, h1, a1; raises BoardNotFoundError."""
    raise BoardNotFoundError("automatic board localisation is not implemented yet")
