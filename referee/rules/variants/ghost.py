"""Ghost Chess (RULINGS.md §2): captured pieces haunt the coordinate labels round the board.

Two geometries over the same squares: living pieces play FIDE chess on the 8x8 (``self.geo``,
plane ``board``, a1 = (0, 0)), ghosts move on the extended 10x10 plane ``ext`` (a1 = (1, 1),
ring cells at x or y = 0 or 9, see :mod:`referee.rules.variants.ghost_board`).

Turn order: a capture whose victim has more than one possible ghost cell (or promotes as it
spawns) leaves ``turn`` with the capturer and hands ``to_act`` to the victim's owner, who must
play ``spawn=CELL`` (``spawn=CELL=Q``); only then does the turn pass to the victim's owner. With
one possible cell the ghost appears at once; with none the piece leaves the game.
"""

from __future__ import annotations

from typing import Any, ClassVar, Final

from referee.rules import actions as A
from referee.rules.actions import Action
from referee.rules.errors import OptionError
from referee.rules.events import Announcement, Captured, GameEvent, Moved, Placed, Removed
from referee.rules.geometry import Geometry, Layout, Region, standard_board
from referee.rules.pieces import BLACK, CHESS_KIND_BY_LETTER, COLOUR_NAMES, KING, PAWN, WHITE, code
from referee.rules.variant import BOOL, OptionSpec, Outcome, draw, win_for
from referee.rules.variants.chesslike import START_FEN
from referee.rules.variants.ghost_board import (
    PLANE,
    GhostRules,
    GhostTables,
    board_lines,
    cell_list,
    check_edge_ring,
    check_two_sides,
    ring_cells,
)
from referee.rules.variants.ghost_state import GhostState
from referee.rules.variants.ghost_text import KIND_NAMES, GhostText

SPAWN: Final = A.ActionKind(
    "spawn", A.SQUARE, A.BOARD,
    "spawn=CELL[=P]: after a capture the owner places the ghost on a ring cell: spawn=a0 (a "
    "ghost pawn may promote: spawn=d9=Q)", legend="ghost spawn")
MOVES: Final = A.moves(
    "e4, Nf3, O-O (SAN) or e2e4: move a living piece; ghosts live on the ring a0-h0, a9-h9, "
    "z1-z8, i1-i8 and move like z5z4, d9z5, a0b1")

