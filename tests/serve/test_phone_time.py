"""``phone://`` frames are timed by the page's camera, not by their arrival.

Why: the tracker settles in seconds of each frame's time stamp. Recorded under CPU starvation
(three busy processes beside the real-Chromium test), the page's frames, taken 0.1 s apart by
the camera, arrived up to 0.73 s apart after a stall, and a page that drew a newer video frame
than the one its frame callback reported sent the same picture twice. So the page writes each
picture's capture time into a JPEG comment (docs/api.md) and :class:`FrameClock` puts it on the
server's clock; frames without it (an older page) are still timed by their arrival.
"""

from __future__ import annotations

import json
import math
import time

import cv2
import numpy as np
import pytest

from referee.app.phone import (
    MAX_LAG_S,
    NOTE,
    FrameClock,
    PhoneSensor,
    decode_frame,
    jpeg_size,
    page_time,
)
from referee.rules.game import Game


def _jpeg(width: int = 320, height: int = 240) -> bytes:
    frame = np.full((height, width, 3), 128, dtype=np.uint8)
    return bytes(cv2.imencode(".jpg", frame)[1].tobytes())


def _stamped(jpeg: bytes, text: bytes) -> bytes:
    """``jpeg`` with a comment segment after its start marker (what camera.js sends)."""
    return jpeg[:2] + b"\xff\xfe" + (len(text) + 2).to_bytes(2, "big") + text + jpeg[2:]


def test_page_time_is_read_from_the_jpeg_comment() -> None:
    plain = _jpeg()
    frame = _stamped(plain, NOTE + json.dumps({"t": 1234.5}).encode())
    assert page_time(frame) == pytest.approx(1.2345)
    assert jpeg_size(frame) == (320, 240) and decode_frame(frame).shape == (240, 320, 3)
    assert page_time(plain) is None  # an older page: timed by arrival
    for note in (b"made by some encoder", NOTE + b"{not json", NOTE + b'{"t": "soon"}',
                 NOTE + b'{"t": true}', NOTE + b"[1]", NOTE + b'{"t": 1e999}',
                 NOTE + b'{"x": 1}', NOTE + b'{"t": NaN}'):
        assert page_time(_stamped(plain, note)) is None, note
    assert page_time(b"\xff\xd8") is None and page_time(b"") is None


def test_frames_taken_apart_stay_apart_after_a_stall() -> None:
    """Taken every 0.1 s; the link stalls after the third (arrivals 0.2 s, then 0.6 s, then
    a burst): the times keep the camera's spacing, on the server's clock."""
    clock = FrameClock()
    taken = [10.0, 10.1, 10.2, 10.3, 10.4, 10.5]
    arrived = [100.05, 100.15, 100.25, 100.85, 100.87, 100.9]
    times = [clock.time(a, t) for a, t in zip(arrived, taken, strict=True)]
    assert times == pytest.approx([100.05, 100.15, 100.25, 100.35, 100.45, 100.55])
    assert all(t <= a for t, a in zip(times, arrived, strict=True))  # never after arrival


def test_a_broken_page_clock_cannot_stall_settling() -> None:
    """A page clock that stops, jumps back or jumps ahead: times never go backwards, never
    lag their arrival by more than MAX_LAG_S, never pass it."""
    clock = FrameClock()
    arrived = [0.1 * k for k in range(1, 40)]
    taken = [5.0] * 39  # a stopped clock
    times = [clock.time(a, t) for a, t in zip(arrived, taken, strict=True)]
    assert times == sorted(times)
    assert all(a - MAX_LAG_S - 1e-9 <= t <= a for t, a in zip(times, arrived, strict=True))
    assert times[-1] - times[0] > 2.5  # time still passes: the board can settle
    back = clock.time(4.0, -100.0)  # jumps back: re-anchored
    assert times[-1] <= back <= 4.0 and back >= 4.0 - MAX_LAG_S
    ahead = clock.time(4.1, 1e6)  # jumps ahead: at most its arrival
    assert back <= ahead <= 4.1
    assert clock.time(4.2, None) == pytest.approx(4.2)  # no page time: the arrival
    clock.reset()  # a new page: another clock, time still goes forwards
    assert clock.time(4.3, 0.0) == pytest.approx(4.3)
    assert math.isclose(clock.time(4.5, 0.1), 4.4)


def test_the_tracker_gets_the_page_times() -> None:
    """Through the sensor: a frame offered with its page time reaches the tracker at that
    time on the sensor's clock; a frame without one at its arrival."""
    now = [50.0]
    frame = cv2.imdecode(np.frombuffer(_jpeg(), np.uint8), cv2.IMREAD_COLOR)
    with PhoneSensor("phone://?corners=20,20,300,20,300,220,20,220", Game("standard"),
                     clock=lambda: now[0]).open() as sensor:
        sensor.page_connected(320, 240)
        seen: list[float] = []
        for taken, arrived in ((7.0, 50.0), (7.1, 50.5), (None, 51.0)):
            now[0] = arrived
            assert sensor.offer(frame, taken, sensor.now())
            deadline = time.monotonic() + 10
            while sensor.tracker is None or getattr(sensor.tracker, "_time", None) in (
                    None, *seen):
                assert time.monotonic() < deadline, "the frame was not judged"
                time.sleep(0.01)
            seen.append(sensor.tracker._time)
        assert seen == pytest.approx([50.0, 50.1, 51.0])
