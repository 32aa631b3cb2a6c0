"""Die Chess (RULINGS.md §3): each side's only piece is a chess die that moves as its face.

A turn is ``pass``, a roll, a move, or a roll and a move (at most one of each; with
``die.allow_move_then_roll`` the move may come first). A roll is ``roll=N`` when a physical die
was read (``N`` 1-6 or the face letter) or the bare ``roll`` when the referee rolls with the
seeded generator in ``state.rng``; either way the record keeps the face (``roll=N``). Each die
has a move counter ``c`` (moves since its last roll or respawn): P/N/B may move while ``c < 2``,
R/Q/K while ``c < 1``. A captured die restarts pawn-up with ``c = 0`` on its start square, or
the next dark square of its back rank when the capturer stands there; capturing a king-faced
die wins.

Squares are the 64 global indices of :class:`~referee.rules.variants.chesslike.ChessLike`
(``rank * 8 + file``, ``a1`` = 0). The die's face is the kind of its piece code on the board,
so ``state.board`` alone says where both dice are and what they show.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, ClassVar, Final

from referee.rules import actions as A
from referee.rules.actions import Action
from referee.rules.errors import NotationError
from referee.rules.events import Announcement, Captured, GameEvent, Moved, Placed
from referee.rules.geometry import DIAGONAL, ORTHOGONAL
from referee.rules.pieces import (
    BISHOP,
    BLACK,
    CHESS_KIND_BY_LETTER,
    CHESS_LETTERS,
    COLOUR_NAMES,
    KING,
    KNIGHT,
    PAWN,
    QUEEN,
    ROOK,
    WHITE,
    code,
)
from referee.rules.rng import randbelow, seed_state
from referee.rules.variant import BOOL, ONGOING, OptionSpec, Outcome, draw, int_option, win_for
from referee.rules.variants.die_state import FACE_NAMES, LIMIT, DieState
from referee.rules.variants.die_text import DieText

#: Moves a die may make between rolls, per face kind (RULINGS §3.4).
DEFAULT_FACE_MAP: Final = "PNBRQK"  # d6 pips 1..6 -> face letters (RULINGS §3.8 #15)
#: Start squares and the order of respawn squares along each back rank (RULINGS §3.5).
RESPAWN_NEXT_DARK: Final = {WHITE: ("a1", "c1", "e1", "g1"), BLACK: ("h8", "f8", "d8", "b8")}
RESPAWN_NEXT: Final = {WHITE: tuple(f"{f}1" for f in "abcdefgh"),
                       BLACK: tuple(f"{f}8" for f in "hgfedcba")}
_SLIDES: Final = {BISHOP: DIAGONAL, ROOK: ORTHOGONAL, QUEEN: ORTHOGONAL + DIAGONAL}
_PIPS: Final = frozenset("123456")
_PASS: Final = A.simple(A.PASS)
ROLL: Final = A.ActionKind(
    "roll", A.VALUE, A.DIE,
    "roll=N when your die shows the face N (1-6 or P N B R Q K), or roll to let the referee roll",
    read=str.upper, bare=True)
MOVES: Final = A.moves("a1b3, or SAN: Nb3: move (a turn is roll, move, both, or pass)")
_BARE_ROLL: Final = A.simple(ROLL.name)
_NUMBERED_ROLLS: Final = tuple(A.simple(ROLL.name, str(n)) for n in range(1, 7))


def _face_map(value: Any) -> str:
    """Normalise ``die.face_map`` to six face letters for pips 1..6.

    Accepts ``"PNBRQK"``, a list of six letters, or a map ``{"1": "P", ..., "6": "K"}``.

    Raises:
        ValueError: not a one-to-one map of 1..6 onto the faces P, N, B, R, Q, K.
    """
    if isinstance(value, dict):
        try:
            letters = "".join(str(value[k] if k in value else value[int(k)])
                              for k in ("1", "2", "3", "4", "5", "6"))
        except (KeyError, ValueError):
            raise ValueError("a face map needs the keys 1 to 6") from None
    elif isinstance(value, (list, tuple)):
        letters = "".join(str(v) for v in value)
    elif isinstance(value, str):
        letters = value
    else:
        raise ValueError(f"{value!r} is not a face map")
    letters = letters.upper()
    if len(letters) != 6 or sorted(letters) != sorted(DEFAULT_FACE_MAP):
        raise ValueError(f"{value!r} must map 1..6 one-to-one onto P, N, B, R, Q, K")
    return letters


class Die(DieText):
    """Die Chess. The no-capture counter (``state.halfmove``) counts whole turns ("plies")."""

    name = "die"
    title = "Die Chess"
    action_kinds = (MOVES, ROLL, A.PASS_KIND)
    promo_letters = "QRBNK"  # what the notation accepts; legality follows the options
    option_specs: ClassVar = (
        OptionSpec("die.roll_source", "physical",
                   "physical: roll=N reads the die (bare roll also accepted); "
                   "rng: the referee rolls, the legal set lists only the bare roll",
                   ("physical", "rng")),
        OptionSpec("die.allow_move_then_roll", False,
                   "a move no longer ends the turn: roll or pass after it", BOOL),
        OptionSpec("die.max_rolls_per_turn", 1, "rolls allowed in one turn",
                   check=int_option(minimum=1)),
        OptionSpec("die.promotion_optional", True,
                   "a pawn-faced die reaching the far rank may stay a pawn", BOOL),
        OptionSpec("die.promotion_allows_king", True, "promotion may turn the die to K", BOOL),
        OptionSpec("die.promote_on_rolled_pawn_last_rank", False,
                   "a pawn-faced die standing on its far rank may promote in place", BOOL),
        OptionSpec("die.respawn_conflict", "next_dark_square",
                   "where a captured die restarts when the capturer holds its start square "
                   "(next_square: the adjacent square along the back rank)",
                   ("next_dark_square", "next_square")),
        OptionSpec("die.no_capture_draw_plies", 100,
                   "draw after this many turns without a capture (null: never)",
                   check=int_option(minimum=1, allow_none=True)),
        OptionSpec("die.repetition_draw", True, "threefold repetition draws", BOOL),
        OptionSpec("die.face_map", DEFAULT_FACE_MAP,
                   "faces of d6 pips 1..6: \"PNBRQK\", a list or {\"1\": \"P\", ...}",
                   check=_face_map),
    )

    def __init__(self, options: dict[str, Any] | None = None) -> None:
        super().__init__(options)
        o = self.options
        self.rng_mode: bool = o["die.roll_source"] == "rng"
        self.move_then_roll: bool = o["die.allow_move_then_roll"]
        self.max_rolls: int = o["die.max_rolls_per_turn"]
        self.promo_optional: bool = o["die.promotion_optional"]
        self.promo_in_place: bool = o["die.promote_on_rolled_pawn_last_rank"]
        self.promo_kinds: tuple[int, ...] = (KNIGHT, BISHOP, ROOK, QUEEN) + (
            (KING,) if o["die.promotion_allows_king"] else ())
        self.no_capture_limit: int | None = o["die.no_capture_draw_plies"]
        self.repetition: bool = o["die.repetition_draw"]
        face_map: str = o["die.face_map"]
        self.face_of_pips: tuple[int, ...] = (0,) + tuple(
            CHESS_KIND_BY_LETTER[c] for c in face_map)
        self.pips_of_letter: dict[str, str] = {c: str(i + 1) for i, c in enumerate(face_map)}
        self.roll_actions: tuple[Action, ...] = (_BARE_ROLL,) if self.rng_mode else _NUMBERED_ROLLS
        sq = self.layout.square
        order = (RESPAWN_NEXT_DARK if o["die.respawn_conflict"] == "next_dark_square"
                 else RESPAWN_NEXT)
        self.respawn_order: dict[int, tuple[int, ...]] = {
            c: tuple(sq(s) for s in order[c]) for c in (WHITE, BLACK)}
        self.far_rank: dict[int, frozenset[int]] = self.rules.promotion
        # Leaper targets do not depend on the enemy die: shared tables of the rule set.
        self.leaps: dict[int, list[tuple[int, ...]]] = {KNIGHT: self.rules.knight,
                                                        KING: self.rules.king}

    # ------------------------------------------------------------------ rules

    def initial_state(self, seed: int = 0) -> DieState:
        st = DieState(self.layout.size, WHITE, seed_state(seed))
        st.pos = [-1, self.respawn_order[WHITE][0], self.respawn_order[BLACK][0]]
        st.count = [0, 0, 0]
        st.rolls, st.moved, st.took, st.fresh = 0, False, False, False
        st.place(st.pos[WHITE], code(PAWN, WHITE))
        st.place(st.pos[BLACK], code(PAWN, BLACK))
        return st

    def generate(self, state: DieState) -> list[Action]:
        us = state.turn
        sq = state.pos[us]
        if sq < 0:
            return []
        face = state.board[sq] & 15
        out: list[Action] = []
        if not state.moved:
            if self._may_promote_in_place(state, sq, face):
                out.extend(Action(A.MOVE, sq, sq, CHESS_LETTERS[k]) for k in self.promo_kinds)
                if not self.promo_optional:
                    return out  # the die must be turned before anything else (§3.8 #10)
            if state.count[us] < LIMIT[face]:
                self._moves(state, us, sq, face, out)
        if state.rolls < self.max_rolls and (not state.moved or self.move_then_roll):
            out.extend(self.roll_actions)
        out.append(_PASS)
        return out

    def _may_promote_in_place(self, state: DieState, sq: int, face: int) -> bool:
        """A pawn-faced die already on its far rank (rolled there) may be turned in place."""
        return self.promo_in_place and face == PAWN and sq in self.far_rank[state.turn]

    def _moves(self, state: DieState, us: int, sq: int, face: int, out: list[Action]) -> None:
        """The die's moves as ``face``; sliders are blocked only by the enemy die."""
        enemy = state.pos[3 - us]
        rules = self.rules
        if face == PAWN:
            targets: list[int] = []
            step = rules.push1[us][sq]
            if step >= 0 and step != enemy:
                targets.append(step)
            if enemy in rules.caps[us][sq]:
                targets.append(enemy)
            far = self.far_rank[us]
            for t in targets:
                if t in far:
                    if self.promo_optional:
                        out.append(Action(A.MOVE, sq, t))
                    out.extend(Action(A.MOVE, sq, t, CHESS_LETTERS[k]) for k in self.promo_kinds)
                else:
                    out.append(Action(A.MOVE, sq, t))
            return
        leaps = self.leaps.get(face)
        if leaps is not None:
            out.extend(Action(A.MOVE, sq, t) for t in leaps[sq])
            return
        rays = rules.rays
        for d in _SLIDES[face]:
            for t in rays[d][sq]:
                out.append(Action(A.MOVE, sq, t))
                if t == enemy:
                    break

    def is_legal(self, state: DieState, action: Action) -> bool:
        """Also accepts the roll the legal set does not list.

        In physical mode the bare ``roll`` (the referee rolls) is legal whenever ``roll=1`` is;
        in rng mode ``roll=N`` is legal whenever ``roll`` is, and is carried out as ``roll``:
        the generator decides the face, never the number written. That lets a record (which
        stores faces) replay, while a player can neither choose a face nor probe the
        generator by asking whether ``roll=6`` would be accepted.
        """
        if action.kind == ROLL.name:
            if self.rng_mode:
                action = _BARE_ROLL
            elif not action.value:
                action = _NUMBERED_ROLLS[0]
        return super().is_legal(state, action)

    def why_illegal(self, state: DieState, action: Action) -> str:
        """A reason in Die Chess terms: the roll, move and move-allowance rules (§3.4)."""
        if self.outcome(state).result != "*" or action.kind not in (ROLL.name, A.MOVE):
            return super().why_illegal(state, action)
        if action.kind == ROLL.name:
            if state.rolls >= self.max_rolls:
                return f"only {self.max_rolls} roll(s) per turn"
            return "no roll after the move (die.allow_move_then_roll=false)"
        sq = state.pos[state.turn]
        if action.frm != sq:
            return f"the {COLOUR_NAMES[state.turn]} die is on {self.layout.name(sq)}"
        if state.moved:
            return "one move per turn"
        face = state.board[sq] & 15
        if state.count[state.turn] >= LIMIT[face]:
            return (f"a {FACE_NAMES[face]} moves {LIMIT[face]} time(s) between rolls: "
                    "roll first")
        return f"a {FACE_NAMES[face]} cannot move there"

    def normalize(self, state: DieState, action: Action) -> Action:
        """A roll written with a face letter (``roll=Q``) becomes its pips via ``die.face_map``.

        Raises:
            NotationError: the roll names neither 1-6 nor a face letter.
        """
        if action.kind != ROLL.name or not action.value or action.value in _PIPS:
            return action
        pips = self.pips_of_letter.get(action.value)
        if pips is None:
            raise NotationError(f"roll={action.value}: a roll is 1-6 or one of P N B R Q K")
        return A.simple(ROLL.name, pips)

    def apply(self, state: DieState, action: Action,
              events: list[GameEvent] | None = None) -> DieState:
        new = state.copy()
        kind = action.kind
        if kind == ROLL.name:
            self._roll(new, action, events)
            if new.moved and new.rolls >= self.max_rolls:
                self._end_turn(new)
        elif kind == A.MOVE:
            self._move(new, action, events)
            if not self.move_then_roll or new.rolls >= self.max_rolls:
                self._end_turn(new)
        else:  # pass
            if events is not None:
                events.append(Announcement(f"{COLOUR_NAMES[new.turn].capitalize()} passes"))
            self._end_turn(new)
        return new

    def _roll(self, new: DieState, action: Action, events: list[GameEvent] | None) -> None:
        """Turn the die to the rolled face and reset its counter.

        Every roll draws from the generator, even when the face was read from a physical die,
        so that a record (which stores every roll as ``roll=N``) replays to the same state,
        generator included.
        """
        new.rng, drawn = randbelow(new.rng, 6)
        pips = int(action.value) if action.value and not self.rng_mode else drawn + 1
        us = new.turn
        face = self.face_of_pips[pips]
        new.board[new.pos[us]] = code(face, us)
        new.count[us] = 0
        new.rolls += 1
        new.action = _NUMBERED_ROLLS[pips - 1]
        if events is not None:
            who = "The referee rolls" if not action.value or self.rng_mode else "Rolled"
            events.append(Announcement(
                f"{who} for {COLOUR_NAMES[us]}: {FACE_NAMES[face]} ({pips})"))

    def _move(self, new: DieState, action: Action, events: list[GameEvent] | None) -> None:
        us, them = new.turn, 3 - new.turn
        frm, to = action.frm, action.to
        piece = new.board[frm]
        victim, victim_id = new.clear(to) if to != frm else (0, 0)
        if to != frm:
            new.shift(frm, to)
            new.count[us] += 1  # an in-place promotion is not a step: it keeps c (§3.4)
        new.pos[us] = to
        if action.promo:
            new.board[to] = code(CHESS_KIND_BY_LETTER[action.promo], us)
        new.moved = True
        if events is not None:
            name = self.layout.name
            letter = self.piece_letter(piece)
            if to != frm:
                events.append(Moved(f"{letter} {name(frm)}-{name(to)}", piece=letter,
                                    frm=name(frm), to=name(to)))
            if action.promo:
                events.append(Announcement(
                    f"Promotion: the {COLOUR_NAMES[us]} die is turned to "
                    f"{FACE_NAMES[CHESS_KIND_BY_LETTER[action.promo]]}"))
        if victim:
            self._capture(new, them, victim, victim_id, to, events)

    def _capture(self, new: DieState, them: int, victim: int, victim_id: int, on: int,
                 events: list[GameEvent] | None) -> None:
        """The enemy die on ``on`` was taken: the game ends (king face) or it restarts."""
        new.took = new.fresh = True
        new.halfmove = 0
        name = self.layout.name
        if events is not None:
            letter = self.piece_letter(victim)
            events.append(Captured(f"{letter} captured on {name(on)}", piece=letter,
                                   square=name(on)))
        new.count[them] = 0
        if victim & 15 == KING:
            new.pos[them] = -1
            new.removed = new.removed + (victim,)
            return
        home = next(s for s in self.respawn_order[them] if not new.board[s])
        new.place(home, code(PAWN, them), victim_id)
        new.pos[them] = home
        if events is not None:
            letter = self.piece_letter(code(PAWN, them))
            events.append(Placed(f"The {COLOUR_NAMES[them]} die restarts pawn-up on {name(home)}",
                                 piece=letter, square=name(home), reason="respawn"))

    def _end_turn(self, st: DieState) -> None:
        """Hand the turn over; the no-capture counter counts turns, reset by a capture."""
        if not st.took:
            st.halfmove += 1
        st.rolls, st.moved, st.took = 0, False, False
        self.end_turn(st)

    def kind_help(self, kind: A.ActionKind) -> str:
        if kind is ROLL and self.rng_mode:  # nobody reads a die: the face is not the player's
            return "roll: the referee rolls and you turn your die to the face it announces"
        return kind.help

    def in_check(self, state: DieState) -> bool:
        return False  # no check in Die Chess (RULINGS §3.8 #13)

    def castling_action(self, state: DieState, long: bool) -> Action:
        raise NotationError("Die Chess has no castling")

    def rule_outcome(self, state: DieState, legal: list[Action]) -> Outcome:
        for colour in (WHITE, BLACK):
            if state.pos[colour] < 0:
                return win_for(3 - colour, f"the {COLOUR_NAMES[colour]} king die was captured")
        if self.no_capture_limit is not None and state.halfmove >= self.no_capture_limit:
            return draw(f"{self.no_capture_limit} turns without a capture")
        if self.repetition and state.halfmove >= 2:
            if self._repetitions(state) >= 3:
                return draw("threefold repetition")
        return ONGOING

    def _repetitions(self, state: DieState) -> int:
        """Occurrences of this position since the last capture (a capture is the barrier:
        the no-capture counter, and with it the history we compare, restarts there)."""
        return self._seen(state)[self._cached_key(state)]

    def _seen(self, state: DieState) -> dict[Hashable, int]:
        """How often each position occurred from the last capture up to ``state``.

        Memoised per state and built from the parent's table (one small dict copy per
        action instead of a walk back through the game for every position).
        """
        chain: list[DieState] = []
        node: DieState | None = state
        while node is not None and "seen" not in node.cache:
            chain.append(node)
            if node.fresh:
                break
            node = node.parent
        if not chain:  # memoised already (a past state asked again after a take-back)
            known: dict[Hashable, int] = state.cache["seen"]
            return known
        seen: dict[Hashable, int] = {} if node is None or node is chain[-1] else \
            node.cache["seen"]
        for st in reversed(chain):
            seen = {} if st.fresh else dict(seen)
            key = self._cached_key(st)
            seen[key] = seen.get(key, 0) + 1
            st.cache["seen"] = seen
        found: dict[Hashable, int] = state.cache["seen"]
        return found

    def position_key(self, state: DieState) -> tuple[Any, ...]:
        """Squares, faces, counters, side to move and the turn's progress (rolls made, whether
        it moved): everything that decides what may follow. The generator's state is left
        out: players cannot see it, and a repeated position is the same whatever dice come."""
        w, b = state.pos[WHITE], state.pos[BLACK]
        return (w, b, state.board[w] if w >= 0 else 0, state.board[b] if b >= 0 else 0,
                state.count[WHITE], state.count[BLACK], state.turn, state.rolls, state.moved)

