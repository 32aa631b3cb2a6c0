"""Bad input, through the real command line: one line on stderr, exit code 2, no traceback,
no hang, nothing lost (issue 11 §3).

Each parametrised case is one *class* of bad input (a file that is not UTF-8, JSON with NaN,
values of the wrong type, nesting 100,000 deep, numbers out of range, output that cannot be
written, absurdly long actions...), tried on the commands that read it. The subprocess timeout
only catches hangs; nothing here asserts how fast anything is.
"""

from __future__ import annotations

import json
import os
import re
import resource
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

EXE = str(Path(sys.executable).with_name("gravekeeper"))
ROOT = Path(__file__).resolve().parents[1]
EVENTS = ROOT / "tests" / "events" / "standard" / "opening-with-mess.events"
REPLAY = f"replay://{EVENTS}"
LONG = "a" * 30_000
DEEP = "[" * 100_000 + "]" * 100_000
DEEP_ARG = "[" * 50_000 + "]" * 50_000  # one command-line argument holds at most 128 KiB
HEADER = {"format": "gravekeeper-journal/1", "variant": "standard",
          "options": {"standard.fifty_move": True, "standard.repetition_draw": True}, "seed": 0}
RECORD = {"format": "gravekeeper-record/1", "variant": "standard", "options": {}, "seed": 0,
          "actions": ["e2e4"], "result": "*", "reason": ""}
CORNERS = "[[0,0],[100,0],[100,100],[0,100]]"


