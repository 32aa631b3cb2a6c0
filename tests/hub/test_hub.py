"""The hub with a real mosquitto, a real ``gravekeeper hub`` process and boards publishing over
MQTT: every action arrives in order, nothing is lost or doubled when the hub is killed, and no
secret reaches the hub. (The broker restart and the 30 s cut are played with real ``serve``
processes in test_serve_boards.py.)"""

from __future__ import annotations

import io
import json
import time
from collections.abc import Iterator
from pathlib import Path

import chess.pgn
import pytest

from tests.hub.mqtt import Broker, HubProcess, RandomBoard, wait_for


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    b = Broker(tmp_path)
    b.start()
    yield b
    b.stop()


@pytest.fixture
def hub(broker: Broker, tmp_path: Path) -> Iterator[HubProcess]:
    h = HubProcess(broker.url, tmp_path / "hub")
    h.start()
    yield h
    h.stop()


def _hub_moves(hub: HubProcess, board: str) -> list[str] | None:
    try:
        return list(json.loads(hub.get(f"/api/boards/{board}/game"))["moves"])
    except OSError:
        return None


def _caught_up(hub: HubProcess, boards: list[RandomBoard]) -> bool:
    return all(_hub_moves(hub, b.board) == b.public_moves() for b in boards)


def _play(boards: list[RandomBoard], steps: int, pause: float = 0.01) -> None:
    for _ in range(steps):
        for b in boards:
            b.step()
        time.sleep(pause)


def test_three_boards_every_action_in_order_no_secret_and_pgn(
        broker: Broker, hub: HubProcess) -> None:
    boards = [RandomBoard("b1", "standard", broker.url, 1),
              RandomBoard("b2", "deadmans", broker.url, 2),
              RandomBoard("b3", "zombie", broker.url, 3)]
    for b in boards:
        b.start()
    try:
        _play(boards, 40)
        wait_for(lambda: _caught_up(hub, boards), 20, "the hub to have every action")
        listed = json.loads(hub.get("/api/boards"))
        assert [row["board"] for row in listed] == ["b1", "b2", "b3"]
        assert all(row["status"] in ("playing", "finished") for row in listed)

        secrets = {p.text for b in boards for p in b.game.played
                   if b.game.variant.public_action_text(p.action) != p.text}
        public = b"".join(hub.get(path) for path in (
            "/", "/api/boards", "/broadcast.pgn", "/api/event",
            *(f"/api/boards/{b.board}/game" for b in boards),
            *(f"/api/boards/{b.board}/game.pgn" for b in boards))).decode()
        assert not [s for s in secrets if s in public]

        pgn = io.StringIO(hub.get("/broadcast.pgn").decode())
        games = []
        while (game := chess.pgn.read_game(pgn)) is not None:
            games.append(game)
        assert len(games) == 3
        standard = next(g for g in games if "Variant" not in g.headers)
        assert not standard.errors
        assert [m.uci() for m in standard.mainline_moves()] == boards[0].public_moves()
        variants = {g.headers.get("Variant") for g in games} - {None}
        assert variants == {"Dead Man's Chess", "Zombie Chess"}
    finally:
        for b in boards:
            b.publisher.stop()


def test_hub_killed_and_restarted_rebuilds_from_its_store_and_the_broker(
        broker: Broker, hub: HubProcess) -> None:
    boards = [RandomBoard("k1", "masquerade", broker.url, 6),
              RandomBoard("k2", "afterlife", broker.url, 7)]
    for b in boards:
        b.start()
    try:
        _play(boards, 15)
        wait_for(lambda: _caught_up(hub, boards), 20, "the hub to have every action")
        hub.kill()                          # kill -9
        _play(boards, 15)                   # the boards go on while the hub is down
        hub.start()
        _play(boards, 5)
        wait_for(lambda: _caught_up(hub, boards), 20, "the restarted hub to catch up")
    finally:
        for b in boards:
            b.publisher.stop()


def test_bad_hub_urls_get_one_line_and_exit_2(tmp_path: Path) -> None:
    import subprocess

    from tests.hub.mqtt import GRAVEKEEPER

    for url in ("http://x", "mqtt://", "mqtt://h:99999", "mqtt://h/bad event", "mqtt://h?x=1",
                "mqtts://u:pw-secret@h/e?ca=/no/such/ca.pem", "mqtt://u:pw-secret@h/e?ca=/",
                "mqtts://u:pw-secret@h:99999/e", "mqtts://u:pw-secret@h/e?ca=/etc/hostname"):
        done = subprocess.run([GRAVEKEEPER, "hub", "--mqtt", url, "--data", str(tmp_path)],
                              capture_output=True, text=True, timeout=20)
        assert done.returncode == 2, (url, done.stderr)
        assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
        assert "pw-secret" not in done.stderr


def test_watch_publishes_to_the_hub(broker: Broker, hub: HubProcess) -> None:
    import subprocess

    from tests.hub.mqtt import GRAVEKEEPER

    events = Path(__file__).resolve().parents[1] / "events" / "standard"
    events = events / "opening-with-mess.events"
    done = subprocess.run([GRAVEKEEPER, "watch", f"replay://{events}", "--hub", broker.url,
                           "--board", "w1"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    printed = [line for line in done.stdout.splitlines() if not line.startswith("#")]
    assert printed
    wait_for(lambda: _hub_moves(hub, "w1") == printed, 20, "watch's moves on the hub")


def test_a_hub_started_before_its_broker_says_so_once_and_catches_up(tmp_path: Path) -> None:
    broker = Broker(tmp_path)               # not started yet
    hub = HubProcess(broker.url, tmp_path / "hub")
    hub.start()                             # serves at once: the broker is only away
    board = RandomBoard("late", "zombie", broker.url, 8)
    try:
        assert json.loads(hub.get("/api/boards")) == []
        time.sleep(2.5)                     # a few of its retries (1, 2 s apart)
        broker.start()
        board.start()
        _play([board], 10)
        wait_for(lambda: _caught_up(hub, [board]), 20, "the hub to catch up")
    finally:
        board.publisher.stop()
        hub.stop()
        broker.stop()
    assert hub.stderr_lines is not None
    assert len(hub.stderr_lines) == 1 and "refuses connections" in hub.stderr_lines[0]
