"""``phone://[?corners=x1,y1,...,x4,y4&corners2=...&stabilise=0]``: a phone's camera, through
the ``/camera`` page of ``gravekeeper serve``, as a sensor of the live referee. A phone is held
in the hand more often than not, so its frames are stabilised to the board
(:mod:`vision.stabilise`) unless ``stabilise=0``.

Why a sensor fed from outside: a phone cannot be opened like a webcam; its page pushes JPEG
frames over a WebSocket (``referee/app/serve/camera_page.py``). The web side checks and
decodes each frame (:func:`decode_frame`), hands it to :meth:`PhoneSensor.offer` and
acknowledges it once it is queued; the page sends its next frame only then, so the rate adapts
to the network and to this machine, and a short queue (``QUEUE_FRAMES``) absorbs the moments the
sensor thread is busy (the positions of a decoded move are sent ``STEP_MS`` apart) instead of
losing frames. Everything after that is :class:`~referee.app.camera.CameraSensor`'s: the same
tracker as ``camera://`` and ``vision-track``, the same ``occupied`` snapshots for the same
inference, so the referee cannot tell a phone from a webcam.

Corners: ``corners`` in the URL are pixels of the phone's camera picture at its full size (the
page reports that size when it connects); corners dragged on the page arrive as fractions of the
picture, which is also how they are kept, so they survive a page reload and frames that the
page shrinks when the link is slow (every frame is scaled to the first frame's size). Without
corners the board is looked for (:func:`vision.locate.locate_board`) at most every
``LOCATE_EVERY_S`` seconds until it is found or placed on the page. A variant with a second
board (Dead Man's Hell) takes its corners from ``corners2`` (pixels, as ``corners``) or finds it
beside the first when the first is found (:func:`referee.app.vision_view.find_second`), and
keeps it there (it is not stabilised: the phone on a tripod is that setup's case).

Time: the tracker settles in seconds of each frame's time stamp. A frame's arrival is a poor
one: a page or link that stalls delivers two pictures taken 0.1 s apart 0.4 s apart, and a
stale picture sent again looks like a board standing still. So the page writes the time its
camera took each picture (its own clock) into the JPEG's comment segment
(:func:`page_time`), and :class:`FrameClock` puts those times on this machine's clock: offset by
the smallest delay seen (never later than the arrival), never going backwards, and never more
than ``MAX_LAG_S`` before the arrival (a page clock that stops or jumps cannot stall settling).
Frames without a time (an older page) are timed by their arrival, as before.

Frames are checked before they are decoded: at most ``MAX_FRAME_BYTES``, a JPEG whose header
says at most ``MAX_SIDE`` pixels a side (a tiny file that declares a huge picture would make the
decoder allocate gigabytes). Nothing is opened before :meth:`PhoneSensor.open`; a bad frame is
refused with :class:`FrameError` and never reaches the game.
"""

from __future__ import annotations

import json
import math
import queue
import threading
import time
from dataclasses import dataclass
from typing import Any, Final

import cv2
import numpy as np

from firmware_bridge.errors import BadSensorUrl
from firmware_bridge.sensor import Clock, StoppableThread
from firmware_bridge.urls import parse_url as parse_spec
from referee.app.camera import CameraSensor, corners_option
from referee.app.vision_decoder import board_index
from referee.app.vision_track import Tracker, place_by_position
from referee.app.vision_view import find_second, view_of
from referee.rules.game import Game
from vision.errors import BoardNotFoundError, VisionError
from vision.geometry import Corners, parse_corners
from vision.sources import Frame

