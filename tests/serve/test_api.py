"""``gravekeeper serve`` as a real process: page lines, API, errors, tokens, HTTPS, signals."""

from __future__ import annotations

import json
import socket
import ssl
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from tests.serve.harness import launch, stop

CLI = [sys.executable, "-c", "from referee.app.cli import main; raise SystemExit(main())", "serve"]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, dict[str, str]]]:
    data = tmp_path_factory.mktemp("data")
    proc, urls = launch([*CLI, "sim://?variant=standard", "--data", str(data), "--host",
                          "127.0.0.1", "--port", "0", "--http"])
    yield proc, urls
    status, err = stop(proc)
    assert status == 0 and "Traceback" not in err, err


def _request(url: str, body: bytes | None = None) -> tuple[int, str]:
    request = urllib.request.Request(url, data=body, method="POST" if body is not None else "GET")
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as err:
        return err.code, err.read().decode()


def _token(urls: dict[str, str], role: str) -> str:
    return urls[role].rsplit("/", 1)[1]


def test_page_lines_and_public_game(served: tuple[Any, dict[str, str]]) -> None:
    _, urls = served
    assert list(urls) == ["spectator", "white", "black", "arbiter"]
    assert len({_token(urls, r) for r in ("white", "black", "arbiter")}) == 3
    status, text = _request(urls["spectator"] + "api/game")
    game = json.loads(text)
    assert status == 200 and game["variant"] == "standard" and game["moves"] == []
    assert game["to_act"] == "white" and game["result"] == "*"
    assert "choices" not in game and "notes" not in game  # the public view only
    status, pgn = _request(urls["spectator"] + "api/game.pgn")
    assert status == 200 and '[Result "*"]' in pgn


def test_bad_requests_are_refused_and_change_nothing(served: tuple[Any, dict[str, str]]) -> None:
    proc, urls = served
    api = urls["spectator"] + "api/command"
    white, black, arbiter = (_token(urls, r) for r in ("white", "black", "arbiter"))
    cases = [
        (b"{not json", 400), (b"[1, 2]", 400), (b"x" * 10_000, 413),
        (json.dumps({"op": "resign"}).encode(), 403),                       # no token
        (json.dumps({"token": "guess", "op": "resign"}).encode(), 403),
        (json.dumps({"token": white, "op": "takeback"}).encode(), 403),     # arbiter's op
        (json.dumps({"token": white, "op": "adjudicate", "result": "1-0"}).encode(), 403),
        (json.dumps({"token": white, "op": "resign", "as": "black"}).encode(), 403),
        (json.dumps({"token": black, "op": "act", "action": "e7e5"}).encode(), 403),
        (json.dumps({"token": white, "op": "act", "action": "e2e4"}).encode(), 409),  # a move
        (json.dumps({"token": white, "op": "act", "action": 5}).encode(), 400),
        (json.dumps({"token": arbiter, "op": "explode"}).encode(), 400),
        (json.dumps({"token": arbiter, "op": "adjudicate", "result": "2-0"}).encode(), 400),
        (json.dumps({"token": arbiter, "op": "takeback"}).encode(), 409),  # nothing to take
        (json.dumps({"token": arbiter, "op": "show_qr"}).encode(), 409),   # no display
        (json.dumps({"token": white, "op": "names", "white": "Me"}).encode(), 403),
        (json.dumps({"token": white, "op": "promote", "piece": "q"}).encode(), 409),
        (json.dumps({"token": white, "op": "promote", "piece": 5}).encode(), 400),
    ]
    for body, code in cases:
        status, text = _request(api, body)
        assert status == code, (body[:80], text)
        assert "error" in json.loads(text)
    for url, code in ((urls["spectator"] + f"p/{arbiter}", 403),
                      (urls["spectator"] + f"a/{white}", 403),
                      (urls["spectator"] + "p/nope", 403), (urls["white"], 200),
                      (urls["spectator"] + "static/../main.py", 404)):
        assert _request(url)[0] == code, url
    ws_url = urls["spectator"].replace("http", "ws") + "ws"
    with connect(ws_url) as ws:
        assert json.loads(ws.recv())["type"] == "hello"
        assert json.loads(ws.recv())["type"] == "state"
        ws.send(json.dumps({"op": "resign"}))
        assert _reply(ws)["code"] == 403  # spectators cannot act
    with connect(f"{ws_url}?token={white}") as ws:
        for message, code in (("{bad", 400), ("7", 400), ("y" * 5000, 413),
                              (json.dumps({"op": "takeback"}), 403),
                              (json.dumps({"op": "act", "action": "bury=e4"}), 409),
                              (json.dumps({"op": "button", "name": "reset"}), 400),
                              (b"\x00binary", 400)):
            ws.send(message)
            assert _reply(ws)["code"] == code, message
    with connect(f"{ws_url}?token=wrong") as ws:
        assert json.loads(ws.recv()) == {"type": "error", "code": 403, "error": "unknown token"}
    game = json.loads(_request(urls["spectator"] + "api/game")[1])
    assert game["moves"] == [] and game["result"] == "*" and proc.poll() is None


