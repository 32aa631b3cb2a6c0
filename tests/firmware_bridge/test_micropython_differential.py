"""The firmware core on the real MicroPython interpreter and on CPython: same inputs, same bytes.

``fw_drive.py`` feeds framing, COBS, CRC, the protocol and the firmware logic (scans with
bounce, host frames good and bad, buttons, die, LED frames, CONFIG, a wrapping tick clock) from
one seeded generator and prints all they produce; it runs under MicroPython's Unix port (with
the Pico's heap size or less) and under CPython, and the two outputs must be identical. A
construct only CPython has (a dataclass, ``int.bit_count``, ``struct.error``...) fails here,
under MicroPython, with its traceback in the assertion message.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_bridge.unixport import HEAP, pico_layout

DRIVER = Path(__file__).with_name("fw_drive.py")


def _run(argv: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, env={**os.environ, **env}, capture_output=True, text=True,
                          timeout=60, check=False)


def _first_difference(a: list[str], b: list[str]) -> str:
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return f"line {i + 1}:\n  micropython: {x}\n  cpython:     {y}"
    return f"lengths differ: {len(a)} lines vs {len(b)}"


@pytest.mark.parametrize(("seed", "steps"), [(1, 400), (2, 400), (3, 1500), (4, 600)])
def test_same_output_under_micropython_and_cpython(micropython: str, tmp_path: Path, seed: int,
                                                   steps: int) -> None:
    lib = pico_layout(tmp_path / "lib")  # gkfw/ as on the Pico
    args = [str(DRIVER), str(seed), str(steps)]
    mp = _run([micropython, "-X", f"heapsize={HEAP}", *args], {"MICROPYPATH": str(lib)})
    # (MicroPython prints an uncaught exception's traceback on stdout.)
    tail = "\n".join(mp.stdout.splitlines()[-8:])
    assert mp.returncode == 0, f"under MicroPython:\n{tail}\n{mp.stderr}"
    cp = _run([sys.executable, *args], {"PYTHONPATH": str(lib)})
    assert cp.returncode == 0, f"under CPython:\n{cp.stderr}"
    mp_lines, cp_lines = mp.stdout.splitlines(), cp.stdout.splitlines()
    assert mp.stdout == cp.stdout, _first_difference(mp_lines, cp_lines)
    # ... and the run exercised what it claims to.
    kinds = [line.split(" ", 1)[0] for line in mp_lines]
    assert kinds[-1] == "end" and kinds.count("cobs") == 60 and kinds.count("got") > 20
    assert kinds.count("tx") > 40 and kinds.count("step") > 10 and kinds.count("led") >= 1
    assert any(line.endswith("raises ValueError") for line in mp_lines)
    assert all(line.endswith(" T") for line in mp_lines if line.startswith("ms "))
    assert "check 10673 10673" in mp_lines  # CRC-16/CCITT-FALSE of "123456789" is 0x29B1
