"""The nightly run's switch: ``GRAVEKEEPER_LONG=1`` adds the soak cases.

Why: the suite must stay within about four minutes on two cores; cases that repeat one already
run (another seed, another frame rate, another viewpoint of the same kind) run only then, and
so do the controls that show a test's data is hard enough (the same frames without the feature
lose the game).
"""

from __future__ import annotations

import os
from typing import TypeVar

import pytest

T = TypeVar("T")

LONG = bool(os.environ.get("GRAVEKEEPER_LONG"))

#: A test that runs only in the nightly run: a control of the test data itself (without the
#: feature the game is lost, so the data is hard enough), which proves nothing of the product
#: that the case with the feature does not.
nightly_only = pytest.mark.skipif(not LONG, reason="nightly run only (GRAVEKEEPER_LONG=1)")


def nightly(*cases: T) -> list[T]:
    """``cases`` with ``GRAVEKEEPER_LONG`` set, none otherwise (for a parametrize list)."""
    return list(cases) if LONG else []
