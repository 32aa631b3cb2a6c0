"""LedPlayer: first frame at once, redraws on pattern edges, one stoppable thread."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Mapping

import pytest

from hardware.errors import DeviceClosed
from hardware.leds import language as L
from hardware.leds.backends import MockLeds
from hardware.leds.player import RETRY_AFTER, LedPlayer
from hardware.leds.scene import RGB, Colour, LedScene, Light, Pattern
from tests.hardware.conftest import AdvancingWait, FakeClock


def test_show_writes_the_first_frame_at_once(clock: FakeClock) -> None:
    leds = MockLeds(clock=clock)
    player = LedPlayer(leds, clock=clock, animate=False)
    player.show(L.last_move("e2", "e4"))
    assert leds.last == {"e2": (64, 64, 64), "e4": (255, 255, 255)}
    player.show(L.last_move("e2", "e4"))  # same scene: nothing new written
    assert len(leds.frames) == 1


def test_tick_follows_blinks_and_skips_unchanged_frames(clock: FakeClock) -> None:
    leds = MockLeds(clock=clock)
    player = LedPlayer(leds, clock=clock, animate=False)
    player.show(LedScene({"a1": Light(Colour.BLUE, Pattern.SLOW_BLINK)}))
    assert player.tick() == pytest.approx(0.5)
    clock.advance(0.2)
    assert player.tick() == pytest.approx(0.3)
    assert len(leds.frames) == 1  # still on: nothing written
    clock.advance(0.3)
    player.tick()
    assert leds.last == {} and len(leds.frames) == 2
    clock.advance(0.5)
    player.tick()
    assert leds.last == {"a1": Colour.BLUE}


def test_brightness_scales_frames(clock: FakeClock) -> None:
    leds = MockLeds(clock=clock)
    LedPlayer(leds, brightness=0.5, clock=clock, animate=False).show(
        LedScene({"e4": Light(Colour.WHITE)}))
    assert leds.last == {"e4": (128, 128, 128)}
    with pytest.raises(ValueError):
        LedPlayer(leds, brightness=2.0)


def test_max_fps_caps_pulse_redraws(clock: FakeClock) -> None:
    player = LedPlayer(MockLeds(clock=clock), max_fps=5.0, clock=clock, animate=False)
    player.show(L.check("e8"))
    assert player.tick() == pytest.approx(0.2)


def test_thread_animates_in_simulated_time(clock: FakeClock, advancing: AdvancingWait) -> None:
    leds = MockLeds(clock=clock)
    player = LedPlayer(leds, clock=clock, wait=advancing)
    player.show(LedScene({"a1": Light(Colour.BLUE, Pattern.SLOW_BLINK)}))
    assert leds.wait_frames(6)
    player.close()
    frames = leds.frames
    on_off = [frame for _, frame in frames[:6]]
    assert on_off == [{"a1": Colour.BLUE}, {}] * 3
    times = [t - frames[0][0] for t, _ in frames[:6]]
    assert times == pytest.approx([0.0, 0.5, 1.0, 1.5, 2.0, 2.5])
    assert frames[-1][1] == {}  # close() leaves the LEDs dark
    assert leds.closed


def test_steady_scene_starts_no_thread(clock: FakeClock) -> None:
    player = LedPlayer(MockLeds(clock=clock), clock=clock)
    player.show(L.last_move("e2", "e4"))
    assert player._ticker is not None and not player._ticker.running
    player.close()


def test_a_new_scene_wakes_the_thread(clock: FakeClock, advancing: AdvancingWait) -> None:
    leds = MockLeds(clock=clock)
    with LedPlayer(leds, clock=clock, wait=advancing) as player:
        player.show(L.check("e8"))
        assert leds.wait_frames(3)
        player.show(L.last_move("e2", "e4"))
        assert player.last_frame == {"e2": (64, 64, 64), "e4": (255, 255, 255)}
    with pytest.raises(DeviceClosed):
        player.show(L.check("e8"))


def test_close_is_idempotent_and_closes_the_backend(clock: FakeClock) -> None:
    leds = MockLeds(clock=clock)
    player = LedPlayer(leds, clock=clock, animate=False)
    player.close()
    player.close()
    assert leds.closed and leds.frames[-1][1] == {}
    assert player.tick() is None


class FlakyLeds(MockLeds):
    """Fails its second write, like a sensor link that drops for a moment."""

    def __init__(self, clock: FakeClock) -> None:
        super().__init__(clock=clock)
        self.writes = 0

    def write(self, frame: Mapping[str, RGB]) -> None:
        self.writes += 1
        if self.writes == 2:
            raise ConnectionError("link down")
        super().write(frame)


def test_animation_survives_backend_errors(clock: FakeClock, advancing: AdvancingWait) -> None:
    leds = FlakyLeds(clock)
    with LedPlayer(leds, clock=clock, wait=advancing) as player:
        player.show(LedScene({"a1": Light(Colour.BLUE, Pattern.SLOW_BLINK)}))
        assert leds.wait_frames(4)
        assert isinstance(player.error, ConnectionError)
    assert RETRY_AFTER in advancing.calls


def test_importing_opens_and_imports_no_hardware_library() -> None:
    code = ("import sys, hardware, hardware.leds, hardware.display, hardware.buttons, "
            "hardware.clock, referee.app.present, referee.app.capture, hardware.config; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('gpiozero', 'luma', 'rpi_ws281x', 'RPi', 'lgpio')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"
