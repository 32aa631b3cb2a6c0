"""The position text and drawings of Dead Man's Chess (the text side of
:class:`~referee.rules.variants.deadmans.DeadMans`, as ``zombie_text`` is Zombie's).

Position: ``EARTH HELL side castling ep tombstones halfmove fullmove`` then optional
``choose=``, ``ids=`` and ``removed=`` fields (see :meth:`DeadMansText.position`).
"""

from __future__ import annotations

from typing import Any

from referee.rules.errors import NotationError, RecordError
from referee.rules.fields import (
    bits,
    castling_text,
    chess_piece,
    fen_rows,
    read_castling,
    read_rows,
    read_side,
    side_text,
)
from referee.rules.geometry import FILES
from referee.rules.pieces import BLACK, CHESS_KIND_BY_LETTER, COLOUR_NAMES, KING, PAWN, WHITE, code
from referee.rules.rng import seed_state
from referee.rules.variants.chesslike import ChessLike
from referee.rules.variants.deadmans_state import DeadMansState, Pending

EARTH = "earth"
HELL = "hell"
_HELL_OFFSET = 64  # hell:xN is square (earth xN) + 64: Earth's 64 cells come first


class DeadMansText(ChessLike[DeadMansState]):
    """Positions, drawings and views of Dead Man's Chess states."""

    state_class = DeadMansState
    #: FEN rank order of each plane's squares (set by the rules class).
    _ranks: dict[str, list[list[int]]]

    # ------------------------------------------------------------------ positions

    def position(self, state: DeadMansState, private: bool = True) -> str:
        """``EARTH HELL side castling ep tombstones halfmove fullmove [key=value...]``.

        EARTH and HELL are FEN placements (rank 8 first); ep and tombstones are square names
        (``-`` for none; tombstones comma-separated). Optional fields: ``choose=w/p/hell:a7,...``
        (a pending home choice: chooser, piece, homes), ``ids=SQ:F[+],...`` (identities that
        differ from the default: a pawn started on the file it stands on, nothing else was a
        pawn; ``F`` is the starting file or ``-``, ``+`` marks a promoted piece, SQ ``choose``
        is the pending piece) and ``removed=LETTERS``.
        """
        name = self.layout.name
        castling = castling_text(state.castling)
        tombs = ",".join(name(sq) for sq in bits(state.tombs)) or "-"
        fields = [self._rows(state, EARTH), self._rows(state, HELL),
                  side_text(state.turn), castling,
                  name(state.ep) if state.ep >= 0 else "-", tombs,
                  str(state.halfmove), str(state.fullmove)]
        pending = state.pending
        if pending is not None:
            homes = ",".join(name(h) for h in pending.homes)
            fields.append(f"choose={'w' if pending.chooser == WHITE else 'b'}/"
                          f"{self.piece_letter(pending.piece)}/{homes}")
        marks = []
        ids, origin, promoted = state.ids, state.origin, state.promoted
        for sq, piece in enumerate(state.board):
            if piece:
                default = sq & 7 if piece & 15 == PAWN else -1
                ident = ids[sq]
                if origin.get(ident, -1) != default or ident in promoted:
                    marks.append(f"{name(sq)}:{self._ident_text(state, ident, default)}")
        if pending is not None:
            mark = self._ident_text(state, pending.ident, -1)
            if mark:
                marks.append(f"choose:{mark}")
        if marks:
            fields.append("ids=" + ",".join(marks))
        if state.removed:
            fields.append("removed=" + "".join(self.piece_letter(p) for p in state.removed))
        return " ".join(fields)

    @staticmethod
    def _ident_text(state: DeadMansState, ident: int, default_file: int) -> str:
        """The ``ids=`` mark of a piece, or "" when it has the default identity.

        ``default_file`` is the file a pawn stands on, or -1 for a piece with no default.
        """
        file = state.origin.get(ident, -1)
        promoted = ident in state.promoted
        if file == default_file and not promoted:
            return ""
        return (FILES[file] if file >= 0 else "-") + ("+" if promoted else "")

    def _rows(self, state: DeadMansState, plane: str) -> str:
        board, letter = state.board, self.piece_letter
        return fen_rows(board, self._ranks[plane], lambda sq: letter(board[sq]))

    def from_position(self, text: str, seed: int = 0) -> DeadMansState:
        """A state from :meth:`position` text.

        Raises:
            RecordError: naming the field that is wrong.
        """
        fields = text.split()
        if len(fields) < 8:
            raise RecordError(f"a {self.name} position has at least 8 fields: {text!r}")
        st = DeadMansState(self.layout.size, WHITE, seed_state(seed))
        self._place(st, fields[0], EARTH)
        self._place(st, fields[1], HELL)
        st.turn = st.to_act = read_side(fields[2])
        st.castling = read_castling(fields[3])
        try:
            st.ep = -1 if fields[4] == "-" else self.layout.square(fields[4])
            if fields[5] != "-":
                for part in fields[5].split(","):
                    sq = self.layout.square(part)
                    if sq >= _HELL_OFFSET:
                        raise RecordError(f"tombstone {part!r} is not on Earth")
                    st.tombs |= 1 << sq
            st.halfmove, st.fullmove = int(fields[6]), int(fields[7])
        except (NotationError, ValueError) as err:
            raise RecordError(f"bad position {text!r}: {err}") from None
        origin = {st.ids[sq]: sq & 7 for sq, p in enumerate(st.board) if p & 15 == PAWN}
        pending_ident = 0
        for extra in fields[8:]:
            key, sep, value = extra.partition("=")
            if not sep:
                raise RecordError(f"bad position field {extra!r} (want key=value)")
            if key == "choose":
                pending_ident = st.next_id
                st.next_id += 1
                st.pending = self._read_pending(value, pending_ident)
                st.to_act = st.pending.chooser
            elif key == "ids":
                self._read_ids(st, value, origin, pending_ident)
            elif key == "removed":
                st.removed = tuple(self._piece_code(ch) for ch in value)
            else:
                raise RecordError(f"unknown position field {key!r}")
        st.origin = origin
        return st

    def _read_pending(self, value: str, ident: int) -> Pending:
        parts = value.split("/")
        if len(parts) != 3 or parts[0] not in ("w", "b") or len(parts[1]) != 1:
            raise RecordError(f"bad choose field {value!r} (want w/p/hell:a7,hell:b7)")
        try:
            homes = tuple(self.layout.square(h) for h in parts[2].split(","))
        except NotationError as err:
            raise RecordError(f"bad choose field {value!r}: {err}") from None
        if len(homes) < 2 or any(h < _HELL_OFFSET for h in homes):
            raise RecordError(f"choose field {value!r} needs two or more Hell squares")
        chooser = WHITE if parts[0] == "w" else BLACK
        return Pending(self._piece_code(parts[1]), ident, homes, chooser)

    def _read_ids(self, st: DeadMansState, value: str, origin: dict[int, int],
                  pending_ident: int) -> None:
        promoted = set()
        for part in value.split(","):
            where, _, mark = part.rpartition(":")
            file_text, plus = (mark[:-1], True) if mark.endswith("+") else (mark, False)
            try:
                ident = pending_ident if where == "choose" else st.ids[self.layout.square(where)]
            except NotationError:
                ident = 0
            if not ident or file_text not in tuple(FILES) + ("-",):
                raise RecordError(f"bad ids entry {part!r}")
            origin.pop(ident, None)
            if file_text != "-":
                origin[ident] = FILES.index(file_text)
            if plus:
                promoted.add(ident)
        st.promoted = frozenset(promoted)

    @staticmethod
    def _piece_code(letter: str) -> int:
        kind = CHESS_KIND_BY_LETTER.get(letter.upper())
        if kind is None:
            raise RecordError(f"{letter!r} is not a piece letter")
        return code(kind, WHITE if letter.isupper() else BLACK)

    def _place(self, st: DeadMansState, placement: str, plane: str) -> None:
        def piece_of(letter: str) -> int | None:  # no king in Hell
            piece = chess_piece(letter)
            return None if plane == HELL and piece is not None and piece & 15 == KING else piece
        read_rows(st, placement, self._ranks[plane], piece_of, plane)

    # ------------------------------------------------------------------ showing

    def render(self, state: DeadMansState, viewer: int | None = None) -> str:
        """Earth and Hell side by side; ``+`` marks a tombstone (after the piece on it)."""
        gap = " " * 6
        lines = ["   Earth".ljust(26) + gap + "   Hell"]
        for y in range(7, -1, -1):
            earth = self._render_row(state, EARTH, y)
            hell = self._render_row(state, HELL, y)
            lines.append(f"{y + 1}  {earth}{gap}{y + 1}  {hell}".rstrip())
        files = "   " + "  ".join(FILES)
        lines.append(files.ljust(26) + gap + files)
        tombs = " ".join(sorted(self.layout.name(sq) for sq in bits(state.tombs))) or "none"
        lines.append(f"Tombstones (+): {tombs}")
        if state.removed:
            gone = " ".join(self.piece_letter(p) for p in state.removed)
            lines.append(f"Annihilated: {gone}")
        if state.pending is not None:
            letter = self.piece_letter(state.pending.piece)
            who = COLOUR_NAMES[state.pending.chooser].capitalize()
            lines.append(f"{who} chooses the Hell home of {letter}")
        lines.append(self.status_line(state))
        return "\n".join(lines)

    def _render_row(self, state: DeadMansState, plane: str, y: int) -> str:
        cells = []
        for x in range(8):
            sq = self.geo.at(plane, x, y)
            p = state.board[sq]
            tomb = plane == EARTH and state.tombs >> sq & 1
            if p:
                cells.append(self.piece_letter(p) + ("+" if tomb else " "))
            else:
                cells.append("+ " if tomb else ". ")
        return " ".join(cells)

    def view(self, state: DeadMansState, viewer: int | None) -> dict[str, Any]:
        out = super().view(state, viewer)
        out["tombstones"] = [self.layout.name(sq) for sq in bits(state.tombs)]
        if state.pending is not None:
            out["choice"] = {
                "colour": COLOUR_NAMES[state.pending.chooser],
                "piece": self.piece_letter(state.pending.piece),
                "homes": [self.layout.name(h) for h in state.pending.homes],
            }
        return out
