"""``camera://TARGET[?corners=x1,y1,...&fast=1]``: a camera as a sensor of the live referee.

Why here: the sensor interface lives in ``firmware_bridge``, which may import only itself, and
the camera needs ``vision`` and the engine's legal moves; ``referee/app`` is the one layer
allowed both. :func:`open_sensor` routes ``camera://`` URLs here and everything else to
:func:`firmware_bridge.open_sensor`, so ``watch`` (and any other command) takes a camera like
any board.

What the camera sees becomes the events of any other board: after every settled frame that
:class:`~referee.app.vision_track.Tracker` decodes (the same code as ``vision-track``), an
``occupied`` snapshot of the board it shows, with the colour of every piece (``e4=w``), so the
referee's own inference turns it into actions; a capture is a square that changes colour while
staying occupied. The colours are those of the tracker's decoded position, never the
classifier's reading of one picture: a decoded position is a legal one that explains the
picture, so its colours cannot make the referee reject the move it decoded, while one misread
square could (a misread piece is already outvoted inside the decoder). When one frame shows
several actions (a missed frame), each position is sent in turn, ``STEP_MS`` apart, so that the
inference judges each on its own.

When a later steady picture shows that decoded moves were wrong (the tracker takes them back:
a piece put down on one square, photographed, then moved on), the camera sends a
:class:`~firmware_bridge.events.Withdraw` of those moves (the live runner takes them back from
the referee, :meth:`~referee.live.session.Referee.take_back`, when they are its last ones),
the position they are taken back to, then the corrected positions.

TARGET is a camera number (``camera://0``), a video file or a folder of frames
(``camera:///path/game.mp4``), or a network stream (``camera://http://host:8080/video``,
``camera://rtsp://...``). Files and folders play in real time (a folder at ``fps`` frames per
second, default 1: one frame per settled position), or as fast as possible with ``fast=1``.
``corners`` gives the board's corners a8, h8, h1, a1 in pixels; without it the board is found
on the first frame where it can be (:func:`vision.locate.locate_board`). Either way the tracker
finds it again when the camera is bumped (:meth:`~referee.app.vision_track.Tracker.step`);
``stabilise=1`` (a camera held in the hand) carries the corners onto the board in every frame
(:mod:`vision.stabilise`).
``corners2`` gives a second board's (a variant with one, :mod:`referee.app.vision_view`), else
it is looked for beside the first.

When the settled board has differed for a while in a way no legal move explains
(:attr:`~referee.app.vision_track.Tracker.puzzled`), the camera says so once with a
:class:`~firmware_bridge.events.Notice` (watch's ``# note:`` line, the arbiter's log, the
camera page) instead of following nothing in silence: a hand resting on the board, pieces not
where the game has them, or corners that are not the board's (turned, or another lattice).

The camera sees only what is done on the board. Its copy of the game follows the referee's
(:meth:`CameraSensor.follow`): a die roll, an assignment, a pass made elsewhere (pages, buttons,
``--private``) is taken over before the next frame; a die game with nothing that can roll is
refused (:func:`check_rolls`).
"""

from __future__ import annotations

import math
import threading
import time
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any

import numpy as np

import firmware_bridge
from firmware_bridge.errors import BadSensorUrl, BoardNotFound
from firmware_bridge.events import LinkState, Notice, Occupied, Withdraw
from firmware_bridge.sensor import Clock, Sensor, StoppableThread
from firmware_bridge.urls import Url, shown
from firmware_bridge.urls import parse_url as parse_spec
from referee.app.vision_decoder import Decoder, attempt_picture, occupancy_of
from referee.app.vision_track import Tracker, place_by_position
from referee.app.vision_view import find_second, view_of
from referee.rules import actions as A
from referee.rules.game import Game
from referee.rules.pieces import BLACK, WHITE
from vision.errors import BoardNotFoundError, VisionError
from vision.geometry import Corners, parse_corners, view_elevation
from vision.sources import (
    NETWORK_SCHEMES,
    FolderSource,
    Frame,
    FrameSource,
    open_source,
    video_fps,
)

