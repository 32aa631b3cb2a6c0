"""One live session, wired once: sensor -> inference -> referee -> outputs.

``gravekeeper watch``, ``gravekeeper demo`` and ``gravekeeper run`` (and the web service) run a
game the same way, so the wiring lives here and nowhere else:

* :class:`Pump` is the event loop. It feeds the sensor's events to the
  :class:`~referee.live.session.Referee` and lets time pass between them with ticks on the
  *sensor's* time base (:meth:`firmware_bridge.sensor.Sensor.live_ms`: milliseconds since the
  sensor opened, the same scale as every event's ``t_ms``). A tick never counts as a board
  change: a board is judged once it has been still for the settle time, however often the
  loop ticks. A file replayed as fast as possible has no live time and is never ticked.
* A sensor's :class:`~firmware_bridge.events.Withdraw` (a camera that found a move it decoded
  wrong) takes those actions back from the referee through the arbiter's own
  :meth:`~referee.live.session.Referee.take_back`, so the record, the clock, the journal and
  every page follow as they do for the arbiter; the snapshots that follow are judged as any.
  A sensor's :class:`~firmware_bridge.events.Notice` (a camera that cannot explain the board)
  becomes a ``note`` update: watch's ``# note:`` line, the arbiter's log.
* Buttons: presses on the sensor board arrive as sensor events (debounced by the board's
  firmware, milliseconds) and are fed as they come. Buttons wired to the Pi (gpiozero through
  :class:`hardware.buttons.ButtonStream`, debounced there, seconds) are turned into the same
  ``Button`` events, stamped with the sensor's time now: both meet in ``Referee.feed``.
* :class:`HardwareOutput` is the subscriber that shows updates on per-square LEDs and the
  shared display (through :class:`~referee.app.present.Presenter`, which drops every event a
  spectator may not see), with the chess clock's face; promotion prompts show the pieces to
  choose from with ``back`` / ``confirm``. While a clock runs the pump asks it to
  :meth:`HardwareOutput.tick`: the screen is drawn again only when the time shown changes
  (once a second; tenths in the last 20 s), so the display's clock never stands still.
  While the arbiter pauses the game every square pulses faintly (docs/leds.md) and the display
  says "Paused by the arbiter" (time added meanwhile shows on it, a board put right keeps it);
  on resume the game's last scene and screen come back, as they were before the pause or as
  a take-back or a correction during the pause left them.
* :func:`open_session` opens everything a rig names (sensor, LEDs, display, GPIO buttons, a
  chess clock for ``time_control``) in one ``with`` block and closes it in reverse order.
  ``watch``, ``demo``, ``run`` and ``serve`` all run on it.
* Promotion on a board that cannot tell the piece: with buttons (the rig's board or Pi
  buttons) or a phone (``serve``'s player pages, ``SessionSettings.phones``) the referee waits
  for the choice however long play goes on; with neither, the first piece offered (a queen)
  is taken once play goes on, and the display says so when it asks.

Hardware is opened here, in the app layer, never at import and never in ``referee.live``.
"""

from __future__ import annotations

import argparse
import contextlib
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from firmware_bridge.errors import SensorTimeout
from firmware_bridge.events import Button, Notice, Withdraw
from firmware_bridge.rig import Rig
from firmware_bridge.sensor import Sensor
from hardware.buttons import ButtonStream, GpioButtons
from hardware.clock import ChessClock, TimeControl
from hardware.display.screen import ClockFace, Screen, format_time
from referee.app.errors import int_in
from referee.app.present import Presentation, Presenter
from referee.live.session import ARBITER, Recorder, Referee, Subscriber, Update
from referee.rules.game import Game

#: Seconds the loop waits for a sensor event before it lets time pass.
TICK_S = 0.05


