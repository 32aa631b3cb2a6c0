"""Zombie Chess random playouts, and the proof that no view or event leaks a secret burial.

Playouts: ``GRAVEKEEPER_PLAYOUTS`` games (default 250; 1,000 with ``GRAVEKEEPER_LONG=1``) of
uniformly random legal actions, to a finish or 300 plies; every state survives a position round
trip, every game a record round trip.

Leaks (``GRAVEKEEPER_ZOMBIE_LEAK_GAMES`` games of 300 plies; default 30, 120 with
``GRAVEKEEPER_LONG=1``): after every
action, for White, Black and spectators,

* every field of the view, serialised to JSON, is walked: burial squares appear only in the
  viewer's own map (``my_burials``, the viewer's field of the position, the viewer's own
  ``bury=`` action); the opponent's map is ``?letters`` or ``-``; spectators see no map at all;
* the view is *unchanged* when the burials the viewer may not know are moved to other squares
  (non-interference: this also catches indirect leaks, e.g. a legal-action list that depends on
  the opponent's burials);
* every event the viewer may see is the same whatever hidden burial square was chosen (all other
  ``bury=`` squares are tried) and wherever the hidden burials lie away from the squares the
  action publicly checks for zombies.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from typing import Any

import pytest

from referee.rules import actions as A
from referee.rules.actions import Action
from referee.rules.events import GameEnded, GameEvent, Marker, Prompt, visible_to
from referee.rules.game import Game
from referee.rules.pieces import BLACK, WHITE
from referee.rules.variants import make_variant
from referee.rules.variants.zombie import Zombie
from referee.rules.variants.zombie_state import ZombieState
from tests.long import LONG
from tests.playout import (
    assert_position_round_trip,
    assert_record_round_trip,
    playout_games,
    random_game,
)

PLAYOUTS = playout_games(1000)
LEAK_GAMES = playout_games(120, "GRAVEKEEPER_ZOMBIE_LEAK_GAMES")
CHUNKS = 4  # parallel test workers share the games
VIEWERS = (WHITE, BLACK, None)
BURY_TEXT = re.compile(r"bury=([a-h][1-8])")

# ----------------------------------------------------------------------------- playouts


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_playouts_round_trip(chunk: int) -> None:
    variant = make_variant("zombie")
    seeds = range(chunk, PLAYOUTS, CHUNKS)
    plies = 0
    for seed in seeds:
        game = random_game(variant, seed, on_state=assert_position_round_trip)
        assert_record_round_trip(game)
        plies += len(game.played)
    assert plies > len(seeds) * 50  # the games really were played


OPTION_SETS = [
    {"zombie.turn_mode": "normal_plus_zombies"},
    {"zombie.legality_includes_opponent_reveal": True},
    {"zombie.zombie_pawn_double_step": False},
    {"zombie.captured_zombie": "dust_bin"},
    {"zombie.horde_check_each_step": True},
]


@pytest.mark.slow
@pytest.mark.parametrize("options", OPTION_SETS, ids=[str(o) for o in OPTION_SETS])
def test_playouts_with_other_options(options: dict[str, Any]) -> None:
    variant = make_variant("zombie", options)
    # normal_plus_zombies searches the horde after every normal move: fewer, shorter games.
    # A quarter of them but with GRAVEKEEPER_LONG (the nightly run).
    games = 12 if options.get("zombie.turn_mode") == "normal_plus_zombies" else 40
    games = games if LONG else games // 4
    for seed in range(games):
        game = random_game(variant, seed, on_state=assert_position_round_trip)
        assert_record_round_trip(game)


def test_same_seed_same_game() -> None:
    one, two = random_game("zombie", 7), random_game("zombie", 7)
    assert one.action_texts() == two.action_texts()


# ----------------------------------------------------------------------------- leaks


def hidden_colours(viewer: int | None) -> tuple[int, ...]:
    """Whose burial squares ``viewer`` may not know."""
    return (WHITE, BLACK) if viewer is None else (3 - viewer,)


def names(variant: Zombie, st: ZombieState, colour: int) -> dict[str, str]:
    return {variant.layout.name(sq): variant.piece_letter(p) for sq, p in st.burials_of(colour)}


def relocated(st: ZombieState, colour: int, rng: random.Random,
              keep: frozenset[int] = frozenset()) -> ZombieState:
    """``st`` with ``colour``'s burials (except those on ``keep``) moved to other squares."""
    new = st.copy()
    assert isinstance(new, ZombieState)
    new.ply, new.parent, new.action = st.ply, st.parent, st.action
    fixed = [(sq, p) for sq, p in st.burials_of(colour) if sq in keep]
    moving = [p for sq, p in st.burials_of(colour) if sq not in keep]
    free = [sq for sq in range(64) if sq not in keep and sq not in dict(fixed)]
    rng.shuffle(free)
    new.set_burials(colour, tuple(sorted(fixed + list(zip(free, moving, strict=False)))))
    return new


