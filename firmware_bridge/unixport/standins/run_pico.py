"""Runs ``pico_main.py`` on MicroPython's Unix port as the simulated board's firmware.

``micropython run_pico.py CONFIG`` with ``MICROPYPATH`` holding this folder (the stand-ins)
and a folder with ``gkfw`` (the firmware package) and ``pico_main.py``, exactly the Pico's
layout. CONFIG is JSON: the HELLO modules, the scanner, debounce, periods, LEDs and the paths
of the simulator's request and reply pipes. Everything else is ``pico_main.main()`` itself,
with stdin/stdout standing for the USB CDC serial. A traceback (from the import on) goes to
stderr, the simulator's log, rather than down the "USB" line as it would on the Pico.
"""

import json
import sys

import machine


def run() -> None:
    import pico_main

    cfg = json.loads(sys.argv[1])
    pico_main.MODULES = [tuple(m) for m in cfg["modules"]]
    pico_main.SCANNER = cfg["scanner"]
    pico_main.DEBOUNCE_SCANS = cfg["debounce"]
    pico_main.SCAN_PERIOD_MS = cfg["scan_ms"]
    pico_main.SNAPSHOT_PERIOD_MS = cfg["snapshot_ms"]
    if not cfg["leds"]:
        pico_main.LED_PIN = None
    machine.wire(cfg["requests"], cfg["replies"], pico_main.ROW_PINS, pico_main.COL_PINS,
                 (pico_main.SHIFT_PL, pico_main.SHIFT_CLK, pico_main.SHIFT_Q7),
                 pico_main.BUTTON_PINS, cfg["held"].encode())
    pico_main.main()


try:
    run()
except Exception as exc:
    sys.print_exception(exc, sys.stderr)  # type: ignore[attr-defined]
    sys.exit(1)
