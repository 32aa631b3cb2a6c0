"""Reference firmware for the Gravekeeper reed-switch board.

Everything here except :mod:`.pico_main` is plain Python that runs both under CPython (tests,
the ``sim://`` simulator, the host driver, which shares the framing code) and under MicroPython
on a Raspberry Pi Pico (RP2040). Those modules therefore avoid dataclasses, ``typing`` at run
time, and anything else MicroPython lacks. :mod:`.pico_main` is the thin MicroPython layer
(``machine``/``rp2``/``neopixel``) and is never imported by CPython code.

On the Pico the whole directory is copied as a package named ``gkfw`` (see docs/firmware.md).
"""
