"""The engine's building blocks: geometry, options, random source, states, reasons."""

from __future__ import annotations

from collections import Counter

import pytest

from referee.rules import rng
from referee.rules.errors import IllegalActionError, OptionError, UnknownVariantError
from referee.rules.events import PUBLIC, Announcement, visible_to
from referee.rules.game import Game
from referee.rules.geometry import Cell, Geometry, Layout, Region, grid_cells
from referee.rules.pieces import BLACK, WHITE
from referee.rules.variants import make_variant


def bone() -> tuple[Layout, Geometry]:
    """The Twelve Hours: columns alpha..delta, only alpha/delta have ranks 1 and 3."""
    cells = grid_cells("hours", 4, 3, prefix="hours:", files="abgd",
                       skip=[(1, 0), (2, 0), (1, 2), (2, 2)])
    layout = Layout([Region("hours", cells)])
    return layout, Geometry.build(layout, range(layout.size))


def test_rays_stop_at_missing_cells() -> None:
    layout, geo = bone()
    sq = layout.square
    east = 2  # DIRECTIONS index of (1, 0)
    assert [layout.name(s) for s in geo.rays[east][sq("hours:a2")]] == \
        ["hours:b2", "hours:g2", "hours:d2"]
    assert geo.rays[east][sq("hours:a1")] == ()  # beta1 does not exist
    knight = geo.leap_targets([(1, 2), (2, 1), (-1, 2), (2, -1)])
    assert {layout.name(s) for s in knight[sq("hours:a1")]} == {"hours:g2"}


def test_layout_names_and_errors() -> None:
    layout = Layout([Region("board", grid_cells("b", 2, 2), implicit=True),
                     Region("limbo", (Cell("limbo", "limbo", 0, 0),))])
    assert layout.square("board:b2") == layout.square("B2") == 3
    assert layout.name(4) == "limbo" and layout.region(4) == "limbo"
    with pytest.raises(ValueError, match="no square 'c3'"):
        layout.square("c3")
    with pytest.raises(ValueError, match="duplicate"):
        Layout([Region("x", grid_cells("x", 1, 1)), Region("y", grid_cells("y", 1, 1))])


def test_options_are_validated() -> None:
    with pytest.raises(OptionError, match="unknown option 'dmc.x' for variant standard"):
        make_variant("standard", {"dmc.x": 1})
    with pytest.raises(OptionError, match="1 is not one of true, false"):
        make_variant("standard", {"standard.fifty_move": 1})
    with pytest.raises(UnknownVariantError, match="unknown variant 'chess960'"):
        make_variant("chess960")
    assert make_variant("standard").options == {"standard.fifty_move": True,
                                                "standard.repetition_draw": True}


def test_random_source_is_deterministic_and_uniform() -> None:
    state = rng.seed_state(42)
    faces = []
    for _ in range(6000):
        state, face = rng.randbelow(state, 6)
        faces.append(face)
    again = rng.seed_state(42)
    assert [rng.randbelow(again, 6)[1]] == faces[:1]
    counts = Counter(faces)
    assert set(counts) == set(range(6)) and all(900 < c < 1100 for c in counts.values())
    assert rng.shuffle(rng.seed_state(1), list("KQRBN")) == rng.shuffle(rng.seed_state(1),
                                                                         list("KQRBN"))
    with pytest.raises(ValueError):
        rng.randbelow(state, 0)


def test_states_are_values() -> None:
    game = Game("standard")
    before = game.state
    snapshot = (before.board[:], before.turn, before.castling)
    game.play("e2e4")
    assert (before.board, before.turn, before.castling) == snapshot
    assert game.state.parent is before and game.state.ply == 1


@pytest.mark.parametrize("moves,bad,reason", [
    ([], "e3e4", "no piece on e3"),
    ([], "e7e5", "not white's"),
    (["e2e4", "d7d6", "f1b5", "c7c6", "a2a3"], "c6c5", "leave the king in check"),
    (["e2e4", "f7f6", "d1h5"], "a7a6", "does not get the king out of check"),
    ([], "e1g1", "castling is not allowed"),
    ([], "b1b3", "cannot move there"),
])
def test_illegal_moves_say_why(moves: list[str], bad: str, reason: str) -> None:
    game = Game("standard")
    for move in moves:
        game.play(move)
    before = game.state
    with pytest.raises(IllegalActionError, match=reason):
        game.play(bad)
    assert game.state is before


def test_events_of_a_capture_and_their_audience() -> None:
    game = Game("standard")
    for move in "e2e4 d7d5".split():
        game.play(move)
    played = game.play("e4d5")
    assert [e.text for e in played.events] == ["P e4-d5", "p captured on d5"]
    secret = Announcement("you buried a knight on c6", audience=WHITE)
    assert visible_to(secret, WHITE) and not visible_to(secret, BLACK)
    assert not visible_to(secret, None) and played.events[0].audience == PUBLIC
