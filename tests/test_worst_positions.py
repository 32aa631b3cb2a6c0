"""The slowest positions found by ``bench/worst_positions.py`` still list the same actions.

The bench times them; this test checks what they list, action for action, so that a faster
search can never be a wrong one. Standard positions are also checked against python-chess.
No timing here (the bench owns the targets).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import chess
import pytest

from referee.rules.variants import make_variant

DATA = Path(__file__).resolve().parent.parent / "bench" / "data" / "worst_positions.json"
POSITIONS: list[dict[str, Any]] = json.loads(DATA.read_text())["positions"]


def test_every_variant_has_worst_positions() -> None:
    assert {"standard", "deadmans", "ghost", "die", "afterlife", "zombie", "masquerade"} <= {
        w["variant"] for w in POSITIONS}


@pytest.mark.parametrize(
    "entry", POSITIONS,
    ids=[f"{w['variant']}-{i}" for i, w in enumerate(POSITIONS)])
def test_legal_actions_unchanged(entry: dict[str, Any]) -> None:
    variant = make_variant(entry["variant"], entry["options"])
    state = variant.from_position(entry["position"])
    legal = [variant.format_action(a) for a in variant.legal_actions(state)]
    assert legal == entry["legal"], entry["position"]
    if entry["variant"] == "standard":
        board = chess.Board(entry["position"])
        assert sorted(legal) == sorted(m.uci() for m in board.legal_moves)
