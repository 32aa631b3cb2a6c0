"""A chess clock with an injected time source: increments, delays, pauses with refunds, flags.

Time controls (:class:`TimeControl`), all in seconds:

* **increment** (Fischer): added to a player's time *after* each of their moves (when they
  press their clock), not before the first move.
* **delay**, :attr:`DelayMode.SIMPLE` (the US "simple delay"): on each move the clock waits
  ``delay`` seconds before it starts counting down; unused delay is lost.
* **delay**, :attr:`DelayMode.BRONSTEIN`: the clock counts down at once; when the player
  presses, the time used on that move is given back, up to ``delay``.

Pauses: :meth:`ChessClock.pause` stops the running side's time for a reason (an illegal
position, a lost sensor link, the arbiter); several reasons may overlap and the clock resumes
when the last is lifted. ``since`` refunds time used before the pause was noticed (the
silent interval since the sensor was last heard). Paused time is never charged.

Take-backs: :meth:`ChessClock.snapshot` before an action and :meth:`ChessClock.restore` when
the arbiter takes it back put both times back exactly as they were (the mover's time used so far
in the move included, so a simple delay is not given twice and an increment or a Bronstein
refund already received is taken back with the move); pauses in force stay.
:meth:`ChessClock.clear_flag` lifts a fallen flag the arbiter took back: the side's time (0 s,
plus whatever the arbiter added) runs again.

Flag fall: :meth:`ChessClock.poll` returns a :class:`FlagFell` once, when the running side's
time reaches zero, and stops the clock. :class:`ClockWatcher` polls on a
:class:`~hardware.timer.Ticker` and hands events to the orchestrator. Whether a flag fall
loses or draws (the opponent cannot mate) is the referee's call, not the clock's.
"""

from __future__ import annotations

import enum
import math
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Final

from hardware.display.screen import ClockFace
from hardware.sides import BLACK, WHITE
from hardware.timer import Clock, Ticker, Wait, event_wait, monotonic

#: Pause reasons the orchestrator uses (any string works; these are shown on the display).
LINK_LOST: Final = "Sensor link lost"
ILLEGAL_POSITION: Final = "Illegal position"
ARBITER: Final = "Arbiter"


class DelayMode(enum.Enum):
    """How ``TimeControl.delay`` works (see the module docstring)."""

    SIMPLE = "simple"
    BRONSTEIN = "bronstein"


_TC_RE: Final = re.compile(r"(\d+(?:\.\d+)?)(?:([+db])(\d+(?:\.\d+)?))?")


@dataclass(frozen=True)
class TimeControl:
    """``base`` seconds per player, ``increment`` seconds after each move, ``delay`` seconds
    per move handled as ``delay_mode`` says.

    Raises:
        ValueError: a negative time, or a zero base.
    """

    base: float
    increment: float = 0.0
    delay: float = 0.0
    delay_mode: DelayMode = DelayMode.SIMPLE

    def __post_init__(self) -> None:
        if self.base <= 0 or self.increment < 0 or self.delay < 0:
            raise ValueError(f"bad time control: base {self.base} s, increment "
                             f"{self.increment} s, delay {self.delay} s")

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """``"5"`` (5 minutes), ``"3+2"`` (2 s increment), ``"5d3"`` (3 s simple delay),
        ``"5b3"`` (3 s Bronstein delay). Minutes before the sign, seconds after.

        Raises:
            ValueError: text in another form.
        """
        m = _TC_RE.fullmatch(text.strip())
        if m is None:
            raise ValueError(f"time control {text!r}: expected e.g. 5, 3+2, 5d3 or 5b3")
        base, sign, extra = float(m.group(1)) * 60, m.group(2), float(m.group(3) or 0)
        if sign == "+":
            return cls(base, increment=extra)
        if sign in ("d", "b"):
            mode = DelayMode.SIMPLE if sign == "d" else DelayMode.BRONSTEIN
            return cls(base, delay=extra, delay_mode=mode)
        return cls(base)


@dataclass(frozen=True)
class ClockSnapshot:
    """The clock's times at one moment (see :meth:`ChessClock.snapshot`)."""

    bank: tuple[float, float]  # White's, Black's time before the running side's current move
    running: int | None
    used: float  # seconds the running side used in its current move
    flagged: int | None


@dataclass(frozen=True)
class FlagFell:
    """``colour``'s time ran out at clock time ``t`` (seconds)."""

    colour: int
    t: float