class Pump:
    """Feeds a sensor's events, Pi buttons and the passing of time to a referee.

    Args:
        referee: the session's referee.
        sensor: an opened sensor.
        buttons: presses of buttons wired to the Pi (None: only the board's buttons).
        tick_s: longest wait for an event before a tick.
    """

    def __init__(self, referee: Referee, sensor: Sensor, buttons: ButtonStream | None = None,
                 tick_s: float = TICK_S, idle: Sequence[Callable[[], None]] = ()) -> None:
        self.referee = referee
        self.sensor = sensor
        self.buttons = buttons
        self.tick_s = tick_s
        self.idle = list(idle)
        self.ended = False
        self._last_ms = 0

    def now_ms(self) -> int | None:
        """The sensor's time now (None: no live time, e.g. a file at full speed)."""
        live = self.sensor.live_ms()
        return None if live is None else max(live, self._last_ms)

    def step(self) -> bool:
        """Handle one event (or a quiet spell); False once the stream has ended."""
        if self.ended:
            return False
        try:
            event = self.sensor.get(timeout=self.tick_s)
        except SensorTimeout:
            event = None
            self._pass_time()
        else:
            if event is None:
                self.ended = True
                self.referee.finish()
                return False
            self._last_ms = max(self._last_ms, event.t_ms)
            if isinstance(event, Withdraw):
                self.withdraw(event)
            elif isinstance(event, Notice):
                self.referee.note(event.text)
            else:
                self.referee.feed(event)
        self._pi_buttons()
        for callback in self.idle:
            callback()
        return True

    def withdraw(self, event: Withdraw) -> int:
        """The sensor takes back actions it showed (a camera that found a decoded move wrong):
        take back from the referee those of them it applied, when they are its last actions
        (the board as it settled before is judged first). Returns how many were taken back;
        anything else the referee played (a choice made on a phone) is never taken back."""
        referee = self.referee
        referee.tick(event.t_ms)
        played = [p.text for p in referee.game.played]
        wanted = list(event.actions)
        count = next(n for n in range(len(wanted), -1, -1)
                     if n <= len(played) and played[len(played) - n:] == wanted[:n])
        for _ in range(count):
            referee.take_back()
        return count

    def press(self, name: str) -> None:
        """A button pressed elsewhere (a phone's back / confirm): fed like a Pi button."""
        now = self.now_ms()
        self.referee.feed(Button(self._last_ms if now is None else now, name))

    def run(self, stop: Callable[[], bool] | None = None) -> None:
        """Pump until the stream ends or ``stop()`` says so."""
        while (stop is None or not stop()) and self.step():
            pass

    def until_quiet(self, quiet_s: float) -> None:
        """Pump until no sensor event came for ``quiet_s`` seconds (or the stream ended)."""
        deadline = time.monotonic() + quiet_s
        while time.monotonic() < deadline:
            seen = self._last_ms
            if not self.step():
                return
            if self._last_ms != seen:
                deadline = time.monotonic() + quiet_s

    def _pass_time(self) -> None:
        now = self.now_ms()
        if now is not None:
            self.referee.tick(now)

    def _pi_buttons(self) -> None:
        if self.buttons is None:
            return
        for press in self.buttons.drain():
            self.press(press.name)


