"""Zombie Chess: rules that scenarios cannot show (events, set-up positions), notation, views."""

from __future__ import annotations

import io

import pytest

from referee.app.play import TerminalGame
from referee.rules.errors import OptionError, RecordError
from referee.rules.events import Announcement, Marker, Placed, Removed, visible_to
from referee.rules.game import Game
from referee.rules.pieces import BLACK, WHITE
from referee.rules.variants import make_variant
from referee.rules.variants.zombie import Zombie
from referee.rules.variants.zombie_state import ZombieState

VARIANT = make_variant("zombie")
assert isinstance(VARIANT, Zombie)


def game_after(texts: str, options: dict[str, object] | None = None) -> Game:
    game = Game("zombie", options)
    for text in texts.split():
        game.play(text)
    return game


def texts_of(game: Game, text: str) -> list[str]:
    return [e.text for e in game.play(text).events if visible_to(e, None)]


def from_position(text: str, options: dict[str, object] | None = None) -> Game:
    variant = make_variant("zombie", options)
    return Game(variant, state=variant.from_position(text))


# ----------------------------------------------------------------------------- announcements


def test_announcements_no_zombies_anywhere_no_zombie_at_and_reveal() -> None:
    """RULINGS 5.8 #16: what the mover announces after its moves."""
    game = game_after("e2e4")
    assert "No zombies anywhere" in texts_of(game, "d7d5")
    game.play("e4d5")
    game.play("bury=b2")
    assert "No zombies anywhere" in texts_of(game, "g8f6")
    assert "No zombie at g1" in texts_of(game, "g1f3")
    game.play("f6e4")
    assert "Zombie black pawn rises on b2" in texts_of(game, "b2b3")


def test_burial_events_go_to_the_burier_only() -> None:
    game = game_after("e2e4 d7d5 e4d5")
    events = game.play("bury=c1").events
    private = [e for e in events if e.audience == WHITE]
    assert private and all("c1" not in e.text for e in events if visible_to(e, BLACK))
    assert any(isinstance(e, Marker) and e.marker == "burial" and e.square == "c1"
               for e in private)
    assert any(isinstance(e, Announcement) and "in secret" in e.text for e in events)


def test_rot_is_announced_and_goes_to_the_dust_bin() -> None:
    game = game_after("e2e4 d7d5 e4d5 bury=b2 d8d5 bury=b8 b2b3")
    events = game.play("e7e6").events
    assert any(isinstance(e, Removed) and e.reason == "rot" and e.square == "b2"
               for e in events)
    reveal = game_after("e2e4 d7d5 e4d5 bury=b2 d8d5 bury=b8").play("b2b3").events
    assert any(isinstance(e, Placed) and e.square == "b2" and e.piece == "p" for e in reveal)


def test_cannot_bury_goes_to_the_dust_bin() -> None:
    """RULINGS 5.8 #10: after exd5 every white piece stands on a white burial (d5's stayed there
    when the piece above it was captured earlier)."""
    game = from_position("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1 - d5n,e1r - -")
    events = game.play("e4d5").events
    assert any(isinstance(e, Removed) and e.text == "I cannot bury this piece"
               for e in events)
    assert game.state.to_act == BLACK
    assert VARIANT.expectation(game.state, "removed") == ["p"]
    assert VARIANT.expectation(game.state, "graveyard") == ["n", "r"]


# ----------------------------------------------------------------------------- legality


def test_rot_may_not_expose_the_king() -> None:
    """A zombie that shields the king must move: a normal move would let it rot (gap closed)."""
    game = from_position("4r2k/8/8/8/4R3/8/P7/4K3 w - - 0 1 e4 - - -")
    legal = set(game.legal_texts())
    assert not {"a2a3", "a2a4", "e4d4", "e1e2"} & legal
    assert {"e4e6", "e4e8", "e4e2", "e1d1", "e1f2"} <= legal


def test_revealed_pawn_must_be_safe_whatever_its_owner_makes_of_it() -> None:
    """A black pawn buried under f1 would rise on its last rank: as a knight it would check d2."""
    game = from_position("4k3/8/8/8/8/8/3K4/5R2 w - - 0 1 - f1p - -")
    legal = set(game.legal_texts())
    assert not any(t.startswith("f1") for t in legal)
    assert "d2d3" in legal
    quiet = from_position("4k3/8/8/8/8/8/K7/5R2 w - - 0 1 - f1p - -")
    assert "f1f5" in quiet.legal_texts()


def test_zombie_rook_never_castles_even_with_the_right_left() -> None:
    """RULINGS 5.8 #14: set up with the castling right still there, the zombie rook refuses."""
    plain = from_position("4k3/8/8/8/8/8/8/4K2R w K - 0 1 - - - -")
    zombie = from_position("4k3/8/8/8/8/8/8/4K2R w K - 0 1 h1 - - -")
    assert "e1g1" in plain.legal_texts()
    assert "e1g1" not in zombie.legal_texts()


