"""Time the camera pipeline: ms per labelled photo (given corners) and per video frame.

Usage: .venv/bin/python -m bench.vision [DATA_DIR]   (default ../shared/vision; run as a
module, from the repo root: as a script this file would shadow the vision package)
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from referee.app.vision_track import Tracker
from vision.evaluate import evaluate
from vision.geometry import parse_corners
from vision.labels import read_labels
from vision.sources import open_source

SCHOLAR = "[[137,374],[140,5],[506,10],[507,377]]"


def main() -> None:
    data = Path(sys.argv[1] if len(sys.argv) > 1 else "../shared/vision")
    summary = evaluate(read_labels(data / "photos" / "labels.csv"))
    print(f"photos: {summary.ms_per_photo:.1f} ms per photo (given corners, excl. decoding)")
    tracker = Tracker(parse_corners(SCHOLAR))
    with open_source(str(data / "videos" / "scholarsmate.avi")) as src:
        frames = list(src.frames())
    t0 = time.perf_counter()
    moves = [m.text for m in tracker.run(frames)]
    dt = time.perf_counter() - t0
    print(f"video: {1000 * dt / len(frames):.2f} ms per frame over {len(frames)} frames; "
          f"moves {' '.join(moves)}")


if __name__ == "__main__":
    main()
