"""Per-audience views: choices come from the rules, secrets only for their owner."""

from __future__ import annotations

import json

from referee.app.serve.views import AUDIENCES, Situation, build_view, choices_for, layout_data
from referee.rules.game import Game
from referee.rules.pieces import BLACK, WHITE


def _game(variant: str, *texts: str) -> Game:
    game = Game(variant)
    for text in texts:
        game.play(text)
    return game


def test_choices_are_the_off_board_legal_actions_of_the_player_to_act() -> None:
    die = _game("die")
    assert choices_for(die, WHITE)[0] == "roll" and "roll=3" not in choices_for(die, WHITE)
    assert choices_for(die, BLACK) == []
    dead = _game("deadmans", "e2e4", "d7d5", "e4d5")
    assert choices_for(dead, BLACK)[:2] == ["home=hell:a7", "home=hell:b7"]
    assert choices_for(dead, WHITE) == []
    zombie = _game("zombie", "e2e4", "d7d5", "e4d5")
    assert "bury=b2" in choices_for(zombie, WHITE)
    assert choices_for(_game("standard"), WHITE) == []  # moves are made on the board
    masq = _game("masquerade")
    assert len(choices_for(masq, WHITE)) == 120 and choices_for(masq, BLACK) == []
    assert choices_for(_game("zombie", "resign"), BLACK) == []  # the game is over


def test_only_the_burier_sees_the_burial() -> None:
    game = _game("zombie", "e2e4", "d7d5", "e4d5", "bury=b2", "g8f6")
    views = {a: build_view(game, a, Situation(), 1) for a in AUDIENCES}
    assert views["white"]["moves"][3]["text"] == "bury=b2"
    assert views["white"]["view"]["my_burials"] == {"b2": "p"}
    for audience in ("spectator", "black", "arbiter"):
        text = json.dumps(views[audience])
        assert views[audience]["moves"][3]["text"] == "bury=(secret)"
        assert "bury=b2" not in text and '"b2": "p"' not in text
    assert "choices" not in views["spectator"] and "notes" in views["arbiter"]


def test_layout_data_names_every_square() -> None:
    game = Game("afterlife")
    regions = layout_data(game.variant.layout)
    assert [r["name"] for r in regions] == ["world", "limbo", "hours", "hall"]
    assert sum(len(r["cells"]) for r in regions) == game.variant.layout.size
