"""vision-track on a rendered game: a frame folder with hands passing over the board."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from referee.app.vision_cli import track_main
from tests.vision.test_synthetic import draw_board, skew

FENS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
    "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR",     # d2d4
    "rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR",   # d7d5
    "rnbqkbnr/ppp1pppp/8/3p4/3P4/5N2/PPP1PPPP/RNBQKB1R",  # g1f3
]


def _hand(img: Any, t: float) -> Any:
    out = img.copy()
    x = int(80 + 400 * t)
    cv2.ellipse(out, (x, 520), (70, 140), 20, 0, 360, (120, 160, 220), -1)
    return out


def _render(folder: Path) -> list[list[float]]:
    rng = np.random.default_rng(1)
    n = 0
    corners: list[list[float]] = []
    for k, fen in enumerate(FENS):
        img, corners = skew(draw_board(fen))
        if k:
            for t in np.linspace(0, 1, 6):  # a hand crosses the board
                cv2.imwrite(str(folder / f"f{n:04d}.png"), _hand(img, float(t)))
                n += 1
        for _ in range(8):  # the position stays still for a while
            noisy = np.clip(img + rng.normal(0, 1.5, img.shape), 0, 255).astype(np.uint8)
            cv2.imwrite(str(folder / f"f{n:04d}.png"), noisy)
            n += 1
    return corners


def test_track_rendered_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    corners = _render(tmp_path)
    text = "[" + ",".join(f"[{x:.1f},{y:.1f}]" for x, y in corners) + "]"
    assert track_main([str(tmp_path), "--corners", text]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:-1] == ["d2d4", "d7d5", "g1f3"]
    assert lines[-1].startswith("# 3 moves")


def test_promotion_candidates_collapse_to_queen() -> None:
    from referee.app.vision_track import Tracker
    from vision.geometry import parse_corners

    tracker = Tracker(parse_corners("[[0,0],[400,0],[400,400],[0,400]]"))
    for move in "e2e4 d7d5 e4d5 c7c6 d5c6 d8d7 c6b7 e8d8".split():
        tracker.game.play(move)
    texts = [tracker.game.variant.format_action(acts[0])
             for acts, _ in tracker._candidates() if len(acts) == 1]
    assert "b7a8q" in texts and "b7a8n" not in texts and "b7c8q" in texts
    # the other pieces are the queen's twins: kept as alternatives once it is taken
    queen = next(c for c in tracker.decoder.candidates()
                 if tracker.game.variant.format_action(c.actions[0]) == "b7a8q"
                 and len(c.actions) == 1)
    assert sorted(tracker.game.variant.format_action(t.actions[0]) for t in queen.twins) == \
        ["b7a8b", "b7a8n", "b7a8r"]
