"""Perft: counting legal action sequences, the standard check of a move generator.

Every action counts as a ply, choices and rolls included (a Dead Man's capture followed by the
owner's ``home=`` choice is two plies). A finished game (mate, a draw by rule, a captured king)
has no legal actions, so perft stops there.
"""

from __future__ import annotations

from typing import Any

from referee.rules.state import State
from referee.rules.variant import Variant


def perft(variant: Variant[Any], state: State, depth: int) -> int:
    """The number of legal action sequences of length ``depth`` from ``state``."""
    if depth <= 0:
        return 1
    legal = variant.legal_actions(state)
    if depth == 1:
        return len(legal)
    apply = variant.apply
    return sum(perft(variant, apply(state, action), depth - 1) for action in legal)


def divide(variant: Variant[Any], state: State, depth: int) -> list[tuple[str, int]]:
    """Perft per first action: [(canonical action text, count)], in generation order."""
    return [
        (variant.format_action(a), perft(variant, variant.apply(state, a), depth - 1))
        for a in variant.legal_actions(state)
    ] if depth > 0 else []
