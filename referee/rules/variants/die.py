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
from referee.rules.errors import NotationError, RecordError
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
from referee.rules.state import State
from referee.rules.variant import BOOL, ONGOING, OptionSpec, Outcome, draw, int_option, win_for
from referee.rules.variants.chesslike import ChessLike

#: Moves a die may make between rolls, per face kind (RULINGS §3.4).
LIMIT: Final = (0, 2, 2, 2, 1, 1, 1)
FACE_NAMES: Final = ("", "pawn", "knight", "bishop", "rook", "queen", "king")
DEFAULT_FACE_MAP: Final = "PNBRQK"  # d6 pips 1..6 -> face letters (RULINGS §3.8 #15)
#: Start squares and the order of respawn squares along each back rank (RULINGS §3.5).
RESPAWN_NEXT_DARK: Final = {WHITE: ("a1", "c1", "e1", "g1"), BLACK: ("h8", "f8", "d8", "b8")}
RESPAWN_NEXT: Final = {WHITE: tuple(f"{f}1" for f in "abcdefgh"),
                       BLACK: tuple(f"{f}8" for f in "hgfedcba")}
_SLIDES: Final = {BISHOP: DIAGONAL, ROOK: ORTHOGONAL, QUEEN: ORTHOGONAL + DIAGONAL}
_PIPS: Final = frozenset("123456")
_PASS: Final = A.simple(A.PASS)
_BARE_ROLL: Final = A.simple(A.ROLL)
_NUMBERED_ROLLS: Final = tuple(A.simple(A.ROLL, str(n)) for n in range(1, 7))


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


class DieState(State):
    """A Die Chess state: the board holds the two dice; this adds what the board does not show.

    Attributes:
        pos: square of each die, indexed by colour (index 0 unused); -1 once captured as king.
        count: the move counter ``c`` of each die, indexed by colour.
        rolls: rolls made in the current turn.
        moved: whether the current turn's move has been made.
        took: whether the current turn captured (the no-capture counter then restarts).
        fresh: whether the action that led to this state captured (repetitions are counted
            from there on); not copied.
    """

    __slots__ = ("pos", "count", "rolls", "moved", "took", "fresh")

    pos: list[int]
    count: list[int]
    rolls: int
    moved: bool
    took: bool
    fresh: bool

    def copy_extra(self, new: State) -> None:
        assert isinstance(new, DieState)
        new.pos = self.pos[:]
        new.count = self.count[:]
        new.rolls = self.rolls
        new.moved = self.moved
        new.took = self.took
        new.fresh = False


