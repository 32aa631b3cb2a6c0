"""Generated variations of real camera data for the tracking tests.

Why: the shared data holds one real game video; the recordings the referee must follow also come
as one frame per settled position, rectified one by one (squares shift a few pixels), darker,
recompressed, with hands over the board. These helpers make such recordings from the real video:

* :func:`scholar_stills`: the settled frames of ``scholarsmate.avi``, each warped on its own with
  corners jittered by a few pixels (one frame per position);
* :func:`composite_game`: any game, one frame per position, pieced together from the real
  squares of the video's start position (so textures, shadows and the board are real);
* :func:`perturb`: darken, brighten, recompress, noise, or draw a hand and arm over the board;
* :func:`photographed`: such boards photographed one by one by a phone in the hand (each photo
  framed differently: turned, nearer or further, moved), on a table.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from referee.app.vision_decoder import pieces_of
from referee.rules.game import Game
from referee.rules.variant import Variant
from referee.rules.variants import make_variant
from referee.rules.variants.chesslike import START_FEN
from vision.geometry import SQUARE, homography, parse_corners
from vision.sources import open_source

SCHOLAR_CORNERS = "[[137,374],[140,5],[506,10],[507,377]]"
#: frames of scholarsmate.avi where each position has settled (start, then after 1... e5,
#: 2. Qh5, 2... Nc6, 3. Bc4, 3... Nf6, 4. Qxf7#): 1. e4 is never seen settled on its own.
SCHOLAR_STILLS = (2, 66, 92, 125, 188, 213, 280)
SCHOLAR_MOVES = ["e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"]
SIZE = 480
FULL = [[0, 0], [SIZE, 0], [SIZE, SIZE], [0, SIZE]]


def video_frames(video: Path) -> list[Any]:
    """The video's frames, decoded once per test process (read-only: a test that draws on a
    frame copies it first); about 40 tests read the same shared video."""
    return list(_decoded(str(Path(video).resolve())))


@functools.lru_cache(maxsize=2)
def _decoded(video: str) -> tuple[Any, ...]:
    with open_source(video) as src:
        frames = tuple(src.frames())
    for frame in frames:
        frame.flags.writeable = False
    return frames


def warp_jittered(frame: Any, rng: np.random.Generator, jitter: float = 3.0) -> Any:
    """The board of ``frame`` rectified on its own to SIZE x SIZE, corners off by +-jitter px."""
    corners = parse_corners(SCHOLAR_CORNERS) + rng.uniform(-jitter, jitter, (4, 2))
    dst = np.float32(FULL)
    m = cv2.getPerspectiveTransform(corners.astype(np.float32), dst)
    return cv2.warpPerspective(frame, m, (SIZE, SIZE), flags=cv2.INTER_AREA)


def scholar_stills(video: Path, rng: np.random.Generator, jitter: float = 3.0) -> list[Any]:
    frames = video_frames(video)
    return [warp_jittered(frames[i], rng, jitter) for i in SCHOLAR_STILLS]


def _library(start: Any) -> tuple[dict[tuple[int, str], list[Any]], dict[int, list[Any]]]:
    """Square patches of the rectified start position: (parity, piece letter) -> patches,
    parity -> empty patches (parity 1 = dark)."""
    s = SIZE // 8
    rows = START_FEN.split()[0].split("/")
    pieces: dict[tuple[int, str], list[Any]] = {}
    empty: dict[int, list[Any]] = {0: [], 1: []}
    for r, row in enumerate(rows):
        c = 0
        for ch in row:
            if ch.isdigit():
                for _ in range(int(ch)):
                    empty[(r + c) % 2].append(start[r * s:(r + 1) * s, c * s:(c + 1) * s])
                    c += 1
            else:
                pieces.setdefault(((r + c) % 2, ch), []).append(
                    start[r * s:(r + 1) * s, c * s:(c + 1) * s])
                c += 1
    return pieces, empty


def compose(fen_board: str, start: Any) -> Any:
    """A board showing ``fen_board`` pieced from the squares of the rectified ``start`` (each
    square keeps one look per content, as a real board does)."""
    pieces, empty = _library(start)
    s = SIZE // 8
    out = np.zeros_like(start)
    for r, row in enumerate(fen_board.split("/")):
        c = 0
        for ch in row:
            if ch.isdigit():
                for _ in range(int(ch)):
                    if 2 <= r <= 5:  # empty in the start position: its own look
                        patch = start[r * s:(r + 1) * s, c * s:(c + 1) * s]
                    else:
                        pool = empty[(r + c) % 2]
                        patch = pool[(r * 8 + c) % len(pool)]
                    out[r * s:(r + 1) * s, c * s:(c + 1) * s] = patch
                    c += 1
                continue
            parity = (r + c) % 2
            pool = pieces.get((parity, ch)) or pieces.get((1 - parity, ch)) or []
            if (parity, ch) not in pieces:  # same colour, right square colour: a pawn
                pool = pieces[(parity, "P" if ch.isupper() else "p")]
            out[r * s:(r + 1) * s, c * s:(c + 1) * s] = pool[(r * 8 + c) % len(pool)]
            c += 1
    return out


@functools.cache
def _standard() -> Variant[Any]:
    """Standard chess's rules, built once per test process (its move tables take 15 ms)."""
    return make_variant("standard")


