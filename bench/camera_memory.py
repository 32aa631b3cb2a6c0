"""Memory over a long game through the camera: ``gravekeeper watch camera://FOLDER?fast=1``.

Why: the camera's tracker keeps pictures (the reference, the last few accepted pictures for a
take-back, the stabiliser's), a position's candidates and what the pieces cover; any of them
kept per move instead of per position would grow with the game. :mod:`bench.memory` measures
the sensor path only.

How: the knight shuffle of :mod:`bench.memory` (``g1f3 g8f6 f3g1 f6g8`` over and over, the
50-move rule and threefold repetition switched off), one rendered photo per position, seen
from White's side at 60 degrees (``tests.vision.variations``: the four positions of a cycle are
rendered once and linked for every later cycle), replayed as a folder of photos at full speed
through ``gravekeeper watch`` as a real process. Its resident set size is read from
``/proc/PID/status`` as action lines appear. The reference is the RSS after the first 100
actions, measured in the same run.

Targets: every action recognised, and at most 5 MB more per 1,000 actions after the first
250, the slope of the readings. The game's past is kept twice on this path, about 1.7 KB an
action each (traced with tracemalloc in the ``watch`` process: the camera's tracker plays
every action on its own Game to build the next candidates, and the live session on the one
it owns), where bench/memory.py's sensor path keeps it once: its target of 3 MB is one past
(about 2 KB an action) and a margin of 1 MB, this one two pasts and the same margin. Measured
on 2,000 photos: 3.1-4.5 MB (4.51 and 4.41 with the code before and after 2026-11-30's
open lines going their own way). Exits 1 when a target is missed.

Run: .venv/bin/python bench/camera_memory.py [ACTIONS]   (default 2,000, at least 1,000; 4 min)
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

if not __package__:  # run as a file: this folder (first on the path) would stand in for the
    # vision package and hide the bench package; the repo root instead, as `python -m bench...`
    sys.path[0] = str(Path(__file__).resolve().parents[1])

import cv2
import numpy as np

from bench.memory import OPTIONS, SHUFFLE, print_samples, sample_watch
from tests.vision import variations as V

VIEW = (0.0, 60.0)   # White's side, 60 degrees above the table
TARGET_GROWTH_MB = 5.0  # per 1,000 actions: two games' past (see above) and a margin
EVERY = 100          # RSS is read every this many actions
MIN_ACTIONS = 1000   # fewer: a reading's few MB either way outweigh the slope
WARM = 250           # growth is measured from here on: the slope of a least-squares line
#                      through the readings (one reading is a few MB off either way, as
#                      numpy's temporary arrays come and go)


def write_photos(folder: Path, actions: int) -> str:
    """One photo per position of ``actions`` shuffle moves in ``folder``; the corners, as
    the ``corners=`` of a camera URL."""
    camera = V.orbit_camera(*VIEW)
    cycle = V.rendered_game(list(SHUFFLE), camera, 5)[:len(SHUFFLE)]
    for i, photo in enumerate(cycle):
        cv2.imwrite(str(folder / f"{i:06d}.jpg"), photo, [cv2.IMWRITE_JPEG_QUALITY, 95])
    for i in range(len(SHUFFLE), actions + 1):
        os.link(folder / f"{i % len(SHUFFLE):06d}.jpg", folder / f"{i:06d}.jpg")
    corners = np.asarray(V.camera_corners(camera), dtype=np.float64).reshape(-1)
    return ",".join(f"{v:.2f}" for v in corners)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("actions", nargs="?", type=int, default=2 * MIN_ACTIONS,
                        help=f"actions, one photo each (default {2 * MIN_ACTIONS:,}, at least "
                             f"{MIN_ACTIONS:,})")
    actions = parser.parse_args().actions
    if actions < MIN_ACTIONS:
        print(f"{actions} actions are too few to measure growth: give {MIN_ACTIONS} or more")
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "photos"
        folder.mkdir()
        corners = write_photos(folder, actions)
        seen, code, samples = sample_watch(
            [f"camera://{folder}?corners={corners}&fast=1", "--options", OPTIONS],
            lambda n: n % EVERY == 0)
    if seen != actions or code != 0:
        print(f"watch recognised {seen} of {actions} actions through the camera "
              f"(exit code {code})")
        return 1
    print(f"reference: {samples[100]:.1f} MB RSS after 100 actions; target: <= "
          f"{TARGET_GROWTH_MB:g} MB more per 1,000 actions after the first {WARM}")
    print_samples(samples)
    later = sorted(count for count in samples if count >= WARM)
    growth = 1000.0 * float(np.polyfit(later, [samples[c] for c in later], 1)[0])
    ok = growth <= TARGET_GROWTH_MB
    print(f"peak {max(samples.values()):.1f} MB, {growth:+.2f} MB per 1,000 actions: "
          f"{'ok' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
