"""The scene model and the visual language."""

from __future__ import annotations

import itertools

import pytest

from hardware.leds import language as L
from hardware.leds.scene import DARK, Colour, LedScene, Light, Pattern, compose
from referee.app.present import marker_arrival, marker_departure, marker_layer
from referee.rules.variants.deadmans import TOMBSTONE
from referee.rules.variants.zombie import COIN


def test_light_validates_its_values() -> None:
    with pytest.raises(ValueError, match="level"):
        Light(Colour.WHITE, level=1.5)
    with pytest.raises(ValueError, match="phase"):
        Light(Colour.WHITE, phase=1.0)
    with pytest.raises(ValueError, match="colour"):
        Light((300, 0, 0))


def test_scenes_are_values() -> None:
    a = LedScene({"e4": Light(Colour.WHITE), "a1": Light(Colour.BLUE)}, "x")
    b = LedScene({"a1": Light(Colour.BLUE), "e4": Light(Colour.WHITE)}, "x")
    assert a == b and hash(a) == hash(b)
    assert list(a) == ["a1", "e4"]
    with pytest.raises(TypeError):
        a.lights["h8"] = Light(Colour.WHITE)  # type: ignore[index]


def test_square_order_puts_main_region_first() -> None:
    scene = LedScene.of(["hell:a1", "e4", "a0", "limbo", "hours:b2"], Light(Colour.WHITE))
    assert list(scene) == ["a0", "limbo", "e4", "hell:a1", "hours:b2"]


def test_over_compose_without_only() -> None:
    below = marker_layer(TOMBSTONE, ["e4", "d5"])
    above = L.last_move("e2", "e4")
    both = compose(below, above)
    assert both["e4"].reason == "last move: to"
    assert both["d5"].reason == "tombstone"
    assert both.without(["d5"]).get("d5") is None
    assert set(both.only(["e2", "h8"])) == {"e2"}
    assert compose() == DARK.named("")


def test_last_move_from_is_fainter_than_to() -> None:
    scene = L.last_move("e1", "g1", ("h1", "f1"))
    assert set(scene) == {"e1", "g1", "h1", "f1"}
    assert scene["e1"].luminance < scene["g1"].luminance
    assert all(light.pattern is Pattern.STEADY for light in scene.lights.values())


def test_lifted_piece_shows_targets_and_captures() -> None:
    scene = L.lifted("g1", ["f3", "h3"], ["e2"])
    assert scene["g1"].pattern is Pattern.PULSE
    assert scene["f3"].pattern is Pattern.STEADY
    assert scene["e2"].colour == Colour.ORANGE and scene["e2"].luminance > scene["f3"].luminance


@pytest.mark.parametrize("scene, place, lift", [
    (L.carry(["hell:b1", "hell:g1"], "c3"), {"hell:b1", "hell:g1"}, {"c3"}),
    (L.carry(["a0", "z1"]), {"a0", "z1"}, set()),
    (L.carry(["limbo"], "b4"), {"limbo"}, {"b4"}),
    (marker_arrival(COIN, ["c6"]), {"c6"}, set()),
    (marker_departure(COIN, ["d4", "f4"]), set(), {"d4", "f4"}),
    (L.correction(empty=["a3"], fill=["e2"]), {"e2"}, {"a3"}),
    (L.resurrection(["e5", "c6"]), {"e5", "c6"}, set()),
    (L.choose(["hell:a2"], "hell home"), {"hell:a2"}, set()),
])
def test_place_and_lift_are_told_apart_by_timing(scene: LedScene, place: set[str],
                                                  lift: set[str]) -> None:
    blinking = {sq: li for sq, li in scene.lights.items() if li.pattern is Pattern.SLOW_BLINK}
    assert {sq for sq, li in blinking.items() if li.phase == 0.0} == place
    assert {sq for sq, li in blinking.items() if li.phase == L.LIFT_PHASE} == lift


