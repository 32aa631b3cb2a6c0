"""From a scene to the RGB frame of one instant.

Timing of the patterns (seconds). Blinks stay at or under 2.5 flashes a second, below the
3-per-second limit of photosensitivity guidelines:

* slow blink: period 1.0 (on 0.5, off 0.5); a light with ``phase`` 0.5 is on while others are off
* fast blink: period 0.4 (on 0.2, off 0.2)
* pulse: period 2.0, brightness a triangle from 100 % down to 15 % and back, in 16 steps per half

Time ``t`` is measured from the moment the scene was first shown, so every blink starts "on".
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Final

from hardware.leds.scene import RGB, LedScene, Light, Pattern

#: Pattern periods in seconds.
PERIODS: Final[Mapping[Pattern, float]] = {
    Pattern.SLOW_BLINK: 1.0,
    Pattern.FAST_BLINK: 0.4,
    Pattern.PULSE: 2.0,
}
#: The dimmest point of a pulse, as a fraction of the light's level.
PULSE_FLOOR: Final = 0.15
#: Brightness steps per half pulse period.
PULSE_STEPS: Final = 16

#: A frame: square -> RGB; squares not named are dark.
Frame = dict[str, RGB]


def light_factor(light: Light, t: float) -> float:
    """The light's brightness multiplier (0..1) at ``t`` seconds after the scene started."""
    if light.pattern is Pattern.STEADY:
        return 1.0
    u = (t / PERIODS[light.pattern] - light.phase) % 1.0
    if light.pattern is Pattern.PULSE:
        tri = abs(1.0 - 2.0 * u)  # 1 at the start, 0 half-way, 1 again
        step = math.floor(tri * PULSE_STEPS + 1e-9) / PULSE_STEPS
        return PULSE_FLOOR + (1.0 - PULSE_FLOOR) * step
    return 1.0 if u < 0.5 else 0.0


def light_rgb(light: Light, t: float, brightness: float = 1.0) -> RGB:
    """The light's colour at ``t`` seconds, scaled by its level and ``brightness`` (0..1)."""
    k = light.level * light_factor(light, t) * brightness
    r, g, b = light.colour
    return (round(r * k), round(g * k), round(b * k))


def frame_at(scene: LedScene, t: float, brightness: float = 1.0) -> Frame:
    """The frame of ``scene`` at ``t`` seconds after it started; dark squares are left out."""
    frame: Frame = {}
    for square, light in scene.lights.items():
        rgb = light_rgb(light, t, brightness)
        if rgb != (0, 0, 0):
            frame[square] = rgb
    return frame


def next_change(scene: LedScene, t: float) -> float | None:
    """Seconds from ``t`` until the frame of ``scene`` may next change, or None if never."""
    delays = [_light_next_change(light, t) for light in scene.lights.values() if light.animated]
    return min(delays) if delays else None


def _light_next_change(light: Light, t: float) -> float:
    period = PERIODS[light.pattern]
    slot = period / (2 * PULSE_STEPS) if light.pattern is Pattern.PULSE else period / 2
    # Edges fall at phase offsets that are whole multiples of `slot`.
    position = t - light.phase * period
    ahead = slot - (position % slot)
    return ahead if ahead > 1e-9 else slot
