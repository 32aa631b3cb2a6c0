"""Search for the positions where listing the legal actions is slowest.

Why: most positions list in well under a millisecond, and a bench over a few random games
never meets the few that don't (a Zombie horde turn once took 12.6 s for one listing). This
script plays seeded random games of every variant under every option set (:func:`option_sets`),
with two policies: uniformly random, and capture-first (crowded graves, Hell, Limbo and ghost
rings, big hordes), times one listing per position (CPU time, cache cleared) and keeps the
slowest positions of each option set, re-timed. They are written with their legal actions to
``bench/data/worst_positions.json``, which ``bench/legal.py`` times on every run and
``tests/test_worst_positions.py`` checks action for action.

Run: .venv/bin/python bench/worst_positions.py [--games N] [--keep K] [--variant NAME] [--out F]
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from referee.rules.actions import MOVE, Action
from referee.rules.game import Game
from referee.rules.state import State
from referee.rules.variant import Variant
from referee.rules.variants import VARIANTS, make_variant, variant_class

DATA = Path(__file__).parent / "data" / "worst_positions.json"

#: Values to try for options that take more than a fixed set of choices.
OPEN_VALUES: dict[str, list[Any]] = {
    "ghost.edge_ring": ["two_sided", "custom:a0,b0,c0,z1,z2,j5,j6,d9,e9"],
    "ghost.two_sided_edges": ["top,right"],
    "die.max_rolls_per_turn": [3],
    "die.no_capture_draw_plies": [None, 20],
    "die.face_map": ["KQRBNP"],
    "alc.piece_table": [{"preset": "proposed", "H": "B", "W": "N"}],
    "alc.promotion_set": ["H"],
    "alc.max_plies": [None, 60],
}
#: Options that mean something only together with another value.
NEEDS: dict[str, dict[str, Any]] = {
    "ghost.two_sided_edges": {"ghost.edge_ring": "two_sided"},
}
#: Up to this many option combinations per variant are tried in full; above it a seeded sample.
ALL_COMBINATIONS = 64
SAMPLED_COMBINATIONS = 12


def option_values(name: str) -> dict[str, list[Any]]:
    """Every value tried per option of the variant (the default first)."""
    out: dict[str, list[Any]] = {}
    for spec in variant_class(name).option_specs:
        values = [spec.default]
        for value in (spec.choices or ()) + tuple(OPEN_VALUES.get(spec.key, ())):
            if value not in values:
                values.append(value)
        out[spec.key] = values
    return out


def option_sets(name: str) -> list[dict[str, Any]]:
    """The option sets searched for ``name``: the defaults, each other value of each option
    on its own, and every combination of all values (a seeded sample when there are too many).
    """
    values = option_values(name)
    sets: list[dict[str, Any]] = [{}]
    for key, vals in values.items():
        for value in vals[1:]:
            sets.append({**NEEDS.get(key, {}), key: value})
    keys = list(values)
    combos = list(itertools.product(*(values[k] for k in keys))) if keys else []
    if len(combos) > ALL_COMBINATIONS:
        combos = random.Random(name).sample(combos, SAMPLED_COMBINATIONS)
    for combo in combos:
        chosen = {k: v for k, v in zip(keys, combo, strict=True)
                  if v != variant_class(name).option_specs[keys.index(k)].default}
        for key, needed in NEEDS.items():
            if key in chosen:
                chosen.update(needed)
        if chosen not in sets:
            sets.append(chosen)
    valid = []
    for options in sets:
        try:
            make_variant(name, options)
        except Exception:  # noqa: BLE001 - a combination the variant refuses is skipped
            continue
        valid.append(options)
    return valid


def is_capture(state: State, action: Action) -> bool:
    """A move onto an occupied square (enough to steer games towards crowded graveyards)."""
    return action.kind == MOVE and 0 <= action.to < len(state.board) and bool(
        state.board[action.to])


def playout(variant: Variant, seed: int, captures_first: bool,
            max_plies: int = 300) -> Iterator[State]:
    """The states of one seeded random game (the finished position excluded)."""
    rng = random.Random(seed)
    game = Game(variant, seed=seed)
    while game.outcome.result == "*" and len(game.played) < max_plies:
        yield game.state
        legal = game.legal()
        if captures_first:
            captures = [a for a in legal if is_capture(game.state, a)]
            legal = captures or legal
        game.play(rng.choice(legal))


def listing_seconds(variant: Variant, state: State, repeat: int = 1) -> float:
    """Best CPU time of ``repeat`` listings of the legal actions from a cold cache."""
    best = float("inf")
    for _ in range(repeat):
        state.cache.clear()
        start = time.process_time()
        variant.legal_actions(state)
        best = min(best, time.process_time() - start)
    state.cache.clear()
    return best


def fresh_state(variant: Variant, text: str) -> State:
    """A state read back from its position text (what the data file keeps)."""
    return variant.from_position(text)


def search(name: str, options: dict[str, Any], games: int, keep: int) -> list[dict[str, Any]]:
    """The ``keep`` slowest positions of random games of ``name`` with ``options``."""
    variant = make_variant(name, options)
    found: dict[str, float] = {}
    for seed in range(games):
        for state in playout(variant, seed, captures_first=seed % 2 == 1):
            seconds = listing_seconds(variant, state)
            if len(found) < 4 * keep or seconds > min(found.values()):
                try:
                    text = variant.position(state)
                except NotImplementedError:
                    return []
                found[text] = max(found.get(text, 0.0), seconds)
                if len(found) > 4 * keep:
                    del found[min(found, key=lambda t: found[t])]
    # Re-time the candidates from their text, as the bench and the test will load them.
    timed = []
    for text in found:
        state = fresh_state(variant, text)
        timed.append((listing_seconds(variant, state, repeat=3), text, state))
    timed.sort(key=lambda item: -item[0])
    out = []
    for seconds, text, state in timed[:keep]:
        legal = [variant.format_action(a) for a in variant.legal_actions(state)]
        out.append({"variant": name, "options": options, "position": text,
                    "ms": round(seconds * 1000, 3), "legal": legal})
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="games per option set")
    parser.add_argument("--keep", type=int, default=2, help="positions kept per option set")
    parser.add_argument("--variant", action="append", help="only these variants")
    parser.add_argument("--out", type=Path, default=DATA)
    parser.add_argument("--include", type=Path,
                        help="also keep these positions (lines: variant TAB options-json TAB "
                             "position), e.g. slow ones found by longer runs")
    args = parser.parse_args()
    names = args.variant or list(VARIANTS)
    unknown = [n for n in names if n not in VARIANTS]
    if unknown:
        print(f"unknown variant {unknown[0]!r} (known: {', '.join(VARIANTS)})", file=sys.stderr)
        return 2
    kept: list[dict[str, Any]] = []
    for name in names:
        for options in option_sets(name):
            start = time.process_time()
            worst = search(name, options, args.games, args.keep)
            kept.extend(worst)
            top = max((w["ms"] for w in worst), default=0.0)
            print(f"{name:10} {json.dumps(options):70.70} worst {top:8.3f} ms "
                  f"({time.process_time() - start:.1f} s)", flush=True)
    for line in args.include.read_text().splitlines() if args.include else ():
        if not line.strip():
            continue
        name, options_json, text = line.split("\t")
        options = json.loads(options_json)
        variant = make_variant(name, options)
        state = fresh_state(variant, text)
        seconds = listing_seconds(variant, state, repeat=3)
        legal = [variant.format_action(a) for a in variant.legal_actions(state)]
        kept.append({"variant": name, "options": options, "position": text,
                     "ms": round(seconds * 1000, 3), "legal": legal})
    kept.sort(key=lambda w: (w["variant"], -w["ms"]))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    doc = {"about": "slowest legal-action listings found by bench/worst_positions.py; the ms "
                    "figures are from the machine that searched, the legal lists are golden",
           "positions": kept}
    args.out.write_text(json.dumps(doc, indent=1) + "\n")
    print(f"{len(kept)} positions written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