def game_from(fen: str | None) -> Game:
    """A game of standard chess from the start, or from the set-up position ``fen``."""
    variant = _standard()
    if fen is None:
        return Game(variant)
    return Game(variant, state=variant.from_position(fen))  # type: ignore[attr-defined]


def random_game(plies: int, seed: int, fen: str | None = None) -> list[str]:
    """A random legal game of standard chess (captures preferred, so pieces of both colours
    cross squares of both colours), as UCI-like action texts, from the start or ``fen``."""
    rng = np.random.default_rng(seed)
    game = game_from(fen)
    texts: list[str] = []
    for _ in range(plies):
        legal = game.legal()
        if not legal or game.outcome.result != "*":
            break
        caps = [a for a in legal if game.state.board[a.to]]
        pool = caps if caps and rng.random() < 0.5 else legal
        texts.append(game.play(pool[rng.integers(len(pool))]).text)
    return texts


def composite_game(moves: list[str], start: Any, seed: int = 0,
                   jitter: float = 3.0, fen: str | None = None) -> list[Any]:
    """One frame per position (the start or the set-up ``fen``, then after each move), each
    shifted a little as if rectified on its own."""
    rng = np.random.default_rng(seed)
    game = game_from(fen)
    boards = [game.variant.fen(game.state).split()[0]]
    for m in moves:
        game.play(m)
        boards.append(game.variant.fen(game.state).split()[0])
    out = []
    for fen in boards:
        img = compose(fen, start)
        dx, dy = rng.uniform(-jitter, jitter, 2)
        angle = rng.uniform(-0.6, 0.6)
        m = cv2.getRotationMatrix2D((SIZE / 2, SIZE / 2), angle, 1.0 + rng.uniform(-0.01, 0.01))
        m[:, 2] += (dx, dy)
        out.append(cv2.warpAffine(img, m, (SIZE, SIZE), borderMode=cv2.BORDER_REFLECT))
    return out


def push_square(img: Any, row: int, col: int, dx: float, dy: float) -> Any:
    """``img`` (a rectified SIZE board) with the content of square (``row``, ``col``) moved by
    (``dx``, ``dy``) pixels within the square, its edge repeated: the piece there pushed."""
    s = SIZE // 8
    out = img.copy()
    patch = img[row * s:(row + 1) * s, col * s:(col + 1) * s]
    m = np.float32([[1, 0, dx], [0, 1, dy]])
    out[row * s:(row + 1) * s, col * s:(col + 1) * s] = cv2.warpAffine(
        patch, m, (s, s), borderMode=cv2.BORDER_REPLICATE)
    return out


