"""Camera pipeline speed at 1280x720 on one thread: decode + warp + classify + decide.

Usage: .venv/bin/python bench/vision.py [DATA_DIR]   (default ../shared/vision, from the repo
root; ``-m bench.vision`` runs it too)

The shared game video is scaled to 1280x720 and JPEG-encoded in memory (a webcam's MJPEG
stream), then played as a 30 frames/s stream through the same tracker the ``camera://`` sensor
runs. Measured, with OpenCV held to one thread:

* **reference**: JPEG decoding alone, the floor any camera pipeline pays;
* **stream**: decode + the tracker's step for every frame (warp, motion gate, and at settled
  frames the change map, classification and decision), as the live sensor runs it;
* **every frame judged**: decode + warp + classify + change map + decision on every frame, the
  worst case (a folder of stills is judged like this);
* **move latency**: from the arrival of the first still frame of the settled position (stream
  time, 30 fps) to the move coming out of the tracker, the frames taken in turn by one thread
  (a frame waits while an earlier one is worked on);
* **hand-held stream, stabilised**: the same video seen by a camera held in the hand
  (``tests.vision.variations.handheld``: a smooth random walk of about half a square and 3
  degrees plus jitter, seed 1), decode + the tracker's step with ``stabilise=True`` (what
  ``phone://`` runs by default), its move latency, and the stabiliser's own cost per frame
  (:meth:`vision.stabilise.Stabiliser.track`, decoding excluded).

Times are the thread's CPU time (``time.thread_time``): frames per second of one core. Other
processes on the machine still slow it down (shared caches and cores: decoding alone measured
125-216 frames/s on one machine within an hour), so each figure is the best of ``REPEATS``
runs, as :mod:`timeit` advises, while the moves must be right in every run.

Targets: >= 30 frames/s for both stream and every-frame figures, latency <= 200 ms for every
move, and the 7 moves exactly. The stabilised hand-held stream has the same targets (>= 30
frames/s, <= 200 ms, 7 moves): it is the phone's default path, and the issue's speed target is
for the camera referee as it runs, hand-held or not. Exits 1 when any is missed.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

if not __package__:  # run as a file: this folder (first on the path) would stand in for the
    # vision package and hide the bench package; the repo root instead, as `python -m bench...`
    sys.path[0] = str(Path(__file__).resolve().parents[1])

import cv2
import numpy as np

from referee.app.camera import LIVE_BACKLOG
from referee.app.vision_track import Tracker, agreement
from tests.vision import variations as V
from vision.change import change_map
from vision.geometry import parse_corners
from vision.sources import open_source
from vision.stabilise import Stabiliser

WIDTH, HEIGHT, FPS = 1280, 720, 30.0
CORNERS = [[137, 374], [140, 5], [506, 10], [507, 377]]
MOVES = "e2e4 e7e5 d1h5 b8c6 f1c4 g8f6 h5f7".split()
TARGET_FPS = 30.0
TARGET_LATENCY_MS = 200.0
REPEATS = 3  # runs of each measurement; the best is reported


def _stream(video: Path) -> tuple[list[bytes], list[list[float]]]:
    """The video's frames at 1280x720 (scaled to the height, centred) as JPEG bytes, and
    the board corners in those frames."""
    with open_source(str(video)) as src:
        frames = list(src.frames())
    return _encode(frames, CORNERS)


def _encode(frames: list[Any], corners_in: Any) -> tuple[list[bytes], list[list[float]]]:
    """``frames`` at 1280x720 (scaled to the height, centred) as JPEG bytes, and the board
    corners ``corners_in`` (pixels of ``frames``) in those frames."""
    h, w = frames[0].shape[:2]
    scale = HEIGHT / h
    new_w = int(round(w * scale))
    left = (WIDTH - new_w) // 2
    out = []
    for f in frames:
        canvas = np.full((HEIGHT, WIDTH, 3), 90, np.uint8)
        canvas[:, left:left + new_w] = cv2.resize(f, (new_w, HEIGHT),
                                                  interpolation=cv2.INTER_LINEAR)
        out.append(cv2.imencode(".jpg", canvas, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes())
    corners = [[float(x) * scale + left, float(y) * scale] for x, y in corners_in]
    return out, corners


def _timed(stabiliser: Stabiliser) -> list[float]:
    """The CPU seconds of each of ``stabiliser``'s :meth:`~Stabiliser.track` calls, from now."""
    spent: list[float] = []
    track = stabiliser.track

    def timed(frame: Any) -> Any:
        t0 = time.thread_time()
        out = track(frame)
        spent.append(time.thread_time() - t0)
        return out

    stabiliser.track = timed  # type: ignore[method-assign]
    return spent


