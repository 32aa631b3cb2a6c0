"""What happened: the game's event log, for outputs (LEDs, display, pages, logs).

Events are immutable. Each has an ``audience``: ``PUBLIC`` or the colour that alone may see it
(a secret burial is told only to the burier). Outputs must filter with :func:`visible_to`.
Squares are written in NOTATION.md text so that events can leave the engine as they are.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

PUBLIC: Final = 0


@dataclass(frozen=True)
class GameEvent:
    """Base of all events. ``text`` is a short human sentence for displays and logs."""

    text: str
    audience: int = field(default=PUBLIC, kw_only=True)


@dataclass(frozen=True)
class Moved(GameEvent):
    """A piece moved from ``frm`` to ``to`` (also castling rooks, resurrections)."""

    piece: str = ""
    frm: str = ""
    to: str = ""


@dataclass(frozen=True)
class Captured(GameEvent):
    """``piece`` was captured on ``square``."""

    piece: str = ""
    square: str = ""


@dataclass(frozen=True)
class Placed(GameEvent):
    """A piece appeared on ``square`` (a Hell home, a ghost cell, a zombie reveal, a drop)."""

    piece: str = ""
    square: str = ""
    reason: str = ""


@dataclass(frozen=True)
class Removed(GameEvent):
    """``piece`` left the game for good (annihilated, dust bin, Ceased to Exist, rot)."""

    piece: str = ""
    square: str = ""
    reason: str = ""


@dataclass(frozen=True)
class Marker(GameEvent):
    """A marker under a square changed (tombstone added/removed, zombie coin)."""

    marker: str = ""
    square: str = ""
    added: bool = True


@dataclass(frozen=True)
class Prompt(GameEvent):
    """The referee waits for ``colour`` to choose (``kind`` is home/spawn/bury/drop/promo/roll).

    ``legend``: the few words LEDs show for it, from the variant's action kind
    (``ActionKind.prompt`` builds the event)."""

    colour: int = 0
    kind: str = ""
    options: tuple[str, ...] = ()
    legend: str = ""


@dataclass(frozen=True)
class Announcement(GameEvent):
    """A spoken/shown sentence: reveals, "no zombie at c6", a failed capture attempt, a roll."""


@dataclass(frozen=True)
class CaptureAttempt(GameEvent):
    """A capture was attempted (Masquerade); ``succeeded`` says how it went. Public."""

    frm: str = ""
    to: str = ""
    succeeded: bool = True


@dataclass(frozen=True)
class GameEnded(GameEvent):
    """The game is over: ``result`` is ``1-0``, ``0-1`` or ``1/2-1/2``."""

    result: str = ""
    reason: str = ""


def visible_to(event: GameEvent, viewer: int | None) -> bool:
    """Whether ``viewer`` (a colour, or None for spectators) may see ``event``."""
    return event.audience == PUBLIC or (viewer is not None and event.audience == viewer)
