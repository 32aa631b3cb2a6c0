"""Fifty boards, one broker, one hub, in real time on loopback.

Each board plays a random game of a variant (cycling through all seven), one action every
``PACE`` seconds on average (a fast club evening is one every 10-30 s per board; the default
1.5 s is ten times that), publishing through a real mosquitto to a real ``gravekeeper hub``
process. A dashboard client on the hub's WebSocket records when each action shows up.

Figures:
- messages lost: actions a board played that the hub does not have at the end (must be 0);
- board action -> dashboard latency, p50/p99 (target p99 <= 250 ms), against the reference
  measured in the same run: the broker's own delivery to a plain MQTT subscriber;
- the hub's CPU (share of one core) and RSS.

Usage: ``python bench/hub.py [BOARDS] [SECONDS]`` (default 50 boards, 40 s). Exit 1 when a
target is missed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.app.hub.schema import decode, parse_mqtt_url  # noqa: E402
from referee.rules.variants import VARIANTS  # noqa: E402
from tests.hub.mqtt import Broker, HubProcess, RandomBoard, wait_for  # noqa: E402

TARGET_P99_MS = 250.0
PACE = 1.5


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class Dashboard(threading.Thread):
    """A dashboard on the hub's WebSocket: when did each (board, action count) appear."""

    def __init__(self, base: str) -> None:
        super().__init__(daemon=True)
        self.url = base.replace("http://", "ws://") + "/ws"
        self.latencies: list[float] = []
        self.stop = threading.Event()

    def run(self) -> None:
        from websockets.exceptions import ConnectionClosed
        from websockets.sync.client import connect

        with connect(self.url, max_size=None) as socket:
            while not self.stop.is_set():
                try:
                    message = json.loads(socket.recv(timeout=0.5))
                except TimeoutError:
                    continue
                except ConnectionClosed:
                    return
                sent = message.get("action_t")
                if message.get("type") == "board" and isinstance(sent, int | float):
                    self.latencies.append(time.time() - sent)


class Reference(threading.Thread):
    """The broker's own delivery time: a plain subscriber to the boards' action messages."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url = parse_mqtt_url(url)
        self.latencies: list[float] = []

    def run(self) -> None:
        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion

        client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="bench-reference")

        def on_message(client: Any, userdata: Any, message: Any) -> None:
            sent = decode(message.payload).get("t")
            if isinstance(sent, int | float):
                self.latencies.append(time.time() - sent)

        client.on_message = on_message
        client.on_connect = lambda c, *a: c.subscribe(f"{self.url.prefix}/boards/+/actions", 1)
        client.connect(self.url.host, self.url.port)
        client.loop_forever()


def _quantiles(values: list[float]) -> tuple[float, float]:
    ms = sorted(v * 1000 for v in values)
    if len(ms) < 2:
        return (ms[0], ms[0]) if ms else (float("nan"), float("nan"))
    cuts = statistics.quantiles(ms, n=100)
    return cuts[49], cuts[98]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("boards", nargs="?", type=int, default=50, help="boards (default 50)")
    parser.add_argument("seconds", nargs="?", type=float, default=40.0,
                        help="seconds of play (default 40)")
    args = parser.parse_args(argv)
    boards_n, seconds = args.boards, args.seconds
    folder = Path(tempfile.mkdtemp(prefix="gk-bench-hub-"))
    broker = Broker(folder)
    broker.start()
    hub = HubProcess(broker.url, folder / "hub")
    hub.start()
    assert hub.proc is not None
    reference = Reference(broker.url)
    reference.start()
    dashboard = Dashboard(hub.base)
    dashboard.start()
    variants = list(VARIANTS)
    boards = [RandomBoard(f"board{i:02d}", variants[i % len(variants)], broker.url, i)
              for i in range(boards_n)]
    for board in boards:
        board.start()
    time.sleep(2.0)
    dashboard.latencies.clear()
    reference.latencies.clear()
    cpu0, t0 = _cpu_seconds(hub.proc.pid), time.monotonic()
    rng = __import__("random").Random(0)
    due = {b.board: time.monotonic() + rng.uniform(0, PACE * 2) for b in boards}
    while time.monotonic() - t0 < seconds:
        now = time.monotonic()
        for board in boards:
            if due[board.board] <= now:
                board.step()
                due[board.board] = now + rng.uniform(0, PACE * 2)
        time.sleep(0.005)
    played = sum(len(b.game.played) for b in boards)

    def have() -> int:
        return sum(len(json.loads(hub.get(f"/api/boards/{b.board}/game"))["moves"])
                   for b in boards)

    try:
        wait_for(lambda: have() >= played, 30, "the hub to catch up")
    except AssertionError:
        pass
    elapsed = time.monotonic() - t0
    cpu = (_cpu_seconds(hub.proc.pid) - cpu0) / elapsed
    rss = _rss_mb(hub.proc.pid)
    stored = have()
    wrong = [b.board for b in boards
             if json.loads(hub.get(f"/api/boards/{b.board}/game"))["moves"] != b.public_moves()]
    for board in boards:
        board.publisher.stop()
    hub.stop()
    broker.stop()
    p50, p99 = _quantiles(dashboard.latencies)
    r50, r99 = _quantiles(reference.latencies)
    print(f"boards {boards_n}, {seconds:.0f} s, {played} actions "
          f"({played / seconds:.1f}/s through one hub)")
    print(f"lost: {max(0, played - stored)}   boards whose move list differs: {len(wrong)}")
    print(f"action -> dashboard  p50 {p50:6.1f} ms  p99 {p99:6.1f} ms  (target p99 <= "
          f"{TARGET_P99_MS:.0f} ms, {len(dashboard.latencies)} samples)")
    print(f"reference: broker -> plain subscriber  p50 {r50:6.1f} ms  p99 {r99:6.1f} ms")
    print(f"hub: CPU {cpu * 100:.1f} % of one core, RSS {rss:.0f} MB")
    ok = played == stored and not wrong and p99 <= TARGET_P99_MS
    print("OK" if ok else "MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
