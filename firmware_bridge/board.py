"""Host driver for the Gravekeeper reed-switch board (``serial://``, ``hwgrep://``,
``socket://``, ``loop://``; ``sim://`` uses it too).

Layers: a pyserial port (transport) -> :class:`~firmware_bridge.firmware.framing.FrameDecoder`
(framing) -> :func:`~firmware_bridge.messages.decode_message` (typed messages) ->
:class:`BoardSensor` (device: squares, events, link state).

One reader thread owns the port: it reads, parses, answers the link's needs (HELLO and snapshot
requests, pings) and reconnects with exponential backoff when the port fails or the board falls
silent. Writes from any thread go through one lock. After every (re)connection the driver asks
for a full snapshot and emits it as an ``Occupied`` event, so nothing that changed while the
cable was out is lost; it also asks for one whenever a frame was corrupted or a sequence number
skipped, and emits ``Occupied`` if the board's state then differs from the events so far.
"""

from __future__ import annotations

import time
from typing import Any, Final

import serial

from firmware_bridge.errors import BridgeError, LedsNotSupported, RigError, SensorTimeout
from firmware_bridge.events import BUTTON_NAMES, Button, Die, Lift, Occupied, Place
from firmware_bridge.firmware import proto
from firmware_bridge.firmware.framing import Frame, FrameDecoder, encode_frame, seq_gap
from firmware_bridge.link import READ_TICK, LinkedSensor, PortFactory, pyserial_factory
from firmware_bridge.messages import (
    ButtonPressed,
    Changes,
    DieRead,
    Hello,
    Log,
    Snapshot,
    decode_message,
)
from firmware_bridge.rig import BUILTIN_RIGS, Rig, builtin_rig
from firmware_bridge.sensor import Clock, LedFrame

#: Default baud rate of the board's USB CDC link (ignored by USB CDC, used by UART bridges).
BAUDRATE: Final = 115200

__all__ = ["BAUDRATE", "BoardSensor", "LoopbackSensor", "default_rig_for", "pyserial_factory"]


def default_rig_for(module_names: list[str]) -> Rig:
    """The built-in rig whose modules are exactly ``module_names`` (a board without a rig file).
    When several fit (one 8x8 ``main`` module suits most variants), the one whose file says
    ``fallback = true``.

    Raises:
        RigError: no built-in rig has these modules.
    """
    fits = [rig for rig in map(builtin_rig, BUILTIN_RIGS)
            if sorted(m.name for m in rig.modules) == sorted(module_names)]
    if len(fits) > 1:  # several variants play on these modules: the rig marked fallback
        fits = [rig for rig in fits if rig.fallback]
    if fits:
        return fits[0]
    raise RigError(f"no built-in rig for a board with modules {', '.join(module_names)}; "
                   "pass a rig file (--rig)")


