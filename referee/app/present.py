"""From the referee's game events to what the LEDs and the shared display show.

:class:`Presenter` is the default mapping the orchestrator can use (or replace piece by piece
with the builders of :mod:`hardware.leds.language` and :mod:`hardware.display.screen`). It
drops every event a spectator may not see (``referee.rules.events.visible_to(event, None)``), so
secret burials and assignments never reach the LEDs or the display.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Final

from hardware.display import screen as screens
from hardware.display.screen import ClockFace, Screen
from hardware.leds import language
from hardware.leds.picture import Spot
from hardware.leds.scene import LedScene, compose
from referee.rules.events import (
    Announcement,
    CaptureAttempt,
    GameEnded,
    GameEvent,
    Marker,
    Moved,
    Placed,
    Prompt,
    Removed,
    visible_to,
)
from referee.rules.geometry import Layout

_SQUARE_RE: Final = re.compile(r"(?:[a-z]+:)?[a-z][0-9]|limbo")
_PROMPT_REASONS: Final = {"home": "hell home", "spawn": "ghost spawn", "drop": "drop here",
                          "bury": "bury here"}
#: Marker names drawn as background layers, and their builders.
_MARKER_LAYERS: Final = {"tombstone": language.tombstones, "zombie": language.zombies}


def picture_spots(layout: Layout) -> dict[str, Spot]:
    """Where each square of a variant's ``layout`` is drawn in LED pictures: the physical
    places its regions declare, handed to ``hardware`` as plain data."""
    return {name: Spot(*place) for name, place in layout.places().items()}


def is_square(text: str) -> bool:
    """Whether ``text`` has the form of a NOTATION.md square."""
    return _SQUARE_RE.fullmatch(text) is not None


@dataclass(frozen=True)
class Presentation:
    """What to show after a batch of events: the LED ``scene`` and the ``screen``."""

    scene: LedScene
    screen: Screen


class Presenter:
    """Maps batches of game events to :class:`Presentation` values.

    It remembers the public markers it was told about (tombstones, zombie coins), which stay lit
    faintly under every later scene. Seed them with ``markers`` (marker name -> squares) when a
    game is resumed. Not thread-safe: the orchestrator's game loop owns it.
    """

    def __init__(self, markers: Mapping[str, Iterable[str]] | None = None) -> None:
        self._markers: dict[str, set[str]] = {k: set(v) for k, v in (markers or {}).items()}
        self._last: Presentation | None = None

    @property
    def markers(self) -> dict[str, frozenset[str]]:
        """The public markers known now (name -> squares)."""
        return {k: frozenset(v) for k, v in self._markers.items()}

    def update(self, events: Iterable[GameEvent], *, turn: int | None = None,
               clock: ClockFace | None = None) -> Presentation:
        """The scene and screen after ``events`` (one move's worth). ``turn`` is the colour to
        act next (for the turn screen when nothing else needs saying)."""
        public = [e for e in events if visible_to(e, None)]
        for event in public:
            if isinstance(event, Marker):
                self._apply_marker(event)
        scene = compose(self._background(), *self._situations(public))
        result = Presentation(scene, self._screen(public, turn, clock))
        self._last = result
        return result

    def problem(self, text: str, to_empty: Iterable[str] = (), to_fill: Iterable[str] = (),
                clock: ClockFace | None = None) -> Presentation:
        """An illegal or unrecognised board: the squares to empty blink fast (wrong), the
        squares to fill blink slow (put back); the screen says ``text`` and what to do."""
        empty, fill = list(to_empty), list(to_fill)
        hints = [f"Clear {sq}" for sq in empty] + [f"Put back on {sq}" for sq in fill]
        scene = compose(self._background(), language.illegal_move(empty, fill))
        return self._keep(Presentation(scene, screens.error(text, hints, clock)))

    def correction(self, to_empty: Iterable[str] = (), to_fill: Iterable[str] = (),
                   swap: Iterable[tuple[str, str]] = (),
                   clock: ClockFace | None = None) -> Presentation:
        """What the players still have to do on the board after a recognised action."""
        empty, fill, pairs = list(to_empty), list(to_fill), list(swap)
        scene = compose(self._background(), language.correction(empty, fill, pairs))
        screen = screens.correction(empty, [(sq, "") for sq in fill], pairs, clock)
        return self._keep(Presentation(scene, screen))

    def paused(self, reason: str, squares: Iterable[str],
               clock: ClockFace | None = None) -> Presentation:
        """The game is paused (arbiter, lost link): every square of ``squares`` pulses."""
        return self._keep(Presentation(language.arbiter_pause(squares),
                                       screens.paused(reason, clock)))

    def lifted(self, origin: str, targets: Iterable[str] = (),
               captures: Iterable[str] = ()) -> Presentation:
        """A piece was lifted: show where it may go, over the last scene; the screen stays."""
        below = self._last.scene if self._last else self._background()
        screen = self._last.screen if self._last else screens.announcement("")
        return Presentation(language.lifted(origin, targets, captures).over(below), screen)

    def _keep(self, presentation: Presentation) -> Presentation:
        self._last = presentation
        return presentation

    def _apply_marker(self, event: Marker) -> None:
        squares = self._markers.setdefault(event.marker, set())
        if event.added:
            squares.add(event.square)
        else:
            squares.discard(event.square)

    def _background(self) -> LedScene:
        layers = [build(sorted(self._markers.get(name, ())))
                  for name, build in _MARKER_LAYERS.items()]
        return compose(*layers)

    def _situations(self, events: list[GameEvent]) -> list[LedScene]:
        moves = [(e.frm, e.to) for e in events if isinstance(e, Moved) and e.frm and e.to]
        layers = [language.last_move(*moves[0], *moves[1:])] if moves else []
        for event in events:
            layers.extend(_event_layer(event, moves))
        return layers

    def _screen(self, events: list[GameEvent], turn: int | None,
                clock: ClockFace | None) -> Screen:
        for event in reversed(events):
            if isinstance(event, GameEnded):
                return screens.game_over(event.result, event.text, clock)
        for event in reversed(events):
            if isinstance(event, Prompt):
                return _prompt_screen(event, clock)
        said = [e.text for e in events if isinstance(e, (Announcement, CaptureAttempt)) and e.text]
        if said:
            return screens.Screen(screens.ScreenKind.ANNOUNCEMENT, "Referee", tuple(said),
                                  clock=clock, colour=turn)
        if turn is not None:
            note = next((e.text for e in reversed(events) if isinstance(e, Moved) and e.text), "")
            return screens.turn(turn, clock, note)
        return self._last.screen if self._last else screens.announcement("", clock)


def _event_layer(event: GameEvent, moves: list[tuple[str, str]]) -> list[LedScene]:
    if isinstance(event, Placed) and event.square:
        if "zombie" in event.reason or "reveal" in event.reason:
            return [language.zombie_reveal([event.square])]
        return [language.choose([event.square], event.reason or "put the piece here")]
    if isinstance(event, Removed) and event.square:
        if "rot" in event.reason:
            return [language.zombie_rot([event.square])]
        return [LedScene.of([event.square], language.lift(event.reason or "take it away"))]
    if isinstance(event, CaptureAttempt) and not event.succeeded:
        return [language.capture_failed(event.frm, event.to)]
    if isinstance(event, Prompt):
        return _prompt_layer(event, moves)
    return []


def _prompt_layer(event: Prompt, moves: list[tuple[str, str]]) -> list[LedScene]:
    squares = [o.partition("=")[2] or o for o in event.options]
    if squares and all(is_square(s) for s in squares):
        if event.kind == "resurrect":
            return [language.resurrection(squares)]
        return [language.choose(squares, _PROMPT_REASONS.get(event.kind, event.kind or "choose"))]
    if event.kind == "promo" and moves:
        return [language.promotion(moves[-1][1])]
    return []


def _prompt_screen(event: Prompt, clock: ClockFace | None) -> Screen:
    colour = event.colour or 1
    if event.kind == "promo":
        letters = tuple(o.rpartition("=")[2].upper() for o in event.options) or ("Q", "R", "B",
                                                                                   "N")
        return screens.promotion(colour, letters, 0, clock)
    if event.kind == "roll":
        return screens.roll_die(colour, clock)
    short = tuple(o for o in event.options if len(o) <= 3 and not is_square(o))
    return screens.prompt(colour, event.text, short, 0 if short else None, clock)
