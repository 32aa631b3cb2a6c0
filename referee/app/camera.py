"""``camera://TARGET[?corners=x1,y1,...&fast=1]``: a camera as a sensor of the live referee.

Why here: the sensor interface lives in ``firmware_bridge``, which may import only itself, and
the camera needs ``vision`` and the engine's legal moves; ``referee/app`` is the one layer
allowed both. :func:`open_sensor` routes ``camera://`` URLs here and everything else to
:func:`firmware_bridge.open_sensor`, so ``watch`` (and any other command) takes a camera like
any board.

What the camera sees becomes the events of any other board: after every settled frame that
:class:`~referee.app.vision_track.Tracker` decodes (the same code as ``vision-track``), an
``occupied`` snapshot of the board it shows, so the referee's own inference turns it into
actions. A square whose piece changes colour while staying occupied (a capture) is first
reported empty, then occupied, as a board would see the victim lifted; when one frame shows
several actions (a missed frame), each position is sent in turn, ``STEP_MS`` apart, so that the
inference judges each on its own.

TARGET is a camera number (``camera://0``), a video file or a folder of frames
(``camera:///path/game.mp4``), or a network stream (``camera://http://host:8080/video``,
``camera://rtsp://...``). Files and folders play in real time (a folder at ``fps`` frames per
second, default 1: one frame per settled position), or as fast as possible with ``fast=1``.
``corners`` gives the board's corners a8, h8, h1, a1 in pixels; without it the board is found
on the first frame where it can be (:func:`vision.locate.locate_board`). Either way the tracker
finds it again when the camera is bumped (:meth:`~referee.app.vision_track.Tracker.step`);
``stabilise=1`` (a camera held in the hand) carries the corners onto the board in every frame
(:mod:`vision.stabilise`).
"""

from __future__ import annotations

import math
import threading
import time
from dataclasses import replace
from typing import Any

import cv2

import firmware_bridge
from firmware_bridge.errors import BadSensorUrl, BoardNotFound
from firmware_bridge.events import Occupied
from firmware_bridge.sensor import Clock, Sensor, StoppableThread
from firmware_bridge.urls import Url
from firmware_bridge.urls import parse_url as parse_spec
from referee.app.vision_track import Tracker, occupancy_of, orient_to_position
from referee.rules.game import Game
from vision.errors import BoardNotFoundError, VisionError
from vision.geometry import Corners, parse_corners
from vision.sources import NETWORK_SCHEMES, FolderSource, Frame, FrameSource, open_source

SCHEME = "camera://"
STEP_MS = 400  # between the positions of actions decoded from one frame
OPTIONS = ("corners", "fast", "fps", "stabilise")
MAX_FPS = 1000.0
LOCATE_TRIES = 3  # frames (x10 for a video or camera) to find the board on before giving up


def parse_camera_url(url: str) -> tuple[str, Url]:
    """Split ``camera://TARGET?opts`` into the frame source URL and the camera options, read
    with the project's one URL grammar (:mod:`firmware_bridge.urls`: the same fault gets the
    same answer as in any sensor, LED or display URL).

    A camera number, file or folder takes its options after the first ``?``; a network stream
    keeps its own query string, and takes camera options after the last ``?`` when that part
    holds only camera options.

    Raises:
        BadSensorUrl: no target, a malformed query, an option given twice or unknown.
    """
    rest = url[len(SCHEME):]
    if rest.startswith(NETWORK_SCHEMES):
        head, sep, query = rest.rpartition("?")
        keys = [p.partition("=")[0] for p in query.split("&") if p]
        target, query = (head, query) if sep and keys and all(k in OPTIONS for k in keys) \
            else (rest, "")
    else:
        target, _, query = rest.partition("?")
    if not target:
        raise BadSensorUrl(f"{url!r}: no camera (e.g. camera://0 or camera:///path/game.mp4)")
    blank = f"{SCHEME}?{query}"
    try:
        spec = parse_spec(blank, BadSensorUrl)
    except BadSensorUrl as err:  # said of the URL as written
        raise BadSensorUrl(f"{url}: {str(err).removeprefix(blank + ': ')}") from None
    spec = replace(spec, text=url, target=target)
    spec.check_options(OPTIONS)
    if target.isdigit():
        return f"camera:{target}", spec
    return target, spec


def corners_option(spec: Url) -> Corners | None:
    """Option ``corners=x1,y1,...,x4,y4`` (a8, h8, h1, a1, pixels) of ``spec``; None when
    not given.

    Raises:
        spec's error: not 8 finite numbers, or corners enclosing no board.
    """
    text = spec.options.get("corners")
    if text is None:
        return None
    try:
        values = [float(v) for v in text.split(",")]
        if len(values) != 8 or not all(math.isfinite(v) for v in values):
            raise ValueError("needs 8 numbers: x,y of a8, h8, h1, a1")
        return parse_corners([values[i:i + 2] for i in range(0, 8, 2)])
    except (VisionError, ValueError) as err:
        shown = text if len(text) <= 30 else text[:30] + "..."
        raise spec.fail(f"option corners={shown!r}: {err}") from None


