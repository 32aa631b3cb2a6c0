"""``dgt://PORT``: DGT electronic chess boards over their serial protocol (9600 8N1).

Protocol (DGT's public ``dgtbrd.h``, summarised in shared/reference/hardware.md section 1):
the PC sends one-byte commands (reset 0x40, board dump 0x42, field updates 0x44, serial number
0x45, version 0x4D); the board answers with messages ``[id | 0x80][len >> 7][len & 0x7F]data``
where the 14-bit length counts the 3 header bytes. Only the id byte has bit 7 set, so
:class:`DgtParser` resynchronises on any such byte. A board dump carries 64 piece codes, field
0 = a8 ... 63 = h1 (connector on White's left); a field update carries (field, piece code).

:class:`DgtSensor` passes piece identity on in ``place`` events (``KQRBNPkqrbnp``). Field
updates arrive in scan order, so a move can show up out of order (DGT's own example for a queen
c1->c4: empty c4, queen c2, queen c3, empty c1, empty c2, queen c4, empty c3); the sensor
reports each update as it comes, keeps every event consistent with its tracked board (a piece
replaced without an "empty" update becomes ``lift`` then ``place``), and, once updates have
been quiet for ``settle`` seconds, asks for a board dump and emits the difference if any update
was lost. After (re)connecting it emits the dump as an ``Occupied`` snapshot.

URLs: ``dgt:///dev/ttyACM0``, ``dgt://hwgrep://04d8:000a``, ``dgt://sim?start=standard`` (the
built-in emulator, :mod:`firmware_bridge.dgt_sim`). A rig's ``main`` module sets the squares
(``rotation = 180`` for a board set up the other way round).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any, Final

from firmware_bridge.errors import BridgeError, SensorTimeout
from firmware_bridge.events import Lift, Occupied, Place
from firmware_bridge.link import LinkedSensor, PortFactory, pyserial_factory
from firmware_bridge.rig import Rig, builtin_rig
from firmware_bridge.sensor import Clock
from firmware_bridge.urls import Url

# PC -> board commands.
SEND_RESET: Final = 0x40
SEND_BRD: Final = 0x42
SEND_UPDATE_BRD: Final = 0x44
RETURN_SERIALNR: Final = 0x45
SEND_VERSION: Final = 0x4D
# Board -> PC message ids (with bit 7 set).
MSG_BOARD_DUMP: Final = 0x86
MSG_BWTIME: Final = 0x8D
MSG_FIELD_UPDATE: Final = 0x8E
MSG_SERIALNR: Final = 0x91
MSG_TRADEMARK: Final = 0x92
MSG_VERSION: Final = 0x93
#: Piece code -> letter; 0 is empty; 13..15 are DGT's "magic pieces" (occupied, no letter).
PIECES: Final = {1: "P", 2: "R", 3: "N", 4: "B", 5: "K", 6: "Q",
                 7: "p", 8: "r", 9: "n", 10: "b", 11: "k", 12: "q", 13: "", 14: "", 15: ""}
CODES: Final = {letter: code for code, letter in PIECES.items() if letter}
# Longest message accepted: the EEPROM dump is 0x1F00 bytes; anything longer is noise.
_MAX_LEN: Final = 0x1F00 + 3


def encode_message(msg_id: int, data: bytes) -> bytes:
    """A board -> PC message: id (bit 7 set), 7-bit length hi/lo (including the header), data."""
    n = len(data) + 3
    return bytes((msg_id | 0x80, (n >> 7) & 0x7F, n & 0x7F)) + data


def field_to_square(field: int) -> tuple[int, int]:
    """(file index, rank index), 0-based from a1, of DGT field 0..63 (0 = a8, 63 = h1)."""
    return field % 8, 7 - field // 8


class DgtParser:
    """Incremental DGT message parser: :meth:`feed` bytes, get (message id, data) pairs.

    A byte with bit 7 set always starts a new message (a partial one is dropped); bytes before
    any id, and messages with impossible lengths, are dropped. Never raises. ``dropped``
    counts the bytes thrown away.
    """

    def __init__(self) -> None:
        self._buf = bytearray()
        self._need = 0
        self.dropped = 0

    def feed(self, data: bytes) -> list[tuple[int, bytes]]:
        """Consume ``data``; return the complete messages."""
        out: list[tuple[int, bytes]] = []
        for b in data:
            msg = self._byte(b)
            if msg is not None:
                out.append(msg)
        return out

    def _byte(self, b: int) -> tuple[int, bytes] | None:
        if b & 0x80:
            self.dropped += len(self._buf)
            self._buf = bytearray((b,))
            self._need = 0
            return None
        if not self._buf:
            self.dropped += 1
            return None
        self._buf.append(b)
        if len(self._buf) == 3:
            self._need = (self._buf[1] << 7) | self._buf[2]
            if not 3 <= self._need <= _MAX_LEN:
                self.dropped += 3
                self._buf = bytearray()
                return None
        if len(self._buf) >= 3 and len(self._buf) == self._need:
            msg = (self._buf[0], bytes(self._buf[3:]))
            self._buf = bytearray()
            return msg
        return None


class DgtSensor(LinkedSensor):
    """A DGT e-board (see the module docstring). ``settle`` (s) is the quiet time after field
    updates before a verifying board dump. LEDs are not supported (``send_leds`` raises
    LedsNotSupported: Revelation II LED commands freeze other boards)."""

    def __init__(self, url: str, port_factory: PortFactory, *, rig: Rig | None = None,
                 clock: Clock = time.monotonic, settle: float = 0.3, **options: Any) -> None:
        options.setdefault("ping_interval", 1.0)
        options.setdefault("dead_after", 3.0)
        super().__init__(url, port_factory, clock=clock, **options)
        main = (rig or builtin_rig("standard")).module("main")
        # DGT field -> our grid cell (cell 0 = a1 in the rig's unrotated frame) -> square.
        self._squares = [main.cells[(7 - f // 8) * 8 + f % 8] for f in range(64)]
        self.settle = settle
        self.version: tuple[int, int] | None = None
        self._reset_link_state()

    def _reset_link_state(self) -> None:
        super()._reset_link_state()
        self._parser = DgtParser()
        self._board: dict[str, str] = {}  # square -> letter ("" for a magic piece)
        self._synced = False
        self._last_update: float | None = None
        self._last_request = -1e9

    # -- protocol hooks ---------------------------------------------------------------------
    def _on_port_open(self) -> None:
        # Reset to idle, ask the version, the position, then field updates (no clock data).
        self._write(bytes((SEND_RESET, SEND_VERSION, SEND_BRD, SEND_UPDATE_BRD)))
        self._last_request = self._clock()

    def _no_answer_error(self) -> BridgeError:
        return SensorTimeout(f"{self.url}: no answer from the DGT board within "
                             f"{self.open_timeout:g} s (is it a DGT board at 9600 baud?)")

    def _on_bytes(self, data: bytes) -> None:
        for msg_id, payload in self._parser.feed(data):
            if msg_id == MSG_BOARD_DUMP and len(payload) == 64:
                self._on_dump(payload)
            elif msg_id == MSG_FIELD_UPDATE and len(payload) == 2:
                self._on_update(payload[0], payload[1])
            elif msg_id == MSG_VERSION and len(payload) == 2:
                self.version = (payload[0], payload[1])
            # Serial number replies only prove the link is alive; others are skipped.

    def _housekeeping(self, now: float) -> None:
        if not self._synced:
            if now - self._since > self.open_timeout:
                self._drop(f"no board dump from the DGT board within {self.open_timeout:g} s")
            elif now - self._last_request > 1.0:
                self._request(SEND_BRD)
            return
        if self._last_update is not None and now - self._last_update > self.settle:
            self._last_update = None
            self._request(SEND_BRD)  # verify: did we miss an update during the scan?
        silent = now - self._last_heard
        if silent > self.dead_after:
            self._drop(f"DGT board silent for {silent:.1f} s")
        elif silent > self.ping_interval and now - self._last_ping > self.ping_interval:
            self._last_ping = now
            self._write(bytes((RETURN_SERIALNR,)))  # watchdog: any reply proves life

    def _request(self, command: int) -> None:
        self._last_request = self._clock()
        self._write(bytes((command,)))

    # -- board state ------------------------------------------------------------------------
    def _decode_dump(self, payload: bytes) -> dict[str, str]:
        board = {}
        for field, code in enumerate(payload):
            sq = self._squares[field]
            if code in PIECES and sq is not None:
                board[sq] = PIECES[code]
        return board

    def _on_dump(self, payload: bytes) -> None:
        board = self._decode_dump(payload)
        if not self._synced:
            self._board = board
            self._synced = True
            # the board knows each piece: its colour goes with the snapshot (the referee's
            # resync after a reconnect then tells a capture from a piece put back)
            colours = {sq: "w" if letter.isupper() else "b"
                       for sq, letter in board.items() if letter}
            self._emit(Occupied(self._now_ms(), frozenset(board), colours))
            self._mark_connected()
            return
        # A verifying dump: report whatever the field updates missed, lifts first.
        for sq in sorted(self._board):
            if board.get(sq) != self._board[sq]:
                self._set(sq, None)
        for sq in sorted(board):
            if sq not in self._board:
                self._set(sq, board[sq])

    def _on_update(self, field: int, code: int) -> None:
        if not self._synced or field > 63 or (code and code not in PIECES):
            return
        sq = self._squares[field]
        if sq is None:
            return
        self._last_update = self._clock()
        letter = PIECES[code] if code else None
        old = self._board.get(sq)
        if letter == old:
            return  # repeated update
        if old is not None and letter is not None:
            self._set(sq, None)  # a capture whose "empty" was never reported
        self._set(sq, letter)

    def _set(self, square: str, letter: str | None) -> None:
        """Apply one change to the tracked board and emit it."""
        if letter is None:
            del self._board[square]
            self._emit(Lift(self._now_ms(), square))
        else:
            self._board[square] = letter
            self._emit(Place(self._now_ms(), square, letter or None))

    def request_snapshot(self) -> None:
        """Ask for a board dump; missed changes are reported as lift/place events."""
        self._require_open()
        self._request(SEND_BRD)


DGT_OPTIONS: Final = ("open_timeout", "ping_interval", "dead_after", "backoff", "settle",
                      "wait_connected")


def check_dgt_options(parsed: Url, options: Mapping[str, Any]) -> None:
    """Refuse a keyword option no ``dgt://`` sensor (board or emulator) takes."""
    for key in options:
        if key not in DGT_OPTIONS:
            raise parsed.fail(f"unknown option {key!r} for dgt:// "
                               f"(known: {', '.join(DGT_OPTIONS)})")


def build_dgt(parsed: Url, rig: Rig | None, clock: Clock, options: Mapping[str, Any]) -> Any:
    """Build (not open) the sensor for a real board's ``dgt://`` URL (see the module docstring);
    ``dgt://sim`` is :mod:`firmware_bridge.dgt_sim`'s, chosen by the factory."""
    check_dgt_options(parsed, options)
    if not parsed.target:
        raise parsed.fail("no device (e.g. dgt:///dev/ttyACM0)")
    parsed.check_options(())
    factory = pyserial_factory(parsed.text, parsed.target, baudrate=9600, bytesize=8,
                               parity="N", stopbits=1, exclusive="://" not in parsed.target)
    return DgtSensor(parsed.text, factory, rig=rig, clock=clock, **options)
