"""``sim://?firmware=micropython``: ``pico_main.py`` itself on MicroPython's Unix port, behind
the same pty as the CPython simulator, with stand-ins for the Pico's pins and LEDs; driven by
the real host driver, ``gravekeeper sense``, ``gravekeeper watch`` and the demo."""

from __future__ import annotations

import io
import os
import selectors
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_sim import _corrupt_then_check, _kinds

from firmware_bridge import (
    BadSensorUrl,
    BridgeError,
    Button,
    LinkState,
    Occupied,
    Place,
    open_sensor,
)
from firmware_bridge.rig import builtin_rig
from firmware_bridge.sim import STANDARD_START, SimSensor, SimulatedBoard
from tests.processes import finish

MP = "firmware=micropython"


@pytest.fixture
def sensor(micropython: str) -> Iterator[SimSensor]:
    s = open_sensor(f"sim://?variant=standard&snapshot_ms=200&{MP}", open_timeout=5.0)
    assert isinstance(s, SimSensor) and s.simulator.firmware == "micropython"
    yield s
    s.close()
    assert s.simulator.firmware_log == ""  # no traceback from the firmware


def test_moves_bounce_buttons_and_leds(sensor: SimSensor) -> None:
    first = sensor.get(2.0)
    assert isinstance(first, Occupied) and first.squares == STANDARD_START
    sim = sensor.simulator
    sim.move("e2", "e4")
    assert _kinds([sensor.get(1.0), sensor.get(1.0)]) == [  # type: ignore[list-item]
        ("lift", "e2"), ("place", "e4")]
    # One scripted step per scan the firmware itself asks for: debounced whatever the load.
    sim.bounce("d2", flips=5, settle=False)
    sim.bounce("d7", flips=5, settle=True)
    sim.place("e5")
    assert _kinds([sensor.get(1.0), sensor.get(1.0)]) == [  # type: ignore[list-item]
        ("lift", "d7"), ("place", "e5")]
    sim.press("clock-white")
    sim.press("confirm")
    sim.press("confirm")  # the same button again: each press counts once
    got = [sensor.get(1.0) for _ in range(3)]
    assert [b.name for b in got if isinstance(b, Button)] == ["clock-white", "confirm",
                                                              "confirm"]
    sensor.send_leds({"e4": (0, 255, 0), "d5": (9, 9, 9)})
    sim.wait_until(lambda: sim.leds == {"e4": (0, 255, 0), "d5": (9, 9, 9)}, 2.0)
    sensor.send_leds({})
    sim.wait_until(lambda: sim.leds == {}, 2.0)
    with pytest.raises(BridgeError, match="no die reader"):
        sim.roll(3)


def test_cable_pulled_reboots_the_firmware(sensor: SimSensor) -> None:
    sensor.get(2.0)
    sim = sensor.simulator
    sensor.send_leds({"f3": (1, 2, 3)})
    sim.wait_until(lambda: sim.leds == {"f3": (1, 2, 3)}, 2.0)
    sim.unplug()  # the process is killed: the Pico loses power
    ev = sensor.get(2.0)
    assert isinstance(ev, LinkState) and ev.state == "reconnecting"
    sim.move("g8", "f6", wait=False)  # played while the cable is out
    sim.replug()  # a new interpreter boots pico_main.py
    snap = sensor.get(5.0)
    assert isinstance(snap, Occupied) and snap.squares == (STANDARD_START - {"g8"}) | {"f6"}
    back = sensor.get(2.0)
    assert isinstance(back, LinkState) and back.state == "connected"
    sim.wait_until(lambda: sim.leds == {"f3": (1, 2, 3)}, 2.0)  # the host restores the LEDs
    sim.announce()  # a HELLO answering a HELLO_REQUEST late, as when it crosses the boot one
    sim.move("f6", "e4")
    # Nothing between: no repeated Occupied, no second "reconnect" (board.py's HELLO race).
    assert _kinds([sensor.get(1.0), sensor.get(1.0)]) == [  # type: ignore[list-item]
        ("lift", "f6"), ("place", "e4")]
    assert sensor.link.reconnects == 1 and sensor.stats["hellos"] >= 1


def test_corrupted_frames_noise_and_config(micropython: str) -> None:
    sensor = open_sensor(f"sim://?snapshot_ms=0&{MP}", ping_interval=10.0, dead_after=20.0,
                         open_timeout=5.0)
    assert isinstance(sensor, SimSensor)
    with sensor:
        _corrupt_then_check(sensor)
        sensor.simulator.configure(debounce_scans=4)  # a CONFIG frame to the firmware
        sensor.simulator.lift("a3")
        assert _kinds([sensor.get(1.0)]) == [("lift", "a3")]  # type: ignore[list-item]
    assert sensor.simulator.firmware_log == ""