SCHEME = "camera://"
STEP_MS = 400  # between the positions of actions decoded from one frame
OPTIONS = ("corners", "corners2", "fast", "fps", "reconnect", "stabilise")
MAX_FPS = 1000.0
LOCATE_TRIES = 3  # frames (x10 for a video or camera) to find the board on before giving up
LIVE_BACKLOG = 2  # frames of a live camera waiting to be judged; older ones are dropped
READER_JOIN_S = 2.0  # seconds closing waits for a live camera's reader to release it
RECONNECT_S = 30.0  # seconds a dropped live stream is tried again before it has ended
MAX_RECONNECT_S = 24 * 3600.0  # the longest ``reconnect=`` a URL may ask for (a whole day)
RECONNECT_BACKOFF = (0.5, 4.0)  # seconds between tries: the first, doubled up to the last
#: degrees above the table below which the camera says it sees the board from low down
#: (:meth:`CameraSensor.view`). Measured on 43 real games rendered one photo per position
#: (docs/vision.md): from a still camera every move was read in order at 45 degrees and above
#: and the only games lost were seen at 35; from a hand, 47 % at 35 degrees, 67-90 % at 45-50,
#: every move at 60.
LOW_VIEW_DEG = 40.0
COLOUR_LETTERS = {WHITE: "w", BLACK: "b"}  # a piece's colour as event files write it


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
        raise BadSensorUrl(f"{shown(url)!r}: no camera (e.g. camera://0 or "
                           "camera:///path/game.mp4)")
    blank = f"{SCHEME}?{query}"
    try:
        spec = parse_spec(blank, BadSensorUrl)
    except BadSensorUrl as err:  # said of the URL as written
        raise BadSensorUrl(f"{shown(url)}: {str(err).removeprefix(blank + ': ')}") from None
    spec = replace(spec, text=url, target=target)
    spec.check_options(OPTIONS)
    if target.isdigit():
        return f"camera:{target}", spec
    return target, spec


def corners_option(spec: Url, key: str = "corners") -> Corners | None:
    """Option ``corners=x1,y1,...,x4,y4`` (a8, h8, h1, a1, pixels) of ``spec`` (``key``:
    ``corners2`` for a second board); None when not given.

    Raises:
        spec's error: not 8 finite numbers, or corners enclosing no board.
    """
    text = spec.options.get(key)
    if text is None:
        return None
    try:
        values = [float(v) for v in text.split(",")]
        if len(values) != 8 or not all(math.isfinite(v) for v in values):
            raise ValueError("needs 8 numbers: x,y of a8, h8, h1, a1")
        return parse_corners([values[i:i + 2] for i in range(0, 8, 2)])
    except (VisionError, ValueError) as err:
        shown = text if len(text) <= 30 else text[:30] + "..."
        raise spec.fail(f"option {key}={shown!r}: {err}") from None


