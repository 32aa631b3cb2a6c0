"""The position text, drawings and views of Ghost Chess (the text side of
:class:`~referee.rules.variants.ghost.Ghost`, as ``zombie_text`` is Zombie's).
"""

from __future__ import annotations

from typing import Any

from referee.rules.errors import NotationError, RecordError
from referee.rules.fields import castling_text, read_castling, read_side
from referee.rules.geometry import Geometry
from referee.rules.pieces import COLOUR_NAMES, KING, WHITE
from referee.rules.rng import seed_state
from referee.rules.variants.chesslike import ChessLike
from referee.rules.variants.ghost_board import PLANE, GhostTables
from referee.rules.variants.ghost_state import GhostState

KIND_NAMES = ("", "pawn", "knight", "bishop", "rook", "queen", "king")
#: Board squares in FEN order (rank 8 first); a board square's index is rank * 8 + file.
FEN_ORDER = tuple(sq for rank in range(7, -1, -1) for sq in range(rank * 8, rank * 8 + 8))
FEN_RUNS = tuple(("1" * n, str(n)) for n in range(8, 1, -1))
FEN_EXPAND = str.maketrans({str(n): "1" * n for n in range(2, 10)})


class GhostText(ChessLike[GhostState]):
    """The position text, drawings and views of Ghost states."""

    state_class = GhostState
    #: Tables the rules class builds (see :class:`~referee.rules.variants.ghost.Ghost`).
    ring: tuple[int, ...]
    ext: Geometry
    tables: GhostTables
    names: list[str]
    ring_by_name: dict[str, int]
    codes: dict[str, int]
    letters: list[str]
    fen_letters: list[str]

    # ------------------------------------------------------------------ positions

    def position(self, state: GhostState, private: bool = True) -> str:
        """``BOARD GHOSTS SIDE CASTLING EP HALFMOVE FULLMOVE PENDING REMOVED``.

        BOARD..FULLMOVE are FEN with the ghosts field inserted after the board: ``-`` or
        comma-separated letter+cell (``qi4,Pz5``). PENDING is ``-`` or the piece waiting for its
        ghost cell and the square it was captured on (``p@d5``). REMOVED lists the letters of the
        pieces gone for good in the order they left (``-`` if none).
        """
        board, letters, names = state.board, self.letters, self.names
        filled = self.fen_letters  # "1" for an empty square, then runs of 1s become counts
        chars = [filled[board[sq]] for sq in FEN_ORDER]
        for at in (56, 48, 40, 32, 24, 16, 8):
            chars.insert(at, "/")
        placement = "".join(chars)
        for run, count in FEN_RUNS:
            placement = placement.replace(run, count)
        ghosts = ",".join(letters[board[sq]] + names[sq] for sq in self.ring if board[sq]) or "-"
        castling = castling_text(state.castling)
        pending = "-"
        if state.pending:
            pending = f"{letters[state.pending]}@{names[state.pending_from]}"
        removed = "".join(letters[p] for p in state.removed) or "-"
        return (f"{placement} {ghosts} {'w' if state.turn == WHITE else 'b'} "
                f"{castling or '-'} {names[state.ep] if state.ep >= 0 else '-'} "
                f"{state.halfmove} {state.fullmove} {pending} {removed}")

    def from_position(self, text: str, seed: int = 0) -> GhostState:
        """A state from :meth:`position` text; a plain 6-field FEN (no ghosts) and the 7-field
        form without PENDING and REMOVED are accepted too.

        Raises:
            RecordError: naming the field that is wrong.
        """
        fields = text.split()
        if len(fields) == 6:
            fields = [fields[0], "-", *fields[1:], "-", "-"]
        elif len(fields) == 7:
            fields += ["-", "-"]
        if len(fields) != 9:
            raise RecordError(f"a Ghost Chess position has 9 fields, not {len(fields)}: {text!r}")
        st = GhostState(self.layout.size, WHITE, seed_state(seed))
        self._place_board(st, fields[0])
        self._place_ghosts(st, fields[1])
        self._read_fen_tail(st, fields[2:7], text)
        self._read_pending(st, fields[7])
        st.removed = tuple(self._letter_code(ch) for ch in fields[8] if fields[8] != "-")
        return st

    def _place_board(self, st: GhostState, placement: str) -> None:
        rows = placement.translate(FEN_EXPAND).split("/")  # one character per square
        if len(rows) != 8:
            raise RecordError(f"board field needs 8 ranks, has {len(rows)}")
        board, ids, codes = st.board, st.ids, self.codes
        for i, row in enumerate(rows):
            if len(row) != 8:
                raise RecordError(f"rank {8 - i} of {placement!r} does not have 8 squares")
            base = (7 - i) * 8
            for x, ch in enumerate(row):
                if ch != "1":
                    piece = codes.get(ch, 0)
                    if not piece:
                        raise RecordError(f"bad piece {ch!r} in board field {placement!r}")
                    board[base + x], ids[base + x] = piece, st.next_id
                    st.next_id += 1

    def _place_ghosts(self, st: GhostState, field: str) -> None:
        if field == "-":
            return
        for item in field.split(","):
            piece = self._letter_code(item[:1])
            sq = self.ring_by_name.get(item[1:], -1)
            if sq < 0 or piece & 15 == KING:
                raise RecordError(f"ghost {item!r}: ghosts are non-king pieces on ring cells")
            st.place(sq, piece)

    def _read_fen_tail(self, st: GhostState, fields: list[str], text: str) -> None:
        side, castling, ep, halfmove, fullmove = fields
        st.turn = st.to_act = read_side(side)
        st.castling = read_castling(castling)
        try:
            st.ep = -1 if ep == "-" else self.layout.square(ep)
            st.halfmove, st.fullmove = int(halfmove), int(fullmove)
        except (NotationError, ValueError) as err:
            raise RecordError(f"bad position {text!r}: {err}") from None

    def _read_pending(self, st: GhostState, field: str) -> None:
        if field == "-":
            return
        letter, at, square = field.partition("@")
        piece = self._letter_code(letter)
        try:
            frm = self.layout.square(square)
        except NotationError:
            raise RecordError(f"pending spawn {field!r}: no square {square!r}") from None
        if not at or self.tables.is_ring[frm] or piece & 15 == KING or piece >> 4 == st.turn:
            raise RecordError(f"pending spawn {field!r}: needs an opponent's non-king piece "
                              "and the board square it was captured on")
        st.pending, st.pending_from, st.pending_id = piece, frm, st.next_id
        st.next_id += 1
        st.to_act = piece >> 4

    def _letter_code(self, letter: str) -> int:
        piece = self.codes.get(letter, 0)
        if not piece:
            raise RecordError(f"{letter!r} is not a piece letter")
        return piece

    # ------------------------------------------------------------------ drawing and views

    def render(self, state: GhostState, viewer: int | None = None) -> str:
        """The 8x8 inside its ring: ring cells are ``:`` when empty (blank if they do not exist
        under ``ghost.edge_ring``), ghosts are piece letters on the ring."""
        frame = "   z  a b c d e f g h  i"
        lines = [frame]
        for y in range(9, -1, -1):
            cells = []
            for x in range(10):
                sq = self.ext.at(PLANE, x, y)
                if sq < 0:
                    cells.append(" ")
                elif state.board[sq]:
                    cells.append(self.piece_letter(state.board[sq]))
                else:
                    cells.append(":" if self.tables.is_ring[sq] else ".")
            inner = " ".join(cells[1:9])
            lines.append(f"{y}  {cells[0]}  {inner}  {cells[9]}  {y}".rstrip())
        lines.append(frame)
        lines.extend(self._status_lines(state))
        return "\n".join(lines)

    def _status_lines(self, state: GhostState) -> list[str]:
        out = []
        if state.pending:
            out.append(f"Waiting: {COLOUR_NAMES[state.pending >> 4]} places the ghost of its "
                       f"{KIND_NAMES[state.pending & 15]} captured on "
                       f"{self.layout.name(state.pending_from)}")
        if state.removed:
            out.append("Gone for good: " + " ".join(self.piece_letter(p) for p in state.removed))
        out.append(self.status_line(state))
        return out

    def view(self, state: GhostState, viewer: int | None) -> dict[str, Any]:
        data = super().view(state, viewer)
        data["ring"] = [self.layout.name(sq) for sq in self.ring]
        data["ghosts"] = {self.layout.name(sq): self.piece_letter(state.board[sq])
                          for sq in self.ring if state.board[sq]}
        data["pending_spawn"] = None if not state.pending else {
            "piece": self.piece_letter(state.pending),
            "captured_on": self.layout.name(state.pending_from),
        }
        return data
