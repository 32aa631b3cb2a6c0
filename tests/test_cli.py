"""The ``gravekeeper`` commands: check, perft, play (FORMAT.md exit codes and output)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from referee.app.cli import main

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "conformance"


def write(tmp: Path, name: str, data: object) -> Path:
    path = tmp / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return path


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(argv)
    out = capsys.readouterr()
    return status, out.out, out.err


def test_check_passes_a_good_scenario(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(tmp_path, "ok.json", {"variant": "standard", "steps": [
        "e2e4", {"expect": {"to_act": "black", "at": {"e4": "P", "e2": ""}}},
        {"play": "e4e5", "illegal": True}, {"expect": {"legal_count": 20}}]})
    status, out, _ = run(["check", str(tmp_path)], capsys)
    assert (status, out) == (0, "1 passed, 0 failed\n")


def test_check_reports_each_failing_step(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "bad.json", {"variant": "standard", "steps": [
        {"expect": {"to_act": "black"}}, "e2e4",
        {"expect": {"legal_includes": ["e7e5", "e7e4"], "in_check": True}},
        {"play": "d7d5", "illegal": True}, "e2e4", {"expect": {"result": "*"}}]})
    status, out, _ = run(["check", str(path)], capsys)
    lines = out.splitlines()
    assert status == 1 and lines[-1] == "0 passed, 1 failed"
    assert lines[0] == f'{path}: step 1: to_act: expected "black", found "white"'
    assert f"{path}: step 3: legal_includes:" in lines[1] and '"e7e4"' in lines[1]
    assert lines[2] == f"{path}: step 3: in_check: expected true, found false"
    assert lines[3] == f"{path}: step 4: expected 'd7d5' to be illegal, but it is legal"
    assert lines[4].startswith(f"{path}: step 5: expected 'e2e4' to be legal, found: illegal")
    assert len(lines) == 6  # the scenario stops at the failed action


@pytest.mark.parametrize("content,problem", [
    ("{not json", "cannot read JSON"), ([1, 2], "JSON object"),
    ({"variant": "chess960", "steps": []}, "unknown variant"),
    ({"variant": "standard", "steps": "e2e4"}, "'steps' must be a list"),
    ({"variant": "standard", "steps": [{"expect": {"colour": "w"}}]}, "unknown expectation"),
    ({"variant": "standard", "steps": [{"play": "e2e4", "ilegal": True}]}, "unknown key"),
    ({"variant": "standard", "options": {"dmc.pawn_home": "x"}, "steps": []}, "unknown option"),
    ({"variant": "standard", "seed": "7", "steps": []}, "'seed' must be an integer"),
])
def test_invalid_scenarios_exit_2_naming_file_and_problem(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], content: object, problem: str) -> None:
    path = write(tmp_path, "x.json", content)
    write(tmp_path, "good.json", {"variant": "standard", "steps": ["e2e4"]})
    status, out, _ = run(["check", str(tmp_path)], capsys)
    assert status == 2
    assert f"{path}: invalid scenario:" in out and problem in out
    assert out.splitlines()[-1] == "1 passed, 1 failed"


def test_unimplemented_variant_fails_with_a_message(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    import referee.rules.variants as registry
    monkeypatch.setattr(registry, "VARIANTS", {**registry.VARIANTS,
                                               "standard": "referee.rules.variants.nothere:Nope"})
    path = write(tmp_path, "s.json", {"variant": "standard", "steps": ["e2e4"]})
    status, out, _ = run(["check", str(path)], capsys)
    assert status == 1 and "not implemented yet" in out and "0 passed, 1 failed" in out


def test_check_missing_path(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(["check", "/nonexistent/x"], capsys)
    assert status == 2 and "no such file or folder" in err


def test_check_runs_the_shared_standard_scenarios(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(["check", str(SHARED / "standard")], capsys)
    assert status == 0 and out.endswith("2 passed, 0 failed\n")


def test_perft_and_divide(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["perft", "--variant", "standard", "3"], capsys)[1] == "8902\n"
    status, out, _ = run(["perft", "--moves", "e2e4 e7e5", "--divide", "1"], capsys)
    lines = out.splitlines()
    assert status == 0 and lines[-1] == "29" and "e1e2: 1" in lines and lines[-2] == ""


@pytest.mark.parametrize("argv,problem", [
    (["perft", "--variant", "nope", "1"], "unknown variant"),
    (["perft", "--moves", "e2e5", "1"], "illegal action 'e2e5'"),
    (["perft", "--options", "{", "1"], "not JSON"),
    (["perft", "--options", '{"zz": 1}', "1"], "unknown option 'zz'"),
])
def test_perft_errors_are_one_line(argv: list[str], problem: str,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(argv, capsys)
    assert status == 2 and problem in err and "Traceback" not in err


def test_unknown_command(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(["frobnicate"], capsys)
    assert status == 2 and "unknown command" in err


def test_console_script_play_session(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    script = f"e2e4\ne7e6\nhell:a1-e4\ne1e3\nlegal\nundo\nsave {save}\nquit\n"
    exe = Path(sys.executable).with_name("gravekeeper")
    out = subprocess.run([str(exe), "play", "--variant", "standard"], input=script,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and "Traceback" not in out.stderr
    assert "white: e2e4" in out.stdout and "black: e7e6" in out.stdout
    assert "refused: 'hell:a1-e4': no square" in out.stdout
    assert "refused: illegal action 'e1e3'" in out.stdout
    assert "took back e7e6" in out.stdout and "Black to act" in out.stdout
    assert json.loads(save.read_text())["actions"] == ["e2e4"]
