"""``gravekeeper doctor``: what hardware is here, in plain words.

Why: on a Raspberry Pi the usual trouble is not the referee but the wiring: the board on
another serial port, the display on another I2C address, no GPIO chip access, no camera. Doctor
looks at each and ends with one verdict line. It only opens what it probes, one at a time, and
closes it again; with ``--try URL`` it probes a sensor URL too (``sim://`` in the tests).
Exit status: 0 when a board answers, 1 when none does, 2 for bad arguments.
"""

from __future__ import annotations

import argparse
import fcntl
import glob
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

I2C_SLAVE = 0x0703
DISPLAY_ADDRESSES = (0x3C, 0x3D)  # SSD1306/SH1106 OLEDs


@dataclass(frozen=True)
class Finding:
    """One line of the report: ``what`` was checked, ``ok`` or not, ``detail`` in words."""

    what: str
    ok: bool
    detail: str


def probe_sensor(url: str, timeout: float) -> Finding:
    """Open ``url`` as a sensor, wait for its first snapshot, close it."""
    from firmware_bridge import open_sensor
    from firmware_bridge.errors import BridgeError, SensorTimeout
    from firmware_bridge.events import Occupied

    try:
        with open_sensor(url, open_timeout=timeout) as sensor:
            leds = "with LEDs" if getattr(sensor, "supports_leds", False) else "without LEDs"
            try:
                event = sensor.get(timeout=timeout)
            except SensorTimeout:
                event = None
            pieces = f", {len(event.squares)} squares occupied" \
                if isinstance(event, Occupied) else ""
            return Finding(url, True, f"a Gravekeeper board answers ({leds}{pieces})")
    except (BridgeError, OSError, ValueError) as err:
        return Finding(url, False, f"no Gravekeeper board ({err})")


def serial_ports() -> list[str]:
    """Serial devices pyserial finds (USB boards, the Pi's UART)."""
    from serial.tools import list_ports

    return sorted(p.device for p in list_ports.comports())


def probe_i2c(buses: list[str]) -> list[Finding]:
    """Each I2C bus, and whether a display answers at the usual addresses."""
    out = []
    for bus in buses:
        try:
            fd = os.open(bus, os.O_RDWR)
        except OSError as err:
            out.append(Finding(bus, False, f"cannot open ({err.strerror}; add the user to "
                                           "the i2c group)"))
            continue
        found = []
        try:
            for address in DISPLAY_ADDRESSES:
                try:
                    fcntl.ioctl(fd, I2C_SLAVE, address)
                    os.read(fd, 1)
                    found.append(f"0x{address:02x}")
                except OSError:
                    continue
        finally:
            os.close(fd)
        detail = f"a display answers at {', '.join(found)}" if found else \
            "no display at 0x3c/0x3d"
        out.append(Finding(bus, bool(found), detail))
    return out


def probe_gpio(chips: list[str]) -> Finding:
    """GPIO chips and whether this user may open them."""
    if not chips:
        return Finding("GPIO", False, "no /dev/gpiochip* (not a Raspberry Pi?)")
    usable = [c for c in chips if os.access(c, os.R_OK | os.W_OK)]
    if not usable:
        return Finding("GPIO", False, f"{', '.join(chips)} not accessible (add the user to "
                                      "the gpio group)")
    return Finding("GPIO", True, f"{', '.join(usable)} usable")


def probe_cameras(devices: list[str]) -> Finding:
    """Video devices (USB webcams; the Pi camera through libcamera's V4L2 nodes)."""
    if not devices:
        return Finding("camera", False, "no /dev/video* device")
    return Finding("camera", True, ", ".join(devices))


def verdict(boards: list[Finding], others: list[Finding]) -> str:
    """One sentence for a person."""
    ready = [b.what for b in boards if b.ok]
    if ready:
        extra = [f.what for f in others if f.ok]
        return (f"Ready: referee with `gravekeeper serve {ready[0]}`"
                + (f" (also found: {', '.join(extra)})." if extra else "."))
    if not boards:
        return "No board found: plug the board in by USB (or pass --try URL)."
    return "No board answers: check the cable, the power and the rig; try another port."


def doctor_main(argv: list[str], out: TextIO = sys.stdout,
                finders: dict[str, Callable[[], list[str]]] | None = None) -> int:
    """Entry point; returns 0 when a board answers, 1 when none does."""
    parser = argparse.ArgumentParser(prog="gravekeeper doctor")
    parser.add_argument("--try", dest="urls", action="append", default=[],
                        help="also probe this sensor URL (repeatable), e.g. sim://")
    parser.add_argument("--timeout", type=float, default=1.5, help="seconds per probe")
    args = parser.parse_args(argv)
    find = {"serial": serial_ports, "i2c": lambda: sorted(glob.glob("/dev/i2c-*")),
            "gpio": lambda: sorted(glob.glob("/dev/gpiochip*")),
            "video": lambda: sorted(glob.glob("/dev/video*")), **(finders or {})}
    ports = find["serial"]()
    out.write(f"serial ports: {', '.join(ports) or 'none'}\n")
    boards = [probe_sensor(f"serial://{port}", args.timeout) for port in ports]
    boards += [probe_sensor(url, args.timeout) for url in args.urls]
    others = probe_i2c(find["i2c"]()) + [probe_gpio(find["gpio"]()),
                                         probe_cameras(find["video"]())]
    for finding in boards + others:
        out.write(f"{'ok ' if finding.ok else '-- '} {finding.what}: {finding.detail}\n")
    out.write(verdict(boards, others) + "\n")
    return 0 if any(b.ok for b in boards) else 1
