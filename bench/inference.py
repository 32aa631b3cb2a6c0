"""Move inference as it runs live: false moves, recognition latency and CPU time per action.

Random legal games of every implemented variant are played by hand (lifts and places in a
random order, as ``referee.live.physical`` makes them) into the referee loop
(``referee.live.session.Referee``), ticked every 100 ms of event time as ``gravekeeper watch``
ticks it. Two kinds of hands:

* ``quick``: 15-90 ms between hand movements of a move, 0.4-1.2 s between moves (shorter than
  the 150 ms settle time inside a move);
* ``slow``: 0-600 ms inside a move (a piece held in the air, a Hell home or a drop chosen
  slowly) and 0-600 ms between moves (the next player may start before the board settles).

Reported per variant and kind: actions, false moves (actions recognised that the players did
not make, or made but not recognised; must be 0), recognition latency in event time (from the
last hand movement of the turn to its action; p50/p99, target p99 <= settle + one tick + 100 ms)
and the CPU time (process time, so that other processes on the machine do not count) of
the call that recognised it (p50/p99, target p99 <= 10 ms). Exits 1 when a
target is missed.

Run: .venv/bin/python bench/inference.py [GAMES]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from dataclasses import dataclass, field

from referee.live.physical import Step, changed_squares, physical_steps, sensor_events
from referee.live.session import Referee
from referee.rules import actions as A
from referee.rules.errors import VariantNotImplementedError
from referee.rules.game import Game
from referee.rules.variants import VARIANTS

SETTLE_MS = 150
TICK_MS = 100
TARGET_CPU_P99_MS = 10.0
TARGET_LATENCY_P99_MS = SETTLE_MS + TICK_MS + 100
HANDS = {"quick": ((15, 90), (400, 1200)), "slow": ((0, 600), (0, 600))}


@dataclass
class Figures:
    """What one kind of hands gave for one variant."""

    actions: int = 0
    false_moves: int = 0
    cpu_ms: list[float] = field(default_factory=list)
    latency_ms: list[int] = field(default_factory=list)


class LiveLoop:
    """Feeds events and 100 ms ticks to a referee, timing what recognises an action."""

    def __init__(self, referee: Referee, figures: Figures) -> None:
        self.referee = referee
        self.figures = figures
        self.now = 0
        self.last_hand = 0

    def _timed(self, call: object, *args: object) -> None:
        count = len(self.referee.game.played)
        start = time.process_time()
        call(*args)  # type: ignore[operator]
        if len(self.referee.game.played) > count:
            self.figures.cpu_ms.append((time.process_time() - start) * 1000)
            self.figures.latency_ms.append(self.now - self.last_hand)

    def until(self, t_ms: int) -> None:
        """Let time pass with ticks up to ``t_ms``."""
        while self.now + TICK_MS < t_ms:
            self.now += TICK_MS
            self._timed(self.referee.tick, self.now)
        self.now = max(self.now, t_ms)

    def feed(self, events: list) -> None:  # type: ignore[type-arg]
        for event in events:
            self.until(event.t_ms)
            self.last_hand = event.t_ms
            self._timed(self.referee.feed, event)


def play(name: str, seed: int, hands: str, figures: Figures, turns: int = 60) -> None:
    within, between = HANDS[hands]
    rng = random.Random(seed)
    truth = Game(name, seed=seed)
    referee = Referee(Game(name, seed=seed), settle_ms=SETTLE_MS)
    loop = LiveLoop(referee, figures)
    off_board = truth.variant.kinds_done_by(*A.OFF_BOARD)
    t = 0
    for _ in range(turns):
        while truth.outcome.result == "*" and truth.legal()[0].kind in off_board:
            t += 1000
            loop.until(t)
            text = truth.variant.format_action(rng.choice(truth.legal()))
            before = truth.state
            truth.play(text)
            referee.private_action(text)
            # what the choice changes on the board (a zombie that rots) the players carry out
            lifts, places = changed_squares(before, truth.state)
            steps = [Step("lift", sq) for sq in lifts] + [Step("place", sq) for sq in places]
            events, t = sensor_events(truth.variant, steps, t + 500)
            loop.feed(events)
        if truth.outcome.result != "*":
            break
        before = truth.state
        turn = [rng.choice(truth.legal())]
        truth.play(turn[0])
        while (truth.outcome.result == "*" and truth.state.to_act == before.to_act
               and truth.legal() and truth.legal()[0].kind in truth.variant.placing_kinds):
            turn.append(rng.choice(truth.legal()))
            truth.play(turn[-1])
        steps = physical_steps(truth.variant, before, turn, rng, within_ms=within)
        events, t = sensor_events(truth.variant, steps, t + rng.randint(*between))
        loop.feed(events)
    loop.until(t + 3000)
    referee.finish()
    chosen, seen = truth.action_texts(), referee.game.action_texts()
    figures.actions += len(chosen)
    agree = next((i for i, (a, b) in enumerate(zip(chosen, seen, strict=False)) if a != b),
                 min(len(chosen), len(seen)))
    figures.false_moves += max(len(chosen), len(seen)) - agree


def percentile(values: list[float] | list[int], q: float) -> float:
    ordered = sorted(values)
    return float(ordered[min(len(ordered) - 1, int(len(ordered) * q))]) if ordered else 0.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="?", type=int, default=6,
                        help="games per variant and kind of hands (default 6)")
    games = parser.parse_args().games
    print(f"{games} games per variant and kind of hands; targets: 0 false moves, latency p99 "
          f"<= {TARGET_LATENCY_P99_MS} ms (settle {SETTLE_MS} + tick {TICK_MS} + 100), "
          f"CPU p99 <= {TARGET_CPU_P99_MS} ms")
    print(f"{'variant':12} {'hands':6} {'actions':>7} {'false':>6} {'lat p50':>8} "
          f"{'lat p99':>8} {'cpu p50':>8} {'cpu p99':>8}")
    missed = False
    for name in VARIANTS:
        for hands in HANDS:
            figures = Figures()
            try:
                for seed in range(games):
                    play(name, seed, hands, figures)
            except VariantNotImplementedError:
                print(f"{name:12} (not implemented)")
                break
            lat99 = percentile(figures.latency_ms, 0.99)
            cpu99 = percentile(figures.cpu_ms, 0.99)
            ok = (figures.false_moves == 0 and lat99 <= TARGET_LATENCY_P99_MS
                  and cpu99 <= TARGET_CPU_P99_MS)
            missed |= not ok
            print(f"{name:12} {hands:6} {figures.actions:7d} {figures.false_moves:6d} "
                  f"{statistics.median(figures.latency_ms or [0]):8.0f} {lat99:8.0f} "
                  f"{statistics.median(figures.cpu_ms or [0]):8.2f} {cpu99:8.2f}  "
                  f"{'ok' if ok else 'MISSED'}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
