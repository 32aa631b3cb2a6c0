"""Pictures of LED frames and scenes: the board(s) seen from above, White at the bottom.

Used by :class:`~hardware.leds.backends.MockLeds`, by the docs (docs/leds/*.png) and by the
demo's ``--capture``. Where each square is drawn comes in as plain data, a map of square name
-> :class:`Spot` (panel, x, y, look), which the caller takes from the variant's layout
(``referee.app.present.picture_spots``): this package knows squares, not variants. Without a
map, ``a1``-style names are placed on a plain grid (``hell:a1`` on a panel of its own).

A scene picture marks each pattern with a shape, since a picture cannot blink: a disc is
steady, a disc in a ring blinks slowly (a hollow ring when in antiphase: "lift"), a disc with
rays blinks fast, concentric rings pulse. A legend lists every (look, reason) shown. Square
names are written again over the lights, on a patch of the square's colour: a picture is read
by its labels (the ghost ring's cells especially), and a ring must not hide them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Final

from PIL import Image, ImageDraw, ImageFont

from hardware.leds.scene import RGB, LedScene, Light, Pattern, square_sort_key

CELL: Final = 30
MARGIN: Final = 12
TITLE_H: Final = 16
LEGEND_LINE: Final = 16
BACKGROUND: Final[RGB] = (32, 32, 36)
LIGHT_SQ: Final[RGB] = (120, 112, 100)
DARK_SQ: Final[RGB] = (80, 72, 64)
RING_SQ: Final[RGB] = (58, 58, 66)
TEXT: Final[RGB] = (200, 200, 200)
LABEL: Final[RGB] = (20, 20, 20)

CHECKER: Final = "checker"
PLAIN: Final = "plain"
BORDER: Final = "border"


@dataclass(frozen=True)
class Spot:
    """Where one square is drawn: its ``panel`` (a titled piece of board), column ``x`` and
    row ``y`` there (y growing upwards) and its ``look``: :data:`CHECKER` (light and dark
    squares), :data:`PLAIN` or :data:`BORDER` (a label ring around a board)."""

    panel: str
    x: int
    y: int
    look: str = CHECKER


def place_of(square: str) -> Spot:
    """Where ``square`` goes without a map: ``a1``-style names on a grid, ``region:a1`` on a
    panel named after the region."""
    region, _, name = square.rpartition(":")
    letter, digits = name[:1], name[1:]
    rank = int(digits) if digits.isdigit() else 1
    x = ord(letter) - ord("a") if letter.isalpha() else 0
    return Spot(region.capitalize() or "Board", x, rank - 1)


def spots(squares: Mapping[str, Spot] | Iterable[str]) -> dict[str, Spot]:
    """A square map: ``squares`` itself, or names placed by :func:`place_of`."""
    if isinstance(squares, Mapping):
        return dict(squares)
    return {sq: place_of(sq) for sq in squares}


def _panels(places: Mapping[str, Spot]) -> dict[str, dict[str, Spot]]:
    """Panels in the order they first appear in ``places``, each with its squares."""
    panels: dict[str, dict[str, Spot]] = {}
    for sq, p in sorted(places.items(), key=lambda kv: square_sort_key(kv[0])):
        panels.setdefault(p.panel, {})[sq] = p
    order = list(dict.fromkeys(p.panel for p in places.values()))
    return {name: panels[name] for name in order}


def _font() -> ImageFont.ImageFont:
    return ImageFont.load_default_imagefont()


class _Canvas:
    """Lays panels out left to right and draws cells."""

    def __init__(self, places: Mapping[str, Spot], legend_lines: int, title: str) -> None:
        self.places = places
        self.panels = _panels(places)
        self.title = title
        self.offsets: dict[str, tuple[int, int, int, int]] = {}  # panel -> left, top, x0, y1
        left, height = MARGIN, 0
        top = MARGIN + (TITLE_H if title else 0)
        for name, cells in self.panels.items():
            xs = [p.x for p in cells.values()]
            ys = [p.y for p in cells.values()]
            self.offsets[name] = (left, top + TITLE_H, min(xs), max(ys))
            title_w = 6 * len(name) + 4
            left += max((max(xs) - min(xs) + 1) * CELL, title_w) + MARGIN
            height = max(height, TITLE_H + (max(ys) - min(ys) + 1) * CELL)
        self.width = max(left, 260)
        self.legend_top = top + height + MARGIN
        size = (self.width, self.legend_top + legend_lines * LEGEND_LINE + MARGIN)
        self.image = Image.new("RGB", size, BACKGROUND)
        self.draw = ImageDraw.Draw(self.image)
        self.font = _font()

    def box(self, square: str) -> tuple[int, int, int, int]:
        p = self.places[square]
        left, top, x0, y1 = self.offsets[p.panel]
        x = left + (p.x - x0) * CELL
        y = top + (y1 - p.y) * CELL
        return x, y, x + CELL - 1, y + CELL - 1

    def draw_cells(self) -> None:
        if self.title:
            self.draw.text((MARGIN, MARGIN), self.title, fill=TEXT, font=self.font)
        for name, cells in self.panels.items():
            left, top, _, _ = self.offsets[name]
            self.draw.text((left, top - TITLE_H + 1), name, fill=TEXT, font=self.font)
            for sq, p in cells.items():
                self.draw.rectangle(self.box(sq), fill=_square_fill(p))
                self.label(sq)

    def label(self, square: str, patch: bool = False) -> None:
        """Write ``square``'s name in its top left corner; with ``patch`` on a patch of the
        square's colour, so that a light drawn before does not hide it."""
        p = self.places[square]
        x, y, _, _ = self.box(square)
        text = square.rpartition(":")[2]
        if patch:
            left, top, right, bottom = self.draw.textbbox((x + 2, y + 1), text, font=self.font)
            self.draw.rectangle((left - 1, top - 1, right, bottom), fill=_square_fill(p))
        self.draw.text((x + 2, y + 1), text, fill=TEXT if p.look == BORDER else LABEL,
                       font=self.font)


