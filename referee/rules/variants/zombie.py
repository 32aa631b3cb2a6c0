"""Zombie Chess (Don Kirkby), exactly as RULINGS.md §5 rules it.

Standard chess with checkmate. The capturer secretly buries each captured piece under a square
holding one of its own pieces (``bury=SQUARE``); when the mover's piece later leaves a square
with a burial, the buried piece comes back there as a *zombie* (a coin under it). Zombies must
move every turn of their owner or rot (go to the dust bin); several zombies form a horde that
moves together, one zombie after another, ended by ``end``.

A turn as a sequence of actions (default ``zombie.turn_mode=either_or``):

* one normal move (a non-zombie piece): the moves of the turn are over; or
* a zombie move: while other zombies of the horde have not moved, the turn stays open and the
  player moves another one of them or plays ``end``; once every zombie of the horde has moved
  (with exactly one zombie: at once) the moves are over;
* then, in this order, the referee checks every square the mover left for a reveal, the owners
  of revealed pawns on their last rank choose their piece (``promote=a8=Q``, made by the pawn's
  owner, who may be the opponent), the mover buries each piece captured this turn
  (``bury=c6``, made by the capturer), and the mover's unmoved zombies rot; then the other side
  moves.

With ``zombie.turn_mode=normal_plus_zombies`` the turn is the normal move followed by any of the
horde's zombies and ``end`` (zombies only when no normal move can start a legal turn).

Hidden information: each burial map is known to its burier and the referee only. The legality
of a player's actions depends on the board and the player's *own* burials only (rule 2a), never
on the opponent's (2b): that keeps the referee's yes/no from leaking the opponent's secret.
Squares are global indices, ``rank * 8 + file`` (a1 = 0, h8 = 63).
"""

from __future__ import annotations

from typing import Any, ClassVar, Final, NamedTuple

from referee.rules import actions as A
from referee.rules.actions import Action
from referee.rules.chesscore import SLIDES
from referee.rules.events import (
    Announcement,
    GameEvent,
    Marker,
    MarkerKind,
    Moved,
    Placed,
    Removed,
)
from referee.rules.pieces import (
    BISHOP,
    BLACK,
    CHESS_KIND_BY_LETTER,
    COLOUR_NAMES,
    KING,
    KNIGHT,
    PAWN,
    QUEEN,
    ROOK,
    WHITE,
    code,
)
from referee.rules.variant import BOOL, ONGOING, OptionSpec, Outcome, draw, win_for
from referee.rules.variants.chesslike import START_FEN
from referee.rules.variants.zombie_state import (
    CHOOSE,
    OPEN,
    START,
    Burials,
    ZombieState,
    add_burial,
    bits,
    buried_at,
    remove_burial,
)
from referee.rules.variants.zombie_text import BURY, MOVES, PROMOTE, ZombieText
from referee.rules.variants.zombie_text import END as END_KIND

TURN_MODE = "zombie.turn_mode"
OPPONENT_REVEAL = "zombie.legality_includes_opponent_reveal"
DOUBLE_STEP = "zombie.zombie_pawn_double_step"
CAPTURED_ZOMBIE = "zombie.captured_zombie"
EACH_STEP = "zombie.horde_check_each_step"

PIECE_NAMES = ("", "pawn", "knight", "bishop", "rook", "queen", "king")
END = A.simple(END_KIND.name)
#: The public coin under a zombie: faint green; a zombie rises with it and rots with it.
COIN: Final = MarkerKind("zombie", "zombie", "green", "faint", arrives="zombie rises",
                         departs="zombie rots")


def _between(a: int, b: int) -> int:
    """Bit set of the squares strictly between ``a`` and ``b`` (a1 = 0) on a rank, file or
    diagonal, or 0 when they share none."""
    dx, dy = (b & 7) - (a & 7), (b >> 3) - (a >> 3)
    if a == b or (dx and dy and abs(dx) != abs(dy)):
        return 0
    step = (dy > 0) - (dy < 0), (dx > 0) - (dx < 0)
    mask, sq = 0, a + 8 * step[0] + step[1]
    while sq != b:
        mask |= 1 << sq
        sq += 8 * step[0] + step[1]
    return mask


#: BETWEEN[a][b]: the squares strictly between a and b on a line (constant tables, 8x8 board)
BETWEEN: tuple[tuple[int, ...], ...] = tuple(
    tuple(_between(a, b) for b in range(64)) for a in range(64))
#: LINES[sq]: the squares on a rank, file or diagonal through sq
LINES: tuple[int, ...] = tuple(
    sum(1 << b for b in range(64)
        if b != a and ((b & 7) == (a & 7) or b >> 3 == a >> 3
                       or abs((b & 7) - (a & 7)) == abs((b >> 3) - (a >> 3))))
    for a in range(64))

#: KNIGHT_SPAN[sq]: the squares a knight on sq reaches
KNIGHT_SPAN: tuple[int, ...] = tuple(
    sum(1 << b for b in range(64)
        if sorted((abs((b & 7) - (a & 7)), abs((b >> 3) - (a >> 3)))) == [1, 2])
    for a in range(64))
#: NEAR[sq]: the only squares where a piece can attack or shield sq (its lines, knight squares)
NEAR: tuple[int, ...] = tuple(LINES[a] | KNIGHT_SPAN[a] for a in range(64))


def _assignable(helpers: list[list[tuple[int, int]]]) -> bool:
    """Whether every item can get a helper of its own from its list (bipartite matching by
    augmenting paths; a few items and helpers)."""
    owner: dict[tuple[int, int], int] = {}

    def place(i: int, tried: set[tuple[int, int]]) -> bool:
        for h in helpers[i]:
            if h in tried:
                continue
            tried.add(h)
            if h not in owner or place(owner[h], tried):
                owner[h] = i
                return True
        return False

    return all(place(i, set()) for i in range(len(helpers)))


#: What the horde search remembers per position met: a way to finish the turn, or None
Memo = dict[Any, "tuple[Action, ...] | None"]
#: Per enemy piece attacking the king: the squares where a zombie would stop it, and the
#: zombies that could land there
Demands = list[tuple[int, list[int]]]


