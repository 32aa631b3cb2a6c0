"""The referee loop: one sensor, one game, the outputs.

:class:`Referee` is the single owner of the game's state. Sensor events go in; it asks
:class:`~referee.live.inference.MoveInference` what they mean, applies recognised actions to its
:class:`~referee.rules.game.Game`, and tells every subscriber what happened with immutable
:class:`Update` values (the state itself is an immutable value too). Subscribers are plain
callables passed in explicitly: a text printer for ``gravekeeper watch``, LEDs and a display
(``referee.app.runner``, which also runs the event pump), the web service. Nothing here opens
hardware.

The public API (stable; extend it compatibly):

* ``Referee(game, subscribers, private=..., settle_ms=..., clock=..., journal=...,
  promotion_default=...)``; ``journal`` is any :class:`Recorder` (the journal file, ``serve``'s
  game store): each action is written there before any subscriber hears of it, with the clock
  already pressed, so the times kept are those after the move.
* Input: :meth:`Referee.feed` (a sensor event, buttons included), :meth:`Referee.tick` (time
  passed, on the sensor's time base; polls the chess clock), :meth:`Referee.finish` (the
  stream ended), :meth:`Referee.private_action` (an off-board choice from a phone or a
  private screen; returns None if refused, never echoing the secret), :meth:`Referee.start`.
* Output: every subscriber is called with each :class:`Update` in order;
  :meth:`Referee.subscribe` adds one later and returns a function that removes it. Update
  texts are public (secret choices appear as ``bury=(secret)``); ``state`` is the full state,
  secrets included, for subscribers that filter per viewer.
* The arbiter and the players off the board: :meth:`Referee.take_back` (the last action,
  recorder first), :meth:`Referee.board_set` (the arbiter says the pieces stand as the game
  says: judge the board anew), :meth:`Referee.adjudicate` (a result from outside the board:
  resignation, agreed draw, the arbiter), :meth:`Referee.pause` / :meth:`Referee.resume` /
  :meth:`Referee.add_time` (the chess clock), :meth:`Referee.promote` (a promotion piece
  chosen on a phone). Each is published as an :class:`Update` like everything else, so the
  LEDs, the display and the pages follow whoever made the change.
* Take-backs and the clock: before each action the referee keeps the clock's times
  (:class:`RewindableClock`, the last :data:`CLOCK_HISTORY` actions), and a take-back puts
  both times back as they were before it, so an increment or a Bronstein refund received with
  the move goes back with it (players expect the position *and* the clocks of before the
  move). A flag fall taken back lifts the flag and leaves the clock paused by the arbiter
  (:data:`ARBITER`): that side has 0 s until the arbiter adds time and resumes.
* Every public method takes the referee's lock, so a web thread may call
  :meth:`Referee.private_action` while the pump thread feeds events; subscribers run on the
  calling thread, under that lock (post to your own queue for slow work).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from firmware_bridge.events import Button, Die, Lift, LinkState, Occupied, Place, SensorEvent
from referee.live.inference import (
    BoardGood,
    Correction,
    Decision,
    MoveInference,
    Problem,
    PromotionPending,
    Recognised,
)
from referee.rules import actions as A
from referee.rules.actions import Action
from referee.rules.errors import IllegalActionError, RefereeError
from referee.rules.events import GameEvent
from referee.rules.game import Game, Played
from referee.rules.pieces import BLACK, COLOUR_NAMES, WHITE
from referee.rules.state import State

CLOCKS = {"clock-white": WHITE, "clock-black": BLACK}


@dataclass(frozen=True)
class Update:
    """One thing that happened, for the outputs.

    ``kind``: ``action`` (``played`` is set), ``problem``, ``correction``, ``good``,
    ``prompt`` (a choice the players must make: ``text`` says which; ``options`` lists a
    promotion's pieces, the one selected first; ``default`` is the piece taken when nobody can
    choose, empty when the referee waits for the choice), ``link`` (sensor link state),
    ``ended`` (a flag fell, a resignation, an arbiter's result: ``played`` is the
    adjudication), ``takeback`` (``played`` is the action taken back), ``paused`` /
    ``resumed`` (the clock, ``text`` the reason), ``clock`` (time added), ``note`` (anything
    else worth showing). ``state`` is the game state after it.
    """

    kind: str
    text: str
    state: State
    played: Played | None = None
    problem: Problem | None = None
    correction: Correction | None = None
    events: tuple[GameEvent, ...] = ()
    options: tuple[str, ...] = ()
    default: str = ""


Subscriber = Callable[[Update], None]

ILLEGAL_POSITION = "illegal position"
#: The arbiter's pause reason (``pause`` / ``resume`` default; a flag fall taken back).
ARBITER = "arbiter"
#: How many actions back a take-back finds the clock's times from before the action.
CLOCK_HISTORY = 256


class FlagLike(Protocol):
    """What a clock reports when a flag falls."""

    @property
    def colour(self) -> int: ...


class GameClock(Protocol):
    """The chess clock the referee drives (``hardware.clock.ChessClock`` has this shape).

    Times are the clock's own business; the referee only says when turns change, when the
    board is in an illegal state (time stops, and starts again when it is put right) and when
    the sensor link drops, and asks whether a flag fell.
    """

    def start(self, colour: int = WHITE) -> None: ...
    def press(self, colour: int) -> bool: ...
    def pause(self, reason: str, since: float | None = None) -> None: ...
    def resume(self, reason: str) -> None: ...
    def link_changed(self, state: str, last_heard: float | None = None) -> None: ...
    def stop(self) -> None: ...
    def poll(self) -> FlagLike | None: ...
    def add_time(self, colour: int, seconds: float) -> None: ...
    @property
    def running(self) -> int | None: ...


@runtime_checkable
class RewindableClock(Protocol):
    """A clock a take-back can rewind (``hardware.clock.ChessClock``): its times as a value
    before each action, put back when the action is taken back; a fallen flag lifted."""

    def snapshot(self) -> object: ...
    def restore(self, snapshot: object) -> None: ...
    def clear_flag(self) -> int | None: ...


class Recorder(Protocol):
    """Where applied actions are written before anyone hears of them (the journal file,
    ``serve``'s game store). ``take_back`` forgets the last one written."""

    def write(self, played: Played) -> None: ...
    def take_back(self) -> None: ...


@dataclass
class RefereeStats:
    """Counts for the closing summary."""

    actions: int = 0
    problems: int = 0
    corrections: int = 0
    unknown_squares: set[str] = field(default_factory=set)


class Referee:
    """Runs one game from sensor events.

    Args:
        game: the game (owned from now on: nobody else calls ``game.play``).
        subscribers: called with every :class:`Update`, in order, on the caller's thread.
        private: actions to use, in order, when the game waits for a choice that is not made on
            the board (a Zombie burial, a Masquerade assignment); live play takes them from the
            players' phones through :meth:`private_action`.
        clock: a chess clock to drive (pressed when the turn passes, paused while the board is
            wrong or the sensor link is down); a fallen flag ends the game at the next tick.
        journal: where every applied action is written at once, so that a crash loses nothing
            (``referee.live.journal``, or any :class:`Recorder`).
        promotion_default: a promotion piece cannot be chosen here (no buttons, no phone):
            take the first piece offered once play goes on, and say so in the prompt (the
            default, for sensors alone). False waits for the choice however long play goes
            on (buttons or a phone can make it).
        settle_ms, provisional_ms, confirm_with_clock: see :class:`MoveInference`.
    """

    def __init__(self, game: Game, subscribers: Sequence[Subscriber] = (), *,
                 private: Iterable[str] = (), settle_ms: int = 150,
                 provisional_ms: int = 1500, confirm_with_clock: bool = False,
                 clock: GameClock | None = None, journal: Recorder | None = None,
                 promotion_default: bool = True) -> None:
        self.game = game
        self.clock = clock
        self.journal = journal
        self.subscribers = list(subscribers)
        self.private = self._unspent(list(private))
        self.stats = RefereeStats()
        self.inference = MoveInference(game.variant, game.state, settle_ms=settle_ms,
                                       provisional_ms=provisional_ms,
                                       confirm_with_clock=confirm_with_clock,
                                       promotion_default=promotion_default)
        self.promotion_default = promotion_default
        self._choice: tuple[list[Action], int] | None = None
        self._last_event_ms: int | None = None
        self._clock_marks: dict[int, object] = {}  # action index -> clock times before it
        self._lock = threading.RLock()

    def subscribe(self, subscriber: Subscriber) -> Callable[[], None]:
        """Call ``subscriber`` with every later update; returns a function that stops it."""
        with self._lock:
            self.subscribers.append(subscriber)

        def unsubscribe() -> None:
            with self._lock:
                if subscriber in self.subscribers:
                    self.subscribers.remove(subscriber)
        return unsubscribe

    def _unspent(self, queue: list[str]) -> list[str]:
        """``queue`` without the choices a resumed game already made: each off-board choice
        in the game so far spends the first queued choice of the same text."""
        def canonical(text: str) -> str:
            try:
                return self.game.variant.format_action(self.game.parse(text))
            except RefereeError:
                return text.strip()

        off_board = self.game.variant.kinds_done_by(*A.OFF_BOARD)
        for played in self.game.played:
            if played.action.kind not in off_board:
                continue
            for i, text in enumerate(queue):
                if canonical(text) == played.text:
                    del queue[i]
                    break
        return queue

    # ------------------------------------------------------------------ input

    def feed(self, event: SensorEvent) -> None:
        """Handle one sensor event."""
        with self._lock:
            self._feed_locked(event)

    def _feed_locked(self, event: SensorEvent) -> None:
        # (under the lock)
        # If the board had settled before this event, judge it as it was then (and act on
        # that, e.g. take a burial from a phone) before this event starts the next change.
        last = self._last_event_ms
        if last is not None and event.t_ms - last >= self.inference.settle_ms:
            self._handle(self.inference.tick(last + self.inference.settle_ms))
        self._last_event_ms = event.t_ms if last is None else max(last, event.t_ms)
        self._handle(self._decide(event))

    def tick(self, now_ms: int) -> None:
        """Time passed with no event (call a few times a second for live sensors)."""
        with self._lock:
            self._tick_locked(now_ms)

    def _tick_locked(self, now_ms: int) -> None:
        # (under the lock)
        self._handle(self.inference.tick(now_ms))
        flag = self.clock.poll() if self.clock is not None else None
        if flag is not None and self.game.outcome.result == "*":
            opponent = BLACK if flag.colour == WHITE else WHITE
            reason = f"{COLOUR_NAMES[flag.colour]}'s flag fell"
            if self.game.variant.can_mate(self.game.state, opponent):
                result = "0-1" if flag.colour == WHITE else "1-0"
            else:
                result = "1/2-1/2"
                reason += f"; {COLOUR_NAMES[opponent]} cannot mate"
            self._end(result, reason)

    def finish(self) -> None:
        """The sensor stream ended: judge the board as it stands now."""
        with self._lock:
            self._finish_locked()

    def _finish_locked(self) -> None:
        # (under the lock)
        self._handle(self.inference.flush())

    def note(self, text: str) -> None:
        """Tell everyone ``text`` (a ``note`` update): something from outside the rules, a
        sensor's notice (a camera that cannot explain the board it sees). The game does not
        change; nothing secret may be in ``text``."""
        with self._lock:
            self._emit(Update("note", text, self.game.state))

    def private_action(self, text: str) -> Played | None:
        """A choice made off the board (phone, private screen). Returns None if refused."""
        with self._lock:
            return self._private_action_locked(text)

    def _private_action_locked(self, text: str) -> Played | None:
        # (under the lock)
        self._choice = None
        try:
            played = self.game.play(text)
        except RefereeError as err:
            # never echo the text: it is a secret of the player who sent it
            reason = err.reason if isinstance(err, IllegalActionError) else "not understood"
            self._emit(Update("note", f"a private choice was refused: {reason}",
                              self.game.state))
            return None
        self._mark_clock(len(self.game.played) - 1)
        self._drive_clock(played)  # first: the recorder keeps the times after the move
        self._record(played)
        self.stats.actions += 1
        self._emit(Update("action", self._public(played), self.game.state, played=played,
                          events=played.events))
        # The choice may change the board (a zombie that rots when the turn ends): say what.
        self._handle(self.inference.resync(self.game.state))
        self._offer_private()
        return played

    def _decide(self, event: SensorEvent) -> list[Decision]:
        inf = self.inference
        if isinstance(event, Lift | Place | Occupied):
            squares = [event.square] if isinstance(event, Lift | Place) else sorted(event.squares)
            known = [self._square(s) for s in squares]
            if isinstance(event, Lift):
                return inf.lift(event.t_ms, known[0]) if known[0] >= 0 else []
            if isinstance(event, Place):
                return inf.place(event.t_ms, known[0], event.piece) if known[0] >= 0 else []
            colours = {self._square(s): WHITE if c == "w" else BLACK
                       for s, c in event.colours.items()}
            colours.pop(-1, None)
            return inf.snapshot(event.t_ms, [s for s in known if s >= 0], colours)
        if isinstance(event, Die | Button):
            # what the board showed before the press or the roll comes first
            self._handle(inf.tick(event.t_ms))
            if isinstance(event, Die):
                return inf.die(str(event.face))
            return self._button(event.name)
        if isinstance(event, LinkState):
            if self.clock is not None:
                self.clock.link_changed(event.state)
            self._emit(Update("link", f"sensor link {event.state}", self.game.state))
        return []

    def _button(self, name: str) -> list[Decision]:
        if name in CLOCKS:
            return self.inference.clock_pressed(CLOCKS[name])
        if name == "roll":
            rolls = [A.simple(kind) for kind in self.game.variant.kinds_done_by(A.DIE)]
            return [Recognised((roll,)) for roll in rolls
                    if self.game.variant.is_legal(self.game.state, roll)]
        if self._choice is not None and name in ("back", "confirm"):
            return self._choice_button(name)
        return self.inference.promotion_button(name)

    def _choice_button(self, name: str) -> list[Decision]:
        """Buttons step through an off-board choice (a revealed zombie pawn's promotion)."""
        assert self._choice is not None
        options, index = self._choice
        if name == "back":
            self._choice = (options, (index + 1) % len(options))
            self._prompt_choice()
            return []
        self._choice = None
        return [Recognised((options[index],))]

    def _prompt_choice(self) -> None:
        assert self._choice is not None
        options, index = self._choice
        texts = [self.game.variant.format_action(a) for a in options[index:] + options[:index]]
        self._emit(Update("prompt", "choose with back / confirm: " + " ".join(texts),
                          self.game.state))

    def _square(self, text: str) -> int:
        layout = self.game.variant.layout
        if layout.has_square(text):
            return layout.square(text)
        if text not in self.stats.unknown_squares:
            self.stats.unknown_squares.add(text)
            self._emit(Update("note", f"square {text} is not part of {self.game.variant.name}; "
                                      "ignored", self.game.state))
        return -1

    # ------------------------------------------------------------------ decisions

    def _handle(self, decisions: list[Decision]) -> None:
        for decision in decisions:
            if isinstance(decision, Recognised):
                self._apply(decision.actions)
            elif isinstance(decision, Problem):
                self.stats.problems += 1
                if self.clock is not None:
                    self.clock.pause(ILLEGAL_POSITION)
                self._emit(Update("problem", decision.text, self.game.state, problem=decision))
            elif isinstance(decision, Correction):
                self.stats.corrections += 1
                self._emit(Update("correction", self._correction_text(decision),
                                  self.game.state, correction=decision))
            elif isinstance(decision, BoardGood):
                if self.clock is not None:
                    self.clock.resume(ILLEGAL_POSITION)
                self._emit(Update("good", "the board matches the game again", self.game.state))
            elif isinstance(decision, PromotionPending):
                options = " ".join(o or "-" for o in decision.options)
                if self.promotion_default:
                    default = decision.options[0] or "-"
                    text = (f"Promote to? {options} (confirm / back; nobody can choose here: "
                            f"{default} once play goes on)")
                else:
                    default = ""
                    text = f"Promote to? {options} (confirm / back, or on the phone)"
                self._emit(Update("prompt", text, self.game.state, options=decision.options,
                                  default=default))

    def _apply(self, actions: tuple[Action, ...]) -> None:
        for action in actions:
            try:
                played = self.game.play(action)
            except RefereeError as err:  # the inference and the rules disagree: never guess
                self._emit(Update("note", f"internal: {err}", self.game.state))
                self.inference.set_state(self.game.state)
                return
            self._after_play(played)

    def _after_play(self, played: Played) -> None:
        self._mark_clock(len(self.game.played) - 1)
        self._drive_clock(played)  # first: the recorder keeps the times after the move
        self._record(played)
        self.stats.actions += 1
        self.inference.set_state(self.game.state)
        self._emit(Update("action", self._public(played), self.game.state, played=played,
                          events=played.events))
        self._offer_private()

    def _offer_private(self) -> None:
        """Feed queued private choices while the game waits for one; else say who must act."""
        legal = self.game.legal()
        variant = self.game.variant
        if not legal or any(variant.kinds[a.kind].physical for a in legal):
            return
        if self.private:
            self.private_action(self.private.pop(0))
            return
        if all(variant.kinds[a.kind].done_by == A.DISPLAY for a in legal):  # public
            self._choice = (list(legal), 0)
            self._prompt_choice()
            return
        who = COLOUR_NAMES[self.game.state.to_act]
        kinds = "/".join(sorted({a.kind for a in legal}))
        self._emit(Update("prompt", f"waiting for {who}'s private choice ({kinds})",
                          self.game.state))

    def _record(self, played: Played) -> None:
        if self.journal is not None:
            self.journal.write(played)

    def _rewindable(self) -> RewindableClock | None:
        """The clock, when a take-back can rewind it."""
        clock: object = self.clock  # (mypy cannot intersect two protocols)
        return clock if isinstance(clock, RewindableClock) else None

    def _mark_clock(self, index: int, snapshot: object | None = None) -> None:
        """Keep the clock's times from before action ``index`` (``snapshot``: taken already,
        else now) for a take-back."""
        if snapshot is None:
            clock = self._rewindable()
            if clock is None:
                return
            snapshot = clock.snapshot()
        self._clock_marks[index] = snapshot
        self._clock_marks.pop(index - CLOCK_HISTORY, None)

    def _drive_clock(self, played: Played) -> None:
        """A recognised action means the board is right again; a passed turn presses."""
        if self.clock is None:
            return
        self.clock.resume(ILLEGAL_POSITION)
        state = self.game.state
        before = state.parent
        if self.game.outcome.result != "*":
            self.clock.stop()
        elif before is not None and state.turn != before.turn:
            self.clock.press(before.turn)

    def _public(self, played: Played) -> str:
        """The action as everyone may see it (a burial square stays secret)."""
        return self.game.variant.public_action_text(played.action)

    def _correction_text(self, correction: Correction) -> str:
        name = self.game.variant.layout.name
        parts = []
        if correction.to_fill:
            parts.append("put a piece on " + " ".join(name(s) for s in correction.to_fill))
        if correction.to_empty:
            parts.append("remove the piece from " + " ".join(name(s) for s in correction.to_empty))
        if correction.swap:
            parts.append("wrong piece on " + " ".join(name(s) for s in correction.swap))
        return "; ".join(parts)

    def _emit(self, update: Update) -> None:
        for subscriber in self.subscribers:
            subscriber(update)

    def start(self) -> None:
        """Start the clock of the side to move (White in a new game; in a resumed game whoever
        is to move, with no increment given); announce any private choice the game waits for."""
        with self._lock:
            self._start_locked()

    def _start_locked(self) -> None:
        # (under the lock)
        if self.clock is not None and self.game.outcome.result == "*":
            self.clock.start(self.game.state.turn)
        self._offer_private()

    # ------------------------------------------------------------------ arbiter, players

    def take_back(self) -> Played:
        """Take back the last action (an adjudication too, which reopens the game).

        The recorder forgets it first; then the game, the clock (the side to move again runs;
        a game reopened runs again) and the expected board follow, and subscribers hear a
        ``takeback`` update, then what must change on the board (a ``correction``).

        Raises:
            IllegalActionError: nothing to take back. RecordError: the recorder failed.
        """
        with self._lock:
            if not self.game.played:
                raise IllegalActionError("takeback", "nothing to take back")
            if self.journal is not None:
                self.journal.take_back()
            was_over = self.game.outcome.result != "*"
            mark = self._clock_marks.pop(len(self.game.played) - 1, None)
            undone = self.game.undo()
            self._choice = None
            flag_lifted = self._rewind_clock(mark, was_over)
            self.stats.actions = max(0, self.stats.actions - 1)
            self._emit(Update("takeback", f"took back {self._public(undone)}", self.game.state,
                              played=undone))
            if flag_lifted:
                assert self.clock is not None
                self.clock.pause(ARBITER)
                self._emit(Update("paused", ARBITER, self.game.state))
            self._handle(self.inference.resync(self.game.state))
            self._offer_private()
            return undone

    def _rewind_clock(self, mark: object | None, was_over: bool) -> bool:
        """The clock after a take-back: a fallen flag lifted (True: the arbiter must add time
        and resume), else the times from before the action, else (a resumed game's older
        action, a clock that cannot rewind) the side to move runs."""
        clock, rewindable = self.clock, self._rewindable()
        if clock is None or self.game.outcome.result != "*":
            return False
        if rewindable is not None:
            if was_over and rewindable.clear_flag() is not None:
                return True
            if mark is not None:
                rewindable.restore(mark)
                return False
        turn = self.game.state.turn
        if was_over or clock.running != turn:
            clock.start(turn)
        return False

    def board_set(self) -> None:
        """The arbiter says the pieces stand as the game says: a stopped clock runs again
        and the board is judged anew against the game (what still differs comes back as a
        ``correction``)."""
        with self._lock:
            if self.clock is not None:
                self.clock.resume(ILLEGAL_POSITION)
            self._emit(Update("good", "the arbiter says the board is set", self.game.state))
            self._handle(self.inference.resync(self.game.state, fresh=True))

    def adjudicate(self, result: str, reason: str) -> Played:
        """End the game from outside the board (resignation, agreed draw, the arbiter).

        Raises:
            IllegalActionError: the game is over already, or ``result`` is not a result.
        """
        with self._lock:
            return self._end(result, reason)

    def _end(self, result: str, reason: str) -> Played:
        rewindable = self._rewindable()
        snapshot = rewindable.snapshot() if rewindable is not None else None
        played = self.game.adjudicate(result, reason)
        if snapshot is not None:
            self._mark_clock(len(self.game.played) - 1, snapshot)
        if self.clock is not None:
            self.clock.stop()
        self._record(played)
        self._emit(Update("ended", f"{played.text} - {result}", self.game.state,
                          played=played, events=played.events))
        return played

    def pause(self, reason: str = ARBITER) -> None:
        """Stop the clock for ``reason`` (an arbiter's pause) until :meth:`resume`."""
        with self._lock:
            if self.clock is not None:
                self.clock.pause(reason)
            self._emit(Update("paused", reason, self.game.state))

    def resume(self, reason: str = ARBITER) -> None:
        """Lift the pause ``reason``."""
        with self._lock:
            if self.clock is not None:
                self.clock.resume(reason)
                self._follow_turn()
            self._emit(Update("resumed", reason, self.game.state))

    def _follow_turn(self) -> None:
        """A move made on the board while the clock was paused could not press it (a paused
        clock takes no press); the press is owed, so it is made when time runs again: the
        mover is charged what it used before the pause, gets its increment, and the side to
        move's time runs (a clock still paused for another reason refuses it again)."""
        clock = self.clock
        if clock is None or self.game.outcome.result != "*":
            return
        running = clock.running
        if running is not None and running != self.game.state.turn:
            clock.press(running)

    def add_time(self, colour: int, seconds: float) -> None:
        """Give ``colour`` more time (an arbiter's decision).

        Raises:
            ValueError: no clock, or ``seconds`` is not positive.
        """
        with self._lock:
            if self.clock is None:
                raise ValueError("this game has no clock")
            self.clock.add_time(colour, seconds)
            self._emit(Update("clock", f"{seconds:g} s more for {COLOUR_NAMES[colour]}",
                              self.game.state))

    def promote(self, piece: str) -> bool:
        """Choose the piece of the promotion the referee waits for (``q``, ``n``...; from a
        phone). False when no promotion waits or ``piece`` is not one of its options."""
        with self._lock:
            decisions = self.inference.promotion_choose(piece)
            if not decisions:
                return False
            self._handle(decisions)
            return True
