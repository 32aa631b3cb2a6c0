"""MicroPython entry point for the Raspberry Pi Pico (RP2040): the thin hardware layer.

Copy the ``firmware`` directory to the Pico as ``/lib/gkfw`` and this file as ``/main.py``
(docs/firmware.md). Never imported by CPython: it needs ``machine`` and ``neopixel``.

Hardware (default pins, see docs/firmware.md for wiring and the bill of materials):

- reed-switch matrix: 8 row outputs (GP0..GP7) driven low one at a time, 8 column inputs with
  pull-ups (GP8..GP15), a 1N4148 diode per switch against ghosting; or, with
  ``SCANNER = "165"``, chained 74HC165 shift registers (PL = GP16, CLK = GP17, Q7 = GP18);
- WS2812 LEDs on GP22, in the order of the HELLO modules' cells;
- five buttons to ground on GP19, GP20, GP21, GP26, GP27 (clock-white, clock-black, confirm,
  back, roll);
- USB CDC serial to the host (``sys.stdin``/``sys.stdout`` binary buffers).
"""

import select  # MicroPython's select.poll
import sys
import time as _time

import machine
import micropython
import neopixel
from gkfw.logic import Firmware, MsClock

TYPE_CHECKING = False  # MicroPython has no typing module; mypy treats this name as true
if TYPE_CHECKING:
    from typing import Any

# MicroPython's time has sleep_us/ticks_ms/ticks_diff, which CPython's stubs do not know.
time: "Any" = _time

# Module layout announced in HELLO: (name, kind, width, height); kind 0 = grid, 1 = ring,
# 2 = strip. Edit for a Dead Man's Hell board: [("main", 0, 8, 8), ("hell", 0, 8, 8)].
MODULES = [("main", 0, 8, 8)]
SCANNER = "matrix"  # or "165"
ROW_PINS = (0, 1, 2, 3, 4, 5, 6, 7)
COL_PINS = (8, 9, 10, 11, 12, 13, 14, 15)
SHIFT_PL, SHIFT_CLK, SHIFT_Q7 = 16, 17, 18
BUTTON_PINS = (19, 20, 21, 26, 27)
SAFE_BUTTON = 3  # "back" held down at power-up: main() returns to the REPL (for mpremote)
LED_PIN: "int | None" = 22  # None: a board without LEDs
SCAN_PERIOD_MS = 2  # 64 switches at 2 ms: a change debounced in 3 scans shows in ~6 ms
DEBOUNCE_SCANS = 3
SNAPSHOT_PERIOD_MS = 2000  # unsolicited snapshot period (0 = never)
BUTTON_DEBOUNCE_MS = 30
HOST_READ_MAX = 256  # host bytes taken per loop turn at most, then a scan


class MatrixScanner:
    """Rows driven low one at a time; a closed switch pulls its column low through a diode."""

    def __init__(self) -> None:
        self.rows = [machine.Pin(p, machine.Pin.OUT, value=1) for p in ROW_PINS]
        self.cols = [machine.Pin(p, machine.Pin.IN, machine.Pin.PULL_UP) for p in COL_PINS]

    def scan(self) -> list[list[int]]:
        cells: list[int] = []
        for row in self.rows:
            row.value(0)
            time.sleep_us(10)  # let the column lines settle (about 1 us needed; margin)
            cells.extend(1 - col.value() for col in self.cols)
            row.value(1)
        return split_modules(cells)