def _square_fill(p: Spot) -> RGB:
    if p.look == BORDER:
        return RING_SQ
    if p.look == CHECKER:
        return DARK_SQ if (p.x + p.y) % 2 == 0 else LIGHT_SQ
    return LIGHT_SQ


def _scaled(colour: RGB, level: float) -> RGB:
    # Keep dim lights visible in a picture: map level 0..1 onto 35..100 % of the colour.
    k = 0.35 + 0.65 * level
    r, g, b = colour
    return (round(r * k), round(g * k), round(b * k))


def draw_marker(draw: ImageDraw.ImageDraw, cx: int, cy: int, light: Light) -> None:
    """Draw ``light``'s pattern marker centred on (cx, cy)."""
    colour = _scaled(light.colour, light.level)
    r = 8
    if light.pattern is Pattern.SLOW_BLINK and light.phase:
        draw.ellipse((cx - r - 2, cy - r - 2, cx + r + 2, cy + r + 2), outline=colour, width=4)
        return
    if light.pattern is Pattern.SLOW_BLINK:
        draw.ellipse((cx - r - 3, cy - r - 3, cx + r + 3, cy + r + 3), outline=colour, width=2)
        r -= 3
    elif light.pattern is Pattern.FAST_BLINK:
        for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
            draw.line((cx - dx * 12, cy - dy * 12, cx + dx * 12, cy + dy * 12), fill=colour,
                      width=2)
        r -= 2
    elif light.pattern is Pattern.PULSE:
        for rr in (r + 3, r - 1, r - 5):
            draw.ellipse((cx - rr, cy - rr, cx + rr, cy + rr), outline=colour, width=2)
        return
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour)


def _look(light: Light) -> str:
    if light.pattern is Pattern.SLOW_BLINK and light.phase:
        return "slow blink, antiphase"
    return light.pattern.value


def render_scene(scene: LedScene, squares: Mapping[str, Spot] | Iterable[str] = (),
                 title: str = "") -> Image.Image:
    """A picture of ``scene`` over the board(s) of ``squares`` (a square map, or names; any
    other square it lights is placed by name), with a legend line per look and reason."""
    legend = list(dict.fromkeys((light, _look(light)) for light in scene.lights.values()))
    legend = list({(li.colour, li.pattern, li.phase, li.level, li.reason): (li, look)
                   for li, look in legend}.values())
    canvas = _Canvas(_with(spots(squares), scene.lights), len(legend), title)
    canvas.draw_cells()
    for sq, light in scene.lights.items():
        x, y, _, _ = canvas.box(sq)
        draw_marker(canvas.draw, x + CELL // 2, y + CELL // 2 + 2, light)
    for sq in scene.lights:  # the square names stay readable over the lights
        canvas.label(sq, patch=True)
    for i, (light, look) in enumerate(legend):
        top = canvas.legend_top + i * LEGEND_LINE
        draw_marker(canvas.draw, MARGIN + 8, top + 7, light)
        canvas.draw.text((MARGIN + 26, top + 2), f"{look}: {light.reason}", fill=TEXT,
                         font=canvas.font)
    return canvas.image


def render_frame(frame: Mapping[str, RGB], squares: Mapping[str, Spot] | Iterable[str] = (),
                 title: str = "") -> Image.Image:
    """A picture of one RGB ``frame`` (what the LEDs show at an instant) over ``squares``."""
    canvas = _Canvas(_with(spots(squares), frame), 0, title)
    canvas.draw_cells()
    for sq, rgb in frame.items():
        x, y, _, _ = canvas.box(sq)
        cx, cy = x + CELL // 2, y + CELL // 2 + 2
        canvas.draw.ellipse((cx - 9, cy - 9, cx + 9, cy + 9), fill=rgb, outline=(0, 0, 0))
    for sq in frame:
        canvas.label(sq, patch=True)
    return canvas.image


def _with(places: dict[str, Spot], lit: Iterable[str]) -> dict[str, Spot]:
    for sq in lit:
        if sq not in places:
            places[sq] = place_of(sq)
    return places
