"""``sim://``: the reference firmware running as a virtual board behind a real pseudo-terminal.

:class:`SimulatedBoard` runs :class:`~firmware_bridge.firmware.logic.Firmware` (the same code
as on the Pico) in a thread, scanning a set of virtual reed switches, and talks through the
master side of ``os.openpty()``. The host driver opens the slave side with pyserial, exactly as
it opens ``/dev/ttyACM0``; :attr:`SimulatedBoard.port_path` is a symlink that survives
:meth:`~SimulatedBoard.unplug`/:meth:`~SimulatedBoard.replug` (like a udev name).

URL: ``sim://?variant=deadmans&start=standard&debounce=2`` with options

- ``variant``: a built-in rig name (module layout and squares); or ``modules=main,hell``;
- ``start``: ``standard`` (ranks 1, 2, 7, 8 of the main board; the default when the rig has
  them), ``empty``, or a comma-separated list of squares;
- ``debounce`` (scans, default 2), ``scan_ms`` (scan period, default 0.5), ``snapshot_ms``
  (periodic snapshot, default 2000), ``leds`` (``0`` for a board without LEDs);
- ``firmware``: ``python`` (default: the firmware's logic in a thread of this process) or
  ``micropython``: ``pico_main.py`` itself under MicroPython's Unix port, with stand-ins for
  the Pico's pins and LEDs (:mod:`firmware_bridge.unixport`; scan period in whole ms, at least
  1; buttons are held 40 ms, as the firmware debounces them; no die reader, as on the Pico).

The simulator behind a ``sim://`` sensor is ``sensor.simulator``::

    with open_sensor("sim://?variant=standard") as sensor:
        sensor.simulator.lift("e2"); sensor.simulator.place("e4")
"""

from __future__ import annotations

import contextlib
import errno
import os
import random
import select
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, Final

from firmware_bridge.board import BoardSensor, default_rig_for, pyserial_factory
from firmware_bridge.errors import BoardDisconnected, BridgeError, SensorTimeout
from firmware_bridge.events import BUTTON_NAMES
from firmware_bridge.firmware import proto
from firmware_bridge.firmware.framing import FrameDecoder, encode_frame
from firmware_bridge.firmware.logic import Firmware
from firmware_bridge.rig import Rig, builtin_rig
from firmware_bridge.sensor import Clock
from firmware_bridge.unixport import UnixPortFirmware, crash_line, require_micropython
from firmware_bridge.urls import Url
from firmware_bridge.vport import VirtualPort

_KINDS: Final = {"grid": proto.KIND_GRID, "ring": proto.KIND_RING, "strip": proto.KIND_STRIP}
#: Squares occupied at the start of a chess game (main region).
STANDARD_START: Final = frozenset(f"{f}{r}" for f in "abcdefgh" for r in "1278")
#: The firmwares a simulated board can run (see the module docstring).
FIRMWARES: Final = ("python", "micropython")
#: How long a button is held down, then left up, under ``firmware=micropython``: longer than
#: ``pico_main.BUTTON_DEBOUNCE_MS``, so each press counts once.
BUTTON_HOLD_S: Final = 0.04

Cell = tuple[int, int]  # (module index, cell index)
Step = list[tuple[Cell, int]]  # raw switch assignments applied before one scan


