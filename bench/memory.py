"""Memory over a long game: ``gravekeeper watch`` refereeing a 4,000-action knight shuffle.

The game (``g1f3 g8f6 f3g1 f6g8`` over and over, with the 50-move rule and threefold
repetition switched off so that it never ends) is written as an event file and replayed at
full speed through ``gravekeeper watch`` as a real process. Its resident set size is read from
``/proc/PID/status`` as each thousandth action line appears. The reference is the RSS after the
first 100 actions, measured in the same run.

Targets: RSS under 60 MB at 4,000 actions, and at most 3 MB more per 1,000 actions (what a
game must keep of its past: the states for undo and the repetition keys, about 2 KB an action;
before past states dropped their legal lists and candidate after-states it was 31 MB per
1,000). Exits 1 when a target is missed.

Run: .venv/bin/python bench/memory.py [ACTIONS]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

TARGET_MB = 60.0
TARGET_GROWTH_MB = 3.0  # per 1,000 actions
SHUFFLE = ("g1f3", "g8f6", "f3g1", "f6g8")
OPTIONS = '{"standard.fifty_move": false, "standard.repetition_draw": false}'


def write_shuffle(path: Path, actions: int) -> None:
    """An event file of ``actions`` knight moves, 300 ms apart."""
    lines, t = [], 0
    for i in range(actions):
        move = SHUFFLE[i % len(SHUFFLE)]
        t += 300
        lines.append(f"{t} lift {move[:2]}")
        t += 60
        lines.append(f"{t} place {move[2:]}")
    path.write_text("\n".join(lines) + "\n")


def rss_mb(pid: int) -> float:
    """Resident set size of process ``pid`` in MB (0 once it has gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def sample_watch(argv: list[str], sample: Callable[[int], bool]
                 ) -> tuple[int, int, dict[int, float]]:
    """Run ``gravekeeper watch *argv`` and read its RSS as the action lines numbered
    ``sample(n)`` appear: the actions seen, the exit code, RSS (MB) by action count."""
    exe = Path(sys.executable).with_name("gravekeeper")
    proc = subprocess.Popen([str(exe), "watch", *argv], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    samples: dict[int, float] = {}
    seen = 0
    for line in proc.stdout:
        if line.startswith("#"):
            continue
        seen += 1
        if sample(seen):
            samples[seen] = rss_mb(proc.pid)
    return seen, proc.wait(), samples


def print_samples(samples: dict[int, float]) -> float:
    """Print the readings against the one after 100 actions; that reference."""
    reference = samples[100]
    print(f"{'actions':>8} {'RSS MB':>8} {'vs ref':>8}")
    for count, mb in sorted(samples.items()):
        print(f"{count:8,d} {mb:8.1f} {mb - reference:+8.1f}")
    return reference


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("actions", nargs="?", type=int, default=4000,
                        help="actions of the knight shuffle (default 4,000)")
    actions = parser.parse_args().actions
    with tempfile.TemporaryDirectory() as tmp:
        events = Path(tmp) / "shuffle.events"
        write_shuffle(events, actions)
        seen, _, samples = sample_watch([f"replay://{events}", "--options", OPTIONS],
                                        lambda n: n == 100 or n % 1000 == 0)
    if seen != actions or 100 not in samples:
        print(f"watch recognised {seen} of {actions} actions")
        return 1
    print(f"reference: {samples[100]:.1f} MB RSS after 100 actions; targets: < {TARGET_MB:g} MB, "
          f"<= {TARGET_GROWTH_MB:g} MB more per 1,000 actions")
    reference = print_samples(samples)
    last = samples[max(samples)]
    start = samples.get(1000, reference)
    growth = (last - start) / max(1, (max(samples) - min(1000, max(samples))) / 1000)
    ok = last < TARGET_MB and growth <= TARGET_GROWTH_MB
    print(f"peak {max(samples.values()):.1f} MB, {growth:+.2f} MB per 1,000 actions: "
          f"{'ok' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
