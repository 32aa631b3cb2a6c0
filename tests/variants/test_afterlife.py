"""Afterlife Chess: the Betza piece table, options, positions, events, outcomes and playouts.

The rules themselves are shown by the scenarios in tests/scenarios/afterlife/ (one per RULINGS
§4.8 row and per option value) and cross-checked by test_afterlife_reference.py; these tests
cover what scenarios cannot see (hidden flags, the notation, the parser, the drawing).
"""

from __future__ import annotations

import io
import time

import pytest

from referee.app.play import TerminalGame
from referee.rules.errors import OptionError, RecordError
from referee.rules.events import Captured, Placed, Prompt, Removed
from referee.rules.game import Game
from referee.rules.perft import perft
from referee.rules.variants import make_variant
from referee.rules.variants.afterlife import Afterlife
from referee.rules.variants.afterlife_betza import (
    CAPTURE,
    EN_PASSANT,
    INITIAL,
    LAME,
    MOVE,
    lame_path,
    parse_betza,
    resolve_piece_table,
)
from tests.playout import (
    assert_position_round_trip,
    assert_record_round_trip,
    playout_games,
    random_game,
)

START = "wphw/ssss/4/1mm1/4/SSSS/WHPW - ee/4/ee 5 w - - - 0 0 0 -"


def game(moves: str = "", **options: object) -> Game:
    g = Game(Afterlife({f"alc.{k}": v for k, v in options.items()}))
    for text in moves.split():
        g.play(text)
    return g


# ------------------------------------------------------------------------------ Betza


def test_king_is_wazir_plus_ferz_leapers() -> None:
    atoms = parse_betza("K")
    assert [a.limit for a in atoms] == [1, 1]
    assert {v for a in atoms for v in a.vectors} == {
        (1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)}
    assert all(a.flags == MOVE | CAPTURE for a in atoms)


def test_fide_pawn_string_has_step_capture_and_lame_initial_double_step() -> None:
    step, capture, double = parse_betza("fmWfceFifmnD")
    assert (step.vectors, step.flags) == (((0, 1),), MOVE)
    assert set(capture.vectors) == {(1, 1), (-1, 1)}
    assert capture.flags == CAPTURE | EN_PASSANT
    assert (double.vectors, double.flags) == (((0, 2),), MOVE | INITIAL | LAME)


def test_riders_ranges_and_directions() -> None:
    assert [a.limit for a in parse_betza("Q")] == [0, 0]
    assert parse_betza("WW")[0].limit == 0
    assert parse_betza("R2")[0].limit == 2
    assert set(parse_betza("fsW")[0].vectors) == {(0, 1), (1, 0), (-1, 0)}
    assert parse_betza("flF")[0].vectors == ((-1, 1),)
    assert set(parse_betza("vN")[0].vectors) == {(1, 2), (-1, 2), (1, -2), (-1, -2)}
    assert parse_betza("") == ()


@pytest.mark.parametrize("bad", ["X", "Kz", "qK", "KK", "R0", "k"])
def test_bad_betza_is_refused(bad: str) -> None:
    with pytest.raises(ValueError):
        parse_betza(bad)


def test_lame_paths_go_straight_or_orthogonally_first() -> None:
    assert lame_path((0, 2)) == ((0, 1),)
    assert lame_path((2, 1)) == ((1, 0),)
    assert lame_path((-1, -2)) == ((0, -1),)
    assert lame_path((3, 3)) == ((1, 1), (2, 2))


# ------------------------------------------------------------------------------ options


def test_piece_table_overrides_resolve_per_region() -> None:
    table = resolve_piece_table({"H": "B", "hall:*": "W", "hours:s": "fmW"})
    assert table["world"]["H"] == table["hours"]["H"] == "B"
    assert set(table["hall"].values()) == {"W"}
    assert table["hours"]["S"] == "fmW" and table["world"]["S"] == "fmWfceFifmnD"


@pytest.mark.parametrize("value", [
    "nonsense", {"preset": "nonsense"}, {"limbo:H": "K"}, {"X": "K"}, {"H": "Y"}, {"H": 3}, 7,
    {"": "K"},
])
def test_bad_piece_tables_are_option_errors(value: object) -> None:
    with pytest.raises(OptionError):
        Afterlife({"alc.piece_table": value})


def test_promotion_set_is_normalised_and_checked() -> None:
    assert Afterlife({"alc.promotion_set": "W,H"}).options["alc.promotion_set"] == "H,W"
    assert Afterlife({"alc.promotion_set": ["w"]}).options["alc.promotion_set"] == "W"
    for bad in ("P", "", "H,P", []):
        with pytest.raises(OptionError):
            Afterlife({"alc.promotion_set": bad})


def test_max_plies_accepts_none_spellings() -> None:
    for value in (None, "None", "null"):
        assert Afterlife({"alc.max_plies": value}).options["alc.max_plies"] is None
    assert Afterlife({"alc.max_plies": 40}).options["alc.max_plies"] == 40


