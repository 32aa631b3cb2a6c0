"""End to end: ``serve`` as a real process, a simulated board, real headless Chromium.

Three browser contexts (white, black, spectator) watch each game; the off-board secrets
(Zombie burials, Masquerade assignments) are chosen on the player pages, and every WebSocket
frame, HTTP response and the final DOM of the opponent and the spectator are searched for them.
"""

from __future__ import annotations

import json
import os
import signal
import urllib.request
from pathlib import Path

import pytest

from tests.serve.harness import choose_on_page, chromium, open_page, restart, serving, wait_text

pytestmark = [
    pytest.mark.skipif(not Path("/usr/bin/chromium").exists(), reason="Debian chromium missing"),
]
DOCS = Path(__file__).resolve().parents[2] / "docs" / "serve"


def _get(url: str) -> dict[str, object]:
    with urllib.request.urlopen(url, timeout=5) as response:
        data: dict[str, object] = json.loads(response.read())
    return data


def test_zombie_burial_stays_secret_and_arbiter_takes_back(tmp_path: Path) -> None:
    with serving("zombie", tmp_path) as served, chromium() as browser:
        white = open_page(browser, served.urls["white"])
        black = open_page(browser, served.urls["black"])
        spectator = open_page(browser, served.urls["spectator"])
        for text in ("e2e4", "d7d5", "e4d5"):
            served.play(text)
        choose_on_page(white, "bury=b2")
        served.choose("bury=b2")
        wait_text(white, "#secret-list", "buried p on b2")
        wait_text(spectator, "#moves", "bury=(secret)")
        served.play("g8f6")
        for page in (white, black, spectator):
            wait_text(page, "#moves", "g8f6")
        # the opponent and the spectators never receive the burial square
        # (the list of squares one *could* bury under is public: which piece went where is not)
        secrets = ('"text": "bury=b2"', '"last": "bury=b2"', '"last_action": "bury=b2"',
                   "under b2", '"b2": "p"', " b2p ")
        for page in (black, spectator):
            seen = page.traffic()
            assert "bury=(secret)" in seen
            for secret in secrets:
                assert secret not in seen, secret
            assert "bury=b2" not in page.page.content()
        assert all(secret in white.traffic() for secret in secrets[:2])  # the burier sees it
        api = _get(served.base + "/api/game")
        expected = [("white", "e2e4"), ("black", "d7d5"), ("white", "e4d5"),
                    ("white", "bury=(secret)"), ("black", "g8f6")]
        assert api["moves"] == [t for _, t in expected]
        assert api["sides"] == [a for a, _ in expected]
        assert api["plies"] == [{"ply": n + 1, "actor": a, "text": t}
                                for n, (a, t) in enumerate(expected)]
        assert api["to_act"] == "white" and api["result"] == "*"
        # the arbiter takes back g8f6: the pages follow and the board must be set back
        arbiter = open_page(browser, served.urls["arbiter"])
        arbiter.page.on("dialog", lambda dialog: dialog.accept())
        arbiter.page.click("#takeback")
        wait_text(spectator, "#to-act", "Black to act")
        assert "g8f6" not in spectator.page.inner_text("#moves")
        wait_text(spectator, "#status", "f6")  # the board still shows the knight on f6
        # the LEDs follow: the squares to put right light up on the board
        lit: set[str] = set()
        served.sim.wait_until(lambda: lit.update(served.sim.leds) or {"f6", "g8"} <= lit,
                              timeout=5)
        served.truth.undo()
        served.sim.move("f6", "g8")
        arbiter.page.click("[data-op='board_set']")
        wait_text(arbiter, "#status", "the board is set")
        served.play("b8c6")
        wait_text(black, "#moves", "b8c6")


def test_masquerade_assignments_secret_and_kill_9_resumes(tmp_path: Path) -> None:
    with serving("masquerade", tmp_path) as served, chromium() as browser:
        white = open_page(browser, served.urls["white"])
        black = open_page(browser, served.urls["black"])
        spectator = open_page(browser, served.urls["spectator"])
        white_secret = "assign=black:KK,QQ,RN,BB,NR"
        black_secret = "assign=white:KK,QR,RQ,BN,NB"
        choose_on_page(white, white_secret)
        served.choose(white_secret)
        wait_text(black, "#moves", "assign=black:(secret)")
        choose_on_page(black, black_secret)
        served.choose(black_secret)
        wait_text(spectator, "#moves", "assign=white:(secret)")
        served.play("e2e4")
        wait_text(spectator, "#moves", "e2e4")
        # kill -9 mid-game, restart: the pages reconnect by themselves, nothing is lost
        port = int(served.urls["spectator"].rsplit(":", 1)[1].strip("/"))
        os.kill(served.proc.pid, signal.SIGKILL)
        served.proc.wait()
        restart(served, port)
        served.play("e7e5")
        for page in (white, black, spectator):
            wait_text(page, "#moves", "e7e5")
        assert white.page.locator("#moves li").count() == 4
        # A player's own list of choices holds every pattern string, so for the players the
        # secret is the assignment itself and what it was told; spectators get no pattern.
        for page, secret, told in ((black, white_secret, "gave Black's pieces: KK,QQ,RN,BB,NR"),
                                   (white, black_secret, "gave White's pieces: KK,QR,RQ,BN,NB")):
            seen = page.traffic()
            assert secret not in seen and told not in seen, secret
        seen = spectator.traffic()
        for secret in (white_secret, black_secret):
            assert secret.split(":")[1] not in seen, secret
        assert white_secret in white.traffic()  # the chooser sees their choice
        assert "gave Black's pieces: KK,QQ,RN,BB,NR" in white.traffic()
        pgn = urllib.request.urlopen(served.base + "/api/game.pgn", timeout=5).read().decode()
        assert '[Variant "Masquerade Chess"]' in pgn and "e7e5" in pgn
        assert "KK,QQ,RN" not in pgn  # secrets only once the game is over


