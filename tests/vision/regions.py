"""Generated games of variants whose pieces leave the 8x8 board, pieced from real squares.

Why: the shared data has one real game, of standard chess, on a board that fills the picture.
The documented camera setups for the variants (docs/vision.md) are built here from its real
squares (:func:`tests.vision.variations.compose`), one frame per position:

* a printed label ring around the board (a frame of wood colour, one square wide, with the
  files and ranks printed on it): ghosts stand on it, their pixels cut from real pieces;
* a second board of the same kind beside the first, the same way round.

Each frame is shifted and turned a little as if rectified on its own.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np

from referee.rules.game import Game
from referee.rules.pieces import WHITE, colour_of
from tests.vision.variations import (
    SCHOLAR_STILLS,
    SIZE,
    _library,
    compose,
    video_frames,
    warp_jittered,
)

S = SIZE // 8
RING_BGR = (62, 96, 138)  # a wooden frame
LABEL_BGR = (205, 225, 235)
TABLE_BGR = (70, 78, 84)


def real_start(video: Path) -> Any:
    """The video's start position rectified (a8 top-left), SIZE x SIZE."""
    frame = video_frames(video)[SCHOLAR_STILLS[0]]
    return warp_jittered(frame, np.random.default_rng(0), 0.0)


def fen_of(game: Game, prefix: str = "") -> str:
    """The FEN piece field of the 8x8 board named ``prefix`` + a1..h8 in ``game``."""
    variant, state = game.variant, game.state
    rows = []
    for rank in range(8, 0, -1):
        row, gap = "", 0
        for f in "abcdefgh":
            code = state.board[variant.layout.square(f"{prefix}{f}{rank}")]
            if not code:
                gap += 1
                continue
            letter = variant.piece_letter(code).upper()
            row += (str(gap) if gap else "") + (letter if colour_of(code) == WHITE
                                                else letter.lower())
            gap = 0
        rows.append(row + (str(gap) if gap else ""))
    return "/".join(rows)


def piece_cut(start: Any, letter: str) -> tuple[Any, Any]:
    """A real piece's pixels and mask (where its square's patch differs from an empty square
    of the same colour)."""
    pieces, empty = _library(start)
    parity = 0 if (0, letter) in pieces else 1
    patch = pieces[(parity, letter)][0] if (parity, letter) in pieces else \
        pieces[(parity, "P" if letter.isupper() else "p")][0]
    bare = np.median(np.stack(empty[parity]).reshape(-1, 3), axis=0)
    dist = np.linalg.norm(patch.astype(np.float64) - bare, axis=2)
    mask = cv2.morphologyEx((dist > 45).astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3)))
    return patch, mask.astype(bool)


def ring_board(game: Game, start: Any, rng: np.random.Generator) -> Any:
    """The main board with its printed ring (one square wide) and the ghosts on it."""
    side = SIZE + 2 * S
    img = np.zeros((side, side, 3), np.uint8)
    img[:] = RING_BGR
    img = np.clip(img + rng.normal(0, 2.0, img.shape), 0, 255).astype(np.uint8)
    img[S:S + SIZE, S:S + SIZE] = compose(fen_of(game), start)
    variant = game.variant
    places = variant.layout.places()
    main_panel = places["a1"][0]
    for name, (panel, x, y, _look) in places.items():
        if panel != main_panel or 0 <= x < 8 and 0 <= y < 8:
            continue
        col, row = x + 1, 8 - y
        label = "abcdefgh"[x] if 0 <= x < 8 else str(y + 1)
        cell = img[row * S:(row + 1) * S, col * S:(col + 1) * S]
        cv2.putText(cell, label, (S // 2 - 9, S // 2 + 9), cv2.FONT_HERSHEY_SIMPLEX, 0.8,
                    LABEL_BGR, 2)
        code = game.state.board[variant.layout.square(name)]
        if code:
            letter = variant.piece_letter(code).upper()
            patch, mask = piece_cut(start, letter if colour_of(code) == WHITE
                                    else letter.lower())
            cell[mask] = patch[mask]
    return img


def two_boards(game: Game, start: Any, prefix: str) -> Any:
    """The main board, a gap of table, and the second board (``prefix``) beside it."""
    gap = S
    img = np.zeros((SIZE + 2 * gap, 2 * SIZE + 3 * gap, 3), np.uint8)
    img[:] = TABLE_BGR
    img[gap:gap + SIZE, gap:gap + SIZE] = compose(fen_of(game), start)
    x = 2 * gap + SIZE
    img[gap:gap + SIZE, x:x + SIZE] = compose(fen_of(game, prefix), start)
    return img


def corners_at(x: float, y: float) -> list[list[float]]:
    """Corners a8, h8, h1, a1 of a SIZE board whose a8 corner is at (x, y)."""
    return [[x, y], [x + SIZE, y], [x + SIZE, y + SIZE], [x, y + SIZE]]


def jitter(img: Any, rng: np.random.Generator, shift: float = 3.0) -> Any:
    """``img`` shifted by up to ``shift`` px and turned up to 0.6 degrees."""
    h, w = img.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), rng.uniform(-0.6, 0.6), 1.0)
    m[:, 2] += rng.uniform(-shift, shift, 2)
    return cv2.warpAffine(img, m, (w, h), borderMode=cv2.BORDER_REPLICATE)


def random_game(variant: str, plies: int, seed: int, prefer: Any = None) -> list[str]:
    """A random legal game of ``variant``: captures, and actions ``prefer`` picks (squares off
    the main board), preferred, so pieces leave the board and come back."""
    rng = np.random.default_rng(seed)
    game = Game(variant, seed=seed)
    texts: list[str] = []
    for _ in range(plies):
        # the camera cannot tell a promoted knight from a queen (docs/vision.md, Limits)
        legal = [a for a in game.legal() if (a.promo or "q").lower() == "q"]
        if not legal or game.outcome.result != "*":
            break
        liked = [a for a in legal if prefer is not None and prefer(game, a)]
        caps = [a for a in legal if a.to >= 0 and game.state.board[a.to]]
        roll = rng.random()
        pool = liked if liked and roll < 0.4 else caps if caps and roll < 0.8 else legal
        texts.append(game.play(pool[int(rng.integers(len(pool)))]).text)
    return texts