class ChessClock:
    """Two countdowns for White and Black; thread-safe; every method reads the injected
    ``clock`` (seconds). ``black`` gives Black another time control (odds games)."""

    def __init__(self, control: TimeControl, black: TimeControl | None = None, *,
                 clock: Clock = monotonic) -> None:
        self.controls = {WHITE: control, BLACK: black or control}
        self._clock = clock
        self._lock = threading.RLock()
        self._bank = {WHITE: control.base, BLACK: (black or control).base}
        self._running: int | None = None
        self._run_since = 0.0
        self._used = 0.0  # seconds the running side used this move before the current stretch
        self._pauses: dict[str, float] = {}
        self._flagged: int | None = None
        self._reported = False
        self._listeners: list[Callable[[], None]] = []

    @classmethod
    def resumed(cls, control: TimeControl, white: float, black: float, *,
                clock: Clock = monotonic) -> ChessClock:
        """A clock for a game resumed with ``white`` / ``black`` seconds left, as they were
        after its last action (at least 0.1 s each: a flag that fell ended the game)."""
        return cls(replace(control, base=max(white, 0.1)), replace(control, base=max(black, 0.1)),
                   clock=clock)

    # -- queries ---------------------------------------------------------------------------
    @property
    def running(self) -> int | None:
        """The colour whose time runs (also while paused), or None."""
        with self._lock:
            return self._running

    @property
    def paused(self) -> tuple[str, ...]:
        """The reasons the clock is paused (empty: not paused)."""
        with self._lock:
            return tuple(self._pauses)

    @property
    def flagged(self) -> int | None:
        """The colour whose flag fell, or None."""
        with self._lock:
            return self._flagged

    def remaining(self, colour: int) -> float:
        """Seconds left for ``colour`` now (never below 0)."""
        with self._lock:
            if colour != self._running:
                return max(0.0, self._bank[colour])
            return max(0.0, self._bank[colour] - self._charge(self._elapsed()))

    def times(self) -> tuple[float, float]:
        """Seconds left now for White and for Black (what :meth:`resumed` takes back)."""
        with self._lock:
            return self.remaining(WHITE), self.remaining(BLACK)

    def face(self) -> ClockFace:
        """A snapshot for the display."""
        with self._lock:
            return ClockFace(self.remaining(WHITE), self.remaining(BLACK), self._running,
                             bool(self._pauses), self._flagged)

    def time_to_flag(self) -> float | None:
        """Seconds until the running side's flag falls, None if no time is running."""
        with self._lock:
            if self._running is None or self._pauses:
                return None
            control = self.controls[self._running]
            wait = self._bank[self._running] - self._charge(self._elapsed())
            if control.delay_mode is DelayMode.SIMPLE:
                wait += max(0.0, control.delay - self._elapsed())
            return max(0.0, wait)

    # -- commands --------------------------------------------------------------------------
    def start(self, colour: int = WHITE) -> None:
        """Start ``colour``'s time (White's at the start of a game)."""
        with self._lock:
            self._running, self._used, self._run_since = colour, 0.0, self._clock()
        self._changed()

    def press(self, colour: int) -> bool:
        """``colour`` completed a move and pressed their clock: charge the move, add the
        increment (and the Bronstein refund) and start the opponent's time.

        Returns:
            False (nothing happens) if ``colour``'s time is not running, the clock is paused or
            a flag has fallen.
        """
        with self._lock:
            if colour != self._running or self._pauses or self._flagged is not None:
                return False
            wait = self.time_to_flag()
            if wait is not None and wait <= 0:
                return False  # the flag is down; poll() reports it
            control, elapsed = self.controls[colour], self._elapsed()
            bank = self._bank[colour] - self._charge(elapsed) + control.increment
            if control.delay_mode is DelayMode.BRONSTEIN:
                bank += min(control.delay, elapsed)
            self._bank[colour] = bank
            self._running = BLACK if colour == WHITE else WHITE
            self._used, self._run_since = 0.0, self._clock()
        self._changed()
        return True

    def pause(self, reason: str, since: float | None = None) -> None:
        """Pause for ``reason``. ``since`` (a clock time, e.g. when the sensor was last heard)
        refunds the time charged between then and now."""
        with self._lock:
            now = self._clock()
            start = now if since is None else min(now, since)
            if not self._pauses and self._running is not None:
                start = max(start, self._run_since)
                self._used += start - self._run_since
            self._pauses.setdefault(reason, start)
        self._changed()

    def resume(self, reason: str) -> None:
        """Lift the pause ``reason`` (unknown reasons are ignored); time runs again once no
        reason is left."""
        with self._lock:
            if self._pauses.pop(reason, None) is not None and not self._pauses:
                self._run_since = self._clock()
        self._changed()

    def link_changed(self, state: str, last_heard: float | None = None) -> None:
        """Follow the sensor link (``firmware_bridge`` ``LinkState.state``): pause for
        :data:`LINK_LOST` unless ``state`` is ``"connected"``, refunding the time since
        ``last_heard`` (the sensor's ``link.last_heard``, same clock); resume when connected."""
        if state == "connected":
            self.resume(LINK_LOST)
        else:
            self.pause(LINK_LOST, since=last_heard)

    def add_time(self, colour: int, seconds: float) -> None:
        """Give ``colour`` ``seconds`` more (an arbiter's decision); a fallen flag stays down.

        Raises:
            ValueError: ``seconds`` is not positive.
        """
        if seconds <= 0:
            raise ValueError(f"add_time: {seconds} s is not a positive time")
        with self._lock:
            self._bank[colour] += seconds
        self._changed()

    def stop(self) -> None:
        """Stop both times for good (the game ended)."""
        with self._lock:
            if self._running is not None and not self._pauses:
                self._bank[self._running] -= self._charge(self._elapsed())
            self._running = None
        self._changed()

    def snapshot(self) -> ClockSnapshot:
        """The times now, for :meth:`restore` (taken before each action, for a take-back)."""
        with self._lock:
            return ClockSnapshot((self._bank[WHITE], self._bank[BLACK]), self._running,
                                 self._elapsed() if self._running is not None else 0.0,
                                 self._flagged)

    def restore(self, snapshot: object) -> None:
        """Put the times back as ``snapshot`` has them (a take-back): the side that ran then
        runs again from where it stood in its move; pauses in force stay.

        Raises:
            TypeError: ``snapshot`` is not a :class:`ClockSnapshot`.
        """
        if not isinstance(snapshot, ClockSnapshot):
            raise TypeError(f"restore needs a ClockSnapshot, not {type(snapshot).__name__}")
        with self._lock:
            self._bank = {WHITE: snapshot.bank[0], BLACK: snapshot.bank[1]}
            self._running, self._used = snapshot.running, snapshot.used
            self._run_since = self._clock()
            self._flagged = snapshot.flagged
            self._reported = snapshot.flagged is not None
        self._changed()

    def clear_flag(self) -> int | None:
        """Lift a fallen flag (the arbiter took the flag fall back): that side's time runs
        again from what it has (0 s unless the arbiter added some; with 0 s the flag falls
        again at once). Returns the colour, or None when no flag was down."""
        with self._lock:
            colour = self._flagged
            if colour is None:
                return None
            self._flagged, self._reported = None, False
            self._running, self._used, self._run_since = colour, 0.0, self._clock()
            self._bank[colour] = max(0.0, self._bank[colour])
        self._changed()
        return colour

    def poll(self) -> FlagFell | None:
        """A :class:`FlagFell` the first time a flag is seen down, else None."""
        with self._lock:
            return self.poll_locked()

    def add_listener(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` (outside the lock) after every start, press, pause, resume and
        stop: a :class:`ClockWatcher` uses it to wake up."""
        with self._lock:
            self._listeners.append(callback)

    # -- internals -------------------------------------------------------------------------
    def poll_locked(self) -> FlagFell | None:
        """:meth:`poll` for callers that hold the lock already."""
        if self._flagged is None and self._running is not None and not self._pauses:
            wait = self.time_to_flag()
            if wait is not None and wait <= 0:
                colour = self._running
                over = self._charge(self._elapsed()) - self._bank[colour]
                self._flagged, self._bank[colour], self._running = colour, 0.0, None
                return self._report(FlagFell(colour, self._clock() - max(0.0, over)))
        return None

    def _report(self, event: FlagFell) -> FlagFell | None:
        if self._reported:
            return None
        self._reported = True
        return event

    def _elapsed(self) -> float:
        if self._pauses or self._running is None:
            return self._used
        return self._used + self._clock() - self._run_since

    def _charge(self, elapsed: float) -> float:
        assert self._running is not None
        control = self.controls[self._running]
        if control.delay_mode is DelayMode.SIMPLE:
            return max(0.0, elapsed - control.delay)
        return elapsed

    def _changed(self) -> None:
        with self._lock:
            listeners = list(self._listeners)
        for callback in listeners:
            callback()


def display_step(seconds: float) -> float:
    """Seconds until a countdown showing ``seconds`` changes its text (see ``format_time``)."""
    step = 1.0 if seconds >= 20 else 0.1
    left = seconds - math.floor(seconds / step) * step
    return left if left > 1e-6 else step


class ClockWatcher:
    """Watches a :class:`ChessClock` on one :class:`~hardware.timer.Ticker` thread: calls
    ``on_flag(event)`` once when a flag falls and ``on_tick(face)`` whenever the shown time
    may have changed. Callbacks run on the watcher thread: post to your own queue there.
    """

    def __init__(self, clock: ChessClock, on_flag: Callable[[FlagFell], None],
                 on_tick: Callable[[ClockFace], None] | None = None, *,
                 wait: Wait = event_wait) -> None:
        self.clock = clock
        self._on_flag, self._on_tick = on_flag, on_tick
        self._ticker = Ticker("chess-clock", self._step, wait=wait)
        clock.add_listener(self._ticker.wake)

    def start(self) -> ClockWatcher:
        """Start watching."""
        self._ticker.start()
        return self

    def close(self) -> None:
        """Stop watching (idempotent)."""
        self._ticker.stop()

    def __enter__(self) -> ClockWatcher:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _step(self) -> float | None:
        event = self.clock.poll()
        if event is not None:
            self._on_flag(event)
        face = self.clock.face()
        if self._on_tick is not None:
            self._on_tick(face)
        to_flag = self.clock.time_to_flag()
        if to_flag is None:
            return None
        running = face.running
        shown = face.seconds(running) if running is not None else 0.0
        return min(to_flag, display_step(shown))