class _LiveReader:
    """Reads a live source on its own thread (:meth:`run`) for :meth:`CameraSensor._arrivals`,
    opening it again when it drops; :meth:`items` gives, on the judging thread, each frame
    with its arrival time, and the news of the link: why it dropped, or "" when it is back."""

    def __init__(self, target: str, source: FrameSource, clock: Clock,
                 stop: threading.Event, window: float) -> None:
        self.target = target
        self.source = source
        self.clock = clock
        self.stop = stop
        self.window = window  # seconds of real time a dropped stream is tried again
        #: set by the judging side when it wants no more (the game over, the sensor closed)
        self.gone = threading.Event()
        self.waiting: deque[tuple[Frame, float]] = deque(maxlen=LIVE_BACKLOG)
        self.news: deque[str] = deque()
        self.ended: list[BaseException | None] = []
        self.ready = threading.Condition()
        self.ever = False  # whether any frame came at all

    def _over(self) -> bool:
        return self.stop.is_set() or self.gone.is_set()

    def _tell(self, news: str) -> None:
        with self.ready:
            self.news.append(news)
            self.ready.notify()

    def _read(self, source: FrameSource) -> tuple[bool, str]:
        """Read ``source`` until it ends or fails (releasing it); whether it gave a frame, and
        why it stopped. After the first frame ever, its first frame says the link is back."""
        got, why = False, "the stream ended"
        try:
            for frame in source.frames():
                if not got and self.ever:
                    self._tell("")
                got = True
                with self.ready:
                    self.waiting.append((frame, self.clock()))
                    self.ready.notify()
                if self._over():
                    break
        except (VisionError, OSError) as err:
            if not got and not self.ever:
                raise  # a source that never gave a frame: a wrong URL fails at once
            why = str(err) or why
        finally:
            source.close()
        return got, why

    def run(self) -> None:
        error: BaseException | None = None
        source, lost_at, delay = self.source, 0.0, RECONNECT_BACKOFF[0]
        try:
            while not self._over():
                got, why = self._read(source)
                self.ever = self.ever or got
                if self._over() or not self.ever or self.window <= 0:
                    break  # ended before a frame (nothing to reconnect to), or not to be
                now = time.monotonic()  # real time, whatever clock stamps the frames
                if got:  # it was up: now it is lost
                    lost_at, delay = now, RECONNECT_BACKOFF[0]
                    self._tell(why)
                elif now - lost_at > self.window:
                    break  # not back in time: the stream has ended
                if self.stop.wait(delay) or self.gone.is_set():
                    break
                delay = min(delay * 2, RECONNECT_BACKOFF[1])
                source = open_source(self.target)
        except Exception as err:  # raised where the frames are judged, as unthreaded
            error = err
        finally:
            with self.ready:
                self.ended.append(error)
                self.ready.notify()

    def items(self) -> Iterator[tuple[Frame, float] | str]:
        while not self.stop.is_set():
            with self.ready:
                while not (self.waiting or self.news or self.ended or self.stop.is_set()):
                    self.ready.wait(0.2)
                # frames first: those of a link that dropped are judged before its news (a
                # mate among them ends the stream at once)
                if self.waiting:
                    item: tuple[Frame, float] | str = self.waiting.popleft()
                elif self.news:
                    item = self.news.popleft()
                elif self.ended and self.ended[0] is not None:
                    raise self.ended[0]
                else:
                    return
            yield item