def test_deadmans_spectator_sees_tombstone_and_hell(tmp_path: Path) -> None:
    with serving("deadmans", tmp_path, "--clock", "5+3") as served, chromium() as browser:
        spectator = open_page(browser, served.urls["spectator"])
        black = open_page(browser, served.urls["black"], (390, 844))
        for text in ("e2e4", "d7d5", "e4d5"):
            served.play(text)
        # black names its Hell home on the phone, then puts the pawn there
        choose_on_page(black, "home=hell:c7")
        served.choose("home=hell:c7")
        wait_text(spectator, "#status", "put a piece on hell:c7")
        served.sim.place("hell:c7")
        served.play("g8f6")
        wait_text(spectator, "#moves", "home=hell:c7")
        wait_text(spectator, "#moves", "g8f6")
        page = spectator.page
        assert page.locator("[data-sq='d5'] .mk-tombstones").count() == 1
        assert page.locator("[data-sq='hell:c7'] .pc").inner_text() == "\u265F"
        assert page.locator("figure[data-region='hell']").count() == 1
        wait_text(black, "#moves", "home=hell:c7")
        if os.environ.get("GRAVEKEEPER_SCREENSHOTS") == "1":
            _screenshots(browser, served.urls)


def _screenshots(browser: object, urls: dict[str, str]) -> None:
    """The pictures in docs/serve/ (regenerate with GRAVEKEEPER_SCREENSHOTS=1)."""
    DOCS.mkdir(parents=True, exist_ok=True)
    for role in ("spectator", "black", "arbiter"):
        for size, viewport in (("desktop", (1280, 800)), ("phone", (390, 844))):
            watched = open_page(browser, urls[role], viewport)
            wait_text(watched, "#moves", "g8f6")
            watched.page.screenshot(path=str(DOCS / f"{role}-{size}.png"), full_page=True)
            watched.page.context.close()


def test_a_promotion_is_chosen_on_the_phone(tmp_path: Path) -> None:
    """A reed board cannot tell the piece: the referee waits (however long), White's page
    offers the pieces, the choice reaches the referee; Black's page and the spectators never
    get the offer, only the move once it is made."""
    from referee.live.physical import physical_steps

    opening = ("a2a4", "b7b5", "a4b5", "a7a6", "b5a6", "c8b7", "a6a7", "h7h6")
    with serving("standard", tmp_path) as served, chromium() as browser:
        white = open_page(browser, served.urls["white"], (390, 844))
        black = open_page(browser, served.urls["black"])
        spectator = open_page(browser, served.urls["spectator"])
        names = json.dumps({"token": served.token("arbiter"), "op": "names",
                            "white": "Ada", "black": "Alan"}).encode()
        urllib.request.urlopen(urllib.request.Request(served.base + "/api/command", names,
                                                      method="POST"), timeout=5).close()
        wait_text(spectator, "#players", "Ada – Alan")
        for text in opening:
            served.play(text)
        truth, name = served.truth, served.truth.variant.layout.name
        before = truth.state
        action = truth.parse("a7b8n")
        for step in physical_steps(truth.variant, before, [action], served.rng):
            (served.sim.lift if step.kind == "lift" else served.sim.place)(name(step.square))
        page = white.page
        page.wait_for_selector("#promotion-box:not([hidden]) [data-piece='N']")
        assert page.locator("#promotion [data-piece]").count() == 4
        assert black.page.locator("#promotion-box").is_hidden()
        wait_text(spectator, "#status", "Promote to?")
        page.click("#promotion [data-piece='N']")
        truth.play(action)
        served.wait_moves()
        for watched in (white, black, spectator):
            wait_text(watched, "#moves", "a7b8n")
        assert page.locator("#promotion-box").is_hidden()
        served.play("h6h5")
        wait_text(spectator, "#moves", "h6h5")
        for watched in (black, spectator):
            frames = [json.loads(f) for f in watched.frames if f.startswith("{")]
            assert all(not f.get("promotion") for f in frames)  # the offer was White's
