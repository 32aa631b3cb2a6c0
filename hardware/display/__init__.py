"""The shared display: the :class:`Screen` model, its renderers and the luma backends.

::

    from hardware.display import open_display, screen
    with open_display("dummy") as display:
        display.show(screen.announcement("Zombie knight rises on c6"))
"""

from hardware.display.backends import CaptureDisplay, Display, LumaDisplay, open_display
from hardware.display.render import render_image, render_text
from hardware.display.screen import ClockFace, Screen, ScreenKind

__all__ = [
    "CaptureDisplay", "ClockFace", "Display", "LumaDisplay", "Screen", "ScreenKind",
    "open_display", "render_image", "render_text",
]
