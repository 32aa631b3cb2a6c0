"""Dead Man's Chess (RULINGS.md §1): an Earth board, a Hell board and tombstones.

A piece captured on Earth goes to a vacant Hell home of its type (or is annihilated when every
home is blocked) and leaves a tombstone where it died. A piece captured in Hell is annihilated,
and its capturer may resurrect onto an Earth tombstone, killing an enemy non-king piece standing
there. Kings seal the graves they end a move on. Check, castling and mate live only on Earth.

Decisions this module takes where RULINGS.md leaves the detail to us (also in
``docs/deadmans.md``):

* **Turn order of a home choice.** After an Earth capture (or a resurrection kill) with two or
  more vacant homes, the game waits for the chooser (``to_act``: the owner, or the capturer with
  ``dmc.home_chooser=capturer``) and ``turn`` stays with the mover; the turn passes only after
  the ``home=`` action. With one vacant home the piece goes there at once, with none it is
  annihilated (a tombstone is still left): no action is needed in either case.
* **Promotion letter.** ``=X`` names what the pawn becomes in this move, wherever it promotes:
  ``hell:b7-hell:a8=Q@e8`` promotes in Hell and resurrects as a queen (default
  ``dmc.promote_before_resurrect=true``); with that option false, ``hell:b7-hell:a8@e5``
  resurrects the pawn as a pawn and ``hell:b7-hell:a8=Q@e8`` promotes it on Earth. A pawn that
  resurrects onto its own last rank always carries the letter.
* **Identity for ``dmc.pawn_home=original_file``.** Every piece remembers the file it started
  on as a pawn; a promoted piece keeps it. A pawn without one (only in a set-up position that
  says so) may use any vacant pawn home.
* **``dmc.promoted_home=pawn``.** The promoted piece goes to Hell as a pawn again (it loses the
  promotion), to the pawn homes that ``dmc.pawn_home`` gives; annihilated, it counts as a pawn.
"""

from __future__ import annotations

from typing import Any, ClassVar, Final

from referee.rules import actions as A
from referee.rules.actions import MOVE, Action
from referee.rules.chesscore import ChessRules, standard_rules
from referee.rules.errors import NotationError
from referee.rules.events import Captured, GameEvent, MarkerKind, Placed, Removed
from referee.rules.fields import bits
from referee.rules.geometry import Geometry, Layout, Region, grid_cells, square_colour_is_light
from referee.rules.pieces import (
    BISHOP,
    BLACK,
    CHESS_KIND_BY_LETTER,
    CHESS_LETTERS,
    COLOUR_NAMES,
    KING,
    PAWN,
    WHITE,
    code,
)
from referee.rules.variant import BOOL, ONGOING, OptionSpec, Outcome, draw, win_for
from referee.rules.variants.chesslike import ChessLike
from referee.rules.variants.deadmans_state import DeadMansState, Pending
from referee.rules.variants.deadmans_text import _HELL_OFFSET, EARTH, HELL, DeadMansText

START = ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR 8/8/8/8/8/8/8/8 w KQkq - - 0 1")

HOME: Final = A.ActionKind(
    "home", A.SQUARE, A.BOARD,
    "home=hell:SQUARE: after an Earth capture, the owner picks a vacant Hell home (home=hell:b1)",
    legend="hell home")
TOMBSTONE: Final = MarkerKind("tombstone", "tombstone", "purple", "faint")
MOVES: Final = A.moves(
    "e4, Nf3, O-O (SAN) or e2e4 on Earth; hell:e2-hell:e4 in Hell; a Hell capture may rise onto "
    "a tombstone: hell:c4-hell:f7@e5")