def pushed_game(moves: list[str], start: Any, seed: int, *, push: float = 0.5,
                shift: float = 0.12) -> list[Any]:
    """One frame per position, pieced like :func:`composite_game` (not shifted), where a move
    knocks a piece next to where it lands aside (with probability ``push``) by up to ``shift``
    of a square each way; a knocked piece stays so until it moves."""
    rng = np.random.default_rng(seed)
    game = game_from(None)
    s = SIZE // 8

    def occupied() -> dict[tuple[int, int], int]:  # (row, column) -> piece code
        return {(7 - i // 8, i % 8): code for i, code in enumerate(pieces_of(game.state))
                if code}

    def shown(offsets: dict[tuple[int, int], tuple[float, float]]) -> Any:
        img = compose(game.variant.fen(game.state).split()[0], start)
        for (r, c), (dx, dy) in offsets.items():
            img = push_square(img, r, c, dx, dy)
        return img

    offsets: dict[tuple[int, int], tuple[float, float]] = {}
    before = occupied()
    images = [shown(offsets)]
    for move in moves:
        game.play(move)
        now = occupied()
        offsets = {sq: o for sq, o in offsets.items() if before.get(sq) == now.get(sq)}
        landed = [sq for sq in now if before.get(sq) != now[sq]]
        if landed and rng.random() < push:
            r, c = landed[0]
            near = [(r + i, c + j) for i in (-1, 0, 1) for j in (-1, 0, 1)
                    if (i or j) and before.get((r + i, c + j)) == now.get((r + i, c + j))
                    and (r + i, c + j) in now]
            if near:
                sq = near[int(rng.integers(len(near)))]
                offsets[sq] = (float(rng.uniform(-shift, shift) * s),
                               float(rng.uniform(-shift, shift) * s))
        before = now
        images.append(shown(offsets))
    return images


BALANCE = 0.15  # "balance": each colour channel's gain within 1 +- this


def recompressed(img: Any, quality: int) -> Any:
    """``img`` saved as a JPEG of ``quality`` and read back."""
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def perturb(img: Any, kind: str, rng: np.random.Generator) -> Any:
    """``img`` darkened, brightened, rebalanced, JPEG-recompressed, noisy, or with a hand
    over it."""
    if kind == "dark":
        return np.clip(img.astype(np.float64) * rng.uniform(0.45, 0.6), 0, 255).astype(np.uint8)
    if kind == "bright":
        return np.clip(img.astype(np.float64) * 1.25 + 15, 0, 255).astype(np.uint8)
    if kind == "exposure":  # auto-exposure: every frame a different gain
        gain = rng.uniform(0.7, 1.3)
        return np.clip(img.astype(np.float64) * gain, 0, 255).astype(np.uint8)
    if kind == "balance":  # auto white balance: every frame a different gain on each channel
        gains = rng.uniform(1.0 - BALANCE, 1.0 + BALANCE, 3)
        return np.clip(img.astype(np.float64) * gains, 0, 255).astype(np.uint8)
    if kind == "jpeg":
        return recompressed(img, 35)
    if kind == "noise":
        return np.clip(img + rng.normal(0, 5, img.shape), 0, 255).astype(np.uint8)
    if kind == "hand":
        out = img.copy()
        h, w = out.shape[:2]
        x = int(rng.uniform(0.2, 0.8) * w)
        y = int(rng.uniform(0.3, 0.7) * h)
        cv2.line(out, (x, y), (x + int(0.3 * w), h + 40), (110, 150, 205), int(0.14 * w))
        cv2.ellipse(out, (x, y), (int(0.08 * w), int(0.11 * h)), 30, 0, 360, (125, 165, 215), -1)
        return out
    raise ValueError(kind)


def _shadow_mask(size: int, centre: tuple[float, float], axes: tuple[float, float]) -> Any:
    mask = np.zeros((size, size), np.float32)
    cv2.ellipse(mask, (int(size * centre[0]), int(size * centre[1])),
                (int(size * axes[0]), int(size * axes[1])), 0.0, 0, 360, 1.0, -1)
    return cv2.GaussianBlur(mask, (0, 0), size / 30)


def shadow(board: Any, depth: float, centre: tuple[float, float] = (0.15, 0.5),
           axes: tuple[float, float] = (0.3, 0.35), corners: Any = None) -> Any:
    """``board`` under a soft-edged shadow: an ellipse at ``centre`` with half axes ``axes``
    (shares of the board's side), ``depth`` darker at its middle, its edge blurred over about
    a quarter of a square (someone leaning over the board). ``board`` is rectified, or a
    picture of the board at ``corners`` (the shadow lies on the board's plane)."""
    if corners is None:
        mask = cv2.resize(_shadow_mask(400, centre, axes), board.shape[1::-1])
    else:
        to_picture = np.linalg.inv(homography(parse_corners(corners), 400))
        mask = cv2.warpPerspective(_shadow_mask(400, centre, axes), to_picture,
                                   board.shape[1::-1])
    return np.clip(board * (1.0 - depth * mask[..., None]), 0, 255).astype(np.uint8)


# Rendered games: pieces with height seen from a camera beside the board (an oblique view:
# a tall piece covers part of the square behind its own). Units are squares; the board lies
# on z = 0 from (0, 0) (a1's outer corner) to (8, 8), White's side at y = 0.
RENDER_SIZE = (960, 720)
PIECE_HEIGHT = {"p": 0.9, "n": 1.2, "b": 1.35, "r": 1.05, "q": 1.6, "k": 1.8}
# (height, radius) of the rings a piece's outline is the hull of: base, foot, waist, head, top
PIECE_RINGS = ((0.0, 0.34), (0.12, 0.3), (0.5, 0.17), (0.85, 0.2), (1.0, 0.12))

Camera = tuple[Any, Any, Any]


def oblique_camera(height: float, back: float, focal: float = 800.0) -> Camera:
    """A camera on White's side, ``back`` squares from the board's near edge and ``height``
    squares above it, looking at the board's centre: (intrinsics, rotation, position)."""
    pos = np.array([4.0, -back, height])
    ahead = np.array([4.0, 4.0, 0.0]) - pos
    ahead /= np.linalg.norm(ahead)
    right = np.cross(ahead, [0.0, 0.0, 1.0])
    right /= np.linalg.norm(right)
    rotation = np.stack([right, np.cross(ahead, right), ahead])
    w, h = RENDER_SIZE
    return np.array([[focal, 0, w / 2], [0, focal, h / 2], [0, 0, 1]]), rotation, pos


ORBIT_DISTANCE = 11.0  # squares from the board's centre (orbit_camera)


def orbit_camera(azimuth: float, elevation: float, distance: float = ORBIT_DISTANCE,
                 focal: float = 650.0) -> Camera:
    """A camera ``distance`` squares from the board's centre, looking at it from ``elevation``
    degrees above the table and from ``azimuth`` degrees round it (0: White's side, 90: the
    h-file's, 180: Black's), as a phone held by a player or a spectator anywhere."""
    az, el = np.deg2rad(azimuth), np.deg2rad(elevation)
    pos = np.array([4.0 + distance * np.cos(el) * np.sin(az),
                    4.0 - distance * np.cos(el) * np.cos(az), distance * np.sin(el)])
    ahead = np.array([4.0, 4.0, 0.0]) - pos
    ahead /= np.linalg.norm(ahead)
    up = [0.0, 0.0, 1.0] if elevation < 89 else [np.sin(az), -np.cos(az), 0.0]
    right = np.cross(ahead, up)
    right /= np.linalg.norm(right)
    rotation = np.stack([right, np.cross(ahead, right), ahead])
    w, h = RENDER_SIZE
    return np.array([[focal, 0, w / 2], [0, focal, h / 2], [0, 0, 1]]), rotation, pos


def _project(camera: Camera, points: Any) -> Any:
    k, rotation, pos = camera
    p = ((np.asarray(points, dtype=np.float64) - pos) @ rotation.T) @ k.T
    return p[:, :2] / p[:, 2:3]


def camera_corners(camera: Camera) -> Any:
    """The board's corners (a8, h8, h1, a1) in the camera's picture."""
    return np.float32(_project(camera, [[0, 8, 0], [8, 8, 0], [8, 0, 0], [0, 0, 0]]))


Offsets = dict[tuple[int, int], tuple[float, float]]


def render(game: Game, camera: Camera, rng: np.random.Generator,
           offsets: Offsets | None = None) -> Any:
    """The game's position seen by ``camera``: a tan and brown board on a table, every piece the
    hull of rings round its square's centre up to its height (a king 1.8 squares tall),
    shaded on one side, drawn from the farthest to the nearest; noise and JPEG quality 90.
    ``offsets``: how far (in squares, file and rank) a piece stands from its square's centre."""
    w, h = RENDER_SIZE
    img = np.empty((h, w, 3), np.uint8)
    img[:] = (70, 85, 95)
    for f in range(8):
        for r in range(8):
            quad = _project(camera, [[f, r, 0], [f + 1, r, 0], [f + 1, r + 1, 0], [f, r + 1, 0]])
            colour = (170, 200, 215) if (f + r) % 2 else (70, 110, 150)
            cv2.fillConvexPoly(img, np.round(quad * 16).astype(np.int32), colour,
                               lineType=cv2.LINE_AA, shift=4)
    grid = {(i % 8, i // 8): game.variant.piece_letter(code)
            for i, code in enumerate(pieces_of(game.state)) if code}
    pos = camera[2]
    order = sorted(grid, key=lambda sq: -float(np.hypot(sq[0] + 0.5 - pos[0],
                                                         sq[1] + 0.5 - pos[1])))
    turn = np.linspace(0, 2 * np.pi, 24, endpoint=False)
    for f, r in order:
        piece = grid[(f, r)]
        tall = PIECE_HEIGHT[piece.lower()]
        dx, dy = (offsets or {}).get((f, r), (0.0, 0.0))
        rings = [[f + 0.5 + dx + rad * np.cos(t), r + 0.5 + dy + rad * np.sin(t), z * tall]
                 for z, rad in PIECE_RINGS for t in turn]
        hull = cv2.convexHull(np.round(_project(camera, rings) * 16).astype(np.int32))
        white = piece.isupper()
        cv2.fillConvexPoly(img, hull, (225, 232, 236) if white else (35, 32, 30),
                           lineType=cv2.LINE_AA, shift=4)
        # the right half in shade, drawn inside the hull's box only (a whole-picture mask per
        # piece was most of the render's time)
        x, y, bw, bh = cv2.boundingRect(hull >> 4)
        x0, y0, x1, y1 = max(x - 1, 0), max(y - 1, 0), min(x + bw + 1, w), min(y + bh + 1, h)
        body = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillConvexPoly(body, hull - np.array([x0 * 16, y0 * 16], np.int32), 255, shift=4)
        cols = np.flatnonzero(body.any(axis=0))
        body[:, :int(cols.mean())] = 0
        box = img[y0:y1, x0:x1]
        box[body > 0] = (box[body > 0] * 0.8).astype(np.uint8)
        cv2.polylines(img, [hull], True, (90, 90, 90) if white else (10, 10, 10), 1,
                      cv2.LINE_AA, shift=4)
    # the same noise as ``np.clip(img + rng.normal(0, 2.0, img.shape), 0, 255)``, worked out
    # in place (a third of a render's time went to the whole-picture temporaries)
    noise = rng.standard_normal(img.shape)
    noise *= 2.0
    noise += img
    np.clip(noise, 0, 255, out=noise)
    return recompressed(noise.astype(np.uint8), 90)


def rendered_game(moves: list[str], camera: Camera | list[Camera], seed: int, *,
                  placement: float = 0.0, nudge: float = 0.0,
                  fen: str | None = None) -> list[Any]:
    """One rendered picture per position of the game ``moves`` (the start, or the set-up
    position ``fen``, first), all seen by
    ``camera`` or each by its own (a list, one per position). ``placement``: each piece is put
    down up to this far (squares) from its square's centre, as real hands do, and stays there
    until it moves; ``nudge``: the chance, each move, that one other piece is knocked to a new
    place as far off."""
    cameras = camera if isinstance(camera, list) else [camera] * (len(moves) + 1)
    game = game_from(fen)
    rng = np.random.default_rng(seed)
    hand = np.random.default_rng(seed + 7919)
    offsets: Offsets = {}
    before = tuple(pieces_of(game.state))
    if placement:
        _put_down(offsets, before, before, hand, placement, nudge)
    pictures = [render(game, cameras[0], rng, offsets)]
    for m, seen_by in zip(moves, cameras[1:], strict=True):
        game.play(m)
        if placement:
            after = tuple(pieces_of(game.state))
            _put_down(offsets, before, after, hand, placement, nudge)
            before = after
        pictures.append(render(game, seen_by, rng, offsets))
    return pictures


def _put_down(offsets: Offsets, before: tuple[int, ...], after: tuple[int, ...],
              hand: np.random.Generator, placement: float, nudge: float) -> None:
    """Update ``offsets`` for a move from ``before`` to ``after`` (pieces by square, a1 = 0):
    a piece put down (or new) stands anew up to ``placement`` off centre, a square left has
    none; with chance ``nudge`` one piece that stayed is knocked to a new place."""

    def somewhere() -> tuple[float, float]:
        dx, dy = hand.uniform(-placement, placement, 2)
        return float(dx), float(dy)

    for i, code in enumerate(after):
        square = (i % 8, i // 8)
        if not code:
            offsets.pop(square, None)
        elif square not in offsets or before[i] != code:
            offsets[square] = somewhere()
    if nudge and hand.random() < nudge:
        stayed = [sq for sq in offsets if before[sq[1] * 8 + sq[0]] == after[sq[1] * 8 + sq[0]]]
        if stayed:
            knocked = stayed[hand.integers(len(stayed))]
            offsets[knocked] = somewhere()


#: a phone held less steadily than :func:`hand_cameras`' default (bench/vision_games.py's
#: ``phone`` mode): up to 10 % nearer or farther, turned up to 3 degrees, aimed up to half a
#: square off the board's centre
PHONE_SPREAD: dict[str, float] = {"nearer": 0.1, "roll": 3.0, "aim": 0.5}


def hand_cameras(azimuth: float, elevation: float, count: int, seed: int, *,
                 turn: float = 5.0, tilt: float = 3.0, nearer: float = 0.0, roll: float = 0.0,
                 aim: float = 0.0) -> list[Camera]:
    """``count`` cameras as a phone held by someone standing at ``azimuth``, ``elevation``
    (:func:`orbit_camera`), each photo taken up to ``turn`` degrees round the table and ``tilt``
    degrees up or down from there; and, when given, up to ``nearer`` (a share) nearer or
    farther, turned up to ``roll`` degrees about where it looks, and looking up to ``aim``
    squares' worth of the picture away from the board's centre (all 0: always at the same
    distance, level, at the centre)."""
    rng = np.random.default_rng(seed)
    cameras = []
    for _ in range(count):
        az, el = azimuth + rng.uniform(-turn, turn), elevation + rng.uniform(-tilt, tilt)
        if not (nearer or roll or aim):
            cameras.append(orbit_camera(az, el))
            continue
        k, rotation, pos = orbit_camera(
            az, el, ORBIT_DISTANCE * (1.0 + rng.uniform(-nearer, nearer)))
        turned = np.deg2rad(rng.uniform(-roll, roll))
        c, s = np.cos(turned), np.sin(turned)
        k = k.copy()
        k[:2, 2] += rng.uniform(-aim, aim, 2) * k[0, 0] / ORBIT_DISTANCE  # squares as pixels
        cameras.append((k, np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]]) @ rotation,
                        pos))
    return cameras


