"""Typed board -> host messages of the Gravekeeper protocol (host side).

:func:`decode_message` turns a checked :class:`~firmware_bridge.firmware.framing.Frame` into
one of the frozen dataclasses below, using the payload codecs shared with the firmware
(:mod:`firmware_bridge.firmware.proto`). Unknown message types give None (they are skipped,
never fatal); a known type with a malformed payload raises :class:`FrameError`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from firmware_bridge.errors import FrameError
from firmware_bridge.firmware import proto
from firmware_bridge.firmware.framing import Frame


@dataclass(frozen=True)
class ModuleInfo:
    """A module the board announced: ``name``, kind (``proto.KIND_*``) and size in cells."""

    name: str
    kind: int
    width: int
    height: int

    @property
    def size(self) -> int:
        """Number of cells."""
        return self.width * self.height


@dataclass(frozen=True)
class Hello:
    """The board's description: protocol version, firmware version, flags, buttons, modules."""

    protocol: int
    firmware: tuple[int, int]
    flags: int
    buttons: int
    modules: tuple[ModuleInfo, ...]

    @property
    def has_leds(self) -> bool:
        """True if the board drives per-cell LEDs."""
        return bool(self.flags & proto.FLAG_LEDS)


@dataclass(frozen=True)
class Changes:
    """Debounced cell changes at board time ``t`` (ms): (module index, cell, occupied)."""

    t: int
    changes: tuple[tuple[int, int, bool], ...]


@dataclass(frozen=True)
class Snapshot:
    """Every cell's state at board time ``t`` (ms), one tuple of bools per module."""

    t: int
    reason: int
    modules: tuple[tuple[bool, ...], ...]


@dataclass(frozen=True)
class ButtonPressed:
    """Board button ``index`` was pressed at board time ``t`` (ms)."""

    t: int
    index: int


@dataclass(frozen=True)
class DieRead:
    """The die reader saw ``face`` at board time ``t`` (ms)."""

    t: int
    face: int


@dataclass(frozen=True)
class Pong:
    """Answer to a PING carrying ``token``."""

    token: int


@dataclass(frozen=True)
class Log:
    """A diagnostic text line from the firmware."""

    text: str


Message = Hello | Changes | Snapshot | ButtonPressed | DieRead | Pong | Log


def decode_message(frame: Frame) -> Message | None:
    """Decode a board -> host frame; None for a type this host does not know.

    Raises:
        FrameError: a known type whose payload does not decode.
    """
    decoder = _DECODERS.get(frame.type)
    if decoder is None:
        return None
    try:
        return decoder(frame.payload)
    except (ValueError, IndexError, UnicodeDecodeError) as exc:
        raise FrameError(f"bad payload for message type {frame.type:#04x}: {exc}") from exc


def _hello(p: bytes) -> Hello:
    version, fw, flags, buttons, modules = proto.decode_hello(p)
    return Hello(version, fw, flags, buttons, tuple(ModuleInfo(*m) for m in modules))


def _changes(p: bytes) -> Changes:
    t, changes = proto.decode_changes(p)
    return Changes(t, tuple((m, c, bool(o)) for m, c, o in changes))


def _snapshot(p: bytes) -> Snapshot:
    t, reason, modules = proto.decode_snapshot(p)
    return Snapshot(t, reason, tuple(tuple(bool(b) for b in cells) for cells in modules))


def _button(p: bytes) -> ButtonPressed:
    return ButtonPressed(*proto.decode_t_byte(p))


def _die(p: bytes) -> DieRead:
    return DieRead(*proto.decode_t_byte(p))


def _pong(p: bytes) -> Pong:
    return Pong(proto.decode_token(p))


def _log(p: bytes) -> Log:
    return Log(p.decode("utf-8", "replace"))


_DECODERS: dict[int, Callable[[bytes], Message]] = {
    proto.HELLO: _hello,
    proto.CHANGES: _changes,
    proto.SNAPSHOT: _snapshot,
    proto.BUTTON: _button,
    proto.DIE: _die,
    proto.PONG: _pong,
    proto.LOG: _log,
}
