"""The serve harness never lets a hung ``serve`` hang the test run.

Why: once in a full run a ``serve phone://`` under test did not end on SIGTERM and the run
waited about nine minutes. :func:`tests.serve.harness.stop` now waits a limited time, has the
process print every thread's stack (SIGABRT through the fault handler), kills it and fails the
test with those stacks; :func:`tests.serve.harness.read_line` does not wait for ever either.
"""

from __future__ import annotations

import sys
import time

import pytest

from tests.serve.harness import ROLES, launch, read_line, stop

HUNG = ("import signal, time\n"
        "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
        "for role in {roles!r}: print(role + ': http://127.0.0.1:1/', flush=True)\n"
        "def wedged():\n"
        "    while True: time.sleep(0.05)\n"
        "wedged()\n")


def test_a_serve_that_ignores_sigterm_fails_the_test_with_its_stacks() -> None:
    proc, urls = launch([sys.executable, "-c", HUNG.format(roles=ROLES)])
    assert set(urls) == set(ROLES)
    start = time.monotonic()
    with pytest.raises(AssertionError) as failed:
        stop(proc, timeout=1.0)
    assert time.monotonic() - start < 20
    assert proc.poll() is not None  # killed
    message = str(failed.value)
    assert "did not stop within 1 s of SIGTERM" in message
    assert "wedged" in message  # the stack of the thread that hung


def test_a_serve_that_prints_nothing_fails_the_test() -> None:
    proc, _ = launch([sys.executable, "-c", HUNG.format(roles=ROLES)])
    start = time.monotonic()
    with pytest.raises(AssertionError, match="printed no line within 1 s"):
        read_line(proc, timeout=1.0)
    assert time.monotonic() - start < 30 and proc.poll() is not None
