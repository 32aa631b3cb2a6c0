"""Shared data paths for the vision tests (the data is read in place, never copied)."""

from __future__ import annotations

from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "vision"
LABELS = DATA / "photos" / "labels.csv"
VIDEO = DATA / "videos" / "scholarsmate.avi"
SCHOLAR_CORNERS = "[[137,374],[140,5],[506,10],[507,377]]"


@pytest.fixture
def data() -> Path:
    if not LABELS.is_file():
        pytest.skip("shared vision data not present")
    return DATA
