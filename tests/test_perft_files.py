"""Golden perft counts of every variant (tests/perft/*.perft) guard the move generators."""

from __future__ import annotations

import pytest

from referee.rules.game import Game
from referee.rules.perft import perft
from tests.perftfile import PerftCase, all_cases

CASES = all_cases()


@pytest.mark.parametrize("case", CASES, ids=[f"{c.file}:{c.id}" for c in CASES])
def test_perft_counts(case: PerftCase) -> None:
    game = Game(case.variant, case.options, seed=case.seed)
    if case.fen:
        game = Game(game.variant, seed=case.seed, state=game.variant.from_position(case.fen))
    for text in case.moves:
        game.play(text)
    found = {d: perft(game.variant, game.state, d) for d in case.counts}
    assert found == case.counts


def test_every_variant_file_has_a_start_and_five_midgame_positions() -> None:
    by_file: dict[str, list[PerftCase]] = {}
    for case in CASES:
        by_file.setdefault(case.file, []).append(case)
    for name, cases in by_file.items():
        assert len(cases) >= 5, name
        assert all(max(c.counts) >= 3 for c in cases), name
