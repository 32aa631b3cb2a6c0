"""NOTATION.md: every accepted form parses to the same action; bad text gets a clear error."""

from __future__ import annotations

import pytest

from referee.rules import actions as A
from referee.rules.errors import NotationError
from referee.rules.game import Game
from referee.rules.geometry import Layout, Region, grid_cells, standard_board
from referee.rules.notation import format_action, parse_assignment

GAME = Game("standard")
SQ = GAME.variant.layout.square


@pytest.mark.parametrize("text", ["e2e4", "e2-e4", "e2xe4", "E2-E4", " e2e4 ", "e2 - e4",
                                  "board:e2-board:e4"])
def test_move_spellings(text: str) -> None:
    assert GAME.parse(text) == A.move(SQ("e2"), SQ("e4"))


@pytest.mark.parametrize("text", ["e7e8q", "e7e8=Q", "e7-e8=Q", "e7e8Q", "e7xe8=q"])
def test_promotion_spellings(text: str) -> None:
    assert GAME.parse(text) == A.move(SQ("e7"), SQ("e8"), "Q")


def test_castling_spellings_follow_the_side_to_move() -> None:
    assert GAME.parse("O-O") == A.move(SQ("e1"), SQ("g1"))
    assert GAME.parse("0-0-0") == A.move(SQ("e1"), SQ("c1"))
    game = Game("standard")
    game.play("e2e4")
    assert game.parse("o-o") == A.move(SQ("e8"), SQ("g8"))


@pytest.mark.parametrize("text,action", [
    ("pass", A.simple(A.PASS)), ("end", A.simple(A.END)), ("resign", A.simple(A.RESIGN)),
    ("draw", A.simple(A.DRAW)), ("roll", A.simple(A.ROLL)), ("roll=5", A.simple(A.ROLL, "5")),
    ("roll=q", A.simple(A.ROLL, "Q")), ("depart", A.simple(A.DEPART)),
    ("bury=c6", A.choice(A.BURY, SQ("c6"))),
    ("assign=white:NQ,BB,RN,QK,KR", A.simple(A.ASSIGN, "white:KR,QK,RN,BB,NQ")),
])
def test_other_actions(text: str, action: A.Action) -> None:
    assert GAME.parse(text) == action


@pytest.mark.parametrize("text,problem", [
    ("", "empty"), ("e9e4", "cannot read"), ("hell:e2-e4", "no square"), ("e7e8=X", "promote"),
    ("assign=red:KK,QQ,RR,BB,NN", "white: or black:"), ("assign=white:KK,QQ", "five pairs"),
    ("assign=white:KQ,QQ,RR,BB,NN", "one-to-one"), ("bury=z9", "no square"), ("roll=", "face"),
    ("hello world", "cannot read"),
])
def test_bad_text_names_the_problem(text: str, problem: str) -> None:
    with pytest.raises(NotationError, match=problem):
        GAME.parse(text)


def test_assignment_is_canonical_in_row_order() -> None:
    assert parse_assignment("black:nn,bb,rr,qq,kk") == "black:KK,QQ,RR,BB,NN"


def test_canonical_forms_with_regions() -> None:
    layout = Layout([
        Region("earth", standard_board(), implicit=True),
        Region("hell", standard_board("hell:", "hell")),
        Region("limbo", (grid_cells("limbo", 1, 1)[0].__class__("limbo", "limbo", 0, 0),)),
    ])
    sq = layout.square
    assert format_action(A.move(sq("e2"), sq("e4")), layout) == "e2e4"
    assert format_action(A.move(sq("earth:e7"), sq("e8"), "Q"), layout) == "e7e8q"
    assert format_action(A.move(sq("hell:c4"), sq("hell:f7"), rise=sq("e5")), layout) == \
        "hell:c4-hell:f7@e5"
    assert format_action(A.move(sq("hell:b7"), sq("hell:a8"), "Q", sq("e8")), layout) == \
        "hell:b7-hell:a8=Q@e8"
    assert format_action(A.choice(A.HOME, sq("hell:b1")), layout) == "home=hell:b1"
    assert format_action(A.move(sq("limbo"), sq("c3")), layout) == "limbo-c3"
    assert format_action(A.simple(A.ROLL, "3"), layout) == "roll=3"
    assert format_action(A.simple(A.ROLL), layout) == "roll"


def test_every_legal_action_round_trips_through_its_text() -> None:
    game = Game("standard")
    for move in "e2e4 d7d5 e4d5 g8f6 f1b5 c7c6 d5c6 b8d7 c6b7 e7e6".split():
        game.play(move)
    for action in game.legal():
        assert game.parse(game.variant.format_action(action)) == action
