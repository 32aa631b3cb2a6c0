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


#: How a marker's squares can be lit under every scene: the generic styles the LEDs offer
#: (``hardware.leds.language.MARKER_STYLES``); a variant picks one by name.
MARKER_STYLES: Final = ("faint", "dim", "steady", "pulse")


@dataclass(frozen=True)
class MarkerKind:
    """A kind of public marker under a square (a tombstone, a zombie's coin), said once by the
    variant that has it (``Variant.marker_kinds``), beside its action kinds.

    Attributes:
        name: :attr:`Marker.marker` (``"tombstone"``).
        legend: why its squares are lit, for the LED legend (``"tombstone"``).
        colour: a colour of the LED palette by name (``"purple"``;
            ``hardware.leds.scene.Colour``, lower case).
        style: how its squares stay lit under every later scene: one of
            :data:`MARKER_STYLES` (``"faint"``: a faint steady background).
        layer: the name of its LED layer (``"tombstones"``); empty: ``name`` + ``s``.
        arrives: the legend of a piece the referee has put down *with* this marker (a zombie
            rises: ``"zombie rises"``, a slow blink in the marker's colour); empty: none.
        departs: the legend of a piece that must leave *with* its marker (``"zombie rots"``,
            a slow blink in antiphase); empty: none.
    """

    name: str
    legend: str
    colour: str
    style: str = "faint"
    layer: str = ""
    arrives: str = ""
    departs: str = ""

    def __post_init__(self) -> None:
        if self.style not in MARKER_STYLES:
            raise ValueError(f"marker {self.name!r}: unknown style {self.style!r} "
                             f"(known: {', '.join(MARKER_STYLES)})")

    @property
    def layer_name(self) -> str:
        """The name of its LED layer."""
        return self.layer or f"{self.name}s"

    def put(self, text: str, square: str, *, audience: int = PUBLIC) -> Marker:
        """The event: this marker is now under ``square``."""
        return Marker(text, marker=self.name, square=square, look=self, audience=audience)

    def take(self, text: str, square: str, *, audience: int = PUBLIC) -> Marker:
        """The event: this marker is no longer under ``square``."""
        return Marker(text, marker=self.name, square=square, added=False, look=self,
                      audience=audience)


@dataclass(frozen=True)
class Placed(GameEvent):
    """A piece appeared on ``square`` (a Hell home, a ghost cell, a zombie reveal, a drop).

    ``marker``: the marker kind it arrives with, when its arrival has a look of its own
    (:attr:`MarkerKind.arrives`)."""

    piece: str = ""
    square: str = ""
    reason: str = ""
    marker: MarkerKind | None = None


@dataclass(frozen=True)
class Removed(GameEvent):
    """``piece`` left the game for good (annihilated, dust bin, Ceased to Exist, rot).

    ``marker``: the marker kind it leaves with, when its leaving has a look of its own
    (:attr:`MarkerKind.departs`)."""

    piece: str = ""
    square: str = ""
    reason: str = ""
    marker: MarkerKind | None = None


@dataclass(frozen=True)
class Marker(GameEvent):
    """A marker under a square changed (tombstone added/removed, zombie coin).

    ``look``: the variant's :class:`MarkerKind` (``MarkerKind.put``/``take`` build the event),
    which says how outputs show it; None for a marker nobody sees (a secret burial)."""

    marker: str = ""
    square: str = ""
    added: bool = True
    look: MarkerKind | None = None


@dataclass(frozen=True)
class Prompt(GameEvent):
    """The referee waits for ``colour`` to choose (``kind`` is home/spawn/bury/drop/promo/roll).

    ``legend``: the few words LEDs show for it, and ``done_by``: how it is made at the board
    (``die``: the display asks for a roll), both from the variant's action kind
    (``ActionKind.prompt`` builds the event)."""

    colour: int = 0
    kind: str = ""
    options: tuple[str, ...] = ()
    legend: str = ""
    done_by: str = ""


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