class ShiftScanner:
    """Chained 74HC165s: latch all switches at once (PL low), then clock the bits out."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.pl = machine.Pin(SHIFT_PL, machine.Pin.OUT, value=1)
        self.clk = machine.Pin(SHIFT_CLK, machine.Pin.OUT, value=0)
        self.q7 = machine.Pin(SHIFT_Q7, machine.Pin.IN)

    def scan(self) -> list[list[int]]:
        self.pl.value(0)
        self.pl.value(1)
        cells = []
        for _ in range(self.count):
            cells.append(1 - self.q7.value())  # switches pull the inputs low
            self.clk.value(1)
            self.clk.value(0)
        return split_modules(cells)


def split_modules(cells: list[int]) -> list[list[int]]:
    """Cut one flat list of cell states into per-module lists, in MODULES order."""
    out, i = [], 0
    for _name, _kind, w, h in MODULES:
        out.append(cells[i:i + w * h])
        i += w * h
    return out


class Buttons:
    """Buttons to ground with pull-ups; reports each press once, debounced in time."""

    def __init__(self) -> None:
        self.pins = [machine.Pin(p, machine.Pin.IN, machine.Pin.PULL_UP) for p in BUTTON_PINS]
        self.down = [False] * len(self.pins)
        self.since = [0] * len(self.pins)

    def pressed(self, now: int) -> list[int]:
        """The buttons newly pressed; ``now`` is in ms from an :class:`MsClock` (never wraps)."""
        out = []
        for i, pin in enumerate(self.pins):
            down = pin.value() == 0
            if down != self.down[i] and now - self.since[i] > BUTTON_DEBOUNCE_MS:
                self.down[i], self.since[i] = down, now
                if down:
                    out.append(i)
        return out


def read_host(poll: "Any", stream: "Any", limit: int) -> bytes:
    """The host bytes waiting now, at most ``limit``, without blocking (the USB CDC stream
    reads only what it is asked for, so one byte at a time while ``poll`` says more wait)."""
    data = bytearray()
    while len(data) < limit and poll.poll(0):
        chunk = stream.read(1)
        if not chunk:
            break
        data += chunk
    return bytes(data)


def main() -> None:
    # Ctrl-C is turned off below, so mpremote could never stop this program again; holding the
    # SAFE_BUTTON while plugging in leaves the Pico at its REPL instead.
    safe = machine.Pin(BUTTON_PINS[SAFE_BUTTON], machine.Pin.IN, machine.Pin.PULL_UP)
    if safe.value() == 0:
        return
    # Host frames are binary: a 0x03 byte must not raise KeyboardInterrupt (Ctrl-C on the REPL).
    micropython.kbd_intr(-1)
    total = sum(w * h for _n, _k, w, h in MODULES)
    strip = None if LED_PIN is None else neopixel.NeoPixel(machine.Pin(LED_PIN), total)
    offsets = []
    acc = 0
    for _n, _k, w, h in MODULES:
        offsets.append(acc)
        acc += w * h

    def show_leds(module: int, colours: list[tuple[int, int, int]]) -> None:
        if strip is None:
            return
        for i, rgb in enumerate(colours):
            strip[offsets[module] + i] = rgb
        if module == len(MODULES) - 1:
            strip.write()

    scanner = MatrixScanner() if SCANNER == "matrix" else ShiftScanner(total)
    clock = MsClock(time.ticks_ms, time.ticks_diff)
    fw = Firmware(MODULES, scan=scanner.scan, write=sys.stdout.buffer.write, clock_ms=clock,
                  show_leds=None if strip is None else show_leds,
                  debounce_scans=DEBOUNCE_SCANS, snapshot_period_ms=SNAPSHOT_PERIOD_MS,
                  die_reader=False)
    buttons = Buttons()
    poll = select.poll()
    poll.register(sys.stdin, select.POLLIN)
    fw.boot()
    while True:
        if poll.poll(SCAN_PERIOD_MS):  # host bytes, or the scan period passed
            fw.receive(read_host(poll, sys.stdin.buffer, HOST_READ_MAX))
        fw.poll()
        for index in buttons.pressed(clock()):
            fw.button(index)


# On the Pico this file is main.py, run as __main__; the Unix-port simulator imports it instead
# (firmware_bridge/unixport/standins/run_pico.py) to set the layout before calling main().
if __name__ == "__main__":
    main()
