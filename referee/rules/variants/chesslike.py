"""Shared parts of the variants played on one 8x8 board with chess pieces.

:class:`ChessLike` gives the layout, FIDE move generation (through
:class:`~referee.rules.chesscore.ChessRules`), FEN positions, the standard outcome rules and a text
drawing. Standard chess is this class with nothing added; Zombie, Masquerade and Ghost Chess
extend it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from referee.rules import actions as A
from referee.rules.actions import Action
from referee.rules.chesscore import ChessRules, standard_rules
from referee.rules.errors import NotationError, RecordError
from referee.rules.events import Captured, GameEvent, Moved
from referee.rules.fields import (
    castling_text,
    chess_piece,
    fen_rows,
    read_castling,
    read_rows,
    read_side,
    side_text,
)
from referee.rules.geometry import Geometry, Layout, Region, standard_board
from referee.rules.pieces import (
    BISHOP,
    BLACK,
    COLOUR_NAMES,
    KING,
    KNIGHT,
    PAWN,
    QUEEN,
    ROOK,
    WHITE,
    code,
)
from referee.rules.rng import seed_state
from referee.rules.variant import ONGOING, Outcome, S, Variant, draw, win_for

START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
#: Pieces that alone give their side mating material.
_MATING = frozenset(code(k, c) for k in (PAWN, ROOK, QUEEN) for c in (WHITE, BLACK))


class ChessLike(Variant[S]):
    """One 8x8 board called ``board`` (squares ``a1``..``h8``, index = rank * 8 + file)."""

    board_region = "board"
    #: Option keys that switch the 50-move rule and threefold repetition (absent = on).
    fifty_option = ""
    repetition_option = ""

    def build_layout(self) -> Layout:
        return Layout([Region(self.board_region, standard_board(), implicit=True)])

    def __init__(self, options: dict[str, Any] | None = None) -> None:
        super().__init__(options)
        squares = self.layout.region_squares[self.board_region]
        self.geo = Geometry.build(self.layout, squares)
        self.rules: ChessRules = self.make_rules(self.geo, squares)
        self._fen_ranks = [[self.geo.at("board", x, y) for x in range(8)] for y in range(7, -1, -1)]

    def make_rules(self, geo: Geometry, squares: Sequence[int]) -> ChessRules:
        """The chess rule set for the board (variants may drop castling or change promotion)."""
        return standard_rules(geo, squares, "board", promo_letters=self.promo_letters)

    # ------------------------------------------------------------------ rules

    def initial_state(self, seed: int = 0) -> S:
        return self.from_position(START_FEN, seed)

    def generate(self, state: S) -> list[Action]:
        return self.rules.legal_moves(state.board, state.turn, state.castling, state.ep)

    def apply(self, state: S, action: Action,
              events: list[GameEvent] | None = None) -> S:
        new = state.copy()
        record = self.rules.make_move(new, action)
        if events is not None:
            self.move_events(action, record.piece, record.captured, record.captured_on, events,
                             record.rook)
        self.end_turn(new)
        return new

    def end_turn(self, st: S) -> None:
        """Hand the move to the other side."""
        if st.turn == BLACK:
            st.fullmove += 1
        st.turn = st.to_act = 3 - st.turn

    def move_events(self, action: Action, piece: int, captured: int, captured_on: int,
                    events: list[GameEvent], rook: tuple[int, int] | None = None) -> None:
        """Public events for a plain move (and its capture); ``rook`` is castling's rook move
        (from, to), so that the LEDs and the display show both pieces of a castling."""
        name = self.layout.name
        letter = self.piece_letter(piece)
        events.append(Moved(f"{letter} {name(action.frm)}-{name(action.to)}", piece=letter,
                            frm=name(action.frm), to=name(action.to)))
        if rook is not None:
            r = "R" if piece >> 4 == WHITE else "r"
            events.append(Moved(f"{r} {name(rook[0])}-{name(rook[1])}", piece=r,
                                frm=name(rook[0]), to=name(rook[1])))
        if captured:
            victim = self.piece_letter(captured)
            events.append(Captured(f"{victim} captured on {name(captured_on)}", piece=victim,
                                   square=name(captured_on)))

    def in_check(self, state: S) -> bool:
        return self.rules.in_check(state.board, state.turn)

    def rule_outcome(self, state: S, legal: list[Action]) -> Outcome:
        if not legal:
            if self.in_check(state):
                return win_for(3 - state.turn, "checkmate")
            return draw("stalemate")
        if self.insufficient_material(state):
            return draw("insufficient material")
        return self.standard_draws(state, fifty=self.options.get(self.fifty_option, True),
                                   repetition=self.options.get(self.repetition_option, True))

    def insufficient_material(self, state: S) -> bool:
        """Neither side can possibly mate (python-chess's reading of the dead-position rule)."""
        board = state.board
        # Asked at every node: a pawn, rook or queen of either side settles it (a set of the
        # board is built in C) when the board holds only this rule set's squares.
        if len(board) == len(self.rules.squares) and not _MATING.isdisjoint(board):
            return False
        return all(self._insufficient(board, c) for c in (WHITE, BLACK))

    def _insufficient(self, board: list[int], colour: int) -> bool:
        squares = self.rules.squares
        mine = [board[s] & 15 for s in squares if board[s] and board[s] >> 4 == colour]
        if any(k in (PAWN, ROOK, QUEEN) for k in mine):
            return False
        theirs = [board[s] & 15 for s in squares if board[s] and board[s] >> 4 != colour]
        if KNIGHT in mine:
            return len(mine) <= 2 and all(k in (KING, QUEEN) for k in theirs)
        if BISHOP in mine:
            colours = {sum(self.geo.coords(s)[1:]) % 2 for s in squares if board[s] & 15 == BISHOP}
            no_minor = not any(board[s] & 15 in (PAWN, KNIGHT) for s in squares if board[s])
            return len(colours) == 1 and no_minor
        return True

    def position_key(self, state: S) -> tuple[Any, ...]:
        # En passant counts only when a pawn could take it, as in FIDE's repetition rule.
        ep = state.ep if self.rules.ep_capturable(state.board, state.turn, state.ep) else -1
        return (tuple(state.board), state.turn, state.to_act, state.castling, ep)

    def castling_action(self, state: S, long: bool) -> Action:
        for rule in self.rules.castles[state.turn]:
            is_long = abs(rule.rook_from - rule.king_from) > 3
            if is_long == long:
                return A.move(rule.king_from, rule.king_to)
        raise NotationError("no castling in this position")

    def why_move_illegal(self, state: S, action: Action) -> str:
        base = super().why_move_illegal(state, action)
        if base != "that piece cannot move there now":
            return base
        pseudo = self.rules.pseudo_moves(state.board, state.turn, state.ep)
        if any(m.frm == action.frm and m.to == action.to for m in pseudo):
            if self.in_check(state):
                return "it does not get the king out of check"
            return "it would leave the king in check"
        piece = state.board[action.frm]
        if piece & 15 == KING and abs(action.to - action.frm) == 2:
            return "castling is not allowed now (rights, blocked path or attacked squares)"
        return "that piece cannot move there"

    # ------------------------------------------------------------------ positions

    def position(self, state: S, private: bool = True) -> str:
        return self.fen(state)

    def fen(self, state: S) -> str:
        """The FEN of the board, as python-chess writes it."""
        board, letter = state.board, self.piece_letter
        rows = fen_rows(board, self._fen_ranks, lambda sq: letter(board[sq]))
        castling = castling_text(state.castling)
        ep = self.layout.name(state.ep) if state.ep >= 0 else "-"
        side = side_text(state.turn)
        return f"{rows} {side} {castling} {ep} {state.halfmove} {state.fullmove}"

    def from_position(self, text: str, seed: int = 0) -> S:
        """A state from a FEN (the last two fields may be left out).

        Raises:
            RecordError: naming the field that is wrong.
        """
        fields = text.split()
        if len(fields) not in (4, 6):
            raise RecordError(f"a FEN has 4 or 6 fields, not {len(fields)}: {text!r}")
        st = self.new_state(WHITE, seed_state(seed))
        read_rows(st, fields[0], self._fen_ranks, chess_piece)
        st.turn = st.to_act = read_side(fields[1])
        st.castling = read_castling(fields[2])
        try:
            st.ep = -1 if fields[3] == "-" else self.layout.square(fields[3])
            if len(fields) == 6:
                st.halfmove, st.fullmove = int(fields[4]), int(fields[5])
        except (NotationError, ValueError) as err:
            raise RecordError(f"bad FEN {text!r}: {err}") from None
        return st

    # ------------------------------------------------------------------ drawing

    def render(self, state: S, viewer: int | None = None) -> str:
        lines = self.draw_grid(state, "board", 8, 8)
        lines.append(self.status_line(state))
        return "\n".join(lines)

    def draw_grid(self, state: S, plane: str, width: int, height: int,
                  files: str = "abcdefgh", marks: dict[int, str] | None = None) -> list[str]:
        """Rows of a grid plane, top rank first; ``marks`` puts a character on empty squares."""
        lines = []
        for y in range(height - 1, -1, -1):
            cells = []
            for x in range(width):
                sq = self.geo.at(plane, x, y)
                p = state.board[sq] if sq >= 0 else 0
                cells.append(self.piece_letter(p) if p else (marks or {}).get(sq, "."))
            lines.append(f"{y + 1} " + " ".join(cells))
        lines.append("  " + " ".join(files[:width]))
        return lines

    def status_line(self, state: S) -> str:
        """Whose turn it is, check and result."""
        end = self.outcome(state)
        if end.result != "*":
            return f"Game over: {end.result} ({end.reason})"
        text = f"{COLOUR_NAMES[state.to_act].capitalize()} to act"
        return text + (" - check!" if self.in_check(state) else "")


__all__ = ["ChessLike", "START_FEN", "ONGOING"]