def walk(node: Any, path: str = "") -> list[tuple[str, Any]]:
    """Every (path, leaf) of a JSON value, dict keys included as leaves."""
    if isinstance(node, dict):
        out: list[tuple[str, Any]] = []
        for key, value in node.items():
            out.append((f"{path}/{key}#key", key))
            out.extend(walk(value, f"{path}/{key}"))
        return out
    if isinstance(node, list):
        return [leaf for i, v in enumerate(node) for leaf in walk(v, f"{path}[{i}]")]
    return [(path, node)]


def assert_view_keeps_secrets(variant: Zombie, st: ZombieState, viewer: int | None) -> None:
    data = json.loads(json.dumps(variant.view(st, viewer)))
    own = names(variant, st, viewer) if viewer is not None else {}
    for path, leaf in walk(data):
        if "bur" in path.lower() and not path.startswith(("/my_burials", "/waiting_burial")):
            raise AssertionError(f"unexpected burial field {path}")
        if path.startswith("/my_burials/") and path.endswith("#key"):
            assert leaf in own, (path, leaf)
        if isinstance(leaf, str) and not path.startswith("/legal"):
            # (the legal list names the squares still free for the viewer's own burial: it is
            # shown only to the player to act, and the non-interference test covers it)
            for square in BURY_TEXT.findall(leaf):
                assert square in own, (viewer, path, leaf)
    fields = data["position"].split()
    for colour in (WHITE, BLACK):
        field = fields[6 + colour]
        if colour in hidden_colours(viewer):
            assert field == "-" or field.startswith("?"), (viewer, data["position"])
    assert data.get("my_burials", {}) == own
    if "legal" in data:
        assert viewer == st.to_act or variant.legal_is_public(st)
    if viewer is None:
        assert "my_burials" not in data and "Your burials" not in variant.render(st, None)
    public = variant.position(st, private=False).split()
    assert all(f == "-" or f.startswith("?") for f in public[7:9])


def comparable(variant: Zombie, st: ZombieState, viewer: int | None) -> dict[str, Any]:
    # The mate/stalemate/repetition verdict is announced publicly by RULINGS 5.4/5.6 and may
    # depend on hidden burials (a mate by a hidden own zombie, repetition of hidden state).
    view = variant.view(st, viewer)
    return {k: v for k, v in view.items() if k not in ("result", "reason")}


def assert_view_does_not_depend_on_secrets(variant: Zombie, st: ZombieState,
                                           viewer: int | None, rng: random.Random) -> None:
    if variant.outcome(st).result != "*":
        return  # legal lists are empty once over, and the verdict itself is public
    other = st
    for colour in hidden_colours(viewer):
        other = relocated(other, colour, rng)
    if variant.outcome(other).result != "*":
        return  # a repetition count that the moved burials changed (hidden state counts)
    assert comparable(variant, other, viewer) == comparable(variant, st, viewer), viewer


def visible(events: list[GameEvent], viewer: int | None) -> list[dict[str, Any]]:
    out = []
    for event in events:
        if not visible_to(event, viewer):
            continue
        if isinstance(event, Marker) and event.marker == "burial":
            assert event.audience == viewer
        if isinstance(event, Prompt) and event.kind == "bury" and event.options:
            assert event.audience == viewer
        data = dataclasses.asdict(event)
        data["type"] = type(event).__name__
        out.append(data)
    return out


