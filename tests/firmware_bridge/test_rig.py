"""Rig files: built-ins, orientation, and validation errors that name file and key."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_bridge.errors import RigError
from firmware_bridge.rig import BUILTIN_RIGS, builtin_rig, grid_to_board, load_rig, parse_rig


def test_builtin_rigs_cover_every_variant() -> None:
    sizes = {name: sorted((m.name, m.size) for m in builtin_rig(name).modules)
             for name in BUILTIN_RIGS}
    assert sizes["standard"] == [("main", 64)]
    assert sizes["deadmans"] == [("hell", 64), ("main", 64)]
    assert sizes["ghost"] == [("main", 64), ("ring", 32)]
    assert sizes["afterlife"] == [("hall", 5), ("hours", 8), ("limbo", 1), ("world", 28)]
    ghost = builtin_rig("ghost")
    assert len(ghost.squares) == 96 and {"a0", "z5", "i3", "d9"} <= ghost.squares
    assert "a5" in builtin_rig("afterlife").squares and "e1" not in builtin_rig("afterlife").squares
    assert builtin_rig("deadmans").cell_of("hell:b1") == ("hell", 1)
    assert load_rig("ghost").name == "ghost"


def test_rotation_maps_cells() -> None:
    text = '[[module]]\nname = "main"\nrotation = {}\n'
    assert parse_rig(text.format(0)).square_of("main", 0) == "a1"
    r180 = parse_rig(text.format(180))
    assert (r180.square_of("main", 0), r180.square_of("main", 63)) == ("h8", "a1")
    r90 = parse_rig(text.format(90))
    assert (r90.square_of("main", 0), r90.square_of("main", 7)) == ("a8", "a1")
    r270 = parse_rig(text.format(270))
    assert r270.square_of("main", 0) == "h1"
    for rot in (0, 90, 180, 270):
        assert len(parse_rig(text.format(rot)).squares) == 64


def test_grid_to_board_is_a_bijection_on_rectangles() -> None:
    for rot in (0, 90, 180, 270):
        w, h = 4, 7
        fw, fh = (w, h) if rot in (0, 180) else (h, w)
        seen = {grid_to_board(c, r, w, h, rot) for r in range(h) for c in range(w)}
        assert seen == {(f, k) for f in range(fw) for k in range(fh)}


def test_rotated_afterlife_world() -> None:
    rig = parse_rig('[[module]]\nname="world"\nwidth=4\nheight=7\nrotation=180\n')
    assert rig.square_of("world", 0) == "d7"


@pytest.mark.parametrize(("text", "message"), [
    ("module = [", "not valid TOML"),
    ('nme = "x"\n[[module]]\nname="main"', "nme: unknown key"),
    ("name = 1\n[[module]]\nname='main'", "name: expected str"),
    ('name = "x"', "module: at least one"),
    ('[[module]]\nname="main"\nrotation=45', "module 'main'.rotation: must be one of"),
    ('[[module]]\nname="main"\nwidth=true', "module 'main'.width: expected int"),
    ('[[module]]\nname="main"\ncolour="red"', "module 'main'.colour: unknown key"),
    ('[[module]]\nname="ring"\nkind="ring"', "needs an explicit cells list"),
    ('[[module]]\nname="ring"\nkind="ring"\ncells=["a0","a0"]', "'a0' is already mapped"),
    ('[[module]]\nname="r"\nkind="strip"\ncells=["e44"]', "cells[0]: 'e44' is not a square"),
    ('[[module]]\nname="r"\nkind="strip"\ncells=["a1"]\nwidth=2', "1 cells but the module is 2x1"),
    ('[[module]]\nname="main"\nfiles="abc"', "need 8 files and 8 ranks"),
    ('[[module]]\nname="main"\n[[module]]\nname="main"\nregion="hell"', "two modules"),
    ('[[module]]\nname="main"\n[buttons]\nstart=1', "buttons.start: unknown button"),
    ('[[module]]\nname="main"\n[buttons]\nconfirm=1\nback=1', "index 1 is already"),
    ('[[module]]\nname="main"\n[leds]\nbrightness=3', "leds.brightness"),
    ('[[module]]\nname="main"\n[leds]\nchain=["hell"]', "leds.chain: 'hell'"),
    ('[[module]]\nname="main"\n[display]\nwidth="wide"', "display.width: expected int"),
])
def test_bad_rigs_name_file_and_key(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "my.toml"
    path.write_text(text)
    with pytest.raises(RigError) as info:
        load_rig(path)
    assert str(info.value).startswith(str(path) + ": ")
    assert message in str(info.value)
    assert isinstance(info.value, ValueError)


def test_missing_rig_file_and_unknown_builtin(tmp_path: Path) -> None:
    with pytest.raises(RigError, match="cannot read rig file"):
        load_rig(tmp_path / "nope.toml")
    with pytest.raises(RigError, match="no built-in rig 'chess960'"):
        builtin_rig("chess960")


def test_hardware_keys_kept_as_plain_data() -> None:
    rig = parse_rig('[[module]]\nname="main"\n[leds]\nkind="ws2812"\nfuture_key=3\n'
                    '[display]\nkind="ssd1306"\naddress=60\n[buttons]\nroll=7')
    assert rig.leds["future_key"] == 3 and rig.display["address"] == 60
    assert rig.buttons == {7: "roll"}
    with pytest.raises(TypeError):
        rig.leds["kind"] = "x"  # type: ignore[index]


def test_implicit_regions_are_said_by_the_rig_file() -> None:
    text = ('implicit_regions = ["earth"]\n[[module]]\nname = "main"\nkind = "strip"\n'
            'cells = ["earth:e4", "hell:a1", "world:a2"]\n')
    assert parse_rig(text).modules[0].cells == ("e4", "hell:a1", "world:a2")
    with pytest.raises(RigError, match="implicit_regions: 'Earth:' is not a region name"):
        parse_rig('implicit_regions = ["Earth:"]\n' + text.partition("\n")[2])


def test_a_board_fitting_several_rigs_gets_the_fallback() -> None:
    from firmware_bridge.board import default_rig_for

    assert default_rig_for(["main"]).name == "standard"
    assert default_rig_for(["hell", "main"]).name == "deadmans"
    with pytest.raises(RigError, match="expected true or false"):
        parse_rig('fallback = "yes"\n[[module]]\nname = "main"\n')