class CameraSensor(Sensor):
    """Frames from a camera, file, folder or stream, decoded into ``occupied`` snapshots.

    ``game`` is the game the referee follows (the tracker follows a copy of its position).
    Nothing is opened before :meth:`open`.
    """

    def __init__(self, url: str, game: Game, *, clock: Clock = time.monotonic) -> None:
        super().__init__(url, clock=clock)
        self.target, spec = parse_camera_url(url)
        self.fast = spec.flag("fast", False)
        #: frames a second of a folder (or instead of a video's own rate); 0: the default
        self.fps = spec.number("fps", 0.0, 0.0, MAX_FPS)
        self.corners = corners_option(spec)
        #: a camera held in the hand: corners carried onto the board in every frame
        self.stabilise = spec.flag("stabilise", False)
        self._game = Game(game.variant, seed=game.seed, state=game.state)
        self._source: FrameSource | None = None
        self._thread: StoppableThread | None = None
        self.tracker: Tracker | None = None
        self.latencies_ms: list[float] = []
        self._last_report = float("-inf")

    def _open(self) -> None:
        try:
            self._source = open_source(self.target)
        except VisionError as err:
            raise BoardNotFound(f"{self.url}: {err}") from None
        self._set_status(state="connected", last_heard=self._clock())
        self._thread = StoppableThread(f"camera {self.target}", self._run, self._stop)
        self._thread.start()

    def _close(self) -> None:
        if self._thread is not None:
            self._thread.stop()
        if self._source is not None:
            self._source.close()

    def _frame_ms(self, source: FrameSource) -> tuple[float, bool]:
        """Milliseconds of recording per frame, and whether the source is live (paces itself
        and is timed by the clock)."""
        if isinstance(source, FolderSource):
            return 1000.0 / (self.fps or 1.0), False
        if self.target.startswith(("camera:", "http://", "https://", "rtsp://")):
            return 1000.0 / (self.fps or 25.0), True
        fps = self.fps
        if not fps:
            cap = cv2.VideoCapture(self.target)
            fps = float(cap.get(cv2.CAP_PROP_FPS) or 0.0)
            cap.release()
        return 1000.0 / (fps if 0.0 < fps < 1000.0 else 25.0), False

    def _tracker(self, frame: Frame, stills: bool) -> Tracker:
        corners = self.corners
        if corners is None:
            from vision.locate import locate_board

            corners = orient_to_position(frame, locate_board(frame), self._game)
        return Tracker(corners, stills=stills, game=self._game, stabilise=self.stabilise)

    def _run(self, stop: threading.Event) -> None:
        source = self._source
        assert source is not None
        frame_ms, live = self._frame_ms(source)
        stills = isinstance(source, FolderSource)
        start = self._clock()
        n = misses = 0
        try:
            for frame in source.frames():
                if stop.is_set():
                    return
                if not live:  # a recording: played at its own pace unless fast
                    delay = start + n * frame_ms / 1000.0 - self._clock()
                    if not self.fast and delay > 0 and stop.wait(delay):
                        return
                if self.tracker is None:
                    try:
                        self.tracker = self._tracker(frame, stills)
                    except BoardNotFoundError:
                        # A hand or the player over the board on the first frames: try the
                        # next ones (a folder: its next LOCATE_TRIES photos) before giving up.
                        misses += 1
                        if misses >= (LOCATE_TRIES if stills else LOCATE_TRIES * 10):
                            raise
                        n += 1
                        continue
                # the frame's time: its position in a recording, its arrival from a camera
                at = self._clock() if live else n * frame_ms / 1000.0
                n += 1
                before = self._clock()
                moves = self.tracker.step(frame, at)
                self._set_status(last_heard=self._clock())
                if moves:
                    self.latencies_ms.append((self._clock() - before) * 1000.0)
                    if not self._report(int(n * frame_ms), len(moves)):
                        return
        except (VisionError, OSError) as err:
            self._finish(BoardNotFound(f"{self.url}: {err}"))
            return
        self._finish()

    def _report(self, video_ms: int, count: int) -> bool:
        """Send the positions after each of the last ``count`` actions, STEP_MS apart: in
        the recording's own time when fast, else by the clock (waiting in between, so the
        referee's ticks and the events share one clock). False when closed meanwhile."""
        game = self._game
        index = self.tracker.decoder.index if self.tracker is not None else tuple(range(64))
        states = [game.state]
        for _ in range(count):
            parent = states[0].parent
            if parent is None:
                break
            states.insert(0, parent)
        names = [f"{'abcdefgh'[k % 8]}{k // 8 + 1}" for k in range(64)]
        if not self.fast:  # frames that came in a burst: keep positions apart for the referee
            gap = self._last_report + STEP_MS / 1000.0 - self._clock()
            if gap > 0 and self._stop.wait(gap):
                return False
        for step, (old, new) in enumerate(zip(states, states[1:], strict=False)):
            if step and not self.fast and self._stop.wait(STEP_MS / 1000.0):
                return False
            a, b = occupancy_of(old, index), occupancy_of(new, index)
            t = video_ms + step * STEP_MS if self.fast else self._now_ms()
            occupied = {names[k] for k in range(64) if b[k]}
            swapped = {names[k] for k in range(64) if a[k] and b[k] and a[k] != b[k]}
            if swapped:
                self._emit(Occupied(t, frozenset(occupied - swapped)))
            self._emit(Occupied(t, frozenset(occupied)))
        self._last_report = self._clock()
        return True


def open_sensor(url: str, game: Game, **options: Any) -> Sensor:
    """Open the sensor at ``url``: a camera here, any other kind through firmware_bridge.

    Raises:
        BridgeError: the URL is not understood or the sensor cannot be opened.
    """
    if url.startswith(SCHEME):
        return CameraSensor(url, game).open()
    return firmware_bridge.open_sensor(url, **options)
