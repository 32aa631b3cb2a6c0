"""Three ``serve`` processes on simulated boards (three variants) publish to one hub through a
real mosquitto: every action of every board appears on the hub in order, an arbiter command
sent from the hub reaches its board, and the boards' secrets (player-page tokens aside, which
only the arbiter API returns) never reach the hub's public pages."""

from __future__ import annotations

import json
import urllib.request
from contextlib import ExitStack
from pathlib import Path

from tests.hub.mqtt import Broker, HubProcess, wait_for
from tests.serve.harness import Served, serving

OPENING = ("e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5")


def _moves(url: str) -> list[str]:
    with urllib.request.urlopen(url, timeout=5) as response:
        return list(json.loads(response.read())["moves"])


def test_three_serve_boards_and_a_hub(tmp_path: Path) -> None:
    broker = Broker(tmp_path)
    broker.start()
    hub = HubProcess(broker.url, tmp_path / "hub")
    hub.start()
    try:
        with ExitStack() as stack:
            boards: dict[str, Served] = {}
            for i, variant in enumerate(("standard", "deadmans", "ghost")):
                boards[f"board{i}"] = stack.enter_context(serving(
                    variant, tmp_path / variant, "--hub", broker.url, "--board", f"board{i}"))
            for move in OPENING:
                for served in boards.values():
                    served.play(move)
            for board in boards:
                wait_for(lambda b=board: _moves(f"{hub.base}/api/boards/{b}/game")
                         == list(OPENING), 20, f"{board}'s moves on the hub")
            listed = {row["board"]: row for row in json.loads(hub.get("/api/boards"))}
            assert {listed[b]["variant"] for b in boards} == {"standard", "deadmans", "ghost"}
            assert listed["board0"]["spectator_url"] == boards["board0"].urls["spectator"]

            public = b"".join(hub.get(p) for p in ("/api/boards", "/broadcast.pgn",
                                                    "/api/boards/board0/game")).decode()
            for served in boards.values():
                assert served.token("white") not in public
                assert served.token("black") not in public
                assert served.token("arbiter") not in public
            request = urllib.request.Request(
                hub.arbiter.replace("/arbiter/", "/api/arbiter/") + "/board1/command",
                data=json.dumps({"command": "takeback"}).encode(), method="POST",
                headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(request, timeout=5) as response:
                assert json.loads(response.read()) == {"sent": True}
            wait_for(lambda: _moves(boards["board1"].base + "/api/game") == list(OPENING[:-1]),
                     10, "the take-back on the board")
            wait_for(lambda: _moves(f"{hub.base}/api/boards/board1/game")
                     == list(OPENING[:-1]), 10, "the take-back on the hub")
    finally:
        hub.stop()
        broker.stop()
