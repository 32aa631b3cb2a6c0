"""A DGT e-board emulator behind a pseudo-terminal (``dgt://sim``), written from the public
protocol description (shared/reference/hardware.md section 1).

It answers reset (0x40, to idle), board dump (0x42 -> 0x86 + 64 piece codes), update modes
(0x43/0x44/0x4B -> field updates 0x8E), serial number (0x45 -> 0x91), trademark (0x47 -> 0x92)
and version (0x4D -> 0x93), and ignores other commands. Tests move pieces through its API; a
sliding move can be reported the way a real 200-250 ms scan reports it, out of order.

URL options of ``dgt://sim``: ``start`` (``standard``, the default, or ``empty``).
"""

from __future__ import annotations

import errno
import os
import select
import threading
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final

from firmware_bridge import dgt
from firmware_bridge.errors import SensorTimeout
from firmware_bridge.link import pyserial_factory
from firmware_bridge.rig import Rig
from firmware_bridge.sensor import Clock
from firmware_bridge.urls import Url
from firmware_bridge.vport import VirtualPort

#: The start position, square -> piece letter.
START: Final = {**{f"{f}2": "P" for f in "abcdefgh"}, **{f"{f}7": "p" for f in "abcdefgh"},
                **dict(zip((f"{f}1" for f in "abcdefgh"), "RNBQKBNR", strict=True)),
                **dict(zip((f"{f}8" for f in "abcdefgh"), "rnbqkbnr", strict=True))}


def square_to_field(square: str) -> int:
    """DGT field (0 = a8 ... 63 = h1) of a plain square such as ``e4``."""
    return (8 - int(square[1])) * 8 + "abcdefgh".index(square[0])


