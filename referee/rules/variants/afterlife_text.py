"""Afterlife Chess as text: the one-line position notation and the terminal drawing.

Position: twelve space-separated fields (documented in docs/variants/afterlife.md)::

    wphw/ssss/4/1mm1/4/SSSS/WHPW - ee/4/ee 5 w - - - 0 0 0 -

1. World, rank 7 down to rank 1, files a-d, FEN style (digits count empty cells);
2. Limbo: ``-`` or the piece, ``@`` its arrival ply, ``!`` if its owner has moved since;
3. Twelve Hours, rank 3 (a3 d3), rank 2 (a2 b2 g2 d2), rank 1 (a1 d1);
4. Hall h1 up to h5; 5. side to move ``w``/``b``; 6. ``drop`` when the Limbo piece's owner must
   pick a Twelve-Hours cell, else ``-``; 7. en passant ``skipped/victim`` (``a3/a4``) or ``-``;
8. the last turn's gray move ``from-to`` or ``-``; 9. consecutive passes; 10. plies since the
   last irreversible action; 11. ply number; 12. pieces gone for good, in order, or ``-``.

A piece is its NOTATION.md letter, then ``*`` if it has ``captured_this_life`` and ``+`` if it
is a promoted Slave. Afterlife has no secrets, so the public and private forms are the same.
"""

from __future__ import annotations

import re
from functools import partial

from referee.rules.errors import NotationError, RecordError
from referee.rules.fields import fen_rows, read_side, side_text
from referee.rules.pieces import BLACK, COLOUR_NAMES, GRAY, WHITE, code
from referee.rules.variant import Variant
from referee.rules.variants.afterlife_state import (
    KIND_BY_LETTER,
    LETTERS,
    LIMBO,
    MERCENARY,
    AfterlifeState,
)

_TOKEN = re.compile(r"(?P<letter>[PHWSphwsme])(?P<flag>\*?)(?P<promo>\+?)|(?P<empty>[1-9])")
_LIMBO = re.compile(r"^(?P<piece>[PHWSphws]\*?\+?)@(?P<ply>\d+)(?P<ready>!?)$")
HOURS_ROWS = (("hours:a3", "hours:d3"), ("hours:a2", "hours:b2", "hours:g2", "hours:d2"),
              ("hours:a1", "hours:d1"))
HALL_CELLS = ("hall:h1", "hall:h2", "hall:h3", "hall:h4", "hall:h5")
FILES = "abcd"