class SimulatedBoard:
    """A virtual Gravekeeper board (see the module docstring). No I/O until :meth:`start`.

    ``rig`` gives the module layout and the square under each cell; ``start`` the occupied
    squares at power-up; ``debounce_scans`` is the firmware's N; ``scan_period`` is seconds
    between scans while switches are settling; ``snapshot_period_ms`` the periodic snapshot.

    Piece and button methods wait (up to ``timeout`` s) until the firmware has scanned and
    debounced the change, so a test can act and then read the host's events; pass
    ``wait=False`` to return at once.

    ``firmware="micropython"`` runs ``pico_main.py`` under the Unix-port interpreter
    ``micropython`` (a path; default: the one ``scripts/setup`` built) instead of the logic in
    a thread; :attr:`firmware_log` then holds what it wrote on stderr.
    """

    def __init__(self, rig: Rig, *, start: Iterable[str] = (), debounce_scans: int = 2,
                 scan_period: float = 0.0005, snapshot_period_ms: int = 2000,
                 leds: bool = True, seed: int | None = None, firmware: str = "python",
                 micropython: str | None = None) -> None:
        if firmware not in FIRMWARES:
            raise ValueError(f"unknown firmware {firmware!r} (known: {', '.join(FIRMWARES)})")
        self.firmware = firmware
        self._interpreter = (micropython or require_micropython()
                             if firmware == "micropython" else "")
        self.rig = rig
        self.debounce_scans = debounce_scans
        self.scan_period = scan_period
        self.snapshot_period_ms = snapshot_period_ms
        self.has_leds = leds
        self._rng = random.Random(seed)
        self._raw = [[0] * m.size for m in rig.modules]
        for sq in start:
            self._set_raw(self.cell(sq), 1)
        self._lock = threading.Condition()
        self._script: deque[Step] = deque()
        self._commands: deque[Callable[[], None]] = deque()
        self._scans = 0
        self._leds = [[(0, 0, 0)] * m.size for m in rig.modules]
        self.led_frames = 0
        self._corrupt = 0
        self.mute = False
        self._master = -1
        self._wake_r = self._wake_w = -1
        self._port = VirtualPort("gk-sim-")
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()
        self._firmware: Firmware | None = None
        self._boot_ms = 0.0
        # firmware=micropython: the process, its scan requests so far, buttons held, a partial
        # request line, and the stderr of earlier power-ons.
        self._unixport: UnixPortFirmware | None = None
        self._requests = 0
        self._buttons = [0] * max(5, len(BUTTON_NAMES))
        self._pending = b""
        self._old_log = ""

    # -- geometry ---------------------------------------------------------------------------
    def cell(self, square: str) -> Cell:
        """(module index, cell index) under ``square``. Raises RigError if none."""
        name, cell = self.rig.cell_of(square)
        return [m.name for m in self.rig.modules].index(name), cell

    def _set_raw(self, cell: Cell, value: int) -> None:
        self._raw[cell[0]][cell[1]] = value

    @property
    def port_path(self) -> str:
        """Path the host opens (a symlink to the current pty slave)."""
        return self._port.path

    @property
    def plugged(self) -> bool:
        """True while the virtual cable is in."""
        return self._master >= 0

    @property
    def occupied(self) -> frozenset[str]:
        """Squares whose switch is closed right now (raw, before debounce)."""
        with self._lock:
            return frozenset(sq for m, mod in enumerate(self.rig.modules)
                             for c, sq in enumerate(mod.cells) if sq and self._raw[m][c])

    @property
    def leds(self) -> dict[str, tuple[int, int, int]]:
        """The LED frame the host last latched: square -> RGB, lit squares only."""
        with self._lock:
            return {sq: rgb for m, mod in enumerate(self.rig.modules)
                    for sq, rgb in zip(mod.cells, self._leds[m], strict=True)
                    if sq and rgb != (0, 0, 0)}

    # -- lifecycle --------------------------------------------------------------------------
    def start(self) -> SimulatedBoard:
        """Create the pty, boot the firmware and start the board's thread. Returns self.

        Raises:
            BridgeError: the MicroPython firmware did not boot (its traceback in the message).
        """
        self._port.create()
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_w, False)
        try:
            self._plug()
        except BridgeError:
            self._unplug()
            self._port.remove()
            for fd in (self._wake_r, self._wake_w):
                os.close(fd)
            self._wake_r = self._wake_w = -1
            raise
        self._thread = threading.Thread(target=self._run, name="sim board", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop the board's thread and remove the pty; idempotent."""
        if self._stopping.is_set():
            return
        self._stopping.set()
        self._wake()
        if self._thread is not None:
            self._thread.join(2.0)
        self._unplug()
        for fd in (self._wake_r, self._wake_w):
            if fd >= 0:
                os.close(fd)
        self._wake_r = self._wake_w = -1
        self._port.remove()

    def __enter__(self) -> SimulatedBoard:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def firmware_log(self) -> str:
        """What the MicroPython firmware wrote on stderr (tracebacks); "" for ``python``."""
        log = self._unixport.log() if self._unixport is not None else ""
        return self._old_log + log

    def _plug(self) -> None:
        self._master = self._port.plug()
        self._boot_ms = time.monotonic() * 1000
        if self.firmware == "micropython":
            self._unixport = UnixPortFirmware(
                self._interpreter, Path(os.path.dirname(self.port_path)),
                modules=self._module_specs(), debounce_scans=self.debounce_scans,
                scan_ms=round(self.scan_period * 1000), snapshot_ms=self.snapshot_period_ms,
                leds=self.has_leds)
            self._requests = 0
            self._pending = b""
            self._unixport.start("".join("1" if v else "0" for v in self._buttons))
            self._boot_unixport(self._unixport)
            return
        self._boot_python()

    def _boot_python(self) -> None:
        with self._lock:
            self._leds = [[(0, 0, 0)] * m.size for m in self.rig.modules]  # powered up dark
        self._firmware = Firmware(
            self._module_specs(), scan=self._scan, write=self._write, clock_ms=self._clock_ms,
            show_leds=self._show_leds if self.has_leds else None,
            debounce_scans=self.debounce_scans, snapshot_period_ms=self.snapshot_period_ms)
        self._firmware.boot()

    def _module_specs(self) -> list[tuple[str, int, int, int]]:
        return [(m.name, _KINDS[m.kind], m.width, m.height) for m in self.rig.modules]

    def _unplug(self) -> None:
        if self._unixport is not None:
            self._unixport.stop()
            self._old_log = self.firmware_log
            self._unixport.log_path.unlink(missing_ok=True)
            self._unixport = None
        self._port.unplug()
        self._master = -1
        self._firmware = None

    # -- the board's thread -----------------------------------------------------------------
    def _run(self) -> None:
        if self.firmware == "micropython":
            self._run_unixport()
            return
        next_scan = 0.0
        while not self._stopping.is_set():
            busy = bool(self._script) or (self._firmware is not None
                                          and self._firmware.debouncer.settling)
            now = time.monotonic()
            timeout = max(0.0, next_scan - now) if busy else 0.05
            fds = [self._wake_r] + ([self._master] if self._master >= 0 else [])
            ready, _, _ = select.select(fds, [], [], timeout)
            self._service(ready)
            if time.monotonic() >= next_scan:
                self._scan_once()
                next_scan = time.monotonic() + self.scan_period

    def _service(self, ready: list[int]) -> None:
        if self._wake_r in ready:
            with contextlib.suppress(BlockingIOError):
                os.read(self._wake_r, 4096)
        while self._commands:
            self._commands.popleft()()
        if self._master >= 0 and self._master in ready and self._firmware is not None:
            try:
                data = os.read(self._master, 4096)
            except OSError:
                data = b""  # the host has not opened the slave yet
            if data:
                self._firmware.receive(data)
        if self._master >= 0 and self._master in ready and self._unixport is not None:
            try:
                data = os.read(self._master, 4096)
            except OSError:
                data = b""
            if data:
                self._unixport.write_host(data)

    # -- the board's thread under firmware=micropython ----------------------------------------
    def _run_unixport(self) -> None:
        """Relay the pty and the process's serial, and answer its stand-ins' requests; the
        process scans on its own clock."""
        while not self._stopping.is_set():
            fds = [self._wake_r] + ([self._master] if self._master >= 0 else [])
            mp = self._unixport
            if mp is not None and mp.requests >= 0:
                fds += [mp.stdout, mp.requests]
            ready, _, _ = select.select(fds, [], [], 0.05)
            self._service(ready)
            if mp is not None and mp is self._unixport and mp.requests >= 0:
                self._serve_unixport(mp, ready)

    def _boot_unixport(self, mp: UnixPortFirmware, timeout: float = 10.0) -> None:
        """Serve the process until its boot frames (HELLO, SNAPSHOT) are on the pty, as the
        ``python`` firmware's are when :meth:`_plug` returns (the host, opening the port
        after that, drops them and asks for its own).

        Raises:
            BridgeError: the interpreter ended or stayed silent (its stderr in the message).
        """
        decoder = FrameDecoder()
        deadline = time.monotonic() + timeout
        while mp.requests >= 0 and time.monotonic() < deadline:
            ready, _, _ = select.select([mp.stdout, mp.requests], [], [], 0.1)
            if mp.stdout in ready:
                data = os.read(mp.stdout, 65536)
                self._write(data)
                if any(f.type == proto.SNAPSHOT for f in decoder.feed(data)):
                    return
            self._serve_unixport(mp, [fd for fd in ready if fd != mp.stdout])
        raise BridgeError("the MicroPython firmware did not boot: "
                          + crash_line(self.firmware_log))

    def _serve_unixport(self, mp: UnixPortFirmware, ready: list[int]) -> None:
        if mp.stdout in ready:
            data = os.read(mp.stdout, 65536)
            if data:
                self._write(data)
        if mp.requests in ready:
            data = os.read(mp.requests, 65536)
            if not data:  # the interpreter ended (a traceback is in firmware_log)
                mp.stop()
                return
            *lines, self._pending = (self._pending + data).split(b"\n")
            for line in lines:
                if line == b"S":
                    mp.reply(self._scan_request())
                elif line.startswith(b"L"):
                    self._unixport_leds(bytes.fromhex(line[1:].decode()))

    def _scan_request(self) -> bytes:
        """A scan starts: apply the next scripted step; the reply holds cells and buttons."""
        with self._lock:
            if self._script:
                for (m, c), value in self._script.popleft():
                    self._raw[m][c] = value
            if self._requests:  # this request means the scan before it has finished
                self._scans += 1
                self._lock.notify_all()
            self._requests += 1
            cells = "".join("1" if v else "0" for cells in self._raw for v in cells)
            buttons = "".join("1" if v else "0" for v in self._buttons)
        return f"{cells} {buttons}\n".encode()

    def _unixport_leds(self, rgb: bytes) -> None:
        with self._lock:
            i = 0
            for m, module in enumerate(self.rig.modules):
                self._leds[m] = [(rgb[j], rgb[j + 1], rgb[j + 2])
                                 for j in range(3 * i, 3 * (i + module.size), 3)]
                i += module.size
            self.led_frames += 1
            self._lock.notify_all()

    def _scan_once(self) -> None:
        with self._lock:
            if self._script:
                for (m, c), value in self._script.popleft():
                    self._raw[m][c] = value
        if self._firmware is not None:
            self._firmware.poll()
        with self._lock:
            self._scans += 1
            self._lock.notify_all()

    def _scan(self) -> list[list[int]]:
        with self._lock:
            return [list(cells) for cells in self._raw]

    def _clock_ms(self) -> int:
        return int(time.monotonic() * 1000 - self._boot_ms)

    def _write(self, data: bytes) -> None:
        if self.mute or self._master < 0:
            return
        if self._corrupt > 0:
            self._corrupt -= 1
            buf = bytearray(data)
            i = len(buf) // 2
            buf[i] = 0x7F if buf[i] != 0x7F else 0x7E  # never 0: stays inside the frame
            data = bytes(buf)
        self._raw_write(data)

    def _raw_write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            try:
                n = os.write(self._master, view)
            except OSError as exc:
                # A full pty buffer (host not reading) drops data, like a USB CDC device.
                if exc.errno in (errno.EAGAIN, errno.EIO):
                    return
                raise
            view = view[n:]

    def _show_leds(self, module: int, colours: list[tuple[int, int, int]]) -> None:
        with self._lock:
            self._leds[module] = list(colours)
            if module == len(self._leds) - 1:
                self.led_frames += 1
            self._lock.notify_all()

    def _wake(self) -> None:
        if self._wake_w >= 0:
            with contextlib.suppress(BlockingIOError):
                os.write(self._wake_w, b"x")

    # -- driving the board ------------------------------------------------------------------
    def _run_steps(self, steps: list[Step], wait: bool, timeout: float) -> None:
        with self._lock:
            if not self.plugged or self._thread is None:
                # No power (or not started): the switches change, nobody scans them.
                for step in steps:
                    for cell, value in step:
                        self._set_raw(cell, value)
                return
            self._script.extend(steps)
            # The scan applying the last step counts as the first of the N debounce scans.
            fw_scans = (self._firmware.debouncer.scans if self._firmware
                        else self.debounce_scans if self._unixport else 1)
            target = self._scans + len(self._script) + fw_scans - 1
        self._wake()
        if wait:
            self.wait_until(lambda: self._scans >= target, timeout)

    def lift(self, square: str, *, wait: bool = True, timeout: float = 2.0) -> None:
        """Open the switch under ``square`` (a piece was lifted)."""
        self._run_steps([[(self.cell(square), 0)]], wait, timeout)

    def place(self, square: str, *, wait: bool = True, timeout: float = 2.0) -> None:
        """Close the switch under ``square`` (a piece was put down)."""
        self._run_steps([[(self.cell(square), 1)]], wait, timeout)

    def move(self, src: str, dst: str, *, wait: bool = True, timeout: float = 2.0) -> None:
        """Lift ``src`` then place on ``dst``, each settled before the next."""
        self.lift(src, wait=wait, timeout=timeout)
        self.place(dst, wait=wait, timeout=timeout)

    def set_occupied(self, squares: Iterable[str], *, wait: bool = True,
                     timeout: float = 2.0) -> None:
        """Make exactly ``squares`` occupied, in one scan."""
        wanted = {self.cell(sq) for sq in squares}
        step = [((m, c), int((m, c) in wanted)) for m, mod in enumerate(self.rig.modules)
                for c in range(mod.size)]
        self._run_steps([step], wait, timeout)

    def bounce(self, square: str, flips: int = 4, *, settle: bool = True, wait: bool = True,
               timeout: float = 2.0) -> None:
        """Chatter the switch under ``square``: it flips on each of ``flips`` scans, then
        rests toggled (``settle=True``: a bouncy lift or place) or back as it was."""
        cell = self.cell(square)
        with self._lock:
            before = self._raw[cell[0]][cell[1]]
        steps: list[Step] = [[(cell, before ^ 1 if i % 2 == 0 else before)]
                             for i in range(flips)]
        steps.append([(cell, before ^ 1 if settle else before)])
        self._run_steps(steps, wait, timeout)

    def press(self, button: str) -> None:
        """Press a button (``clock-white``, ``clock-black``, ``confirm``, ``back``, ``roll``)."""
        index = self._button_index(button)
        if self.firmware == "micropython":
            self._hold_button(index, 1)
            self._hold_button(index, 0)
            return
        self._command(lambda fw: fw.button(index))

    def hold_at_power_up(self, button: str) -> None:
        """Keep ``button`` down while the board powers up (``firmware=micropython``: the
        firmware then stays at the REPL if it is the safe button); :meth:`press` releases it."""
        self._buttons[self._button_index(button)] = 1

    def _button_index(self, button: str) -> int:
        by_name = {name: index for index, name in self.rig.buttons.items()}
        if button not in by_name and button not in BUTTON_NAMES:
            raise ValueError(f"unknown button {button!r}")
        return by_name.get(button, BUTTON_NAMES.index(button) if button in BUTTON_NAMES else 0)

    def _hold_button(self, index: int, value: int, timeout: float = 2.0) -> None:
        """Set a button's contact and keep it past the firmware's debounce time, until the
        firmware has also scanned it after that time (so under any load it sees each change
        once the debounce allows it, and no press is lost)."""
        if self._thread is None or self._stopping.is_set():
            raise BoardDisconnected("the simulated board is not running")
        with self._lock:
            if index >= len(self._buttons):
                raise ValueError(f"the board has no button {index}")
            self._buttons[index] = value
        time.sleep(BUTTON_HOLD_S)
        with self._lock:
            target = self._scans + 2  # the next scan to start reads it, and then it finishes
        if self._unixport is not None:
            self.wait_until(lambda: self._scans >= target, timeout)

    def roll(self, face: int) -> None:
        """The die reader sees ``face`` (1..6)."""
        if not 1 <= face <= 6:
            raise ValueError("a die face is 1..6")
        if self.firmware == "micropython":
            raise BridgeError("the Pico firmware (firmware=micropython) has no die reader")
        self._command(lambda fw: fw.die(face))

    def _command(self, action: Callable[[Firmware], None], timeout: float = 2.0) -> None:
        def run() -> None:
            if self._firmware is not None:
                action(self._firmware)

        self._call(run, timeout)

    def _call(self, fn: Callable[[], None], timeout: float = 2.0) -> None:
        """Run ``fn`` on the board's thread (which owns the pty) and wait for it."""
        if self._thread is None or self._stopping.is_set():
            raise BoardDisconnected("the simulated board is not running")
        done = threading.Event()

        def run() -> None:
            try:
                fn()
            finally:
                done.set()

        self._commands.append(run)
        self._wake()
        if not done.wait(timeout):
            raise SensorTimeout("the simulated board did not run a command in time")

    # -- faults -----------------------------------------------------------------------------
    def inject_noise(self, data: bytes | int = 16) -> None:
        """Send garbage bytes on the line (``data``, or that many random bytes)."""
        noise = (bytes(self._rng.randrange(256) for _ in range(data)) if isinstance(data, int)
                 else data)
        self._call(lambda: self._raw_write(noise))

    def corrupt_next(self, frames: int = 1) -> None:
        """Damage one byte in each of the next ``frames`` frames the board sends."""
        self._corrupt += frames

    def reset(self) -> None:
        """Press the board's reset button: the firmware reboots with the cable in (HELLO, then
        a boot snapshot; sequence numbers from 0; LEDs dark). Python firmware only.

        Raises:
            BridgeError: under ``firmware=micropython`` (pull the cable instead).
        """
        if self.firmware == "micropython":
            raise BridgeError("the simulated Pico has no reset button: unplug() and replug()")

        def reboot() -> None:
            self._boot_ms = time.monotonic() * 1000
            self._boot_python()

        self._call(reboot)

    def announce(self) -> None:
        """Make the firmware send its HELLO again, as it does when the host asks: what the
        host sees when its HELLO_REQUEST crossed the board's boot HELLO."""
        if self.firmware == "micropython":
            request = encode_frame(proto.HELLO_REQUEST, 0)

            def ask() -> None:
                if self._unixport is not None:
                    self._unixport.write_host(request)

            self._call(ask)
            return
        self._command(lambda fw: fw.hello())

    def unplug(self) -> None:
        """Pull the cable: the pty closes (host reads fail) and the board loses power."""
        self._call(self._unplug)

    def replug(self) -> None:
        """Plug the cable back: a new pty at the same :attr:`port_path`, the firmware reboots
        (HELLO + boot snapshot of whatever is on the board now)."""
        def plug() -> None:
            with contextlib.suppress(BridgeError):  # a firmware that does not boot stays dark
                self._plug()

        self._call(plug, timeout=12.0)

    def configure(self, **changes: Any) -> None:
        """Change ``debounce_scans`` or ``snapshot_period_ms`` on the running firmware (under
        ``firmware=micropython`` by a CONFIG frame, as the host would)."""
        self.debounce_scans = changes.get("debounce_scans", self.debounce_scans)
        self.snapshot_period_ms = changes.get("snapshot_period_ms", self.snapshot_period_ms)
        if self.firmware == "micropython":
            frame = encode_frame(proto.CONFIG, 0, proto.encode_config(
                self.debounce_scans, self.snapshot_period_ms))

            def send() -> None:
                if self._unixport is not None:
                    self._unixport.write_host(frame)

            self._call(send)
            return

        def apply(fw: Firmware) -> None:
            fw.debouncer.scans = changes.get("debounce_scans", fw.debouncer.scans)
            fw.snapshot_period_ms = changes.get("snapshot_period_ms", fw.snapshot_period_ms)

        self._command(apply)

    # -- waiting ----------------------------------------------------------------------------
    def wait_until(self, predicate: Callable[[], bool], timeout: float = 2.0) -> None:
        """Wait until ``predicate()`` (checked after every scan and LED frame) is true.

        Raises:
            SensorTimeout: still false after ``timeout`` seconds.
        """
        with self._lock:
            if not self._lock.wait_for(predicate, timeout):
                raise SensorTimeout(f"simulated board: condition not met within {timeout:g} s")


class SimSensor(BoardSensor):
    """A :class:`BoardSensor` that owns and drives a :class:`SimulatedBoard` (``simulator``)."""

    def __init__(self, url: str, simulator: SimulatedBoard, *, rig: Rig | None = None,
                 clock: Clock = time.monotonic, **options: Any) -> None:
        super().__init__(url, pyserial_factory(url, ""), rig=rig, clock=clock, **options)
        self.simulator = simulator

    def _no_answer_error(self) -> BridgeError:
        err = super()._no_answer_error()
        log = self.simulator.firmware_log.strip()
        if not log:
            return err
        return type(err)(f"{err}; the MicroPython firmware failed: {crash_line(log)}")

    def _open(self) -> None:
        self.simulator.start()
        self._port_factory = pyserial_factory(self.url, self.simulator.port_path)
        super()._open()

    def _close(self) -> None:
        super()._close()
        self.simulator.stop()


SIM_OPTIONS: Final = ("variant", "modules", "start", "debounce", "scan_ms", "snapshot_ms",
                      "leds", "seed", "firmware")


def build_sim(parsed: Url, rig: Rig | None, clock: Clock,
              sensor_options: Mapping[str, Any]) -> SimSensor:
    """Build (not open) the sensor for a ``sim://`` URL; see the module docstring.

    Raises:
        BadSensorUrl: an unknown or malformed option.
        RigError: an unknown variant or module layout.
    """
    parsed.check_options(SIM_OPTIONS)
    firmware = parsed.choice("firmware", "python", FIRMWARES)
    board_rig = rig or _sim_rig(parsed.options)
    # (under MicroPython the Pico's own 2 ms: its loop scans all the time, not on demand)
    scan_ms = parsed.number("scan_ms", 2 if firmware == "micropython" else 0.5, 0, 1000)
    sim = SimulatedBoard(
        board_rig, start=_start_squares(parsed, board_rig),
        debounce_scans=parsed.integer("debounce", 2, 1, 100),
        scan_period=scan_ms / 1000.0,
        snapshot_period_ms=parsed.integer("snapshot_ms", 2000, 0, 3_600_000),
        leds=parsed.flag("leds", True),
        seed=parsed.integer("seed", 0, 0, 2**64), firmware=firmware)
    return SimSensor(parsed.text, sim, rig=board_rig, clock=clock, **sensor_options)


def _sim_rig(options: Mapping[str, str]) -> Rig:
    if "variant" in options:
        return builtin_rig(options["variant"])
    if "modules" in options:
        return default_rig_for(options["modules"].split(","))
    return builtin_rig("standard")


def _start_squares(parsed: Url, rig: Rig) -> frozenset[str]:
    start = parsed.options.get("start")
    if start is None:
        return STANDARD_START if STANDARD_START <= rig.squares else frozenset()
    if start == "standard":
        return STANDARD_START & rig.squares
    if start == "empty":
        return frozenset()
    squares = frozenset(s for s in start.split(",") if s)
    unknown = squares - rig.squares
    if unknown:
        raise parsed.fail(f"start squares not on the board: {', '.join(sorted(unknown))}")
    return squares


__all__ = ["SimulatedBoard", "SimSensor", "build_sim", "BridgeError"]
