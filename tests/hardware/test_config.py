"""Settings from the rig file: validation with errors that name the source and key."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from hardware.config import (
    DisplayConfig,
    HardwareConfig,
    LedConfig,
    config_from_mapping,
    config_from_rig,
)
from hardware.errors import ConfigError


def test_defaults() -> None:
    assert config_from_mapping({}) == HardwareConfig()
    assert HardwareConfig().display == DisplayConfig()


def test_a_full_mapping() -> None:
    config = config_from_mapping({
        "leds": {"kind": "WS2812", "order": "grb", "brightness": 0.3, "chain": ["main", "hell"],
                 "pins": {"e4": 17}},
        "display": {"kind": "hd44780", "width": 20, "height": 4},
        "buttons": {"confirm": 2, "back": 3},
        "gpio_buttons": {"clock-white": 5, "bounce_time": 0.02},
    })
    assert config.leds == LedConfig(kind="ws281x", brightness=0.3, order="GRB",
                                    chain=("main", "hell"), pins={"e4": 17})
    assert config.display.character and config.display.address == 0x27
    assert dict(config.buttons.board) == {2: "confirm", 3: "back"}
    assert dict(config.buttons.gpio) == {"clock-white": 5}
    assert config.buttons.bounce_time == 0.02


@pytest.mark.parametrize("data, message", [
    ({"leds": {"kind": "laser"}}, "leds.kind: unknown LED backend"),
    ({"leds": {"brightness": 2}}, "leds.brightness: must be between 0 and 1"),
    ({"leds": {"order": "RGBW"}}, "leds.order"),
    ({"leds": {"colour": "red"}}, "leds.colour: unknown key"),
    ({"leds": {"pwm": 1}}, "leds.pwm: expected bool"),
    ({"leds": {"pins": {"e4": True}}}, "leds.pins.e4"),
    ({"leds": {"chain": [1]}}, "leds.chain"),
    ({"display": {"kind": "crt"}}, "display.kind: unknown display"),
    ({"display": {"kind": "hd44780", "width": 40}}, "16x2, 16x4, 20x2 or 20x4"),
    ({"display": {"width": 5}}, "not a display size"),
    ({"display": {"address": 0x99}}, "display.address"),
    ({"display": {"interface": "spi"}}, "only i2c"),
    ({"display": {"width": "wide"}}, "display.width: expected int"),
    ({"display": []}, "display: expected a table"),
    ({"buttons": {"panic": 1}}, "buttons.panic: unknown button"),
    ({"buttons": {"confirm": 300}}, "board index"),
    ({"buttons": {"confirm": 1, "back": 1}}, "already 'confirm'"),
    ({"gpio_buttons": {"confirm": 1.5}}, "gpio_buttons.confirm"),
    ({"gpio_buttons": {"bounce_time": 3}}, "gpio_buttons.bounce_time"),
])
def test_errors_name_source_and_key(data: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match="rig.toml: ") as info:
        config_from_mapping(data, source="rig.toml")
    assert message in str(info.value)


def test_from_a_loaded_rig_object() -> None:
    rig = SimpleNamespace(source="my.toml", leds={"kind": "ws2812", "brightness": 0.4},
                          display={"kind": "ssd1306", "address": 0x3D},
                          buttons={0: "clock-white", 2: "confirm"})
    config = config_from_rig(rig, gpio_buttons={"roll": 26})
    assert config.leds.kind == "ws281x" and config.display.address == 0x3D
    assert dict(config.buttons.board) == {0: "clock-white", 2: "confirm"}
    assert dict(config.buttons.gpio) == {"roll": 26}


@pytest.mark.parametrize("variant", ["standard", "deadmans", "ghost", "afterlife"])
def test_builtin_rigs_are_valid_for_the_hardware(variant: str) -> None:
    rig_mod = pytest.importorskip("firmware_bridge.rig")
    config = config_from_rig(rig_mod.builtin_rig(variant))
    assert config.leds.kind == "ws281x" and config.display.kind == "ssd1306"
    assert set(config.buttons.board.values()) == {"clock-white", "clock-black", "confirm",
                                                  "back", "roll"}
