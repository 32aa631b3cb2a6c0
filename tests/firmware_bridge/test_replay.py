"""replay:// timing and the recorder (record a live sensor, replay it exactly)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from firmware_bridge import (
    BadSensorUrl,
    BoardNotFound,
    EventFormatError,
    EventRecorder,
    LinkState,
    Occupied,
    open_sensor,
    read_event_file,
)
from firmware_bridge.replay import ReplaySensor

GAME = "# a game\n0 occupied e2 e7\n100 lift e2\n250 place e4\n250 button clock-white\n900 die 4\n"


class FakeTime:
    """A clock whose wait() advances time instead of sleeping."""

    def __init__(self) -> None:
        self.now = 50.0
        self.waits: list[float] = []

    def clock(self) -> float:
        return self.now

    def wait(self, seconds: float) -> bool:
        self.waits.append(round(seconds, 6))
        self.now += seconds
        return False


@pytest.fixture
def game(tmp_path: Path) -> Path:
    path = tmp_path / "game.events"
    path.write_text(GAME)
    return path


def test_replay_as_fast_as_possible(game: Path) -> None:
    with open_sensor(f"replay://{game}?speed=0") as sensor:
        got = list(sensor.events(timeout=1.0))
    assert got == read_event_file(game)
    assert sensor.link.state == "closed"


def test_replay_keeps_its_timing(game: Path) -> None:
    fake = FakeTime()
    emitted: list[tuple[float, int]] = []
    sensor = ReplaySensor("replay://x", game, clock=fake.clock, wait=fake.wait)
    original = sensor._emit
    sensor._emit = lambda ev: (emitted.append((fake.now, ev.t_ms)), original(ev))[-1]  # type: ignore[method-assign]
    with sensor.open():
        assert len(list(sensor.events(timeout=1.0))) == 5
    assert fake.waits == [0.1, 0.15, 0.65]
    assert [(round((t - 50.0) * 1000), ms) for t, ms in emitted] == [
        (0, 0), (100, 100), (250, 250), (250, 250), (900, 900)]


def test_live_time_does_not_run_ahead_of_a_player_held_up(game: Path) -> None:
    """A player thread held up (a busy machine) past an event's time: the file's live time
    stops at that event until it is played, so a consumer does not judge the board as it
    stood before it as settled; once played, live time follows the clock again."""
    now = [50.0]
    release = threading.Event()

    def wait(seconds: float) -> bool:
        assert release.wait(5.0)
        now[0] = max(now[0], 50.0 + 0.1)  # the lift at 100 ms is late, not early
        return False

    with ReplaySensor("replay://x", game, clock=lambda: now[0], wait=wait).open() as sensor:
        assert sensor.get(timeout=5.0).t_ms == 0  # the first event is due at once
        now[0] = 51.0  # a second later in wall time, the player still held before the lift
        assert sensor.live_ms() == 100
        release.set()
        got = [ev.t_ms for ev in sensor.events(timeout=5.0)]
        assert got == [100, 250, 250, 900]
        assert sensor.live_ms() == 1000


def test_replay_at_double_speed(game: Path) -> None:
    fake = FakeTime()
    with ReplaySensor("replay://x", game, speed=2.0, clock=fake.clock, wait=fake.wait) as s:
        s.open()
        list(s.events(timeout=1.0))
    assert fake.waits == [0.05, 0.075, 0.325]


def test_real_time_replay_is_not_instant(tmp_path: Path) -> None:
    import time

    path = tmp_path / "short.events"
    path.write_text("0 lift e2\n120 place e4\n")
    t0 = time.monotonic()
    with open_sensor(f"replay://{path}") as sensor:
        assert len(list(sensor.events(timeout=2.0))) == 2
    assert time.monotonic() - t0 >= 0.11


def test_close_interrupts_a_long_wait(tmp_path: Path) -> None:
    path = tmp_path / "slow.events"
    path.write_text("0 lift e2\n600000 place e4\n")
    sensor = open_sensor(f"replay://{path}")
    assert sensor.get(1.0) is not None
    sensor.close()
    assert sensor.get(1.0) is None


def test_replay_errors(tmp_path: Path) -> None:
    with pytest.raises(BoardNotFound, match="cannot read event file"):
        open_sensor(f"replay://{tmp_path}/missing.events")
    bad = tmp_path / "bad.events"
    bad.write_text("0 lift e2\nfive place e4\n")
    with pytest.raises(EventFormatError, match="bad.events:line 2"):
        open_sensor(f"replay://{bad}")
    with pytest.raises(BadSensorUrl, match="option speed=.fast. is not a number"):
        open_sensor(f"replay://{bad}?speed=fast")
    with pytest.raises(BadSensorUrl, match="unknown option 'loop'"):
        open_sensor(f"replay://{bad}?loop=1")


def test_record_a_live_sensor_and_replay_it(tmp_path: Path) -> None:
    out = tmp_path / "rec.events"
    with open_sensor("sim://?variant=standard", record=out, open_timeout=2.0) as sensor:
        sim = sensor.simulator  # type: ignore[attr-defined]
        sensor.get(1.0)
        sim.move("e2", "e4")
        sim.press("clock-white")
        live = [sensor.get(1.0) for _ in range(3)]
    replayed = read_event_file(out)
    assert isinstance(replayed[0], Occupied)
    assert replayed[1:] == live
    assert out.read_text().startswith("# recorded from sim://")


def test_recorder_writes_link_state_as_comments(tmp_path: Path) -> None:
    out = tmp_path / "r.events"
    with EventRecorder(out) as rec:
        rec.write(LinkState(5, "reconnecting", "cable"))
        rec.write(Occupied(6, frozenset({"a1"})))
    assert out.read_text() == "# link reconnecting cable\n6 occupied a1\n"
    assert read_event_file(out) == [Occupied(6, frozenset({"a1"}))]