def test_horde_cannot_capture_the_king() -> None:
    """A horde's first zombie may uncover the enemy king; the second gives check, never takes."""
    game = from_position("5k2/5B2/5R2/8/8/8/8/4K3 w - - 0 1 f6,f7 - - -")
    game.play("f7g6")
    legal = set(game.legal_texts())
    assert "f6f8" not in legal and "f6f7" in legal and "end" in legal


def test_options_are_validated() -> None:
    with pytest.raises(OptionError):
        make_variant("zombie", {"zombie.turn_mode": "both"})
    with pytest.raises(OptionError):
        make_variant("zombie", {"zombie.horde_check_each_step": "yes"})
    with pytest.raises(OptionError):
        make_variant("zombie", {"zombie.rot": True})


# ----------------------------------------------------------------------------- notation, views


def test_position_forms() -> None:
    game = game_after("e2e4 d7d5 e4d5 bury=b2 d8d5 bury=b8 b2b3")
    st = game.state
    assert isinstance(st, ZombieState)
    private = VARIANT.position(st)
    assert private.endswith("b2 - b8P -")
    assert VARIANT.position(st, private=False).endswith("b2 - ?P -")
    assert VARIANT.position(VARIANT.from_position(private)) == private
    with pytest.raises(RecordError):
        VARIANT.from_position(VARIANT.position(st, private=False))
    with pytest.raises(RecordError):
        VARIANT.from_position(private.replace("b8P", "b8p"))  # Black buries only white pieces
    mid = game_after("e2e4 d7d5 e4d5")
    assert VARIANT.position(mid.state).endswith("- - - choose;bury=p")
    assert VARIANT.position(VARIANT.from_position(VARIANT.position(mid.state))) == \
        VARIANT.position(mid.state)


def test_views_show_own_burials_and_legal_actions_only_to_their_player() -> None:
    game = game_after("e2e4 d7d5 e4d5 bury=b2 d8d5 bury=e8 g1f3 d5e4 f1e2 e4c2")
    st = game.state  # Black must bury: the free squares tell where its other burials are
    white, black, spectator = (VARIANT.view(st, v) for v in (WHITE, BLACK, None))
    assert white["my_burials"] == {"b2": "p"} and black["my_burials"] == {"e8": "P"}
    assert "my_burials" not in spectator
    assert "legal" in black and "legal" not in white and "legal" not in spectator
    assert "bury=e8" not in black["legal"]
    assert "b2p" not in black["position"] and "?p" in black["position"]
    game.play("bury=c2")
    assert VARIANT.view(game.state, WHITE)["last_action"] == "bury=(secret)"
    assert VARIANT.view(game.state, BLACK)["last_action"] == "bury=c2"


def test_terminal_never_shows_a_burial_square() -> None:
    out = io.StringIO()
    terminal = TerminalGame(Game("zombie"), out)
    moves = "e2e4 d7d5 e4d5 bury=b2 d8d5 bury=e8 g1f3 d5e4 f1e2 e4c2 legal position bury=c2 quit"
    terminal.run(io.StringIO("\n".join(moves.split()) + "\n"))
    text = out.getvalue()
    assert "white: bury=(secret)" in text and "black: bury=(secret)" in text
    assert "depend on a secret" in text and "chooses in secret" in text
    for secret in ("white: bury=b2", "black: bury=e8", "black: bury=c2", "b2p", "e8P", "c2P"):
        assert secret not in text
    # Before its first burial a player's free squares are all its pieces (public); after it,
    # the list of free squares would show the burial and is never printed.
    after = text.split("black: bury=(secret)", 1)[1]
    assert "Black chooses: bury=" not in after


def test_public_text_of_a_burial() -> None:
    action = VARIANT.parse_action("bury=c6", VARIANT.initial_state())
    assert VARIANT.public_action_text(action) == "bury=(secret)"
    assert VARIANT.format_action(action) == "bury=c6"
    promo = VARIANT.parse_action("promote=a1=N", VARIANT.initial_state())
    assert VARIANT.format_action(promo) == "promote=a1=N"


def test_line_tables_match_the_board_geometry() -> None:
    from referee.rules.variants.zombie import BETWEEN, LINES
    for a in range(64):
        assert LINES[a] == sum(1 << t for ray in VARIANT.rules.rays for t in ray[a])
        for b in range(64):
            assert BETWEEN[a][b] == sum(1 << t for t in VARIANT.geo.between(a, b))


def test_bad_positions_are_refused() -> None:
    for text in ("4k3/8/8/8/8/8/8/8 w - - 0 1 - - - -",            # no white king
                 "4k3/8/8/8/8/8/8/4K3 w - - 0 1 e1 - - -",          # a king with a coin
                 "4k3/8/8/8/8/8/8/4K3 w - - 0 1 - e2K - -",         # a buried king
                 "4k3/8/8/8/8/8/8/4K3 w - - 0 1 - - - open;x=1",    # bad turn field
                 "4k3/8/8/8/8/8/8/4K3 w - - 0 1 - -"):              # too few fields
        with pytest.raises(RecordError):
            VARIANT.from_position(text)
