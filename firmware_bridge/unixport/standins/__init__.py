"""MicroPython-only stand-ins for the Pico's ``machine`` and ``neopixel`` (never imported by
CPython): on MicroPython's Unix port they put ``pico_main.py`` on a simulated board whose
switches, buttons and LEDs live in :class:`firmware_bridge.sim.SimulatedBoard`. See
:mod:`firmware_bridge.unixport`."""
