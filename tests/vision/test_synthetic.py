"""Warp and classification on boards drawn with OpenCV (discs as pieces)."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import pytest

from vision.classify import BLACK, EMPTY, WHITE, classify_board, fen_to_grid
from vision.errors import CornersError, VisionError
from vision.geometry import BOARD, parse_corners, warp_board
from vision.sources import open_source

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"


def draw_board(fen: str, sq: int = 60) -> Any:
    """A top-down board (a8 top-left), discs as pieces, with a grey margin of one square."""
    img = np.full((10 * sq, 10 * sq, 3), 90, np.uint8)
    grid = fen_to_grid(fen)
    for r in range(8):
        for c in range(8):
            light = (r + c) % 2 == 0
            colour = (150, 180, 200) if light else (60, 100, 140)
            x, y = (c + 1) * sq, (r + 1) * sq
            cv2.rectangle(img, (x, y), (x + sq - 1, y + sq - 1), colour, -1)
            if grid[r, c]:
                fill = (245, 245, 245) if grid[r, c] == WHITE else (25, 25, 25)
                cv2.circle(img, (x + sq // 2, y + sq // 2), sq // 3, fill, -1)
                cv2.circle(img, (x + sq // 2, y + sq // 2), sq // 3, (120, 120, 120), 1)
    return img


def skew(img: Any, sq: int = 60) -> tuple[Any, list[list[float]]]:
    """The board seen obliquely, with its corners (a8, h8, h1, a1) in the new image."""
    src = np.float32([[sq, sq], [9 * sq, sq], [9 * sq, 9 * sq], [sq, 9 * sq]])
    dst = np.float32([[150, 80], [480, 95], [560, 520], [60, 500]])
    m = cv2.getPerspectiveTransform(src, dst)
    return cv2.warpPerspective(img, m, (640, 600)), dst.tolist()


def test_warp_recovers_board() -> None:
    img, corners = skew(draw_board("8/8/8/8/8/8/8/8"))
    warped = warp_board(img, parse_corners(corners))
    assert warped.shape == (BOARD, BOARD, 3)
    s = BOARD // 8
    a8 = warped[s // 2, s // 2].astype(int)
    b8 = warped[s // 2, s + s // 2].astype(int)
    assert a8.sum() > b8.sum() + 100  # a8 is light, b8 dark


@pytest.mark.parametrize("fen", [START, "r3k2r/ppp2ppp/2n5/3qp3/4P3/2N2N2/PPP2PPP/R2QK2R",
                                 "8/8/8/8/8/8/8/8"])
def test_classify_synthetic(fen: str) -> None:
    img, corners = skew(draw_board(fen))
    reading = classify_board(warp_board(img, parse_corners(corners)))
    assert (reading.labels == fen_to_grid(fen)).all()


def test_fen_to_grid() -> None:
    g = fen_to_grid(START)
    assert g[0, 0] == BLACK and g[7, 4] == WHITE and g[4, 4] == EMPTY
    with pytest.raises(ValueError):
        fen_to_grid("8/8")


@pytest.mark.parametrize("text", ["", "[1,2]", "[[0,0],[1,1],[2,2],[3,3]]", "[[0,0],[9,0],[9,9]]",
                                  '[["a","b"],[1,1],[2,2],[3,3]]'])
def test_bad_corners(text: str) -> None:
    with pytest.raises(CornersError):
        parse_corners(text)
    with pytest.raises(ValueError):
        parse_corners(text)


def test_sources(tmp_path: Any) -> None:
    with pytest.raises(FileNotFoundError):
        open_source(str(tmp_path / "missing.avi"))
    with pytest.raises(VisionError):
        open_source("camera:x")
    cv2.imwrite(str(tmp_path / "b.png"), draw_board(START))
    cv2.imwrite(str(tmp_path / "a.png"), draw_board("8/8/8/8/8/8/8/8"))
    with open_source(str(tmp_path)) as src:
        frames = list(src.frames())
    assert len(frames) == 2 and frames[0].shape == (600, 600, 3)
    src = open_source("camera:7")  # nothing is opened until frames are read
    src.close()
