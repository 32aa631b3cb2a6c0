"""From game events to scenes and screens; hidden information never gets through."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from hardware.display.screen import ClockFace, ScreenKind
from hardware.leds.scene import Pattern
from referee.app.capture import StepCapture
from referee.app.present import Presenter, picture_spots
from referee.rules.events import (
    Announcement,
    CaptureAttempt,
    Captured,
    GameEnded,
    Marker,
    Moved,
    Placed,
    Prompt,
    Removed,
)
from referee.rules.pieces import BLACK, WHITE
from referee.rules.variants import make_variant
from referee.rules.variants.deadmans import HOME, TOMBSTONE
from referee.rules.variants.die import ROLL
from referee.rules.variants.zombie import COIN

CLOCK = ClockFace(290.0, 300.0, running=BLACK)


def test_a_plain_move() -> None:
    out = Presenter().update([Moved("e2-e4", piece="P", frm="e2", to="e4")], turn=BLACK,
                             clock=CLOCK)
    assert set(out.scene) == {"e2", "e4"}
    assert out.screen.kind is ScreenKind.TURN and out.screen.title == "Black to move"
    assert out.screen.lines == ("e2-e4",) and out.screen.clock == CLOCK


def test_castling_lights_both_pieces() -> None:
    out = Presenter().update([Moved("O-O", frm="e1", to="g1"), Moved("", frm="h1", to="f1")],
                             turn=BLACK)
    assert set(out.scene) == {"e1", "g1", "h1", "f1"}
    king = Presenter().update([Moved("K e1-c1", piece="K", frm="e1", to="c1"),
                               Moved("R a1-d1", piece="R", frm="a1", to="d1")], turn=BLACK)
    assert king.screen.lines == ("O-O-O",)


def test_dead_mans_capture_tombstone_and_home_prompt() -> None:
    p = Presenter()
    out = p.update([
        Moved("Bxf7", frm="c4", to="f7"), Captured("", piece="p", square="f7"),
        TOMBSTONE.put("", "f7"),
        HOME.prompt("Black: put the pawn on a vacant Hell home", BLACK,
                    ("home=hell:a7", "home=hell:b7")),
    ], turn=BLACK)
    assert out.scene["hell:a7"].pattern is Pattern.SLOW_BLINK
    assert out.scene["hell:a7"].reason == "hell home"
    assert out.screen.kind is ScreenKind.PROMPT and out.screen.colour == BLACK
    assert "Hell home" in out.screen.lines[0]
    later = p.update([Moved("Nc3", frm="b1", to="c3")], turn=BLACK)
    assert later.scene["f7"].reason == "tombstone"  # markers stay as a background layer
    sealed = p.update([TOMBSTONE.take("", "f7")], turn=WHITE)
    assert "f7" not in sealed.scene and p.markers["tombstone"] == frozenset()


def test_resurrection_prompt_and_promotion() -> None:
    p = Presenter()
    res = p.update([Prompt("Rise?", colour=WHITE, kind="rise", options=("e5", "c6"))])
    assert res.scene["e5"].reason == "rise"  # no legend from a variant: the kind's name
    promo = p.update([Moved("", frm="e7", to="e8"),
                      Prompt("Promote to?", colour=WHITE, kind="promo",
                             options=("e7e8=Q", "e7e8=N"))])
    assert promo.scene["e8"].pattern is Pattern.PULSE
    assert promo.screen.options == ("Q", "N") and promo.screen.selected == 0
    roll = p.update([ROLL.prompt("Roll the die", BLACK)])  # a kind made by a die
    assert roll.screen.lines == ("Roll the die",)
    assert set(roll.scene) == {"e7", "e8"}  # the last move stays lit until the next one


def test_zombie_reveal_rot_and_announcements() -> None:
    out = Presenter().update([
        Announcement("Zombie knight rises on c6"),
        Placed("", piece="N", square="c6", reason="zombie", marker=COIN),
        COIN.put("", "c6"),
        Removed("", piece="b", square="d4", reason="rot", marker=COIN),
        Announcement("No zombie at e2"),
    ], turn=WHITE)
    assert out.scene["c6"].reason == "zombie rises"
    assert out.scene["d4"].reason == "zombie rots" and out.scene["d4"].phase == 0.5
    assert out.screen.kind is ScreenKind.ANNOUNCEMENT
    assert out.screen.lines == ("Zombie knight rises on c6", "No zombie at e2")


def test_secrets_never_reach_leds_or_screen() -> None:
    p = Presenter()
    out = p.update([
        Moved("exd5", frm="e4", to="d5"),
        Prompt("White: bury the pawn", colour=WHITE, kind="bury", options=("bury=c3",),
               audience=WHITE),
        Marker("", marker="burial", square="c3", audience=WHITE),
        Announcement("You buried a pawn under c3", audience=WHITE),
        Placed("", piece="p", square="c3", reason="burial", audience=WHITE),
    ], turn=BLACK)
    assert "c3" not in out.scene
    assert out.screen.kind is ScreenKind.TURN
    assert "burial" not in p.markers and "c3" not in repr(out.screen)


def test_failed_capture_attempt_and_game_end() -> None:
    p = Presenter()
    failed = p.update([CaptureAttempt("Capture failed", frm="b1", to="c3", succeeded=False)],
                      turn=BLACK)
    assert failed.scene["c3"].pattern is Pattern.FAST_BLINK
    assert failed.screen.lines == ("Capture failed",)
    end = p.update([Moved("", frm="a0", to="e8"), GameEnded("Ghost takes the king - 0-1",
                                                            result="0-1", reason="king")])
    assert end.screen.kind is ScreenKind.GAME_OVER and end.screen.lines[0] == "0-1"


def test_problem_correction_pause_and_lifted() -> None:
    p = Presenter({TOMBSTONE: ["e5"]})
    problem = p.problem("Illegal move", ["h5"], ["g4"])
    assert problem.scene["h5"].pattern is Pattern.FAST_BLINK and "e5" in problem.scene
    assert problem.screen.kind is ScreenKind.ERROR
    assert problem.screen.lines == ("Clear h5", "Put back on g4")
    fix = p.correction(["a3"], ["e2"], [("d1", "e1")])
    assert fix.screen.lines == ("Clear a3", "Put a piece on e2", "Swap d1 and e1")
    lifted = p.lifted("g1", ["f3"], ["h3"])
    assert lifted.scene["g1"].pattern is Pattern.PULSE and "a3" in lifted.scene
    assert lifted.screen == fix.screen
    paused = p.paused("Arbiter", ["a1", "b1"], CLOCK)
    assert set(paused.scene) == {"a1", "b1"} and paused.screen.kind is ScreenKind.PAUSED


def test_nothing_to_say_keeps_the_last_screen() -> None:
    p = Presenter()
    first = p.update([Announcement("Annihilated")])
    again = p.update([])
    assert again.screen == first.screen


def test_step_capture_writes_both_pictures(tmp_path: Path) -> None:
    capture = StepCapture(tmp_path / "shots", picture_spots(make_variant("standard").layout))
    shown = Presenter().update([Moved("e2-e4", frm="e2", to="e4")], turn=BLACK)
    leds, display = capture.write(shown, "1. e4")
    assert (leds.name, display.name) == ("step-001-leds.png", "step-001-display.png")
    with Image.open(display) as im:
        assert im.size == (256, 128)
    assert capture.write(shown)[0].name == "step-002-leds.png"


def test_a_choice_keeps_the_last_move_and_says_where_the_piece_went() -> None:
    p = Presenter()
    p.update([Moved("P e4-d5", piece="P", frm="e4", to="d5"),
              Captured("p captured on d5", piece="p", square="d5"),
              Prompt("Black chooses a Hell home", colour=BLACK, kind="home",
                     options=("home=hell:a7", "home=hell:d7"))], turn=BLACK)
    home = p.update([Placed("p goes to Hell on hell:d7", piece="p", square="hell:d7",
                            reason="hell home")], turn=BLACK)
    assert {"e4", "d5", "hell:d7"} <= set(home.scene)
    assert home.screen.kind is ScreenKind.ANNOUNCEMENT and home.screen.title == "Black to move"
    assert home.screen.lines == ("p goes to Hell on hell:d7", "P e4xd5")


def test_announcements_say_whose_turn_and_check() -> None:
    out = Presenter().update([Moved("B c4-f7", piece="B", frm="c4", to="f7"),
                              Captured("p captured on f7", piece="p", square="f7")],
                             turn=BLACK, check=True)
    assert out.screen.title == "Black to move" and out.screen.lines == ("Check", "B c4xf7+")
    zombie = Presenter().update([Moved("P e2-e4", piece="P", frm="e2", to="e4"),
                                 Announcement("No zombies anywhere")], turn=BLACK)
    assert zombie.screen.title == "Black to move"


def test_long_move_texts_shorten_on_the_clock_line() -> None:
    out = Presenter().update([Moved("black High Priest hall:h1-hall:h2", piece="h",
                                    frm="hall:h1", to="hall:h2")], turn=WHITE, clock=CLOCK)
    assert out.screen.lines == ("h hall:h1-hall:h2",)
    free = Presenter().update([Moved("black High Priest hall:h1-hall:h2", piece="h",
                                     frm="hall:h1", to="hall:h2")], turn=WHITE)
    assert free.screen.lines == ("black High Priest hall:h1-hall:h2",)


def test_markers_are_drawn_as_their_variant_declares_them() -> None:
    """The presenter names no marker: each variant's MarkerKind says how it looks, and the
    built-in ones still give exactly the layers the LED language has always drawn."""
    from hardware.leds import language
    from hardware.leds.scene import Colour, LedScene, Light, compose
    from referee.rules.events import MARKER_STYLES
    from referee.rules.variants import VARIANTS

    assert set(MARKER_STYLES) == set(language.MARKER_STYLES)  # the two layers agree
    for name in VARIANTS:
        for kind in make_variant(name).marker_kinds:
            Colour.named(kind.colour)  # a palette colour (raises if not)
    tombstone = Light(Colour.PURPLE, Pattern.STEADY, language.LEVEL_FAINT, 0.0, "tombstone")
    assert Presenter().update([TOMBSTONE.put("", "f7")]).scene == compose(
        LedScene({"f7": tombstone}, "tombstones"))
    coin = Light(Colour.GREEN, Pattern.STEADY, language.LEVEL_FAINT, 0.0, "zombie")
    assert Presenter().update([COIN.put("", "c6")]).scene == LedScene({"c6": coin}, "zombies")
    risen = Presenter().update([Placed("", square="c6", marker=COIN), COIN.put("", "c6"),
                                Removed("", square="d4", marker=COIN), COIN.take("", "d4")])
    assert risen.scene["c6"] == language.place("zombie rises", Colour.GREEN)
    assert risen.scene["d4"] == language.lift("zombie rots", Colour.GREEN)
    assert set(make_variant("deadmans").marker_kinds) == {TOMBSTONE}
    assert set(make_variant("zombie").marker_kinds) == {COIN}