class CameraSensor(Sensor):
    """Frames from a camera, file, folder or stream, decoded into ``occupied`` snapshots.

    ``game`` is the game the referee follows (the tracker follows a copy of its position).
    Nothing is opened before :meth:`open`.
    """

    #: how the people at the board put the corners right (said in the puzzled notice)
    CORNERS_HINT = "give the board's corners (corners=x1,y1,... in the camera URL)"

    def __init__(self, url: str, game: Game, *, clock: Clock = time.monotonic) -> None:
        super().__init__(url, clock=clock)
        self.target, spec = parse_camera_url(url)
        self.fast = spec.flag("fast", False)
        #: frames a second of a folder (or instead of a video's own rate); 0: the default
        self.fps = spec.number("fps", 0.0, 0.0, MAX_FPS)
        self.corners = corners_option(spec)
        #: a second board's corners (a variant with one); None: found beside the first
        self.corners2 = corners_option(spec, "corners2")
        #: a camera held in the hand: corners carried onto the board in every frame
        self.stabilise = spec.flag("stabilise", False)
        #: seconds a dropped live stream is tried again (0: never; it has ended at once)
        self.reconnect_s = spec.number("reconnect", RECONNECT_S, 0.0, MAX_RECONNECT_S)
        self._game = Game(game.variant, seed=game.seed, state=game.state)
        # The camera's copy of the game follows the referee's (see follow()): the referee's
        # history when the copy was made, and the latest one handed over by the game thread.
        self._base = tuple(p.text for p in game.played)
        self._referee_length = len(self._base)
        self._follow: tuple[tuple[str, ...], Game] | None = None
        self._follow_lock = threading.Lock()
        self._source: FrameSource | None = None
        self._thread: StoppableThread | None = None
        self._reader: threading.Thread | None = None  # a live source's reader (_arrivals)
        self.tracker: Tracker | None = None
        self._last_report = float("-inf")
        #: after a withdrawal: how many actions of the camera's game were kept (the referee's
        #: history may shrink to there for a moment: the camera's take-back, not the arbiter's)
        self.withdrawn_to: int | None = None
        #: the actions (indices in the game's history, from, to) a later picture may still
        #: make this camera withdraw; set on the camera's thread before it reports them
        self.unsure: tuple[int, int] = (0, 0)
        self._puzzled = False  # the tracker's puzzled state when last looked at
        self._view_said = False  # whether the camera said it sees the board from low down
        #: the corners and picture shape :meth:`view` last judged
        self._viewed: tuple[Corners, tuple[int, ...]] | None = None
        #: what the camera says while it sees the board from low down; "" otherwise
        self.low_view = ""

    @property
    def puzzled(self) -> str:
        """What the camera says while its tracker is puzzled (:attr:`Tracker.puzzled`): why,
        and how to put it right; "" while it follows the game."""
        if not self._puzzled:
            return ""
        return ("the camera sees a board that no legal move explains: a hand resting on it, "
                "pieces not where the game has them, or corners that are not the board's; "
                f"put the position back or {self.CORNERS_HINT}")

    def view(self, corners: Corners, shape: tuple[int, ...]) -> None:
        """Where the board is now (sensor thread, after each frame): :attr:`low_view` says
        whether the camera sees it from low down (under LOW_VIEW_DEG above the table), where
        pieces hide the squares behind them and some moves cannot be told apart (a pawn e7-e5
        from e7-e6 behind the e4 pawn); the first time, a notice too, so that the people at
        the board can raise it before the game goes on. Judged again only when the corners
        moved (a fixed camera's: once; 0.13 ms each time)."""
        if (self._viewed is not None and self._viewed[1] == tuple(shape)
                and np.array_equal(self._viewed[0], corners)):
            return
        self._viewed = (np.array(corners, dtype=np.float32), tuple(shape))
        elevation = view_elevation(corners, shape)
        if elevation is None or elevation >= LOW_VIEW_DEG:
            self.low_view = ""
            return
        self.low_view = (
            f"the camera sees the board from low down (about {elevation:.0f} degrees above the "
            "table): pieces hide the squares behind them, so some moves cannot be told apart; "
            "raise it to 60 degrees or more (from above is best)")
        if not self._view_said:
            self._view_said = True
            self._emit(Notice(self._now_ms(), self.low_view))

    def puzzle(self) -> None:
        """After a step (sensor thread): a notice when the tracker has just become puzzled,
        once until it follows the game again."""
        was, self._puzzled = self._puzzled, self.tracker is not None and self.tracker.puzzled
        if self._puzzled and not was:
            self._emit(Notice(self._now_ms(), self.puzzled))

    def follow(self, game: Game) -> None:
        """The referee's game changed (called on the game's owner thread after each change:
        ``referee.app.runner`` subscribes every sensor that has this method).

        The camera decodes against its own copy of the game; it adopts the referee's position
        (before its next frame) when the referee's history is no longer the start of the
        camera's (a choice the camera cannot see: a die roll, an assignment, a pass, chosen on
        a page, with buttons or ``--private``; or a move the referee judged otherwise) or got
        shorter (an arbiter's take-back).
        """
        texts = tuple(p.text for p in game.played)
        copy = Game(game.variant, seed=game.seed, state=game.state)
        with self._follow_lock:
            self._follow = (texts, copy)

    def history(self) -> tuple[str, ...]:
        """The actions of the camera's copy of the game (the referee's, then its own)."""
        return self._base + tuple(p.text for p in self._game.played)

    def _doubt(self) -> None:
        """Say which actions the tracker may still take back (:attr:`unsure`), and those it
        withdrew that the referee has not taken back yet (their lines must not be printed
        meanwhile: the referee's record still holds them)."""
        end = len(self.history())
        start = end - (self.tracker.pending() if self.tracker is not None else 0)
        if self.withdrawn_to is not None:
            start = min(start, len(self._base) + self.withdrawn_to)
        self.unsure = (start, end)

    def _adopt(self) -> bool:
        """Apply the referee's latest game (sensor thread); True when the copy changed."""
        with self._follow_lock:
            pending, self._follow = self._follow, None
        if pending is None:
            return False
        texts, game = pending
        shorter, self._referee_length = len(texts) < self._referee_length, len(texts)
        # the referee taking back what this camera withdrew is not an arbiter's take-back
        own = self.withdrawn_to is not None and len(texts) >= len(self._base) + self.withdrawn_to
        history = self.history()
        if self.withdrawn_to is not None and not shorter and (
                len(texts) >= len(history) or (len(texts) > len(self._base) + self.withdrawn_to
                                               and history[:len(texts)] == texts)):
            # the referee caught up with the correction: it took the withdrawn actions back
            # and played the first corrected one (a photo folder's camera runs ahead)
            self.withdrawn_to = None
        if (not shorter or own) and history[:len(texts)] == texts:
            return False
        self._game, self._base = game, texts
        return True

    def _take_over(self) -> bool:
        """Before a frame: adopt the referee's game (:meth:`_adopt`). On the same board (a
        choice the camera cannot see) the tracker goes on from the new position with its
        picture; False when the board differs (a take-back): the tracker must start again."""
        if not self._adopt() or self.tracker is None:
            return True
        tracker = self.tracker
        if occupancy_of(self._game.state, tracker.decoder.index) != tracker.decoder.occupancy():
            return False
        tracker.decoder = Decoder(self._game, tracker.decoder.index)
        tracker.game = self._game
        return True

    def _open(self) -> None:
        try:
            # opened here, not by the reader: a camera that is not there fails before the
            # sensor says it is open (`watch` printed "sensor ready", then the error)
            self._source = open_source(self.target)
            self._source.open()
        except VisionError as err:
            raise BoardNotFound(f"{shown(self.url)}: {err}") from None
        if isinstance(self._source, FolderSource):
            self._source.unreadable = self._skip
        self._set_status(state="connected", last_heard=self._clock())
        self._reader = None
        self._thread = StoppableThread(f"camera {self.target}", self._run, self._stop)
        self._thread.start()

    def _skip(self, why: str) -> None:
        """A photo of the folder that cannot be read (sensor thread): said, and the game
        followed from the next one (a position missed is re-synchronised over)."""
        self._emit(Notice(self._now_ms(), f"skipped a photo: {why}"))

    def _close(self) -> None:
        if self._thread is not None:
            self._thread.stop()
        if self._reader is not None:  # a live source: its reader releases it (_arrivals)
            self._reader.join(READER_JOIN_S)
        elif self._source is not None:
            self._source.close()

    def _frame_ms(self, source: FrameSource) -> tuple[float, bool]:
        """Milliseconds of recording per frame, and whether the source is live (paces itself
        and is timed by the clock)."""
        if isinstance(source, FolderSource):
            return 1000.0 / (self.fps or 1.0), False
        if self.target.startswith(("camera:", *NETWORK_SCHEMES)):
            return 1000.0 / (self.fps or 25.0), True
        fps = self.fps or video_fps(self.target)
        return 1000.0 / (fps if 0.0 < fps < 1000.0 else 25.0), False

    def _tracker(self, frame: Frame, stills: bool) -> Tracker:
        corners = self.corners
        if corners is None:
            from vision.locate import locate_board

            corners = place_by_position(frame, locate_board(frame), self._game)
        others = [self.corners2] if self.corners2 is not None else []
        if not others and view_of(self._game.variant).blocks:
            try:  # not there: the next frames are tried, as for the first board
                others = [find_second(frame, corners)]
            except BoardNotFoundError:
                raise BoardNotFoundError("no second board found beside the first (give its "
                                         "corners with corners2=x1,y1,...)") from None
        return Tracker(corners, stills=stills, game=self._game, others=others,
                       stabilise=self.stabilise)

    def _arrivals(self, source: FrameSource, stop: threading.Event
                  ) -> Iterator[tuple[Frame, float | None]]:
        """A live source's frames with the time each arrived, read on a thread of its own.

        Why: timed when the tracker got to them, the frames of a tracker behind the camera
        for a while (a busy machine) came in bursts a few milliseconds apart, as if the hands
        had moved ten times as fast. Read as they come, they keep their times; when
        LIVE_BACKLOG frames wait, the oldest is dropped (a slow machine judges fewer frames,
        not older ones). A recording's frames are timed by their place in it (None here).

        The reader releases the source when it stops (it stops at the next frame once
        ``stop`` is set), never another thread: OpenCV's capture is not thread-safe, and
        ``serve`` released it while the reader was in ``read()`` and hung there for good on
        SIGTERM (seen once in a full suite run: killed after 15 s).

        A stream that drops while the game is on (Wi-Fi lost for a moment, the camera's
        cable pulled) is opened again, as a serial board's port is (:mod:`firmware_bridge.link`):
        a ``reconnecting`` link event, tries every RECONNECT_BACKOFF seconds, a ``connected``
        one when frames come again, and the same tracker goes on (moves made meanwhile are
        re-synchronised over, up to three). Not back within :attr:`reconnect_s` (RECONNECT_S),
        or dropped with the game over, the stream has ended. A source that never gave a
        frame fails at once."""
        reader = _LiveReader(self.target, source, self._clock, stop, self.reconnect_s)
        self._reader = threading.Thread(target=reader.run, name=f"camera reader {self.target}",
                                        daemon=True)
        self._reader.start()
        try:
            for item in reader.items():
                if isinstance(item, str):
                    if not self._link_news(item):
                        return
                    continue
                yield item
        finally:
            reader.gone.set()

    def _link_news(self, news: str) -> bool:
        """Say that the live stream dropped (``news``: why) or came back (""); False when it
        dropped with the game over (nothing more to watch: the stream has ended)."""
        if news:
            if self._game.outcome.result != "*":
                return False
            self._set_status(state="reconnecting", detail=news)
            self._emit(LinkState(self._now_ms(), "reconnecting", news))
        else:
            status = self._set_status(state="connected", detail="",
                                      reconnects=self.link.reconnects + 1)
            self._emit(LinkState(self._now_ms(), "connected", f"reconnect #{status.reconnects}"))
        return True

    def _timed_frames(self, source: FrameSource, live: bool, stop: threading.Event
                      ) -> Iterator[tuple[Frame, float | None]]:
        """The source's frames, with their arrival times if it is live."""
        if live:
            yield from self._arrivals(source, stop)
        else:
            for frame in source.frames():
                yield frame, None

    def _run(self, stop: threading.Event) -> None:
        source = self._source
        assert source is not None
        frame_ms, live = self._frame_ms(source)
        stills = isinstance(source, FolderSource)
        start = self._clock()
        n = misses = 0
        try:
            for frame, arrived in self._timed_frames(source, live, stop):
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
                if not self._take_over():  # a take-back: a new picture of the position
                    tracker = self.tracker
                    assert tracker is not None
                    self.tracker = Tracker(tracker.corners, stills=stills, game=self._game,
                                           others=tracker.others)
                # the frame's time: its position in a recording, its arrival from a camera
                at = arrived if arrived is not None else n * frame_ms / 1000.0
                n += 1
                moves = self.tracker.step(frame, at)
                self.view(self.tracker.corners, frame.shape)  # re-found when bumped
                self._doubt()
                self.puzzle()
                self._set_status(last_heard=self._clock())
                if self.tracker.put_back:  # a failed attempt's pieces are back: say so
                    self.tracker.put_back = False
                    if not self._report_board(int(n * frame_ms)):
                        return
                if moves:
                    if not self._report(int(n * frame_ms), len(moves)):
                        return
        except (VisionError, OSError) as err:
            self._finish(BoardNotFound(f"{shown(self.url)}: {err}"))
            return
        self._finish()

    def _squares(self) -> tuple[tuple[int, ...], list[str]]:
        """The squares the tracker sees (the variant's indices) and their names."""
        index = tuple(self.tracker.decoder.index) if self.tracker is not None else ()
        return index, [self._game.variant.layout.name(k) for k in index]

    def _after_last_report(self) -> bool:
        """Wait (live only) until STEP_MS after the last report, so that the referee judges
        each position on its own; False when closed meanwhile."""
        if not self.fast:
            gap = self._last_report + STEP_MS / 1000.0 - self._clock()
            if gap > 0 and self._stop.wait(gap):
                return False
        return True

    def _report_board(self, video_ms: int) -> bool:
        """Send the board of the current position (the pieces of a failed attempt put back),
        STEP_MS after the last report at the earliest, so that the referee judges the attempt
        on its own (its settle time) before the board that undoes it. False when closed."""
        if not self._after_last_report():
            return False
        index, names = self._squares()
        self._emit(_snapshot(video_ms + STEP_MS if self.fast else self._now_ms(),
                             occupancy_of(self._game.state, index), names))
        self._last_report = self._clock()
        return True

    def _report(self, video_ms: int, count: int) -> bool:
        """Send the positions after each of the last ``count`` actions, STEP_MS apart: in
        the recording's own time when fast, else by the clock (waiting in between, so the
        referee's ticks and the events share one clock); after the tracker took moves back,
        first their withdrawal and the position before. False when closed meanwhile."""
        game = self._game
        index, names = self._squares()
        withdrawn = self.tracker.withdrawn if self.tracker is not None else ()
        states = [game.state]
        for _ in range(count):
            parent = states[0].parent
            if parent is None:
                break
            states.insert(0, parent)
        if not self._after_last_report():  # frames that came in a burst: keep positions apart
            return False
        if withdrawn:
            self.withdrawn_to = len(game.played) - len(states) + 1
            t = video_ms if self.fast else self._now_ms()
            self._emit(Withdraw(t, withdrawn))
            self._emit(_snapshot(t, occupancy_of(states[0], index), names))
            video_ms += STEP_MS
            if not self.fast and self._stop.wait(STEP_MS / 1000.0):
                return False
        for step, (old, new) in enumerate(zip(states, states[1:], strict=False)):
            if step and not self.fast and self._stop.wait(STEP_MS / 1000.0):
                return False
            codes = occupancy_of(new, index)
            if new.action is not None and codes == occupancy_of(old, index):
                # a failed attempt (the rules turned the capture down): it was made on the board
                shown = attempt_picture(new.action, codes, index)
                codes = codes if shown is None else tuple(int(v) for v in shown)
            t = video_ms + step * STEP_MS if self.fast else self._now_ms()
            self._emit(_snapshot(t, codes, names))
        self._last_report = self._clock()
        return True