@pytest.mark.parametrize("key,value", [
    ("alc.max_plies", 0), ("alc.max_plies", "ten"), ("alc.max_plies", True),
    ("alc.win_mode", "royal"), ("alc.limbo_departure", "never"),
    ("alc.own_capture_counts", 1), ("alc.unknown", True),
])
def test_bad_options_are_refused(key: str, value: object) -> None:
    with pytest.raises(OptionError):
        Afterlife({key: value})


def test_a_new_hall_definition_needs_no_engine_change() -> None:
    g = game("c1b1 a6a5 a2a3 a5a4", piece_table={"hall:*": "WD"})
    assert "hall:h1-hall:h3" in g.legal_texts()  # a Dabbabah move to an empty cell now
    assert "hall:h1-hall:h3" not in game("c1b1 a6a5 a2a3 a5a4").legal_texts()


# ------------------------------------------------------------------------------ positions


def test_start_position_text() -> None:
    g = game()
    assert g.variant.position(g.state) == START
    assert g.variant.position(g.variant.from_position(START)) == START


@pytest.mark.parametrize("text", [
    "wph*w/ssss/4/1mm1/4/SSSS/W1PW h*@7! ee/4/ee H*+4 b - - - 1 3 9 Sm",
    "wphw/ssss/4/1mm1/4/SSSS/WHPW s@1 ee/4/ee 5 b drop - b4-c6 0 0 2 -",
    "wphw/s1ss/3m/Ssm1/2S1/1S1S/WHPW - ee/4/ee 5 b - a3/a4 - 0 0 5 -",
    "4/4/4/4/4/4/P1p1 - 2/1S2/2 1w3 w - - - 0 12 99 eeeeHh",
])
def test_positions_round_trip(text: str) -> None:
    v = Afterlife()
    st = v.from_position(text)
    assert v.position(st) == text
    assert v.position(st, private=False) == text  # no secrets in Afterlife


def test_pending_drop_position_gives_the_owner_the_choice() -> None:
    v = Afterlife()
    st = v.from_position("wphw/ssss/4/1mm1/4/SSSS/WHPW s@1 ee/4/ee 5 w drop - - 0 0 2 -")
    assert st.to_act == 2 and st.turn == 1
    assert {v.format_action(a) for a in v.legal_actions(st)} == {
        "drop=hours:a2", "drop=hours:b2", "drop=hours:g2", "drop=hours:d2"}


@pytest.mark.parametrize("text", [
    "", START.replace(" w ", " x "), START.replace("WHPW", "WHPWW"),
    START.replace("4/1mm1", "5/1mm1"), START.replace(" - ee", " s@x ee"),
    START.replace("5 w - -", "5 w drop -"), START.replace("SSSS", "SS3"),
    START.replace("1mm1", "1m*m1"), START[:-1] + "Q", START.replace("ee/4/ee", "ee/4"),
    START.replace(" 0 0 0 ", " 0 -1 0 "), START.replace(" w - - - ", " w - z9/a1 - "),
])
def test_bad_positions_are_record_errors(text: str) -> None:
    with pytest.raises(RecordError):
        Afterlife().from_position(text)


def test_captured_this_life_only_for_captures_in_the_world() -> None:
    """RULINGS 4.8 #10: a Twelve-Hours capture leaves the flag off; a World capture sets it."""
    g = game("b1a1 a6a5 a2a3 drop=hours:a2 b6b5 hours:a2-hours:a3")
    text = g.variant.position(g.state)
    assert text.split()[0].endswith("/H*1PW")  # the Priest captured in the World
    assert text.split()[2] == "We/4/ee"  # the Warrior took a Sethling on alpha 3: no flag


def test_repetition_key_includes_flags_and_limbo_arrival() -> None:
    v = Afterlife()
    base = v.from_position(START)
    flagged = v.from_position(START.replace("WHPW", "W*HPW"))
    assert v.position_key(base) != v.position_key(flagged)
    a = v.from_position("wphw/ssss/4/1mm1/4/SSSS/WHPW s@1 ee/4/ee 5 w - - - 0 0 2 -")
    b = v.from_position("wphw/ssss/4/1mm1/4/SSSS/WHPW s@3 ee/4/ee 5 w - - - 0 0 4 -")
    assert v.position_key(a) != v.position_key(b)


# ------------------------------------------------------------------------------ outcomes


def test_first_pharaoh_to_cease_decides() -> None:
    """Both Pharaohs gone (an unreachable record): the one that Ceased to Exist first loses."""
    v = Afterlife()
    st = v.from_position("4/4/4/4/4/4/4 - ee/4/ee 5 w - - - 0 0 30 SpsP")
    assert v.outcome(st).result == "1-0"


def test_no_check_by_default_even_when_attacked() -> None:
    g = game("a2a3 b4d3")
    assert not g.variant.in_check(g.state)
    assert "b1b2" in g.legal_texts()


