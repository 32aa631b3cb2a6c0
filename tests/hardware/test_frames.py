"""From a scene to the frame of an instant: blink and pulse timing."""

from __future__ import annotations

import pytest

from hardware.leds import language as L
from hardware.leds.frames import PULSE_FLOOR, frame_at, light_factor, next_change
from hardware.leds.scene import Colour, LedScene, Light, Pattern


def test_steady_light_is_constant_and_scaled() -> None:
    scene = LedScene({"e4": Light(Colour.WHITE, level=0.5)})
    assert frame_at(scene, 0.0) == {"e4": (128, 128, 128)}
    assert frame_at(scene, 123.4, brightness=0.5) == {"e4": (64, 64, 64)}
    assert next_change(scene, 3.0) is None


@pytest.mark.parametrize("t, on", [(0.0, True), (0.49, True), (0.5, False), (0.99, False),
                                   (1.0, True)])
def test_slow_blink_is_one_hertz(t: float, on: bool) -> None:
    scene = LedScene({"e4": Light(Colour.BLUE, Pattern.SLOW_BLINK)})
    assert ("e4" in frame_at(scene, t)) is on


def test_antiphase_is_on_while_the_other_is_off() -> None:
    scene = L.carry(["hell:b1"], "c3", "hell home")
    for t in (0.1, 0.6, 1.2, 1.7):
        frame = frame_at(scene, t)
        assert ("hell:b1" in frame) != ("c3" in frame)


def test_fast_blink_period() -> None:
    light = Light(Colour.VERMILLION, Pattern.FAST_BLINK)
    assert [light_factor(light, t) for t in (0.0, 0.19, 0.21, 0.39, 0.41)] == [1, 1, 0, 0, 1]


def test_pulse_falls_to_floor_and_back_in_steps() -> None:
    light = Light(Colour.YELLOW, Pattern.PULSE)
    assert light_factor(light, 0.0) == 1.0
    assert light_factor(light, 1.0) == pytest.approx(PULSE_FLOOR)
    values = {round(light_factor(light, t / 100), 4) for t in range(200)}
    assert len(values) <= 17
    assert light_factor(light, 0.5) < light_factor(light, 0.25)


def test_next_change_points_at_the_next_edge() -> None:
    blink = LedScene({"a1": Light(Colour.BLUE, Pattern.SLOW_BLINK)})
    assert next_change(blink, 0.0) == pytest.approx(0.5)
    assert next_change(blink, 0.3) == pytest.approx(0.2)
    fast = LedScene({"a1": Light(Colour.BLUE, Pattern.FAST_BLINK)}).over(blink)
    assert next_change(fast, 0.1) == pytest.approx(0.1)
    pulse = LedScene({"a1": Light(Colour.BLUE, Pattern.PULSE)})
    assert next_change(pulse, 0.0) == pytest.approx(2.0 / 32)