def _reply(ws: Any) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=5))
        if message["type"] == "reply":
            return message


def test_draw_offer_and_resign_by_the_players(tmp_path: Path) -> None:
    proc, urls = launch([*CLI, "sim://?variant=standard", "--data", str(tmp_path), "--host",
                          "127.0.0.1", "--port", "0", "--http"])
    try:
        api = urls["spectator"] + "api/command"
        white, black = _token(urls, "white"), _token(urls, "black")
        assert _request(api, json.dumps({"token": white, "op": "draw"}).encode())[0] == 200
        game = json.loads(_request(urls["spectator"] + "api/game")[1])
        assert game["draw_offer"] == "white" and game["result"] == "*"
        assert _request(api, json.dumps({"token": black, "op": "resign"}).encode())[0] == 200
        game = json.loads(_request(urls["spectator"] + "api/game")[1])
        assert (game["result"], game["reason"]) == ("1-0", "black resigned")
        assert _request(api, json.dumps({"token": white, "op": "draw"}).encode())[0] == 409
    finally:
        assert stop(proc)[0] == 0
    # the store kept the result: a new serve starts a new game, with the same pages
    proc, again = launch([*CLI, "sim://?variant=standard", "--data", str(tmp_path), "--host",
                           "127.0.0.1", "--port", "0", "--http"])
    try:
        assert [_token(again, r) for r in ("white", "black")] == [white, black]
        assert json.loads(_request(again["spectator"] + "api/game")[1])["result"] == "*"
    finally:
        stop(proc)


def test_https_by_default_with_a_kept_certificate(tmp_path: Path) -> None:
    args = [*CLI, "sim://?variant=standard", "--data", str(tmp_path), "--host", "127.0.0.1",
            "--port", "0"]
    proc, urls = launch(args)
    try:
        assert urls["spectator"].startswith("https://127.0.0.1:")
        context = ssl.create_default_context(cafile=str(tmp_path / "cert.pem"))
        with urllib.request.urlopen(urls["spectator"] + "api/game", context=context,
                                    timeout=5) as response:
            assert json.loads(response.read())["variant"] == "standard"
        cert = (tmp_path / "cert.pem").read_bytes()
        assert (tmp_path / "key.pem").stat().st_mode & 0o077 == 0
        assert (tmp_path / "tokens.json").stat().st_mode & 0o077 == 0
    finally:
        assert stop(proc)[0] == 0
    proc, again = launch(args)
    stop(proc)
    assert (tmp_path / "cert.pem").read_bytes() == cert
    assert [_token(again, r) for r in ("white", "black", "arbiter")] == \
        [_token(urls, r) for r in ("white", "black", "arbiter")]


@pytest.mark.parametrize("args, message", [
    (["sim://", "--variant", "nosuch"], "nosuch"),
    (["sim://", "--options", "{"], "--options is not JSON"),
    (["sim://", "--clock", "fast"], "time control"),
    (["nosuch://x"], "nosuch"),
    (["sim://", "--rig", "/nonexistent.toml"], "nonexistent"),
])
def test_bad_input_is_one_line_and_exit_2(args: list[str], message: str, tmp_path: Path) -> None:
    result = subprocess.run([*CLI, *args, "--data", str(tmp_path), "--http", "--port", "0",
                             "--host", "127.0.0.1"], capture_output=True, text=True, timeout=30)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and message in result.stderr, result.stderr


