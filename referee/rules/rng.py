"""A small deterministic random source whose whole state is one integer.

The state lives inside the game state (so a saved game resumes with the same future dice, and
states stay immutable values); it is private to the referee and never appears in a view.
SplitMix64: fast, well distributed, and trivially serialisable.
"""

from __future__ import annotations

from typing import Final

_MASK: Final = (1 << 64) - 1


def seed_state(seed: int) -> int:
    """The initial generator state for a user-facing seed."""
    return (seed * 0x9E3779B97F4A7C15 + 0x2545F4914F6CDD1D) & _MASK


def next_u64(state: int) -> tuple[int, int]:
    """Advance: returns (new_state, 64-bit output)."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


def randbelow(state: int, n: int) -> tuple[int, int]:
    """A uniform integer in ``0 .. n-1`` (rejection sampling, no modulo bias).

    Returns (new_state, value). Raises ValueError if ``n`` < 1.
    """
    if n < 1:
        raise ValueError("randbelow needs n >= 1")
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        state, x = next_u64(state)
        if x < limit:
            return state, x % n


def shuffle(state: int, items: list[str]) -> tuple[int, list[str]]:
    """A Fisher-Yates shuffle of a copy of ``items``: (new_state, shuffled)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        state, j = randbelow(state, i + 1)
        out[i], out[j] = out[j], out[i]
    return state, out
