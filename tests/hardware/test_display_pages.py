"""The OLEDs get only the changed pages: what goes over the bus, and what the panel ends up showing.

Each test runs luma's real SSD1306/SH1106 driver over a stand-in bus that emulates the
controller's display RAM (the addressing commands and the data writes), so the final picture
is checked against luma's own full-frame write, byte for byte, not against our own encoder.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from PIL import Image, ImageDraw

from hardware.display import screen as S
from hardware.display.backends import open_display
from hardware.display.pages import changed_runs, page_bytes, plan_rects
from hardware.sides import BLACK, WHITE

pytestmark = pytest.mark.filterwarnings(
    "ignore:Image.Image.getdata is deprecated:DeprecationWarning")  # inside luma.oled


class RamBus:
    """A luma serial interface that keeps what an SSD1306 (horizontal addressing) or SH1106
    (page addressing) would hold in its display RAM, and counts the data bytes per page."""

    def __init__(self, chip: str, columns: int = 132) -> None:
        self.chip, self.columns = chip, columns
        self.ram = bytearray(columns * 8)
        self.col_range, self.page_range = (0, columns - 1), (0, 7)
        self.col = self.page = 0
        self.data_bytes = 0
        self.pages_written: set[int] = set()
        self.fail = False

    def command(self, *cmd: int) -> None:
        if self.chip == "ssd1306" and cmd[:1] == (0x21,) and len(cmd) == 6 and cmd[3] == 0x22:
            self.col_range, self.page_range = (cmd[1], cmd[2]), (cmd[4], cmd[5])
            self.col, self.page = cmd[1], cmd[4]
        elif self.chip == "sh1106" and len(cmd) == 3 and cmd[0] & 0xF0 == 0xB0:
            self.page = cmd[0] & 0x0F
            self.col = (cmd[1] & 0x0F) | (cmd[2] & 0x0F) << 4
            self.col_range, self.page_range = (0, self.columns - 1), (self.page, self.page)

    def data(self, data: Sequence[int]) -> None:
        if self.fail:
            raise OSError("I2C bus error")
        for byte in data:
            self.ram[self.page * self.columns + self.col] = byte
            self.pages_written.add(self.page)
            self.data_bytes += 1
            if self.col < self.col_range[1]:
                self.col += 1
            elif self.chip == "ssd1306":  # horizontal mode: next page of the window
                self.col = self.col_range[0]
                self.page = self.page + 1 if self.page < self.page_range[1] else \
                    self.page_range[0]

    def cleanup(self) -> None:
        pass

    def take(self) -> tuple[int, set[int]]:
        """(data bytes, pages written) since the last call."""
        out = (self.data_bytes, self.pages_written)
        self.data_bytes, self.pages_written = 0, set()
        return out


def luma_full_write(chip: str, image: Image.Image) -> bytes:
    """The display RAM after luma's own driver writes ``image`` whole (the reference)."""
    import luma.oled.device as oled

    bus = RamBus(chip)
    device = getattr(oled, chip)(bus, width=128, height=64)
    device.display(image)
    return bytes(bus.ram)


FRAMES = [
    S.turn(WHITE, S.ClockFace(300, 300, WHITE), "e2-e4"),
    S.turn(BLACK, S.ClockFace(298, 300, BLACK), "e2-e4"),
    S.turn(BLACK, S.ClockFace(298, 299, BLACK), "e2-e4"),
    S.turn(WHITE, S.ClockFace(298, 297, WHITE), "e7-e5"),
    S.announcement("Zombie knight rises on c6"),
    S.promotion(WHITE),
    S.game_over("0-1", "Ghost takes the king"),
]


@pytest.mark.parametrize("chip", ["ssd1306", "sh1106"])
def test_the_panel_ends_up_as_a_full_write_would_leave_it(chip: str) -> None:
    bus = RamBus(chip)
    display = open_display(chip, serial_interface=bus)
    for frame in FRAMES:
        display.show(frame)
        assert display.last_image is not None
        assert bytes(bus.ram) == luma_full_write(chip, display.last_image), frame.kind
    display.close()


def changed_pages(before: Image.Image, after: Image.Image) -> set[int]:
    old, new = page_bytes(before), page_bytes(after)
    return {p for p in range(8) if old[p * 128:(p + 1) * 128] != new[p * 128:(p + 1) * 128]}