class HardwareOutput:
    """A subscriber showing updates on LEDs and the display (either may be None).

    ``on_shown(update, presentation)`` is called after each shown update (the demo prints
    and captures pictures there). Thread-safe: updates come from whichever thread drives the
    referee, :meth:`tick` from the pump.
    """

    def __init__(self, game: Game, leds: Any = None, display: Any = None,
                 clock: ChessClock | None = None,
                 on_shown: Callable[[Update, Presentation], None] | None = None) -> None:
        self.game = game
        self.leds = leds
        self.display = display
        self.clock = clock
        self.on_shown = on_shown
        self.presenter = self._replayed()
        self.screen: Screen | None = None  # the screen on the display now
        self.game_screen: Screen | None = None  # the game's last screen (under a QR code)
        self._pause: str | None = None  # the pause shown now (its reason)
        self._last_shown: Update | None = None  # the last update showing the game itself
        self._lock = threading.RLock()

    def __call__(self, update: Update) -> None:
        with self._lock:
            shown = self.present(update)
            if shown is None:
                return
            if update.kind not in ("paused", "resumed", "clock"):
                self._last_shown = update
            if self.leds is not None:
                self.leds.show(shown.scene)
            self.game_screen = shown.screen
            self._draw(shown.screen)
            if self.on_shown is not None:
                self.on_shown(update, shown)

    def _replayed(self) -> Presenter:
        """A presenter that knows the public markers (tombstones, zombies) and the last move
        of the game so far (a resumed game, a take-back)."""
        presenter = Presenter()
        for played in self.game.played:
            presenter.update(played.events)
        return presenter

    def show_game(self) -> None:
        """Show where the game stands (a resumed game, before anything happens)."""
        with self._lock:
            face = self.clock.face() if self.clock is not None else None
            shown = self.presenter.update([], turn=self.game.state.to_act, clock=face)
            if self.leds is not None:
                self.leds.show(shown.scene)
            self.game_screen = shown.screen
            self._draw(shown.screen)

    def show_screen(self, screen: Screen) -> None:
        """Put ``screen`` on the display (something besides the game: a QR code to join);
        the next update, or :meth:`restore`, shows the game again."""
        with self._lock:
            self._draw(screen)

    def restore(self) -> None:
        """Show the game's last screen again (with the clock as it is now)."""
        with self._lock:
            screen = self.game_screen
            if screen is not None and screen is not self.screen:
                if screen.clock is not None and self.clock is not None:
                    screen = self.game_screen = replace(screen, clock=self.clock.face())
                self._draw(screen)

    def tick(self) -> None:
        """Draw the game's screen again when the running clock's shown time has changed."""
        with self._lock:
            screen, clock = self.screen, self.clock
            if screen is None or screen is not self.game_screen or screen.clock is None or \
                    clock is None or clock.running is None or clock.paused:
                return
            face = clock.face()
            if _clock_text(face) != _clock_text(screen.clock):
                self.game_screen = replace(screen, clock=face)
                self._draw(self.game_screen)

    def _draw(self, screen: Screen) -> None:
        self.screen = screen
        if self.display is not None:
            self.display.show(screen)

    def present(self, update: Update) -> Presentation | None:
        """The scene and screen for ``update`` (None: nothing to show)."""
        from hardware.display import screen as screens

        name = self.game.variant.layout.name
        face = self.clock.face() if self.clock is not None else None
        turn = update.state.to_act
        if update.kind in ("action", "ended"):
            return self.presenter.update(update.events, turn=turn, clock=face,
                                         check=self.game.variant.in_check(update.state))
        if update.kind == "takeback":
            self.presenter = self._replayed()
            return self.presenter.update([], turn=turn, clock=face)
        if update.kind == "paused":
            self._pause = update.text
        elif update.kind == "resumed":
            self._pause = None
            last = self._last_shown
            if last is not None and last.kind not in ("good", "resumed", "clock"):
                return self.present(last)  # the game's scene as it was
        if self._pause is not None and update.kind in ("paused", "good", "clock"):
            return self._paused(self._pause, face)
        if update.kind in ("good", "resumed", "clock"):
            return self.presenter.update([], turn=turn, clock=face)
        if update.problem is not None:
            return self.presenter.problem(update.text, [name(s) for s in update.problem.to_empty],
                                          [name(s) for s in update.problem.to_fill], clock=face)
        if update.correction is not None:
            return self.presenter.correction([name(s) for s in update.correction.to_empty],
                                             [name(s) for s in update.correction.to_fill],
                                             clock=face)
        if update.kind == "prompt":
            scene = self.presenter.update([], turn=turn, clock=face).scene
            if update.options and update.default:  # nobody can choose: say what is taken
                letter = update.default.upper()
                screen = screens.prompt(turn, f"Promotes to {letter}: no buttons to choose",
                                        (letter,), 0, face, "play on")
            elif update.options:  # a promotion: the pieces, the selected one first
                screen = screens.promotion(turn, [o or "-" for o in update.options], 0, face)
            else:
                screen = screens.prompt(turn, update.text, clock=face)
            return Presentation(scene, screen)
        return None

    def _paused(self, reason: str, face: ClockFace | None) -> Presentation:
        """Every square pulses faintly; the display says who paused (the arbiter)."""
        layout = self.game.variant.layout
        said = "by the arbiter" if reason == ARBITER else reason.capitalize()
        shown = self.presenter.paused(said, [layout.name(s) for s in range(layout.size)], face)
        return replace(shown, screen=replace(shown.screen, hint="wait for the arbiter"))

    def close(self) -> None:
        """Turn the LEDs off and release the display."""
        if self.leds is not None:
            self.leds.close()
        if self.display is not None:
            self.display.close()