class Ghost(GhostText):
    """Ghost Chess: FIDE chess on the 8x8 plus ghosts on the edge ring (RULINGS.md §2).

    Raises (constructor): OptionError for unknown keys, bad values or a custom ring without
    cells.
    """

    name = "ghost"
    title = "Ghost Chess"
    action_kinds = (MOVES, SPAWN)
    option_specs: ClassVar = (
        OptionSpec("ghost.edge_ring", "full",
                   "which ring cells exist: full (32), two_sided (16), custom, or a list of cells",
                   check=check_edge_ring),
        OptionSpec("ghost.two_sided_edges", "bottom,left",
                   "the two printed sides when edge_ring=two_sided", check=check_two_sides),
        OptionSpec("ghost.custom_cells", [], "the ring cells when edge_ring=custom",
                   check=cell_list),
        OptionSpec("ghost.spawn_capture_friendly", False,
                   "a spawning piece may take a friendly ghost on its cell", BOOL),
        OptionSpec("ghost.bishop_diagonal_edge_to_edge", True,
                   "a ghost bishop may cross diagonally from edge to edge", BOOL),
        OptionSpec("ghost.knight_edge_L", False,
                   "a ghost knight may L-jump from one edge cell to another", BOOL),
        OptionSpec("ghost.far_row_promotes", True,
                   "a ghost pawn on the far row (White y=9, Black y=0) promotes", BOOL),
    )

    def build_layout(self) -> Layout:
        try:
            ring = ring_cells(self.options)
        except ValueError as err:
            raise OptionError(str(err)) from None
        return Layout([Region("board", standard_board(), implicit=True),
                       # the ring's plane has the board at (1, 1): drawn around the board
                       Region("ring", ring, implicit=True, shift=(-1, -1), look="border")])

    def __init__(self, options: dict[str, Any] | None = None) -> None:
        super().__init__(options)
        self.board_squares = self.layout.region_squares["board"]
        self.ring = self.layout.region_squares["ring"]
        coords = {sq: (PLANE, x + 1, y + 1) for sq in self.board_squares
                  for _p, x, y in (self.geo.coords(sq),)}
        self.ext = Geometry.build(self.layout, range(self.layout.size), coords)
        rules = GhostRules(self.options["ghost.bishop_diagonal_edge_to_edge"],
                           self.options["ghost.knight_edge_L"],
                           self.options["ghost.far_row_promotes"])
        self.tables = GhostTables(self.ext, self.ring, rules, self.promo_letters)
        self.lines = board_lines(self.geo, self.board_squares)
        self.friendly_spawn_capture: bool = self.options["ghost.spawn_capture_friendly"]
        # Board square index = rank * 8 + file and the ring follows: the fast paths rely on it.
        assert self.board_squares == tuple(range(64))
        self.ring_start = 64
        self.names = [cell.text for cell in self.layout.cells]
        self.ring_by_name = {self.names[sq]: sq for sq in self.ring}
        self.codes = {self.piece_letter(p): p for p in
                      (code(k, c) for k in range(PAWN, KING + 1) for c in (WHITE, BLACK))}
        self.letters = [""] * 48
        for letter, piece in self.codes.items():
            self.letters[piece] = letter
        self.fen_letters = [letter or "1" for letter in self.letters]

    # ------------------------------------------------------------------ generation

    def initial_state(self, seed: int = 0) -> GhostState:
        return self.from_position(START_FEN, seed)

    def generate(self, state: GhostState) -> list[Action]:
        if state.pending:
            return self.spawn_choices(state.board, state.pending, state.pending_from)
        out = self.rules.legal_moves(state.board, state.turn, state.castling, state.ep)
        self._ghost_moves(state.board, state.turn, out)
        return out

    def _ghost_moves(self, board: list[int], us: int, out: list[Action]) -> None:
        """Append the legal moves of ``us``'s ghosts (phasing: no ray is ever blocked).

        Ring moves never change the living position, so they are legal unless ``us`` is in
        check. A board capture is legal if it takes the king (the game ends) or if the king is
        not attacked once the victim is gone.
        """
        tables = self.tables
        first = self.ring_start
        ring = board[first:]
        if not any(ring):  # no ghost at all yet: the common case early in a game
            return
        mine = [sq for sq, p in enumerate(ring, first) if p and p >> 4 == us]
        if not mine:
            return
        them = 3 - us
        enemy_king = KING | them << 4
        king = KING | us << 4
        ksq = board.index(king) if king in board else -1  # kings live on the board only
        checked = ksq >= 0 and self.rules.attacked(board, ksq, them)
        append = out.append
        for sq in mine:
            steps, promos, caps, takes = tables.moves(board[sq])
            if not checked:
                for t, action in steps[sq]:
                    q = board[t]
                    if not q or q >> 4 == them:
                        append(action)
                for t, action in takes[sq]:
                    q = board[t]
                    if q and q >> 4 == them:
                        append(action)
                for t, actions in promos[sq]:
                    q = board[t]
                    if not q or q >> 4 == them:
                        out.extend(actions)
            for t, action in caps[sq]:
                q = board[t]
                if q and q >> 4 == them and (q == enemy_king or self._capture_is_safe(
                        board, t, ksq, them, checked)):
                    append(action)

    def _capture_is_safe(self, board: list[int], victim: int, ksq: int, them: int,
                         checked: bool) -> bool:
        """Whether our king (on ``ksq``) is safe from living pieces once ``victim`` is gone."""
        if ksq < 0 or (not checked and victim not in self.lines[ksq]):
            return True
        piece = board[victim]
        board[victim] = 0
        safe = not self.rules.attacked(board, ksq, them)
        board[victim] = piece
        return safe

    def spawn_choices(self, board: list[int], piece: int, frm: int) -> list[Action]:
        """The ``spawn=`` actions open to a ``piece`` captured on board square ``frm``.

        The owner walks the ring by distance tiers (RULINGS §2.3, rows 3-7): a tier holding an
        empty cell is the last one reachable; crowded cells before it may be passed; an enemy
        ghost (or, with ``ghost.spawn_capture_friendly``, a friendly one) in a reachable tier may
        be taken. A pawn landing on its promotion cells yields one action per promotion piece.
        """
        owner = piece >> 4
        friendly = self.friendly_spawn_capture
        cells: list[int] = []
        for tier in self.tables.tiers(frm):
            open_cell = False
            for cell in tier:
                q = board[cell]
                if not q:
                    open_cell = True
                    cells.append(cell)
                elif q >> 4 != owner or friendly:
                    cells.append(cell)
            if open_cell:
                break
        promo = self.tables.promo_cells[owner] if piece & 15 == PAWN else frozenset()
        out: list[Action] = []
        for cell in cells:
            if cell in promo:
                out.extend(Action(SPAWN.name, -1, cell, letter) for letter in self.promo_letters)
            else:
                out.append(Action(SPAWN.name, -1, cell))
        return out

    # ------------------------------------------------------------------ execution

    def apply(self, state: GhostState, action: Action,
              events: list[GameEvent] | None = None) -> GhostState:
        new = state.copy()
        if action.kind == SPAWN.name:
            piece, ident = new.pending, new.pending_id
            new.pending, new.pending_from, new.pending_id = 0, -1, 0
            self._spawn(new, piece, ident, action, events)
        elif self.tables.is_ring[action.frm]:
            self._ghost_move(new, action, events)
        else:
            record = self.rules.make_move(new, action)
            if events is not None:
                self.move_events(action, record.piece, record.captured, record.captured_on,
                                 events, record.rook)
            if record.captured:
                self._captured(new, record.captured, record.captured_id, record.captured_on,
                               events)
        if not new.pending:
            self.end_turn(new)
        return new

    def _ghost_move(self, st: GhostState, action: Action, events: list[GameEvent] | None) -> None:
        """A ghost moves: along the ring (maybe taking an enemy ghost, maybe promoting), or onto
        the board to capture, after which it leaves the game and its victim spawns."""
        board, frm, to = st.board, action.frm, action.to
        ghost = board[frm]
        victim = board[to]
        st.ep = -1
        st.halfmove = 0 if victim else st.halfmove + 1
        if events is not None:
            self._ghost_move_events(action, ghost, victim, events)
        if self.tables.is_ring[to]:
            if victim:
                st.removed += (victim,)
            st.shift(frm, to)
            if action.promo:
                board[to] = code(CHESS_KIND_BY_LETTER[action.promo], ghost >> 4)
            return
        st.clear(frm)
        st.removed += (ghost,)
        victim, ident = st.clear(to)
        st.castling &= self.rules.keep[to]  # a rook or king taken at home loses its rights
        if victim & 15 != KING:
            self._captured(st, victim, ident, to, events)

    def _captured(self, st: GhostState, piece: int, ident: int, frm: int,
                  events: list[GameEvent] | None) -> None:
        """A living piece was captured on ``frm``: spawn it, or wait for its owner's choice."""
        choices = self.spawn_choices(st.board, piece, frm)
        if len(choices) == 1:
            self._spawn(st, piece, ident, choices[0], events)
        elif not choices:
            st.removed += (piece,)
            if events is not None:
                events.append(Removed(f"No ghost cell is free: {self._named(piece)} leaves the "
                                      "game", piece=self.piece_letter(piece),
                                      square=self.layout.name(frm), reason="no ghost cell"))
        else:
            st.pending, st.pending_from, st.pending_id = piece, frm, ident
            st.to_act = piece >> 4
            if events is not None:
                who = COLOUR_NAMES[piece >> 4].capitalize()
                texts = tuple(self.format_action(a) for a in choices)
                events.append(SPAWN.prompt(f"{who} chooses where the ghost "
                                           f"{KIND_NAMES[piece & 15]} appears", piece >> 4, texts))

    def _spawn(self, st: GhostState, piece: int, ident: int, action: Action,
               events: list[GameEvent] | None) -> None:
        """Put the ghost of ``piece`` on the chosen cell, taking a ghost that stands there."""
        cell = action.to
        crowd = st.board[cell]
        if crowd:
            st.removed += (crowd,)
        if action.promo:
            piece = code(CHESS_KIND_BY_LETTER[action.promo], piece >> 4)
        st.place(cell, piece, ident)
        if events is not None:
            name = self.layout.name(cell)
            if crowd:
                events.append(Removed(f"Ghost {self._named(crowd)} on {name} is destroyed",
                                      piece=self.piece_letter(crowd), square=name,
                                      reason="spawn capture"))
            events.append(Placed(f"Ghost {self._named(piece)} appears on {name}",
                                 piece=self.piece_letter(piece), square=name, reason="ghost"))

    def _ghost_move_events(self, action: Action, ghost: int, victim: int,
                           events: list[GameEvent]) -> None:
        name = self.layout.name
        frm, to = name(action.frm), name(action.to)
        events.append(Moved(f"Ghost {self._named(ghost)} {frm}-{to}",
                            piece=self.piece_letter(ghost), frm=frm, to=to))
        if action.promo:
            kind = KIND_NAMES[CHESS_KIND_BY_LETTER[action.promo]]
            events.append(Announcement(f"Ghost pawn promotes to {kind} on {to}"))
        if victim and self.tables.is_ring[action.to]:
            events.append(Removed(f"Ghost {self._named(victim)} on {to} is destroyed",
                                  piece=self.piece_letter(victim), square=to,
                                  reason="ghost capture"))
        elif victim:
            events.append(Captured(f"{self._named(victim).capitalize()} captured on {to}",
                                   piece=self.piece_letter(victim), square=to))
            if victim & 15 == KING:
                events.append(Announcement("Ghost takes the king"))
            events.append(Removed(f"Ghost {self._named(ghost)} vanishes",
                                  piece=self.piece_letter(ghost), square=to, reason="sacrifice"))

    @staticmethod
    def _named(piece: int) -> str:
        return f"{COLOUR_NAMES[piece >> 4]} {KIND_NAMES[piece & 15]}"

    # ------------------------------------------------------------------ outcome

    def in_check(self, state: GhostState) -> bool:
        """Whether the side that moves next is in check from living pieces (ghosts never give
        check). While a spawn choice is pending that is the chooser (``to_act``), who moves
        right after choosing; the capturer cannot be in check then."""
        return self.rules.in_check(state.board, state.to_act)

    def rule_outcome(self, state: GhostState, legal: list[Action]) -> Outcome:
        board = state.board
        for colour in (WHITE, BLACK):
            if KING | colour << 4 not in board:
                return win_for(3 - colour, "a ghost captured the king")
        if not legal:
            if self.in_check(state):
                return win_for(3 - state.turn, "checkmate")
            return draw("stalemate")
        if not self._has_ghosts(state) and self.insufficient_material(state):
            return draw("insufficient material")  # a ghost can always still take a king
        return self.standard_draws(state)

    def _has_ghosts(self, state: GhostState) -> bool:
        """Whether a ghost stands on the ring (or is about to spawn)."""
        board = state.board
        return bool(state.pending) or any(board[self.ring_start:])

    def position_key(self, state: GhostState) -> tuple[Any, ...]:
        ep = state.ep if self.rules.ep_capturable(state.board, state.turn, state.ep) else -1
        return (tuple(state.board), state.turn, state.to_act, state.castling, ep,
                state.pending, state.pending_from)

    def why_move_illegal(self, state: GhostState, action: Action) -> str:
        frm = action.frm
        if not (0 <= frm < self.layout.size and self.tables.is_ring[frm]):
            return super().why_move_illegal(state, action)
        piece = state.board[frm]
        if not piece:
            return f"there is no ghost on {self.layout.name(frm)}"
        if piece >> 4 != state.to_act:
            return f"the ghost on {self.layout.name(frm)} is not {COLOUR_NAMES[state.to_act]}'s"
        target = state.board[action.to] if 0 <= action.to < self.layout.size else 0
        if not self.tables.is_ring[action.to] and not (target and target >> 4 != piece >> 4):
            return "a ghost may enter the board only to capture an enemy piece"
        if self.in_check(state):
            return "it does not get the king out of check"
        return "that ghost cannot move there"

