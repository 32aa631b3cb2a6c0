"""Golden pictures of every screen type, rendered through luma's dummy device.

Regenerate after an intended change with::

    GRAVEKEEPER_REGEN_GOLDEN=1 .venv/bin/python -m pytest tests/hardware/test_display_golden.py

then look at the PNGs in tests/hardware/golden/ before committing them.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from hardware.display.backends import open_display
from hardware.display.render import render_text
from hardware.display.screen import ScreenKind
from tests.hardware.screens import SCREENS

GOLDEN = Path(__file__).parent / "golden"
REGEN = os.environ.get("GRAVEKEEPER_REGEN_GOLDEN") == "1"


def _check(image: Image.Image, path: Path) -> None:
    if REGEN:
        image.save(path)
    assert path.exists(), f"missing golden {path.name}: run with GRAVEKEEPER_REGEN_GOLDEN=1"
    with Image.open(path) as stored:
        expected = stored.convert("L")
    actual = image.convert("L")
    assert actual.size == expected.size
    assert ImageChops.difference(actual, expected).getbbox() is None, f"{path.name} differs"


@pytest.mark.parametrize("name", sorted(SCREENS))
def test_oled_screen_matches_golden(name: str) -> None:
    with open_display("dummy") as display:
        display.show(SCREENS[name])
        image = display.device.image.copy()
    assert image.size == (128, 64) and image.mode == "1"
    _check(image, GOLDEN / f"oled-{name}.png")


def test_every_screen_kind_has_a_golden() -> None:
    assert {s.kind for s in SCREENS.values()} == set(ScreenKind)


def test_sh1106_size_matches_too() -> None:
    with open_display("dummy://?width=128&height=32") as display:
        display.show(SCREENS["announcement-zombie"])
        image = display.device.image.copy()
    assert image.size == (128, 32)
    _check(image, GOLDEN / "oled32-announcement-zombie.png")


@pytest.mark.parametrize("cols, rows", [(16, 2), (20, 4)])
def test_character_lcd_matches_golden(cols: int, rows: int) -> None:
    text = "\n\n".join(f"[{name}]\n" + "\n".join(f"|{line}|" for line in
                                                  render_text(SCREENS[name], cols, rows))
                       for name in sorted(SCREENS)) + "\n"
    path = GOLDEN / f"lcd-{cols}x{rows}.txt"
    if REGEN:
        path.write_text(text)
    assert path.read_text() == text


def test_fit_lines_keeps_the_important_sentences_that_fit() -> None:
    from hardware.display.screen import fit_lines

    said = [(2, "p annihilated in Hell on hell:d5"), (2, "P resurrects on d5"),
            (2, "q goes to Hell on hell:d8"), (9, "P hell:e4xhell:d5")]
    assert fit_lines(said) == ("P resurrects on d5", "q goes to Hell on hell:d8")
    assert fit_lines([(0, "x" * 90)]) == ("x" * 90,)  # the first one always stays
    assert fit_lines([]) == ()


def test_fits_tells_when_text_is_cut() -> None:
    from hardware.display import screen as S
    from hardware.display.render import fits, text_fits

    short = S.announcement("No zombie at e2")
    long = S.announcement(" ".join(["Zombie knight rises on c6"] * 4))
    assert fits(short) and text_fits(short, 20, 4)
    assert not fits(long) and not text_fits(long, 20, 4)
    assert not text_fits(S.turn(1, None, "a fairly long sentence here"), 16, 2)
