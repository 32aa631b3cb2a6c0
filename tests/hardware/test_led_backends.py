"""LED backends and the factory: mock, board adapter, ws281x (stand-in library), gpio (mock)."""

from __future__ import annotations

import types
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from hardware.config import LedConfig, led_config
from hardware.errors import (
    BackendUnavailable,
    ConfigError,
    DeviceClosed,
    DeviceNotFound,
    UnknownBackend,
)
from hardware.leds import language as L
from hardware.leds.backends import BoardLeds, GpioLeds, MockLeds, Ws281xLeds
from hardware.leds.factory import open_leds, open_player
from tests.hardware.conftest import AdvancingWait, FakeClock


class Sink:
    """Anything with send_leds: what the sensor board's Sensor offers."""

    def __init__(self, fail: bool = False) -> None:
        self.frames: list[dict[str, tuple[int, int, int]]] = []
        self.fail = fail

    def send_leds(self, frame: Mapping[str, tuple[int, int, int]]) -> None:
        if self.fail:
            raise ConnectionError("link down")
        self.frames.append(dict(frame))


class FakeStrip:
    def __init__(self, module: FakeWs, *args: Any) -> None:
        self.args, self.module = args, module
        self.pixels = [0] * args[0]
        self.shows = 0
        self.cleaned = False
        module.strips.append(self)

    def begin(self) -> None:
        if self.module.fail:
            raise RuntimeError("ws2811_init failed with code -3")

    def setPixelColor(self, index: int, value: int) -> None:  # noqa: N802 (library's name)
        self.pixels[index] = value

    def show(self) -> None:
        self.shows += 1

    def _cleanup(self) -> None:
        self.cleaned = True


class FakeWs(types.ModuleType):
    """A stand-in for rpi_ws281x (which only installs and runs on a Pi)."""

    WS2811_STRIP_GRB = 0x00081000
    WS2811_STRIP_RGB = 0x00100800

    def __init__(self, fail: bool = False) -> None:
        super().__init__("rpi_ws281x")
        self.fail = fail
        self.strips: list[FakeStrip] = []

    def PixelStrip(self, *args: Any) -> FakeStrip:  # noqa: N802 (library's name)
        return FakeStrip(self, *args)


def test_mock_records_and_pictures(tmp_path: Path, clock: FakeClock) -> None:
    leds = MockLeds(("a1", "e4"), clock=clock)
    leds.write({"e4": (255, 0, 0)})
    clock.advance(1.5)
    leds.write({})
    assert [t for t, _ in leds.frames] == [1000.0, 1001.5]
    out = leds.save_png(tmp_path / "f.png", frame={"e4": (255, 0, 0)})
    assert out.exists() and out.stat().st_size > 100
    leds.close()
    with pytest.raises(DeviceClosed):
        leds.write({})


def test_board_adapter_forwards_and_darkens_on_close() -> None:
    sink = Sink()
    leds = BoardLeds(sink, squares=frozenset({"e4", "hell:d1"}))
    leds.write({"e4": (1, 2, 3), "z9": (9, 9, 9)})
    leds.close()
    leds.close()
    assert sink.frames == [{"e4": (1, 2, 3)}, {}]
    with pytest.raises(DeviceClosed):
        leds.write({})
    with pytest.raises(ConfigError):
        BoardLeds(object())  # type: ignore[arg-type]


def test_board_adapter_closes_quietly_when_the_link_is_down() -> None:
    leds = BoardLeds(Sink(fail=True))
    with pytest.raises(ConnectionError):
        leds.write({"a1": (1, 1, 1)})
    leds.close()  # no exception


def test_ws281x_maps_squares_to_pixels() -> None:
    ws = FakeWs()
    leds = Ws281xLeds({"a1": 0, "b1": 1, "hell:a1": 64}, brightness=0.5, module=ws).open()
    strip = ws.strips[0]
    assert strip.args[0] == 65 and strip.args[5] == 128 and strip.args[7] == ws.WS2811_STRIP_GRB
    leds.write({"b1": (255, 128, 1), "hell:a1": (0, 0, 255), "h8": (1, 1, 1)})
    assert strip.pixels[1] == 0xFF8001 and strip.pixels[64] == 0x0000FF and strip.shows == 1
    leds.close()
    assert strip.pixels == [0] * 65 and strip.cleaned


