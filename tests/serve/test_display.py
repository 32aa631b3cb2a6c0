"""The board's display under ``serve``: the player pages' QR codes (decoded from the pixels
luma's capture device wrote, as a phone would read them), when they give way to the game, and
the clock line ticking between updates."""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path
from typing import Any

import numpy as np

from hardware.clock import ChessClock, TimeControl
from hardware.display.render import render_image
from hardware.display.screen import ScreenKind
from hardware.leds.scene import Pattern
from referee.app.runner import HardwareOutput
from referee.app.serve.joincodes import JoinCodes, code_matrix, display_url
from referee.live.inference import Correction, Problem
from referee.live.physical import physical_steps
from referee.live.session import Referee, Update
from referee.rules.game import Game
from referee.rules.pieces import BLACK, WHITE
from tests.inference.test_runner import Shown
from tests.serve.harness import launch, serving, stop
from tests.serve.test_api import CLI

URLS = {"white": "http://192.168.1.20:8443/p/MFRGGZDFMZTWQ2LKNNWG23TPOBYXE43U",
        "black": "http://192.168.1.20:8443/p/ONSWG4TFOQQGC3TEEBZWKY3SMV2CA3TP"}


def decode(image: Any) -> str:
    """What a phone's QR reader finds in a display image (OpenCV's detector; the display's
    unlit border kept dark around it, as on the OLED)."""
    import cv2

    pixels = np.array(image.convert("L"))
    pixels = np.pad(np.kron(pixels, np.ones((6, 6), dtype=np.uint8)), 40, constant_values=0)
    text: str = cv2.QRCodeDetector().detectAndDecode(pixels)[0]
    return text


class FakeTime:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_join_code_is_a_version_3_qr_code_that_decodes_from_the_pixels() -> None:
    url = display_url(URLS["white"])
    assert url == "HTTP://192.168.1.20:8443/P/MFRGGZDFMZTWQ2LKNNWG23TPOBYXE43U"
    matrix = code_matrix(url)
    assert len(matrix) == 29  # version 3: two pixels a module fit 64 rows
    output = HardwareOutput(Game("standard"), None, Shown())
    codes = JoinCodes(output, URLS, Game("standard"))
    image = render_image(codes.codes[0])
    assert decode(image) == url
    # the modules as drawn are the code's, two pixels each
    size, offset = 2, 3
    drawn = tuple("".join("0" if image.getpixel((offset + x * size, offset + y * size)) else "1"
                          for x in range(29)) for y in range(29))
    assert drawn == matrix
    assert display_url("http://h:1/p/Mixed-case_token") == "http://h:1/p/Mixed-case_token"


def test_codes_take_turns_before_the_game_and_give_way_to_it() -> None:
    game = Game("standard")
    display, clock = Shown(), FakeTime()
    output = HardwareOutput(game, None, display)
    codes = JoinCodes(output, URLS, game, period=8.0, hold=10.0, clock=clock)
    codes.idle()
    assert display.shown[-1].title == "White" and display.shown[-1].kind is ScreenKind.CODE
    clock.now = 8.0
    codes.idle()
    assert display.shown[-1].title == "Black"
    # the game says something (a wrong board while setting up): it stays up for the hold time
    output(Update("prompt", "waiting for white's private choice (assign)", game.state))
    said = display.shown[-1]
    for clock.now in (9.0, 18.9):
        codes.idle()
        assert display.shown[-1] is said
    clock.now = 19.0
    codes.idle()
    assert display.shown[-1].title == "White"
    # a wrong board stays until it is right, however long that takes; then the hold time
    output(Update("problem", "illegal position", game.state,
                  problem=Problem("unknown", "illegal position", (28,), ())))
    wrong = display.shown[-1]
    assert wrong.kind is ScreenKind.ERROR
    for clock.now in (20.0, 40.0, 500.0):
        codes.idle()
        assert display.shown[-1] is wrong
    output(Update("correction", "put a piece on e2", game.state,
                  correction=Correction((), (12,))))
    for clock.now in (501.0, 900.0):
        codes.idle()
        assert display.shown[-1].kind is ScreenKind.CORRECTION
    output(Update("good", "the board matches the game again", game.state))
    fine = display.shown[-1]
    for clock.now in (901.0, 910.9):
        codes.idle()
        assert display.shown[-1] is fine
    clock.now = 911.0
    codes.idle()
    assert display.shown[-1].kind is ScreenKind.CODE
    # the first action ends the codes; asked for again, both show once, then the game
    game.play("e2e4")
    output(Update("action", "e2e4", game.state, played=game.played[-1]))
    after = display.shown[-1]
    clock.now = 100.0
    codes.idle()
    assert display.shown[-1] is after
    codes.request()
    assert display.shown[-1].title == "White"
    clock.now = 108.0
    codes.idle()
    assert display.shown[-1].title == "Black"
    clock.now = 116.0
    codes.idle()
    assert display.shown[-1].kind is ScreenKind.TURN
    clock.now = 200.0
    codes.idle()
    assert display.shown[-1].kind is ScreenKind.TURN