def gravekeeper(args: list[str], stdin: str = "", timeout: float = 30,
                **kw: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([EXE, *args], input=stdin, capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT, **kw)  # type: ignore[call-overload]


def assert_one_line(out: subprocess.CompletedProcess[str], *words: str) -> str:
    """Exit 2, exactly one line on stderr naming the problem, no traceback."""
    assert "Traceback" not in out.stderr, out.stderr
    lines = out.stderr.splitlines()
    assert out.returncode == 2 and len(lines) == 1, (out.returncode, out.stderr)
    for word in words:
        assert word.lower() in lines[0].lower(), lines[0]
    return lines[0]


def write(tmp: Path, name: str, data: str | bytes | object) -> str:
    path = tmp / name
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


def scenario(tmp: Path, data: str | bytes | object) -> list[str]:
    return ["check", write(tmp, "s.json", data)]


def record(tmp: Path, data: str | bytes | object) -> list[str]:
    return ["play", "--load", write(tmp, "r.json", data)]


def journal(tmp: Path, text: str | bytes) -> list[str]:
    return ["watch", REPLAY, "--journal", write(tmp, "j.jsonl", text)]


def labels(tmp: Path, text: str | bytes) -> list[str]:
    return ["vision-eval", write(tmp, "labels.csv", text)]


LABELS_HEAD = "file,fen_board,corners_a8_h8_h1_a1\n"
Case = Callable[[Path], list[str]]

# -- one case per class and reader: (id, argv builder, words the message must contain) -------
CASES: list[tuple[str, Case, tuple[str, ...]]] = [
    # files that are not UTF-8
    ("latin1-scenario", lambda t: scenario(t, b'{"variant": "st\xe9ndard"}'), ("utf-8",)),
    ("latin1-record", lambda t: record(t, b'{"format": "\xff"}'), ("utf-8",)),
    ("latin1-journal", lambda t: journal(t, b"\xff\xfe{}\n"), ("utf-8",)),
    ("latin1-labels", lambda t: labels(t, LABELS_HEAD.encode() + b"\xff,8/8/8/8/8/8/8/8,[]\n"),
     ("utf-8",)),
    # JSON with NaN / Infinity
    ("nan-scenario", lambda t: scenario(t, '{"variant": "standard", "steps": '
                                           '[{"expect": {"legal_count": NaN}}]}'), ("nan",)),
    ("inf-record", lambda t: record(t, json.dumps(RECORD).replace('"seed": 0', '"seed": Infinity')),
     ("infinity",)),
    ("nan-journal", lambda t: journal(t, json.dumps(HEADER) + '\n{"action": NaN}\n'), ("nan",)),
    ("nan-options", lambda t: ["perft", "--options", '{"x": NaN}', "1"], ("nan",)),
    # values of the wrong JSON type
    ("at-5", lambda t: scenario(t, {"variant": "standard", "steps": [{"expect": {"at": 5}}]}),
     ("'at'",)),
    ("legal-null", lambda t: scenario(t, {"variant": "standard",
                                          "steps": [{"expect": {"legal": None}}]}), ("'legal'",)),
    ("record-start-5", lambda t: record(t, {**RECORD, "start": 5}), ("'start'",)),
    ("record-actions-5", lambda t: record(t, {**RECORD, "actions": 5}), ("'actions'",)),
    ("journal-options-list", lambda t: journal(t, json.dumps({**HEADER, "options": [1]}) + "\n"),
     ("'options'",)),
    ("journal-action-list", lambda t: journal(t, json.dumps(HEADER) + '\n{"action": ["e2e4"]}\n'),
     ("line 2", "'action'")),
    ("labels-corners-object", lambda t: labels(t, LABELS_HEAD + 'x.jpg,8/8/8/8/8/8/8/8,'
                                                  '"{""a"": 1}"\n'), ("corners",)),
    # deeply nested JSON
    ("deep-scenario", lambda t: scenario(t, DEEP), ("nested",)),
    ("deep-record", lambda t: record(t, DEEP), ("nested",)),
    ("deep-journal", lambda t: journal(t, json.dumps(HEADER) + "\n" + DEEP + "\n"), ("nested",)),
    ("deep-options", lambda t: ["perft", "--options", DEEP_ARG, "1"], ("nested",)),
    ("deep-corners", lambda t: ["vision-track", str(t), "--corners", DEEP_ARG], ("corners",)),
    # numbers out of range, in options and URLs
    ("perft-negative-depth", lambda t: ["perft", "-1"], ("depth",)),
    ("perft-huge-depth", lambda t: ["perft", "99999999999999999999"], ("depth",)),
    ("huge-seed", lambda t: ["play", "--seed", "9" * 5000], ("seed",)),
    ("timeout-nan", lambda t: ["sense", REPLAY, "--timeout", "nan"], ("timeout",)),
    ("timeout-negative", lambda t: ["sense", REPLAY, "--timeout", "-1"], ("timeout",)),
    ("baud-huge", lambda t: ["sense", "serial:///dev/null?baud=99999999999"], ("baud",)),
    ("speed-tiny", lambda t: ["sense", REPLAY + "?speed=1e-300"], ("speed",)),
    ("sim-scan-inf", lambda t: ["sense", "sim://?scan_ms=inf"], ("scan_ms",)),
    ("settle-negative", lambda t: ["watch", REPLAY, "--settle", "-5"], ("settle",)),
    ("serve-settle-negative",
     lambda t: ["serve", REPLAY, "--settle", "-5", "--data", str(t)], ("settle",)),
    ("serve-port-huge", lambda t: ["serve", REPLAY, "--port", "99999", "--data", str(t)],
     ("port",)),
    ("run-leds-missing", lambda t: ["run", "--rig", "standard", "--leds"], ("leds",)),
    ("pace-negative", lambda t: ["demo", "--pace", "-5"], ("pace",)),
    ("turns-huge", lambda t: ["demo", "--turns", "9" * 30], ("turns",)),
    ("camera-huge", lambda t: ["vision-track", "camera:99999999999999999999", "--corners", CORNERS],
     ("camera",)),
    ("camera-stream-refused", lambda t: ["watch", "camera://http://127.0.0.1:9/video"],
     ("cannot open video source",)),
    ("event-time-huge", lambda t: ["sense", "replay://" + write(t, "e.events", "0 lift e2\n"
                                                                  + "9" * 30 + " place e4\n")],
     ("out of range",)),
    ("rig-endless", lambda t: ["sense", REPLAY, "--rig", "/dev/zero"], ("larger than",)),
    ("event-colour-bad", lambda t: ["watch", "replay://" + write(t, "c.events",
                                                                 "0 occupied e2=w e4=x\n")],
     ("line 1", "'e4=x'", "colour 'x' is not w (white) or b (black)")),
    # output that cannot be written
    ("record-dev-full", lambda t: ["sense", REPLAY, "--fast", "--record", "/dev/full"],
     ("/dev/full",)),
    ("capture-is-a-file", lambda t: ["demo", "--turns", "1", "--capture", write(t, "f", "x")],
     ("capture",)),
    # actions of absurd length: refused at once (the regex took 40 s on these)
    ("long-perft", lambda t: ["perft", "--moves", LONG, "1"], ("30000 characters",)),
    ("long-journal", lambda t: journal(t, json.dumps(HEADER) + "\n" + json.dumps({"action": LONG})
                                       + "\n"), ("30000 characters",)),
    ("long-record", lambda t: record(t, {**RECORD, "actions": [LONG]}), ("30000 characters",)),
    # a torn journal header: say so and offer the way out
    ("torn-header", lambda t: journal(t, '{"format": "gravekeeper-jour'), ("cut short", "delete")),
    # unknown names, schemes and options; usage errors
    ("unknown-variant", lambda t: ["perft", "--variant", "chess960", "1"], ("chess960",)),
    ("unknown-option", lambda t: ["play", "--options", '{"zz": 1}'], ("'zz'",)),
    ("unknown-scheme", lambda t: ["watch", "ftp://x"], ("ftp",)),
    ("unknown-video-scheme", lambda t: ["vision-track", "ftp://x", "--corners", CORNERS],
     ("'ftp'",)),
    ("unknown-flag", lambda t: ["perft", "--bogus", "1"], ("--bogus",)),
    ("bad-regex-url", lambda t: ["sense", "hwgrep://((("], ("hwgrep",)),
    ("unknown-command", lambda t: ["frobnicate"], ("frobnicate",)),
]


#: The same fault in a sensor URL and in an LED or display URL: one grammar, one answer
#: (firmware_bridge/urls.py), the spec and the option named, exit 2.
SAME_FAULT: list[tuple[str, list[str], list[str], str]] = [
    ("nan", ["sense", "sim://?scan_ms=nan"],
     ["watch", REPLAY, "--leds", "ws281x://?brightness=nan"],
     r"option (scan_ms|brightness)='nan' is out of range \(0 to 1(000)?\)"),
    ("out-of-range", ["sense", "serial:///dev/null?baud=99999999999"],
     ["watch", REPLAY, "--display", "dummy://?rotate=99999999999"],
     r"option (baud|rotate)='99999999999' is out of range \(\d+ to \d+\)"),
    ("not-a-number", ["sense", "sim://?seed=many"],
     ["watch", REPLAY, "--display", "dummy://?width=many"],
     r"option (seed|width)='many' is not a whole number"),
    ("unknown-key", ["sense", "sim://?colour=1"], ["watch", REPLAY, "--leds", "mock://?colour=1"],
     r"unknown option 'colour' for (sim|mock):// \(known: [a-z_, ]+\)"),
    ("twice", ["sense", "sim://?seed=1&seed=2"],
     ["watch", REPLAY, "--display", "dummy://?width=64&width=64"],
     r"option '(seed|width)' given twice"),
    ("malformed", ["sense", "replay://x?speed"], ["watch", REPLAY, "--leds", "ws281x://?pin"],
     r"malformed option '(speed|pin)' \(expected key=value\)"),
]


@pytest.mark.parametrize("sensor,device,answer", [c[1:] for c in SAME_FAULT],
                         ids=[c[0] for c in SAME_FAULT])
def test_the_same_url_fault_gets_the_same_answer(sensor: list[str], device: list[str],
                                                 answer: str) -> None:
    for args in (sensor, device):
        spec = args[-1]
        line = assert_one_line(gravekeeper(args))
        assert re.fullmatch(rf"gravekeeper \w+: {re.escape(spec)}: {answer}", line), line


#: The same faults in camera:// and phone:// options (referee/app/camera.py, phone.py read them
#: with the same grammar): the same answers, through ``watch`` and ``serve``.
CAMERA_FAULT: list[tuple[str, list[str], str]] = [
    ("nan", ["watch", "camera:///x.avi?fps=nan"],
     r"option fps='nan' is out of range \(0 to 1000\)"),
    ("negative", ["watch", "camera:///x.avi?fps=-5"],
     r"option fps='-5' is out of range \(0 to 1000\)"),
    ("not-a-number", ["watch", "camera://0?fps=many"], r"option fps='many' is not a number"),
    ("not-a-flag", ["watch", "camera:///x.avi?fast=maybe"],
     r"option fast='maybe' is not 1/0, true/false or yes/no"),
    ("unknown-key", ["watch", "camera:///x.avi?colour=1"],
     r"unknown option 'colour' for camera:// \(known: corners, corners2, fast, fps, reconnect, "
     r"stabilise\)"),
    ("stabilise-not-a-flag", ["watch", "camera:///x.avi?stabilise=maybe"],
     r"option stabilise='maybe' is not 1/0, true/false or yes/no"),
    ("reconnect-negative", ["watch", "camera://0?reconnect=-1"],
     r"option reconnect='-1' is out of range \(0 to 86400\)"),
    ("twice", ["watch", "camera:///x.avi?fps=1&fps=2"], r"option 'fps' given twice"),
    ("malformed", ["watch", "camera:///x.avi?fps"],
     r"malformed option 'fps' \(expected key=value\)"),
    ("corners-short", ["watch", "camera:///x.avi?corners=1,2,3"],
     r"option corners='1,2,3': needs 8 numbers: x,y of a8, h8, h1, a1"),
    ("corners2-short", ["watch", "camera:///x.avi?corners2=1,2,3"],
     r"option corners2='1,2,3': needs 8 numbers: x,y of a8, h8, h1, a1"),
    ("phone-unknown-key", ["serve", "phone://?colour=1", "--port", "0"],
     r"unknown option 'colour' for phone:// \(known: corners, corners2, stabilise\)"),
    ("phone-stabilise-not-a-flag", ["serve", "phone://?stabilise=2", "--port", "0"],
     r"option stabilise='2' is not 1/0, true/false or yes/no"),
    ("phone-corners-nan", ["serve", "phone://?corners=nan,0,9,0,9,9,0,9", "--port", "0"],
     r"option corners='nan,0,9,0,9,9,0,9': needs 8 numbers: x,y of a8, h8, h1, a1"),
    ("phone-under-watch", ["watch", "phone://"],
     r"phone:// works only under `gravekeeper serve` \(its /camera page, opened on the phone, "
     r"sends the frames\)"),
]


@pytest.mark.parametrize("args,answer", [c[1:] for c in CAMERA_FAULT],
                         ids=[c[0] for c in CAMERA_FAULT])
def test_camera_url_faults_answer_as_every_url(tmp_path: Path, args: list[str],
                                               answer: str) -> None:
    spec = args[1]
    extra = ["--data", str(tmp_path)] if args[0] == "serve" else []  # nothing in the tree
    line = assert_one_line(gravekeeper([*args, *extra]))
    assert re.fullmatch(rf"gravekeeper {args[0]}: {re.escape(spec)}: {answer}", line), line


@pytest.mark.parametrize("build,words", [(b, w) for _, b, w in CASES], ids=[c[0] for c in CASES])
def test_bad_input_is_one_line(tmp_path: Path, build: Case, words: tuple[str, ...]) -> None:
    assert_one_line(gravekeeper(build(tmp_path)), *words)


@pytest.mark.parametrize("step,problem", [
    ({"expect": {"at": 5}}, "'at'"),
    ({"expect": {"legal": None}}, "'legal'"),
    ({"play": "e7e5", "illegal": "yes"}, "'illegal'"),
    ({"play": "e2e4"}, "outcome"),
    ({"play": "e2e4", "illegal": True, "fails": True}, "outcome"),
    ({"expect": {"in_check": "no"}}, "'in_check'"),
    ({"expect": {"faces": [1]}}, "'faces'"),
])
def test_check_reports_an_invalid_file_and_runs_the_others(
        tmp_path: Path, step: object, problem: str) -> None:
    bad = write(tmp_path, "a-bad.json", {"variant": "standard", "steps": ["e2e4", step]})
    write(tmp_path, "b-good.json", {"variant": "standard", "steps": ["e2e4"]})
    write(tmp_path, "c-extra-key.json", {"variant": "standard", "steps": [], "stepz": []})
    out = gravekeeper(["check", str(tmp_path)])
    line = assert_one_line(out, bad, problem, "and 1 more")
    assert "invalid scenario" in line
    report = out.stdout.splitlines()
    assert report[-1] == "1 passed, 2 failed"
    assert any("c-extra-key.json: invalid scenario: unknown key 'stepz'" in r for r in report)


def _limit_file_size() -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (200, 200))  # the disk fills up after 200 bytes


