"""Fixtures for the firmware_bridge tests."""

from __future__ import annotations

import shutil
from collections.abc import Iterator

import pytest
from fb_ptyboard import ScriptedBoard

from firmware_bridge.unixport import find_micropython


@pytest.fixture
def scripted() -> Iterator[ScriptedBoard]:
    """A scripted board on a fresh pty, closed after the test."""
    board = ScriptedBoard()
    yield board
    board.close()


@pytest.fixture(scope="session")
def micropython() -> str:
    """The MicroPython Unix-port interpreter ``scripts/setup`` built (never built here: it is
    cached by the setup). Skipped only where it cannot be built, for want of a C compiler."""
    path = find_micropython()
    if path is None:
        if shutil.which("cc") is None or shutil.which("make") is None:
            pytest.skip("no C compiler (cc, make): MicroPython's Unix port cannot be built")
        pytest.fail("MicroPython's Unix port is not built: run scripts/setup (it builds it from "
                    "../shared/micropython)")
    return path