def test_the_display_clock_ticks_once_a_second_between_updates() -> None:
    game, now = Game("standard"), FakeTime()
    clock = ChessClock(TimeControl(60.0), clock=now)
    display = Shown()
    output = HardwareOutput(game, None, display, clock)
    clock.start(WHITE)
    output(Update("good", "the board matches the game again", game.state))
    frames = len(display.shown)
    now.now = 0.2
    output.tick()  # 1:00 -> 0:59
    assert len(display.shown) == frames + 1
    for now.now in (0.5, 0.9, 0.99):
        output.tick()
    assert len(display.shown) == frames + 1  # 0:59 still: nothing sent
    now.now = 1.25
    output.tick()
    assert len(display.shown) == frames + 2
    shown = display.shown[-1].clock
    assert shown is not None and shown.white == 60.0 - 1.25
    clock.pause("arbiter")
    now.now = 5.0
    output.tick()
    assert len(display.shown) == frames + 2  # a paused clock stands still


def test_serve_shows_the_white_code_on_its_display(tmp_path: Path) -> None:
    shots = tmp_path / "shots"
    proc, urls = launch([*CLI, "sim://?variant=standard", "--data", str(tmp_path / "data"),
                         "--host", "127.0.0.1", "--port", "0", "--http",
                         "--display", f"capture://{shots}"])
    try:
        from PIL import Image

        wanted = display_url(urls["white"])
        assert wanted.startswith("HTTP://127.0.0.1:")
        # (a screen the game drew first, e.g. while the board link comes up, stays 10 s)
        deadline = time.monotonic() + 30
        found = ""
        while not found and time.monotonic() < deadline:
            time.sleep(0.3)  # (let the capture finish writing the newest frame)
            for path in sorted(shots.glob("*.png")) if shots.exists() else []:
                try:
                    with Image.open(path) as image:
                        found = decode(image)
                except OSError:  # the newest frame is still being written
                    continue
                if found:
                    break
        assert found == wanted, sorted(p.name for p in shots.glob("*.png"))
        # the upper-case address the phone opens is White's page
        with urllib.request.urlopen(urls["white"].replace("/p/", "/P/"), timeout=5) as page:
            assert page.status == 200 and b"app.js" in page.read()
        # the arbiter may show the codes again at any time
        body = json.dumps({"token": urls["arbiter"].rsplit("/", 1)[1], "op": "show_qr"})
        request = urllib.request.Request(urls["spectator"] + "api/command", body.encode(),
                                         method="POST")
        with urllib.request.urlopen(request, timeout=5) as response:
            assert json.loads(response.read())["ok"] is True
    finally:
        assert stop(proc)[0] == 0


def test_serve_with_a_rig_runs_the_rigs_buttons_display_and_clock(tmp_path: Path) -> None:
    """``serve --rig standard`` as ``watch --rig`` runs it: the board's back/confirm buttons
    choose a promotion the referee waits for, its LEDs light, the display is drawn, and the
    display's clock ticks with no move made."""
    shots = tmp_path / "shots"
    opening = ("a2a4", "b7b5", "a4b5", "a7a6", "b5a6", "c8b7", "a6a7", "h7h6")
    with serving("standard", tmp_path / "data", "--clock", "5+3", "--display",
                 f"capture://{shots}") as served:
        for text in opening:
            served.play(text)
        truth, name = served.truth, served.truth.variant.layout.name
        action = truth.parse("a7b8r")
        for step in physical_steps(truth.variant, truth.state, [action], served.rng):
            (served.sim.lift if step.kind == "lift" else served.sim.place)(name(step.square))
        deadline = time.monotonic() + 10
        while "Promote to?" not in str(_game(served.base)["status"]):
            assert time.monotonic() < deadline, _game(served.base)["status"]
            time.sleep(0.05)
        served.sim.press("back")  # Q -> R
        served.sim.press("confirm")
        truth.play(action)
        served.wait_moves()
        assert _game(served.base)["moves"][-1] == "a7b8r"
        assert served.sim.leds  # the board's LEDs show the last move
        # no move for a while: the display is drawn again as the clock counts down
        frames = len(list(shots.glob("*.png")))
        deadline = time.monotonic() + 10
        while len(list(shots.glob("*.png"))) <= frames + 1:
            assert time.monotonic() < deadline, "the display's clock stood still"
            time.sleep(0.2)


