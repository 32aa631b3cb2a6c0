"""``gravekeeper serve`` under load: action -> spectator DOM latency, and the service's memory.

A real ``serve`` process referees a simulated board (the board lives here, behind a pty, and
``serve`` opens it as ``serial://``). One real headless Chromium spectator page watches the
move list with a MutationObserver; N-1 more spectators are plain WebSocket clients that receive
every snapshot. For each recognised action the latency is the time from the snapshot's ``at``
(taken by ``serve`` right after the referee recognised the action) to the DOM showing it (same
machine, same wall clock). The reference is the same game watched by the browser page alone,
measured in the same run. RSS is read from /proc for the ``serve`` process at the end.

    .venv/bin/python bench/web.py [--spectators 50] [--plies 40]

Targets: p99 latency <= 100 ms with 50 spectators; serve's RSS <= 150 MB. Exit status 1 when a
target is missed.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from firmware_bridge.rig import builtin_rig  # noqa: E402
from firmware_bridge.sim import SimulatedBoard  # noqa: E402
from referee.rules import actions as A  # noqa: E402
from referee.rules.game import Game  # noqa: E402
from tests.serve.harness import Served, chromium, open_page, start_serve, stop  # noqa: E402

TARGET_P99_MS = 100.0
TARGET_RSS_MB = 150.0
OBSERVER = """() => {
  window.__marks = [];
  const ol = document.getElementById('moves');
  new MutationObserver(() => window.__marks.push([ol.children.length, Date.now()]))
    .observe(ol, {childList: true});
}"""


def _moves(plies: int, seed: int) -> list[str]:
    """A random game of quiet enough moves (no promotions, which need buttons)."""
    rng = random.Random(seed)
    game = Game("standard")
    out: list[str] = []
    while len(out) < plies and game.outcome.result == "*":
        legal = [a for a in game.legal() if a.kind == A.MOVE and not a.promo]
        if not legal:
            break
        text = game.variant.format_action(rng.choice(legal))
        game.play(text)
        out.append(text)
    return out


RECEIVED: list[int] = [0]


def _ws_spectators(url: str, count: int, stop_event: threading.Event) -> threading.Thread:
    """``count`` WebSocket spectators in one thread, reading every snapshot."""
    async def one() -> None:
        from websockets.asyncio.client import connect

        async with connect(url, max_size=None) as ws:
            while not stop_event.is_set():
                try:
                    await asyncio.wait_for(ws.recv(), 0.5)
                    RECEIVED[0] += 1
                except TimeoutError:
                    continue

    async def all_of_them() -> None:
        await asyncio.gather(*(one() for _ in range(count)), return_exceptions=True)

    thread = threading.Thread(target=asyncio.run, args=(all_of_them(),), daemon=True)
    thread.start()
    return thread


def _rss_mb(pid: int) -> tuple[float, float]:
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text()
                  .splitlines() if ":" in line)
    return (int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024)


def run(spectators: int, plies: int, seed: int, browser: Any) -> tuple[list[float], float]:
    """Latencies in ms for one game, and serve's peak RSS in MB."""
    import json

    truth = Game("standard")
    occupied = [truth.variant.layout.name(sq) for sq, p in enumerate(truth.state.board) if p]
    sim = SimulatedBoard(builtin_rig("standard"), start=occupied).start()
    with tempfile.TemporaryDirectory() as data:
        proc, urls, args = start_serve(sim, "standard", Path(data))
        served = Served(proc, urls, sim, truth, args)
        halt = threading.Event()
        try:
            ws_url = urls["spectator"].replace("http", "ws") + "ws"
            extra = _ws_spectators(ws_url, spectators - 1, halt) if spectators > 1 else None
            page = open_page(browser, urls["spectator"])
            page.page.evaluate(OBSERVER)
            snapshots: dict[int, float] = {}
            for text in _moves(plies, seed):
                served.play(text)
            page.page.wait_for_function(f"document.getElementById('moves').children.length "
                                        f">= {len(truth.played)}")
            for frame in page.frames:
                data_ = json.loads(frame)
                if data_.get("type") == "state":
                    snapshots.setdefault(len(data_["moves"]), data_["at"])
            marks = page.page.evaluate("window.__marks")
            shown: dict[int, float] = {}
            for count, at in marks:
                shown.setdefault(int(count), at / 1000)
            latencies = [(shown[n] - snapshots[n]) * 1000 for n in sorted(shown)
                         if n in snapshots and n > 0]
            _, peak = _rss_mb(proc.pid)
            page.page.context.close()
        finally:
            halt.set()
            stop(served.proc)
            sim.stop()
        if extra is not None:
            extra.join(timeout=5)
    return latencies, peak


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spectators", type=int, default=50)
    parser.add_argument("--plies", type=int, default=40)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    with chromium() as browser:
        ref, ref_rss = run(1, args.plies, args.seed, browser)
        lat, rss = run(args.spectators, args.plies, args.seed, browser)
    print(f"reference (1 spectator):   {len(ref)} actions, p50 {_pct(ref, .5):6.1f} ms, "
          f"p99 {_pct(ref, .99):6.1f} ms, serve peak RSS {ref_rss:6.1f} MB")
    print(f"{args.spectators} spectators:            {len(lat)} actions, p50 "
          f"{_pct(lat, .5):6.1f} ms, p99 {_pct(lat, .99):6.1f} ms, serve peak RSS {rss:6.1f} MB")
    ok = True
    if len(lat) < args.plies * 0.9:
        print(f"FAIL: only {len(lat)} of {args.plies} actions measured")
        ok = False
    if _pct(lat, .99) > TARGET_P99_MS:
        print(f"FAIL: p99 latency {_pct(lat, .99):.1f} ms > target {TARGET_P99_MS:.0f} ms")
        ok = False
    if rss > TARGET_RSS_MB:
        print(f"FAIL: serve peak RSS {rss:.1f} MB > target {TARGET_RSS_MB:.0f} MB")
        ok = False
    print(f"(the other {args.spectators - 1} spectators received {RECEIVED[0]} messages)")
    if args.spectators > 1 and RECEIVED[0] < (args.spectators - 1) * args.plies:
        print("FAIL: the WebSocket spectators did not receive every action")
        ok = False
    print("targets: p99 <= 100 ms, RSS <= 150 MB:", "met" if ok else "MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
