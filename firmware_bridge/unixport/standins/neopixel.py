"""Stand-in for MicroPython's ``neopixel`` on the Unix port: ``write()`` reports the frame.

Like the real driver, setting pixels changes nothing visible until :meth:`NeoPixel.write`,
which here sends every pixel's RGB to the simulator (see ``machine.py`` beside this file).
"""

import machine


class NeoPixel:
    """``n`` WS2812 pixels on ``pin``."""

    def __init__(self, pin: "machine.Pin", n: int, bpp: int = 3, timing: int = 1) -> None:
        self.pin = pin
        self.n = n
        self.buf = bytearray(3 * n)

    def __len__(self) -> int:
        return self.n

    def __setitem__(self, index: int, rgb: "tuple[int, int, int]") -> None:
        self.buf[3 * index : 3 * index + 3] = bytes(rgb)

    def __getitem__(self, index: int) -> "tuple[int, int, int]":
        b = self.buf
        return b[3 * index], b[3 * index + 1], b[3 * index + 2]

    def fill(self, rgb: "tuple[int, int, int]") -> None:
        for i in range(self.n):
            self[i] = rgb

    def write(self) -> None:
        machine.BOARD.leds(bytes(self.buf))