def _clock_text(face: ClockFace) -> tuple[str, str]:
    return format_time(face.white), format_time(face.black)


@dataclass(frozen=True)
class SessionSettings:
    """How to run one live game (the command line or the rig's ``[game]`` table).

    ``time_control``: e.g. ``5+3`` (minutes + increment s), ``5d3`` / ``5b3`` (simple /
    Bronstein delay s), or None for no clock. ``leds`` / ``display``: backend specs that
    replace the rig's (``mock``, ``dummy``...; ``leds="auto"``: the sensor board's own LEDs
    when it has some, else none; ``display="none"``: no display); ``hardware=False`` drives
    no LEDs or display. ``phones``: the players have pages to choose on (``serve``), so a
    promotion always waits for its choice.
    """

    variant: str = "standard"
    options: Mapping[str, Any] = field(default_factory=dict)
    seed: int = 0
    settle_ms: int = 150
    clock_confirm: bool = False
    private: Sequence[str] = ()
    time_control: str | None = None
    hardware: bool = True
    leds: str | None = None
    display: str | None = None
    phones: bool = False


@dataclass
class Session:
    """An opened live session: the referee, its pump and what it drives."""

    referee: Referee
    pump: Pump
    sensor: Sensor
    output: HardwareOutput | None
    clock: ChessClock | None


def parse_time_control(text: str) -> TimeControl:
    """``5+3``, ``5d3``, ``5b3`` or ``5`` (minutes before the sign, seconds after).

    Raises:
        ValueError: another form (the message says which forms are known).
    """
    return TimeControl.parse(text)


def _open_sensor(url: str, game: Game, rig: Rig | None, options: Mapping[str, Any],
                 rolls: bool = False) -> Sensor:
    """The sensor at ``url``: a camera (``camera://``, :mod:`referee.app.camera`, loaded only
    then: it brings OpenCV) or anything ``firmware_bridge`` opens. ``phone://`` has no
    frames here: only ``serve``'s /camera page sends them. ``rolls``: something besides the
    sensor can roll a die (the players' pages, a rig's roll button)."""
    if url.startswith("phone://"):
        from firmware_bridge.errors import BadSensorUrl

        raise BadSensorUrl(f"{url[:120]}: phone:// works only under `gravekeeper serve` (its "
                           "/camera page, opened on the phone, sends the frames)")
    if url.startswith("camera://"):
        from referee.app.camera import open_sensor as open_camera

        return open_camera(url, game, rolls=rolls, **options)
    import firmware_bridge

    return firmware_bridge.open_sensor(url, rig=rig, **options)


def add_live_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of a command refereeing one sensor's game (``watch``, ``serve``): the game,
    the rig and the settle time; then :func:`add_board_arguments`."""
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--options", help="variant options as a JSON object")
    parser.add_argument("--rig", help="rig file (TOML) or built-in rig name: maps the board to "
                        "squares and names the LEDs, display and buttons to drive")
    parser.add_argument("--settle", type=int_in(0, 60_000), default=150,
                        help="stillness before judging, ms")
    add_board_arguments(parser)


def add_board_arguments(parser: argparse.ArgumentParser) -> None:
    """The options every command running a board shares (``watch``, ``serve``, ``run``): its
    LEDs and display instead of the rig's, the time control, the club hub."""
    parser.add_argument("--leds", help="LED backend instead of the rig's (e.g. board, mock)")
    parser.add_argument("--display", help="display instead of the rig's (e.g. dummy, none)")
    parser.add_argument("--clock", help="time control: 5+3 (minutes + increment in seconds), "
                        "5d3 (simple delay), 5b3 (Bronstein delay) or 5")
    parser.add_argument("--hub", help="publish the public game to a club hub: "
                        "mqtt://HOST:PORT[/EVENT] (docs/hub.md)")
    parser.add_argument("--board", help="this board's id at the hub (default: the host name)")


