"""The nightly run's switch: ``GRAVEKEEPER_LONG=1`` adds the soak cases.

Why: the suite must stay within about four minutes on two cores; cases that repeat one already
run (another seed, another frame rate, another viewpoint of the same kind) run only then.
"""

from __future__ import annotations

import os
from typing import TypeVar

T = TypeVar("T")

LONG = bool(os.environ.get("GRAVEKEEPER_LONG"))


def nightly(*cases: T) -> list[T]:
    """``cases`` with ``GRAVEKEEPER_LONG`` set, none otherwise (for a parametrize list)."""
    return list(cases) if LONG else []