def _follow(tracker: Tracker, jpgs: list[bytes]) -> tuple[float, list[str]]:
    """Decode + step every frame of a 30 frames/s stream: frames/s of CPU, and the moves."""
    moves: list[str] = []
    t0 = time.thread_time()
    for k, jpg in enumerate(jpgs):
        moves += [m.text for m in tracker.step(_decode(jpg), k / FPS)]
    return len(jpgs) / (time.thread_time() - t0), moves


def _live(tracker: Tracker, jpgs: list[bytes]) -> tuple[list[str], list[float]]:
    """The stream as the live camera sensor takes it (:meth:`CameraSensor._arrivals`): frames
    arrive every 1/30 s, one thread decodes and steps them in turn, and when LIVE_BACKLOG
    frames wait for it the oldest is dropped. Returns the moves and, for each, its latency
    (ms): from the arrival of the first still frame of its position to the end of the step
    that gave it, the time the thread spent on earlier frames included."""
    moves: list[str] = []
    latencies: list[float] = []
    free = 0.0  # stream time (s) at which the thread is done with the frames taken so far
    taken: list[int] = []  # the stream's frame numbers the tracker got, in turn
    k = 0
    while k < len(jpgs):
        now = max(free, k / FPS)
        arrived = min(len(jpgs) - 1, int(now * FPS + 1e-9))
        k = max(k, arrived - LIVE_BACKLOG + 1)  # the older waiting frames were dropped
        start = time.thread_time()
        got = tracker.step(_decode(jpgs[k]), k / FPS)
        free = now + time.thread_time() - start
        taken.append(k)
        if got:  # the tracker counts its frames: still_since is one of them
            latencies += [1000.0 * (free - taken[tracker.still_since] / FPS)] * len(got)
            moves += [m.text for m in got]
        k += 1
    return moves, latencies


def _decode(jpg: bytes) -> Any:
    return cv2.imdecode(np.frombuffer(jpg, np.uint8), cv2.IMREAD_COLOR)


def _judged(jpgs: list[bytes], corners: Any) -> float:
    """Frames/s of CPU with decode + warp + classify + change map + decision on every frame."""
    judge = Tracker(parse_corners(corners))
    reference = judge.warp(_decode(jpgs[0]))
    t0 = time.thread_time()
    for jpg in jpgs:
        warped = judge.warp(_decode(jpg))
        change = change_map(reference, warped)
        judge.decoder.decide(change, agreement(warped))
    return len(jpgs) / (time.thread_time() - t0)


def _decoding(jpgs: list[bytes]) -> float:
    """Frames/s of CPU decoding alone."""
    t0 = time.thread_time()
    for jpg in jpgs:
        _decode(jpg)
    return len(jpgs) / (time.thread_time() - t0)


@dataclass(frozen=True)
class Figures:
    """One camera's figures (the still one, or the one in the hand), each the best of
    REPEATS runs; ``right``: the moves were right in every run."""

    fps: float
    moves: list[str]
    live_moves: list[str]
    latencies: list[float]
    right: bool
    stabiliser_ms: float = 0.0

    @property
    def worst(self) -> float:
        return max(self.latencies) if self.latencies else float("inf")

    @property
    def median(self) -> float:
        return float(np.median(self.latencies)) if self.latencies else float("nan")