PHOTO_SIZE = (640, 480)
PHOTO_CORNERS = [[175.0, 95.0], [465.0, 90.0], [505.0, 395.0], [135.0, 400.0]]


def photographed(boards: list[Any], seed: int, *, shift: float = 30.0, turn: float = 8.0,
                 zoom: float = 0.1, skew: float = 10.0, table: Any = None
                 ) -> tuple[list[Any], list[Any]]:
    """``boards`` (rectified, SIZE x SIZE) each photographed on its own by a phone in the hand:
    the board lies on a plain table, or on ``table`` (a picture: e.g. one with another board
    in it), at PHOTO_CORNERS in the first photo; every later photo sees the whole table turned
    by up to ``turn`` degrees, scaled by up to ``zoom``, moved by up to ``shift`` px and in a
    perspective that moves each of the board's corners by up to ``skew`` px more (the board
    stays in the picture), saved as JPEG quality 80. Returns the photos and the board's true
    corners in each."""
    rng = np.random.default_rng(seed)
    w, h = PHOTO_SIZE
    pad = w // 2  # the table goes on beyond the first photo's edges
    if table is None:
        table = cv2.GaussianBlur(rng.integers(60, 140, (h, w, 3)).astype(np.uint8), (31, 31), 0)
    table = cv2.copyMakeBorder(cv2.resize(table, PHOTO_SIZE), pad, pad, pad, pad,
                               cv2.BORDER_REFLECT)
    base = np.asarray(PHOTO_CORNERS, dtype=np.float32)
    centre = np.array([w / 2.0, h / 2.0], dtype=np.float32)
    on_table = cv2.getPerspectiveTransform(np.float32(FULL), base + pad)
    inside = cv2.warpPerspective(np.full((SIZE, SIZE), 255, np.uint8), on_table,
                                 table.shape[1::-1]) > 0
    photos, truth = [], []
    for k, board in enumerate(boards):
        scene = table.copy()
        scene[inside] = cv2.warpPerspective(board, on_table, table.shape[1::-1])[inside]
        corners = base.copy()
        if k:
            a = np.deg2rad(rng.uniform(-turn, turn))
            turned = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]], np.float32)
            corners = ((corners - centre) @ (turned * (1.0 + rng.uniform(-zoom, zoom))).T
                       + centre + rng.uniform(-shift, shift, 2).astype(np.float32)
                       + rng.uniform(-skew, skew, (4, 2)).astype(np.float32))
        # the camera's motion: one homography of the table's plane, fixed by the board
        m = cv2.getPerspectiveTransform(base + pad, corners)
        photo = cv2.warpPerspective(scene, m, (w, h), flags=cv2.INTER_LINEAR)
        photos.append(recompressed(photo, 80))
        truth.append(corners)
    return photos, truth