def test_royal_pharaoh_is_never_captured_by_the_enemy() -> None:
    v = Afterlife({"alc.win_mode": "fide_royal_in_world"})
    # An unreachable setup: Black's Pharaoh attacked on White's move; the capture is refused.
    st = v.from_position("1p2/1W2/4/4/4/4/2P1 - ee/4/ee 5 w - - - 0 0 0 -")
    legal = {v.format_action(a) for a in v.legal_actions(st)}
    assert "b6b7" not in legal and "b6b5" in legal


def test_royal_mode_without_moves_and_not_in_check_passes() -> None:
    g = game(win_mode="fide_royal_in_world", piece_table={"*": ""})
    assert g.legal_texts() == ["pass"]
    g.play("pass")
    g.play("pass")
    assert g.outcome.result == "1/2-1/2"


def test_depth_one_counts_by_hand() -> None:
    """40 actions at the start: 6 Slave, 4 Warrior, 5 Priest, 5 Pharaoh (all own captures but
    the Slaves'), 12 Mercenary and 8 Sethling moves."""
    g = game()
    assert perft(g.variant, g.state, 1) == 40
    assert perft(g.variant, game("b4c6").state, 1) == 38


# ------------------------------------------------------------------------------ events, drawing


def test_events_of_capture_departure_and_drop() -> None:
    g = game()
    played = g.play("b4c6")
    assert any(isinstance(e, Captured) and e.square == "c6" for e in played.events)
    assert any(isinstance(e, Placed) and e.square == "limbo" for e in played.events)
    played = g.play("b6b5")
    prompt = [e for e in played.events if isinstance(e, Prompt)]
    assert prompt and prompt[0].colour == 2 and "hours:b2" in prompt[0].options
    played = g.play("drop=hours:b2")
    assert any(isinstance(e, Placed) and e.square == "hours:b2" for e in played.events)


def test_ceasing_to_exist_is_an_event() -> None:
    g = game("b1c1")
    played = g.play("c4b2")
    assert any(isinstance(e, Removed) and e.piece == "P" for e in played.events)
    assert "Pharaoh" in played.events[-1].text and g.outcome.result == "0-1"


def test_render_draws_all_four_boards() -> None:
    g = game("b1a1 a6a5 a2a3 drop=hours:b2 b6b5")
    text = g.variant.render(g.state)
    for word in ("World", "Twelve Hours", "Hall of Truth", "Limbo", "Feather", "Entrance"):
        assert word in text
    assert "H*" in text and "7  w  p  h  w" in text


def test_play_command_shows_every_board_and_the_drop_choice() -> None:
    out = io.StringIO()
    terminal = TerminalGame(Game("afterlife"), out)
    terminal.run(io.StringIO("b4c6\nb6b5\nquit\n"))
    text = out.getvalue()
    assert text.count("Hall of Truth") == 3 and text.count("Limbo [") == 3
    assert "Black chooses: drop=hours:a2" in text


def test_view_has_the_hidden_bookkeeping() -> None:
    g = game("b1a1")
    view = g.variant.view(g.state, None)
    assert view["captured_this_life"] == ["a1"] and view["limbo_arrival_ply"] == 1
    assert view["squares"]["limbo"] == "W"


# ------------------------------------------------------------------------------ playouts


PLAYOUT_CHUNKS = 8  # the games split into chunks that the xdist workers share


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(PLAYOUT_CHUNKS))
def test_random_playouts(chunk: int) -> None:
    """Random games never raise or stall; every state and each game survive round trips."""
    games = playout_games(1000)
    seeds = range(chunk, games, PLAYOUT_CHUNKS)
    variant = make_variant("afterlife")
    started = time.process_time()
    finished = 0
    for seed in seeds:
        g = random_game(variant, seed, on_state=assert_position_round_trip)
        assert_record_round_trip(g)
        finished += g.outcome.result != "*"
    assert finished >= len(seeds) // 2
    print(f"{len(seeds)} afterlife playouts in {time.process_time() - started:.1f} s CPU")


OTHER_OPTIONS = [
    {"alc.win_mode": "fide_royal_in_world"},
    {"alc.limbo_departure": "optional", "alc.gray_no_immediate_reversal": True},
    {"alc.destiny_promoted": "original_type", "alc.slave_drop_last_rank": "allow",
     "alc.promotion_set": "W"},
    {"alc.own_capture_counts": False, "alc.slave_double_step": False, "alc.max_plies": 120,
     "alc.piece_table": {"H": "B", "W": "N", "M": "F", "E": "W"}},
]


@pytest.mark.slow
@pytest.mark.parametrize("options", OTHER_OPTIONS, ids=range(len(OTHER_OPTIONS)))
def test_random_playouts_with_other_options(options: dict[str, object]) -> None:
    games = max(1, playout_games(1000) // 20)
    variant = make_variant("afterlife", options)
    for seed in range(games):
        g = random_game(variant, seed, on_state=assert_position_round_trip)
        assert_record_round_trip(g)
