"""Afterlife Chess (Luiz Carlos Campos, 2002) as RULINGS.md §4 rules it.

Four boards: the World (4x7, files a-d, ranks 1-7), Limbo (one cell), the Twelve Hours of the
Night (eight bone-shaped cells) and the Hall of Truth (a corridor h1-h5). A piece captured in the
World goes to Limbo (killing whatever was there); after its owner's next move it goes to its
Destiny: the Hall's Entrance (h1) or an empty cell of the Twelve Hours chosen by its owner
(``drop=hours:b2``). Captures elsewhere make a piece Cease to Exist; gray pieces (Mercenaries,
Sethlings) may be moved by either player and never capture each other. A lone white or black
piece in the Twelve Hours is Redeemed to h1, and a piece on h5 may Reincarnate on any empty World
square (``hall:h5-c3``). How each piece moves is data:
:mod:`referee.rules.variants.afterlife_betza`.

Square indices (global, :class:`~referee.rules.geometry.Layout` order):
World a1..d7 = 0..27 (rank by
rank), Limbo = 28, Twelve Hours 29..36 (a1 d1 a2 b2 g2 d2 a3 d3), Hall h1..h5 = 37..41.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, ClassVar, Final

from referee.rules import actions as A
from referee.rules.actions import Action
from referee.rules.events import Announcement, Captured, GameEvent, Moved, Placed, Removed
from referee.rules.geometry import Cell, Geometry, Layout, Region, grid_cells
from referee.rules.pieces import BLACK, COLOUR_NAMES, GRAY, WHITE, code
from referee.rules.variant import (
    BOOL,
    ONGOING,
    OptionSpec,
    Outcome,
    draw,
    int_option,
    win_for,
)
from referee.rules.variants import afterlife_betza as betza
from referee.rules.variants.afterlife_betza import CAPTURE, EN_PASSANT, INITIAL, MOVE, SquareMoves
from referee.rules.variants.afterlife_state import (
    HALL,
    HEIGHT,
    HOURS,
    KIND_BY_LETTER,
    LETTERS,
    LIMBO,
    LIMBO_ZONE,
    MERCENARY,
    NAMES,
    PHARAOH,
    PRIEST,
    SETHLING,
    SLAVE,
    WARRIOR,
    WIDTH,
    WORLD,
    AfterlifeState,
)
from referee.rules.variants.afterlife_text import AfterlifeText

H1: Final = 37
H5: Final = 41
#: World rank (0-based y) each kind starts on, per orientation; ``i`` moves apply only there.
HOME_RANK: Final = {
    PHARAOH: {WHITE: 0, BLACK: 6}, PRIEST: {WHITE: 0, BLACK: 6},
    WARRIOR: {WHITE: 0, BLACK: 6}, SLAVE: {WHITE: 1, BLACK: 5},
    MERCENARY: {WHITE: 3, BLACK: 3}, SETHLING: {WHITE: -1, BLACK: -1},
}
SETHLING_HOMES: Final = ("hours:a1", "hours:a3", "hours:d1", "hours:d3")
START_WORLD: Final = {
    "a1": "W", "b1": "H", "c1": "P", "d1": "W", "a2": "S", "b2": "S", "c2": "S", "d2": "S",
    "b4": "m", "c4": "m",
    "a7": "w", "b7": "p", "c7": "h", "d7": "w", "a6": "s", "b6": "s", "c6": "s", "d6": "s",
}
DROP: Final = A.ActionKind(
    "drop", A.SQUARE, A.BOARD,
    "drop=hours:CELL: leaving Limbo, put your piece on a Twelve Hours cell (drop=hours:b2)",
    legend="drop here")
DEPART: Final = A.ActionKind("depart", A.BARE, A.UNSENSED,
                             "depart: your piece leaves Limbo (when departure is optional)")
MOVES: Final = A.moves(
    "b2b3, hours:a1-hours:a2, hall:h1-hall:h2: move; either side may move the gray Mercenaries "
    "(m) and Sethlings (e); from the Feather of Ma'at: hall:h5-c3")

PASS_ACTION: Final = A.simple(A.PASS)
DEPART_ACTION: Final = A.simple(DEPART.name)


def _check_promotion_set(value: Any) -> str:
    """``"H,W"``-style promotion set (also a list), normalised to canonical order."""
    parts = value.split(",") if isinstance(value, str) else value
    if not isinstance(parts, list | tuple) or not parts:
        raise ValueError("must be a non-empty list of H and W, like \"H,W\"")
    letters = {str(p).strip().upper() for p in parts}
    if not letters <= {"H", "W"}:
        raise ValueError(f"{value!r}: a Slave promotes only to H (High Priest) or W (Warrior)")
    return ",".join(c for c in "HW" if c in letters)


def _check_max_plies(value: Any) -> Any:
    """A whole number of plies >= 1, or None (also written ``"None"``, as RULINGS does)."""
    if isinstance(value, str) and value.strip().lower() in ("none", "null", "off"):
        return None
    return int_option(1, allow_none=True)(value)



class Afterlife(AfterlifeText):
    """Afterlife Chess. Options are the ``alc.`` CONFIG keys of RULINGS §4 (see the docs page).

    Raises (constructor): OptionError for an unknown key or a bad value, including a piece
    table whose Betza strings do not parse.
    """

    name = "afterlife"
    title = "Afterlife Chess"
    action_kinds = (MOVES, DROP, DEPART, A.PASS_KIND)
    promo_letters = "HW"
    option_specs: ClassVar = (
        OptionSpec("alc.piece_table", "proposed",
                   "how each piece moves: a preset name or an object of Betza overrides",
                   check=betza.check_piece_table),
        OptionSpec("alc.win_mode", "pharaoh_ceases", "how the game is won",
                   ("pharaoh_ceases", "fide_royal_in_world")),
        OptionSpec("alc.promotion_set", "H,W", "what a Slave may promote to",
                   check=_check_promotion_set),
        OptionSpec("alc.slave_double_step", True,
                   "Slaves double-step (and take en passant) in the World", BOOL),
        OptionSpec("alc.own_capture_counts", True,
                   "capturing an own or gray piece sets captured_this_life", BOOL),
        OptionSpec("alc.limbo_departure", "automatic", "Limbo departure is automatic or optional",
                   ("automatic", "optional")),
        OptionSpec("alc.destiny_promoted", "current_type",
                   "a promoted Slave's Destiny follows its current or original type",
                   ("current_type", "original_type")),
        OptionSpec("alc.slave_drop_last_rank", "forbid",
                   "a Slave may Reincarnate on its promotion rank (promoting)",
                   ("forbid", "allow")),
        OptionSpec("alc.gray_no_immediate_reversal", False,
                   "a gray piece may not be moved straight back", BOOL),
        OptionSpec("alc.max_plies", None, "draw after this many plies (None = no limit)",
                   check=_check_max_plies),
    )

    def build_layout(self) -> Layout:
        hours_gaps = ((1, 0), (2, 0), (1, 2), (2, 2))  # beta and gamma have only rank 2
        return Layout([
            Region("world", grid_cells("world", WIDTH, HEIGHT), implicit=True),
            Region("limbo", (Cell("limbo", "limbo", 0, 0),), look="plain"),
            Region("hours", grid_cells("hours", 4, 3, prefix="hours:", files="abgd",
                                       skip=hours_gaps), look="plain"),
            Region("hall", grid_cells("hall", 1, 5, prefix="hall:", files="h"), look="plain"),
        ])

    def __init__(self, options: dict[str, Any] | None = None) -> None:
        super().__init__(options)
        opts = self.options
        self.royal = opts["alc.win_mode"] == "fide_royal_in_world"
        self.automatic = opts["alc.limbo_departure"] == "automatic"
        self.promos = tuple(opts["alc.promotion_set"].split(","))
        self.drop_last_rank = opts["alc.slave_drop_last_rank"] == "allow"
        regions = self.layout.region_squares
        self.world: tuple[int, ...] = regions["world"]
        self.hours: tuple[int, ...] = regions["hours"]
        self.hall: tuple[int, ...] = regions["hall"]
        self.active = self.world + self.hours + self.hall  # where pieces move
        self.zone = [WORLD] * self.layout.size
        for zone, name in ((LIMBO_ZONE, "limbo"), (HOURS, "hours"), (HALL, "hall")):
            for sq in regions[name]:
                self.zone[sq] = zone
        self.geo = Geometry.build(self.layout, self.active)
        self.far_rank = {
            WHITE: frozenset(s for s in self.world if self.geo.coords(s)[2] == HEIGHT - 1),
            BLACK: frozenset(s for s in self.world if self.geo.coords(s)[2] == 0),
        }
        self.sethling_homes = tuple(self.layout.square(s) for s in SETHLING_HOMES)
        self._build_tables(betza.resolve_piece_table(opts["alc.piece_table"]))

    # ------------------------------------------------------------------ tables

    def _build_tables(self, table: dict[str, dict[str, str]]) -> None:
        """Per (orientation, kind) and square: compiled moves, move flags and capture maps."""
        size = self.layout.size
        empty = SquareMoves()
        #: moves[orient << 3 | kind][sq]; the orientation of a gray piece is its mover's.
        self.moves: list[list[SquareMoves]] = [[empty] * size for _ in range(3 << 3)]
        #: info[idx][sq][target] = (flags, en passant square skipped or -1), for apply.
        self.info: list[list[dict[int, tuple[int, int]]]] = [[{}] * size for _ in range(3 << 3)]
        #: attacks[idx][sq][target] = squares that must be empty (World captures, royal mode).
        self.attacks: list[list[dict[int, tuple[int, ...]]]] = [
            [{}] * size for _ in range(3 << 3)]
        self.overlap = False
        self.slave_forward_only = True
        for kind in range(PHARAOH, SETHLING + 1):
            atoms = {r: self._atoms(table[r][LETTERS[kind]], kind) for r in betza.REGIONS}
            for region in ("world", "hours"):
                if kind == SLAVE and any(y <= 0 for a in atoms[region] for _, y in a.vectors):
                    self.slave_forward_only = False
            for orient, forward in ((WHITE, 1), (BLACK, -1)):
                self._build_kind(kind, orient, forward, atoms)

    def _atoms(self, text: str, kind: int) -> tuple[betza.Atom, ...]:
        atoms = betza.parse_betza(text)
        if kind == SLAVE and not self.options["alc.slave_double_step"]:
            atoms = tuple(a for a in atoms if not a.flags & INITIAL)
        return atoms

    def _build_kind(self, kind: int, orient: int, forward: int,
                    atoms: dict[str, tuple[betza.Atom, ...]]) -> None:
        idx = orient << 3 | kind
        region_of = {WORLD: "world", HOURS: "hours", HALL: "hall"}
        for sq in self.active:
            zone = self.zone[sq]
            home = zone == WORLD and self.geo.coords(sq)[2] == HOME_RANK[kind][orient]
            sm = betza.compile_moves(atoms[region_of[zone]], self.geo, sq, forward,
                                     home=home, en_passant=zone == WORLD)
            self.moves[idx][sq] = sm
            info: dict[int, tuple[int, int]] = {}
            targets = [t for t, _, _, _ in sm.leaps] + [t for ray, _ in sm.rides for t in ray]
            if len(targets) != len(set(targets)):
                self.overlap = True  # two patterns reach one square: generation dedupes
            for t, _, flags, skipped in sm.leaps:
                old = info.get(t, (0, -1))
                info[t] = (old[0] | flags, skipped if skipped >= 0 else old[1])
            for ray, flags in sm.rides:
                for t in ray:
                    info[t] = (info.get(t, (0, -1))[0] | flags, info.get(t, (0, -1))[1])
            self.info[idx][sq] = info
            if zone == WORLD:
                self.attacks[idx][sq] = self._attack_map(sm)

    @staticmethod
    def _attack_map(sm: SquareMoves) -> dict[int, tuple[int, ...]]:
        out: dict[int, tuple[int, ...]] = {}
        for t, path, flags, _ in sm.leaps:
            if flags & CAPTURE and (t not in out or len(path) < len(out[t])):
                out[t] = path
        for ray, flags in sm.rides:
            if flags & CAPTURE:
                for i, t in enumerate(ray):
                    if t not in out or i < len(out[t]):
                        out[t] = ray[:i]
        return out

    # ------------------------------------------------------------------ start

    def initial_state(self, seed: int = 0) -> AfterlifeState:
        st = AfterlifeState(self.layout.size, WHITE, 0)
        for name, letter in START_WORLD.items():
            st.place(self.layout.square(name), self.piece_code(letter))
        for sq in self.sethling_homes:
            st.place(sq, code(SETHLING, GRAY))
        return st

    # ------------------------------------------------------------------ generation

    def generate(self, state: AfterlifeState) -> list[Action]:
        if state.pending:
            return [A.choice(DROP.name, s) for s in self.hours if not state.board[s]]
        out = self._moves(state)
        self._reincarnations(state, out)
        if self.overlap:
            out = list(dict.fromkeys(out))
        if state.last_gray is not None and self.options["alc.gray_no_immediate_reversal"]:
            back = A.move(state.last_gray[1], state.last_gray[0])
            out = [a for a in out if a != back]
        if not self.automatic and self._may_depart(state):
            out.append(DEPART_ACTION)
        if self.royal:
            out = self._royal_filter(state, out)
            if not out and self.in_check(state):
                return out  # checkmate
        return out or [PASS_ACTION]

    def _moves(self, st: AfterlifeState) -> list[Action]:
        """Pattern moves of ``to_act``'s pieces and of the gray pieces, every region."""
        us = st.to_act
        board = st.board
        table = self.moves[us << 3: (us << 3) + 8]
        ep = st.ep if st.ep >= 0 and board[st.ep_to] else -1
        gray_ep = ep if ep >= 0 and board[st.ep_to] >> 4 != GRAY else -1  # gray never takes gray
        out: list[Action] = []
        for sq in self.active:
            p = board[sq]
            if not p:
                continue
            gray = p >> 4 == GRAY
            if not gray and p >> 4 != us:
                continue
            sm = table[p & 15][sq]
            promote = self.far_rank[us] if p & 15 == SLAVE and not gray else ()
            if sm.leaps:
                self._leap_moves(board, sq, sm.leaps, gray, promote, gray_ep if gray else ep, out)
            if sm.rides:
                self._ride_moves(board, sq, sm.rides, gray, promote, out)
        return out

    def _leap_moves(self, board: list[int], sq: int, leaps: tuple[betza.Leap, ...], gray: bool,
                    promote: Any, ep: int, out: list[Action]) -> None:
        for t, path, flags, _ in leaps:
            if path and any(board[s] for s in path):
                continue  # a lame leap is blocked
            q = board[t]
            if q:
                if not flags & CAPTURE or (gray and q >> 4 == GRAY):
                    continue
            elif not flags & MOVE and not (t == ep and flags & EN_PASSANT):
                continue
            if t in promote:
                out.extend(Action(A.MOVE, sq, t, letter) for letter in self.promos)
            else:
                out.append(Action(A.MOVE, sq, t))

    def _ride_moves(self, board: list[int], sq: int, rides: tuple[betza.Ride, ...], gray: bool,
                    promote: Any, out: list[Action]) -> None:
        for ray, flags in rides:
            for t in ray:
                q = board[t]
                if q:
                    if flags & CAPTURE and not (gray and q >> 4 == GRAY):
                        self._add(out, sq, t, promote)
                    break
                if flags & MOVE:
                    self._add(out, sq, t, promote)

    def _add(self, out: list[Action], frm: int, to: int, promote: Any) -> None:
        if to in promote:
            out.extend(Action(A.MOVE, frm, to, letter) for letter in self.promos)
        else:
            out.append(Action(A.MOVE, frm, to))

    def _reincarnations(self, st: AfterlifeState, out: list[Action]) -> None:
        """Drops of ``to_act``'s piece on the Feather of Ma'at (h5) onto empty World squares."""
        p = st.board[H5]
        if not p or p >> 4 != st.to_act:
            return
        board = st.board
        last_rank = self.far_rank[st.to_act] if p & 15 == SLAVE else ()
        for t in self.world:
            if board[t]:
                continue
            if t in last_rank:
                if self.drop_last_rank:  # it lands promoted, as a Slave never stands there
                    out.extend(Action(A.MOVE, H5, t, letter) for letter in self.promos)
                continue
            out.append(Action(A.MOVE, H5, t))

    def _may_depart(self, st: AfterlifeState) -> bool:
        p = st.board[LIMBO]
        return bool(p) and p >> 4 == st.to_act and st.limbo_ready

    # ------------------------------------------------------------------ royal Pharaoh

    def _pharaoh_square(self, board: list[int], colour: int) -> int:
        pharaoh = code(PHARAOH, colour)
        for sq in self.world:
            if board[sq] == pharaoh:
                return sq
        return -1

    def attacked(self, board: list[int], sq: int, us: int) -> bool:
        """Whether a World piece of ``us``'s opponent, or a gray piece (moved by the opponent),
        could capture on World square ``sq`` (RULINGS §4.6: a gray attacker gives check)."""
        them = 3 - us
        attacks = self.attacks
        base = them << 3
        for s in self.world:
            p = board[s]
            if not p or p >> 4 == us:
                continue
            blockers = attacks[base | p & 15][s].get(sq)
            if blockers is not None and not any(board[b] for b in blockers):
                return True
        return False

    def in_check(self, state: AfterlifeState) -> bool:
        if not self.royal:
            return False
        ksq = self._pharaoh_square(state.board, state.turn)
        return ksq >= 0 and self.attacked(state.board, ksq, state.turn)

    def _royal_filter(self, st: AfterlifeState, actions: list[Action]) -> list[Action]:
        """Drop captures of the enemy's World Pharaoh and moves that leave ours attacked."""
        us = st.to_act
        board = st.board
        theirs = code(PHARAOH, 3 - us)
        ksq = self._pharaoh_square(board, us)
        checked = ksq >= 0 and self.attacked(board, ksq, us)
        out = []
        for a in actions:
            if a.kind != A.MOVE:
                out.append(a)  # depart is free and leaves the World alone
            elif self.zone[a.to] != WORLD:
                if not checked:
                    out.append(a)
            elif board[a.to] != theirs and (ksq < 0 or self._safe_after(st, a, ksq, us)):
                out.append(a)
        return out

    def _safe_after(self, st: AfterlifeState, a: Action, ksq: int, us: int) -> bool:
        board = st.board
        frm, to = a.frm, a.to
        if to == ksq:
            return True  # the owner sacrifices its own Pharaoh: it leaves the World
        b = board[:]
        if to == st.ep and not b[to] and self._is_en_passant(st, frm, to):
            b[st.ep_to] = 0
        b[to] = b[frm]
        b[frm] = 0
        return not self.attacked(b, to if frm == ksq else ksq, us)

    def _is_en_passant(self, st: AfterlifeState, frm: int, to: int) -> bool:
        p = st.board[frm]
        if self.zone[frm] != WORLD or not p or st.board[to]:
            return False
        flags = self.info[st.to_act << 3 | p & 15][frm].get(to, (0, -1))[0]
        return to == st.ep and bool(flags & EN_PASSANT)

    # ------------------------------------------------------------------ applying

    def apply(self, state: AfterlifeState, action: Action,
              events: list[GameEvent] | None = None) -> AfterlifeState:
        old = state
        st = state.copy()
        st.halfmove = -1  # set to 0 below by an irreversible step (scans for repetition stop there)
        kind = action.kind
        if kind == DROP.name:
            self._drop(st, action.to, events)
        elif kind == DEPART.name:
            self._depart(st, events)
            self._settle(st, events)
        elif kind == A.PASS:
            st.passes += 1
            st.ep = st.ep_to = -1
            st.last_gray = None
            if events is not None:
                events.append(Announcement(f"{COLOUR_NAMES[st.to_act].capitalize()} passes"))
            self._end_turn(st)
        else:
            self._move(st, action, events)
        irreversible = len(st.removed) != len(old.removed) or st.halfmove == 0
        st.halfmove = 0 if irreversible else old.halfmove + 1
        return st

    def _move(self, st: AfterlifeState, action: Action, events: list[GameEvent] | None) -> None:
        """A turn action: a move in any region, a gray move or a Reincarnation."""
        us = st.to_act
        frm, to = action.frm, action.to
        board = st.board
        piece = board[frm]
        gray = piece >> 4 == GRAY
        if frm == H5 and self.zone[to] == WORLD:
            self._reincarnate(st, action, events)
        else:
            self._pattern_move(st, action, events)
            kind = piece & 15
            if kind == SLAVE and not gray and self.slave_forward_only and self.zone[to] != HALL:
                st.halfmove = 0
        st.last_gray = (frm, to) if gray else None
        st.passes = 0
        self._after_turn(st, us, events)

    def _pattern_move(self, st: AfterlifeState, action: Action,
                      events: list[GameEvent] | None) -> None:
        board = st.board
        frm, to = action.frm, action.to
        piece = board[frm]
        colour = piece >> 4
        flags, skipped = self.info[st.to_act << 3 | piece & 15][frm].get(to, (0, -1))
        victim_sq = to if board[to] else -1
        if victim_sq < 0 and to == st.ep and flags & EN_PASSANT:
            victim_sq = st.ep_to
        captured, cid = st.clear(victim_sq) if victim_sq >= 0 else (0, 0)
        st.shift(frm, to)
        st.ep, st.ep_to = (skipped, to) if skipped >= 0 and not captured else (-1, -1)
        if events is not None:
            self._move_event(piece, frm, to, events)
        if action.promo:
            board[to] = code(KIND_BY_LETTER[action.promo], colour)
            st.promoted = st.promoted | {st.ids[to]}
            st.halfmove = 0
            if events is not None:
                events.append(Placed(f"{self._said(piece)} promotes to {NAMES[board[to] & 15]}",
                                     piece=self.piece_letter(board[to]),
                                     square=self.layout.name(to), reason="promotion"))
        if captured:
            if colour != GRAY and self.zone[to] == WORLD and self._counts(colour, captured):
                st.flagged = st.flagged | {st.ids[to]}
            self._captured(st, captured, cid, victim_sq, events)

    def _counts(self, colour: int, captured: int) -> bool:
        """Whether this capture sets captured_this_life (RULINGS §4.8 #9)."""
        return self.options["alc.own_capture_counts"] or captured >> 4 == 3 - colour

    def _reincarnate(self, st: AfterlifeState, action: Action,
                     events: list[GameEvent] | None) -> None:
        piece = st.board[H5]
        st.shift(H5, action.to)
        st.flagged = st.flagged - {st.ids[action.to]}  # a new life
        st.ep = st.ep_to = -1
        if action.promo:
            st.board[action.to] = code(KIND_BY_LETTER[action.promo], piece >> 4)
            st.promoted = st.promoted | {st.ids[action.to]}
        if events is not None:
            where = self.layout.name(action.to)
            events.append(Moved(f"{self._said(piece)} Reincarnates on {where}",
                                piece=self.piece_letter(piece), frm="hall:h5", to=where))

    def _captured(self, st: AfterlifeState, piece: int, ident: int, sq: int,
                  events: list[GameEvent] | None) -> None:
        """Step a: a captured piece goes to Limbo (World), or Ceases to Exist / is removed."""
        if events is not None:
            events.append(Captured(f"{self._said(piece)} captured on {self.layout.name(sq)}",
                                   piece=self.piece_letter(piece), square=self.layout.name(sq)))
        if piece >> 4 == GRAY or self.zone[sq] != WORLD:
            self._cease(st, piece, ident, sq, events)
            return
        if st.board[LIMBO]:
            old, old_id = st.clear(LIMBO)
            self._cease(st, old, old_id, LIMBO, events)
        st.place(LIMBO, piece, ident)
        st.limbo_ply = st.ply
        st.limbo_ready = False
        if events is not None:
            events.append(Placed(f"{self._said(piece)} goes to Limbo", square="limbo",
                                 piece=self.piece_letter(piece), reason="limbo"))

    def _cease(self, st: AfterlifeState, piece: int, ident: int, sq: int,
               events: list[GameEvent] | None) -> None:
        if sq >= 0 and st.board[sq] and st.ids[sq] == ident:
            st.clear(sq)
        st.removed = st.removed + (piece,)
        if ident in st.flagged:
            st.flagged = st.flagged - {ident}
        if ident in st.promoted:
            st.promoted = st.promoted - {ident}
        if events is not None:
            verb = "is removed from the game" if piece >> 4 == GRAY else "Ceases to Exist"
            events.append(Removed(f"{self._said(piece)} {verb}", piece=self.piece_letter(piece),
                                  square=self.layout.name(sq) if sq >= 0 else "",
                                  reason="ceased"))

    def _after_turn(self, st: AfterlifeState, us: int, events: list[GameEvent] | None) -> None:
        """Steps c-e after a turn action, then hand the turn over."""
        p = st.board[LIMBO]
        if p and p >> 4 == us and st.limbo_ply < st.ply:
            if self.automatic:
                self._depart(st, events)
            else:
                st.limbo_ready = True
        self._end_turn(st)
        self._settle(st, events)

    def _end_turn(self, st: AfterlifeState) -> None:
        if st.turn == BLACK:
            st.fullmove += 1
        st.turn = 3 - st.turn
        st.to_act = st.turn

    def _settle(self, st: AfterlifeState, events: list[GameEvent] | None) -> None:
        """Who acts next; Redemption once no drop is pending (the drop is part of step d)."""
        if st.pending:
            st.to_act = st.board[LIMBO] >> 4
            if events is not None:
                cells = tuple(self.layout.name(s) for s in self.hours if not st.board[s])
                who = COLOUR_NAMES[st.to_act]
                events.append(DROP.prompt(f"{who.capitalize()}: put the "
                                          f"{NAMES[st.board[LIMBO] & 15]} on an empty cell of "
                                          "the Twelve Hours", st.to_act, cells))
        else:
            st.to_act = st.turn
            self._redeem(st, events)

    def _depart(self, st: AfterlifeState, events: list[GameEvent] | None) -> None:
        """Steps c-d: the piece in Limbo goes to its Destiny."""
        piece, ident = st.board[LIMBO], st.ids[LIMBO]
        colour, kind = piece >> 4, piece & 15
        if ident in st.promoted and self.options["alc.destiny_promoted"] == "original_type":
            piece, kind = code(SLAVE, colour), SLAVE
            st.board[LIMBO] = piece
            st.promoted = st.promoted - {ident}
        st.limbo_ready = False
        hall = kind == PRIEST or (kind in (WARRIOR, PHARAOH) and ident in st.flagged)
        if hall:
            self._enter_hall(st, LIMBO, events)
        elif any(not st.board[s] for s in self.hours):
            st.pending = True
        else:
            if events is not None:
                full = f"The Twelve Hours are full for the {self._said(piece)}"
                events.append(Announcement(full))
            st.clear(LIMBO)
            self._cease(st, piece, ident, -1, events)
            st.limbo_ply = -1

    def _enter_hall(self, st: AfterlifeState, frm: int, events: list[GameEvent] | None) -> None:
        """Drop the piece on ``frm`` on the Entrance (h1), capturing whatever is there."""
        piece = st.board[frm]
        if st.board[H1]:
            victim, vid = st.board[H1], st.ids[H1]
            if events is not None:
                events.append(Captured(f"{self._said(victim)} captured on hall:h1",
                                       piece=self.piece_letter(victim), square="hall:h1"))
            self._cease(st, victim, vid, H1, events)
        st.shift(frm, H1)
        if frm == LIMBO:
            st.limbo_ply = -1
        if events is not None:
            events.append(Placed(f"{self._said(piece)} enters the Hall of Truth", square="hall:h1",
                                 piece=self.piece_letter(piece), reason="hall"))

    def _drop(self, st: AfterlifeState, to: int, events: list[GameEvent] | None) -> None:
        piece = st.board[LIMBO]
        st.shift(LIMBO, to)
        st.pending = False
        st.limbo_ply = -1
        st.halfmove = 0
        if events is not None:
            events.append(Placed(f"{self._said(piece)} enters the Twelve Hours on "
                                 f"{self.layout.name(to)}", piece=self.piece_letter(piece),
                                 square=self.layout.name(to), reason="hours"))
        self._settle(st, events)

    def _redeem(self, st: AfterlifeState, events: list[GameEvent] | None) -> None:
        """Step e: a lone white/black piece in the Twelve Hours goes to h1; reset the Sethlings."""
        board = st.board
        alone = -1
        for s in self.hours:
            if board[s]:
                if alone >= 0:
                    return
                alone = s
        if alone < 0 or board[alone] >> 4 == GRAY:
            return
        if events is not None:
            events.append(Announcement(f"Redemption: the {self._said(board[alone])} leaves the "
                                       "Twelve Hours"))
        self._enter_hall(st, alone, events)
        for s in self.sethling_homes:
            st.place(s, code(SETHLING, GRAY))
        if events is not None:
            events.append(Placed("Four Sethlings return to the Twelve Hours", piece="e",
                                 square="hours:a1", reason="reset"))

    def _said(self, piece: int) -> str:
        colour = piece >> 4
        name = NAMES[piece & 15]
        return name if colour == GRAY else f"{COLOUR_NAMES[colour]} {name}"

    def _move_event(self, piece: int, frm: int, to: int, events: list[GameEvent]) -> None:
        name = self.layout.name
        events.append(Moved(f"{self._said(piece)} {name(frm)}-{name(to)}",
                            piece=self.piece_letter(piece), frm=name(frm), to=name(to)))

    # ------------------------------------------------------------------ outcome

    def rule_outcome(self, state: AfterlifeState, legal: list[Action]) -> Outcome:
        for p in state.removed:
            if p & 15 == PHARAOH and p >> 4 != GRAY:
                loser = p >> 4
                return win_for(3 - loser,
                               f"the {COLOUR_NAMES[loser]} Pharaoh Ceased to Exist")
        if not legal:
            return win_for(3 - state.turn, "checkmate")
        if state.passes >= 2:
            return draw("both players passed")
        found = self.standard_draws(state, fifty=False)
        if found is not ONGOING:
            return found
        limit = self.options["alc.max_plies"]
        if limit is not None and state.ply >= limit:
            return draw(f"the {limit}-ply limit")
        return ONGOING

    def position_key(self, state: AfterlifeState) -> Hashable:
        ids = state.ids
        flagged = tuple(i for i, x in enumerate(ids) if x in state.flagged) if state.flagged else ()
        promoted = (tuple(i for i, x in enumerate(ids) if x in state.promoted)
                    if state.promoted else ())
        last = state.last_gray if self.options["alc.gray_no_immediate_reversal"] else None
        return (tuple(state.board), state.turn, state.to_act, state.pending, state.limbo_ply,
                state.limbo_ready, flagged, promoted, self._live_ep(state), last, state.passes,
                len(state.removed))

    def _live_ep(self, st: AfterlifeState) -> int:
        """The en passant square if a piece of ``to_act`` could take there (FIDE repetition)."""
        if st.ep < 0 or st.pending:
            return -1
        base = st.to_act << 3
        for s in self.world:
            p = st.board[s]
            if p and p >> 4 in (st.to_act, GRAY):
                flags = self.info[base | p & 15][s].get(st.ep, (0, -1))[0]
                if flags & EN_PASSANT:
                    return st.ep
        return -1

    def view(self, state: AfterlifeState, viewer: int | None) -> dict[str, Any]:
        out = super().view(state, viewer)
        name = self.layout.name
        out.update({
            "captured_this_life": sorted(name(i) for i, x in enumerate(state.ids)
                                         if x and x in state.flagged),
            "promoted": sorted(name(i) for i, x in enumerate(state.ids)
                               if x and x in state.promoted),
            "limbo_arrival_ply": state.limbo_ply,
            "limbo_may_leave": state.limbo_ready,
            "drop_pending": state.pending,
            "en_passant": name(state.ep) if state.ep >= 0 else None,
            "passes": state.passes,
        })
        return out

    def squares_of(self, zone: int) -> Sequence[int]:
        """The squares of a zone (WORLD, HOURS, HALL; Limbo is the single square LIMBO)."""
        return {WORLD: self.world, HOURS: self.hours, HALL: self.hall,
                LIMBO_ZONE: (LIMBO,)}[zone]