def test_wrong_things_blink_fast_and_attention_pulses() -> None:
    illegal = L.illegal_move(["h5"], back_to=["g4"])
    assert illegal["h5"].pattern is Pattern.FAST_BLINK
    assert illegal["g4"].pattern is Pattern.SLOW_BLINK
    assert set(L.capture_failed("b1", "c3")) == {"b1", "c3"}
    assert L.check("e8", ["b5"])["e8"].pattern is Pattern.PULSE
    assert L.promotion("e8")["e8"].pattern is Pattern.PULSE
    pause = L.arbiter_pause(["a1", "h8", "hell:a1"])
    assert len(pause) == 3 and all(li.pattern is Pattern.PULSE for li in pause.lights.values())


def test_swap_squares_alternate() -> None:
    scene = L.correction(swap=[("d1", "e1")])
    assert {scene["d1"].phase, scene["e1"].phase} == {0.0, L.LIFT_PHASE}
    assert scene["d1"].colour == scene["e1"].colour == Colour.YELLOW


def test_die_moves_and_markers() -> None:
    die = L.die_moves("a1", ["a2"], ["b2"])
    assert die["a1"].pattern is Pattern.PULSE and die["a2"].pattern is Pattern.STEADY
    assert marker_layer(TOMBSTONE, ["e4"])["e4"].level == L.LEVEL_FAINT
    assert marker_layer(COIN, ["c6"])["c6"].colour == Colour.GREEN


ALL_SITUATIONS = [
    L.last_move("e2", "e4"), L.lifted("g1", ["f3"], ["h3"]), L.check("e8", ["b5"]),
    L.carry(["hell:b1"], "c3"), L.carry(["a0"], "a1"), L.carry(["limbo"], "b4"),
    L.resurrection(["e5"], "hell:c4"), marker_layer(TOMBSTONE, ["e5"]),
    marker_layer(COIN, ["c6"]), marker_arrival(COIN, ["c6"]), marker_departure(COIN, ["d4"]),
    L.die_moves("a1", ["a2"], ["b2"]),
    L.illegal_move(["h5"], ["g4"]), L.capture_failed("b1", "c3"),
    L.correction(["a3"], ["e2"], [("d1", "e1")]), L.promotion("e8"), L.arbiter_pause(["a1"]),
]


def _action(light: Light) -> tuple[Pattern, float]:
    return light.pattern, light.phase


def test_readable_without_colour() -> None:
    # Inside one situation, two lights that mean different things must differ by pattern,
    # timing (phase) or clearly by brightness: never by colour alone.
    for scene in ALL_SITUATIONS:
        for a, b in itertools.combinations(scene.lights.values(), 2):
            if a.reason == b.reason or a.reason.startswith("swap"):
                continue
            same_look = _action(a) == _action(b)
            assert not same_look or abs(a.luminance - b.luminance) > 0.15, (scene.name, a, b)


def test_each_action_class_keeps_one_pattern_across_situations() -> None:
    # "Put a piece here" is always a slow blink in phase, "take it" always in antiphase.
    for scene in ALL_SITUATIONS:
        for light in scene.lights.values():
            if light.pattern is Pattern.SLOW_BLINK and "take" in light.reason:
                assert light.phase == L.LIFT_PHASE
            if light.pattern is Pattern.FAST_BLINK:
                assert light.colour == Colour.VERMILLION


def test_colours_and_marker_styles_by_name() -> None:
    assert Colour.named("purple") == Colour.PURPLE and Colour.named("Green") == Colour.GREEN
    for bad in ("mauve", "named", "", "__class__"):
        with pytest.raises(ValueError, match="unknown LED colour"):
            Colour.named(bad)
    with pytest.raises(ValueError, match="unknown marker style 'glow'"):
        L.marked(["a1"], "green", "glow", "x")
    assert L.marked(["a1"], "purple", "faint", "tombstone", "tombstones") == marker_layer(
        TOMBSTONE, ["a1"])