def _measure(jpgs: list[bytes], corners: Any, *, stabilise: bool) -> Figures:
    """Decode + step every frame, then the live stream, REPEATS times each (timeit's rule:
    on a shared machine the slower runs measure the other jobs)."""
    follows, stab = [], []
    for _ in range(REPEATS):
        tracker = Tracker(parse_corners(corners), stabilise=stabilise)
        spent = [] if tracker.stabiliser is None else _timed(tracker.stabiliser)
        follows.append(_follow(tracker, jpgs))
        stab.append(1000.0 * sum(spent) / max(1, len(spent)))
    lives = [_live(Tracker(parse_corners(corners), stabilise=stabilise), jpgs)
             for _ in range(REPEATS)]
    fps, moves = max(follows)
    live_moves, latencies = min(lives, key=lambda run: max(run[1], default=float("inf")))
    right = all(run[1] == MOVES for run in follows) and all(run[0] == MOVES for run in lives)
    return Figures(fps, moves, live_moves, latencies, right, min(stab))


def _report(n: int, ref_fps: float, judged_fps: float, still: Figures, hand: Figures) -> int:
    """Print the figures against the reference and the targets; 1 when one is missed."""
    print(f"frames: {n} at {WIDTH}x{HEIGHT}, JPEG, one thread, best of {REPEATS} runs")
    print(f"reference (decode only): {ref_fps:.1f} frames/s")
    print(f"stream (decode + tracker step): {still.fps:.1f} frames/s "
          f"({still.fps / ref_fps:.2f} x reference; target >= {TARGET_FPS:.0f})")
    print(f"every frame judged (decode + warp + classify + change + decide): "
          f"{judged_fps:.1f} frames/s ({judged_fps / ref_fps:.2f} x reference; "
          f"target >= {TARGET_FPS:.0f})")
    print(f"moves: {' '.join(still.moves)}")
    print(f"live (frames dropped when {LIVE_BACKLOG} wait): move latency from the first still "
          f"frame: max {still.worst:.0f} ms, median {still.median:.0f} ms "
          f"(target <= {TARGET_LATENCY_MS:.0f}); moves: {' '.join(still.live_moves)}")
    print(f"hand-held stream, stabilised (decode + stabilise + tracker step): {hand.fps:.1f} "
          f"frames/s ({hand.fps / ref_fps:.2f} x reference; target >= {TARGET_FPS:.0f}); "
          f"stabiliser alone {hand.stabiliser_ms:.1f} ms/frame")
    print(f"hand-held moves: {' '.join(hand.moves)}")
    print(f"hand-held live: move latency max {hand.worst:.0f} ms, median {hand.median:.0f} ms "
          f"(target <= {TARGET_LATENCY_MS:.0f}); moves: {' '.join(hand.live_moves)}")
    checks = {
        "stream frames/s": still.fps >= TARGET_FPS,
        "every-frame frames/s": judged_fps >= TARGET_FPS,
        "move latency": still.worst <= TARGET_LATENCY_MS,
        "moves": still.right,
        "hand-held frames/s": hand.fps >= TARGET_FPS,
        "hand-held move latency": hand.worst <= TARGET_LATENCY_MS,
        "hand-held moves": hand.right,
    }
    missed = [name for name, ok in checks.items() if not ok]
    if missed:
        print(f"MISSED: {', '.join(missed)}")
        return 1
    print("all targets met")
    return 0


def main() -> int:
    cv2.setNumThreads(1)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", nargs="?", type=Path, default=Path("../shared/vision"),
                        help="the shared vision folder (default ../shared/vision)")
    data = parser.parse_args().data
    if not (data / "videos" / "scholarsmate.avi").is_file():
        print(f"no videos/scholarsmate.avi in {data}: give the shared vision folder",
              file=sys.stderr)
        return 2
    jpgs, corners = _stream(data / "videos" / "scholarsmate.avi")
    with open_source(str(data / "videos" / "scholarsmate.avi")) as src:
        shaken, truth = V.handheld(list(src.frames()), 1)
    held, held_corners = _encode(shaken, truth[0])
    ref_fps = max(_decoding(jpgs) for _ in range(REPEATS))
    still = _measure(jpgs, corners, stabilise=False)
    hand = _measure(held, held_corners, stabilise=True)
    judged_fps = max(_judged(jpgs, corners) for _ in range(REPEATS))
    return _report(len(jpgs), ref_fps, judged_fps, still, hand)


if __name__ == "__main__":
    sys.exit(main())
