"""Time from a game event to the LED frame written and the display frame rendered.

For each situation, a batch of referee events goes through the whole output path:
``Presenter.update`` (filtering, scene and screen) -> ``LedPlayer.show`` (frame computed and
written to the backend) -> ``LumaDisplay.show`` (the screen rendered and pushed through the
real SSD1306 driver on a no-op bus, and through luma's dummy device). Prints p50 and p99 in
milliseconds against the target (p99 <= 20 ms). Run: .venv/bin/python bench/outputs.py [N]
"""

from __future__ import annotations

import contextlib
import statistics
import sys
import time
from collections.abc import Callable, Sequence

from luma.core.interface.serial import noop

from hardware.clock import ChessClock, TimeControl
from hardware.display.backends import LumaDisplay, open_display
from hardware.leds.backends import BoardLeds, LedBackend, MockLeds
from hardware.leds.player import LedPlayer
from referee.app.present import Presenter
from referee.rules.events import (
    Announcement,
    Captured,
    GameEnded,
    GameEvent,
    Marker,
    Moved,
    Placed,
    Prompt,
    Removed,
)
from referee.rules.pieces import BLACK, WHITE

try:  # the sensor board's simulator, when the bridge is installed
    from firmware_bridge import builtin_rig, open_sensor
except ImportError:  # pragma: no cover
    open_sensor = None  # type: ignore[assignment]

TARGET_P99_MS = 20.0
FILES = "abcdefgh"


class NullSink:
    """Stands in for the sensor board: takes frames and drops them."""

    def send_leds(self, frame: object) -> None:
        return None


def situations(i: int) -> dict[str, Sequence[GameEvent]]:
    """Event batches for iteration ``i`` (squares vary so no frame repeats the last)."""
    a, b = FILES[i % 8], FILES[(i + 3) % 8]
    return {
        "move": [Moved(f"{a}2-{a}4", frm=f"{a}2", to=f"{a}4")],
        "capture + hell home": [
            Moved("", frm=f"{a}4", to=f"{b}5"), Captured("", piece="p", square=f"{b}5"),
            Marker("", marker="tombstone", square=f"{b}5"),
            Prompt("Black: put the pawn on a vacant Hell home", colour=BLACK, kind="home",
                   options=tuple(f"home=hell:{f}7" for f in FILES))],
        "zombie reveal + rot": [
            Announcement(f"Zombie knight rises on {a}6"),
            Placed("", piece="N", square=f"{a}6", reason="zombie reveal"),
            Removed("", piece="b", square=f"{b}4", reason="rot"),
            Announcement("No zombie at e2"),
            Marker("", marker="burial", square="c3", audience=WHITE)],
        "game over": [Moved("", frm="a0", to=f"{a}8"),
                      GameEnded("Ghost takes the king - 0-1", result="0-1")],
    }


def pipeline(name: str, player: LedPlayer, display: LumaDisplay,
             cc: ChessClock) -> Callable[[int], None]:
    """One step of the output path for situation ``name``: events in, LEDs and display out."""
    presenter = Presenter()

    def step(i: int) -> None:
        shown = presenter.update(situations(i)[name], turn=WHITE, clock=cc.face())
        player.show(shown.scene)
        display.show(shown.screen)

    return step


def measure(n: int, step: Callable[[int], None]) -> list[float]:
    out = []
    for i in range(n):
        t0 = time.perf_counter()
        step(i)
        out.append((time.perf_counter() - t0) * 1000)
    return out


def backends(sensor: object | None) -> list[tuple[str, LedBackend, LumaDisplay]]:
    """(label, LED backend, display) pairs to time."""
    out: list[tuple[str, LedBackend, LumaDisplay]] = [
        ("mock + dummy", MockLeds(), open_display("dummy")),
        ("board + ssd1306", BoardLeds(NullSink()),
         open_display("ssd1306", serial_interface=noop())),
    ]
    if sensor is not None:
        squares = frozenset(builtin_rig("deadmans").squares)  # the board rejects other squares
        out.append(("sim:// + ssd1306", BoardLeds(sensor, squares),  # type: ignore[arg-type]
                    open_display("ssd1306", serial_interface=noop())))
    return out


def main(argv: list[str]) -> int:
    n = int(argv[1]) if len(argv) > 1 else 300
    cc = ChessClock(TimeControl(300, increment=2))
    cc.start()
    print(f"{'situation':<22} {'backends':<22} {'p50 ms':>8} {'p99 ms':>8}")
    worst = 0.0
    with contextlib.ExitStack() as stack:
        sensor = stack.enter_context(open_sensor("sim://?variant=deadmans")) if open_sensor \
            else None
        worst = run(n, cc, sensor)
    verdict = "ok" if worst <= TARGET_P99_MS else "over"
    print(f"worst p99 {worst:.2f} ms (target <= {TARGET_P99_MS:.0f} ms): {verdict}")
    return 0


def run(n: int, cc: ChessClock, sensor: object | None) -> float:
    """Time every situation on every backend pair; returns the worst p99 (ms)."""
    worst = 0.0
    for name in situations(0):
        for label, leds, display in backends(sensor):
            player = LedPlayer(leds, animate=False)
            times = measure(n, pipeline(name, player, display, cc))
            p50 = statistics.median(times)
            p99 = statistics.quantiles(times, n=100)[98]
            worst = max(worst, p99)
            print(f"{name:<22} {label:<22} {p50:8.2f} {p99:8.2f}")
            player.close()
            display.close()
    return worst


if __name__ == "__main__":
    sys.exit(main(sys.argv))
