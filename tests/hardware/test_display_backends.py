"""Display backends: luma's real chip drivers on a stand-in bus, dummy, capture, the factory."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from unittest.mock import Mock

import pytest
from PIL import Image

from hardware.config import DisplayConfig, display_config
from hardware.display import screen as S
from hardware.display.backends import CaptureDisplay, LumaDisplay, open_display
from hardware.errors import ConfigError, DeviceClosed, DeviceNotFound, UnknownBackend
from tests.hardware.screens import SCREENS

pytestmark = pytest.mark.filterwarnings(
    "ignore:Image.Image.getdata is deprecated:DeprecationWarning")  # inside luma.oled


class FourBitBus:
    """A stand-in for luma's parallel/PCF8574 interface: records what the LCD sends."""

    _bitmode = 4

    def __init__(self) -> None:
        self.commands: list[tuple[int, ...]] = []
        self.data_bytes: list[int] = []

    def command(self, *cmd: int, **kwargs: Any) -> None:
        self.commands.append(cmd)

    def data(self, data: Any) -> None:
        self.data_bytes.extend(data)

    def cleanup(self) -> None:
        pass


@pytest.fixture(autouse=True)
def _no_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GRAVEKEEPER_DISPLAY", raising=False)


@pytest.mark.parametrize("chip", ["ssd1306", "sh1106"])
def test_oled_drivers_send_the_rendered_frame(chip: str) -> None:
    bus = Mock(unsafe=True)
    display = open_display(chip, serial_interface=bus)
    display.show(SCREENS["turn-white"])
    sent = sum(len(c.args[0]) for c in bus.data.call_args_list)
    assert sent >= 128 * 64 // 8
    assert display.last_image is not None and display.last_image.size == (128, 64)
    display.close()
    with pytest.raises(DeviceClosed):
        display.show(SCREENS["turn-white"])


def test_character_lcd_gets_text() -> None:
    bus = FourBitBus()
    backlight = Mock()
    display = open_display("hd44780://1/0x27?width=20&height=4", serial_interface=bus,
                           backlight=backlight)
    display.show(SCREENS["announcement-zombie"])
    assert display.character and (display.cols, display.rows) == (20, 4)
    assert str(display.device.text).splitlines()[:2] == ["Referee", "Zombie knight rises"]
    assert bus.data_bytes  # the driver wrote the characters
    backlight.assert_called_with(True)
    display.close()


def test_dummy_keeps_the_last_image() -> None:
    with open_display("dummy") as display:
        display.show(S.announcement("No zombie at e2"))
        assert display.device.image.getbbox() is not None
        assert display.frames == 1


def test_capture_writes_numbered_pngs(tmp_path: Path) -> None:
    display = open_display(f"capture://{tmp_path}/shots")
    assert isinstance(display, CaptureDisplay)
    display.show(SCREENS["turn-white"])
    display.show(SCREENS["game-over-ghost"])
    names = [p.name for p in display.paths]
    assert names == ["display-0001.png", "display-0002.png"]
    with Image.open(display.paths[1]) as im:
        assert im.size == (128, 64)
    display.close()


def test_capture_directory_from_config(tmp_path: Path) -> None:
    config = display_config({"kind": "capture", "directory": str(tmp_path / "c")})
    display = open_display(config=config)
    display.show(SCREENS["correction"])
    assert (tmp_path / "c" / "display-0001.png").exists()


def test_missing_bus_is_device_not_found() -> None:
    if Path("/dev/i2c-7").exists():
        pytest.skip("this machine has an I2C bus 7")
    with pytest.raises(DeviceNotFound, match="i2c-7"):
        open_display("ssd1306://7/0x3C")


def test_environment_overrides_the_rig(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAVEKEEPER_DISPLAY", "dummy")
    display = open_display(config=DisplayConfig(kind="ssd1306"))
    assert isinstance(display, LumaDisplay) and not display.character


def test_unknown_and_bad_specs() -> None:
    with pytest.raises(UnknownBackend):
        open_display("vfd")
    with pytest.raises(ConfigError):
        open_display("ssd1306://bus/0x3C")
    with pytest.raises(ConfigError, match="width='wide' is not a whole number"):
        open_display("dummy://?width=wide")
    with pytest.raises(ConfigError, match=r"rotate='7' is out of range \(0 to 3\)"):
        open_display("dummy://?rotate=7")
    with pytest.raises(ConfigError, match="unknown option 'widht' for dummy://"):
        open_display("dummy://?widht=20")
