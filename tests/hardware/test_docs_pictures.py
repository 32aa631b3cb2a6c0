"""The pictures of docs/leds.md: one per situation, drawn by the mock backend's renderer.

They are golden files too: regenerate with ``GRAVEKEEPER_REGEN_GOLDEN=1`` (see
test_display_golden.py) and look at them before committing.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Final

import pytest
from PIL import Image, ImageChops

from hardware.leds import language as L
from hardware.leds.backends import MockLeds
from hardware.leds.picture import Spot, render_scene
from hardware.leds.player import LedPlayer
from hardware.leds.scene import LedScene, compose
from referee.app.present import marker_arrival, marker_departure, marker_layer, picture_spots
from referee.rules.variants import make_variant
from referee.rules.variants.deadmans import TOMBSTONE
from referee.rules.variants.zombie import COIN


def variant_squares(name: str) -> dict[str, Spot]:
    return picture_spots(make_variant(name).layout)


DOCS: Final = Path(__file__).resolve().parents[2] / "docs" / "leds"
REGEN: Final = os.environ.get("GRAVEKEEPER_REGEN_GOLDEN") == "1"
HELL_PAWN_HOMES: Final = [f"hell:{f}7" for f in "abcdefgh" if f not in "ce"]
KNIGHT_G4: Final = ["f6", "h6", "e3", "e5", "f2", "h2"]

#: name -> (variant layout, title, scene)
SITUATIONS: Final[dict[str, tuple[str, str, LedScene]]] = {
    "last-move": ("standard", "Last move e2-e4", L.last_move("e2", "e4")),
    "castling": ("standard", "Last move O-O", L.last_move("e1", "g1", ("h1", "f1"))),
    "lifted": ("standard", "Knight lifted from g4", L.lifted("g4", KNIGHT_G4[:4] + ["h2"],
                                                              ["f2"])),
    "check": ("standard", "Black in check", L.check("e8", ["b5"])),
    "hell-home": ("deadmans", "Captured pawn to a vacant Hell home",
                  compose(L.last_move("c4", "f7"),
                          L.carry(HELL_PAWN_HOMES, None, "hell home").named("hell home"))),
    "ghost-spawn": ("ghost", "Ghost spawn: a1 ties between a0 and z1",
                    compose(L.last_move("f6", "a1"),
                            L.carry(["a0", "z1"], None, "ghost spawn").named("ghost spawn"))),
    "en-passant": ("ghost", "En passant: take the pawn from d5 to its ghost cell",
                   compose(L.last_move("e5", "d6"),
                           L.carry(["d9", "z5"], "d5", "ghost spawn").named("ghost spawn"))),
    "limbo": ("afterlife", "Captured Warrior to Limbo",
              compose(L.last_move("b2", "b4"),
                      L.carry(["limbo"], None, "to limbo").named("to limbo"))),
    "resurrection": ("deadmans", "A Hell capturer may rise on a tombstone",
                     compose(marker_layer(TOMBSTONE, ["e5", "c6", "g3"]),
                             L.resurrection(["e5", "c6", "g3"], "hell:c4"))),
    "tombstones": ("deadmans", "Tombstones under the last move",
                   compose(marker_layer(TOMBSTONE, ["e5", "c6", "f7"]), L.last_move("d1", "h5"))),
    "zombie-reveal": ("zombie", "Zombie knight rises on c6",
                      compose(marker_layer(COIN, ["f3"]),
                              marker_arrival(COIN, ["c6"]).named("zombie reveal"))),
    "zombie-rot": ("zombie", "Unmoved zombies rot",
                   marker_departure(COIN, ["d4", "f3"]).named("zombie rot")),
    "die-moves": ("die", "Die shows a knight on d4", L.die_moves("d4", [
        "b3", "b5", "c2", "c6", "e2", "e6", "f3"], ["f5"])),
    "illegal-move": ("standard", "Illegal: knight put on h5", L.illegal_move(["h5"], ["g4"])),
    "capture-failed": ("masquerade", "Capture attempt failed", L.capture_failed("b1", "c3")),
    "correction": ("standard", "Fix the board", L.correction(["a3"], ["e2"], [("d1", "e1")])),
    "promotion": ("standard", "Promote on e8: choose on the display", L.promotion("e8")),
    "arbiter-pause": ("deadmans", "Paused by the arbiter",
                      L.arbiter_pause(tuple(variant_squares("deadmans")))),
}


@pytest.mark.parametrize("name", sorted(SITUATIONS))
def test_docs_picture(name: str) -> None:
    variant, title, scene = SITUATIONS[name]
    places = variant_squares(variant)
    leds = MockLeds(tuple(places))
    with LedPlayer(leds, animate=False) as player:
        player.show(scene)  # the scene really goes through the player and backend
        assert leds.last == dict(player.last_frame)
    image = render_scene(scene, places, title=title)
    path = DOCS / f"{name}.png"
    if REGEN:
        DOCS.mkdir(parents=True, exist_ok=True)
        image.save(path)
    with Image.open(path) as stored:
        expected = stored.convert("RGB")
    assert ImageChops.difference(image, expected).getbbox() is None, f"{path.name} differs"
