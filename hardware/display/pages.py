"""Send an OLED only what changed: the frame as the controller's pages, diffed with the last sent.

Why: an SSD1306/SH1106 frame is 1,024 bytes of display RAM (8 pages of 128 columns, one byte
per column of 8 pixels, bit 0 on top) plus the addressing commands: about 23 ms on I2C at
400 kHz and 93 ms at 100 kHz, while a move or a clock tick changes a line of text. The
controller lets the host address any column range of any page (SSD1306: ``COLUMNADDR`` and
``PAGEADDR`` in horizontal addressing mode, which luma sets up; SH1106: page addressing,
``0xB0 | page`` and the column's two nibbles), so :class:`PageWriter` keeps the bytes last
sent and writes, per changed page, only the runs of changed columns (two runs a few equal
columns apart go as one: another write costs more than resending them), joining neighbouring
pages into one rectangle where that costs the bus less.

What the display shows is only known after a frame went through whole: the first frame, the
one after :meth:`PageWriter.forget` (the display was reset or reconnected) and the one after
a failed write are sent in full.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

from PIL import Image

#: SSD1306 commands (datasheet 10.1.4-5): set the column range, set the page range.
COLUMNADDR: Final = 0x21
PAGEADDR: Final = 0x22
#: SH1106 commands: page address, then the column address's low and high nibbles.
SETPAGE: Final = 0xB0
SETLOWCOLUMN: Final = 0x00
SETHIGHCOLUMN: Final = 0x10
#: The bus cost model (I2C): 9 bit times per byte (8 + ack) and about 20 more per transfer
#: (start, address byte and ack, the control byte, stop).
BYTE_BITS: Final = 9
TRANSFER_BITS: Final = 20

#: A write: first page, last page, first column, last column (all inclusive).
Rect = tuple[int, int, int, int]


def page_bytes(image: Image.Image) -> bytes:
    """The display RAM image of a 1-bit ``image`` whose height is a multiple of 8: page after
    page, one byte per column, bit 0 the page's top row (as the SSD1306 and SH1106 take it)."""
    pages = image.height // 8
    columns = image.transpose(Image.Transpose.TRANSPOSE).tobytes("raw", "1;R")
    return b"".join(columns[p::pages] for p in range(pages))