SCHEME: Final = "phone://"
MAX_FRAME_BYTES: Final = 512 * 1024  # a 1280x720 JPEG at quality 0.8 is about 150 KB
MAX_SIDE: Final = 4096
MIN_SIDE: Final = 32
QUEUE_FRAMES: Final = 6      # frames waiting for the sensor thread (about 0.5 s at 12 fps)
LOCATE_EVERY_S: Final = 2.0  # the board finder takes about 0.25 s a frame
#: the page's corners follow the tracker's when they moved more than this share of the picture
OVERLAY_STEP: Final = 0.004
MAX_LAG_S: Final = 1.0  # a frame's page time is trusted up to this long before its arrival
NOTE: Final = b"gravekeeper "  # the page's JPEG comment: this, then a JSON object {"t": ms}
#: JPEG start-of-frame markers (baseline, extended, progressive, lossless; not DHT/JPG/DAC).
_SOF: Final = frozenset({0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7,
                         0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF})


class FrameError(ValueError):
    """A frame or a page message that is refused: ``code`` is HTTP-like (400, 409, 413)."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def parse_phone_url(url: str) -> str | None:
    """The ``corners`` option of ``phone://[?corners=...]`` (None when not given), read with
    the project's one URL grammar (:mod:`firmware_bridge.urls`) and checked.

    Raises:
        BadSensorUrl: see :func:`phone_options`.
    """
    return phone_options(url)[0]


def phone_options(url: str) -> tuple[str | None, bool]:
    """The options of ``phone://[?corners=...&stabilise=0]``: the ``corners`` text (None when
    not given) and ``stabilise`` (default on: a phone is usually held in the hand).

    Raises:
        BadSensorUrl: another scheme, something between ``phone://`` and ``?``, a malformed
        query, an option other than ``corners``, ``corners2`` and ``stabilise``, corners
        (a second board's: ``corners2``, a variant with one) that are not a
        board, a ``stabilise`` that is not 1/0.
    """
    if not url.startswith(SCHEME):
        raise BadSensorUrl(f"{url!r}: not a phone:// URL")
    spec = parse_spec(url, BadSensorUrl)
    if spec.target.strip("/"):
        raise spec.fail("phone:// takes no target (the /camera page of serve sends the "
                        "frames); options: ?corners=x1,y1,...,x4,y4&stabilise=0")
    spec.check_options(("corners", "corners2", "stabilise"))
    corners_option(spec)
    corners_option(spec, "corners2")
    return spec.options.get("corners"), spec.flag("stabilise", True)


def jpeg_size(data: bytes) -> tuple[int, int]:
    """(width, height) from a JPEG's start-of-frame header, without decoding it.

    Raises:
        FrameError: not a JPEG, no start-of-frame header, or a size out of bounds.
    """
    if data[:2] != b"\xff\xd8":
        raise FrameError(400, "a frame must be a JPEG image")
    i = 2
    while i + 4 <= len(data):
        if data[i] != 0xFF:
            raise FrameError(400, "a broken JPEG header")
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker in (0x01, 0xD8) or 0xD0 <= marker <= 0xD7:
            i += 2
            continue
        length = int.from_bytes(data[i + 2:i + 4], "big")
        if length < 2:
            raise FrameError(400, "a broken JPEG header")
        if marker in _SOF:
            if i + 9 > len(data):
                break
            height = int.from_bytes(data[i + 5:i + 7], "big")
            width = int.from_bytes(data[i + 7:i + 9], "big")
            if not (MIN_SIDE <= width <= MAX_SIDE and MIN_SIDE <= height <= MAX_SIDE):
                raise FrameError(400, f"a {width}x{height} frame (each side must be "
                                      f"{MIN_SIDE}..{MAX_SIDE} pixels)")
            return width, height
        if marker == 0xDA:  # image data before any frame header
            break
        i += 2 + length
    raise FrameError(400, "a JPEG without a frame header")


def page_time(data: bytes) -> float | None:
    """The time (seconds of the page's clock) the page wrote into the JPEG's comment segment
    ``gravekeeper {"t": MILLISECONDS}``; None when there is none or it is not a finite number
    (a frame of an older page, another encoder's comment)."""
    i = 2
    while i + 4 <= len(data) and data[i] == 0xFF:
        marker = data[i + 1]
        if marker == 0xDA or 0xD0 <= marker <= 0xD9:  # image data (or no segment) follows
            return None
        length = int.from_bytes(data[i + 2:i + 4], "big")
        if marker == 0xFE and data[i + 4:i + 4 + len(NOTE)] == NOTE:
            try:
                note = json.loads(data[i + 4 + len(NOTE):i + 2 + length])
            except (ValueError, UnicodeDecodeError):
                return None
            t = note.get("t") if isinstance(note, dict) else None
            if isinstance(t, int | float) and not isinstance(t, bool) and math.isfinite(t):
                return float(t) / 1000.0
            return None
        i += 2 + max(length, 2)
    return None


class FrameClock:
    """The time stamps of a page's frames on this machine's clock (seconds).

    A frame taken at ``taken`` (the page's clock) that arrived at ``arrived`` (this clock):
    ``taken`` plus the smallest ``arrived - taken`` seen since :meth:`reset` (the link's least
    delay, so no frame is ever timed after its arrival); then never before the previous frame
    and never more than MAX_LAG_S before its own arrival: a page clock that stops, runs slow or
    jumps back is re-anchored there (settling waits at most MAX_LAG_S longer), one that jumps
    ahead lowers the offset at once. Without ``taken``, the arrival. Not thread-safe (one page,
    one event loop).
    """

    def __init__(self) -> None:
        self._offset: float | None = None
        self._last: float | None = None

    def reset(self) -> None:
        """A new page (another clock): forget the offset, keep time going forwards."""
        self._offset = None

    def time(self, arrived: float, taken: float | None) -> float:
        t = arrived
        if taken is not None:
            delay = arrived - taken
            if self._offset is None or delay < self._offset:
                self._offset = delay
            t = taken + self._offset
            if t < arrived - MAX_LAG_S:
                self._offset = delay - MAX_LAG_S  # a stopped or slow page clock: re-anchor
                t = arrived - MAX_LAG_S
        if self._last is not None:
            t = max(t, self._last)
        self._last = t
        return t


def decode_frame(data: bytes) -> Frame:
    """A frame from the page: checked (size, header), then decoded to BGR.

    Raises:
        FrameError: too large (413), not a JPEG, out-of-bounds size or undecodable (400).
    """
    if len(data) > MAX_FRAME_BYTES:
        raise FrameError(413, f"a frame of {len(data)} bytes (at most {MAX_FRAME_BYTES})")
    width, height = jpeg_size(data)
    image = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), cv2.IMREAD_COLOR)
    if image is None or image.shape[:2] != (height, width):
        raise FrameError(400, "a JPEG that cannot be decoded")
    return np.asarray(image, dtype=np.uint8)


def fractions_of(value: Any) -> Corners:
    """Four ``[x, y]`` corners (a8, h8, h1, a1) as fractions of the picture, checked.

    Raises:
        FrameError: not four number pairs, far outside the picture, or enclosing no area.
    """
    try:
        pts = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError, OverflowError):
        raise FrameError(400, "corners must be four [x, y] pairs (fractions of the picture)"
                         ) from None
    if pts.shape != (4, 2) or not np.all(np.isfinite(pts)) or np.any(np.abs(pts - 0.5) > 1.0):
        raise FrameError(400, "corners must be four [x, y] pairs (fractions of the picture, "
                              "a8, h8, h1, a1)")
    try:
        parse_corners((pts * 1000.0).tolist())  # the same area check as every corners
    except VisionError:
        raise FrameError(400, "the corners enclose (almost) no area") from None
    return pts.astype(np.float32)


