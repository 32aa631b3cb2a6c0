"""Buttons wired to the Pi are named in the rig file's [gpio_buttons] table."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_bridge.rig import load_rig
from hardware.config import config_from_rig
from hardware.errors import ConfigError

RIG = """
name = "pi-buttons"
[[module]]
name = "main"
kind = "grid"
width = 8
height = 8
[gpio_buttons]
clock-white = 5
clock-black = 6
bounce_time = 0.02
"""


def test_gpio_buttons_come_from_the_rig(tmp_path: Path) -> None:
    path = tmp_path / "rig.toml"
    path.write_text(RIG)
    config = config_from_rig(load_rig(path))
    assert dict(config.buttons.gpio) == {"clock-white": 5, "clock-black": 6}


def test_bad_gpio_button_is_named(tmp_path: Path) -> None:
    path = tmp_path / "rig.toml"
    path.write_text(RIG.replace("clock-black = 6", "launch = 6"))
    with pytest.raises(ConfigError, match="launch"):
        config_from_rig(load_rig(path))