def test_ws281x_failed_begin_is_torn_down() -> None:
    ws = FakeWs(fail=True)
    with pytest.raises(DeviceNotFound, match="GPIO 18"):
        Ws281xLeds({"a1": 0}, module=ws).open()
    assert ws.strips[0].cleaned


def test_ws281x_library_is_not_imported_before_open() -> None:
    leds = Ws281xLeds({"a1": 0})
    with pytest.raises(DeviceClosed):
        leds.write({})
    with pytest.raises(BackendUnavailable):  # no rpi_ws281x off a Pi
        leds.open()


def test_gpio_leds_follow_luminance(mock_factory: Any) -> None:
    leds = GpioLeds({"e4": 17, "d4": 27}).open()
    leds.write({"e4": (255, 255, 255), "d4": (0, 114, 178)})
    assert mock_factory.pin(17).state == pytest.approx(1.0)
    assert 0.0 < mock_factory.pin(27).state < 0.5
    leds.write({})
    assert mock_factory.pin(17).state == 0
    leds.close()
    leds.close()


def test_gpio_leds_on_off_without_pwm(mock_factory: Any) -> None:
    leds = GpioLeds({"e4": 22}, pwm=False).open()
    leds.write({"e4": (0, 0, 40)})
    assert mock_factory.pin(22).state == 0  # under the threshold
    leds.write({"e4": (0, 114, 178)})
    assert mock_factory.pin(22).state == 1
    leds.close()


def test_factory_names_and_aliases(clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GRAVEKEEPER_LEDS", raising=False)
    assert isinstance(open_leds("mock", clock=clock), MockLeds)
    assert isinstance(open_leds(config=led_config({"kind": "mock"})), MockLeds)
    assert isinstance(open_leds("board", sink=Sink()), BoardLeds)
    assert isinstance(open_leds("ws2812://?brightness=0.2", module=FakeWs()), Ws281xLeds)
    with pytest.raises(UnknownBackend):
        open_leds("laser")
    with pytest.raises(ConfigError, match="sink"):
        open_leds("board")


def test_environment_overrides_the_rig(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAVEKEEPER_LEDS", "mock")
    leds = open_leds(config=LedConfig(kind="ws281x"))
    assert isinstance(leds, MockLeds)
    assert isinstance(open_leds("board", sink=Sink()), BoardLeds)  # explicit beats env


def test_factory_gpio_uses_configured_pins(mock_factory: Any,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GRAVEKEEPER_LEDS", raising=False)
    config = led_config({"kind": "gpio", "pins": {"e4": 5}})
    leds = open_leds(config=config)
    assert isinstance(leds, GpioLeds) and leds.pins == {"e4": 5}
    leds.close()


def test_player_from_factory_scales_board_frames(clock: FakeClock,
                                                 advancing: AdvancingWait) -> None:
    sink = Sink()
    config = LedConfig(kind="board", brightness=0.5)
    with open_player(config=config, sink=sink, clock=clock, wait=advancing) as player:
        player.show(L.last_move("e2", "e4"))
    assert sink.frames[0] == {"e2": (32, 32, 32), "e4": (128, 128, 128)}
    assert sink.frames[-1] == {}


def test_pixels_follow_the_rig_chain() -> None:
    rig_mod = pytest.importorskip("firmware_bridge.rig")
    rig = rig_mod.builtin_rig("deadmans")
    ws = FakeWs()
    leds = open_leds("ws281x", rig=rig, config=led_config(dict(rig.leds)), module=ws)
    assert isinstance(leds, Ws281xLeds)
    assert leds.pixels["a1"] == 0 and leds.pixels["h8"] == 63 and leds.pixels["hell:a1"] == 64
    reversed_chain = led_config({**rig.leds, "chain": ["hell", "main"]})
    leds2 = open_leds("ws281x", rig=rig, config=reversed_chain, module=FakeWs())
    assert isinstance(leds2, Ws281xLeds) and leds2.pixels["hell:a1"] == 0
    with pytest.raises(ConfigError, match="no module"):
        open_leds("ws281x", rig=rig, config=led_config({"chain": ["ring"]}), module=FakeWs())