@contextlib.contextmanager
def open_session(url: str, game: Game, settings: SessionSettings, *, rig: Rig | None = None,
                 subscribers: Sequence[Subscriber] = (), journal: Recorder | None = None,
                 sensor_options: Mapping[str, Any] | None = None,
                 on_shown: Callable[[Update, Presentation], None] | None = None,
                 clock: ChessClock | None = None,
                 sensor: Sensor | None = None) -> Iterator[Session]:
    """Open the sensor at ``url`` and everything ``rig`` names, run nothing yet.

    ``sensor``: a sensor made by the caller to use instead of opening ``url`` (``serve``'s
    ``phone://``, whose frames come from its own web page); the session closes it.

    ``clock``: a chess clock to use instead of a new one for ``settings.time_control`` (a
    resumed game's, with the times it had).

    Raises:
        BridgeError: the sensor cannot be opened. HardwareError: LEDs, display or buttons
        cannot be opened. ValueError: a bad time control.
    """
    from hardware.config import HardwareConfig, config_from_rig

    control = parse_time_control(settings.time_control) if settings.time_control else None
    config = config_from_rig(rig) if rig is not None else HardwareConfig()
    with contextlib.ExitStack() as stack:
        if sensor is None:
            rolls = settings.phones or "roll" in config.buttons.gpio.keys() \
                or "roll" in config.buttons.board.values()
            sensor = _open_sensor(url, game, rig, sensor_options or {}, rolls)
        stack.enter_context(sensor)
        if clock is None and control is not None:
            clock = ChessClock(control)
        output = None
        if settings.hardware and (rig is not None or settings.leds or settings.display):
            output = _open_hardware(stack, game, sensor, rig, config, settings, clock, on_shown)
        buttons = None
        if config.buttons.gpio:
            from hardware.buttons import open_buttons

            buttons, gpio = open_buttons(config.buttons)
            stack.callback(buttons.close)
            if gpio is not None:
                stack.callback(GpioButtons.close, gpio)
        outputs: list[Subscriber] = [*subscribers, *([output] if output is not None else [])]
        can_choose = settings.phones or bool(config.buttons.board) or bool(config.buttons.gpio)
        referee = Referee(game, outputs, private=settings.private,
                          settle_ms=settings.settle_ms,
                          confirm_with_clock=settings.clock_confirm, clock=clock,
                          journal=journal, promotion_default=not can_choose)
        follow = getattr(sensor, "follow", None)
        if callable(follow):  # a camera: its copy of the game takes the referee's choices
            referee.subscribe(_follower(follow, game))
        idle = [output.tick] if output is not None and clock is not None else []
        yield Session(referee, Pump(referee, sensor, buttons, idle=idle), sensor, output, clock)


def _follower(follow: Callable[[Game], None], game: Game) -> Subscriber:
    """A subscriber handing ``game`` to a sensor's ``follow`` after every change of its
    record: what the sensor cannot see (a choice on a page, a button, ``--private``, an
    arbiter's take-back) reaches its own copy of the game (``referee.app.camera``)."""
    def changed(update: Update) -> None:
        if update.kind in ("action", "takeback", "ended"):
            follow(game)
    return changed


def _open_hardware(stack: contextlib.ExitStack, game: Game, sensor: Sensor, rig: Rig | None,
                   config: Any, settings: SessionSettings, clock: ChessClock | None,
                   on_shown: Callable[[Update, Presentation], None] | None) -> HardwareOutput:
    from hardware.display.backends import open_display
    from hardware.leds.factory import open_player

    names = [game.variant.layout.name(sq) for sq in range(game.variant.layout.size)]
    spec = settings.leds
    if spec == "auto":
        spec = "board" if getattr(sensor, "supports_leds", False) else None
        leds = None if spec is None else open_player(spec, config=config.leds, sink=sensor,
                                                     squares=names)
    else:
        leds = open_player(spec, config=config.leds, sink=sensor, rig=rig, squares=names)
    output = HardwareOutput(game, leds, None, clock, on_shown)
    stack.callback(output.close)
    if settings.display != "none":
        output.display = open_display(settings.display, config=config.display)
    return output
