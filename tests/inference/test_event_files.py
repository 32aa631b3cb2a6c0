"""Event files (replay://) through ``gravekeeper watch``: each file names what it expects.

A file's ``# expect: A B C`` comment lists the actions watch must print (exactly, in order);
each ``# problem: TEXT`` comment is a problem line watch must print; a file without one must
print no problem line. Files live in tests/events/<variant>/.
"""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from referee.app.cli import main

EVENTS = Path(__file__).resolve().parents[1] / "events"
FILES = sorted(EVENTS.glob("*/*.events"))
GRAVEKEEPER = Path(sys.executable).with_name("gravekeeper")


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


GROUPS = sorted({p.parent.name for p in FILES})


@pytest.mark.parametrize("variant", GROUPS)
def test_watch_in_real_time_prints_exactly_the_actions(variant: str) -> None:
    """The same files through ``gravekeeper watch --realtime`` as a real process, with the
    default settle time: the board is judged by the live loop's ticks, as on a real board.
    The files of one variant run at once (each mostly sleeps), so a group takes as long as
    its longest file."""
    files = [p for p in FILES if p.parent.name == variant]
    procs = []
    for path in files:
        _, _, args = expectations(path)
        cmd = [str(GRAVEKEEPER), "watch", f"replay://{path}", "--variant",
               variant, *args, "--realtime"]
        procs.append(subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                      text=True))
    for path, proc in zip(files, procs, strict=True):
        out, err = proc.communicate(timeout=120)
        actions, problems, _ = expectations(path)
        lines = out.splitlines()
        assert proc.returncode == 0, (path.name, err)
        assert [line for line in lines if not line.startswith("#")] == actions, path.name
        found = [line for line in lines if line.startswith("# problem:")]
        for text in problems:
            assert any(text in line for line in found), (path.name, text, found)
        if not problems:
            assert not found, (path.name, found)
