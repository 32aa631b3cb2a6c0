"""What cannot run here is still checked: the files that go to the Pico compile with
``mpy-cross`` for the RP2040 (Cortex-M0+, ``armv6m``), and type-check against MicroPython's own
RP2 stubs (PyPI ``micropython-rp2-rpi-pico-stubs``, installed by ``scripts/setup`` into
``.cache/mpstubs``), laid out as on the Pico: ``main.py`` and ``gkfw/``."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_bridge.unixport import FIRMWARE, PACKAGE_FILES, ROOT

MPY_CROSS = Path(sys.executable).with_name("mpy-cross")
STUBS = ROOT / ".cache" / "mpstubs"
ARMV6M = 4  # MP_NATIVE_ARCH_ARMV6M in an .mpy header's third byte (>> 2)
#: Errors inside the third-party stubs themselves are theirs, not the firmware's.
MYPY_INI = """[mypy]
strict = True
warn_unreachable = True
[mypy-machine,neopixel,rp2.*,micropython,vfs,_mpy_shed.*]
ignore_errors = True
"""


def pico_files(folder: Path) -> list[Path]:
    """Copy the firmware as it goes on the Pico (docs/firmware.md); return the copies."""
    (folder / "gkfw").mkdir(parents=True)
    out = [folder / "main.py"]
    shutil.copy(FIRMWARE / "pico_main.py", out[0])
    for name in PACKAGE_FILES:
        out.append(folder / "gkfw" / name)
        shutil.copy(FIRMWARE / name, out[-1])
    return out


@pytest.mark.parametrize("emit", ["bytecode", "native"])
def test_mpy_cross_compiles_for_the_rp2040(tmp_path: Path, emit: str) -> None:
    for src in pico_files(tmp_path):
        mpy = src.with_suffix(".mpy")
        proc = subprocess.run([str(MPY_CROSS), "-march=armv6m", "-X", f"emit={emit}",
                               "-o", str(mpy), str(src)],
                              capture_output=True, text=True, timeout=60, check=False)
        assert proc.returncode == 0, f"{src.name}: {proc.stderr}"
        header = mpy.read_bytes()[:4]
        assert header[:2] == b"M\x06", f"{src.name}: not an .mpy v6 file"
        if emit == "native":  # machine code for the Pico's Cortex-M0+
            assert header[2] >> 2 == ARMV6M, f"{src.name}: arch {header[2] >> 2}"


def test_types_against_the_micropython_rp2_stubs(tmp_path: Path) -> None:
    assert (STUBS / "machine.pyi").is_file(), "no MicroPython stubs: run scripts/setup"
    pico_files(tmp_path)
    (tmp_path / "mypy.ini").write_text(MYPY_INI)
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", "mypy.ini", "--custom-typeshed-dir",
         str(STUBS), "--cache-dir", str(tmp_path / ".mypy_cache"), "main.py", "gkfw"],
        cwd=tmp_path, env={"MYPYPATH": str(STUBS), "PATH": "/usr/bin:/bin"},
        capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Success: no issues found in 7 source files" in proc.stdout