def _snapshot(t_ms: int, codes: Sequence[int], names: Sequence[str]) -> Occupied:
    """The ``occupied`` snapshot of the camera's squares (``names``) holding ``codes`` (0 for
    empty, else the piece's colour, as :func:`occupancy_of` gives them), with the colour of
    each white and black piece (a gray one, Afterlife's mercenary, has none)."""
    return Occupied(t_ms, frozenset(names[k] for k, c in enumerate(codes) if c),
                    {names[k]: COLOUR_LETTERS[c] for k, c in enumerate(codes)
                     if c in COLOUR_LETTERS})


def check_rolls(url: str, game: Game, rolls: bool) -> None:
    """Refuse a camera for a variant played with a die when nothing else can roll it
    (``rolls`` False: no players' pages, no roll button): the camera sees where the die
    stands, not its face, so the game would stop at its first roll.

    Raises:
        BadSensorUrl: one line saying so and what to use instead.
    """
    kinds = game.variant.kinds_done_by(A.DIE)
    if kinds and not rolls:
        raise BadSensorUrl(
            f"{shown(url)}: a camera cannot read a die's face, and variant "
            f"{game.variant.name!r} needs it ({'/'.join(sorted(kinds))}): referee it under "
            "`gravekeeper serve` (the players' pages roll) or with a rig that has a roll button")


def open_sensor(url: str, game: Game, *, rolls: bool = True, **options: Any) -> Sensor:
    """Open the sensor at ``url``: a camera here, any other kind through firmware_bridge.
    ``rolls``: something besides the camera can roll a die (:func:`check_rolls`).

    Raises:
        BridgeError: the URL is not understood or the sensor cannot be opened.
    """
    if url.startswith(SCHEME):
        check_rolls(url, game, rolls)
        return CameraSensor(url, game).open()
    return firmware_bridge.open_sensor(url, **options)