def test_muted_board_is_declared_lost_then_recovers(micropython: str) -> None:
    with open_sensor(f"sim://?start=empty&{MP}", open_timeout=5.0, ping_interval=0.05,
                     dead_after=0.25) as sensor:
        assert isinstance(sensor, SimSensor)
        assert isinstance(sensor.get(2.0), Occupied)
        sensor.simulator.mute = True
        ev = sensor.get(2.0)
        assert isinstance(ev, LinkState) and ev.state == "reconnecting"
        sensor.simulator.mute = False
        assert isinstance(sensor.get(3.0), Occupied)


@pytest.mark.parametrize(("url", "square"), [
    ("sim://?variant=deadmans&start=empty", "hell:d1"),  # 128 cells: the 74HC165 chain
    ("sim://?modules=main,ring&start=empty", "z5"),
    ("sim://?variant=afterlife&start=empty", "limbo"),
    ("sim://?variant=afterlife&start=empty&leds=0&debounce=1&scan_ms=1", "hall:h5"),
])
def test_module_layouts_through_the_shift_register_chain(micropython: str, url: str,
                                                         square: str) -> None:
    with open_sensor(f"{url}&{MP}", open_timeout=5.0) as sensor:
        assert isinstance(sensor, SimSensor)
        first = sensor.get(2.0)
        assert isinstance(first, Occupied) and first.squares == frozenset()
        sensor.simulator.place(square)
        ev = sensor.get(1.0)
        assert isinstance(ev, Place) and ev.square == square


def test_back_held_at_power_up_leaves_the_pico_at_its_repl(micropython: str) -> None:
    """main.py turns Ctrl-C off (binary frames); this is how mpremote gets in again."""
    board = SimulatedBoard(builtin_rig("standard"), firmware="micropython")
    board.hold_at_power_up("back")
    with pytest.raises(BridgeError, match="did not boot: no output"):
        board.start()  # main() returned at once: no HELLO, and no traceback either


def test_bad_firmware_option() -> None:
    with pytest.raises(BadSensorUrl,
                       match="option firmware='circuitpython' is not one of python, micropython"):
        open_sensor("sim://?firmware=circuitpython")


def test_sense_as_a_subprocess(micropython: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "firmware_bridge.cli", f"sim://?start=e1,e8&{MP}",
         "--timeout", "0.5"], capture_output=True, text=True, timeout=60, check=False)
    assert proc.stdout.startswith("occupied e1 e8\n"), proc.stderr
    assert proc.returncode == 2 and "no sensor event within 0.5 s" in proc.stderr


def _read_line(proc: subprocess.Popen[str], want: str, timeout: float = 10.0) -> list[str]:
    """Lines ``proc`` prints until one equals ``want``."""
    assert proc.stdout is not None
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    lines: list[str] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if sel.select(deadline - time.monotonic()):
            line = proc.stdout.readline()
            if not line:
                break
            lines.append(line.rstrip("\n"))
            if lines[-1] == want:
                return lines
    raise AssertionError(f"no line {want!r} from watch; got {lines}")


def test_watch_referees_the_micropython_board_over_a_pty(micropython: str) -> None:
    """``gravekeeper watch serial://PTY`` in its own process; the pieces move on a board whose
    firmware is pico_main.py on the Unix port."""
    board = SimulatedBoard(builtin_rig("standard"), start=STANDARD_START, firmware="micropython",
                           scan_period=0.002).start()
    exe = str(Path(sys.executable).with_name("gravekeeper"))
    proc = subprocess.Popen([exe, "watch", f"serial://{board.port_path}", "--settle", "100"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        _read_line(proc, "# link: sensor ready")  # the referee has the start position
        board.move("e2", "e4")
        _read_line(proc, "e2e4")
        board.move("g8", "f6")
        _read_line(proc, "g8f6")
        proc.send_signal(signal.SIGINT)
        out, err = finish(proc, timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
        board.stop()
    assert proc.returncode == 0, err
    assert "# moves: e2e4 g8f6" in out
    assert board.firmware_log == ""


@pytest.mark.parametrize("variant", ["standard", "afterlife"])
def test_demo_with_the_micropython_firmware(micropython: str, variant: str) -> None:
    from referee.app.demo import run_demo

    out = io.StringIO()
    game = run_demo(variant, {}, seed=3, turns=6, out=out, firmware="micropython")
    text = out.getvalue()
    assert "[problem]" not in text and "internal" not in text
    assert [line.split(": ", 1)[1] for line in text.splitlines()
            if line.startswith("--- step") and "[" not in line] == \
        [f"{'white' if p.actor == 1 else 'black'}: {game.variant.public_action_text(p.action)}"
         for p in game.played]
    assert len(game.played) >= 6