class _Trial(NamedTuple):
    """What a legality trial of the mover needs: its colour, king square and burial maps.

    ``opp`` is the opponent's map only with ``legality_includes_opponent_reveal=true``.
    """

    us: int
    ksq: int
    own: dict[int, int]
    opp: dict[int, int] | None


class Zombie(ZombieText):
    """Zombie Chess: secret burials, reveals, hordes and rot on the standard 8x8 board."""

    name = "zombie"
    title = "Zombie Chess"
    action_kinds = (MOVES, BURY, END_KIND, PROMOTE)
    marker_kinds = (COIN,)
    option_specs: ClassVar = (
        OptionSpec(TURN_MODE, "either_or",
                   "a turn is a normal move OR zombie moves (normal_plus_zombies: both)",
                   ("either_or", "normal_plus_zombies")),
        OptionSpec(OPPONENT_REVEAL, False,
                   "legality counts the opponent's burials revealing the mover's zombies (leaks)",
                   BOOL),
        OptionSpec(DOUBLE_STEP, True, "a zombie pawn on its 2nd rank may double-step", BOOL),
        OptionSpec(CAPTURED_ZOMBIE, "rebury", "a captured zombie is buried again, or destroyed",
                   ("rebury", "dust_bin")),
        OptionSpec(EACH_STEP, False,
                   "king safety after every zombie move of a horde, not only after the turn",
                   BOOL),
    )

    def __init__(self, options: dict[str, Any] | None = None) -> None:
        super().__init__(options)
        o = self.options
        self.either_or: bool = o[TURN_MODE] == "either_or"
        self.opp_reveal: bool = o[OPPONENT_REVEAL]
        self.double_step: bool = o[DOUBLE_STEP]
        self.rebury: bool = o[CAPTURED_ZOMBIE] == "rebury"
        self.each_step: bool = o[EACH_STEP]
        #: the rank where each colour's pawns promote, as a bit set
        self.last_rank = {WHITE: 0xFF << 56, BLACK: 0xFF}
        self.lines = LINES
        self.between = BETWEEN
        rays = self.rules.rays
        #: ray_masks[d][sq]: the squares of ray d from sq; ray_up[d]: whether it climbs
        self.ray_masks = [[sum(1 << t for t in rays[d][sq]) for sq in range(64)]
                          for d in range(8)]
        self.ray_up = [any(rays[d][sq] and rays[d][sq][0] > sq for sq in range(64))
                       for d in range(8)]

    # ------------------------------------------------------------------ start

    def initial_state(self, seed: int = 0) -> ZombieState:
        return self.from_position(START_FEN + " - - - -", seed)

    # ------------------------------------------------------------------ legal actions

    def generate(self, state: ZombieState) -> list[Action]:
        if state.phase == CHOOSE:
            return self._choices(state)
        if state.phase == OPEN:
            return self._open_actions(state)
        return self._start_actions(state)

    def _choices(self, st: ZombieState) -> list[Action]:
        """Promotion of the first waiting revealed pawn, else the burial squares."""
        if st.promos:
            sq = st.promos[0]
            return [Action(PROMOTE.name, -1, sq, letter) for letter in self.promo_letters]
        return [Action(BURY.name, -1, sq) for sq in self.burial_squares(st, st.turn)]

    def burial_squares(self, st: ZombieState, colour: int) -> list[int]:
        """Squares where ``colour`` may bury: one of its pieces stands there (any piece, zombie
        or king included, RULINGS 5.8 #9) and it has no burial there yet."""
        board = st.board
        taken = {sq for sq, _ in st.burials_of(colour)}
        return [sq for sq in range(64) if board[sq] >> 4 == colour and sq not in taken]

    def _trial_context(self, st: ZombieState) -> _Trial:
        us = st.turn
        # The opponent's map enters a legality test only with the CONFIG alternative: with the
        # default the referee's verdict on a move must not depend on (and so cannot leak) it.
        opp = dict(st.burials_of(3 - us)) if self.opp_reveal else None
        return _Trial(us, self.rules.king_square(st.board, us), dict(st.burials_of(us)), opp)

    def _start_actions(self, st: ZombieState) -> list[Action]:
        ctx = self._trial_context(st)
        if not st.horde:
            return self._normal_moves(st, ctx, rot=0)
        memo: Memo = {}
        if self.either_or:
            # A normal move ends the moves at once: the whole horde rots.
            return self._normal_moves(st, ctx, rot=st.horde) + self._zombie_moves(
                st, ctx, st.horde, (), st.ep, memo)
        normal = self._normal_then_horde(st, ctx, memo)
        return normal or self._zombie_moves(st, ctx, st.horde, (), st.ep, memo)

    def _open_actions(self, st: ZombieState) -> list[Action]:
        ctx = self._trial_context(st)
        # After the turn's first move the opponent's en passant right has lapsed.
        out = self._zombie_moves(st, ctx, st.horde, st.left, -1, {})
        if self._safe_after(st.board, ctx, ctx.ksq, st.left, st.horde):
            out.append(END)
        return out

    def _castling_rights(self, st: ZombieState) -> int:
        """The castling rights, less any whose rook is a zombie (RULINGS 5.8 #14)."""
        rights = st.castling
        for rule in self.rules.castles[st.turn]:
            if st.zombies >> rule.rook_from & 1:
                rights &= ~rule.bit
        return rights

    def _trial_squares(self, st: ZombieState, ctx: _Trial) -> set[int]:
        """Squares of the mover's non-zombie pieces whose leaving can reveal something that
        counts for legality: its own burials (2a), and the opponent's with the option (2b)."""
        board, us = st.board, ctx.us
        found = {sq for sq in ctx.own if board[sq] >> 4 == us}
        if ctx.opp is not None:
            found |= {sq for sq in ctx.opp if board[sq] >> 4 == us}
        return {sq for sq in found if not st.zombies >> sq & 1}

    def _normal_moves(self, st: ZombieState, ctx: _Trial, rot: int) -> list[Action]:
        """Moves of non-zombie pieces after which the moves may end: the king is safe after
        the move, the reveals it causes (2a) and the rot of ``rot``.

        Standard legality holds for every move except those leaving a square with a burial that
        counts (tried on a board copy) and, when rot can open a line to the king, all of them.
        """
        board, us = st.board, ctx.us
        legal = self.rules.legal_moves(board, us, self._castling_rights(st), st.ep)
        trial = self._trial_squares(st, ctx)
        rot_lines = bool(rot & self.lines[ctx.ksq])
        if not trial and not rot:
            return legal
        out: list[Action] = []
        tries: list[Action] = []
        for m in legal:
            if st.zombies >> m.frm & 1:
                continue
            castle = self.rules.castle_rule(m.frm, m.to, us) if m.frm == ctx.ksq else None
            if m.frm in trial and castle is None:
                continue  # tried below from the pseudo-legal list (a reveal may also block)
            if (rot_lines or (rot and m.frm == ctx.ksq) or m.frm in trial
                    or (castle is not None and castle.rook_from in trial)):
                tries.append(m)
            else:
                out.append(m)
        if trial:
            tries.extend(self.rules.pseudo_moves(board, us, st.ep, sorted(trial)))
        ksq = ctx.ksq
        for m in tries:
            king = m.frm == ksq
            if self._safe_after(self._after(board, m, us), ctx, m.to if king else ksq,
                                self._vacated(m, us) if king else (m.frm,), rot):
                out.append(m)
        return out

    def _normal_then_horde(self, st: ZombieState, ctx: _Trial,
                           memo: Memo) -> list[Action]:
        """``normal_plus_zombies``: normal moves from which the horde can finish a legal turn."""
        board, us = st.board, ctx.us
        mine = [sq for sq in range(64) if board[sq] >> 4 == us and not st.zombies >> sq & 1]
        castles = [m for m in self.rules.legal_moves(board, us, self._castling_rights(st), st.ep)
                   if m.frm == ctx.ksq and self.rules.castle_rule(m.frm, m.to, us) is not None]
        out = []
        plans: list[tuple[Action, ...]] = []
        lost: dict[int, bool] = {}
        near = NEAR[ctx.ksq]
        for m in self.rules.pseudo_moves(board, us, st.ep, mine) + castles:
            after = self._after(board, m, us)
            mctx = ctx._replace(ksq=m.to) if m.frm == ctx.ksq else ctx
            left = self._vacated(m, us)
            if self.each_step and not self._safe_after(after, mctx, mctx.ksq, left, 0):
                continue
            if self._safe_after(after, mctx, mctx.ksq, left, st.horde):
                out.append(m)  # the turn may end at once
                continue
            if m.frm != ctx.ksq and not near >> m.to & 1 and not self._en_passant(board, m):
                # Landing off the king's lines and knight squares, the piece neither shields
                # nor takes an attacker: the bound with the piece simply gone holds for all
                # its moves there (:meth:`_lost_without`).
                if m.frm not in lost:
                    lost[m.frm] = self._lost_without(board, ctx, st.horde, m.frm)
                if lost[m.frm]:
                    continue
            # The horde's moves that finished the turn after another normal move often do
            # after this one too: replayed and checked in full, they spare the search.
            if any(self._replays(after, mctx, st.horde, left, -1, plan) for plan in plans):
                out.append(m)
                continue
            plan = self._finish(after, mctx, st.horde, left, memo)
            if plan is not None:
                out.append(m)
                if plan and plan not in plans:
                    plans.insert(0, plan)
                    del plans[3:]
        return out

    def _lost_without(self, board: list[int], ctx: _Trial, horde: int, sq: int) -> bool:
        """A sound proof that once the mover's piece on ``sq`` leaves for a square off the
        king's lines and knight squares, no horde moves can end the turn with the king safe:
        :meth:`_relax` on the board without the piece (its square left, so a burial there
        counts; the square it lands on only takes room from the zombies)."""
        b = board[:]
        b[sq] = 0
        reach = self._reaches(b, ctx.us, horde)
        return not any(self._coverable(per_kind)
                       for _, per_kind in self._relax(b, ctx, horde, (sq,), reach))

    def _zombie_moves(self, st: ZombieState, ctx: _Trial, horde: int, left: tuple[int, ...],
                      ep: int, memo: Memo) -> list[Action]:
        """Moves of the horde's unmoved zombies that can be part of a legal turn.

        Two shortcuts, both exact: the moves of one zombie to *inert* squares (off the king's
        lines and out of the other zombies' reach, see :meth:`_horde_steps`) all lead to the
        same verdict, searched once for them all; and a way found to finish the turn after one
        move proves every move of it that can be played first instead (:meth:`_first_moves`:
        the same moves in another order, replayed and checked in full), and is tried after the
        other first moves before searching (:meth:`_replays`).
        """
        board, us = st.board, ctx.us
        lines = self._king_lines(board, ctx, horde)
        reach = self._reaches(board, us, horde)
        cases = self._relax(board, ctx, horde, left, reach)
        proven: set[Action] = set()
        turns: list[tuple[Action, ...]] = []
        out = []
        for sq in bits(horde):
            rest, left2 = horde & ~(1 << sq), left + (sq,)
            others = 0
            for z, mask in reach.items():
                if z != sq:
                    others |= mask
            inert: bool | None = None
            for m in self._zombie_pseudo(board, sq, us, ep):
                if m in proven:
                    out.append(m)
                    continue
                ep_capture = self._en_passant(board, m)
                if not ep_capture and self._lost_after(cases, sq, m.to):
                    continue  # proven lost (en passant also empties another square: searched)
                shared = not ((lines | others) >> m.to & 1) and not ep_capture
                if shared and inert is not None:
                    if inert:
                        out.append(m)
                    continue
                if any(self._replays(board, ctx, horde, left, ep,
                                     (m, *[x for x in turn if x.frm != sq])) for turn in turns):
                    out.append(m)  # this move, then the rest of a turn found before
                    continue
                after = self._after(board, m, us)
                plan = None
                if not self.each_step or self._safe_after(after, ctx, ctx.ksq, left2, 0):
                    plan = self._finish(after, ctx, rest, left2, memo)
                if shared:
                    inert = plan is not None
                if plan is not None:
                    out.append(m)
                    proven |= self._first_moves(board, ctx, horde, left, ep, (m, *plan))
                    if plan:
                        turns.insert(0, (m, *plan))
                        del turns[3:]
        return out

    def _first_moves(self, board: list[int], ctx: _Trial, horde: int, left: tuple[int, ...],
                     ep: int, turn: tuple[Action, ...]) -> set[Action]:
        """The moves of ``turn`` (a legal way to finish it from ``board``) that can start it
        instead of its first: each is tried first, then the others in their order
        (:meth:`_replays`)."""
        return {turn[i] for i in range(1, len(turn))
                if self._replays(board, ctx, horde, left, ep,
                                 (turn[i], *turn[:i], *turn[i + 1:]))}

    def _replays(self, board: list[int], ctx: _Trial, horde: int, left: tuple[int, ...],
                 ep: int, moves: tuple[Action, ...]) -> bool:
        """Whether the zombie ``moves``, played in this order from ``board`` (the first with
        the en passant square ``ep``), finish the turn legally: every move one of an unmoved
        zombie of the ``horde`` by its pattern (and the king safe after it with
        ``horde_check_each_step``), the king safe at the end."""
        us, ksq = ctx.us, ctx.ksq
        b, h, gone = board, horde, left
        for j, m in enumerate(moves):
            if not h >> m.frm & 1 or m not in self._zombie_pseudo(b, m.frm, us,
                                                                 ep if j == 0 else -1):
                return False
            b, h, gone = self._after(b, m, us), h & ~(1 << m.frm), gone + (m.frm,)
            if self.each_step and not self._safe_after(b, ctx, ksq, gone, 0):
                return False
        return self._safe_after(b, ctx, ksq, gone, h)

    def _en_passant(self, board: list[int], m: Action) -> bool:
        """Whether ``m`` is an en passant capture (it also empties a square it does not reach)."""
        return board[m.frm] & 15 == PAWN and not board[m.to] and bool((m.to ^ m.frm) & 7)

    def _completable(self, board: list[int], ctx: _Trial, horde: int, left: tuple[int, ...],
                     memo: Memo) -> bool:
        """Whether the turn can end legally from here (see :meth:`_finish`)."""
        return self._finish(board, ctx, horde, left, memo) is not None

    def _finish(self, board: list[int], ctx: _Trial, horde: int, left: tuple[int, ...],
                memo: Memo) -> tuple[Action, ...] | None:
        """A way to end the turn legally from here: the further zombie moves (none: ``end``
        now, the rest of the horde rotting), or None when there is none (RULINGS 5.8 #15:
        king safety is judged once the whole turn is made, so a move is offered only if some
        way to finish the turn exists).

        The search is bounded three ways: a sound proof that the turn is lost
        (:meth:`_hopeless`) cuts a branch early, only the zombie moves that can matter for the
        king are tried (:meth:`_horde_steps`, those landing near the king first), and every
        position met is remembered for the whole listing (``memo``: move orders that meet again
        are searched once).
        """
        if self._safe_after(board, ctx, ctx.ksq, left, horde):
            return ()
        if not horde:
            return None
        key = (tuple(board), horde, frozenset(left), ctx.ksq)
        if key in memo:
            return memo[key]
        result: tuple[Action, ...] | None = None
        reach = self._reaches(board, ctx.us, horde)
        cases = self._relax(board, ctx, horde, left, reach)
        if any(self._coverable(per_kind) for _, per_kind in cases):
            for sq, m in self._horde_steps(board, ctx, horde, left, reach):
                if self._lost_after(cases, sq, m.to):
                    continue  # proven lost without entering it
                rest, left2 = horde & ~(1 << sq), left + (sq,)
                after = self._after(board, m, ctx.us)
                if self.each_step and not self._safe_after(after, ctx, ctx.ksq, left2, 0):
                    continue
                plan = self._finish(after, ctx, rest, left2, memo)
                if plan is not None:
                    result = (m, *plan)
                    break
        memo[key] = result
        return result

    def _horde_steps(self, board: list[int], ctx: _Trial, horde: int, left: tuple[int, ...],
                     reach: dict[int, int]) -> list[tuple[int, Action]]:
        """The (zombie square, move) pairs worth trying next in :meth:`_completable`.

        Only what lands on the king's live *lines* (:meth:`_king_lines`) can change whether
        the king is safe at the end; those moves are all tried, first. A move landing off the
        lines does no better than letting the zombie rot, unless its leaving matters: another
        remaining zombie could pass or land on its origin, or a burial under its origin on
        the lines would be revealed. For such a zombie one move to an *inert* square (off the
        lines and out of every other remaining zombie's reach, :meth:`_span`) stands for all
        of them: lines and reaches only shrink during a turn, so such a square never matters
        again, and any other square off the lines only takes room from the other zombies.
        Without an inert square, each off-line move is tried. Promotions count once per square
        (our own piece's kind never matters to our king's safety; the zombie moves only once).
        Moves onto a piece attacking the king if the turn ended now, or between it and the
        king, come first (they are what a way to finish needs, so one is found sooner).
        """
        us = ctx.us
        lines = self._king_lines(board, ctx, horde)
        zombies = list(reach)
        near: list[tuple[int, Action]] = []
        clearing: list[tuple[int, Action]] = []
        for z in zombies:
            others = 0
            for z2 in zombies:
                if z2 != z:
                    others |= reach[z2]
            leaving = others >> z & 1 or (lines >> z & 1 and self._revealed(ctx, z))
            seen = 0
            away: list[tuple[int, Action]] = []
            inert: tuple[int, Action] | None = None
            for m in self._zombie_pseudo(board, z, us, -1):
                to = m.to
                if seen >> to & 1:
                    continue
                seen |= 1 << to
                if lines >> to & 1:
                    near.append((z, m))
                elif leaving and inert is None:
                    if others >> to & 1:
                        away.append((z, m))
                    else:
                        inert = (z, m)
            if inert is not None:
                clearing.append(inert)
            else:
                clearing.extend(away)
        if len(near) > 1:
            threats = self._threats(board, ctx, horde, left)
            near.sort(key=lambda step: not threats >> step[1].to & 1)
        return near + clearing

    def _threats(self, board: list[int], ctx: _Trial, horde: int, left: tuple[int, ...]) -> int:
        """Bit set of the squares of the enemy pieces that would attack the king if the turn
        ended now (the horde rotting, the reveals made), and of the squares between them and
        the king (used to order the search, so it need not be exact)."""
        b = board[:]
        for v in left:
            if not b[v]:
                b[v] = self._revealed(ctx, v)
        for z in bits(horde):
            b[z] = 0
        ksq, mask = ctx.ksq, 0
        for a in self._attackers(b, ksq, 3 - ctx.us):
            mask |= self.between[ksq][a] | 1 << a
        return mask

    def _king_lines(self, board: list[int], ctx: _Trial, horde: int) -> int:
        """Bit set of the squares from which a piece could attack the king or shield it this
        turn: its rays up to the first piece that is not a remaining horde zombie (that piece,
        or a zombie capturing it, closes the line for the turn), and its knight squares. A
        line counts only if an enemy piece could attack along it at the end: the piece
        closing it is an enemy slider of that direction (or an adjacent enemy pawn or king),
        or a burial on it could be revealed; a knight square counts if it holds an enemy knight
        or a burial."""
        r, ksq = self.rules, ctx.ksq
        them = 3 - ctx.us
        shift = them << 4
        hidden = set(ctx.own) | set(ctx.opp or ())
        queen = QUEEN | shift
        mask = 0
        for t in r.knight[ksq]:
            if board[t] == KNIGHT | shift or t in hidden:
                mask |= 1 << t
        for d in range(8):
            slider = (ROOK if d < 4 else BISHOP) | shift
            seg, live = 0, False
            for i, t in enumerate(r.rays[d][ksq]):
                seg |= 1 << t
                live = live or t in hidden
                p = board[t]
                if p and not horde >> t & 1:
                    live = live or p == slider or p == queen or (i == 0 and (
                        p == KING | shift or (p == PAWN | shift and t in r.pawn_from[them][ksq])))
                    break
            if live:
                mask |= seg
        return mask

    def _reaches(self, board: list[int], us: int, horde: int) -> dict[int, int]:
        """:meth:`_span` of every zombie of the ``horde``, by square."""
        occupied = 0
        for sq, piece in enumerate(board):
            if piece:
                occupied |= 1 << sq
        enemy = 0
        for sq in bits(occupied & ~horde):
            if board[sq] >> 4 != us:
                enemy |= 1 << sq
        return {z: self._span(board, z, us, occupied & ~horde, enemy) for z in bits(horde)}

    def _span(self, board: list[int], sq: int, us: int, solid: int, enemy: int) -> int:
        """Bit set of every square the zombie on ``sq`` could pass or land on this turn, if all
        other horde zombies got out of its way (``solid``: the other pieces; one of ours stops
        it before, an ``enemy`` piece on it: only a zombie could ever replace either)."""
        r, kind = self.rules, board[sq] & 15
        if kind == PAWN:
            mask = 0
            for t in (r.push1[us][sq], r.push2[us][sq]):  # a piece not of the horde stays
                if t < 0 or solid >> t & 1:
                    break
                mask |= 1 << t
            for t in r.caps[us][sq]:
                if enemy >> t & 1:
                    mask |= 1 << t
            return mask
        if kind == KNIGHT:
            return KNIGHT_SPAN[sq]
        mask = 0
        for d in SLIDES.get(kind, ()):
            ray = self.ray_masks[d][sq]
            hit = ray & solid
            if not hit:
                mask |= ray
                continue
            t = (hit & -hit).bit_length() - 1 if self.ray_up[d] else hit.bit_length() - 1
            mask |= self.between[sq][t] | (enemy & 1 << t)
        return mask

    def _hopeless(self, board: list[int], ctx: _Trial, horde: int, left: tuple[int, ...],
                  reach: dict[int, int]) -> bool:
        """A sound proof that no order of moves of the ``horde`` zombies can end the turn with
        the king safe (it prunes the search; False proves nothing). See :meth:`_relax`."""
        return not any(self._coverable(demands) for _, demands in
                       self._relax(board, ctx, horde, left, reach))

    def _relax(self, board: list[int], ctx: _Trial, horde: int, left: tuple[int, ...],
               reach: dict[int, int]) -> list[tuple[int, list[Demands]]]:
        """What the king needs from the ``horde``, in the most open board the turn can reach
        once it is known which zombies move: per choice, the zombies that stay (and rot) and,
        per promotion piece tried, each attacker's squares and the zombies that could land there.

        That board: every horde zombie gone, the reveals of ``left`` made and, for each zombie
        that moves, the burial under its origin revealed (a revealed enemy pawn on its last
        rank as a queen, and again as a knight: the king must be safe from both). An enemy
        piece attacking the king there still attacks at the end unless a moving zombie lands
        between or on it (a zombie re-occupying a square covers its reveal the same way), and
        only one that can get there even with every other zombie out of the way
        (:meth:`_span`, :meth:`_can_land`). The attackers' lines meet only at the king, so
        each needs a zombie of its own (:meth:`_coverable`). Only the zombies covering a
        burial on the king's lines or knight squares are tried both ways (moving, staying):
        the others' reveals can neither attack nor shield the king, so they may as well move.
        """
        pend = board[:]
        for sq in bits(horde):
            pend[sq] = 0
        promos: list[int] = []
        for v in left:
            if not board[v]:
                piece = self._revealed(ctx, v)
                if piece:
                    pend[v] = piece
                    if self._promotes(piece, v):
                        promos.append(v)
        near = NEAR[ctx.ksq]
        covered = [(z, piece) for z in bits(horde & near) if (piece := self._revealed(ctx, z))]
        if len(covered) > 6:
            covered = []  # too many to try each subset: their reveals are left out (still sound)
        them, ksq = 3 - ctx.us, ctx.ksq
        cases: list[tuple[int, list[Demands]]] = []
        for chosen in range(1 << len(covered)):
            staying = 0
            trial = pend[:] if covered or promos else pend
            pro = promos[:]
            for i, (z, piece) in enumerate(covered):
                if chosen >> i & 1:
                    trial[z] = piece
                    if self._promotes(piece, z):
                        pro.append(z)
                else:
                    staying |= 1 << z
            per_kind: list[Demands] = []
            for kind in (QUEEN, KNIGHT) if pro else (0,):
                for v in pro:
                    trial[v] = code(kind, them)
                demands: Demands = []
                for a in self._attackers(trial, ksq, them):
                    between = self.between[ksq][a]
                    need = between if trial[a] & 15 == KING else between | 1 << a
                    demands.append((need, [z for z, mask in reach.items()
                                           if mask & need and not staying >> z & 1
                                           and self._can_land(z, mask & need, reach, staying)]))
                per_kind.append(demands)
            cases.append((staying, per_kind))
        return cases

    @staticmethod
    def _coverable(per_kind: list[Demands], moved: int = -1, landed: int = -1) -> bool:
        """Whether every attacker of every promotion piece tried can get a zombie of its own;
        after the zombie on ``moved`` landed on ``landed`` (it blocks the attacker whose squares
        hold it and helps no other)."""
        for demands in per_kind:
            helpers: list[list[tuple[int, int]]] = []
            for need, zombies in demands:
                if landed >= 0 and need >> landed & 1:
                    continue
                options = [(0, z) for z in zombies if z != moved]
                if not options:
                    return False
                helpers.append(options)
            if not _assignable(helpers):
                return False
        return True

    @classmethod
    def _lost_after(cls, cases: list[tuple[int, list[Demands]]], z: int, to: int) -> bool:
        """A sound proof (from :meth:`_relax` of the position before) that once the zombie on
        ``z`` moves to ``to`` the turn cannot end with the king safe."""
        return not any(cls._coverable(per_kind, z, to) for staying, per_kind in cases
                       if not staying >> z & 1)

    def _can_land(self, z: int, targets: int, reach: dict[int, int], staying: int) -> bool:
        """Whether the zombie on ``z`` could land on one of ``targets`` (squares of its
        :meth:`_span`): the other zombies standing on its way there must first leave (none of
        ``staying``), each to a square off that way, other than the target and ``z`` itself
        (still occupied)."""
        for t in bits(targets):
            path = self.between[z][t]
            if path & staying:
                continue
            blocked = False
            for y in reach:
                if path >> y & 1 and not reach[y] & ~(path | 1 << t | 1 << z):
                    blocked = True
                    break
            if not blocked:
                return True
        return False

    def _revealed(self, ctx: _Trial, sq: int) -> int:
        """The piece a square of the mover's reveals once left empty (its own burial there,
        else with the option the opponent's), or 0."""
        return ctx.own.get(sq, 0) or (ctx.opp.get(sq, 0) if ctx.opp is not None else 0)

    def _promotes(self, piece: int, sq: int) -> bool:
        """Whether a revealed ``piece`` on ``sq`` is a pawn on its last rank (its owner picks
        its new kind: the mover's king must be safe whatever it becomes)."""
        return piece & 15 == PAWN and bool(self.last_rank[piece >> 4] >> sq & 1)

    def _attackers(self, board: list[int], sq: int, by: int) -> list[int]:
        """Squares of the pieces of colour ``by`` attacking ``sq`` on ``board``."""
        r = self.rules
        shift = by << 4
        out = [t for t in r.knight[sq] if board[t] == KNIGHT | shift]
        out += [t for t in r.king[sq] if board[t] == KING | shift]
        out += [t for t in r.pawn_from[by][sq] if board[t] == PAWN | shift]
        for d in range(8):
            slider = (ROOK if d < 4 else BISHOP) | shift
            for t in r.rays[d][sq]:
                p = board[t]
                if p:
                    if p == slider or p == QUEEN | shift:
                        out.append(t)
                    break
        return out

    def _zombie_pseudo(self, board: list[int], sq: int, us: int, ep: int) -> list[Action]:
        """A zombie's moves by the piece patterns (never castling: a king is never a zombie).

        A horde's first zombie may uncover the enemy king for a second one; the king is never
        captured (RULINGS 5.5), so a zombie never moves onto it: the horde gives check instead.
        """
        enemy_king = code(KING, 3 - us)
        moves = [m for m in self.rules.pseudo_moves(board, us, ep, (sq,))
                 if board[m.to] != enemy_king]
        if not self.double_step and board[sq] & 15 == PAWN:
            two = self.rules.push2[us][sq]
            moves = [m for m in moves if m.to != two]
        return moves

    def _vacated(self, m: Action, us: int) -> tuple[int, ...]:
        """The squares a move leaves: its origin, and the rook's for castling (RULINGS #4)."""
        rule = self.rules.castle_rule(m.frm, m.to, us) if abs(m.to - m.frm) == 2 else None
        if rule is not None and m.frm == rule.king_from:
            return (m.frm, rule.rook_from)
        return (m.frm,)

    def _after(self, board: list[int], m: Action, us: int) -> list[int]:
        """A copy of ``board`` after the move ``m`` of ``us`` (no reveals)."""
        b = board[:]
        frm, to = m.frm, m.to
        piece = b[frm]
        kind = piece & 15
        if kind == PAWN and not b[to] and (to ^ frm) & 7:
            b[self.rules.push1[3 - us][to]] = 0  # en passant
        b[to] = code(CHESS_KIND_BY_LETTER[m.promo], us) if m.promo else piece
        b[frm] = 0
        if kind == KING and abs(to - frm) == 2:
            rule = self.rules.castle_rule(frm, to, us)
            if rule is not None:
                b[rule.rook_to], b[rule.rook_from] = b[rule.rook_from], 0
        return b

    def _safe_after(self, board: list[int], ctx: _Trial, ksq: int, left: tuple[int, ...],
                    rot: int) -> bool:
        """Whether the mover's king on ``ksq`` is safe on ``board`` once its moves are over:
        the squares of ``left`` still empty reveal the mover's own burials (2a; with the option
        also the opponent's, 2b) and the zombies of ``rot`` are gone. ``board`` is unchanged.

        A revealed enemy pawn on its last rank promotes by its owner's choice, which the mover
        cannot know: the king must be safe whatever it becomes (tried as a queen and a knight).
        Only squares on the king's lines or knight squares can change that (a piece elsewhere
        neither attacks nor shields it), so reveals and rot elsewhere are not made.
        """
        near = NEAR[ksq]
        changes: list[tuple[int, int]] = []
        promos: list[int] = []
        for v in left:
            if board[v] or not near >> v & 1:
                continue  # re-occupied during the turn: no reveal, the burial stays (#5)
            piece = ctx.own.get(v, 0)
            if piece:
                changes.append((v, piece))
                if piece & 15 == PAWN and self.last_rank[piece >> 4] >> v & 1:
                    promos.append(v)
            elif ctx.opp is not None and ctx.opp.get(v, 0):
                changes.append((v, ctx.opp[v]))
        rot &= near
        them = 3 - ctx.us
        if not changes and not rot:
            return not self.rules.attacked(board, ksq, them)
        b = board[:]
        for sq, piece in changes:
            b[sq] = piece
        while rot:
            low = rot & -rot
            b[low.bit_length() - 1] = 0
            rot ^= low
        if not promos:
            return not self.rules.attacked(b, ksq, them)
        for kind in (QUEEN, KNIGHT):
            for v in promos:
                b[v] = code(kind, them)
            if self.rules.attacked(b, ksq, them):
                return False
        return True

    # ------------------------------------------------------------------ applying actions

    def apply(self, state: ZombieState, action: Action,
              events: list[GameEvent] | None = None) -> ZombieState:
        """The state after a legal ``action`` (``state`` is left untouched).

        Raises:
            ValueError: an action kind Zombie Chess does not have (callers check legality).
        """
        st = state.copy()
        kind = action.kind
        if kind == A.MOVE:
            self._apply_move(st, action, events)
        elif kind == END_KIND.name:
            self._end_moves(st, events)
        elif kind == BURY.name:
            self._apply_bury(st, action, events)
        elif kind == PROMOTE.name:
            self._apply_promote(st, action, events)
        else:
            raise ValueError(f"zombie: cannot apply a {kind} action")
        return st

    def _apply_move(self, st: ZombieState, action: Action,
                    events: list[GameEvent] | None) -> None:
        us, first, frm = st.turn, st.phase == START, action.frm
        zombie = st.zombies >> frm & 1
        half, ep = st.halfmove, st.ep
        rec = self.rules.make_move(st, action)
        if not first:
            # One turn counts once for the 50-move rule, however many zombies moved in it;
            # the en passant square of the turn's own double step survives later zombie moves.
            st.halfmove = 0 if rec.piece & 15 == PAWN or rec.captured else half
            if st.ep < 0 <= ep and ep >> 3 == (2 if us == WHITE else 5):
                st.ep = ep
        if events is not None:
            self.move_events(action, rec.piece, rec.captured, rec.captured_on, events)
            if rec.rook:
                rook = self.piece_letter(st.board[rec.rook[1]])
                f, t = self.layout.name(rec.rook[0]), self.layout.name(rec.rook[1])
                events.append(Moved(f"{rook} {f}-{t}", piece=rook, frm=f, to=t))
        if rec.captured:
            self._captured(st, rec.captured, rec.captured_on, events)
        if zombie:
            st.zombies = st.zombies & ~(1 << frm) | 1 << action.to
            st.horde &= ~(1 << frm)
        st.left += (frm, rec.rook[0]) if rec.rook else (frm,)
        more = st.horde and (zombie or not self.either_or)
        if more:
            st.phase = OPEN
        else:
            self._end_moves(st, events)

    def _captured(self, st: ZombieState, piece: int, sq: int,
                  events: list[GameEvent] | None) -> None:
        """A captured piece goes to the graveyard to wait for its burial (a captured zombie
        too, unless ``zombie.captured_zombie=dust_bin``)."""
        if st.zombies >> sq & 1:
            st.zombies &= ~(1 << sq)
            if not self.rebury:
                st.removed += (piece,)
                if events is not None:
                    events.append(Removed(f"Zombie {self._name(piece)} destroyed",
                                          piece=self.piece_letter(piece),
                                          square=self.layout.name(sq), reason="zombie captured"))
                return
        st.to_bury += (piece,)

    def _end_moves(self, st: ZombieState, events: list[GameEvent] | None) -> None:
        """The moves are over: check every square left (RULINGS 5.4 step 2), then choices."""
        us = st.turn
        if events is not None and not st.burials_of(us):
            events.append(Announcement("No zombies anywhere"))
        seen: set[int] = set()
        for v in st.left:
            if v in seen or st.board[v]:
                continue  # re-occupied in the same turn: not checked, the burial stays (#5)
            seen.add(v)
            self._reveal(st, v, us, events)
        st.left = ()
        st.phase = CHOOSE
        self._advance(st, events)

    def _reveal(self, st: ZombieState, v: int, us: int, events: list[GameEvent] | None) -> None:
        """The reveal check of one empty square: the mover's burial first (2a), else the
        opponent's (2b), else "no zombie at v" (2c; said only if the mover has burials)."""
        for burier in (us, 3 - us):
            piece = buried_at(st.burials_of(burier), v)
            if piece:
                st.set_burials(burier, remove_burial(st.burials_of(burier), v))
                st.place(v, piece)
                st.zombies |= 1 << v
                if piece & 15 == PAWN and self.last_rank[piece >> 4] >> v & 1:
                    st.promos += (v,)
                if events is not None:
                    self._reveal_events(piece, v, events)
                return
        if events is not None and st.burials_of(us):
            events.append(Announcement(f"No zombie at {self.layout.name(v)}"))

    def _reveal_events(self, piece: int, v: int, events: list[GameEvent]) -> None:
        name = self.layout.name(v)
        letter = self.piece_letter(piece)
        events.append(Placed(f"Zombie {self._name(piece)} rises on {name}", piece=letter,
                             square=name, reason="zombie", marker=COIN))
        events.append(COIN.put(f"Coin under {name}", name))

    def _advance(self, st: ZombieState, events: list[GameEvent] | None) -> None:
        """Ask for the next choice, or end the turn when none is left."""
        if st.promos:
            sq = st.promos[0]
            st.to_act = st.board[sq] >> 4
            if events is not None:
                who = COLOUR_NAMES[st.to_act]
                events.append(PROMOTE.prompt(f"{who.capitalize()} chooses the piece for the "
                                             f"zombie pawn on {self.layout.name(sq)}",
                                             st.to_act, tuple(self.promo_letters)))
            return
        us = st.turn
        while st.to_bury:
            places = self.burial_squares(st, us)
            if places:
                st.to_act = us
                if events is not None:
                    self._bury_prompt(st, places, events)
                return
            piece = st.to_bury[0]
            st.to_bury = st.to_bury[1:]
            st.removed += (piece,)
            if events is not None:
                events.append(Removed("I cannot bury this piece", piece=self.piece_letter(piece),
                                      reason="cannot bury"))
        self._finish_turn(st, events)

    def _bury_prompt(self, st: ZombieState, places: list[int],
                     events: list[GameEvent]) -> None:
        us = st.turn
        name = self._name(st.to_bury[0])
        who = COLOUR_NAMES[us].capitalize()
        events.append(BURY.prompt(f"{who} buries the {name}", us))
        # The squares still free tell where the burier's other burials are: burier only.
        events.append(BURY.prompt(f"Bury the {name} under one of your pieces", us,
                                  tuple(self.layout.name(s) for s in places), audience=us))

    def _apply_bury(self, st: ZombieState, action: Action,
                    events: list[GameEvent] | None) -> None:
        us, sq = st.turn, action.to
        piece = st.to_bury[0]
        st.to_bury = st.to_bury[1:]
        st.set_burials(us, add_burial(st.burials_of(us), sq, piece))
        if events is not None:
            name, where = self._name(piece), self.layout.name(sq)
            events.append(Marker(f"You buried the {name} under {where}", audience=us,
                                 marker="burial", square=where))
            events.append(Announcement(f"{COLOUR_NAMES[us].capitalize()} buried the {name} "
                                       "in secret"))
        self._advance(st, events)

    def _apply_promote(self, st: ZombieState, action: Action,
                       events: list[GameEvent] | None) -> None:
        sq = action.to
        owner = st.board[sq] >> 4
        st.board[sq] = code(CHESS_KIND_BY_LETTER[action.promo], owner)
        st.promos = st.promos[1:]
        if events is not None:
            events.append(Announcement(f"Zombie pawn on {self.layout.name(sq)} promotes to "
                                       f"{self.piece_letter(st.board[sq])}"))
        self._advance(st, events)

    def _finish_turn(self, st: ZombieState, events: list[GameEvent] | None) -> None:
        """Rot (RULINGS 5.4 step 4), then the other side's turn."""
        for sq in bits(st.horde):
            piece, _ = st.clear(sq)
            st.zombies &= ~(1 << sq)
            st.removed += (piece,)
            if events is not None:
                name = self.layout.name(sq)
                events.append(Removed(f"Zombie {self._name(piece)} on {name} rots",
                                      piece=self.piece_letter(piece), square=name, reason="rot",
                                      marker=COIN))
                events.append(COIN.take(f"Coin off {name}", name))
        self.end_turn(st)
        st.phase = START
        new = st.turn
        st.horde = sum(1 << sq for sq in bits(st.zombies) if st.board[sq] >> 4 == new)

    def _name(self, piece: int) -> str:
        return f"{COLOUR_NAMES[piece >> 4]} {PIECE_NAMES[piece & 15]}"

    # ------------------------------------------------------------------ outcome and keys

    def rule_outcome(self, state: ZombieState, legal: list[Action]) -> Outcome:
        if state.phase != START:
            return ONGOING  # the game is judged between turns only
        if not legal:
            if self.in_check(state):
                return win_for(3 - state.turn, "checkmate")
            return draw("stalemate")
        if not any(state.burials) and self.insufficient_material(state):
            return draw("insufficient material")  # only if neither player has burials
        return self.standard_draws(state)

    def position_key(self, state: ZombieState) -> tuple[Any, ...]:
        """Everything that makes a position, the hidden burials and the zombie coins included
        (RULINGS 5.6)."""
        ep = state.ep if self.rules.ep_capturable(state.board, state.turn, state.ep) else -1
        return (tuple(state.board), state.turn, state.to_act, state.castling, ep, state.zombies,
                state.burials, state.phase, state.horde, state.left, state.to_bury, state.promos)

    def expectation(self, state: ZombieState, key: str) -> Any:
        if key == "zombies":
            return [self.layout.name(sq) for sq in bits(state.zombies)]
        if key == "graveyard":
            return self.graveyard(state)
        if key == "removed":
            return [self.piece_letter(p) for p in state.removed]
        raise KeyError(key)

    def legal_is_public(self, state: ZombieState) -> bool:
        if state.phase == CHOOSE and state.promos:
            return True
        secrets: tuple[Burials, ...] = (state.burials_of(state.to_act),)
        if self.opp_reveal:
            secrets = state.burials
        return not any(secrets)

    def public_action_text(self, action: Action) -> str:
        """Burials appear in public as ``bury=(secret)``: the square is the burier's secret."""
        if action.kind == BURY.name:
            return "bury=(secret)"
        return self.format_action(action)

    def why_move_illegal(self, state: ZombieState, action: Action) -> str:
        if state.phase == OPEN and not state.horde >> action.frm & 1:
            return "only the horde's zombies that have not moved may move now (or end)"
        if state.phase == START and state.zombies >> action.frm & 1 and not self.either_or:
            return "zombies move after the normal move"
        return super().why_move_illegal(state, action)


