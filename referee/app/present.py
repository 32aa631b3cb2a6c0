"""From the referee's game events to what the LEDs and the shared display show.

:class:`Presenter` is the default mapping the orchestrator can use (or replace piece by piece
with the builders of :mod:`hardware.leds.language` and :mod:`hardware.display.screen`). It
drops every event a spectator may not see (``referee.rules.events.visible_to(event, None)``), so
secret burials and assignments never reach the LEDs or the display.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Final

from firmware_bridge.events import is_square
from hardware.display import screen as screens
from hardware.display.screen import ClockFace, Screen
from hardware.leds import language
from hardware.leds.picture import Spot
from hardware.leds.scene import LedScene, compose
from referee.rules.actions import DIE
from referee.rules.events import (
    Announcement,
    CaptureAttempt,
    Captured,
    GameEnded,
    GameEvent,
    Marker,
    MarkerKind,
    Moved,
    Placed,
    Prompt,
    Removed,
    visible_to,
)
from referee.rules.geometry import Layout


def marker_layer(kind: MarkerKind, squares: Iterable[str]) -> LedScene:
    """The background layer of a variant's marker ``kind`` under ``squares``, lit as the kind
    says (a generic style and palette colour of :mod:`hardware.leds.language`)."""
    return language.marked(sorted(squares), kind.colour, kind.style, kind.legend,
                           kind.layer_name)


def marker_arrival(kind: MarkerKind, squares: Iterable[str]) -> LedScene:
    """Pieces the referee put down with their marker (``kind.arrives``: a zombie rises)."""
    return language.arriving(squares, kind.colour, kind.arrives)


def marker_departure(kind: MarkerKind, squares: Iterable[str]) -> LedScene:
    """Pieces that must leave with their marker (``kind.departs``: zombies rot)."""
    return language.departing(squares, kind.colour, kind.departs)


def picture_spots(layout: Layout) -> dict[str, Spot]:
    """Where each square of a variant's ``layout`` is drawn in LED pictures: the physical
    places its regions declare, handed to ``hardware`` as plain data."""
    return {name: Spot(*place) for name, place in layout.places().items()}


@dataclass(frozen=True)
class Presentation:
    """What to show after a batch of events: the LED ``scene`` and the ``screen``."""

    scene: LedScene
    screen: Screen


class Presenter:
    """Maps batches of game events to :class:`Presentation` values.

    It remembers the public markers it was told about (tombstones, zombie coins), which stay lit
    under every later scene as their variant's :class:`MarkerKind` says (the kind comes with
    each :class:`Marker` event; this module names no marker). Seed them with ``markers``
    (marker kind -> squares) when a game is resumed. Not thread-safe: the orchestrator's game
    loop owns it.
    """

    def __init__(self, markers: Mapping[MarkerKind, Iterable[str]] | None = None) -> None:
        seeded = dict(markers or {})
        self._markers: dict[str, set[str]] = {k.name: set(v) for k, v in seeded.items()}
        self._looks: dict[str, MarkerKind] = {k.name: k for k in seeded}
        self._last: Presentation | None = None
        self._last_moves: list[tuple[str, str]] = []
        self._last_note = ("", "")  # the last move: as the variant says it, and short

    @property
    def markers(self) -> dict[str, frozenset[str]]:
        """The public markers known now (name -> squares)."""
        return {k: frozenset(v) for k, v in self._markers.items()}

    def update(self, events: Iterable[GameEvent], *, turn: int | None = None,
               clock: ClockFace | None = None, check: bool = False) -> Presentation:
        """The scene and screen after ``events`` (one move's worth). ``turn`` is the colour to
        act next (for the turn screen when nothing else needs saying); ``check`` says that side
        is in check now.

        A batch without a move (a Hell home, a ghost cell or a drop chosen by putting the piece
        down, a secret burial, a roll) keeps showing the last move: the players still want to
        see what was played."""
        public = [e for e in events if visible_to(e, None)]
        for event in public:
            if isinstance(event, Marker):
                self._apply_marker(event)
        moved = [e for e in public if isinstance(e, Moved) and e.frm and e.to]
        if moved:
            self._last_moves = [(e.frm, e.to) for e in moved]
            self._last_note = _move_note(moved[0], public, castled=len(moved) == 2)
        mark = "+" if check else ""
        long, short = (n + mark if n else "" for n in self._last_note)
        scene = compose(self._background(), *self._situations(public))
        result = Presentation(scene, self._screen(public, turn, clock, long, short, check))
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
        if event.look is not None:
            self._looks.setdefault(event.marker, event.look)
        squares = self._markers.setdefault(event.marker, set())
        if event.added:
            squares.add(event.square)
        else:
            squares.discard(event.square)

    def _background(self) -> LedScene:
        layers = [marker_layer(kind, self._markers.get(name, ()))
                  for name, kind in self._looks.items()]
        return compose(*layers)

    def _situations(self, events: list[GameEvent]) -> list[LedScene]:
        moves = [(e.frm, e.to) for e in events if isinstance(e, Moved) and e.frm and e.to]
        shown = moves or self._last_moves
        layers = [language.last_move(*shown[0], *shown[1:])] if shown else []
        for event in events:
            layers.extend(_event_layer(event, moves))
        return layers

    def _screen(self, events: list[GameEvent], turn: int | None, clock: ClockFace | None,
                note: str, short: str, check: bool) -> Screen:
        for event in reversed(events):
            if isinstance(event, GameEnded):
                return screens.game_over(event.result, event.text, clock)
        for event in reversed(events):
            if isinstance(event, Prompt):
                return _prompt_screen(event, clock, note)
        said = _news(events)
        if check:
            said.append((0, "Check"))
        if said:
            title = f"{screens.colour_name(turn)} to move" if turn in (1, 2) else "Referee"
            lines = screens.fit_lines([*said, (9, note)] if note else said)
            if note and note not in lines and short != note:  # the short form may still fit
                lines = screens.fit_lines([*said, (9, short)])
            return screens.Screen(screens.ScreenKind.ANNOUNCEMENT, title, lines,
                                  clock=clock, colour=turn)
        if turn is not None:  # with a clock the move has one line of its own
            return screens.turn(turn, clock, short if clock is not None else note)
        return self._last.screen if self._last else screens.announcement("", clock)


#: What the display says about a batch, most important first (lower number).
_NEWS_RANK: Final = {Announcement: 1, CaptureAttempt: 1, Placed: 2, Removed: 2, Captured: 3}


def _news(events: list[GameEvent]) -> list[tuple[int, str]]:
    """(rank, sentence) of what happened besides the move: announcements, spawns, reveals,
    homes, rot... A capture is told only when the move's ``x`` does not already say it and
    nothing later says where the victim went."""
    out: list[tuple[int, str]] = []
    landed = {e.to for e in events if isinstance(e, Moved)}
    for i, event in enumerate(events):
        rank = _NEWS_RANK.get(type(event))
        if rank is None or not event.text:
            continue
        if isinstance(event, Captured) and (event.square in landed or any(
                isinstance(e, (Placed, Removed)) and e.piece == event.piece
                for e in events[i + 1:])):
            continue
        out.append((rank, event.text))
    return out


def _move_note(move: Moved, events: list[GameEvent], castled: bool = False) -> tuple[str, str]:
    """The move as the variant says it (``x`` for a capture; ``O-O``/``O-O-O`` for a king that
    moves two files with its rook), and as one short line: the compact ``piece from-to`` form
    when the text would not fit on one display line."""
    if castled and move.piece in ("K", "k") and abs(ord(move.frm[0]) - ord(move.to[0])) == 2:
        side = "O-O" if move.to[0] > move.frm[0] else "O-O-O"
        return side, side
    took = any(isinstance(e, Captured) and e.square == move.to for e in events) or any(
        isinstance(e, CaptureAttempt) and e.to == move.to and e.succeeded for e in events)
    sep = "x" if took else "-"
    text = move.text or f"{move.piece} {move.frm}-{move.to}".strip()
    if took and text.endswith(f"{move.frm}-{move.to}"):
        text = text[: -len(move.to) - 1] + sep + move.to
    if len(text) > screens.LINE_COLUMNS - 1:  # room for a check mark
        return text, f"{move.piece} {move.frm}{sep}{move.to}".strip()
    return text, text


def _event_layer(event: GameEvent, moves: list[tuple[str, str]]) -> list[LedScene]:
    if isinstance(event, Placed) and event.square:
        if event.marker is not None and event.marker.arrives:  # it comes with its marker
            return [marker_arrival(event.marker, [event.square])]
        return [language.choose([event.square], event.reason or "put the piece here")]
    if isinstance(event, Removed) and event.square:
        if event.marker is not None and event.marker.departs:  # it goes with its marker
            return [marker_departure(event.marker, [event.square])]
        return [LedScene.of([event.square], language.lift(event.reason or "take it away"))]
    if isinstance(event, CaptureAttempt) and not event.succeeded:
        return [language.capture_failed(event.frm, event.to)]
    if isinstance(event, Prompt):
        return _prompt_layer(event, moves)
    return []


def _prompt_layer(event: Prompt, moves: list[tuple[str, str]]) -> list[LedScene]:
    squares = [o.partition("=")[2] or o for o in event.options]
    if squares and all(is_square(s) for s in squares):
        # the legend is the variant's, said by its action kind (ActionKind.legend)
        return [language.choose(squares, event.legend or event.kind or "choose")]
    if event.kind == "promo" and moves:
        return [language.promotion(moves[-1][1])]
    return []


def _prompt_screen(event: Prompt, clock: ClockFace | None, note: str = "") -> Screen:
    colour = event.colour or 1
    if event.kind == "promo":
        letters = tuple(o.rpartition("=")[2].upper() for o in event.options) or ("Q", "R", "B",
                                                                                   "N")
        return screens.promotion(colour, letters, 0, clock)
    if event.done_by == DIE:  # the variant's kind made by rolling a die
        return screens.roll_die(colour, clock)
    short = tuple(o for o in event.options if len(o) <= 3 and not is_square(o))
    shown = screens.prompt(colour, event.text, short, 0 if short else None, clock)
    if note and not short:  # what was just played, below the question when it fits
        lines = screens.fit_lines([(0, event.text), (1, note)])
        shown = replace(shown, lines=lines)
    return shown
