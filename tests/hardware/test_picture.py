"""Pictures of frames and scenes (the mock backend's PNGs and the docs)."""

from __future__ import annotations

import pytest

from hardware.leds import language as L
from hardware.leds.picture import CELL, place_of, render_frame, render_scene, variant_squares


def test_variant_layouts() -> None:
    assert len(variant_squares("standard")) == 64
    assert len(variant_squares("deadmans")) == 128
    assert len(variant_squares("ghost")) == 96
    assert len(variant_squares("afterlife")) == 28 + 1 + 8 + 5
    with pytest.raises(ValueError):
        variant_squares("fairy")


def test_places() -> None:
    assert (place_of("a1").panel, place_of("a1").x, place_of("a1").y) == ("", 0, 0)
    assert (place_of("z1").x, place_of("i8").x, place_of("a0").y, place_of("a9").y) == \
        (-1, 8, -1, 8)
    assert place_of("hell:h8").panel == "hell"
    assert (place_of("hours:g2").x, place_of("hours:d3").x) == (2, 3)
    assert place_of("limbo").panel == "limbo"


def test_frame_picture_shows_the_colour_on_the_square() -> None:
    image = render_frame({"e4": (255, 0, 0)}, variant_squares("standard"))
    e4 = render_frame({}, variant_squares("standard"))
    assert image.size == e4.size
    diff = [(x, y) for x in range(image.width) for y in range(image.height)
            if image.getpixel((x, y)) != e4.getpixel((x, y))]
    xs = [x for x, _ in diff]
    assert diff and max(xs) - min(xs) < CELL  # one square changed
    assert (255, 0, 0) in {image.getpixel(p) for p in diff}


def test_scene_picture_has_a_legend_line_per_look() -> None:
    scene = L.hell_home(["hell:b1", "hell:g1"], "c3")
    one = render_scene(L.to_limbo(), variant_squares("deadmans"))
    two = render_scene(scene, variant_squares("deadmans"))
    assert two.height > one.height  # two legend lines against one
