"""Buttons: one debounced stream from gpiozero pins (mock factory) and the sensor board."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from hardware.buttons import ButtonPress, ButtonStream, GpioButtons, open_buttons
from hardware.config import button_config
from hardware.errors import ConfigError, DeviceClosed
from tests.hardware.conftest import FakeClock


@dataclass(frozen=True)
class BoardButton:
    """The shape of firmware_bridge's Button event."""

    t_ms: int
    name: str


def test_presses_are_debounced_per_button(clock: FakeClock) -> None:
    stream = ButtonStream(debounce=0.2, clock=clock)
    assert stream.press("confirm")
    clock.advance(0.05)
    assert not stream.press("confirm")  # a bounce
    assert stream.press("back")  # another button is not affected
    clock.advance(0.2)
    assert stream.press("confirm")
    assert [p.name for p in stream.drain()] == ["confirm", "back", "confirm"]


def test_board_events_join_the_same_stream(clock: FakeClock) -> None:
    stream = ButtonStream(clock=clock)
    assert stream.feed(BoardButton(10, "roll"))
    assert not stream.feed(object())  # not a button: ignored
    assert not stream.feed(BoardButton(11, "self-destruct"))
    assert stream.get(timeout=0) == ButtonPress("roll", clock.t, "board")


def test_real_bridge_button_event(clock: FakeClock) -> None:
    events = pytest.importorskip("firmware_bridge.events")
    stream = ButtonStream(clock=clock)
    assert stream.feed(events.Button(5, "clock-white"))
    assert not stream.feed(events.Lift(6, "e2"))
    assert stream.drain()[0].name == "clock-white"


def test_unknown_names_and_closed_stream(clock: FakeClock) -> None:
    stream = ButtonStream(clock=clock)
    with pytest.raises(ConfigError):
        stream.press("reset")
    stream.close()
    stream.close()
    assert stream.get(timeout=0) is None and list(stream) == []
    with pytest.raises(DeviceClosed):
        stream.press("confirm")


def test_gpio_buttons_on_mock_pins(mock_factory: Any, clock: FakeClock) -> None:
    stream = ButtonStream(debounce=0.1, clock=clock)
    with GpioButtons({"clock-white": 5, "confirm": "GPIO6"}, stream) as buttons:
        pin = mock_factory.pin(5)
        pin.drive_low()  # pull-up: pressed connects the pin to ground
        pin.drive_high()
        pin.drive_low()  # bounces at the same fake instant: dropped
        pin.drive_high()
        clock.advance(0.5)
        mock_factory.pin(6).drive_low()
        presses = stream.drain()
        assert [(p.name, p.source) for p in presses] == [("clock-white", "gpio"),
                                                          ("confirm", "gpio")]
        assert buttons.pins["confirm"] == "GPIO6"
    mock_factory.pin(5).drive_high()
    mock_factory.pin(5).drive_low()  # released: no more presses
    assert stream.drain() == []


def test_open_buttons_from_config(mock_factory: Any, clock: FakeClock) -> None:
    config = button_config({"confirm": 2}, {"roll": 13, "debounce": 0.3})
    stream, gpio = open_buttons(config, clock=clock)
    assert gpio is not None and stream.debounce == 0.3
    mock_factory.pin(13).drive_low()
    assert stream.get(timeout=0) == ButtonPress("roll", clock.t, "gpio")
    gpio.close()
    stream2, none = open_buttons(button_config({}, {}), clock=clock)
    assert none is None


def test_a_press_after_the_stream_closed_is_ignored(mock_factory: Any,
                                                    clock: FakeClock) -> None:
    stream = ButtonStream(clock=clock)
    buttons = GpioButtons({"back": 7}, stream).open()
    stream.close()
    mock_factory.pin(7).drive_low()  # must not raise inside gpiozero's callback
    buttons.close()
