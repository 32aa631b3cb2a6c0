"""Random legal games played by hand (random order within a move, noise) are recognised exactly."""

from __future__ import annotations

import os

import pytest

from referee.rules.errors import VariantNotImplementedError
from referee.rules.variants import VARIANTS, variant_class
from tests.inference.harness import random_physical_game

GAMES = int(os.environ.get("GRAVEKEEPER_INFERENCE_GAMES", "12"))
#: Games per variant with long hand pauses (GRAVEKEEPER_PAUSE_GAMES=200 for a soak run).
PAUSE_GAMES = int(os.environ.get("GRAVEKEEPER_PAUSE_GAMES", "6"))


#: Variants whose physical procedures are verified end to end.
READY = ("standard", "deadmans", "ghost", "die", "afterlife", "zombie", "masquerade")


def implemented() -> list[str]:
    out = []
    for name in VARIANTS:
        try:
            variant_class(name)
        except VariantNotImplementedError:
            continue
        out.append(name)
    return out


@pytest.mark.parametrize("variant", [v for v in implemented() if v in READY])
def test_watch_recovers_exactly_the_game(variant: str) -> None:
    for seed in range(GAMES):
        chosen, recognised, recorder = random_physical_game(variant, seed)
        problems = recorder.texts("problem")
        assert recognised == chosen, (variant, seed, problems)
        assert not problems, (variant, seed, problems)


@pytest.mark.parametrize("variant", [v for v in implemented() if v in READY])
def test_hand_pauses_never_make_a_false_move(variant: str) -> None:
    """Pauses of 0 to 600 ms between any two hand movements, inside a move (a piece held in
    the air, a Hell home or a drop chosen slowly) and between moves: longer and shorter than
    the 150 ms settle time. Exactly the game's actions come out, and no problem is shown."""
    for seed in range(1000, 1000 + PAUSE_GAMES):
        chosen, recognised, recorder = random_physical_game(
            variant, seed, within_ms=(0, 600), between_ms=(0, 600))
        problems = recorder.texts("problem")
        assert recognised == chosen, (variant, seed, problems)
        assert not problems, (variant, seed, problems)
