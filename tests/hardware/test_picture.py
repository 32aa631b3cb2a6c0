"""Pictures of frames and scenes (the mock backend's PNGs and the docs)."""

from __future__ import annotations

from hardware.leds import language as L
from hardware.leds.picture import BORDER, CELL, PLAIN, Spot, place_of, render_frame, render_scene
from referee.app.present import picture_spots
from referee.rules.variants import make_variant


def variant_squares(name: str) -> dict[str, Spot]:
    return picture_spots(make_variant(name).layout)


def test_variant_layouts_come_from_the_variants() -> None:
    assert len(variant_squares("standard")) == 64
    assert len(variant_squares("deadmans")) == 128
    assert len(variant_squares("ghost")) == 96
    assert len(variant_squares("afterlife")) == 28 + 1 + 8 + 5


def test_places() -> None:
    ghost, afterlife = variant_squares("ghost"), variant_squares("afterlife")
    assert ghost["a1"] == Spot("Board", 0, 0)
    assert (ghost["z1"].x, ghost["i8"].x, ghost["a0"].y, ghost["a9"].y) == (-1, 8, -1, 8)
    assert ghost["a0"].look == BORDER
    assert variant_squares("deadmans")["hell:h8"].panel == "Hell"
    assert (afterlife["hours:g2"].x, afterlife["hours:d3"].x) == (2, 3)
    assert afterlife["limbo"] == Spot("Limbo", 0, 0, PLAIN)
    assert place_of("hell:b3") == Spot("Hell", 1, 2)  # without a map: by name


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
    scene = L.carry(["hell:b1", "hell:g1"], "c3", "hell home")
    one = render_scene(L.carry(["limbo"]), variant_squares("deadmans"))
    two = render_scene(scene, variant_squares("deadmans"))
    assert two.height > one.height  # two legend lines against one
