"""`gravekeeper sense` end to end (in-process and as a subprocess)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from firmware_bridge.cli import sense_main


@pytest.fixture
def game(tmp_path: Path) -> Path:
    path = tmp_path / "game.events"
    path.write_text("0 occupied e2\n5 lift e2\n9 place e4 P\n12 button confirm\n")
    return path


def test_sense_replay_prints_events(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert sense_main([f"replay://{game}"]) == 0
    assert capsys.readouterr().out == "occupied e2\nlift e2\nplace e4 P\nbutton confirm\n"


def test_sense_times_and_record(game: Path, tmp_path: Path,
                                capsys: pytest.CaptureFixture[str]) -> None:
    rec = tmp_path / "copy.events"
    assert sense_main([f"replay://{game}", "--times", "--fast", "--record", str(rec)]) == 0
    assert capsys.readouterr().out == game.read_text()
    assert [ln for ln in rec.read_text().splitlines() if not ln.startswith("#")] == \
        game.read_text().splitlines()


@pytest.mark.parametrize(("argv", "message"), [
    (["bogus://x"], "unknown sensor scheme 'bogus'"),
    (["not a url"], "is not a sensor URL"),
    (["serial:///dev/does-not-exist"], "cannot open the board"),
    (["replay:///no/such/file.events"], "cannot read event file"),
    (["sim://", "--rig", "/no/such/rig.toml"], "cannot read rig file"),
    (["sim://?variant=nope"], "no built-in rig 'nope'"),
])
def test_sense_errors_are_one_line(argv: list[str], message: str,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert sense_main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("gravekeeper sense: ") and message in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_sense_bad_rig_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rig = tmp_path / "r.toml"
    rig.write_text('[[module]]\nname = "main"\nrotation = 45\n')
    assert sense_main(["sim://", "--rig", str(rig)]) == 2
    assert f"{rig}: module 'main'.rotation" in capsys.readouterr().err


def test_sense_as_a_subprocess_with_sim(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "firmware_bridge.cli", "sim://?start=e1,e8", "--timeout", "0.3"],
        capture_output=True, text=True, timeout=30)
    assert proc.stdout.splitlines()[0] == "occupied e1 e8"
    assert proc.returncode == 2 and "no sensor event within 0.3 s" in proc.stderr
