"""Frame sources chosen by URL.

``open_source(url)`` understands:

* ``camera:N`` — the local camera number N (``cv2.VideoCapture(N)``);
* ``http://...`` / ``https://...`` / ``rtsp://...`` — a network stream (MJPEG etc.) read by OpenCV;
* a folder path — every image file in it (HEIC photos too), in name order;
* a file path — a video file, or a single still image.

Nothing is opened until :meth:`FrameSource.frames` is first iterated, and every source is a
context manager with an idempotent :meth:`FrameSource.close`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from types import TracebackType
from typing import Any

import cv2
import numpy as np

from firmware_bridge.urls import shown
from vision.errors import ImageReadError, SourceNotFoundError, SourceReadError, VisionError

HEIF_SUFFIXES = frozenset({".heic", ".heif"})  # a phone's photos (iPhones save HEIC by default)
IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp", ".ppm",
                            *HEIF_SUFFIXES})
NETWORK_SCHEMES = ("http://", "https://", "rtsp://")
#: seconds a network stream may send nothing before a read gives up (FFmpeg's own limit, 30 s,
#: held a stalled camera's game that long before ``camera://`` could open the stream again) ...
STALL_S = 5.0
#: ... and a connection may take to open (a camera gone from the network: each try of the
#: reconnection would wait FFmpeg's 30 s, the whole window)
OPEN_S = 10.0

Frame = np.ndarray[Any, np.dtype[np.uint8]]


def read_image(path: str | Path) -> Frame:
    """Read one colour image (BGR uint8).

    Raises:
        SourceNotFoundError: no such file.
        ImageReadError: the file is not a decodable image.
    """
    p = Path(path)
    if not p.is_file():
        raise SourceNotFoundError(f"no such image: {p}")
    if p.suffix.lower() in HEIF_SUFFIXES:
        return _read_heif(p)
    data = np.fromfile(str(p), dtype=np.uint8)
    img = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if img is None:
        raise ImageReadError(f"not a readable image: {p}")
    return np.asarray(img, dtype=np.uint8)


def _read_heif(path: Path) -> Frame:
    """A HEIC/HEIF photo (what an iPhone saves by default; OpenCV cannot decode it), turned
    upright as the phone held it (libheif applies the file's rotation and mirroring)."""
    try:
        import pillow_heif
    except ImportError:
        raise ImageReadError(f"cannot read HEIC photos on this machine (pillow-heif has no "
                             f"build for it): save them as JPEG instead: {path}") from None
    try:
        heif = pillow_heif.open_heif(str(path), convert_hdr_to_8bit=True)
        rgb = np.asarray(heif)
    except (ValueError, RuntimeError, OSError):
        raise ImageReadError(f"not a readable image: {path}") from None
    if rgb.ndim != 3 or rgb.shape[2] not in (3, 4):
        raise ImageReadError(f"not a colour photo: {path}")
    code = cv2.COLOR_RGB2BGR if rgb.shape[2] == 3 else cv2.COLOR_RGBA2BGR
    return np.asarray(cv2.cvtColor(np.ascontiguousarray(rgb), code), dtype=np.uint8)


class FrameSource:
    """Base class: an iterable of BGR frames that is opened lazily and closed explicitly."""

    def __init__(self, url: str) -> None:
        self.url = url

    def open(self) -> None:
        """Open the source now rather than at the first frame, so that a camera or stream
        that cannot be opened fails here (a folder or a photo opens nothing ahead)."""

    def frames(self) -> Iterator[Frame]:
        """Yield frames in order (opens the source on first use)."""
        raise NotImplementedError

    def close(self) -> None:
        """Release the source (idempotent)."""

    def __enter__(self) -> FrameSource:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


class CaptureSource(FrameSource):
    """A camera, video file or network stream read through ``cv2.VideoCapture``."""

    def __init__(self, url: str, target: int | str) -> None:
        super().__init__(url)
        self._target = target
        self._cap: Any = None

    def open(self) -> None:
        if self._cap is not None:
            return
        quiet_capture()
        if isinstance(self._target, str) and self._target.startswith(NETWORK_SCHEMES):
            cap = cv2.VideoCapture(self._target, cv2.CAP_ANY, [
                cv2.CAP_PROP_OPEN_TIMEOUT_MSEC, int(OPEN_S * 1000),
                cv2.CAP_PROP_READ_TIMEOUT_MSEC, int(STALL_S * 1000)])
        else:
            cap = cv2.VideoCapture(self._target)
        if not cap.isOpened():
            cap.release()
            raise SourceNotFoundError(f"cannot open video source: {shown(self.url)}")
        self._cap = cap

    def frames(self) -> Iterator[Frame]:
        self.open()
        cap = self._cap
        while True:
            ok, frame = cap.read()
            if not ok or frame is None:
                return
            yield np.asarray(frame, dtype=np.uint8)

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


def name_order(path: Path) -> tuple[tuple[int, int, str], ...]:
    """The sort key of a frame's file name: runs of digits compare as numbers, so ``frame_2``
    comes before ``frame_10`` (frames numbered without leading zeros, as cameras and scripts
    often write them); with zero-padded numbers this is plain name order."""
    parts = re.split(r"(\d+)", path.name)
    return tuple((1, int(part), part) if part.isdigit() else (0, 0, part) for part in parts)


class FolderSource(FrameSource):
    """Every image file of a folder, in name order (:func:`name_order`).

    A file that is not a readable image (a photo cut short while it was copied off the
    phone) is skipped, and ``unreadable`` (when set) is told why, so that the rest of the
    game is still followed: a photo missed is a position missed, which the tracker
    re-synchronises over. Only a folder with no readable image at all is an error.
    """

    def __init__(self, url: str, folder: Path) -> None:
        super().__init__(url)
        self._folder = folder
        #: told of each skipped file (the error's one line, naming it)
        self.unreadable: Callable[[str], None] | None = None

    def frames(self) -> Iterator[Frame]:
        files = sorted((p for p in self._folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES),
                       key=name_order)
        if not files:
            raise SourceReadError(f"no image files in folder: {self._folder}")
        skipped: list[str] = []  # said once a photo is read: a folder of none is one error
        read = False
        for p in files:
            try:
                frame = read_image(p)
            except (ImageReadError, OSError) as err:  # OSError: gone, or not ours to read
                skipped.append(str(err) if isinstance(err, VisionError)
                               else f"{err.strerror or err}: {p}")
                if read:
                    self._skipped(skipped)
                continue
            if not read:
                read = True
                self._skipped(skipped)
            yield frame
        if not read:
            raise SourceReadError(f"no readable image in the folder ({skipped[0]})")

    def _skipped(self, reasons: list[str]) -> None:
        if self.unreadable is not None:
            for why in reasons:
                self.unreadable(why)
        reasons.clear()


class ImageSource(FrameSource):
    """A single still image, yielded once."""

    def __init__(self, url: str, path: Path) -> None:
        super().__init__(url)
        self._path = path

    def frames(self) -> Iterator[Frame]:
        yield read_image(self._path)


def quiet_capture() -> None:
    """FFmpeg and OpenCV print their own lines on stderr ("Connection refused", "Stream
    timeout triggered"); our one error line already names the source, so their logs are
    silenced before a capture is opened, unless the user set their levels
    (OPENCV_FFMPEG_LOGLEVEL, OPENCV_LOG_LEVEL)."""
    os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")
    if "OPENCV_LOG_LEVEL" not in os.environ:
        cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_ERROR)


