"""Event files (replay://) through ``gravekeeper watch``: each file names what it expects.

A file's ``# expect: A B C`` comment lists the actions watch must print (exactly, in order);
each ``# problem: TEXT`` comment is a problem line watch must print; a file without one must
print no problem line. Files live in tests/events/<variant>/.
"""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from referee.app.cli import main

EVENTS = Path(__file__).resolve().parents[1] / "events"
FILES = sorted(EVENTS.glob("*/*.events"))


def expectations(path: Path) -> tuple[list[str], list[str], list[str]]:
    """(expected actions, expected problem texts, extra watch arguments) of a file."""
    actions: list[str] = []
    problems: list[str] = []
    args: list[str] = []
    for line in path.read_text().splitlines():
        if line.startswith("# expect:"):
            actions += line.split(":", 1)[1].split()
        elif line.startswith("# problem:"):
            problems.append(line.split(":", 1)[1].strip())
        elif line.startswith("# args:"):
            args += shlex.split(line.split(":", 1)[1])
    return actions, problems, args


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.name}" for p in FILES])
def test_watch_prints_exactly_the_actions(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    actions, problems, args = expectations(path)
    status = main(["watch", f"replay://{path}", "--variant", path.parent.name, *args])
    out = capsys.readouterr().out.splitlines()
    assert status == 0
    assert [line for line in out if not line.startswith("#")] == actions
    found = [line for line in out if line.startswith("# problem:")]
    for text in problems:
        assert any(text in line for line in found), (text, found)
    if not problems:
        assert not found
    assert out[-2].startswith("# summary:")


def test_watch_bad_url_and_variant(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["watch", "nonsense://x"]) == 2
    assert main(["watch", "replay:///no/such/file.events"]) == 2
    assert main(["watch", "replay:///dev/null", "--variant", "nope"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "unknown variant 'nope'" in err