def write_folder(folder: Path, images: list[Any]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for i, img in enumerate(images):
        cv2.imwrite(str(folder / f"frame_{i:05d}.png"), img)
    return folder


def bump(img: Any, at: float = 3.0, shift: tuple[float, float] = (30.0, -18.0)) -> Any:
    """``img`` as a camera bumped by ``at`` degrees and ``shift`` pixels sees it (a sudden
    change of the homography between board and image)."""
    h, w = img.shape[:2]
    m = bump_matrix(at, shift)
    return cv2.warpPerspective(img, m, (w, h), borderMode=cv2.BORDER_REPLICATE)


def bump_matrix(at: float = 3.0, shift: tuple[float, float] = (30.0, -18.0)) -> Any:
    a = np.deg2rad(at)
    return np.array([[np.cos(a), -np.sin(a), shift[0]], [np.sin(a), np.cos(a), shift[1]],
                     [0.0, 0.0, 1.0]])


def logo(img: Any, empty: Any, square: str, corners: str = SCHOLAR_CORNERS) -> Any:
    """``img`` with a logo printed on ``square`` of its board (a dark red disc with a light
    ring and letters, most of the square): drawn only where the square still looks as it does
    in ``empty`` (a frame where it is empty), so that a piece standing on the logo hides it
    as it would on a real board."""
    h, w = img.shape[:2]
    drawn, where, (y0, y1, x0, x1) = _logo_in_perspective(square, corners, w, h)
    box = img[y0:y1, x0:x1]
    bare = np.abs(box.astype(np.int16) - empty[y0:y1, x0:x1].astype(np.int16)).max(axis=2) < 40
    put = where & bare
    out = img.copy()
    out[y0:y1, x0:x1][put] = drawn[put]
    return out


@functools.lru_cache(maxsize=16)
def _logo_in_perspective(square: str, corners: str, w: int, h: int
                         ) -> tuple[Any, Any, tuple[int, int, int, int]]:
    """The logo drawn on ``square`` in the picture's perspective and where it lies, both cut
    to its box (y0, y1, x0, x1) of the picture: the same for every frame of a fixed camera,
    so it is drawn once."""
    c = parse_corners(corners).astype(np.float32)
    file, rank = "abcdefgh".index(square[0]), 8 - int(square[1])
    s = 100  # the logo is drawn on a 100-pixel square, then put in perspective
    patch = np.zeros((s, s, 3), np.uint8)
    mask = np.zeros((s, s), np.uint8)
    cv2.circle(patch, (50, 50), 40, (40, 30, 150), -1)
    cv2.circle(patch, (50, 50), 40, (220, 230, 235), 5)
    cv2.putText(patch, "GK", (22, 63), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (230, 235, 240), 3)
    cv2.circle(mask, (50, 50), 43, 255, -1)
    board = np.float32([[0, 0], [8, 0], [8, 8], [0, 8]])
    to_image = cv2.getPerspectiveTransform(board, c)
    to_square = np.float32([[1.0 / s, 0, file], [0, 1.0 / s, rank], [0, 0, 1]])
    m = to_image @ to_square
    drawn = cv2.warpPerspective(patch, m, (w, h), flags=cv2.INTER_LINEAR)
    where = cv2.warpPerspective(mask, m, (w, h), flags=cv2.INTER_LINEAR) > 127
    ys, xs = np.nonzero(where)
    y0, y1, x0, x1 = int(ys.min()), int(ys.max()) + 1, int(xs.min()), int(xs.max()) + 1
    return drawn[y0:y1, x0:x1], where[y0:y1, x0:x1], (y0, y1, x0, x1)


HANDHELD_PAD = 48  # px of scene (edge repeated) around the video: the board nearly touches its top


def handheld_matrices(count: int, seed: int, fps: float = 20.0, *, shift: float = 22.0,
                      turn: float = 3.0, zoom: float = 0.03, tilt: float = 3e-5,
                      jitter: float = 0.6, size: tuple[int, int] = (640, 480)) -> list[Any]:
    """``count`` image-to-image homographies of a camera held in the hand: a smooth random
    walk (noise smoothed over about a second, scaled so that the camera wanders up to
    ``shift`` px, ``turn`` degrees, ``zoom`` scale and ``tilt`` perspective, about half a
    square, a few degrees) plus per-frame jitter (``jitter`` px, a tenth of it in degrees),
    about the picture's centre. Seeded: the same seed, the same walk."""
    rng = np.random.default_rng(seed)
    width = max(3, int(round(fps)))  # smoothing window: about one second
    kernel = np.hanning(2 * width + 1)
    kernel /= kernel.sum()

    def walk(amplitude: float) -> Any:
        raw = rng.normal(0.0, 1.0, count + 4 * width)
        smooth = np.convolve(raw, kernel, mode="same")[2 * width:2 * width + count]
        return amplitude * smooth / (np.abs(smooth).max() + 1e-9)

    dx, dy, angle = walk(shift), walk(shift), walk(turn)
    scale, px, py = 1.0 + walk(zoom), walk(tilt), walk(tilt)
    dx = dx + rng.normal(0.0, jitter, count)
    dy = dy + rng.normal(0.0, jitter, count)
    angle = angle + rng.normal(0.0, jitter / 10.0, count)
    cx, cy = size[0] / 2.0 + HANDHELD_PAD, size[1] / 2.0 + HANDHELD_PAD
    centre = np.array([[1.0, 0.0, -cx], [0.0, 1.0, -cy], [0.0, 0.0, 1.0]])
    back = np.array([[1.0, 0.0, cx], [0.0, 1.0, cy], [0.0, 0.0, 1.0]])
    out = []
    for k in range(count):
        a = np.deg2rad(angle[k])
        m = np.array([[scale[k] * np.cos(a), -scale[k] * np.sin(a), dx[k]],
                      [scale[k] * np.sin(a), scale[k] * np.cos(a), dy[k]],
                      [px[k], py[k], 1.0]])
        out.append(back @ m @ centre)
    return out


def handheld(frames: list[Any], seed: int, fps: float = 20.0,
             corners: str = SCHOLAR_CORNERS, **walk: Any) -> tuple[list[Any], list[Any]]:
    """``frames`` as a camera held in the hand sees them (:func:`handheld_matrices`), with
    the board's true corners in every frame. The video is first padded by HANDHELD_PAD px of
    the scene's edge repeated each side, so the board stays in the picture as the camera wanders."""
    h, w = frames[0].shape[:2]
    size = (w + 2 * HANDHELD_PAD, h + 2 * HANDHELD_PAD)
    base = parse_corners(corners).astype(np.float64) + HANDHELD_PAD
    out, truth = [], []
    for frame, m in zip(frames, handheld_matrices(len(frames), seed, fps, size=(w, h), **walk),
                        strict=True):
        padded = cv2.copyMakeBorder(frame, *(4 * [HANDHELD_PAD]), cv2.BORDER_REPLICATE)
        out.append(cv2.warpPerspective(padded, m, size, flags=cv2.INTER_LINEAR,
                                       borderMode=cv2.BORDER_REPLICATE))
        truth.append(cv2.perspectiveTransform(base.reshape(-1, 1, 2), m).reshape(4, 2)
                     .astype(np.float32))
    return out, truth


MARKS = ("crest", "letters", "ring")


def ink_mark(warped: Any, square: tuple[int, int], shape: str, empty: Any) -> Any:
    """A warped board (a8 top-left, ``SQUARE`` px a square) with a mark printed on ``square``
    (row, column) in the dark squares' own ink, as a board's maker prints a logo: ``crest`` (a
    diamond of small checks, like an emblem), ``letters`` or ``ring``. The ink is the median
    colour of the centres of the dark squares beside it that ``empty`` (8x8 bools) says are
    empty; the mark is drawn anti-aliased, 4 times as large, then shrunk (the camera's blur)."""
    s = SQUARE
    r, c = square
    beside = [(r + dr, c + dc) for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0))
              if 0 <= r + dr < 8 and 0 <= c + dc < 8 and empty[r + dr][c + dc]]
    patch = np.concatenate([warped[y * s + s // 4:y * s + 3 * s // 4,
                                   x * s + s // 4:x * s + 3 * s // 4].reshape(-1, 3)
                            for y, x in beside or [(r, c ^ 1)]])
    ink = tuple(int(v) for v in np.median(patch, axis=0))
    big = cv2.resize(warped[r * s:(r + 1) * s, c * s:(c + 1) * s], (4 * s, 4 * s),
                     interpolation=cv2.INTER_CUBIC)
    k = 4 * s
    if shape == "crest":
        cell = k // 12
        for i in range(-3, 4):
            for j in range(-3, 4):
                if abs(i) + abs(j) <= 3 and (i + j) % 2 == 0:
                    x, y = k // 2 + (i - j) * cell, k // 2 + (i + j) * cell
                    pts = np.array([[x, y - cell], [x + cell, y], [x, y + cell], [x - cell, y]])
                    cv2.fillConvexPoly(big, pts.astype(np.int32), ink, cv2.LINE_AA)
    elif shape == "letters":
        cv2.putText(big, "GK", (k // 8, 2 * k // 3), cv2.FONT_HERSHEY_DUPLEX, k / 60.0, ink,
                    max(2, k // 25), cv2.LINE_AA)
    else:
        cv2.circle(big, (k // 2, k // 2), k // 3, ink, max(2, k // 12), cv2.LINE_AA)
    out = warped.copy()
    out[r * s:(r + 1) * s, c * s:(c + 1) * s] = cv2.resize(big, (s, s),
                                                           interpolation=cv2.INTER_AREA)
    return out
