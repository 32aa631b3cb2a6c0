"""The position text of Masquerade Chess (the text side of
:class:`~referee.rules.variants.masquerade.Masquerade`, as ``zombie_text`` is Zombie's).

Position: a FEN, then each colour's σ (``KR,QK,RN,BB,NQ``; ``-`` before it is assigned, ``?``
in the public form), the promoted pieces' squares and the private ``rng:`` field.
"""

from __future__ import annotations

from typing import Any, Final

from referee.rules.errors import NotationError, RecordError
from referee.rules.fields import (
    castling_text,
    pop_rng,
    read_castling,
    read_rows,
    read_side,
    rng_text,
    side_text,
)
from referee.rules.pieces import BLACK, COLOUR_NAMES, KING, WHITE
from referee.rules.rng import seed_state
from referee.rules.variants.chesslike import ChessLike
from referee.rules.variants.masquerade_state import (
    SIGMA_TEXTS,
    MasqState,
    Sigma,
    parse_assignment,
    sigma_from_text,
    sigma_text,
)

_RUNS: Final = tuple("1" * n for n in range(8, 1, -1))  # longest first


class MasqueradeText(ChessLike[MasqState]):
    """FEN and position text of Masquerade states, with the tables that write them fast."""

    state_class = MasqState

    def __init__(self, options: dict[str, Any] | None = None) -> None:
        super().__init__(options)
        self.ranks: tuple[tuple[int, ...], ...] = tuple(
            tuple(self.geo.at("board", x, y) for x in range(8)) for y in range(7, -1, -1))
        # Letter per piece code ("1" for an empty square, merged into counts in fen()).
        self.letters: tuple[str, ...] = tuple(
            "1" if not p else self.piece_letter(p)
            if 0 < p & 15 <= KING and p >> 4 in (WHITE, BLACK) else "?"
            for p in range(64))
        self.names: tuple[str, ...] = tuple(self.layout.name(sq) for sq in range(self.layout.size))
        self.code_of: dict[str, int] = {self.letters[p]: p for p in range(64)
                                        if self.letters[p] not in "1?"}
        self.sigma_by_text: dict[str, Sigma] = {t: sigma_from_text(t) for t in SIGMA_TEXTS}

    @staticmethod
    def assigning(state: MasqState) -> int:
        """The colour whose pieces are still to be assigned (0 once play has begun).

        White assigns Black's pieces first, then Black assigns White's.
        """
        if state.sigma[BLACK] is None:
            return BLACK
        if state.sigma[WHITE] is None:
            return WHITE
        return 0

    def _promoted_squares(self, state: MasqState) -> tuple[int, ...]:
        if not state.promoted:
            return ()
        return tuple(sq for sq in self.rules.squares if state.ids[sq] in state.promoted)

    # ------------------------------------------------------------------ positions

    def fen(self, state: MasqState) -> str:
        """The FEN of the board, as :meth:`ChessLike.fen` writes it, from precomputed tables
        (the FEN is written for every position of a game; memoised per state)."""
        found: str | None = state.cache.get("fen")
        if found is not None:
            return found
        board, letters = state.board, self.letters
        text = "/".join(["".join([letters[board[sq]] for sq in rank]) for rank in self.ranks])
        for run in _RUNS:
            text = text.replace(run, str(len(run)))
        castling = castling_text(state.castling)
        ep = self.layout.name(state.ep) if state.ep >= 0 else "-"
        side = side_text(state.turn)
        found = f"{text} {side} {castling} {ep} {state.halfmove} {state.fullmove}"
        state.cache["fen"] = found
        return found

    def position(self, state: MasqState, private: bool = True) -> str:
        """``<FEN> <σ of White's pieces> <σ of Black's pieces> <promoted>[ rng:HEX]``.

        σ is ``KR,QK,RN,BB,NQ``; ``-`` while not assigned yet; ``?`` in the public form, which
        hides both σ and the generator. ``<promoted>`` lists the squares of promoted pieces
        (``e8,d1``) or ``-``. The side to act during setup follows from which σ is missing.
        """
        sig = []
        for c in (WHITE, BLACK):
            s = state.sigma[c]
            sig.append("-" if s is None else sigma_text(s) if private else "?")
        promoted = ",".join(self.layout.name(s) for s in self._promoted_squares(state)) or "-"
        text = f"{self.fen(state)} {sig[0]} {sig[1]} {promoted}"
        return f"{text} {rng_text(state.rng)}" if private else text

    def from_position(self, text: str, seed: int = 0) -> MasqState:
        """A state from the private :meth:`position` text (or a plain FEN: no σ assigned yet).

        Raises:
            RecordError: a bad field, or a public position (its σ are hidden).
        """
        fields = text.split()
        rng = pop_rng(fields, seed_state(seed), text)
        if len(fields) not in (6, 9):
            raise RecordError(f"a Masquerade position has a FEN and 3 more fields: {text!r}")
        st = self._read_fen(fields[:6], rng)
        if len(fields) == 9:
            for colour, field in zip((WHITE, BLACK), fields[6:8], strict=True):
                st.sigma[colour] = self._read_sigma(colour, field)
            if fields[8] != "-":
                try:
                    squares = [self.layout.square(s) for s in fields[8].split(",")]
                except NotationError as err:
                    raise RecordError(f"bad promoted field: {err}") from None
                st.promoted = frozenset(st.ids[s] for s in squares if st.ids[s])
        if st.sigma[BLACK] is None and st.sigma[WHITE] is not None:
            raise RecordError("White assigns Black's patterns first")
        target = self.assigning(st)
        if target:
            st.to_act = 3 - target
        return st

    def _read_fen(self, fields: list[str], rng: int) -> MasqState:
        """The chess part of a position (the six FEN fields), read with precomputed tables.

        Raises:
            RecordError: naming the field that is wrong.
        """
        st = self.new_state(WHITE, rng)
        read_rows(st, fields[0], self.ranks, self.code_of.get)
        st.turn = st.to_act = read_side(fields[1])
        st.castling = read_castling(fields[2])
        try:
            st.ep = -1 if fields[3] == "-" else self.layout.square(fields[3])
            st.halfmove, st.fullmove = int(fields[4]), int(fields[5])
        except (NotationError, ValueError) as err:
            raise RecordError(f"bad FEN field: {err}") from None
        return st

    def _read_sigma(self, colour: int, field: str) -> Sigma | None:
        if field == "-":
            return None
        if field == "?":
            raise RecordError("a public position hides the capture patterns: use the private "
                              "form to set up a game")
        found = self.sigma_by_text.get(field)
        if found is not None:
            return found
        try:
            rows = parse_assignment(f"{COLOUR_NAMES[colour]}:{field}").partition(":")[2]
        except NotationError as err:
            raise RecordError(str(err)) from None
        return self.sigma_by_text[rows]