class Die(ChessLike):
    """Die Chess. The no-capture counter (``state.halfmove``) counts whole turns ("plies")."""

    name = "die"
    title = "Die Chess"
    help_text = """
    Roll, move, both or pass. roll=N when your die shows N (1-6 or P N B R Q K),
    or roll to let the referee roll; then move (a1b3, or SAN: Nb3) or pass."""
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

    def generate(self, state: State) -> list[Action]:
        assert isinstance(state, DieState)
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

    def is_legal(self, state: State, action: Action) -> bool:
        """Also accepts the roll the legal set does not list.

        In physical mode the bare ``roll`` (the referee rolls) is legal whenever ``roll=1`` is;
        in rng mode ``roll=N`` is legal whenever ``roll`` is, and is carried out as ``roll``:
        the generator decides the face, never the number written. That lets a record (which
        stores faces) replay, while a player can neither choose a face nor probe the
        generator by asking whether ``roll=6`` would be accepted.
        """
        if action.kind == A.ROLL:
            if self.rng_mode:
                action = _BARE_ROLL
            elif not action.value:
                action = _NUMBERED_ROLLS[0]
        return super().is_legal(state, action)

    def why_illegal(self, state: State, action: Action) -> str:
        """A reason in Die Chess terms: the roll, move and move-allowance rules (§3.4)."""
        assert isinstance(state, DieState)
        if self.outcome(state).result != "*" or action.kind not in (A.ROLL, A.MOVE):
            return super().why_illegal(state, action)
        if action.kind == A.ROLL:
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

    def normalize(self, state: State, action: Action) -> Action:
        """A roll written with a face letter (``roll=Q``) becomes its pips via ``die.face_map``.

        Raises:
            NotationError: the roll names neither 1-6 nor a face letter.
        """
        if action.kind != A.ROLL or not action.value or action.value in _PIPS:
            return action
        pips = self.pips_of_letter.get(action.value)
        if pips is None:
            raise NotationError(f"roll={action.value}: a roll is 1-6 or one of P N B R Q K")
        return A.simple(A.ROLL, pips)

    def apply(self, state: State, action: Action, events: list[GameEvent] | None = None) -> State:
        assert isinstance(state, DieState)
        new = state.copy()
        assert isinstance(new, DieState)
        kind = action.kind
        if kind == A.ROLL:
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

    def help(self) -> str:
        if self.rng_mode:  # nobody reads a die: the face is never the player's to choose
            return ("Roll, move, both or pass. roll: the referee rolls and you turn your die to\n"
                    "the face it announces; then move (a1b3, or SAN: Nb3) or pass.")
        return super().help()

    def in_check(self, state: State) -> bool:
        return False  # no check in Die Chess (RULINGS §3.8 #13)

    def castling_action(self, state: State, long: bool) -> Action:
        raise NotationError("Die Chess has no castling")

    def rule_outcome(self, state: State, legal: list[Action]) -> Outcome:
        assert isinstance(state, DieState)
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
        node: State | None = state
        while node is not None and "seen" not in node.cache:
            assert isinstance(node, DieState)
            chain.append(node)
            if node.fresh:
                break
            node = node.parent
        seen: dict[Hashable, int] = {} if node is None or node is chain[-1] else \
            node.cache["seen"]
        for st in reversed(chain):
            seen = {} if st.fresh else dict(seen)
            key = self._cached_key(st)
            seen[key] = seen.get(key, 0) + 1
            st.cache["seen"] = seen
        found: dict[Hashable, int] = state.cache["seen"]
        return found

    def position_key(self, state: State) -> tuple[Any, ...]:
        """Squares, faces, counters, side to move and the turn's progress (rolls made, whether
        it moved): everything that decides what may follow. The generator's state is left
        out: players cannot see it, and a repeated position is the same whatever dice come."""
        assert isinstance(state, DieState)
        w, b = state.pos[WHITE], state.pos[BLACK]
        return (w, b, state.board[w] if w >= 0 else 0, state.board[b] if b >= 0 else 0,
                state.count[WHITE], state.count[BLACK], state.turn, state.rolls, state.moved)

    # ------------------------------------------------------------------ scenario keys, views

    def faces(self, state: DieState) -> dict[str, str]:
        """Upper-case face letter of each die (the captured king die still shows K)."""
        return {COLOUR_NAMES[c]: CHESS_LETTERS[self.face_kind(state, c)] for c in (WHITE, BLACK)}

    def face_kind(self, state: DieState, colour: int) -> int:
        """The face kind (PAWN..KING) of ``colour``'s die, captured or not."""
        sq = state.pos[colour]
        if sq >= 0:
            return state.board[sq] & 15
        return next(p & 15 for p in state.removed if p >> 4 == colour)

    def moves_left(self, state: DieState) -> dict[str, int]:
        """Moves each die may still make before it must roll (``limit(face) - c``)."""
        faces = self.faces(state)
        return {COLOUR_NAMES[c]: max(0, LIMIT[CHESS_KIND_BY_LETTER[faces[COLOUR_NAMES[c]]]]
                                     - state.count[c]) for c in (WHITE, BLACK)}

    def expectation(self, state: State, key: str) -> Any:
        assert isinstance(state, DieState)
        if key == "faces":
            return self.faces(state)
        if key == "moves_left":
            return self.moves_left(state)
        raise KeyError(key)

    def view(self, state: State, viewer: int | None) -> dict[str, Any]:
        """Everything is public in Die Chess except the referee's generator, left out here."""
        assert isinstance(state, DieState)
        outcome = self.outcome(state)
        name = self.layout.name
        out: dict[str, Any] = {
            "variant": self.name,
            "squares": {name(sq): self.piece_letter(state.board[sq])
                        for sq in state.pos[1:] if sq >= 0},
            "turn": COLOUR_NAMES[state.turn], "to_act": COLOUR_NAMES[state.to_act],
            "result": outcome.result, "reason": outcome.reason,
            "removed": sorted(self.piece_letter(p) for p in state.removed), "ply": state.ply,
        }
        faces, left = self.faces(state), self.moves_left(state)
        out["dice"] = {
            COLOUR_NAMES[c]: {
                "square": self.layout.name(state.pos[c]) if state.pos[c] >= 0 else None,
                "face": faces[COLOUR_NAMES[c]], "counter": state.count[c],
                "moves_left": left[COLOUR_NAMES[c]],
            } for c in (WHITE, BLACK)
        }
        out["turn_progress"] = {"rolls": state.rolls, "moved": state.moved}
        out["no_capture_turns"] = state.halfmove
        return out

    def render(self, state: State, viewer: int | None = None) -> str:
        assert isinstance(state, DieState)
        lines = self.draw_grid(state, "board", 8, 8)
        left = self.moves_left(state)
        for c in (WHITE, BLACK):
            sq = state.pos[c]
            where = f"on {self.layout.name(sq)}" if sq >= 0 else "captured"
            lines.append(f"{COLOUR_NAMES[c].capitalize()} die: "
                         f"{FACE_NAMES[self.face_kind(state, c)]} {where}, "
                         f"{left[COLOUR_NAMES[c]]} move(s) before a roll")
        done = [f"{state.rolls} roll(s)"] + (["moved"] if state.moved else [])
        lines.append(f"This turn: {', '.join(done)}; turns without capture: {state.halfmove}")
        lines.append(self.status_line(state))
        return "\n".join(lines)

    # ------------------------------------------------------------------ positions

    def position(self, state: State, private: bool = True) -> str:
        """``<white die> <black die> <side> <turn> <no-capture turns> <move number>[ rng:HEX]``.

        A die is ``<face><square>:<c>`` (``Qh8:1``, ``pf8:0``), or ``<face>x`` once captured
        as king. ``<turn>`` is ``-`` at the start of a turn, else ``r<rolls>`` (rolls made),
        ``m`` (moved) and ``x`` (captured) run together. The private form adds the referee's
        generator state; the public form never shows it.
        """
        assert isinstance(state, DieState)
        text: str | None = state.cache.get("position")
        if text is None:  # memoised: written several times per state (records, views, tests)
            text = self._position_text(state)
            state.cache["position"] = text
        return f"{text} rng:{state.rng:016x}" if private else text

    def _position_text(self, state: DieState) -> str:
        """The public position text (without the generator)."""
        dice = []
        for c in (WHITE, BLACK):
            sq = state.pos[c]
            letter = CHESS_LETTERS[self.face_kind(state, c)]
            letter = letter if c == WHITE else letter.lower()
            dice.append(f"{letter}{self.layout.name(sq)}:{state.count[c]}" if sq >= 0
                        else f"{letter}x")
        turn = (f"r{state.rolls}" if state.rolls else "") + ("m" if state.moved else "") + (
            "x" if state.took else "")
        side = "w" if state.turn == WHITE else "b"
        return f"{dice[0]} {dice[1]} {side} {turn or '-'} {state.halfmove} {state.fullmove}"

    def from_position(self, text: str, seed: int = 0) -> DieState:
        """A state from :meth:`position` text (without ``rng:`` the generator is seeded).

        Raises:
            RecordError: naming the field that is wrong.
        """
        fields = text.split()
        rng = seed_state(seed)
        if fields and fields[-1].startswith("rng:"):
            try:
                rng = int(fields.pop()[4:], 16)
            except ValueError:
                raise RecordError(f"bad generator field in {text!r}") from None
        if len(fields) != 6:
            raise RecordError(f"a Die Chess position has 6 fields (+ rng:), not {len(fields)}")
        st = DieState(self.layout.size, WHITE, rng)
        st.pos, st.count, st.fresh = [-1, -1, -1], [0, 0, 0], False
        for colour, field in zip((WHITE, BLACK), fields[:2], strict=True):
            self._read_die(st, colour, field)
        if fields[2] not in ("w", "b"):
            raise RecordError(f"side to move must be w or b, not {fields[2]!r}")
        st.turn = st.to_act = WHITE if fields[2] == "w" else BLACK
        turn = fields[3]
        st.moved, st.took, st.rolls = "m" in turn, "x" in turn, 0
        rest = turn.replace("m", "").replace("x", "")
        try:
            if rest.startswith("r"):
                st.rolls = int(rest[1:])
            elif rest not in ("", "-"):
                raise ValueError(turn)
            st.halfmove, st.fullmove = int(fields[4]), int(fields[5])
        except ValueError:
            raise RecordError(f"bad turn or counter field in {text!r}") from None
        if st.pos[WHITE] < 0 and st.pos[BLACK] < 0:
            raise RecordError(f"both dice cannot be captured: {text!r}")
        return st

    def _read_die(self, st: DieState, colour: int, field: str) -> None:
        letter = field[:1]
        kind = CHESS_KIND_BY_LETTER.get(letter.upper())
        if kind is None or (letter.isupper() != (colour == WHITE)):
            raise RecordError(f"bad die {field!r} for {COLOUR_NAMES[colour]}")
        if field[1:] == "x":
            st.removed = st.removed + (code(kind, colour),)
            return
        where, _, count = field[1:].partition(":")
        try:
            sq = self.layout.square(where)
            st.count[colour] = int(count)
        except (NotationError, ValueError):
            raise RecordError(f"bad die {field!r}: square and counter expected") from None
        if st.board[sq]:
            raise RecordError(f"both dice on {where}")
        st.place(sq, code(kind, colour))
        st.pos[colour] = sq