def test_port_in_use_is_one_line(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = subprocess.run([*CLI, "sim://", "--data", str(tmp_path), "--http", "--port",
                                 str(port), "--host", "127.0.0.1"],
                                capture_output=True, text=True, timeout=30)
    assert result.returncode == 2 and "cannot listen" in result.stderr
    assert result.stderr.count("\n") == 1




def test_arbiter_clock_controls(tmp_path: Path) -> None:
    proc, urls = launch([*CLI, "sim://?variant=standard", "--data", str(tmp_path), "--host",
                         "127.0.0.1", "--port", "0", "--http", "--clock", "5+3"])
    try:
        arbiter = _token(urls, "arbiter")

        def command(**body: Any) -> int:
            return _request(urls["spectator"] + "api/command",
                            json.dumps({"token": arbiter, **body}).encode())[0]

        def clock() -> dict[str, Any]:
            game = json.loads(_request(urls["spectator"] + "api/game")[1])
            assert isinstance(game["clock"], dict)
            return game["clock"]

        assert command(op="pause") == 200
        paused = clock()
        assert paused["paused"] == ["arbiter"] and paused["running"] == "white"
        assert command(op="add_time", colour="black", seconds=60) == 200
        assert clock()["black"] == 360.0
        assert command(op="add_time", colour="black", seconds=-5) == 400
        assert command(op="add_time", colour="blue", seconds=5) == 400
    finally:
        assert stop(proc)[0] == 0
    # the times are kept: a restart goes on with them
    proc, urls = launch([*CLI, "sim://?variant=standard", "--data", str(tmp_path), "--host",
                         "127.0.0.1", "--port", "0", "--http", "--clock", "5+3"])
    try:
        resumed = clock()
        assert resumed["black"] == 360.0 and 290 < resumed["white"] <= 300.0
        assert command(op="resume") == 200 and clock()["paused"] == []
        assert command(op="adjudicate", result="1/2-1/2", reason="agreed at the board") == 200
        game = json.loads(_request(urls["spectator"] + "api/game")[1])
        assert (game["result"], game["reason"]) == ("1/2-1/2", "agreed at the board")
        assert game["clock"]["running"] is None
        assert command(op="takeback") == 200  # the adjudication is taken back
        assert json.loads(_request(urls["spectator"] + "api/game")[1])["result"] == "*"
    finally:
        assert stop(proc)[0] == 0


def test_qr_codes_of_the_player_pages_on_stderr(tmp_path: Path) -> None:
    proc, urls = launch([*CLI, "sim://", "--data", str(tmp_path), "--host", "127.0.0.1",
                         "--port", "0", "--http", "--qr", "yes"])
    status, err = stop(proc)
    assert status == 0
    assert "white page:" in err and "black page:" in err and "\u2588" in err
    assert urls["white"] not in err  # only the pictures: the URLs are on stdout


def test_a_virtual_die_roll_from_the_player_page(tmp_path: Path) -> None:
    from tests.serve.harness import serving

    with serving("die", tmp_path) as served:
        game = json.loads(_request(served.base + "/api/game")[1])
        assert game["to_act"] == "white" and game["view"]["dice"]["white"]["square"] == "a1"
        white = served.token("white")
        body = json.dumps({"token": white, "op": "act", "action": "roll"}).encode()
        assert _request(served.base + "/api/command", body)[0] == 200
        game = json.loads(_request(served.base + "/api/game")[1])
        assert len(game["moves"]) == 1 and game["moves"][0].startswith("roll=")
        assert game["sides"] == ["white"] and game["plies"][0]["actor"] == "white"


def test_restart_keeps_the_clock_right_and_the_arbiter_names_the_players(tmp_path: Path) -> None:
    """After a kill -9 with Black to move: Black's time runs, White's increment is not given
    twice; an arbiter's pause outlives a restart; a result taken back runs the clock again."""
    import os
    import signal

    from tests.serve.harness import restart, serving

    def game(base: str) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(_request(base + "/api/game")[1])
        return data

    with serving("standard", tmp_path, "--clock", "5+3") as served:
        arbiter = served.token("arbiter")

        def command(**body: Any) -> int:
            return _request(served.base + "/api/command",
                            json.dumps({"token": arbiter, **body}).encode())[0]

        served.play("e2e4")
        before = game(served.base)["clock"]
        assert before["running"] == "black" and 300.0 < before["white"] < 303.0  # +3 s
        assert command(op="names", white="Ada Lovelace", black="Alan Turing") == 200
        assert command(op="names", white="x" * 41) == 400
        assert command(op="names", black="") == 400
        port = int(served.urls["spectator"].rsplit(":", 1)[1].strip("/"))
        os.kill(served.proc.pid, signal.SIGKILL)
        served.proc.wait()
        restart(served, port)
        after = game(served.base)
        assert after["clock"]["running"] == "black"
        assert after["clock"]["white"] == pytest.approx(before["white"], abs=0.05)
        assert after["players"] == {"white": "Ada Lovelace", "black": "Alan Turing"}
        pgn = _request(served.base + "/api/game.pgn")[1]
        assert '[White "Ada Lovelace"]' in pgn and '[Black "Alan Turing"]' in pgn
        assert command(op="pause") == 200
        os.kill(served.proc.pid, signal.SIGKILL)
        served.proc.wait()
        restart(served, port)
        paused = game(served.base)
        assert paused["clock"]["paused"] == ["arbiter"] and paused["paused"] is True
        assert command(op="resume") == 200
        assert command(op="adjudicate", result="0-1", reason="arbiter's decision") == 200
        assert game(served.base)["clock"]["running"] is None
        assert command(op="takeback") == 200
        reopened = game(served.base)
        assert reopened["result"] == "*" and reopened["clock"]["running"] == "black"
        assert reopened["moves"] == ["e2e4"]


def test_a_rig_whose_leds_are_not_here_is_said_once_and_serve_goes_on(tmp_path: Path) -> None:
    """The built-in rig names WS2812 LEDs and an SSD1306: a machine without them still
    serves, with one line saying so (watch stops instead); named by --leds it is an error."""
    args = [*CLI, "sim://?variant=standard", "--rig", "standard", "--data", str(tmp_path),
            "--host", "127.0.0.1", "--port", "0", "--http"]
    proc, urls = launch(args)
    try:
        status, text = _request(urls["spectator"] + "api/game")
        assert status == 200 and json.loads(text)["variant"] == "standard"
    finally:
        code, err = stop(proc)
    assert code == 0 and err.count("going on with the sensor board's own LEDs") == 1, err
    result = subprocess.run([*args, "--leds", "ws281x"], capture_output=True, text=True,
                            timeout=30)
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and "ws281x" in \
        result.stderr


def test_a_take_back_rewinds_the_clocks_and_a_flag_fall_taken_back_waits_for_time(
        tmp_path: Path) -> None:
    """The arbiter takes back a move: White's increment goes back with it. White's flag then
    falls (3 s): taken back, the game goes on, paused with White at 0 s until time is added."""
    import time

    from tests.serve.harness import serving

    def game(base: str) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(_request(base + "/api/game")[1])
        return data

    with serving("standard", tmp_path, "--clock", "0.05+3") as served:
        arbiter = served.token("arbiter")

        def command(**body: Any) -> int:
            return _request(served.base + "/api/command",
                            json.dumps({"token": arbiter, **body}).encode())[0]

        served.play("e2e4")
        moved = game(served.base)["clock"]
        assert moved["running"] == "black" and moved["white"] > 3.0  # the increment came
        assert command(op="takeback") == 200
        back = game(served.base)["clock"]
        # the API gives hundredths: taken back at once, 5.81 - 3.0 is 2.8099999999999996
        assert back["running"] == "white" and back["white"] <= moved["white"] - 3.0 + 0.005
        assert back["black"] == pytest.approx(3.0, abs=0.05)  # Black's thinking: charged to nobody
        served.truth.undo()
        served.sim.lift("e4")
        served.sim.place("e2")
        deadline = time.monotonic() + 15
        while game(served.base)["result"] == "*":
            assert time.monotonic() < deadline, "White's flag never fell"
            time.sleep(0.1)
        fallen = game(served.base)
        assert fallen["result"] == "0-1" and "flag" in fallen["reason"]
        assert command(op="takeback") == 200
        reopened = game(served.base)
        assert reopened["result"] == "*" and reopened["moves"] == []
        assert reopened["paused"] is True and reopened["clock"]["paused"] == ["arbiter"]
        assert reopened["clock"]["white"] == 0.0 and reopened["clock"]["running"] == "white"
        assert command(op="add_time", colour="white", seconds=60) == 200
        assert command(op="resume") == 200
        served.play("e2e4")
        going = game(served.base)
        assert going["result"] == "*" and going["clock"]["running"] == "black"
        assert 55.0 < going["clock"]["white"] <= 63.0 and going["paused"] is False
