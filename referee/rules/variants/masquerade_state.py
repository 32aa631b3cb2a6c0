"""The state of a Masquerade Chess game and its σ values (how each kind captures).

A σ is a kind-indexed tuple: the capture pattern each piece kind uses (``KR,QK,RN,BB,NQ`` in
text). Kept apart from the rules (:mod:`referee.rules.variants.masquerade`), as in every
variant: ``X.py`` rules, ``X_state.py`` state, ``X_text.py`` position text.
"""

from __future__ import annotations

from itertools import permutations
from typing import Final, Self

from referee.rules.errors import NotationError
from referee.rules.pieces import (
    BISHOP,
    CHESS_KIND_BY_LETTER,
    CHESS_LETTERS,
    KING,
    KNIGHT,
    PAWN,
    QUEEN,
    ROOK,
)
from referee.rules.state import State

Sigma = tuple[int, ...]
Attempt = tuple[int, int, int, int, bool, int]

#: The five patterns in assignment-row order (NOTATION.md: ``KR,QK,RN,BB,NQ``).
ROWS: Final = (KING, QUEEN, ROOK, BISHOP, KNIGHT)
ROW_LETTERS: Final = "KQRBN"


def sigma_from_text(rows: str) -> Sigma:
    """``KR,QK,RN,BB,NQ`` (canonical row order) as a kind-indexed tuple."""
    out = [0, PAWN, 0, 0, 0, 0, 0]
    for pair in rows.split(","):
        out[CHESS_KIND_BY_LETTER[pair[0]]] = CHESS_KIND_BY_LETTER[pair[1]]
    return tuple(out)


def _sigma_text(sigma: Sigma) -> str:
    return ",".join(r + CHESS_LETTERS[sigma[CHESS_KIND_BY_LETTER[r]]] for r in ROW_LETTERS)


def sigma_text(sigma: Sigma) -> str:
    """The canonical ``KR,QK,RN,BB,NQ`` text of a kind-indexed σ."""
    return _TEXT_OF.get(sigma) or _sigma_text(sigma)


SIGMA_TEXTS: Final = tuple(",".join(r + c for r, c in zip(ROW_LETTERS, p, strict=True))
                           for p in permutations(ROW_LETTERS))
ALL_SIGMAS: Final = tuple(sigma_from_text(t) for t in SIGMA_TEXTS)
_TEXT_OF: Final = dict(zip(ALL_SIGMAS, SIGMA_TEXTS, strict=True))


def deduction_table(consistent: tuple[Sigma, ...]) -> str:
    """The deduction table of the σ still ``consistent`` with the attempt results: for each
    row (piece type) and column (pattern) in ``KQRBN`` order, ``O`` when every consistent σ
    gives that pattern, ``X`` when none does, ``?`` otherwise. Exact, not rule-of-thumb."""
    cells = []
    for row in ROW_LETTERS:
        seen = {s[CHESS_KIND_BY_LETTER[row]] for s in consistent}
        for col in ROW_LETTERS:
            pattern = CHESS_KIND_BY_LETTER[col]
            cells.append("O" if seen == {pattern} else "?" if pattern in seen else "X")
    return "".join(cells)


_OPEN_TABLE: Final = deduction_table(ALL_SIGMAS)


ASSIGN_ROWS: Final = "KQRBN"


def parse_assignment(text: str) -> str:
    """Canonical ``colour:KX,QX,RX,BX,NX`` from a Masquerade assignment (any row order).

    Raises:
        NotationError: not a colour and a permutation of K, Q, R, B, N.
    """
    colour, sep, rows = text.strip().partition(":")
    colour = colour.strip().lower()
    if not sep or colour not in ("white", "black"):
        raise NotationError(f"assignment {text!r} must start with white: or black:")
    pairs = [p.strip().upper() for p in rows.split(",") if p.strip()]
    if len(pairs) != 5 or any(len(p) != 2 for p in pairs):
        raise NotationError(f"assignment {text!r} needs five pairs like KR,QK,RN,BB,NQ")
    table = {p[0]: p[1] for p in pairs}
    if sorted(table) != sorted(ASSIGN_ROWS) or sorted(table.values()) != sorted(ASSIGN_ROWS):
        raise NotationError(f"assignment {text!r} must map K,Q,R,B,N one-to-one onto K,Q,R,B,N")
    return colour + ":" + ",".join(r + table[r] for r in ASSIGN_ROWS)


class MasqState(State):
    """A Masquerade state.

    Attributes:
        sigma: capture pattern per kind for each colour's pieces (index 0 unused), or None
            while not yet assigned. ``sigma[WHITE]`` was chosen by Black and is secret to White.
        promoted: identities of promoted pieces (they capture normally with
            ``masq.promoted_capture=true_normal``).
        attempts: every capture attempt so far (public): (colour, kind whose σ was tried,
            from, to, succeeded, bit mask of the patterns that reached the target).
        attempt_log: the same attempts as text (``Nc3xd5 failed``), for views.
        consistent: per colour, the σ still consistent with that colour's attempt results
            (derived from public facts only; kept here so views need not replay history).
        deduced: per colour, the deduction table those σ give (see
            :meth:`Masquerade.deductions`), 25 letters ``O``/``X``/``?``, rows then columns
            in ``KQRBN`` order.
    """

    __slots__ = ("sigma", "promoted", "attempts", "attempt_log", "consistent", "deduced")

    sigma: list[Sigma | None]
    promoted: frozenset[int]
    attempts: tuple[Attempt, ...]
    attempt_log: tuple[str, ...]
    consistent: tuple[tuple[Sigma, ...], ...]
    deduced: tuple[str, ...]

    def __init__(self, size: int, turn: int, rng: int) -> None:
        super().__init__(size, turn, rng)
        self.sigma = [None, None, None]
        self.promoted = frozenset()
        self.attempts = self.attempt_log = ()
        self.consistent = ((), ALL_SIGMAS, ALL_SIGMAS)
        self.deduced = ("", _OPEN_TABLE, _OPEN_TABLE)

    def copy_extra(self, new: Self) -> None:
        new.sigma = self.sigma[:]
        new.promoted = self.promoted
        new.attempts = self.attempts  # immutable tuples: shared until an attempt adds one
        new.attempt_log = self.attempt_log
        new.consistent = self.consistent
        new.deduced = self.deduced
