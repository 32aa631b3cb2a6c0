"""Write what the players see at each step as PNG files (the demo's ``--capture DIR``).

::

    capture = StepCapture("shots", picture_spots(make_variant("deadmans").layout))
    capture.write(presenter.update(events, turn=..., clock=...), "Bxf7")
    # shots/step-001-leds.png, shots/step-001-display.png

The LED picture is the scene with its pattern markers and legend (see docs/leds.md), the
display picture the 128x64 screen scaled up 2x.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

from PIL import Image

from hardware.display.render import render_image
from hardware.leds.picture import Spot, render_scene, spots
from referee.app.present import Presentation


class StepCapture:
    """Numbers steps and writes two PNGs per step into ``directory`` (created if needed).

    ``squares`` places the squares with LEDs (:func:`referee.app.present.picture_spots` of
    the variant's layout, or a rig's square names); ``display_size`` the display in pixels.
    """

    def __init__(self, directory: str | Path, squares: Mapping[str, Spot] | Iterable[str] = (), *,
                 display_size: tuple[int, int] = (128, 64), scale: int = 2) -> None:
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.squares = spots(squares)
        self.display_size, self.scale = display_size, scale
        self.steps = 0

    def write(self, shown: Presentation, label: str = "") -> tuple[Path, Path]:
        """Write the step's LED and display pictures; returns their paths."""
        self.steps += 1
        stem = self.directory / f"step-{self.steps:03d}"
        leds = render_scene(shown.scene, self.squares, title=label or shown.scene.name)
        led_path = stem.with_name(stem.name + "-leds.png")
        leds.save(led_path)
        screen = render_image(shown.screen, *self.display_size).convert("L")
        big = screen.resize((screen.width * self.scale, screen.height * self.scale),
                            Image.Resampling.NEAREST)
        display_path = stem.with_name(stem.name + "-display.png")
        big.save(display_path)
        return led_path, display_path
