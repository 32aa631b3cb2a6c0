"""A test-only eighth variant: proof that a variant says everything about itself in one place.

Toy Chess: a king and a rook each on a 4x4 board plus a two-cell "pen" beside it, where each
side keeps a spare pawn it may ``drop`` onto an empty square of its first rank (a choice made by
putting the piece down). ``wait`` passes the turn (press your clock). Taking the enemy king
wins; threefold repetition draws. Nothing outside this module knows the variant: the tests
name it in ``GRAVEKEEPER_VARIANTS`` (the registry's one line) and run it through ``check``,
``perft``, ``watch replay://`` and the LED picture.
"""

from __future__ import annotations

from typing import Final

from referee.rules import actions as A
from referee.rules.actions import Action
from referee.rules.errors import RecordError
from referee.rules.events import Captured, GameEvent, MarkerKind, Moved, Placed
from referee.rules.geometry import (
    KING_VECTORS,
    ORTHOGONAL,
    Geometry,
    Layout,
    Region,
    grid_cells,
)
from referee.rules.pieces import BLACK, CHESS_KIND_BY_LETTER, KING, PAWN, ROOK, WHITE, code
from referee.rules.state import State
from referee.rules.variant import ONGOING, Outcome, Variant, win_for

DROP: Final = A.ActionKind("drop", A.SQUARE, A.BOARD,
                           "drop=SQUARE: put your spare pawn from the pen on your first rank",
                           legend="pawn from pen")
WAIT: Final = A.ActionKind("wait", A.BARE, A.CLOCK, "wait: pass the turn (press your clock)")
#: A stake under each dropped pawn (public): dim yellow while the pawn stands there.
STAKE: Final = MarkerKind("stake", "staked pawn", "yellow", "dim", arrives="pawn dropped here")
START: Final = "1rk1/4/4/1RK1 pp w"


class Toy(Variant[State]):
    """Kings, rooks and a spare pawn on a 4x4 board."""

    name = "toy"
    title = "Toy Chess"
    state_class = State
    action_kinds = (A.MOVE_KIND, DROP, WAIT)
    marker_kinds = (STAKE,)

    def build_layout(self) -> Layout:
        return Layout([
            Region("board", grid_cells("board", 4, 4, files="abcd"), implicit=True),
            Region("pen", grid_cells("pen", 2, 1, prefix="pen:"), look="plain"),
        ])

    def __init__(self, options: dict[str, object] | None = None) -> None:
        super().__init__(options)
        self.board = self.layout.region_squares["board"]
        self.pen = self.layout.region_squares["pen"]  # pen:a1 White's pawn, pen:b1 Black's
        self.geo = Geometry.build(self.layout, self.board)
        self.king_moves = self.geo.leap_targets(KING_VECTORS)

    def initial_state(self, seed: int = 0) -> State:
        return self.from_position(START)

    def generate(self, state: State) -> list[Action]:
        us, board = state.turn, state.board
        out: list[Action] = []
        for sq in self.board:
            piece = board[sq]
            if not piece or piece >> 4 != us:
                continue
            if piece & 15 == KING:
                targets: list[int] = list(self.king_moves[sq])
            elif piece & 15 == ROOK:
                targets = []
                for d in ORTHOGONAL:
                    for to in self.geo.rays[d][sq]:
                        targets.append(to)
                        if board[to]:
                            break
            else:
                continue  # a dropped pawn stands still
            out += [A.move(sq, to) for to in targets if not board[to] or board[to] >> 4 != us]
        if board[self.pen[us - 1]]:
            rank = 0 if us == WHITE else 3
            out += [A.choice(DROP.name, self.geo.at("board", x, rank)) for x in range(4)
                    if not board[self.geo.at("board", x, rank)]]
        out.append(A.simple(WAIT.name))
        return out

    def apply(self, state: State, action: Action,
              events: list[GameEvent] | None = None) -> State:
        new = state.copy()
        name = self.layout.name
        new.halfmove += 1
        if action.kind == A.MOVE:
            piece, victim = new.board[action.frm], new.board[action.to]
            if victim:
                new.removed += (victim,)
                new.halfmove = 0
            new.shift(action.frm, action.to)
            if events is not None:
                letter = self.piece_letter(piece)
                events.append(Moved(f"{letter} {name(action.frm)}-{name(action.to)}",
                                    piece=letter, frm=name(action.frm), to=name(action.to)))
                if victim:
                    events.append(Captured(f"{self.piece_letter(victim)} captured",
                                           piece=self.piece_letter(victim),
                                           square=name(action.to)))
                if victim & 15 == PAWN:  # a dropped pawn never moves: its stake goes with it
                    events.append(STAKE.take(f"stake off {name(action.to)}", name(action.to)))
        elif action.kind == DROP.name:
            new.shift(self.pen[new.turn - 1], action.to)
            new.halfmove = 0
            if events is not None:
                events.append(Placed(f"pawn dropped on {name(action.to)}",
                                     piece=self.piece_letter(new.board[action.to]),
                                     square=name(action.to), marker=STAKE))
                events.append(STAKE.put(f"stake under {name(action.to)}", name(action.to)))
        new.turn = new.to_act = 3 - new.turn
        return new

    def rule_outcome(self, state: State, legal: list[Action]) -> Outcome:
        for colour in (WHITE, BLACK):
            if code(KING, colour) not in state.board:
                return win_for(3 - colour, "king captured")
        return self.standard_draws(state, fifty=False)

    def position(self, state: State, private: bool = True) -> str:
        rows = []
        for y in range(3, -1, -1):
            row, empty = "", 0
            for x in range(4):
                piece = state.board[self.geo.at("board", x, y)]
                if piece:
                    row += (str(empty) if empty else "") + self.piece_letter(piece)
                    empty = 0
                else:
                    empty += 1
            rows.append(row + (str(empty) if empty else ""))
        pen = "".join(self.piece_letter(state.board[sq]) or "-" for sq in self.pen)
        return f"{'/'.join(rows)} {pen} {'w' if state.turn == WHITE else 'b'}"

    def from_position(self, text: str) -> State:
        fields = text.split()
        if len(fields) != 3 or len(fields[0].split("/")) != 4 or fields[2] not in ("w", "b"):
            raise RecordError(f"a toy position is ROWS PEN SIDE, not {text!r}")
        st = self.new_state(WHITE if fields[2] == "w" else BLACK)
        for i, row in enumerate(fields[0].split("/")):
            x = 0
            for ch in row:
                if ch.isdigit():
                    x += int(ch)
                    continue
                kind = CHESS_KIND_BY_LETTER.get(ch.upper())
                if kind not in (KING, ROOK, PAWN) or x > 3:
                    raise RecordError(f"bad row {row!r}")
                st.place(self.geo.at("board", x, 3 - i), code(kind, WHITE if ch.isupper() else
                                                              BLACK))
                x += 1
        for sq, ch in zip(self.pen, fields[1], strict=False):
            if ch.lower() == "p":
                st.place(sq, code(PAWN, WHITE if sq == self.pen[0] else BLACK))
        return st

    def render(self, state: State, viewer: int | None = None) -> str:
        lines = []
        for y in range(3, -1, -1):
            cells = [self.piece_letter(state.board[self.geo.at("board", x, y)]) or "."
                     for x in range(4)]
            lines.append(f"{y + 1} " + " ".join(cells))
        lines.append("  a b c d")
        end = self.outcome(state)
        lines.append(f"Game over: {end.result} ({end.reason})" if end.result != "*" else
                     f"pen: {self.position(state).split()[1]}")
        return "\n".join(lines)


__all__ = ["Toy", "ONGOING"]
