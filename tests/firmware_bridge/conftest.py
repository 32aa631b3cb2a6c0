"""Fixtures for the firmware_bridge tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fb_ptyboard import ScriptedBoard


@pytest.fixture
def scripted() -> Iterator[ScriptedBoard]:
    """A scripted board on a fresh pty, closed after the test."""
    board = ScriptedBoard()
    yield board
    board.close()