@pytest.mark.parametrize("chip", ["ssd1306", "sh1106"])
def test_only_the_changed_pages_are_sent(chip: str) -> None:
    bus = RamBus(chip)
    display = open_display(chip, serial_interface=bus)
    bus.take()  # luma's own set-up clear
    display.show(FRAMES[0])
    assert bus.take() == (1024, set(range(8)))  # the first frame goes whole
    for before, after in zip(FRAMES, FRAMES[1:4], strict=False):
        assert display.last_image is not None
        last = display.last_image
        display.show(after)
        changed = changed_pages(last, display.last_image)
        sent, pages = bus.take()
        assert pages == changed and 0 < sent <= 128 * len(changed), (before.title, after.title)
        assert sent <= 512  # a move or a clock tick: at most half the 1,024 bytes
    display.show(FRAMES[3])
    assert bus.take() == (0, set())  # the same frame again: nothing at all
    display.close()


@pytest.mark.parametrize("chip", ["ssd1306", "sh1106"])
def test_redraw_and_a_failed_write_send_everything_again(chip: str) -> None:
    bus = RamBus(chip)
    display = open_display(chip, serial_interface=bus)
    display.show(FRAMES[0])
    bus.take()
    bus.ram[:] = bytes(len(bus.ram))  # the display was reset: its RAM is blank again
    display.redraw()
    display.show(FRAMES[0])
    assert bus.take() == (1024, set(range(8)))
    assert bytes(bus.ram) == luma_full_write(chip, display.last_image)  # type: ignore[arg-type]
    bus.fail = True
    with pytest.raises(OSError):
        display.show(FRAMES[3])
    bus.fail = False
    bus.take()
    display.show(FRAMES[3])
    assert bus.take() == (1024, set(range(8)))
    assert bytes(bus.ram) == luma_full_write(chip, display.last_image)  # type: ignore[arg-type]
    display.close()


def test_a_rotated_panel_gets_the_rotated_picture() -> None:
    import luma.oled.device as oled

    bus = RamBus("ssd1306")
    display = open_display("ssd1306://1/0x3C?rotate=2", serial_interface=bus)
    for frame in FRAMES[:3]:
        display.show(frame)
    reference = RamBus("ssd1306")
    oled.ssd1306(reference, rotate=2).display(display.last_image)
    assert bytes(bus.ram) == bytes(reference.ram)
    display.close()


def test_page_bytes_put_the_top_row_in_bit_zero() -> None:
    image = Image.new("1", (128, 64))
    draw = ImageDraw.Draw(image)
    draw.point((0, 0), 1)
    draw.point((3, 9), 1)
    draw.point((127, 63), 1)
    raw = page_bytes(image)
    assert len(raw) == 1024 and raw[0] == 1 and raw[128 + 3] == 2 and raw[7 * 128 + 127] == 128
    assert sum(map(bool, raw)) == 3


def test_neighbouring_pages_are_joined_when_it_costs_the_bus_less() -> None:
    runs = {2: [(40, 90)], 3: [(40, 90)], 7: [(0, 5), (100, 110)]}
    assert plan_rects(runs, 6, rectangles=True) == [(2, 3, 40, 90), (7, 7, 0, 5),
                                                    (7, 7, 100, 110)]
    assert plan_rects(runs, 3, rectangles=False) == [(2, 2, 40, 90), (3, 3, 40, 90),
                                                     (7, 7, 0, 5), (7, 7, 100, 110)]
    whole = {p: [(0, 127)] for p in range(8)}
    assert plan_rects(whole, 6, rectangles=True) == [(0, 7, 0, 127)]  # luma's 1,030 bytes


def test_changed_columns_close_together_go_as_one_run() -> None:
    old = bytes(256)
    new = bytearray(old)
    new[3] = new[9] = new[60] = 1  # page 0: 3 and 9 are 5 apart, 60 is far
    new[128 + 127] = 1
    assert changed_runs(old, bytes(new), 128, gap=10) == {0: [(3, 9), (60, 60)],
                                                          1: [(127, 127)]}
    assert changed_runs(None, bytes(new), 128, gap=10) == {0: [(0, 127)], 1: [(0, 127)]}
    assert changed_runs(bytes(new), bytes(new), 128, gap=10) == {}