class DgtBoardEmulator:
    """A virtual DGT board; no I/O until :meth:`start`. ``position`` is square -> letter."""

    def __init__(self, position: Mapping[str, str] | None = None) -> None:
        self.codes = [0] * 64
        for sq, letter in (START if position is None else position).items():
            self.codes[square_to_field(sq)] = dgt.CODES[letter]
        self.updating = False
        self.commands: list[int] = []
        self._drop_updates = 0
        self._port = VirtualPort("gk-dgt-")
        self._master = -1
        self._wake_r = self._wake_w = -1
        self._calls: deque[Callable[[], None]] = deque()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def port_path(self) -> str:
        """Path the host opens (a symlink to the current pty slave)."""
        return self._port.path

    def start(self) -> DgtBoardEmulator:
        """Create the pty and start answering commands."""
        self._port.create()
        self._wake_r, self._wake_w = os.pipe()
        self._plug()
        self._thread = threading.Thread(target=self._run, name="dgt emulator", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop and remove the pty; idempotent."""
        if self._stop.is_set():
            return
        self._stop.set()
        os.write(self._wake_w, b"x")
        if self._thread is not None:
            self._thread.join(2.0)
        self._unplug()
        os.close(self._wake_r)
        os.close(self._wake_w)
        self._port.remove()

    def _plug(self) -> None:
        self._master = self._port.plug()
        self.updating = False  # power-up: idle

    def _unplug(self) -> None:
        self._port.unplug()
        self._master = -1

    # -- the board's thread -----------------------------------------------------------------
    def _run(self) -> None:
        while not self._stop.is_set():
            fds = [self._wake_r] + ([self._master] if self._master >= 0 else [])
            ready, _, _ = select.select(fds, [], [], 0.1)
            if self._wake_r in ready:
                os.read(self._wake_r, 4096)
            while self._calls:
                self._calls.popleft()()
            if self._master >= 0 and self._master in ready:
                try:
                    data = os.read(self._master, 4096)
                except OSError:
                    data = b""
                for command in data:
                    self._command(command)

    def _command(self, command: int) -> None:
        self.commands.append(command)
        if command == dgt.SEND_RESET:
            self.updating = False
        elif command == dgt.SEND_BRD:
            self._send(dgt.MSG_BOARD_DUMP, bytes(self.codes))
        elif command in (0x43, dgt.SEND_UPDATE_BRD, 0x4B):
            self.updating = True
        elif command == dgt.RETURN_SERIALNR:
            self._send(dgt.MSG_SERIALNR, b"12345")
        elif command == 0x47:
            self._send(dgt.MSG_TRADEMARK, b"Gravekeeper DGT emulator")
        elif command == dgt.SEND_VERSION:
            self._send(dgt.MSG_VERSION, bytes((1, 6)))

    def _send(self, msg_id: int, data: bytes) -> None:
        self.write_raw(dgt.encode_message(msg_id, data))

    def write_raw(self, data: bytes) -> None:
        """Write bytes on the line as the board (call on the board's thread or via _call)."""
        if self._master < 0:
            return
        try:
            os.write(self._master, data)
        except OSError as exc:
            if exc.errno not in (errno.EAGAIN, errno.EIO):
                raise

    def _call(self, fn: Callable[[], None], timeout: float = 2.0) -> None:
        done = threading.Event()

        def run() -> None:
            try:
                fn()
            finally:
                done.set()

        self._calls.append(run)
        os.write(self._wake_w, b"x")
        if not done.wait(timeout):
            raise SensorTimeout("the DGT emulator did not run a command in time")

    # -- driving the board ------------------------------------------------------------------
    def _updates(self, changes: Iterable[tuple[str, str | None]]) -> None:
        def run() -> None:
            for sq, letter in changes:
                field = square_to_field(sq)
                self.codes[field] = dgt.CODES[letter] if letter else 0
                if self.updating and self._drop_updates > 0:
                    self._drop_updates -= 1
                elif self.updating:
                    self._send(dgt.MSG_FIELD_UPDATE, bytes((field, self.codes[field])))

        self._call(run)

    def lift(self, square: str) -> None:
        """Remove the piece on ``square``."""
        self._updates([(square, None)])

    def place(self, square: str, piece: str) -> None:
        """Put ``piece`` (a letter, ``Q``/``p``...) on ``square``."""
        self._updates([(square, piece)])

    def move(self, src: str, dst: str, path: Iterable[str] = (), *,
             scrambled: bool = False) -> None:
        """Move the piece on ``src`` to ``dst`` (capturing whatever is there).

        With ``scrambled``, report it as a scan catches a slide through ``path``: the piece
        appears on each path square, then ``src`` empties, then the path squares empty, then
        the piece appears on ``dst`` (the capture victim's removal is never reported).
        """
        piece = dgt.PIECES[self.codes[square_to_field(src)]]
        path = list(path)
        if not scrambled:
            self._updates([(src, None), (dst, piece)])
            return
        self._updates([*((p, piece) for p in path), (src, None),
                       *((p, None) for p in path), (dst, piece)])

    def drop_updates(self, count: int = 1) -> None:
        """Lose the next ``count`` field updates (the board changes, nothing is sent)."""
        self._drop_updates += count

    def inject_noise(self, data: bytes) -> None:
        """Write garbage on the line."""
        self._call(lambda: self.write_raw(data))

    def unplug(self) -> None:
        """Pull the cable (the pty closes)."""
        self._call(self._unplug)

    def replug(self) -> None:
        """Plug it back (a new pty at :attr:`port_path`; the board powers up idle)."""
        self._call(self._plug)


class DgtSimSensor(dgt.DgtSensor):
    """A :class:`~firmware_bridge.dgt.DgtSensor` that owns a :class:`DgtBoardEmulator`
    (``simulator``)."""

    def __init__(self, url: str, simulator: DgtBoardEmulator, **kwargs: Any) -> None:
        super().__init__(url, pyserial_factory(url, ""), **kwargs)
        self.simulator = simulator

    def _open(self) -> None:
        self.simulator.start()
        self._port_factory = pyserial_factory(self.url, self.simulator.port_path,
                                              baudrate=9600)
        super()._open()

    def _close(self) -> None:
        super()._close()
        self.simulator.stop()


def build_dgt_sim(parsed: Url, rig: Rig | None, clock: Clock,
                  options: Mapping[str, Any]) -> DgtSimSensor:
    """Build (not open) ``dgt://sim?start=standard|empty``."""
    dgt.check_dgt_options(parsed, options)
    parsed.check_options(("start",))
    start = parsed.choice("start", "standard", ("standard", "empty"))
    emulator = DgtBoardEmulator(START if start == "standard" else {})
    return DgtSimSensor(parsed.text, emulator, rig=rig, clock=clock, **options)


__all__ = ["DgtBoardEmulator", "DgtSimSensor", "START", "build_dgt_sim", "square_to_field"]
