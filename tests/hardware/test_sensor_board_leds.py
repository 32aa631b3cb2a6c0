"""The board LED backend against the sensor-board simulator (firmware_bridge's sim://)."""

from __future__ import annotations

import threading

import pytest

from hardware.leds import language as L
from hardware.leds.factory import open_player
from referee.app.present import marker_layer
from referee.rules.variants.deadmans import TOMBSTONE


def test_scene_reaches_the_simulated_board() -> None:
    bridge = pytest.importorskip("firmware_bridge")
    with bridge.open_sensor("sim://?variant=deadmans") as sensor:
        board = sensor.simulator
        player = open_player("board", sink=sensor)
        player.show(marker_layer(TOMBSTONE, ["hell:b1"]).over(L.last_move("e2", "e4")))  # steady
        expected = dict(player.last_frame)
        waited = threading.Event()
        for _ in range(500):  # the frame crosses a pty and the firmware's loop
            if board.leds == expected:
                break
            waited.wait(0.01)
        assert board.leds == expected
        assert "hell:b1" in expected and "e4" in expected
        player.close()
