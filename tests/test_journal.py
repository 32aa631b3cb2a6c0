"""The game journal: every action on disk at once; a crash or power cut loses nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.app.cli import main
from referee.live.journal import open_journal, read_journal
from referee.rules.errors import RecordError
from referee.rules.game import Game

MOVES = "e2e4 d7d5 e4d5 bury=b2 d8d5 bury=b8 b2b3".split()


def journaled(path: Path, moves: list[str]) -> Game:
    journal, game = open_journal(path, Game("zombie", seed=3))
    for text in moves:
        journal.write(game.play(text))
    journal.close()
    return game


def test_journal_replays_to_the_same_state(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    game = journaled(path, MOVES)
    again = read_journal(path)
    assert again.action_texts() == game.action_texts()
    assert again.variant.position(again.state) == game.variant.position(game.state)


def test_a_torn_last_line_is_dropped_and_play_goes_on(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    journaled(path, MOVES)
    with path.open("a") as handle:
        handle.write('{"action": "g8f')  # the power went off in the middle of this write
    journal, game = open_journal(path, Game("zombie", seed=3))
    assert game.action_texts() == MOVES
    journal.write(game.play("g8f6"))
    journal.close()
    assert read_journal(path).action_texts() == [*MOVES, "g8f6"]


@pytest.mark.parametrize("damage,problem", [
    ('{"action": "e2e5"}\n', "line 9: does not replay"),
    ("not json\n", "line 9: not JSON"),
    ("[1]\n", "line 9: expected a JSON object"),
])
def test_damage_is_named_by_line(tmp_path: Path, damage: str, problem: str) -> None:
    path = tmp_path / "game.jsonl"
    journaled(path, MOVES)
    with path.open("a") as handle:
        handle.write(damage)
    with pytest.raises(RecordError, match=problem):
        read_journal(path)


def test_a_journal_of_another_game_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    journaled(path, MOVES)
    with pytest.raises(RecordError, match="another game"):
        open_journal(path, Game("zombie", seed=4))


def test_watch_resumes_after_a_crash(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first = tmp_path / "first.events"
    first.write_text("0 lift e2\n100 place e4\n800 lift e7\n900 place e5\n")
    second = tmp_path / "second.events"  # the referee restarted; the board sends a snapshot
    second.write_text("0 occupied a1 b1 c1 d1 e1 f1 g1 h1 a2 b2 c2 d2 f2 g2 h2 e4 "
                      "a8 b8 c8 d8 e8 f8 g8 h8 a7 b7 c7 d7 f7 g7 h7 e5\n"
                      "500 lift g1\n600 place f3\n")
    journal = tmp_path / "game.jsonl"
    assert main(["watch", f"replay://{first}", "--journal", str(journal)]) == 0
    capsys.readouterr()
    assert main(["watch", f"replay://{second}", "--journal", str(journal)]) == 0
    out = capsys.readouterr().out
    assert "# resumed from" in out and "after 2 actions" in out
    assert [line for line in out.splitlines() if not line.startswith("#")] == ["g1f3"]
    assert read_journal(journal).action_texts() == ["e2e4", "e7e5", "g1f3"]


def test_watch_resume_skips_private_choices_already_made(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Resuming with the same --private list: the burial made before the crash is in the
    journal, so the queue goes on with the next one instead of offering it again."""
    events = (Path(__file__).parent / "events" / "zombie" / "reveal-and-rot.events").read_text()
    lines = [line for line in events.splitlines() if line and not line.startswith("#")]
    cut = next(i for i, line in enumerate(lines) if int(line.split()[0]) >= 3300)
    first = tmp_path / "first.events"
    first.write_text("\n".join(lines[:cut]) + "\n")
    second = tmp_path / "second.events"  # the rest, after the referee restarted
    second.write_text("\n".join(lines[cut:]) + "\n")
    journal = tmp_path / "game.jsonl"
    private = "bury=b2 bury=b8 bury=e8"
    args = ["--variant", "zombie", "--private", private, "--journal", str(journal)]
    assert main(["watch", f"replay://{first}", *args]) == 0
    before = capsys.readouterr().out
    assert "bury=(secret)" in before
    assert main(["watch", f"replay://{second}", *args]) == 0
    out = capsys.readouterr().out
    assert "# problem" not in out, out
    assert read_journal(journal).action_texts() == [
        "e2e4", "d7d5", "e4d5", "bury=b2", "d8d5", "bury=b8", "b2b3", "b2a1q", "bury=e8",
        "b1c3", "e7e6"]


def test_a_resumed_game_keeps_its_clock_times(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """With a clock, each journal line keeps both times after the action, and a resumed game
    goes on with the times of its last line (not the time control's full times)."""
    first = tmp_path / "first.events"
    first.write_text("0 lift e2\n100 place e4\n800 lift e7\n900 place e5\n")
    second = tmp_path / "second.events"
    second.write_text("0 occupied a1 b1 c1 d1 e1 f1 g1 h1 a2 b2 c2 d2 f2 g2 h2 e4 "
                      "a8 b8 c8 d8 e8 f8 g8 h8 a7 b7 c7 d7 f7 g7 h7 e5\n"
                      "500 lift g1\n600 place f3\n")
    journal = tmp_path / "game.jsonl"
    assert main(["watch", f"replay://{first}", "--journal", str(journal), "--clock", "5+3"]) == 0
    lines = [json.loads(line) for line in journal.read_text().splitlines()]
    white, black = lines[1]["clock"]  # after 1. e4: White's increment, Black untouched
    assert 302.0 < white <= 303.0 and black == 300.0
    lines[-1]["clock"] = [100.0, 200.0]  # as if both had thought for minutes
    journal.write_text("".join(json.dumps(line) + "\n" for line in lines))
    capsys.readouterr()
    assert main(["watch", f"replay://{second}", "--journal", str(journal), "--clock", "5+3"]) == 0
    white, black = json.loads(journal.read_text().splitlines()[-1])["clock"]
    assert 102.0 < white <= 103.0 and black == 200.0  # 1 s of slack for a slow machine


def test_a_bad_clock_in_the_journal_is_named(tmp_path: Path) -> None:
    journal = tmp_path / "game.jsonl"
    journal.write_text('{"format": "gravekeeper-journal/1", "variant": "standard", '
                       '"options": {}, "seed": 0}\n{"action": "e2e4", "clock": [1, "x"]}\n')
    with pytest.raises(RecordError, match="line 2: 'clock' must be two numbers"):
        open_journal(journal, Game("standard"))
