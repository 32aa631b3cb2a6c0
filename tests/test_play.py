"""``gravekeeper play`` the way a person uses it: the installed command, lines on stdin."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from referee.rules.variants import VARIANTS, make_variant

EXE = Path(sys.executable).with_name("gravekeeper")


def play(variant: str, lines: list[str], *options: str, save: Path | None = None) -> str:
    script = lines + ([f"save {save}"] if save else []) + ["quit"]
    out = subprocess.run([str(EXE), "play", "--variant", variant, *options],
                         input="\n".join(script) + "\n", capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0 and out.stderr == "", out.stderr
    return out.stdout


def test_standard_takes_san_and_uci(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    text = play("standard", ["e4", "e7e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6", "O-O",
                             "Bg4", "h3", "Bh5", "g4", "Bg6", "Nxe5", "Qh4", "Nxg6",
                             "Nf3", "e9", "hxg6"], save=save)
    assert "white: e2e4" in text and "white: g1f3" in text and "white: e1g1" in text
    assert "white: b5c6" in text and "black: d7c6" in text and "black: h7g6" in text
    assert "refused: 'Nf3': no legal N move to f3" in text
    assert "refused: cannot read 'e9'" in text
    assert json.loads(save.read_text())["actions"][:3] == ["e2e4", "e7e5", "g1f3"]


def test_ambiguous_san_says_which_pieces() -> None:
    text = play("standard", ["Nf3", "Nf6", "Nc3", "Nc6", "Nd4", "Nd5", "Nb5", "Ndb5"])
    assert "refused: 'Nb5' is ambiguous: the N on c3, d4 can go there" in text
    assert "white: d4b5" in text


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_help_comes_from_the_variant(variant: str) -> None:
    text = play(variant, ["help"])
    assert make_variant(variant, None).help() in text
    if variant != "deadmans":
        assert "home=hell" not in text
    if variant == "zombie":
        assert "bury=" in text


def test_masquerade_setup_is_guided_not_listed() -> None:
    text = play("masquerade", ["legal", "guide", "R", "X", "K", "N", "B", "QRKBN", "e4",
                               "legal"])
    assert text.count("assign=") < 5  # never the 120 permutations
    assert "Black's king - capture like which piece? (K Q R B N)" in text
    assert "refused: 'X' is not one of K Q B N" in text
    assert "white: assign=black:(secret)" in text and "black: assign=white:(secret)" in text
    assert "white: e2e4" in text
    assert "RN" not in text.split("black: assign=white:(secret)")[1]  # nothing echoed back


def test_masquerade_random_and_wrong_letters() -> None:
    text = play("masquerade", ["KQRBB", "random", "random", "Nf3"])
    assert "refused: 'KQRBB' is not an order of K Q R B N" in text
    assert "white: g1f3" in text


@pytest.mark.parametrize("source,offers_faces", [("physical", True), ("rng", False)])
def test_die_offers_faces_only_when_a_die_is_read(source: str, offers_faces: bool) -> None:
    text = play("die", ["legal"], "--options", json.dumps({"die.roll_source": source}))
    listed = next(line for line in text.splitlines() if line.startswith("a1a2"))
    assert ("roll=N (N: what your die shows, 1-6)" in listed) is offers_faces
    assert "roll=1" not in listed and "roll=6" not in listed
    assert "roll" in listed.split()