class AfterlifeText(Variant[AfterlifeState]):
    """The text side of :class:`~referee.rules.variants.afterlife.Afterlife`: piece letters,
    the position text and the drawing."""

    state_class = AfterlifeState

    def piece_code(self, letter: str) -> int:
        """The code of a NOTATION.md letter (``m``/``e`` gray). Raises KeyError if unknown."""
        if letter in "me":
            return code(KIND_BY_LETTER[letter.upper()], GRAY)
        kind = KIND_BY_LETTER[letter.upper()]
        if kind >= MERCENARY:
            raise KeyError(letter)
        return code(kind, WHITE if letter.isupper() else BLACK)

    def piece_letter(self, piece: int) -> str:
        if not piece:
            return ""
        letter = LETTERS[piece & 15]
        return letter if piece >> 4 == WHITE else letter.lower()

    def world_rows(self) -> list[list[int]]:
        """World squares by rank, rank 7 first."""
        return [[self.layout.square(f"{f}{r}") for f in FILES] for r in range(7, 0, -1)]


    # ------------------------------------------------------------------ writing


    def _token(self, st: AfterlifeState, sq: int) -> str:
        ident = st.ids[sq]
        return (self.piece_letter(st.board[sq]) + ("*" if ident in st.flagged else "")
                + ("+" if ident in st.promoted else ""))




    def position(self, state: AfterlifeState, private: bool = True) -> str:
        """The position text of ``state``."""

        sq = self.layout.square
        name = self.layout.name
        token = partial(self._token, state)
        world = fen_rows(state.board, self.world_rows(), token)
        limbo = "-"
        if state.board[LIMBO]:
            ready = "!" if state.limbo_ready else ""
            limbo = f"{self._token(state, LIMBO)}@{state.limbo_ply}{ready}"
        hours = fen_rows(state.board, [[sq(c) for c in row] for row in HOURS_ROWS], token)
        hall = fen_rows(state.board, [[sq(c) for c in HALL_CELLS]], token)
        ep = f"{name(state.ep)}/{name(state.ep_to)}" if state.ep >= 0 else "-"
        gray = f"{name(state.last_gray[0])}-{name(state.last_gray[1])}" if state.last_gray else "-"
        removed = "".join(self.piece_letter(p) for p in state.removed) or "-"
        choice = "drop" if state.pending else "-"
        return (f"{world} {limbo} {hours} {hall} {side_text(state.turn)} {choice} {ep} {gray} "
                f"{state.passes} {state.halfmove} {state.ply} {removed}")


    # ------------------------------------------------------------------ reading


    def from_position(self, text: str, seed: int = 0) -> AfterlifeState:
        """A state from :meth:`position` text (format in docs/variants/afterlife.md; the
        generator is unused: Afterlife has no chance).

        Raises:
            RecordError: naming the field that is wrong.
        """

        fields = text.split()
        if len(fields) != 12:
            raise RecordError(f"an Afterlife position has 12 fields, not {len(fields)}: {text!r}")
        st = AfterlifeState(self.layout.size, WHITE, 0)
        sq = self.layout.square
        ranks = fields[0].split("/")
        if len(ranks) != 7:
            raise RecordError(f"the World field needs 7 ranks, has {len(ranks)}")
        for row, squares in zip(ranks, self.world_rows(), strict=True):
            self._place_row(st, row, squares, "World")
        self._read_limbo(st, fields[1], LIMBO)
        hours = fields[2].split("/")
        if len(hours) != 3:
            raise RecordError(f"the Twelve Hours field needs 3 ranks, has {len(hours)}")
        for row, names in zip(hours, HOURS_ROWS, strict=True):
            self._place_row(st, row, [sq(c) for c in names], "Twelve Hours")
        self._place_row(st, fields[3], [sq(c) for c in HALL_CELLS], "Hall")
        st.turn = read_side(fields[4])
        if fields[5] not in ("-", "drop"):
            raise RecordError(f"the choice field must be - or drop, not {fields[5]!r}")
        st.pending = fields[5] == "drop"
        if st.pending and not st.board[LIMBO]:
            raise RecordError("a drop is pending but Limbo is empty")
        st.to_act = st.board[LIMBO] >> 4 if st.pending else st.turn
        self._read_tail(st, fields)
        return st


    def _place_row(self, st: AfterlifeState, row: str, squares: list[int], where: str) -> None:
        i = 0
        pos = 0
        while pos < len(row) and i < len(squares):
            m = _TOKEN.match(row, pos)
            if m is None:
                raise RecordError(f"bad {where} row {row!r}")
            pos = m.end()
            if m.group("empty"):
                i += int(m.group("empty"))
                continue
            self._put(st, squares[i], m.group("letter"), bool(m.group("flag")),
                      bool(m.group("promo")))
            i += 1
        if i != len(squares) or pos != len(row):
            raise RecordError(f"{where} row {row!r} does not have {len(squares)} cells")


    def _put(self, st: AfterlifeState, sq: int, letter: str, flag: bool, promo: bool) -> None:
        piece = self.piece_code(letter)
        if (flag or promo) and piece >> 4 == GRAY:
            raise RecordError(f"a gray piece ({letter}) cannot carry * or +")
        ident = st.place(sq, piece)
        if flag:
            st.flagged = st.flagged | {ident}
        if promo:
            st.promoted = st.promoted | {ident}


    def _read_limbo(self, st: AfterlifeState, text: str, limbo: int) -> None:
        if text == "-":
            return
        m = _LIMBO.match(text)
        if m is None:
            raise RecordError(f"bad Limbo field {text!r} (like s@3, or -)")
        token = m.group("piece")
        self._put(st, limbo, token[0], "*" in token, "+" in token)
        st.limbo_ply = int(m.group("ply"))
        st.limbo_ready = bool(m.group("ready"))


    def _read_tail(self, st: AfterlifeState, fields: list[str]) -> None:
        try:
            if fields[6] != "-":
                skipped, _, victim = fields[6].partition("/")
                st.ep, st.ep_to = self.layout.square(skipped), self.layout.square(victim)
            if fields[7] != "-":
                frm, _, to = fields[7].partition("-")
                st.last_gray = (self.layout.square(frm), self.layout.square(to))
            st.passes, st.halfmove, st.ply = int(fields[8]), int(fields[9]), int(fields[10])
        except (NotationError, ValueError) as err:
            raise RecordError(f"bad Afterlife position field: {err}") from None
        if min(st.passes, st.halfmove, st.ply) < 0:
            raise RecordError("passes, clock and ply must not be negative")
        st.fullmove = 1 + st.ply // 2
        if fields[11] != "-":
            try:
                st.removed = tuple(self.piece_code(c) for c in fields[11])
            except KeyError as err:
                raise RecordError(f"bad removed field {fields[11]!r}: {err}") from None


    # ------------------------------------------------------------------ drawing


    def _cell(self, st: AfterlifeState, sq: int) -> str:
        return (self._token(st, sq) if st.board[sq] else ".").ljust(3)


    def render(self, state: AfterlifeState, viewer: int | None = None) -> str:
        """All four boards side by side, then Limbo, a legend and whose turn it is."""

        sq = self.layout.square
        left = ["   World"]
        for r, row in zip(range(7, 0, -1), self.world_rows(), strict=True):
            left.append(f"{r}  " + "".join(self._cell(state, s) for s in row))
        left.append("   " + "".join(f.ljust(3) for f in FILES))
        middle = ["   Twelve Hours"]
        for r, names in zip((3, 2, 1), HOURS_ROWS, strict=True):
            cells = {n[6]: self._cell(state, sq(n)) for n in names}
            middle.append(f"{r}  " + "".join(cells.get(f, "   ") for f in "abgd"))
        middle.append("   " + "".join(f.ljust(3) for f in "abgd"))
        middle.append("")
        limbo = self._token(state, LIMBO) if state.board[LIMBO] else " "
        middle.append(f"   Limbo [{limbo}]")
        right = ["Hall of Truth"]
        notes = {5: "Feather of Ma'at", 1: "Entrance"}
        for r in range(5, 0, -1):
            right.append(f"h{r}  {self._cell(state, sq(f'hall:h{r}'))}{notes.get(r, '')}".rstrip())
        rows = max(len(left), len(middle), len(right))
        lines = []
        for i in range(rows):
            parts = [col[i] if i < len(col) else "" for col in (left, middle, right)]
            lines.append(f"{parts[0]:<18}{parts[1]:<19}{parts[2]}".rstrip())
        lines.append("(* captured this life, + promoted Slave)")
        lines.append(self._status(state))
        return "\n".join(lines)


    def _status(self, st: AfterlifeState) -> str:
        end = self.outcome(st)
        if end.result != "*":
            return f"Game over: {end.result} ({end.reason})"
        who = COLOUR_NAMES[st.to_act].capitalize()
        if st.pending:
            return f"{who} to drop the piece from Limbo on an empty Twelve-Hours cell"
        return f"{who} to move" + (" - check!" if self.in_check(st) else "")