def test_journal_on_a_full_disk_keeps_the_game(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    out = gravekeeper(["watch", REPLAY, "--journal", str(path)], preexec_fn=_limit_file_size)
    assert_one_line(out, "cannot write the journal", str(path))
    moves = [line for line in out.stdout.splitlines() if line.startswith("# moves:")]
    assert moves and moves[0].split()[2:4] == ["e2e4", "e7e5"]  # the game so far is shown
    resumed = gravekeeper(["watch", "replay:///dev/null", "--journal", str(path)])
    assert resumed.returncode == 0 and "resumed" in resumed.stdout  # and the journal resumes


def test_play_keeps_going_after_bad_lines(tmp_path: Path) -> None:
    script = f"{LONG}\nsave /dev/full\n\udcff\ne2e4\nsave {tmp_path / 'g.json'}\nquit\n"
    out = subprocess.run([EXE, "play"], input=script.encode("utf-8", "surrogateescape"),
                         capture_output=True, timeout=30)
    text = out.stdout.decode()
    assert out.returncode == 0 and out.stderr == b""
    assert "30000 characters" in text and "cannot save" in text and "white: e2e4" in text
    assert json.loads((tmp_path / "g.json").read_text())["actions"] == ["e2e4"]


def _sigint(action: signal.Handlers) -> Callable[[], None]:
    """A ``preexec_fn``: the child starts with SIGINT set to ``action``, whatever the test
    runner inherited (a runner started with ``&`` passes SIGINT on ignored)."""
    def preexec() -> None:
        signal.signal(signal.SIGINT, action)
    return preexec


@pytest.mark.parametrize(("args", "sig", "inherited"), [
    (["sense", "sim://"], signal.SIGINT, signal.SIG_DFL),
    # started in the background by a script: SIGINT arrives ignored, and still ends it
    (["sense", "sim://"], signal.SIGINT, signal.SIG_IGN),
    (["sense", "sim://"], signal.SIGTERM, signal.SIG_DFL),  # `kill`
    (["play"], signal.SIGINT, signal.SIG_DFL),
], ids=["sense", "sense-background", "sense-sigterm", "play"])
def test_ctrl_c_ends_quietly(args: list[str], sig: signal.Signals, inherited: signal.Handlers,
                             tmp_path: Path) -> None:
    """The command ends with status 0 or 130, says nothing, and leaves nothing behind (the
    simulated board's folder under TMPDIR). PYTHONFAULTHANDLER: if it hangs, SIGABRT makes it
    print every thread's stack into the failure."""
    proc = subprocess.Popen([EXE, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=ROOT, preexec_fn=_sigint(inherited),
                            env={**os.environ, "PYTHONFAULTHANDLER": "1",
                                 "TMPDIR": str(tmp_path)})
    assert proc.stdout is not None
    proc.stdout.readline()  # running: the first output line arrived
    time.sleep(0.2)
    proc.send_signal(sig)
    try:
        _, err = proc.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGABRT)
        _, err = proc.communicate(timeout=20)
        pytest.fail(f"still running 20 s after {sig.name}:\n" + err.decode(errors="replace"))
    assert err == b"" and proc.returncode in (0, 130)
    assert list(tmp_path.iterdir()) == []


def test_a_closed_pipe_ends_quietly() -> None:
    proc = subprocess.Popen([EXE, "play"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=ROOT)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdout.readline()
    proc.stdout.close()  # like `| head -1`
    try:
        proc.stdin.write(b"legal\n" * 20_000)
        proc.stdin.close()
    except BrokenPipeError:
        pass
    assert proc.wait(timeout=30) in (0, 1)
    assert proc.stderr is not None and proc.stderr.read() == b""


def test_a_password_in_a_url_is_never_shown(tmp_path: Path) -> None:
    """An IP camera's URL holds its password (``rtsp://admin:PASSWORD@camera/live``): every
    line that repeats the URL shows ``***`` instead, in `watch`'s and `vision-track`'s errors
    (a camera that does not answer, a bad option, a stream given without ``camera://``), in a
    serial-over-network board's (pyserial's own message quotes it) and in the hub's. The
    lines end up on a club's screen and in service logs."""
    import socket

    from firmware_bridge.urls import shown

    with socket.socket() as free:  # a port nothing listens on: the camera does not answer
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    camera = f"rtsp://admin:pw-secret@127.0.0.1:{port}/live"
    runs = [["watch", f"camera://{camera}"],
            ["watch", f"camera://http://admin:pw-secret@127.0.0.1:{port}/video?corners=1,2"],
            ["watch", f"camera://http://admin:pw-secret@127.0.0.1:{port}/video?fps=1&fps=2"],
            ["watch", camera],
            ["vision-track", camera, "--corners", "[[0,0],[400,0],[400,400],[0,400]]"],
            ["sense", f"socket://admin:pw-secret@127.0.0.1:{port}"],
            ["hub", "--mqtt", f"mqtts://admin:pw-secret@127.0.0.1:{port}/club?ca=/",
             "--data", str(tmp_path)]]
    for args in runs:
        out = gravekeeper(args, timeout=60)
        line = assert_one_line(out)
        assert "pw-secret" not in line + out.stdout and "admin:***@" in line, line
    assert shown("camera://rtsp://u:p@h/x?corners=1") == "camera://rtsp://u:***@h/x?corners=1"
    assert shown("http://h/a@b") == "http://h/a@b"  # an @ in the path is no password
    assert shown("mqtt://u@h/e") == "mqtt://u@h/e"  # a user name alone stays
