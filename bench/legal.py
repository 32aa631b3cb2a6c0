"""Time to list all legal actions per position, per implemented variant.

Positions come from seeded random playouts. Prints median and p99 in milliseconds against the
floor of the issue (p99 <= 2 ms here). Run: .venv/bin/python bench/legal.py [GAMES]
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from referee.rules.errors import VariantNotImplementedError
from referee.rules.game import Game
from referee.rules.variants import VARIANTS

FLOOR_P99_MS = 2.0


def positions(name: str, games: int) -> list:  # type: ignore[type-arg]
    out = []
    for seed in range(games):
        rng = random.Random(seed)
        game = Game(name, seed=seed)
        while game.outcome.result == "*" and len(game.played) < 300:
            out.append(game.state)
            game.play(rng.choice(game.legal()))
    return out


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    header = f"{'variant':12} {'positions':>9} {'median ms':>10} {'p99 ms':>8}"
    print(f"{header}  floor p99 <= {FLOOR_P99_MS} ms")
    for name in VARIANTS:
        try:
            states = positions(name, games)
        except VariantNotImplementedError:
            print(f"{name:12} (not implemented)")
            continue
        game = Game(name)
        times = []
        for st in states:
            st.cache.clear()
            t = time.perf_counter()
            game.variant.legal_actions(st)
            times.append((time.perf_counter() - t) * 1000)
        times.sort()
        p99 = times[int(len(times) * 0.99)]
        verdict = "ok" if p99 <= FLOOR_P99_MS else "OVER"
        print(f"{name:12} {len(times):9d} {statistics.median(times):10.3f} {p99:8.3f}  {verdict}")


if __name__ == "__main__":
    main()
