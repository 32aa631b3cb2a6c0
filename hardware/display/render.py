"""Draw a :class:`~hardware.display.screen.Screen`: pixels for an OLED, text for an LCD.

:func:`render_image` draws on a 1-bit PIL image (128x64 by default, the SSD1306/SH1106 size)
with Pillow's built-in bitmap font (6 px wide, 11 px high: 21 characters a line), doubled for
the clock and results. :func:`render_text` writes the same screen as lines for a 16x2 .. 20x4
character LCD. Both are pure and deterministic, which the golden-picture tests rely on.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from typing import Final

from PIL import Image, ImageDraw, ImageFont

from hardware.display.screen import ClockFace, Screen, ScreenKind, format_time
from hardware.sides import BLACK, WHITE

CHAR_W: Final = 6
LINE_H: Final = 11
HEADER_H: Final = 12
_ASCII: Final = str.maketrans({"\u2014": "-", "\u2013": "-", "\u2019": "'", "\u00d7": "x",
                               "\u2026": "..."})


def ascii_text(text: str) -> str:
    """``text`` with dashes and quotes made ASCII and anything else non-ASCII as ``?``."""
    return text.translate(_ASCII).encode("ascii", "replace").decode("ascii")


def _font() -> ImageFont.ImageFont:
    return ImageFont.load_default_imagefont()


class _Painter:
    """Drawing helpers over one 1-bit image."""

    def __init__(self, width: int, height: int) -> None:
        self.image = Image.new("1", (width, height), 0)
        self.draw = ImageDraw.Draw(self.image)
        self.font = _font()
        self.w, self.h = width, height
        self.cols = width // CHAR_W
        self.cut = False  # set when some text did not fit and was shortened

    def text(self, x: int, y: int, text: str, fill: int = 1) -> None:
        self.draw.text((x, y), ascii_text(text), fill=fill, font=self.font)

    def centred(self, y: int, text: str, fill: int = 1) -> None:
        self.cut |= len(ascii_text(text)) > self.cols
        text = ascii_text(text)[: self.cols]
        self.text((self.w - len(text) * CHAR_W) // 2, y, text, fill)

    def header(self, title: str, inverted: bool = True) -> None:
        if inverted:
            self.draw.rectangle((0, 0, self.w - 1, HEADER_H - 1), fill=1)
        else:
            self.draw.line((0, HEADER_H - 1, self.w - 1, HEADER_H - 1), fill=1)
        self.cut |= len(ascii_text(title)) > self.cols - 1
        self.text(2, 0, ascii_text(title)[: self.cols - 1], 0 if inverted else 1)

    def big(self, cx: int, y: int, text: str, invert: bool = False, room: int = 0) -> None:
        """``text`` at twice the size, centred on ``cx``; boxed and inverted if ``invert``.
        Text wider than ``room`` pixels (when given) stays at normal size."""
        text = ascii_text(text)
        if room and len(text) * CHAR_W * 2 > room:
            width = len(text) * CHAR_W + 2
            box = (cx - width // 2, y + 5, cx + width // 2, y + 5 + LINE_H)
            self.draw.rectangle(box, fill=1 if invert else 0)
            self.text(box[0] + 1, y + 5, text, 0 if invert else 1)
            return
        small = Image.new("1", (len(text) * CHAR_W + 2, LINE_H), 1 if invert else 0)
        ImageDraw.Draw(small).text((1, 0), text, fill=0 if invert else 1, font=self.font)
        scaled = small.resize((small.width * 2, small.height * 2), Image.Resampling.NEAREST)
        self.image.paste(scaled, (cx - scaled.width // 2, y))

    def wrapped(self, lines: tuple[str, ...], y: int, max_lines: int,
                centre: bool = False) -> int:
        """Draw ``lines`` word-wrapped from ``y``; returns the y below the last line drawn."""
        out = [w for line in lines for w in textwrap.wrap(ascii_text(line), self.cols) or [""]]
        if len(out) > max_lines:
            self.cut = True
            out = out[: max_lines - 1] + [f"+{len(out) - max_lines + 1} more"]
        for line in out:
            self.centred(y, line) if centre else self.text(1, y, line)
            y += LINE_H
        return y

    def clock_line(self, clock: ClockFace, y: int) -> None:
        """"W 4:59  B 5:00" on one line; the running side inverted, flags marked."""
        half = self.w // 2
        for i, colour in enumerate((WHITE, BLACK)):
            label = f"{'W' if colour == WHITE else 'B'} {_clock_text(clock, colour)}"
            x = i * half
            running = clock.running == colour and not clock.paused
            if running:
                self.draw.rectangle((x, y, x + half - 2, y + LINE_H - 1), fill=1)
            self.text(x + 2, y, label, 0 if running else 1)

    def options(self, options: tuple[str, ...], selected: int | None, y: int) -> None:
        widths = [len(ascii_text(o)) * CHAR_W + 6 for o in options]
        x = max(0, (self.w - sum(widths) - 3 * (len(options) - 1)) // 2)
        for i, (option, width) in enumerate(zip(options, widths, strict=True)):
            chosen = i == selected
            self.draw.rectangle((x, y, x + width - 1, y + LINE_H + 1), outline=1,
                                fill=1 if chosen else 0)
            self.text(x + 3, y + 1, option, 0 if chosen else 1)
            x += width + 3


def _clock_text(clock: ClockFace, colour: int) -> str:
    return "FLAG" if clock.flagged == colour else format_time(clock.seconds(colour))


def _bottom(p: _Painter, screen: Screen) -> None:
    """The last line: the clock if there is one, else the button hint."""
    y = p.h - LINE_H
    if screen.clock is not None:
        p.clock_line(screen.clock, y)
    elif screen.hint:
        p.centred(y, screen.hint)


def _turn(p: _Painter, s: Screen) -> None:
    p.header(s.title)
    if s.clock is None:
        p.wrapped(s.lines, HEADER_H + 4, 4, centre=True)
        return
    half = p.w // 2
    for i, colour in enumerate((WHITE, BLACK)):
        cx = half // 2 + i * half
        p.text(cx - 15, HEADER_H + 1, "White" if colour == WHITE else "Black")
        running = s.clock.running == colour and not s.clock.paused
        p.big(cx, HEADER_H + 13, _clock_text(s.clock, colour), invert=running, room=half - 2)
    p.wrapped(s.lines, p.h - LINE_H, 1, centre=True)


def _prompt(p: _Painter, s: Screen) -> None:
    p.header(s.title)
    room = 3 if not s.options else 2
    p.wrapped(s.lines, HEADER_H + 1, room)
    if s.options:
        p.options(s.options, s.selected, HEADER_H + 1 + 2 * LINE_H + 1)
    _bottom(p, s)


def _announcement(p: _Painter, s: Screen) -> None:
    p.header(s.title, inverted=False)
    p.draw.rectangle((0, HEADER_H + 1, p.w - 1, p.h - LINE_H - 2), outline=1)
    p.wrapped(s.lines, HEADER_H + 4, 3, centre=True)
    _bottom(p, s)


def _error(p: _Painter, s: Screen) -> None:
    p.draw.rectangle((0, 0, p.w - 1, p.h - 1), outline=1)
    p.draw.rectangle((0, 0, p.w - 1, HEADER_H - 1), fill=1)
    p.text(2, 0, "! " + ascii_text(s.title)[: p.cols - 3], 0)
    p.wrapped(s.lines, HEADER_H + 1, 3)
    if s.hint:
        p.centred(p.h - LINE_H - 1, s.hint)


def _correction(p: _Painter, s: Screen) -> None:
    p.header(s.title)
    p.wrapped(s.lines, HEADER_H + 1, 4)


def _paused(p: _Painter, s: Screen) -> None:
    p.header(s.title)
    p.big(p.w // 2, HEADER_H + 1, "PAUSED")
    p.wrapped(s.lines, HEADER_H + 24, 1, centre=True)
    _bottom(p, s)


def _game_over(p: _Painter, s: Screen) -> None:
    p.header(s.title)
    p.big(p.w // 2, HEADER_H + 2, s.lines[0] if s.lines else "")
    p.wrapped(s.lines[1:], HEADER_H + 27, 2, centre=True)


#: Light pixels kept around a code (its quiet zone; a phone needs a light margin to find it).
CODE_MARGIN: Final = 3


def code_geometry(modules: int, height: int) -> tuple[int, int]:
    """(pixels per module, left and top pixel of the first module) of a code of ``modules``
    modules a side drawn on a display ``height`` pixels high (0 pixels: it does not fit)."""
    size = max(0, (height - 2 * CODE_MARGIN) // modules) if modules else 0
    offset = (height - modules * size) // 2
    return size, offset


def _code(p: _Painter, s: Screen) -> None:
    """The code on the left, lit around it (dark modules unlit), the text on the right."""
    n = len(s.picture)
    size, offset = code_geometry(n, p.h)
    right = 0
    if size:
        right = n * size + 2 * offset
        p.draw.rectangle((0, 0, right - 1, p.h - 1), fill=1)
        for y, row in enumerate(s.picture):
            for x, module in enumerate(row):
                if module == "1":
                    x0, y0 = offset + x * size, offset + y * size
                    p.draw.rectangle((x0, y0, x0 + size - 1, y0 + size - 1), fill=0)
    else:
        p.cut = True
    cols = max(1, (p.w - right - 2) // CHAR_W)
    out = [w for line in (s.title, *s.lines) for w in textwrap.wrap(ascii_text(line), cols)]
    p.cut |= len(out) > p.h // LINE_H
    for i, line in enumerate(out[: p.h // LINE_H]):
        p.text(right + 2, 1 + i * LINE_H, line)


_LAYOUTS: Final[dict[ScreenKind, Callable[[_Painter, Screen], None]]] = {
    ScreenKind.TURN: _turn, ScreenKind.PROMPT: _prompt, ScreenKind.ANNOUNCEMENT: _announcement,
    ScreenKind.ERROR: _error, ScreenKind.CORRECTION: _correction, ScreenKind.PAUSED: _paused,
    ScreenKind.GAME_OVER: _game_over, ScreenKind.CODE: _code,
}


def render_image(screen: Screen, width: int = 128, height: int = 64) -> Image.Image:
    """``screen`` drawn on a new 1-bit image of ``width`` x ``height`` pixels."""
    painter = _Painter(width, height)
    _LAYOUTS[screen.kind](painter, screen)
    return painter.image


def fits(screen: Screen, width: int = 128, height: int = 64) -> bool:
    """Whether :func:`render_image` shows all of ``screen``'s text at that size (nothing cut
    short, no "+N more")."""
    painter = _Painter(width, height)
    _LAYOUTS[screen.kind](painter, screen)
    return not painter.cut


def render_text(screen: Screen, cols: int = 16, rows: int = 2) -> tuple[str, ...]:
    """``screen`` as ``rows`` lines of exactly ``cols`` ASCII characters (a character LCD):
    the title, the text, and on the last row the options or the clock. On a turn screen or a
    prompt with options that row always shows; elsewhere the text comes first."""
    return _text_lines(screen, cols, rows)[0]


def text_fits(screen: Screen, cols: int = 16, rows: int = 2) -> bool:
    """Whether :func:`render_text` shows all of ``screen``'s text on a ``cols`` x ``rows`` LCD."""
    return _text_lines(screen, cols, rows)[1]


