"""Stand-in for MicroPython's ``machine`` on the Unix port: the pins of a simulated board.

Only what ``pico_main.py`` uses: ``Pin(id, mode, pull, value=)`` with ``value()``. Behind the
pins is the board's electrics, so that the firmware's own scanners run unchanged:

- a diode matrix: while a row pin is driven low, a column pin reads low when the switch at
  (row, column) is closed (cell = row * columns + column);
- a 74HC165 chain: PL low latches every switch, Q7 shows the current bit (low = closed) and
  each rising CLK edge shifts the next cell in;
- buttons to ground: a pressed button's pin reads low.

The switch and button states come from the simulator on the CPython side, fresh for every
scan (the first row driven low, or PL driven low, starts one): ``S`` is sent on the request
pipe, and one line ``<cells as 0/1> <buttons as 0/1>`` comes back. A reply that never comes
(the simulator is gone) ends this process, so no orphan keeps scanning.
"""

import sys

_NO_PIN = -1


class _Board:
    """The simulated electrics behind the pins (one per process)."""

    def __init__(self) -> None:
        self.requests: object | None = None
        self.replies: object | None = None
        self.rows: tuple[int, ...] = ()
        self.cols: tuple[int, ...] = ()
        self.pl = self.clk = self.q7 = _NO_PIN
        self.button_pins: tuple[int, ...] = ()
        self.cells = b""
        self.buttons = b""
        self.levels: dict[int, int] = {}
        self.shift = 0

    def scan(self) -> None:
        """Ask the simulator for the switches (and buttons) of the scan that starts now."""
        out = self.requests
        inp = self.replies
        if out is None or inp is None:
            raise OSError("machine stand-in not wired: call machine.wire() first")
        out.write(b"S\n")  # type: ignore[attr-defined]
        line = inp.readline()  # type: ignore[attr-defined]
        if not line:
            sys.exit(0)  # the simulator is gone: power off
        cells, buttons = line.split()
        self.cells = cells
        self.buttons = buttons

    def drive(self, pin: int, value: int) -> None:
        before = self.levels.get(pin, 1)
        self.levels[pin] = value
        if value == 0 and before == 1 and (pin == self.pl or (self.rows and pin == self.rows[0])):
            self.scan()
            self.shift = 0
        elif pin == self.clk and value == 1 and before == 0:
            self.shift += 1

    def read(self, pin: int) -> int:
        if pin in self.cols:
            c = self.cols.index(pin)
            for r, row in enumerate(self.rows):
                if self.levels.get(row, 1) == 0 and self._closed(r * len(self.cols) + c):
                    return 0
            return 1
        if pin == self.q7:
            return 0 if self._closed(self.shift) else 1
        if pin in self.button_pins:
            i = self.button_pins.index(pin)
            return 0 if i < len(self.buttons) and self.buttons[i] == 0x31 else 1
        return self.levels.get(pin, 1)

    def _closed(self, cell: int) -> bool:
        return cell < len(self.cells) and self.cells[cell] == 0x31  # b"1"

    def leds(self, rgb: bytes) -> None:
        """Report one latched LED frame (all pixels, RGB) to the simulator."""
        import binascii

        if self.requests is not None:
            self.requests.write(b"L" + binascii.hexlify(rgb) + b"\n")  # type: ignore[attr-defined]


BOARD = _Board()


def wire(requests: str, replies: str, rows: "tuple[int, ...]", cols: "tuple[int, ...]",
         shift: "tuple[int, int, int]", buttons: "tuple[int, ...]", held: bytes = b"") -> None:
    """Connect to the simulator's pipes (paths) and say which pins are what: matrix rows and
    columns, the 74HC165 chain's (PL, CLK, Q7) and the buttons, in index order; ``held`` is
    the buttons down at power-up (0/1 per button, before the first scan)."""
    BOARD.buttons = held
    BOARD.requests = open(requests, "wb")
    BOARD.replies = open(replies, "rb")
    BOARD.rows, BOARD.cols = tuple(rows), tuple(cols)
    BOARD.pl, BOARD.clk, BOARD.q7 = shift
    BOARD.button_pins = tuple(buttons)


class Pin:
    """A GPIO pin of the simulated board."""

    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, id: int, mode: int = -1, pull: int = -1, *,
                 value: "int | None" = None) -> None:
        self.id = id
        if value is not None:
            BOARD.drive(id, 1 if value else 0)

    def value(self, v: "int | None" = None) -> int:
        if v is None:
            return BOARD.read(self.id)
        BOARD.drive(self.id, 1 if v else 0)
        return 0
