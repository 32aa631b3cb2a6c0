"""NOTATION.md: every accepted form parses to the same action; bad text gets a clear error."""

from __future__ import annotations

import pytest

from referee.rules import actions as A
from referee.rules.errors import NotationError
from referee.rules.game import Game
from referee.rules.geometry import Layout, Region, grid_cells, standard_board
from referee.rules.notation import format_action, parse_action
from referee.rules.variants.masquerade import parse_assignment

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


@pytest.mark.parametrize("variant,text,action", [
    ("die", "pass", A.simple(A.PASS)), ("zombie", "end", A.simple("end")),
    ("standard", "resign", A.simple(A.RESIGN)), ("standard", "draw", A.simple(A.DRAW)),
    ("die", "roll", A.simple("roll")), ("die", "roll=5", A.simple("roll", "5")),
    ("die", "roll=q", A.simple("roll", "Q")), ("afterlife", "depart", A.simple("depart")),
    ("zombie", "bury=c6", A.choice("bury", SQ("c6"))),
    ("masquerade", "assign=white:NQ,BB,RN,QK,KR", A.simple("assign", "white:KR,QK,RN,BB,NQ")),
])
def test_other_actions(variant: str, text: str, action: A.Action) -> None:
    game = Game(variant)  # as read, before the variant normalises it (a die letter to a face)
    assert parse_action(text, game.variant, game.state) == action


@pytest.mark.parametrize("variant,text,problem", [
    ("standard", "", "empty"), ("standard", "e9e4", "cannot read"),
    ("standard", "hell:e2-e4", "no square"), ("standard", "e7e8=X", "promote"),
    ("masquerade", "assign=red:KK,QQ,RR,BB,NN", "white: or black:"),
    ("masquerade", "assign=white:KK,QQ", "five pairs"),
    ("masquerade", "assign=white:KQ,QQ,RR,BB,NN", "one-to-one"),
    ("zombie", "bury=z9", "no square"), ("die", "roll=", "face"),
    ("standard", "hello world", "cannot read"),
    ("standard", "bury=c6", "its actions: move"), ("standard", "pass", "cannot read"),
])
def test_bad_text_names_the_problem(variant: str, text: str, problem: str) -> None:
    with pytest.raises(NotationError, match=problem):
        Game(variant).parse(text)


def test_each_variant_reads_only_its_own_action_kinds() -> None:
    from referee.rules.variants import VARIANTS, variant_class

    for name in VARIANTS:
        cls = variant_class(name)
        assert cls.action_kinds[0].name == A.MOVE and cls.action_kinds[0].form == A.MOVE_FORM
        assert len({k.name for k in cls.action_kinds}) == len(cls.action_kinds)
        assert all(k.help and "\n" not in k.help for k in cls.action_kinds)
        help_lines = cls().help().splitlines()  # one per kind, then resign and draw: said once
        assert help_lines == [k.help for k in cls.action_kinds] + [A.META_HELP]


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
    assert format_action(A.choice("home", sq("hell:b1")), layout) == "home=hell:b1"
    assert format_action(A.move(sq("limbo"), sq("c3")), layout) == "limbo-c3"
    assert format_action(A.simple("roll", "3"), layout) == "roll=3"
    assert format_action(A.simple("roll"), layout) == "roll"


def test_every_legal_action_round_trips_through_its_text() -> None:
    game = Game("standard")
    for move in "e2e4 d7d5 e4d5 g8f6 f1b5 c7c6 d5c6 b8d7 c6b7 e7e6".split():
        game.play(move)
    for action in game.legal():
        assert game.parse(game.variant.format_action(action)) == action