def events_of(variant: Zombie, st: ZombieState, action: Action) -> list[GameEvent]:
    events: list[GameEvent] = []
    variant.play(st, action, events)
    # The game's end (a mate by a hidden zombie, a repetition of hidden state) is announced
    # publicly by RULINGS 5.4/5.6, so it may differ when hidden burials are moved.
    return [e for e in events if not isinstance(e, GameEnded)]


def checked_squares(variant: Zombie, st: ZombieState, action: Action) -> frozenset[int]:
    """Squares whose burials the action may publicly reveal or deny ("no zombie at ...")."""
    if action.kind not in (A.MOVE, "end"):
        return frozenset()
    squares = set(st.left)
    if action.kind == A.MOVE:
        squares.add(action.frm)
        rule = variant.rules.castle_rule(action.frm, action.to, st.turn)
        if rule is not None and st.board[action.frm] & 15 == 6:
            squares.add(rule.rook_from)
    return frozenset(squares)


def assert_events_keep_secrets(variant: Zombie, before: ZombieState, action: Action,
                               rng: random.Random) -> None:
    actor = before.to_act
    base = events_of(variant, before, action)
    keep = checked_squares(variant, before, action)
    for viewer in VIEWERS:
        seen = visible(base, viewer)
        if action.kind == "bury" and viewer != actor:
            for other in variant.legal_actions(before):
                assert visible(events_of(variant, before, other), viewer) == seen
        moved = before
        for colour in hidden_colours(viewer):
            moved = relocated(moved, colour, rng, keep)
        if action in variant.legal_actions(moved):
            other = visible(events_of(variant, moved, action), viewer)
            # "I cannot bury this piece" is the burier's public statement about its own map
            # (SOURCE): moving its burials may change it, and the turn goes on differently.
            if not any(e.get("reason") == "cannot bury" for e in seen + other):
                assert other == seen, action


def leak_game(variant: Zombie, seed: int) -> int:
    rng = random.Random(seed)
    game = Game(variant, seed=seed)
    while game.outcome.result == "*" and len(game.played) < 300:
        before = game.state
        assert isinstance(before, ZombieState)
        action = rng.choice(game.legal())
        assert_events_keep_secrets(variant, before, action, rng)
        game.play(action)
        st = game.state
        assert isinstance(st, ZombieState)
        for viewer in VIEWERS:
            assert_view_keeps_secrets(variant, st, viewer)
            assert_view_does_not_depend_on_secrets(variant, st, viewer, rng)
    return len(game.played)


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_no_view_or_event_leaks_a_burial(chunk: int) -> None:
    variant = make_variant("zombie")
    assert isinstance(variant, Zombie)
    seeds = range(chunk, LEAK_GAMES, CHUNKS)
    plies = sum(leak_game(variant, seed) for seed in seeds)
    assert plies > len(seeds) * 100


def test_leak_checks_can_fail() -> None:
    """The checks above catch a view that shows the opponent's map, and one that depends on it."""
    variant = make_variant("zombie")
    assert isinstance(variant, Zombie)
    game = Game(variant)
    for text in "e2e4 d7d5 e4d5 bury=b2".split():
        game.play(text)
    st = game.state
    assert isinstance(st, ZombieState)
    leaky = {"position": variant.position(st), "my_burials": {}}
    original = variant.view
    try:
        variant.view = lambda s, v: {**original(s, v), **leaky}  # type: ignore[method-assign]
        with pytest.raises(AssertionError):
            assert_view_keeps_secrets(variant, st, BLACK)
        variant.view = lambda s, v: {  # type: ignore[method-assign]
            **original(s, v), "hint": sum(sq for sq, _ in s.burials_of(WHITE))}  # type: ignore[attr-defined]
        with pytest.raises(AssertionError):
            assert_view_does_not_depend_on_secrets(variant, st, BLACK, random.Random(3))
    finally:
        variant.view = original  # type: ignore[method-assign]