def changed_runs(old: bytes | None, new: bytes, width: int,
                 gap: int) -> dict[int, list[tuple[int, int]]]:
    """Per page that differs, its runs of differing columns (first, last), two runs joined
    when at most ``gap`` equal columns part them (every page whole if ``old`` is None)."""
    runs: dict[int, list[tuple[int, int]]] = {}
    for page in range(len(new) // width):
        start = page * width
        row = new[start:start + width]
        if old is None:
            runs[page] = [(0, width - 1)]
            continue
        before = old[start:start + width]
        if row == before:
            continue
        found: list[tuple[int, int]] = []
        col = 0
        while col < width:
            if row[col] == before[col]:
                col += 1
                continue
            first = col
            while col < width and row[col] != before[col]:
                col += 1
            if found and first - found[-1][1] - 1 <= gap:
                found[-1] = (found[-1][0], col - 1)
            else:
                found.append((first, col - 1))
        runs[page] = found
    return runs


def write_bits(rect: Rect, command_bytes: int) -> int:
    """Bus bit times of writing ``rect`` with one command and one data transfer."""
    p0, p1, c0, c1 = rect
    return BYTE_BITS * (command_bytes + (p1 - p0 + 1) * (c1 - c0 + 1)) + 2 * TRANSFER_BITS


def gap_columns(command_bytes: int) -> int:
    """How many equal columns are cheaper to send again than to skip with another write."""
    return (BYTE_BITS * command_bytes + 2 * TRANSFER_BITS) // BYTE_BITS


def plan_rects(runs: dict[int, list[tuple[int, int]]], command_bytes: int,
               rectangles: bool) -> list[Rect]:
    """The writes covering ``runs`` at the least bus cost: one per run, or with
    ``rectangles`` runs of pages joined into one rectangle (from the first to the last changed
    column of the group; the unchanged bytes inside are sent again, which is harmless)."""
    pages = sorted(runs)
    alone = {p: [(p, p, lo, hi) for lo, hi in runs[p]] for p in pages}
    if not rectangles:
        return [rect for p in pages for rect in alone[p]]
    cost = {p: sum(write_bits(r, command_bytes) for r in alone[p]) for p in pages}
    # best[j]: the cheapest writes for the first j changed pages (a few pages: quadratic).
    best: list[tuple[int, list[Rect]]] = [(0, [])]
    for j in range(1, len(pages) + 1):
        p = pages[j - 1]
        choice = (best[j - 1][0] + cost[p], [*best[j - 1][1], *alone[p]])
        for i in range(j):
            group = pages[i:j]
            rect = (group[0], group[-1], min(runs[q][0][0] for q in group),
                    max(runs[q][-1][1] for q in group))
            bits = best[i][0] + write_bits(rect, command_bytes)
            if bits < choice[0]:
                choice = (bits, [*best[i][1], rect])
        best.append(choice)
    return best[-1][1]


class PageWriter:
    """Writes frames to an SSD1306 (``addressing="horizontal"``) or SH1106 (``"page"``)
    through luma-like ``command(*bytes)`` and ``data(bytes)`` calls, only the changed part.

    ``column_offset`` is where the panel's first column sits in the controller's RAM (luma's
    ``colstart`` for an SSD1306, ``page_address_offset`` for an SH1106).
    """

    def __init__(self, command: Callable[..., Any], data: Callable[[Sequence[int]], Any],
                 width: int, height: int, *, addressing: str = "horizontal",
                 column_offset: int = 0) -> None:
        if addressing not in ("horizontal", "page"):
            raise ValueError(f"unknown addressing {addressing!r} (horizontal or page)")
        if height % 8:
            raise ValueError(f"the height must be a multiple of 8, not {height}")
        self._command, self._data = command, data
        self.width, self.height = width, height
        self.addressing = addressing
        self.column_offset = column_offset
        self._sent: bytes | None = None
        #: what the writes so far cost: bytes (commands and data) and transfers
        self.bytes_sent = 0
        self.transfers = 0

    @classmethod
    def for_device(cls, device: Any) -> PageWriter | None:
        """A writer for a luma ``ssd1306`` or ``sh1106`` device (its own commands and data
        calls, its column offset), or None for any other device."""
        kind = type(device).__name__
        if kind == "ssd1306":
            return cls(device.command, device.data, device.width, device.height,
                       column_offset=getattr(device, "_colstart", 0))
        if kind == "sh1106":
            return cls(device.command, device.data, device.width, device.height,
                       addressing="page",
                       column_offset=getattr(device, "_page_address_offset", 2))
        return None

    def forget(self) -> None:
        """The display's content is unknown (reset, reconnected): send the next frame whole."""
        self._sent = None

    def write(self, image: Image.Image) -> list[Rect]:
        """Send the parts of ``image`` (1-bit, already rotated for the panel) that differ from
        the last frame sent; returns the rectangles written (none if nothing changed).

        Raises:
            whatever the bus raises; the next frame is then sent whole.
        """
        if image.size != (self.width, self.height):
            raise ValueError(f"a {image.width}x{image.height} frame for a "
                             f"{self.width}x{self.height} display")
        new = page_bytes(image)
        horizontal = self.addressing == "horizontal"
        command_bytes = 6 if horizontal else 3
        runs = changed_runs(self._sent, new, self.width, gap_columns(command_bytes))
        rects = plan_rects(runs, command_bytes, rectangles=horizontal)
        self._sent = None  # unknown until every write went through
        for rect in rects:
            self._send(rect, new)
        self._sent = new
        return rects

    def _send(self, rect: Rect, frame: bytes) -> None:
        p0, p1, c0, c1 = rect
        w, off = self.width, self.column_offset
        command: tuple[int, ...]
        if self.addressing == "horizontal":
            command = (COLUMNADDR, off + c0, off + c1, PAGEADDR, p0, p1)
        else:
            col = off + c0
            command = (SETPAGE | p0, SETLOWCOLUMN | col & 0x0F, SETHIGHCOLUMN | col >> 4)
        payload = b"".join(frame[p * w + c0:p * w + c1 + 1] for p in range(p0, p1 + 1))
        self._command(*command)
        self._data(list(payload))
        self.bytes_sent += len(command) + len(payload)
        self.transfers += 2