def video_fps(url: str) -> float:
    """The frame rate a video file declares (0.0 when it is not a video file or says none):
    the tracker settles in seconds of the recording."""
    path = Path(url.removeprefix("file://"))
    if not path.is_file() or path.suffix.lower() in IMAGE_SUFFIXES:
        return 0.0
    quiet_capture()
    cap = cv2.VideoCapture(str(path))
    try:
        fps = float(cap.get(cv2.CAP_PROP_FPS) or 0.0)
    finally:
        cap.release()
    return fps if 0.0 < fps < 1000.0 else 0.0


def open_source(url: str) -> FrameSource:
    """Choose the frame source for ``url`` (see the module docstring); opens nothing yet.

    Raises:
        SourceNotFoundError: a file or folder path that does not exist, or a bad camera number.
    """
    if url.startswith("camera:"):
        num = url.removeprefix("camera:")
        if not (num.isascii() and num.isdigit() and len(num) <= 4):
            raise SourceNotFoundError(f"bad camera URL (want camera:N, N from 0 to 9999): "
                                      f"{url[:40]}")
        return CaptureSource(url, int(num))
    if url.startswith(NETWORK_SCHEMES):
        return CaptureSource(url, url)
    path = Path(url.removeprefix("file://"))
    if path.is_dir():
        return FolderSource(url, path)
    if not path.is_file():
        scheme, sep, _ = url.partition("://")
        if sep and scheme.isalnum() and not url.startswith("file://"):
            known = ", ".join(("camera:N", *NETWORK_SCHEMES, "file://"))
            raise SourceNotFoundError(f"unknown video source scheme {scheme[:20]!r} "
                                      f"(known: {known}, or a file or folder)")
        raise SourceNotFoundError(f"no such file or folder: {str(path)[:200]}")
    if path.suffix.lower() in IMAGE_SUFFIXES:
        return ImageSource(url, path)
    return CaptureSource(url, str(path))