@dataclass(frozen=True)
class CameraState:
    """What the camera page is told after each message (JSON-ready via :meth:`as_json`).

    ``found``: corners are known and the tracker follows the board; ``confirmed``: the player
    placed or confirmed them; ``corners``: a8, h8, h1, a1 as fractions of the picture;
    ``seen``: actions the camera decoded; ``queued``: frames waiting; ``detail``: one line.
    """

    found: bool = False
    confirmed: bool = False
    corners: tuple[tuple[float, float], ...] | None = None
    frames: int = 0
    seen: int = 0
    queued: int = 0
    ms: float = 0.0
    detail: str = "waiting for frames"

    def as_json(self) -> dict[str, Any]:
        return {"found": self.found, "confirmed": self.confirmed,
                "corners": [list(c) for c in self.corners] if self.corners else None,
                "frames": self.frames, "seen": self.seen, "queued": self.queued,
                "ms": round(self.ms, 1), "detail": self.detail}


def _as_tuple(corners: Corners | None) -> tuple[tuple[float, float], ...] | None:
    if corners is None:
        return None
    return tuple((round(float(x), 5), round(float(y), 5)) for x, y in corners)


class PhoneSensor(CameraSensor):
    """Frames pushed by the ``/camera`` page, decoded into ``occupied`` snapshots.

    ``game`` is the game the referee follows (the tracker follows a copy of its position).
    Thread-safe: :meth:`offer`, :meth:`page_connected`, :meth:`set_corners`, :meth:`find`
    and :meth:`state` are called from the web side; frames are judged on the sensor thread.

    Raises (constructor):
        BadSensorUrl: a malformed URL or corners, or a variant without an 8x8 board.
    """

    CORNERS_HINT = "drag the four corners onto the board's on this page and confirm"

    def __init__(self, url: str, game: Game, *, clock: Clock = time.monotonic) -> None:
        given, stabilise = phone_options(url)
        given2 = parse_spec(url, BadSensorUrl).options.get("corners2")
        options = [f"{key}={value}" for key, value in (("corners", given), ("corners2", given2))
                   if value is not None]
        query = "?" + "&".join(options) if options else ""
        super().__init__(f"camera://phone{query}", game, clock=clock)
        self.url = url
        self.stabilise = stabilise
        try:
            board_index(game.variant)
        except VisionError as err:
            raise BadSensorUrl(f"{url!r}: {err}") from None
        self._given: Corners | None = self.corners  # pixels of the full picture
        self._given2: Corners | None = self.corners2  # a second board's, the same way
        self._fractions2: Corners | None = None  # a second board's corners in use, fractions
        self._frames: queue.Queue[tuple[Frame, float] | None] = queue.Queue(QUEUE_FRAMES)
        self._times = FrameClock()  # the page's frame times on this clock
        self._lock = threading.Lock()
        self._fractions: Corners | None = None  # the corners in use, as picture fractions
        self._confirmed = False
        self._reset = True      # rebuild the tracker at the next frame
        self._size: tuple[int, int] | None = None  # (width, height) every frame is scaled to
        self._next_locate = 0.0
        self._state = CameraState()
        self._seen = 0

    # ------------------------------------------------------------------ web side

    def offer(self, frame: Frame, taken: float | None = None,
              arrived: float | None = None) -> bool:
        """Queue a decoded frame with its time (the tracker settles in seconds of it): when the
        page's camera took it (``taken``, seconds of the page's clock; see
        :class:`FrameClock`), else its arrival (``arrived``, this sensor's clock; default now).
        False when the queue is full (offer it again later; nothing is kept)."""
        self._require_open()
        if self._frames.full():
            return False
        with self._lock:
            at = self._times.time(self._clock() if arrived is None else arrived, taken)
        try:
            self._frames.put_nowait((frame, at))
        except queue.Full:
            return False
        return True

    def now(self) -> float:
        """This sensor's clock (seconds): the arrival time to give :meth:`offer`."""
        return self._clock()

    def page_connected(self, width: int, height: int) -> CameraState:
        """A camera page connected; its camera picture is ``width`` x ``height`` pixels.

        Corners given in the URL (pixels) become fractions of that picture; corners placed
        on an earlier page are kept. The tracker starts anew (the phone may stand elsewhere).
        """
        if not (MIN_SIDE <= width <= 16384 and MIN_SIDE <= height <= 16384):
            raise FrameError(400, "hello needs the camera picture's width and height")
        with self._lock:
            if self._given is not None and not self._confirmed:
                picture = np.asarray([width, height], dtype=np.float32)
                self._fractions = (self._given / picture).astype(np.float32)
                self._confirmed = True  # given on the command line: nothing to confirm
            if self._given2 is not None:
                picture = np.asarray([width, height], dtype=np.float32)
                self._fractions2 = (self._given2 / picture).astype(np.float32)
            self._reset = True
            self._size = None
            self._next_locate = 0.0
            self._times.reset()  # another page, another clock
            self._state = self._make_state(detail="connected")
        self._set_status(state="connected", detail="")
        return self.state()

    def page_gone(self) -> None:
        """The camera page disconnected."""
        self._set_status(state="reconnecting", detail="no camera page connected")

    def set_corners(self, value: Any) -> CameraState:
        """The player placed or confirmed the four corners (fractions); used from the next
        frame on (the tracker restarts when they moved).

        Raises:
            FrameError: malformed corners.
        """
        corners = fractions_of(value)
        with self._lock:
            moved = self._fractions is None or not np.allclose(corners, self._fractions,
                                                               atol=1e-4)
            self._fractions = corners
            self._confirmed = True
            self._reset = self._reset or moved
            self._state = self._make_state(detail="corners placed" if moved
                                           else "corners confirmed")
        return self.state()

    def find(self) -> CameraState:
        """Forget the corners and look for the board again."""
        with self._lock:
            self._fractions = None
            self._confirmed = False
            self._reset = True
            self._next_locate = 0.0
            self._state = self._make_state(detail="looking for the board")
        return self.state()

    def state(self) -> CameraState:
        """The latest state, with the queue's length now."""
        with self._lock:
            state = self._state
        return CameraState(**{**state.__dict__, "queued": self._frames.qsize()})

    def _make_state(self, **changes: Any) -> CameraState:
        """A new state from the current fields (call with the lock held)."""
        fields = {**self._state.__dict__, "found": self.tracker is not None and not self._reset,
                  "confirmed": self._confirmed, "corners": _as_tuple(self._fractions),
                  "seen": self._seen, **changes}
        return CameraState(**fields)

    # ------------------------------------------------------------------ sensor thread

    def _open(self) -> None:
        self._set_status(state="connecting", detail="no camera page connected")
        self._thread = StoppableThread("phone camera", self._run, self._stop)
        self._thread.start()

    def _close(self) -> None:
        if self._thread is not None:
            self._thread.stop()

    def _run(self, stop: threading.Event) -> None:
        while not stop.is_set():
            try:
                item = self._frames.get(timeout=0.2)
            except queue.Empty:
                continue
            if item is None:
                return
            try:
                if not self._judge(*item):
                    return
            except Exception as err:  # noqa: BLE001 - one bad frame must not stop the camera
                with self._lock:
                    self._reset = True  # start the tracker afresh on the next frame
                    self._state = self._make_state(detail=f"frame not followed: {err}")

    def _judge(self, frame: Frame, at: float) -> bool:
        """Follow the board on one frame; False when the sensor was closed meanwhile."""
        start = self._clock()
        with self._lock:
            reset, self._reset = self._reset, False
            fractions = self._fractions
            if self._size is None:
                self._size = (int(frame.shape[1]), int(frame.shape[0]))
            size = self._size
        if (frame.shape[1], frame.shape[0]) != size:
            frame = np.asarray(cv2.resize(frame, size, interpolation=cv2.INTER_AREA),
                               dtype=np.uint8)
        if not self._take_over():  # another board (a take-back): wait for a picture of it
            reset = True
        if reset:
            self.tracker = None  # rebuilt below, on the camera's game
        detail = ""
        if self.tracker is None:
            if fractions is None:
                fractions, detail = self._locate(frame, size)
            if fractions is not None:
                pixels = (fractions * np.asarray(size, dtype=np.float32)).astype(np.float32)
                others, missing = self._second_board(frame, pixels, size)
                self.tracker = Tracker(pixels, game=self._game, stabilise=self.stabilise,
                                       others=others)
                detail = missing or detail or "board found"
        moves = []
        if self.tracker is not None:
            try:
                moves = self.tracker.step(frame, at)
            except (VisionError, cv2.error) as err:  # a degenerate warp: keep the game
                detail = f"frame not followed: {err}"
            if not detail:
                detail = "following the board"
            self._follow_corners(size)
            self.view(self.tracker.corners, frame.shape)  # a phone in the hand moves
        self._seen += len(moves)
        self._doubt()
        self.puzzle()
        detail = self.puzzled or self.low_view or detail
        self._set_status(last_heard=self._clock())
        with self._lock:
            self._state = self._make_state(frames=self._state.frames + 1,
                                           ms=(self._clock() - start) * 1000.0, detail=detail)
        if moves:
            return self._report(self._now_ms(), len(moves))
        return True

    def _second_board(self, frame: Frame, pixels: Corners, size: tuple[int, int]
                      ) -> tuple[list[Corners], str]:
        """A second board's corners (pixels) for a variant with one (Dead Man's Hell): given
        (``corners2``) or found beside the first once and kept; none, with what to say, when
        it is not in the picture (its squares are then not seen)."""
        if not view_of(self._game.variant).blocks:
            return [], ""
        scale = np.asarray(size, dtype=np.float32)
        with self._lock:
            known = self._fractions2
        if known is not None:
            return [(known * scale).astype(np.float32)], ""
        try:
            found = find_second(frame, pixels)
        except BoardNotFoundError:
            return [], "board found; no second board beside it (give corners2=...)"
        with self._lock:
            self._fractions2 = (found / scale).astype(np.float32)
        return [found], ""

    def _follow_corners(self, size: tuple[int, int]) -> None:
        """The corners in use follow the tracker's (stabilised to a phone held in the hand,
        or found again after a bump), so the page draws them where the board is now and a
        tracker started afresh (a take-back) starts there; moves under OVERLAY_STEP of the
        picture are not sent (a steady camera's sub-pixel fits)."""
        tracker = self.tracker
        if tracker is None:
            return
        now: Corners = (np.asarray(tracker.corners, dtype=np.float32)
                        / np.asarray(size, dtype=np.float32)).astype(np.float32)
        with self._lock:
            if self._reset:  # corners placed on the page meanwhile: they win
                return
            if self._fractions is None or float(np.abs(now - self._fractions).max()) \
                    > OVERLAY_STEP:
                self._fractions = now

    def _locate(self, frame: Frame, size: tuple[int, int]) -> tuple[Corners | None, str]:
        """Look for the board (at most every LOCATE_EVERY_S): its corners as fractions."""
        now = self._clock()
        with self._lock:
            if now < self._next_locate:
                return None, "board not found: drag the four corners onto the board"
            self._next_locate = now + LOCATE_EVERY_S
        from vision.locate import locate_board

        try:  # labelled and placed by the pieces the game has (as camera:// does)
            pixels = place_by_position(frame, locate_board(frame), self._game)
        except (VisionError, cv2.error):
            return None, "board not found: drag the four corners onto the board"
        fractions = (pixels / np.asarray(size, dtype=np.float32)).astype(np.float32)
        with self._lock:
            if self._fractions is not None:  # placed on the page meanwhile: theirs wins
                return self._fractions, ""
            self._fractions = fractions
        return fractions, "board found: check the corners and confirm"


def open_phone(url: str, game: Game) -> PhoneSensor:
    """The sensor of a ``phone://`` URL, opened (a thread waiting for the page's frames).

    Raises:
        BadSensorUrl: see :class:`PhoneSensor`.
    """
    return PhoneSensor(url, game).open()

