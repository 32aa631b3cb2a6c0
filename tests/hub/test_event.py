"""The event on the hub's store: players, pairings from pairing-core, results, standings, and
the messages a board may send (bad ones are refused, never stored)."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.app.hub import event as ev
from referee.app.hub.board import public_game
from referee.app.hub.pgn import public_pgn
from referee.app.hub.schema import HubError, decode, encode, parse_mqtt_url, split_topic
from referee.app.hub.server import Hub, arbiter_action, broadcast, summary
from referee.app.hub.store import Store
from referee.rules.game import Game


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(tmp_path / "hub.sqlite3")


def _hub(store: Store) -> Hub:
    return Hub(parse_mqtt_url("mqtt://127.0.0.1:1/ev"), store)


def test_round_robin_of_four_pairs_everyone_once(store: Store) -> None:
    hub = _hub(store)
    for name in "ABCD":
        arbiter_action(hub, "players", {"name": name, "rating": 1500})
    met: set[frozenset[int]] = set()
    for round_no in (1, 2, 3):
        assert arbiter_action(hub, "pair", {"system": "roundrobin"}) == {"round": round_no}
        for row in store.pairings(round_no):
            met.add(frozenset((row["white"], row["black"])))
            store.set_result(round_no, row["tableno"], "1/2-1/2")
    assert len(met) == 6
    with pytest.raises(HubError, match="has 3 rounds"):
        arbiter_action(hub, "pair", {"system": "roundrobin"})
    assert {s.points for s in ev.standings(store)} == {1.5}


def test_swiss_pairs_by_score_and_refuses_an_unfinished_round(store: Store) -> None:
    hub = _hub(store)
    for i, name in enumerate(["Ann", "Bob", "Cat", "Dan", "Eve"]):
        arbiter_action(hub, "players", {"name": name, "rating": 2000 - 10 * i})
    arbiter_action(hub, "pair", {"system": "swiss"})
    tables = store.pairings(1)
    assert sum(row["black"] is None for row in tables) == 1     # five players: one bye
    with pytest.raises(HubError, match="without a result"):
        arbiter_action(hub, "pair", {"system": "swiss"})
    for row in tables:
        if row["black"] is not None:
            arbiter_action(hub, "result", {"round": 1, "table": row["tableno"], "result": "1-0"})
    arbiter_action(hub, "pair", {"system": "swiss"})
    first = {frozenset((r["white"], r["black"])) for r in tables}
    second = {frozenset((r["white"], r["black"])) for r in store.pairings(2)}
    assert not (first & second - {frozenset((r["white"], None)) for r in tables})
    top = ev.standings(store)[0]
    assert top.points == 1.0


@pytest.mark.parametrize("body, problem", [
    ({"name": ""}, "name"), ({"name": "X", "rating": "high"}, "rating"),
    ({"name": "X", "rating": 99999}, "rating"), ({"name": 5}, "name"),
])
def test_bad_arbiter_requests_are_refused(store: Store, body: dict, problem: str) -> None:
    with pytest.raises(HubError, match=problem):
        arbiter_action(_hub(store), "players", body)


def test_a_finished_game_fills_in_its_table(store: Store) -> None:
    hub = _hub(store)
    store.board_status("t1", "online", 1.0)
    for name in "AB":
        arbiter_action(hub, "players", {"name": name})
    arbiter_action(hub, "pair", {"system": "roundrobin"})
    game = Game("standard")
    for move in ("f2f3", "e7e5", "g2g4", "d8h4"):
        game.play(move)
    hub.handle("t1", "state", {"t": 2.0, **public_game(game, game_id="g")})
    assert store.pairings(1)[0]["result"] == "0-1"
    assert "0-1" in broadcast(store) and summary(store, "t1")["result"] == "0-1"


@pytest.mark.parametrize("payload", [
    b"\xff", b"[]", b'{"v": 2}', b'{"v": 1, "n": NaN}', b"{" * 5000, b"x" * 300_000,
])
def test_messages_that_are_not_version_1_objects_are_refused(payload: bytes) -> None:
    with pytest.raises(HubError):
        decode(payload)


@pytest.mark.parametrize("kind, message", [
    ("actions", {"game": "g", "n": 0, "text": "e2e4"}),
    ("actions", {"game": "g", "n": True, "text": "e2e4"}),
    ("actions", {"game": "g", "n": 1, "text": 5}),
    ("state", {"game": "g", "variant": "standard", "moves": [1], "result": "*"}),
    ("status", {"status": "asleep"}),
    ("join", {"urls": ["x"]}),
])
def test_malformed_board_messages_store_nothing(store: Store, kind: str, message: dict) -> None:
    hub = _hub(store)
    with pytest.raises(HubError):
        hub.handle("b", kind, decode(encode(message)))
    assert store.moves("b", "g") == []


def test_duplicates_are_stored_once_and_the_state_is_authoritative(store: Store) -> None:
    hub = _hub(store)
    for n, text in ((1, "e2e4"), (1, "e2e4"), (2, "e7e5"), (3, "g1f3")):
        hub.handle("b", "actions", {"game": "g", "n": n, "text": text, "t": 1.0})
    assert store.moves("b", "g") == ["e2e4", "e7e5", "g1f3"]
    game = Game("standard")
    game.play("e2e4")
    game.play("e7e5")                      # the arbiter took g1f3 back
    hub.handle("b", "state", {"t": 2.0, **public_game(game, game_id="g")})
    assert store.moves("b", "g") == ["e2e4", "e7e5"]


def test_topics_and_urls() -> None:
    url = parse_mqtt_url("mqtts://ann:pw%21@broker.example:9000/spring-cup")
    assert (url.host, url.port, url.event, url.tls, url.password) == (
        "broker.example", 9000, "spring-cup", True, "pw!")
    assert "pw" not in url.safe()
    assert split_topic(url.prefix, url.topic("b7", "state")) == ("b7", "state")
    assert split_topic(url.prefix, url.prefix + "/boards/b7/other") is None
    assert parse_mqtt_url("mqtt://h").port == 1883 and parse_mqtt_url("mqtt://h").event == "club"


def test_variant_pgn_keeps_unreadable_tokens_in_comments() -> None:
    text = public_pgn("zombie", "Zombie Chess", ["e2e4", "bury=(secret)", "d7d5"],
                      ["white", "white", "black"], "*", {"White": "A"})
    assert '[Variant "Zombie Chess"]' in text and "{bury=(secret)}" in text
    assert "1. e2e4 {bury=(secret)} d7d5 *" in text
