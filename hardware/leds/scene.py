"""What the LEDs should show: an immutable :class:`LedScene` of :class:`Light` per square.

A scene says, for each lit square, a colour, a :class:`Pattern`, a brightness ``level`` and a
``reason`` (why the square is lit, for logs, the mock picture and the docs). It says nothing
about time: :func:`hardware.leds.frames.frame_at` turns a scene into the RGB frame of one
instant, and :class:`hardware.leds.player.LedPlayer` keeps a backend showing it.

Scenes are values (hashable, thread-safe to share). Build them with the functions of
:mod:`hardware.leds.language` and combine them with :meth:`LedScene.over` or :func:`compose`.
Squares are NOTATION.md strings (``e4``, ``hell:d1``, ``a0``, ``limbo``, ``hours:b2``).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Final

#: A colour: (red, green, blue), each 0..255.
RGB = tuple[int, int, int]


class Pattern(enum.Enum):
    """How a light changes over time (periods in :mod:`hardware.leds.frames`).

    The pattern carries the *action*, so that the language can be read without colour:
    steady = information, slow blink = do something with a piece here (place; lift when in
    antiphase), fast blink = something is wrong here, pulse = attention (check, a lifted piece,
    the arbiter's pause).
    """

    STEADY = "steady"
    SLOW_BLINK = "slow blink"
    FAST_BLINK = "fast blink"
    PULSE = "pulse"


class Colour:
    """The palette (Okabe-Ito colours, chosen to stay distinct for colour-blind players)."""

    WHITE: Final[RGB] = (255, 255, 255)
    SKY: Final[RGB] = (86, 180, 233)
    BLUE: Final[RGB] = (0, 114, 178)
    ORANGE: Final[RGB] = (230, 159, 0)
    VERMILLION: Final[RGB] = (213, 94, 0)
    PURPLE: Final[RGB] = (204, 121, 167)
    GREEN: Final[RGB] = (0, 158, 115)
    YELLOW: Final[RGB] = (240, 228, 66)

    @classmethod
    def named(cls, name: str) -> RGB:
        """The palette colour called ``name`` (``"purple"``), for callers that choose a colour
        by name (a variant's marker).

        Raises:
            ValueError: no colour of the palette has that name.
        """
        value = getattr(cls, name.upper(), None) if name.isalpha() else None
        if not isinstance(value, tuple):
            known = ", ".join(n.lower() for n, v in vars(cls).items() if isinstance(v, tuple))
            raise ValueError(f"unknown LED colour {name!r} (known: {known})")
        return value


@dataclass(frozen=True)
class Light:
    """One square's light.

    ``level`` scales the colour (0..1; the backend's brightness applies on top). ``phase`` is
    the fraction of a blink period by which this light lags (0.5 = antiphase: on while the
    others are off). ``reason`` says why it is lit (``"last move"``, ``"hell home"``).

    Raises:
        ValueError: a level or phase outside 0..1, or a colour component outside 0..255.
    """

    colour: RGB
    pattern: Pattern = Pattern.STEADY
    level: float = 1.0
    phase: float = 0.0
    reason: str = ""

    def __post_init__(self) -> None:
        if not 0.0 <= self.level <= 1.0:
            raise ValueError(f"level must be between 0 and 1, got {self.level}")
        if not 0.0 <= self.phase < 1.0:
            raise ValueError(f"phase must be in [0, 1), got {self.phase}")
        if len(self.colour) != 3 or any(not 0 <= c <= 255 for c in self.colour):
            raise ValueError(f"colour must be three values 0..255, got {self.colour}")

    @property
    def luminance(self) -> float:
        """Relative luminance of the lit colour at ``level`` (0..1, Rec. 709 weights)."""
        r, g, b = (c / 255 for c in self.colour)
        return (0.2126 * r + 0.7152 * g + 0.0722 * b) * self.level

    @property
    def animated(self) -> bool:
        """Whether the light changes over time."""
        return self.pattern is not Pattern.STEADY


@dataclass(frozen=True)
class LedScene:
    """An immutable map square -> :class:`Light`; squares not in it are dark.

    ``name`` names the situation (``"last move"``, ``"correction"``) for logs and pictures.
    Iterating yields the lit squares in a stable order.
    """

    lights: Mapping[str, Light] = field(default_factory=dict)
    name: str = ""

    def __post_init__(self) -> None:
        # Freeze a private sorted copy so that equal scenes compare and hash equal.
        object.__setattr__(self, "lights", _FrozenLights(self.lights))

    @classmethod
    def of(cls, squares: Iterable[str], light: Light, name: str = "") -> LedScene:
        """A scene with the same ``light`` on every square of ``squares``."""
        return cls({sq: light for sq in squares}, name or light.reason)

    def __getitem__(self, square: str) -> Light:
        return self.lights[square]

    def __contains__(self, square: object) -> bool:
        return square in self.lights

    def __iter__(self) -> Iterator[str]:
        return iter(self.lights)

    def __len__(self) -> int:
        return len(self.lights)

    def get(self, square: str) -> Light | None:
        """The light on ``square``, or None if it is dark."""
        return self.lights.get(square)

    @property
    def animated(self) -> bool:
        """Whether any light blinks or pulses."""
        return any(light.animated for light in self.lights.values())

    @property
    def reasons(self) -> tuple[str, ...]:
        """The distinct reasons in the scene, in square order."""
        return tuple(dict.fromkeys(light.reason for light in self.lights.values()))

    def over(self, below: LedScene) -> LedScene:
        """This scene laid over ``below``: where both light a square, this one wins."""
        merged = {**below.lights, **self.lights}
        names = [n for n in (below.name, self.name) if n]
        return LedScene(merged, " + ".join(names))

    def without(self, squares: Iterable[str]) -> LedScene:
        """This scene with ``squares`` dark."""
        gone = set(squares)
        return LedScene({s: li for s, li in self.lights.items() if s not in gone}, self.name)

    def only(self, squares: Iterable[str]) -> LedScene:
        """This scene restricted to ``squares`` (e.g. the squares a rig has LEDs under)."""
        keep = set(squares)
        return LedScene({s: li for s, li in self.lights.items() if s in keep}, self.name)

    def named(self, name: str) -> LedScene:
        """The same lights under another name."""
        return replace(self, name=name)


def compose(*scenes: LedScene) -> LedScene:
    """Lay ``scenes`` over each other: later scenes win on squares they share."""
    out = LedScene()
    for scene in scenes:
        out = scene.over(out)
    return out


class _FrozenLights(Mapping[str, Light]):
    """A read-only, hashable, square-sorted mapping (region squares after the main ones)."""

    __slots__ = ("_items", "_map")

    def __init__(self, lights: Mapping[str, Light]) -> None:
        self._items = tuple(sorted(lights.items(), key=lambda kv: square_sort_key(kv[0])))
        self._map = dict(self._items)

    def __getitem__(self, key: str) -> Light:
        return self._map[key]

    def __iter__(self) -> Iterator[str]:
        return (k for k, _ in self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        return hash(self._items)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, _FrozenLights):
            return self._items == other._items
        return isinstance(other, Mapping) and dict(self._items) == dict(other.items())

    def __repr__(self) -> str:
        return f"{{{', '.join(f'{k!r}: {v!r}' for k, v in self._items)}}}"


def square_sort_key(square: str) -> tuple[int, str, int, str]:
    """A stable order for squares: main region first, then by region, rank and file."""
    region, _, name = square.rpartition(":")
    rank = int(name[1:]) if name[1:].isdigit() else 0
    return (1 if region else 0, region, rank, name[:1])


#: The dark scene.
DARK: Final = LedScene(name="dark")