class DeadMans(DeadMansText):
    """Dead Man's Chess on the ``earth`` (main) and ``hell`` regions."""

    name = "deadmans"
    title = "Dead Man's Chess"
    action_kinds = (MOVES, HOME)
    marker_kinds = (TOMBSTONE,)
    board_region = EARTH
    option_specs: ClassVar = (
        OptionSpec("dmc.bishop_home", "by_colour",
                   "a captured bishop's Hell home: the one of its square colour, or any vacant",
                   ("by_colour", "any_vacant")),
        OptionSpec("dmc.pawn_home", "any_vacant",
                   "a captured pawn's Hell home: any vacant 2nd/7th-rank square, the one on the "
                   "pawn's starting file, or the one on the file where it died",
                   ("any_vacant", "original_file", "same_file_as_death")),
        OptionSpec("dmc.promoted_home", "current_type",
                   "a captured promoted piece goes to the homes of its current type, or back "
                   "to a pawn home as a pawn", ("current_type", "pawn")),
        OptionSpec("dmc.home_chooser", "owner",
                   "who chooses among several vacant homes", ("owner", "capturer")),
        OptionSpec("dmc.resurrection_kill_leaves_tombstone", True,
                   "a piece killed by a resurrection leaves a fresh tombstone", BOOL),
        OptionSpec("dmc.promote_before_resurrect", True,
                   "a Hell pawn capturing onto its last rank promotes before it resurrects",
                   BOOL),
        OptionSpec("dmc.pawn_resurrect_first_rank", "allow",
                   "may a pawn resurrect onto its own first rank", ("allow", "forbid")),
        OptionSpec("dmc.hell_pawn_double_step", True,
                   "a pawn on its Hell starting rank may double-step", BOOL),
        OptionSpec("dmc.fifty_move", True, "the 50-move rule ends the game in a draw", BOOL),
    )

    def build_layout(self) -> Layout:
        return Layout([
            Region(EARTH, grid_cells(EARTH, 8, 8), implicit=True),
            Region(HELL, grid_cells(HELL, 8, 8, prefix="hell:")),
        ])

    def __init__(self, options: dict[str, Any] | None = None) -> None:
        # Skip ChessLike.__init__: its geometry covers one board, ours covers Earth and Hell.
        super(ChessLike, self).__init__(options)
        layout = self.layout
        self.earth = layout.region_squares[EARTH]
        self.hell = layout.region_squares[HELL]
        assert self.hell[0] == _HELL_OFFSET and self.earth == tuple(range(64))
        self.geo = Geometry.build(layout, range(layout.size))
        self.rules: ChessRules = standard_rules(self.geo, self.earth, EARTH)
        hell_rank = {sq: (sq - _HELL_OFFSET) >> 3 for sq in self.hell}
        double = self.options["dmc.hell_pawn_double_step"]
        self.hell_rules = ChessRules(
            self.geo, self.hell,
            double_step={c: frozenset(s for s in self.hell if double and hell_rank[s] == r)
                         for c, r in ((WHITE, 1), (BLACK, 6))},
            promotion={c: frozenset(s for s in self.hell if hell_rank[s] == r)
                       for c, r in ((WHITE, 7), (BLACK, 0))},
            promo_letters=self.promo_letters,
        )
        self.first_rank = {WHITE: frozenset(range(8)), BLACK: frozenset(range(56, 64))}
        self._ranks = {plane: [[self.geo.at(plane, x, y) for x in range(8)]
                               for y in range(7, -1, -1)] for plane in (EARTH, HELL)}
        self.homes_of = self._home_table()

    def _home_table(self) -> dict[tuple[int, str], tuple[int, ...]]:
        """Hell homes by (colour, key): keys are kind letters, ``B-light``/``B-dark`` and
        ``P0``..``P7`` (one file)."""
        table: dict[tuple[int, str], tuple[int, ...]] = {}
        def hell(x: int, y: int) -> int:
            return _HELL_OFFSET + 8 * y + x

        for colour, back, pawns in ((WHITE, 0, 1), (BLACK, 7, 6)):
            table[colour, "Q"] = (hell(3, back),)
            table[colour, "R"] = (hell(0, back), hell(7, back))
            table[colour, "N"] = (hell(1, back), hell(6, back))
            table[colour, "B"] = (hell(2, back), hell(5, back))
            for x in (2, 5):
                shade = "light" if square_colour_is_light(x, back) else "dark"
                table[colour, f"B-{shade}"] = (hell(x, back),)
            table[colour, "P"] = tuple(hell(x, pawns) for x in range(8))
            for x in range(8):
                table[colour, f"P{x}"] = (hell(x, pawns),)
        return table

    # ------------------------------------------------------------------ start

    def initial_state(self, seed: int = 0) -> DeadMansState:
        return self.from_position(START, seed)

    # ------------------------------------------------------------------ generation

    def generate(self, state: DeadMansState) -> list[Action]:
        if state.pending is not None:
            return [A.choice(HOME.name, h) for h in state.pending.homes]
        board, us = state.board, state.turn
        out = self.rules.legal_moves(board, us, state.castling, state.ep)
        hell_moves = self.hell_rules.pseudo_moves(board, us, state.ep)
        if hell_moves:
            self._hell_actions(state, hell_moves, out)
        return out

    def _rise_targets(self, state: DeadMansState) -> tuple[list[int], bool] | None:
        """Tombstones the side to move may resurrect onto, and whether plain Hell moves are
        legal; None when no Hell move is legal at all (double check).

        Check is computed once: a resurrection only adds a piece of ours to Earth (possibly in
        place of an enemy piece), so it can never expose our king. Out of check every target is
        legal; in single check only a square between king and checker, or the checker's own
        square, parries it.
        """
        board, us = state.board, state.turn
        them = 3 - us
        targets = []
        for sq in bits(state.tombs):
            p = board[sq]
            if not p or (p >> 4 == them and p & 15 != KING):
                targets.append(sq)
        ksq = self.rules.king_square(board, us)
        if ksq < 0 or not self.rules.attacked(board, ksq, them):
            return targets, True
        checkers, _ = self.rules.checkers_and_pins(board, ksq, us)
        if len(checkers) != 1:
            return None
        block = set(self.geo.between(ksq, checkers[0]))
        block.add(checkers[0])
        return [t for t in targets if t in block], False

    def _hell_actions(self, state: DeadMansState, moves: list[Action], out: list[Action]) -> None:
        found = self._rise_targets(state)
        if found is None:
            return
        targets, plain = found
        if not targets:
            if plain:
                out.extend(moves)
            return
        board, us = state.board, state.turn
        promote_first = self.options["dmc.promote_before_resurrect"]
        earth_promo = self.rules.promotion[us]
        forbid_first = self.options["dmc.pawn_resurrect_first_rank"] == "forbid"
        first = self.first_rank[us]
        letters = self.promo_letters
        append = out.append
        for m in moves:
            if plain:
                append(m)
            frm, to, promo = m.frm, m.to, m.promo
            if board[frm] & 15 != PAWN:
                if board[to]:
                    out.extend(Action(MOVE, frm, to, "", t) for t in targets)
                continue
            if (to - frm) & 7 == 0:  # a pawn push captures nothing
                continue
            if promo and promote_first:
                out.extend(Action(MOVE, frm, to, promo, t) for t in targets)
                continue
            if promo and promo != letters[0]:
                continue  # the pawn resurrects unpromoted: one set of actions, not four
            for t in targets:
                if t in earth_promo:
                    out.extend(Action(MOVE, frm, to, letter, t) for letter in letters)
                elif not (forbid_first and t in first):
                    append(Action(MOVE, frm, to, "", t))

    # ------------------------------------------------------------------ applying actions

    def apply(self, state: DeadMansState, action: Action,
              events: list[GameEvent] | None = None) -> DeadMansState:
        new = state.copy()
        if action.kind == HOME.name:
            self._settle(new, action.to, events)
        elif action.frm >= _HELL_OFFSET:
            self._hell_move(new, action, events)
        else:
            self._earth_move(new, action, events)
        if new.pending is None:
            if action.kind != HOME.name:
                self.end_turn(new)
        else:
            new.to_act = new.pending.chooser
        return new

    def _earth_move(self, st: DeadMansState, action: Action,
                    events: list[GameEvent] | None) -> None:
        us = st.turn
        rec = self.rules.make_move(st, action)
        if events is not None:
            self.move_events(action, rec.piece, rec.captured, rec.captured_on, events,
                             rec.rook)
        if action.promo:
            st.promoted = st.promoted | {st.ids[action.to]}
        is_king = rec.piece & 15 == KING
        if rec.captured:
            if not is_king:  # a king capturing seals the grave at once
                self._add_tomb(st, rec.captured_on, events)
            self._bury(st, rec.captured, rec.captured_id, rec.captured_on, us, events)
        if is_king and st.tombs >> action.to & 1:
            st.tombs &= ~(1 << action.to)
            if events is not None:
                where = self.layout.name(action.to)
                events.append(TOMBSTONE.take(f"the king seals the grave on {where}",
                                                  where))

    def _hell_move(self, st: DeadMansState, action: Action,
                   events: list[GameEvent] | None) -> None:
        board, us = st.board, st.turn
        frm, to = action.frm, action.to
        # The letter is a Hell promotion when the pawn reaches its last Hell rank and stays, or
        # promotes before it rises; otherwise it is the promotion of a pawn rising onto rank 8/1.
        last_rank = board[frm] & 15 == PAWN and to in self.hell_rules.promotion[us]
        promote_first = action.rise < 0 or self.options["dmc.promote_before_resurrect"]
        hell_promo = action.promo if last_rank and promote_first else ""
        castling = st.castling  # Hell moves never touch castling rights
        rec = self.hell_rules.make_move(st, Action(MOVE, frm, to, hell_promo))
        st.castling = castling
        if events is not None:
            self.move_events(action._replace(promo=hell_promo, rise=-1), rec.piece,
                             rec.captured, rec.captured_on, events)
        if hell_promo:
            st.promoted = st.promoted | {st.ids[to]}
        if rec.captured:
            st.removed = st.removed + (rec.captured,)
            if events is not None:
                letter, where = self.piece_letter(rec.captured), self.layout.name(rec.captured_on)
                events.append(Removed(f"{letter} annihilated in Hell on {where}", piece=letter,
                                      square=where, reason="captured in Hell"))
        if action.rise >= 0:
            self._resurrect(st, action, us, events)

    def _resurrect(self, st: DeadMansState, action: Action, us: int,
                   events: list[GameEvent] | None) -> None:
        target = action.rise
        piece, ident = st.clear(action.to)
        victim, victim_id = st.clear(target) if st.board[target] else (0, 0)
        if piece & 15 == PAWN and action.promo and target in self.rules.promotion[us]:
            piece = code(CHESS_KIND_BY_LETTER[action.promo], us)
            st.promoted = st.promoted | {ident}
        st.place(target, piece, ident)
        st.tombs &= ~(1 << target)
        st.ep = -1
        if events is not None:
            letter, where = self.piece_letter(piece), self.layout.name(target)
            events.append(Placed(f"{letter} resurrects on {where}", piece=letter, square=where,
                                 reason="resurrection"))
            events.append(TOMBSTONE.take(f"tombstone on {where} removed", where))
        if victim:
            if events is not None:
                letter, where = self.piece_letter(victim), self.layout.name(target)
                events.append(Captured(f"{letter} killed on {where} by the resurrection",
                                       piece=letter, square=where))
            if self.options["dmc.resurrection_kill_leaves_tombstone"]:
                self._add_tomb(st, target, events)
            st.castling &= self.rules.keep[target]
            self._bury(st, victim, victim_id, target, us, events)

    def _add_tomb(self, st: DeadMansState, sq: int, events: list[GameEvent] | None) -> None:
        if st.tombs >> sq & 1:
            return  # at most one tombstone per square
        st.tombs |= 1 << sq
        if events is not None:
            where = self.layout.name(sq)
            events.append(TOMBSTONE.put(f"tombstone on {where}", where))

    def hell_homes(self, st: DeadMansState, piece: int, ident: int,
                   death: int) -> tuple[int, tuple[int, ...]]:
        """(the piece that goes to Hell, its candidate homes) for a piece that died on
        ``death``; vacancy is not looked at here."""
        colour, kind = piece >> 4, piece & 15
        if ident in st.promoted and self.options["dmc.promoted_home"] == "pawn":
            kind, piece = PAWN, code(PAWN, colour)
        if kind == PAWN:
            mode = self.options["dmc.pawn_home"]
            if mode == "original_file" and ident in st.origin:
                return piece, self.homes_of[colour, f"P{st.origin[ident]}"]
            if mode == "same_file_as_death":
                return piece, self.homes_of[colour, f"P{death & 7}"]
            return piece, self.homes_of[colour, "P"]
        if kind == BISHOP and self.options["dmc.bishop_home"] == "by_colour":
            shade = "light" if square_colour_is_light(death & 7, death >> 3) else "dark"
            return piece, self.homes_of[colour, f"B-{shade}"]
        return piece, self.homes_of[colour, CHESS_LETTERS[kind]]

    def _bury(self, st: DeadMansState, piece: int, ident: int, death: int, capturer: int,
              events: list[GameEvent] | None) -> None:
        """Send a piece that died on Earth to Hell: a home, a choice, or annihilation."""
        piece, homes = self.hell_homes(st, piece, ident, death)
        if piece & 15 == PAWN and ident in st.promoted:
            st.promoted = st.promoted - {ident}
        vacant = tuple(h for h in homes if not st.board[h])
        letter = self.piece_letter(piece)
        if not vacant:
            st.removed = st.removed + (piece,)
            if events is not None:
                events.append(Removed(f"{letter} annihilated: every Hell home is blocked",
                                      piece=letter, square=self.layout.name(death),
                                      reason="no vacant home"))
        elif len(vacant) == 1:
            st.place(vacant[0], piece, ident)
            if events is not None:
                where = self.layout.name(vacant[0])
                events.append(Placed(f"{letter} goes to Hell on {where}", piece=letter,
                                     square=where, reason="hell home"))
        else:
            owner = piece >> 4
            chooser = owner if self.options["dmc.home_chooser"] == "owner" else capturer
            st.pending = Pending(piece, ident, vacant, chooser)
            if events is not None:
                names = tuple(f"home={self.layout.name(h)}" for h in vacant)
                events.append(HOME.prompt(f"{COLOUR_NAMES[chooser]} chooses a Hell home for "
                                          f"{letter}", chooser, names))

    def _settle(self, st: DeadMansState, home: int, events: list[GameEvent] | None) -> None:
        pending = st.pending
        assert pending is not None
        st.place(home, pending.piece, pending.ident)
        st.pending = None
        if events is not None:
            letter, where = self.piece_letter(pending.piece), self.layout.name(home)
            events.append(Placed(f"{letter} goes to Hell on {where}", piece=letter,
                                 square=where, reason="hell home"))
        self.end_turn(st)

    # ------------------------------------------------------------------ outcome, keys

    def rule_outcome(self, state: DeadMansState, legal: list[Action]) -> Outcome:
        if state.pending is not None:
            return ONGOING
        if not legal:
            if self.in_check(state):
                return win_for(3 - state.turn, "checkmate")
            return draw("stalemate")
        if not any(state.board[sq] for sq in self.hell) and self.insufficient_material(state):
            return draw("insufficient material")
        return self.standard_draws(state, fifty=self.options["dmc.fifty_move"])

    def position_key(self, state: DeadMansState) -> tuple[Any, ...]:
        ep = state.ep if self.rules.ep_capturable(state.board, state.turn, state.ep) else -1
        pending = state.pending
        pend: tuple[Any, ...] = ()
        if pending is not None:
            pend = (pending.piece, pending.homes, pending.chooser,
                    self._ident_key(state, pending.ident))
        idents: tuple[Any, ...] = ()
        if (self.options["dmc.pawn_home"] == "original_file"
                or self.options["dmc.promoted_home"] == "pawn"):
            idents = tuple(self._ident_key(state, i) for i in state.ids)
        return (tuple(state.board), state.turn, state.to_act, state.castling, ep, state.tombs,
                pend, idents)

    @staticmethod
    def _ident_key(state: DeadMansState, ident: int) -> tuple[int, bool]:
        return state.origin.get(ident, -1), ident in state.promoted

    def expectation(self, state: DeadMansState, key: str) -> Any:
        if key == "tombstones":
            return [self.layout.name(sq) for sq in bits(state.tombs)]
        raise KeyError(key)

    def normalize(self, state: DeadMansState, action: Action) -> Action:
        if action.kind == HOME.name and 0 <= action.to < _HELL_OFFSET:
            return action._replace(to=action.to + _HELL_OFFSET)  # homes are always in Hell
        if action.kind not in (HOME.name, A.MOVE, A.RESIGN, A.DRAW):
            raise NotationError(f"{self.name} has no {action.kind} action")
        return action

    def why_move_illegal(self, state: DeadMansState, action: Action) -> str:
        if action.frm < _HELL_OFFSET and action.rise < 0:
            return super().why_move_illegal(state, action)
        base = super(ChessLike, self).why_move_illegal(state, action)
        if base != "that piece cannot move there now":
            return base
        name = self.layout.name
        if action.frm < _HELL_OFFSET:
            return "only a piece that captures in Hell can resurrect"
        if action.to < _HELL_OFFSET:
            return "a Hell piece reaches Earth only by resurrecting (FROM-TO@TOMBSTONE)"
        if action.rise >= 0:
            rise = action.rise
            if rise >= _HELL_OFFSET or not state.tombs >> rise & 1:
                return f"there is no tombstone on {name(rise)}"
            if not state.board[action.to]:
                return "only a piece that captures in Hell can resurrect"
            occupant = state.board[rise]
            if occupant and (occupant >> 4 == state.turn or occupant & 15 == KING):
                return f"cannot resurrect onto {name(rise)}: it holds a king or a friendly piece"
        if self.in_check(state):
            return "it does not get the king out of check"
        return "that piece cannot move there"


__all__ = ["DeadMans", "DeadMansState", "Pending", "START"]