def _game(base: str) -> dict[str, Any]:
    with urllib.request.urlopen(base + "/api/game", timeout=5) as response:
        data: dict[str, Any] = json.loads(response.read())
    return data


def test_a_resumed_game_shows_its_markers_turn_and_last_move_at_once() -> None:
    game = Game("deadmans")
    for text in ("e2e4", "d7d5", "e4d5"):
        game.play(text)
    display, leds = Shown(), Shown()
    output = HardwareOutput(game, leds, display)
    assert "d5" in output.presenter.markers.get("tombstone", ())
    output.show_game()
    assert display.shown[-1].title.endswith("to move") and leds.shown


def test_an_arbiters_pause_shows_on_leds_and_display_and_resume_restores_the_game() -> None:
    from firmware_bridge.events import Lift, Place

    game, now = Game("standard"), FakeTime()
    clock = ChessClock(TimeControl(60.0), clock=now)
    leds, display = Shown(), Shown()
    output = HardwareOutput(game, leds, display, clock)
    referee = Referee(game, [output], clock=clock)
    referee.start()
    referee.feed(Lift(0, "e2"))
    referee.feed(Place(100, "e4"))
    referee.tick(600)
    scene, screen = leds.shown[-1], display.shown[-1]
    assert scene.name and "e4" in list(scene) and screen.kind is ScreenKind.TURN
    referee.pause()
    paused, said = leds.shown[-1], display.shown[-1]
    assert len(list(paused)) == 64  # every square pulses faintly: not dark
    assert {light.pattern for light in paused.lights.values()} == {Pattern.PULSE}
    assert said.kind is ScreenKind.PAUSED and said.title == "Paused"
    assert said.lines == ("by the arbiter",) and "confirm" not in said.hint
    referee.add_time(BLACK, 30)  # time added during the pause: still paused, new time shown
    assert display.shown[-1].kind is ScreenKind.PAUSED and leds.shown[-1] == paused
    shown_clock = display.shown[-1].clock
    assert shown_clock is not None and shown_clock.black == 90.0
    referee.resume()
    assert leds.shown[-1] == scene  # the last move and the turn again
    assert display.shown[-1].kind is ScreenKind.TURN and display.shown[-1].lines == screen.lines


def test_a_pause_over_a_wrong_board_gives_the_problem_back_on_resume() -> None:
    from firmware_bridge.events import Lift, Place

    game, display = Game("standard"), Shown()
    output = HardwareOutput(game, Shown(), display)
    referee = Referee(game, [output])
    referee.feed(Lift(0, "g1"))
    referee.feed(Place(100, "g3"))  # no knight move
    referee.tick(1000)
    problem = display.shown[-1]
    assert problem.kind is ScreenKind.ERROR
    referee.pause()
    assert display.shown[-1].kind is ScreenKind.PAUSED
    referee.resume()
    assert display.shown[-1] == problem  # still wrong: the board problem, not the turn
    # a take-back during a pause: the correction shows; the board put right, paused again
    referee.feed(Lift(2000, "g3"))
    referee.feed(Place(2100, "g1"))
    referee.tick(3000)
    referee.feed(Lift(3000, "e2"))
    referee.feed(Place(3100, "e4"))
    referee.tick(4000)
    referee.pause()
    referee.take_back()
    assert display.shown[-1].kind is ScreenKind.CORRECTION
    referee.feed(Lift(5000, "e4"))
    referee.feed(Place(5100, "e2"))
    referee.tick(6000)
    assert display.shown[-1].kind is ScreenKind.PAUSED
    referee.resume()
    assert display.shown[-1].kind is ScreenKind.TURN  # not the correction done meanwhile
