"""Per-square LEDs: the scene model, the visual language, the player and the backends.

Build a scene with :mod:`hardware.leds.language`, open a player and show it::

    from hardware.leds import language, open_player
    with open_player("mock") as leds:
        leds.show(language.last_move("e2", "e4"))
"""

from hardware.leds.backends import (
    BoardLeds,
    GpioLeds,
    LedBackend,
    LedSink,
    MockLeds,
    Ws281xLeds,
)
from hardware.leds.factory import BACKENDS, open_leds, open_player
from hardware.leds.frames import frame_at, next_change
from hardware.leds.player import LedPlayer
from hardware.leds.scene import DARK, RGB, Colour, LedScene, Light, Pattern, compose

__all__ = [
    "BACKENDS", "DARK", "RGB", "BoardLeds", "Colour", "GpioLeds", "LedBackend", "LedPlayer",
    "LedScene", "LedSink", "Light", "MockLeds", "Pattern", "Ws281xLeds", "compose", "frame_at",
    "next_change", "open_leds", "open_player",
]
