"""The reference firmware's own ``pico_main.py`` run by MicroPython's Unix port, for ``sim://``.

Why: the firmware is written for MicroPython on the Pico, and CPython accepts much that
MicroPython does not (and the reverse). ``sim://?firmware=micropython`` therefore runs
``pico_main.py`` itself, unchanged, under the real ``micropython`` interpreter (built from
``shared/micropython`` by ``scripts/setup``), with ``standins/machine.py`` and
``standins/neopixel.py`` in place of the Pico's modules; the simulator on the CPython side
(:class:`firmware_bridge.sim.SimulatedBoard`) stays the owner of the switches, the buttons, the
LEDs and the pty.

:class:`UnixPortFirmware` is one power-on of that board: a ``micropython`` process whose stdin
and stdout stand for the USB CDC serial, plus two pipes for the stand-ins: requests (``S`` per
scan, ``L<hex>`` per LED frame) and replies (one line of switch and button states per scan).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Final

from firmware_bridge.errors import BridgeError

HERE: Final = Path(__file__).resolve().parent
STANDINS: Final = HERE / "standins"
FIRMWARE: Final = HERE.parent / "firmware"
ROOT: Final = HERE.parent.parent
#: Environment variable naming the ``micropython`` binary to use (else the setup's build).
ENV: Final = "GRAVEKEEPER_MICROPYTHON"
#: Heap of the Unix-port interpreter: the Pico has about 190 KiB free, and the Unix port's
#: objects are twice as big (64-bit words), so this is the stricter of the two.
HEAP: Final = "192K"
#: The firmware package's files as they go to the Pico's /lib/gkfw (docs/firmware.md).
PACKAGE_FILES: Final = ("__init__.py", "crc16.py", "cobs.py", "framing.py", "proto.py",
                        "logic.py")


class NoMicroPython(BridgeError, FileNotFoundError):  # noqa: N818 (reads as the problem)
    """No MicroPython Unix-port interpreter was found."""


def find_micropython() -> str | None:
    """Path of the ``micropython`` interpreter, or None: ``$GRAVEKEEPER_MICROPYTHON``, else the
    build ``scripts/setup`` made in ``.cache/micropython`` (the one of the shared tarball's
    hash first), else ``micropython`` on PATH."""
    env = os.environ.get(ENV)
    if env:
        return env if os.access(env, os.X_OK) else None
    cache = ROOT / ".cache" / "micropython"
    tail = "micropython/ports/unix/build-standard/micropython"
    tarball = ROOT.parent / "shared" / "micropython" / "micropython-src.tar.xz"
    if tarball.is_file():
        stamp = hashlib.sha256(tarball.read_bytes()).hexdigest()[:16]
        if os.access(cache / stamp / tail, os.X_OK):
            return str(cache / stamp / tail)
    builds = sorted(cache.glob(f"*/{tail}"), key=lambda p: p.stat().st_mtime, reverse=True)
    for build in builds:
        if os.access(build, os.X_OK):
            return str(build)
    return shutil.which("micropython")


def require_micropython() -> str:
    """Like :func:`find_micropython` but raises :class:`NoMicroPython` with what to do."""
    path = find_micropython()
    if path is None:
        raise NoMicroPython(
            "no MicroPython interpreter: run scripts/setup (it builds the Unix port from "
            f"../shared/micropython; needs cc and make) or set {ENV}")
    return path


def pico_layout(folder: Path) -> Path:
    """Make ``folder/gkfw`` and ``folder/pico_main.py`` (links to the firmware), as on the
    Pico's filesystem; returns ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, target in (("gkfw", FIRMWARE), ("pico_main.py", FIRMWARE / "pico_main.py")):
        link = folder / name
        if not link.is_symlink():
            link.symlink_to(target)
    return folder


def crash_line(log: str) -> str:
    """One line from a MicroPython traceback: the error and where it was raised."""
    lines = [ln.strip() for ln in log.strip().splitlines() if ln.strip()]
    if not lines:
        return "no output"
    where = [ln for ln in lines if ln.startswith("File ")]
    return lines[-1] + (f" ({where[-1]})" if where else "")


class UnixPortFirmware:
    """One power-on of ``pico_main.py`` under MicroPython (see the module docstring).

    Nothing runs until :meth:`start`; :meth:`stop` kills the process (the power goes).
    """

    def __init__(self, interpreter: str, folder: Path, *,
                 modules: list[tuple[str, int, int, int]], debounce_scans: int,
                 scan_ms: int, snapshot_ms: int, leds: bool) -> None:
        self.interpreter = interpreter
        self.folder = folder
        total = sum(w * h for _n, _k, w, h in modules)
        self.config = {
            "modules": [list(m) for m in modules],
            # The 8x8 diode matrix when the board is exactly that; the 74HC165 chain otherwise.
            "scanner": "matrix" if total == 64 else "165",
            "debounce": debounce_scans, "scan_ms": max(1, scan_ms),
            "snapshot_ms": snapshot_ms, "leds": leds}
        self.process: subprocess.Popen[bytes] | None = None
        self.stdout = self.requests = self._replies = self._stdin = -1
        self.log_path = folder / "firmware.log"

    def start(self, held: str = "") -> None:
        """Start the interpreter on ``pico_main.py`` (it boots: HELLO, then a snapshot);
        ``held``: the buttons down at power-up, "0"/"1" per button."""
        lib = pico_layout(self.folder / "lib")
        req_r, req_w = os.pipe()
        rep_r, rep_w = os.pipe()
        config = dict(self.config, requests=f"/dev/fd/{req_w}", replies=f"/dev/fd/{rep_r}",
                      held=held)
        env = dict(os.environ, MICROPYPATH=f"{lib}:{STANDINS}")
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                [self.interpreter, "-X", f"heapsize={HEAP}", str(STANDINS / "run_pico.py"),
                 json.dumps(config)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log,
                pass_fds=(req_w, rep_r), env=env)
        os.close(req_w)
        os.close(rep_r)
        assert self.process.stdin is not None and self.process.stdout is not None
        self._stdin = self.process.stdin.fileno()
        self.stdout = self.process.stdout.fileno()
        self.requests, self._replies = req_r, rep_w

    def write_host(self, data: bytes) -> None:
        """Bytes from the host to the board's USB serial (the process's stdin)."""
        with contextlib.suppress(BrokenPipeError):
            os.write(self._stdin, data)

    def reply(self, line: bytes) -> None:
        """Answer one scan request."""
        with contextlib.suppress(BrokenPipeError):
            os.write(self._replies, line)

    def log(self) -> str:
        """What the interpreter wrote on stderr (tracebacks), across power-ons."""
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def stop(self) -> None:
        """Kill the process and close the pipes; idempotent."""
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            for stream in (self.process.stdin, self.process.stdout):
                if stream is not None:
                    with contextlib.suppress(OSError):
                        stream.close()
            self.process = None
        for fd in (self.requests, self._replies):
            if fd >= 0:
                os.close(fd)
        self.stdout = self.requests = self._replies = self._stdin = -1