class BoardSensor(LinkedSensor):
    """Sensor for a board speaking the Gravekeeper protocol over ``port_factory``.

    ``rig`` maps cells to squares (default: the built-in rig matching the modules the board
    announces). Timing, all in seconds: ``open_timeout`` for the first HELLO and snapshot;
    ``ping_interval`` of silence before a PING; ``dead_after`` of silence before the link is
    declared lost; reconnect attempts back off from ``backoff[0]`` to ``backoff[1]``.

    ``send_leds`` works once connected; a frame sent while reconnecting is shown after the
    reconnection. It raises LedsNotSupported if the board's HELLO says it has no LEDs.
    """

    supports_leds = True

    def __init__(self, url: str, port_factory: PortFactory, *, rig: Rig | None = None,
                 clock: Clock = time.monotonic, **options: Any) -> None:
        super().__init__(url, port_factory, clock=clock, **options)
        self._rig = rig
        self._tx_seq = 0
        self._pending_leds: LedFrame | None = None
        self._reset_link_state()
        #: Counters for diagnostics: frames lost (sequence gaps), corrupted frames, unknown
        #: message types skipped, echoed host frames ignored, resync snapshots that differed,
        #: HELLOs repeating the one in force (a crossed HELLO_REQUEST, a reboot).
        self.stats = {"lost": 0, "corrupt": 0, "unknown": 0, "echo": 0, "resyncs": 0,
                      "hellos": 0}

    def _reset_link_state(self) -> None:
        super()._reset_link_state()
        self._decoder = FrameDecoder()
        self._hello: Hello | None = None
        self._squares: list[list[str | None]] = []
        self._cells: dict[str, tuple[int, int]] = {}
        self._occupied: set[str] = set()
        self._synced = False
        self._rx_seq: int | None = None
        self._last_request = -1e9
        self._last_resync = -1e9
        self._want_snapshot = False

    # -- protocol hooks called by the reader thread --------------------------------------
    def _on_port_open(self) -> None:
        self._request(proto.HELLO_REQUEST)

    def _no_answer_error(self) -> BridgeError:
        d = self._decoder
        return SensorTimeout(
            f"{self.url}: no answer from the board within {self.open_timeout:g} s "
            f"({d.frames} valid frames, {d.bad} bad; is it a Gravekeeper board?)")

    def _on_bytes(self, data: bytes) -> None:
        bad = self._decoder.bad + self._decoder.overruns
        for frame in self._decoder.feed(data):
            self._on_frame(frame)
        if self._decoder.bad + self._decoder.overruns > bad:
            self.stats["corrupt"] += self._decoder.bad + self._decoder.overruns - bad
            self._resync()

    def _housekeeping(self, now: float) -> None:
        if self._port is None:
            return
        if not self._synced:
            if now - self._since > self.open_timeout:
                self._drop(f"no HELLO/snapshot from the board within {self.open_timeout:g} s")
            elif now - self._last_request > 0.5:
                self._request(proto.HELLO_REQUEST if self._hello is None
                              else proto.SNAPSHOT_REQUEST)
            return
        if self._want_snapshot and now - self._last_resync > 0.05:
            # At most one resync request per 50 ms however many frames were damaged.
            self._want_snapshot = False
            self._last_resync = now
            self._request(proto.SNAPSHOT_REQUEST)
        silent = now - self._last_heard
        if silent > self.dead_after:
            self._drop(f"board silent for {silent:.1f} s")
        elif silent > self.ping_interval and now - self._last_ping > self.ping_interval:
            self._last_ping = now
            self._send(proto.PING, proto.encode_token(int(now * 1000)))

    # -- frames -----------------------------------------------------------------------------
    def _on_frame(self, frame: Frame) -> None:
        if frame.type >= 0x80:
            self.stats["echo"] += 1  # our own direction: a line echoing what we sent
            return
        if self._rx_seq is not None and (gap := seq_gap(self._rx_seq, frame.seq)):
            self.stats["lost"] += gap
            self._resync()
        self._rx_seq = frame.seq
        try:
            msg = decode_message(frame)
        except BridgeError:
            self.stats["corrupt"] += 1
            self._resync()
            return
        if msg is None:
            self.stats["unknown"] += 1  # a newer firmware's message: skip it
        elif isinstance(msg, Hello):
            self._on_hello(msg)
        elif isinstance(msg, Snapshot):
            self._on_snapshot(msg)
        elif isinstance(msg, Changes):
            self._on_changes(msg)
        elif isinstance(msg, ButtonPressed):
            self._on_button(msg)
        elif isinstance(msg, DieRead):
            if self._synced and 1 <= msg.face <= 6:
                self._emit(Die(self._now_ms(), msg.face))
        elif isinstance(msg, Log):
            self._set_status(detail=f"board says: {msg.text}")

    def _on_hello(self, hello: Hello) -> None:
        if self._synced and hello == self._hello:
            self._on_same_hello()
            return
        try:
            squares = self._map_modules(hello)
        except RigError as exc:
            self._fatal(exc)
            return
        with self._wlock:
            self._hello = hello
            self._squares = squares
            self._cells = {sq: (m, c) for m, cells in enumerate(squares)
                           for c, sq in enumerate(cells) if sq is not None}
        self._synced = False  # a new description: map it and start from a fresh snapshot
        self._request(proto.SNAPSHOT_REQUEST)

    def _on_same_hello(self) -> None:
        """The board described itself again, unchanged, while in sync. Either our
        HELLO_REQUEST crossed its boot HELLO (both answers arrive), or it rebooted with the
        cable in. Neither is a new connection: no repeated ``Occupied``, no "reconnect". A
        reboot's news is its boot snapshot, compared like any other (and the restarted
        sequence numbers ask for one too); its LEDs went dark, so they are sent again."""
        self.stats["hellos"] += 1
        self._resync()
        if self._pending_leds is not None:
            self._write_leds(self._pending_leds)

    def _map_modules(self, hello: Hello) -> list[list[str | None]]:
        names = [m.name for m in hello.modules]
        rig = self._rig if self._rig is not None else default_rig_for(names)
        out: list[list[str | None]] = []
        for info in hello.modules:
            try:
                mod = rig.module(info.name)
            except RigError:
                out.append([None] * info.size)  # a module the rig does not use
                continue
            if mod.size != info.size:
                raise RigError(f"{rig.source}: module {info.name!r} has {mod.size} cells but "
                               f"the board's has {info.size} ({info.width}x{info.height})")
            out.append(list(mod.cells))
        missing = [m.name for m in rig.modules if m.name not in names]
        if missing:
            raise RigError(f"{rig.source}: the board at {self.url} has no module "
                           f"{', '.join(map(repr, missing))} (it has {', '.join(names)})")
        return out

    def _snapshot_squares(self, snap: Snapshot) -> set[str]:
        out: set[str] = set()
        for cells, states in zip(self._squares, snap.modules, strict=False):
            out.update(sq for sq, on in zip(cells, states, strict=False) if on and sq)
        return out

    def _on_snapshot(self, snap: Snapshot) -> None:
        if self._hello is None:
            return
        squares = self._snapshot_squares(snap)
        if self._synced:
            if squares != self._occupied:
                self.stats["resyncs"] += 1
                self._occupied = squares
                self._emit(Occupied(self._now_ms(), frozenset(squares)))
            return
        self._synced = True
        self._occupied = squares
        self._emit(Occupied(self._now_ms(), frozenset(squares)))
        self._on_synced()

    def _on_synced(self) -> None:
        self._mark_connected()
        if self._pending_leds is not None:
            self._write_leds(self._pending_leds)

    def _on_changes(self, msg: Changes) -> None:
        if not self._synced:
            return  # the snapshot we asked for will include these
        for module, cell, occupied in msg.changes:
            sq = self._square(module, cell)
            if sq is None:
                continue
            if occupied and sq not in self._occupied:
                self._occupied.add(sq)
                self._emit(Place(self._now_ms(), sq))
            elif not occupied and sq in self._occupied:
                self._occupied.discard(sq)
                self._emit(Lift(self._now_ms(), sq))

    def _square(self, module: int, cell: int) -> str | None:
        if module >= len(self._squares) or cell >= len(self._squares[module]):
            return None
        return self._squares[module][cell]

    def _on_button(self, msg: ButtonPressed) -> None:
        buttons = self._rig.buttons if self._rig is not None else {}
        name = buttons.get(msg.index)
        if name is None and not buttons and msg.index < len(BUTTON_NAMES):
            name = BUTTON_NAMES[msg.index]
        if name is not None and self._synced:
            self._emit(Button(self._now_ms(), name))

    def _resync(self) -> None:
        """Something may have been lost: ask for a snapshot after this batch of bytes."""
        self._want_snapshot = True

    # -- writing ----------------------------------------------------------------------------
    def _request(self, msg_type: int) -> None:
        self._last_request = self._clock()
        self._send(msg_type)

    def _send(self, msg_type: int, payload: bytes = b"") -> bool:
        """Write one frame under the write lock; False if there is no port or it failed
        (the reader thread notices a dead port on its own)."""
        with self._wlock:
            if self._port is None:
                return False
            data = encode_frame(msg_type, self._tx_seq, payload)
            self._tx_seq = (self._tx_seq + 1) & 0xFF
            return self._write(data)

    def request_snapshot(self) -> None:
        """Ask the board for a full snapshot (``Occupied`` follows if anything differs)."""
        self._require_open()
        self._send(proto.SNAPSHOT_REQUEST)

    def send_leds(self, frame: LedFrame) -> None:
        """Show ``frame`` (square -> (r, g, b), 0..255) on the board's LEDs; others go dark.

        Raises:
            LedsNotSupported: the board announced no LEDs.
            RigError: a square no cell of the rig maps to.
            ValueError: a colour component outside 0..255.
        """
        self._require_open()
        with self._wlock:
            if self._hello is not None and not self._hello.has_leds:
                raise LedsNotSupported(f"{self.url}: this board has no LEDs")
            for sq, rgb in frame.items():
                if self._hello is not None and sq not in self._cells:
                    raise RigError(f"{self.url}: no LED under square {sq!r} on this rig")
                if len(rgb) != 3 or not all(0 <= c <= 255 for c in rgb):
                    raise ValueError(f"LED colour for {sq} must be 3 values 0..255: {rgb!r}")
            self._pending_leds = dict(frame)
            if self._synced:
                self._write_leds(self._pending_leds)

    def _write_leds(self, frame: LedFrame) -> None:
        with self._wlock:
            sizes = [len(cells) for cells in self._squares]
            colours = [[(0, 0, 0)] * n for n in sizes]
            for sq, rgb in frame.items():
                module, cell = self._cells[sq]
                colours[module][cell] = (int(rgb[0]), int(rgb[1]), int(rgb[2]))
            for module, cols in enumerate(colours):
                last = module == len(colours) - 1
                self._send(proto.LEDS, proto.encode_leds(module, last, 0, cols))


class LoopbackSensor(BoardSensor):
    """``loop://``: the driver over pyserial's in-process loopback, for tests.

    Bytes given to :meth:`feed_as_board` are read back by the driver as if a board sent them;
    the driver's own frames also come back and are ignored as echoes. ``open()`` does not wait
    for a HELLO (the test sends it), and the loop port is kept across link drops.
    """

    def __init__(self, url: str, *, rig: Rig | None = None, clock: Clock = time.monotonic,
                 **options: Any) -> None:
        self._loop: Any = None
        options.setdefault("wait_connected", False)
        super().__init__(url, self._loop_port, rig=rig, clock=clock, **options)

    def _loop_port(self) -> Any:
        if self._loop is None:
            self._loop = serial.serial_for_url("loop://", timeout=READ_TICK)
        return self._loop

    def _disconnect(self) -> None:
        with self._wlock:
            self._port = None
        if self._stop.is_set() and self._loop is not None:
            self._loop.close()

    def feed_as_board(self, data: bytes) -> None:
        """Inject raw bytes as if the board had sent them (thread-safe)."""
        with self._wlock:
            self._loop_port().write(data)
