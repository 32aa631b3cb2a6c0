"""Three ``serve`` processes on simulated boards (three variants) publish to one hub through a
real mosquitto.

- Every action of every board appears on the hub in order; an arbiter command sent from the hub
  reaches its board; the boards' secrets (player-page tokens aside, which only the arbiter API
  returns) never reach the hub's public pages.
- The outages of a club evening, all in one real-time game: one board's network is cut for 30 s
  (through a TCP proxy the test cuts) while the others play on; meanwhile the broker restarts,
  a board is stopped while the broker is away (it stops at once; what the broker never
  confirmed goes when it starts again) and the hub is ``kill -9``ed and restarted (it rebuilds
  from its store and the retained messages). Afterwards every board's every action is on the
  hub, in order, once.
"""

from __future__ import annotations

import json
import sqlite3
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

from tests.hub.mqtt import Broker, HubProcess, Proxy, serve_boards, wait_for
from tests.serve.harness import STDERR, Served, restart, stop

OPENING = ("e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5")
#: quiet moves (no capture, no check, no choice) legal in standard, Dead Man's and Ghost chess
QUIET = ("a2a3 a7a6 h2h3 h7h6 g1f3 g8f6 b1c3 b8c6 e2e3 e7e6 d2d3 d7d6 a1a2 a8a7 h1h2 h8h7 "
         "a2a1 a7a8 h2h1 h7h8 b2b3 b7b6 g2g3 g7g6 c3e2 c6e7 f3d2 f6d7").split()
CUT = 30.0    # seconds the far board's network is away
PACE = 2.5    # seconds between rounds of moves during the cut


def _moves(url: str) -> list[str]:
    with urllib.request.urlopen(url, timeout=5) as response:
        return list(json.loads(response.read())["moves"])


def test_three_serve_boards_and_a_hub(tmp_path: Path) -> None:
    broker = Broker(tmp_path)
    broker.start()
    hub = HubProcess(broker.url, tmp_path / "hub")
    hub.start()
    try:
        specs = {f"board{i}": (variant, broker.url)
                 for i, variant in enumerate(("standard", "deadmans", "ghost"))}
        with serve_boards(tmp_path, specs) as boards:
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


class _Evening:
    """The boards of the outage test and what the test has played on each."""

    def __init__(self, boards: dict[str, Served], hub: HubProcess) -> None:
        self.boards = boards
        self.hub = hub
        self.down: set[str] = set()   # boards whose serve is stopped

    def round(self) -> None:
        """Each running board plays its next quiet move (hands on the simulated board)."""
        for board, served in self.boards.items():
            if board not in self.down:
                served.play(QUIET[len(served.truth.played)])

    def play_until(self, end: float) -> None:
        while time.monotonic() < end:
            self.round()
            time.sleep(max(0.0, min(PACE - 1.5, end - time.monotonic())))

    def on_hub(self, board: str) -> list[str] | None:
        try:
            return _moves(f"{self.hub.base}/api/boards/{board}/game")
        except OSError:
            return None

    def caught_up(self, boards: list[str]) -> bool:
        return all(self.on_hub(b) == self.boards[b].truth.public_action_texts()
                   for b in boards)

    def behind(self) -> dict[str, str]:
        """Each board the hub lags: how many actions the hub has of how many played."""
        shown = {b: (self.on_hub(b), self.boards[b].truth.public_action_texts())
                 for b in self.boards}
        return {b: f"hub {'unreachable' if hub is None else len(hub)} of {len(truth)}"
                for b, (hub, truth) in shown.items() if hub != truth}

    def status(self) -> dict[str, str]:
        return {row["board"]: row["status"] for row in json.loads(self.hub.get("/api/boards"))}


def test_broker_restart_a_30_s_cut_a_stopped_board_and_a_killed_hub_lose_nothing(
        tmp_path: Path) -> None:
    broker = Broker(tmp_path)
    broker.start()
    proxy = Proxy(broker.port)
    hub = HubProcess(broker.url, tmp_path / "hub")
    hub.start()
    far_url = f"mqtt://127.0.0.1:{proxy.port}/test"
    specs = {"near1": ("standard", broker.url), "near2": ("deadmans", broker.url),
             "far": ("ghost", far_url)}
    try:
        with serve_boards(tmp_path, specs) as boards:
            evening = _Evening(boards, hub)
            near = ["near1", "near2"]
            for _ in range(3):
                evening.round()
            wait_for(lambda: evening.caught_up(list(boards)), 20, "the hub to have every action",
                     evening.behind)

            proxy.set_cut(True)               # the far board's network is gone for 30 s ...
            cut_end = time.monotonic() + CUT
            before_cut = len(boards["far"].truth.played)
            evening.round()
            broker.stop()                     # ... and meanwhile the broker restarts,
            evening.round()
            evening.round()                   # (the boards go on refereeing without it)
            stopping = boards["near1"]        # a board stops while the broker is away: at
            began = time.monotonic()          # once, its unconfirmed actions in its store
            status, said = stop(stopping.proc)
            print(f"serve stopped in {time.monotonic() - began:.2f} s with the broker away")
            assert status == 0, said
            evening.down.add("near1")
            broker.start()
            restart(stopping, int(urlsplit(stopping.base).port or 0))
            evening.down.clear()              # ... it starts again and sends them
            evening.round()
            wait_for(lambda: evening.caught_up(near), 30, "the near boards after the restart",
                     evening.behind)

            at_kill = {b: len(evening.on_hub(b) or []) for b in boards}
            hub.kill()                        # ... and the hub is killed (kill -9)
            evening.round()
            evening.round()
            hub.start()                       # it rebuilds from its store and the broker
            rebuilt = {b: evening.on_hub(b) or [] for b in boards}
            for b, moves in rebuilt.items():
                assert len(moves) >= at_kill[b]
                assert moves == boards[b].truth.public_action_texts()[:len(moves)]
            wait_for(lambda: evening.status()["far"] == "offline", 20,
                     "the cut-off board shown offline (its last will)")
            assert all(evening.status()[b] != "offline" for b in near)
            evening.play_until(cut_end)
            played_while_cut = len(boards["far"].truth.played) - before_cut
            proxy.set_cut(False)              # the far board's network is back
            evening.round()
            wait_for(lambda: evening.caught_up(list(boards)), 30, "the hub to catch up",
                     lambda: (evening.behind(), evening.status()))
            wait_for(lambda: evening.status()["far"] != "offline", 20, "the far board online")

            for b, served in boards.items():
                assert _moves(served.base + "/api/game") == served.truth.public_action_texts()
                assert evening.on_hub(b) == served.truth.public_action_texts()
            with sqlite3.connect(f"file:{tmp_path / 'hub' / 'hub.sqlite3'}?mode=ro",
                                 uri=True) as db:
                rows = db.execute("SELECT board, count(DISTINCT game), count(*), max(n), "
                                  "min(n) FROM actions GROUP BY board ORDER BY board").fetchall()
            assert rows == [(b, 1, len(boards[b].truth.played), len(boards[b].truth.played), 1)
                            for b in sorted(boards)]
            assert played_while_cut >= 6
            said_far = [line for line in STDERR[boards["far"].proc.pid] if "hub" in line]
            assert len(said_far) == 1 and "lost the connection" in said_far[0], said_far
            print({b: len(s.truth.played) for b, s in boards.items()}, played_while_cut, said_far)
    finally:
        hub.stop()
        proxy.close()
        broker.stop()