def _text_lines(screen: Screen, cols: int, rows: int) -> tuple[tuple[str, ...], bool]:
    body = [w for line in screen.lines for w in textwrap.wrap(ascii_text(line), cols)]
    last = _text_last_line(screen, cols)
    lines = [ascii_text(screen.title)] + body
    if screen.kind is ScreenKind.ANNOUNCEMENT and len(body) >= rows:
        lines = body  # "Referee" says nothing the sentence does not
    pinned = screen.kind is ScreenKind.TURN or bool(screen.options)
    wanted = [*lines, last] if last and pinned else lines  # a clock may give way to text
    if last and rows > 1 and (pinned or len(lines) < rows):
        lines = (lines + [""] * rows)[: rows - 1] + [last]
    shown = tuple(line[:cols].ljust(cols) for line in (lines + [""] * rows)[:rows])
    seen = {line.strip() for line in shown}
    return shown, len(wanted) <= rows and all(line.strip() in seen for line in wanted)


def _text_last_line(screen: Screen, cols: int) -> str:
    if screen.options:
        return " ".join(f"[{o}]" if i == screen.selected else o
                        for i, o in enumerate(screen.options))
    if screen.clock is not None:
        c = screen.clock
        marks = {colour: "*" if c.running == colour and not c.paused else " "
                 for colour in (WHITE, BLACK)}
        w = f"W{marks[WHITE]}{_clock_text(c, WHITE)}"
        b = f"B{marks[BLACK]}{_clock_text(c, BLACK)}"
        return w + b.rjust(cols - len(w))
    return ""
