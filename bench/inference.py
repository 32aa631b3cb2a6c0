"""Move inference speed: from the event that settles the board to the recognised action.

Random legal games of every implemented variant are played by hand (lifts and places in a
random order, as ``referee.live.physical`` makes them) into the referee loop
(``referee.live.session.Referee``). Each event whose handling recognises an action is timed:
that covers building and matching the candidates of the position and applying the action.
Prints p50 and p99 per variant against the target p99 <= 10 ms.
Run: .venv/bin/python bench/inference.py [GAMES]
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from referee.live.physical import physical_steps, sensor_events
from referee.live.session import Referee
from referee.rules import actions as A
from referee.rules.errors import VariantNotImplementedError
from referee.rules.game import Game
from referee.rules.variants import VARIANTS

TARGET_P99_MS = 10.0


def timed_game(name: str, seed: int, turns: int = 80) -> list[float]:
    rng = random.Random(seed)
    truth = Game(name, seed=seed)
    referee = Referee(Game(name, seed=seed))
    off_board = truth.variant.kinds_done_by(*A.OFF_BOARD)
    times: list[float] = []
    t = 0
    for _ in range(turns):
        while truth.outcome.result == "*" and truth.legal()[0].kind in off_board:
            t += 1000
            referee.tick(t)
            text = truth.variant.format_action(rng.choice(truth.legal()))
            truth.play(text)
            referee.private_action(text)
        if truth.outcome.result != "*":
            break
        before = truth.state
        turn = [rng.choice(truth.legal())]
        truth.play(turn[0])
        while (truth.outcome.result == "*" and truth.state.to_act == before.to_act
               and truth.legal() and truth.legal()[0].kind in truth.variant.placing_kinds):
            turn.append(rng.choice(truth.legal()))
            truth.play(turn[-1])
        events, t = sensor_events(truth.variant,
                                  physical_steps(truth.variant, before, turn, rng),
                                  t + rng.randint(400, 1200))
        for event in events:
            count = len(referee.game.played)
            start = time.perf_counter()
            referee.feed(event)
            if len(referee.game.played) > count:
                times.append((time.perf_counter() - start) * 1000)
    return times


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    head = f"{'variant':12} {'actions':>8} {'p50 ms':>8} {'p99 ms':>8}"
    print(f"{head}  target p99 <= {TARGET_P99_MS} ms")
    for name in VARIANTS:
        try:
            times = [x for seed in range(games) for x in timed_game(name, seed)]
        except VariantNotImplementedError:
            print(f"{name:12} (not implemented)")
            continue
        times.sort()
        p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
        verdict = "ok" if p99 <= TARGET_P99_MS else "OVER"
        print(f"{name:12} {len(times):8d} {statistics.median(times):8.2f} {p99:8.2f}  {verdict}")


if __name__ == "__main__":
    main()
