"""Move inference: from what the sensors saw to the referee's actions.

The board reports lifts and places in any order, with bounce, brushed squares and hesitations.
:class:`MoveInference` turns that into actions of the variant being played, or says clearly
that the board shows no legal outcome and what must be put right. It never changes the game on
a board it does not understand.

How it works:

* **Settling.** Sensor events update the observed occupancy at once, but the board is judged
  only after it has been still for ``settle_ms`` (event time, so a replayed file behaves as it
  did live). DGT-style reordering and switch bounce inside that window do not matter.
* **Prediction.** For the current state every legal action is applied with the engine, followed
  by the *physical* choices that come with it (a Hell home, a ghost cell, a Twelve-Hours cell:
  the square where the piece is put down is the choice). Each such sequence is a
  :class:`Candidate`: the occupancy it leads to, the squares the player must have handled, and
  the *consequence* squares the referee changes on its own (a zombie rising, a castling rook, an
  en passant victim, a single Hell home): those do not hold up recognition; the referee asks for
  them afterwards (guided correction).
* **Matching.** A candidate matches when the settled occupancy equals its prediction outside the
  consequence squares, every square whose piece changed without a change of occupancy (the
  victim of a capture) was lifted during the turn, and piece letters agree where the sensor
  reports them, and so do piece colours (a camera's ``occupied e4=w``). One match is
  accepted; candidates that differ only by promotion piece are resolved by the sensor's
  letter, by buttons, or default to the first choice (a queen).
* **Provisional moves.** A match that is the first half of a larger candidate (a rook move that
  starts a rook-first castling) is held until the player goes on, the opponent starts, or
  ``provisional_ms`` of stillness pass.
* **Colours.** A sensor that tells piece colours (``occupied`` snapshots with ``e4=w``) gives
  evidence, never a requirement: a square whose colour changes while it stays occupied was
  emptied and filled again (a capture seen without the victim being lifted), and a candidate
  whose player squares would hold the other colour is ruled out; a square without a colour
  counts as today. Colours are checked only on the squares the player's own hand fills, never
  on consequence squares (a zombie rising, a ghost cell the referee asks for), so a colour can
  neither reveal nor require a secret: a Masquerade capture attempt puts the attacker's colour
  on the square whether or not it succeeds, and gray pieces (Afterlife's mercenaries) are
  never checked.
* **Errors.** A settled board with a piece where none may be is reported once: an illegal move
  with the engine's reason, or the squares to empty and fill to get back to the last good state.

The class holds no game: the owner passes the current state in and applies what comes out.
Squares are the variant layout's global indices; letters are NOTATION.md piece letters.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from referee.rules import actions as A
from referee.rules.actions import Action
from referee.rules.pieces import BLACK, KING, WHITE
from referee.rules.state import State
from referee.rules.variant import Variant

_NONE: Mapping[int, int] = MappingProxyType({})


def promotion_order(variant: Variant[Any]) -> list[str]:
    """Promotion pieces in the order they are offered: no promotion first (where promotion is
    optional, as in Die Chess), then the variant's letters; the first offered is the default."""
    return ["", *variant.promo_letters]


@dataclass(frozen=True)
class Candidate:
    """One legal way the turn can end on the board.

    Attributes:
        actions: the actions, in order (a move, then any physical choices).
        after: the state they lead to.
        expect: occupied sensed squares afterwards.
        fixed: ``expect`` without the consequence squares (what the player must have done).
        free: consequence squares (the referee asks for them after recognising the move).
        touch: squares whose piece changes while staying occupied: must have been lifted.
        player: squares the player handles (origins, destinations, choice squares).
        letters: piece letters on the player's squares afterwards (for identity sensors).
        origins: for each occupied player square afterwards, the square its piece came from
            (-1 for a piece from off the board); used to break ties by the order of events.
        must_lift: squares the player must have lifted but whose final content is the
            referee's business: a capture the rules leave empty (a ghost that takes on the
            board vanishes) or an origin the rules fill again (a zombie rising where the mover
            stood). The player may or may not have done that part yet; the referee asks.
        colours: the piece colour (WHITE, BLACK) on the squares the player fills, for
            sensors that tell colours; consequence squares and gray pieces are left out.
    """

    actions: tuple[Action, ...]
    after: State
    expect: frozenset[int]
    fixed: frozenset[int]
    free: frozenset[int]
    touch: frozenset[int]
    player: frozenset[int]
    letters: tuple[tuple[int, str], ...]
    origins: tuple[tuple[int, int], ...] = ()
    must_lift: frozenset[int] = frozenset()
    colours: tuple[tuple[int, int], ...] = ()

    def matches(self, observed: frozenset[int], turn: _Turn, letters: Mapping[int, str],
                slack: frozenset[int] = frozenset(),
                colours: Mapping[int, int] = _NONE) -> bool:
        """Whether a settled board (``observed``, with ``turn``'s history) fits this candidate."""
        free = self.free | (slack - self.player)
        if observed - free != self.fixed - free:
            return False
        if self.touch and not turn.refilled_after(self.touch, self.actions[0].frm):
            return False
        if not all(turn.was_lifted(sq) for sq in self.must_lift):
            return False
        if not all(letters.get(sq, letter) == letter for sq, letter in self.letters):
            return False
        return all(colours.get(sq, colour) == colour for sq, colour in self.colours)


@dataclass(frozen=True)
class Recognised:
    """Actions the board shows were made; the owner applies them in order."""

    actions: tuple[Action, ...]


@dataclass(frozen=True)
class Problem:
    """The settled board shows no legal outcome.

    ``kind`` is ``illegal`` (a move the rules refuse; ``reason`` says why) or ``unknown``.
    ``to_empty`` / ``to_fill`` are the squares that would bring back the last good position;
    ``swap`` the squares where an identity sensor (DGT, camera) sees the wrong piece.
    """

    kind: str
    text: str
    to_empty: tuple[int, ...]
    to_fill: tuple[int, ...]
    reason: str = ""
    swap: tuple[int, ...] = ()


@dataclass(frozen=True)
class Correction:
    """After a recognised action, what the players still have to do on the board."""

    to_empty: tuple[int, ...]
    to_fill: tuple[int, ...]
    swap: tuple[int, ...] = ()


@dataclass(frozen=True)
class BoardGood:
    """The board matches the game again (after a problem or a correction)."""


@dataclass(frozen=True)
class PromotionPending:
    """A pawn promoted but the sensor cannot tell into what: ``options`` (first = default)."""

    square: int
    options: tuple[str, ...]


Decision = Recognised | Problem | Correction | BoardGood | PromotionPending


@dataclass
class _Turn:
    """What happened on the board since the last accepted action.

    ``first_lift`` / ``last_place`` give, per square, the sequence number of its first lift and
    its last place in this turn: a captured piece's square must be lifted and then filled again
    after the capturer left its own square (a bounce there earlier does not count).
    """

    first_lift: dict[int, int] = field(default_factory=dict)
    last_place: dict[int, int] = field(default_factory=dict)
    seq: int = 0
    reported: set[tuple[tuple[int, ...], tuple[int, ...]]] = field(default_factory=set)
    # Which square's piece is now on a square, as a person's hand moves them: a piece put
    # down is the one picked up last (-1: a piece from off the board).
    came_from: dict[int, int] = field(default_factory=dict)
    hand: list[int] = field(default_factory=list)
    log: list[tuple[bool, int]] = field(default_factory=list)  # (lifted?, square), in order
    # Squares lifted since the last accepted action, before the board last looked unchanged.
    earlier: frozenset[int] = frozenset()

    def was_lifted(self, sq: int) -> bool:
        """Whether ``sq`` was lifted since the last accepted action."""
        return sq in self.first_lift or sq in self.earlier

    def lifted(self, sq: int) -> None:
        self.seq += 1
        self.log.append((True, sq))
        self.first_lift.setdefault(sq, self.seq)
        self.hand.append(self.came_from.get(sq, sq))

    def placed(self, sq: int) -> None:
        self.seq += 1
        self.log.append((False, sq))
        self.last_place[sq] = self.seq
        self.came_from[sq] = self.hand.pop() if self.hand else -1

    def touched_since(self, mark: int) -> set[int]:
        """Squares that changed after the ``mark``-th change of this turn."""
        return {sq for _, sq in self.log[mark:]}

    def since(self, mark: int) -> _Turn:
        """A new turn holding only what happened after the ``mark``-th change (the start of
        the next player's move, when a held decision is settled by it)."""
        return _Turn.replay(self.log[mark:], frozenset())

    @staticmethod
    def replay(log: Iterable[tuple[bool, int]], earlier: frozenset[int]) -> _Turn:
        """A turn in which the changes of ``log`` happened."""
        turn = _Turn(earlier=earlier)
        for was_lift, sq in log:
            if was_lift:
                turn.lifted(sq)
            else:
                turn.placed(sq)
        return turn

    def agreement(self, origins: tuple[tuple[int, int], ...]) -> int:
        """How many of a candidate's piece journeys the hand movements confirm."""
        return sum(self.came_from.get(sq, sq) == origin for sq, origin in origins)

    def refilled_after(self, squares: frozenset[int], origin: int) -> bool:
        """Every square was lifted, then filled again after ``origin`` was first lifted."""
        start = self.first_lift.get(origin, 0)
        return all(sq in self.first_lift and self.last_place.get(sq, -1) > start
                   for sq in squares)


def _undo(board: frozenset[int], changes: Sequence[tuple[bool, int]]) -> frozenset[int]:
    """The occupancy before ``changes`` (lifts and places, in order) led to ``board``."""
    out = set(board)
    for was_lift, sq in reversed(changes):
        if was_lift:
            out.add(sq)
        else:
            out.discard(sq)
    return frozenset(out)


class MoveInference:
    """Recognises a variant's actions from sensor events.

    Args:
        variant: the rules.
        state: the game's current state (update with :meth:`set_state` after applying actions).
        sensed: squares the sensor covers (default: all squares of the layout).
        settle_ms: stillness before the board is judged, in milliseconds of event time.
        provisional_ms: how long a move that may be the first half of another is held.
        decision_ms: how long a capture that may still become a resurrection is held (the
            mover's clock press confirms it at once).
        hold_ms: how long a board that fits nothing is left unreported while a piece lifted
            in this turn is still in the hand (a move being made slowly).
        confirm_with_clock: recognise moves only when the mover presses its clock button.
        promotion_default: when the board changes again while a promotion piece is asked for,
            take the piece shown (the default; for boards where nobody can choose: no buttons,
            no phone). False keeps waiting for the choice: hand movements meanwhile belong to
            the next turn and are judged once the piece is chosen (``referee.app.runner``
            waits whenever the rig has buttons; ``serve`` always, the phones can choose).
    """

    def __init__(self, variant: Variant[Any], state: State, *, sensed: Iterable[int] | None = None,
                 settle_ms: int = 150, provisional_ms: int = 1500, decision_ms: int = 6000,
                 hold_ms: int = 1500, confirm_with_clock: bool = False,
                 promotion_default: bool = True) -> None:
        self.variant = variant
        self.state = state
        self.sensed = frozenset(range(variant.layout.size) if sensed is None else sensed)
        self.settle_ms = settle_ms
        self.provisional_ms = provisional_ms
        self.decision_ms = decision_ms
        self.hold_ms = hold_ms
        self.confirm_with_clock = confirm_with_clock
        self.promotion_default = promotion_default
        self.observed = self.expected_occupancy(state)
        self.letters: dict[int, str] = {}
        #: the piece colour (WHITE, BLACK) last seen on occupied squares, where the sensor
        #: tells colours
        self.colours: dict[int, int] = {}
        self._turn = _Turn()
        self._last_event_ms: int | None = None
        self._dirty = False
        # (held candidate, what it may still become, deadline in ms, turn log length then)
        self._provisional: tuple[Candidate, list[Candidate], int, int] | None = None
        self._outstanding: frozenset[int] = frozenset()
        # (candidates differing only by promotion piece, the one shown, which action promotes)
        self._promotion: tuple[list[Candidate], int, int] | None = None
        self._promotion_board: frozenset[int] = frozenset()
        self._promotion_mark = 0
        self._in_problem = False
        self._now_ms = 0
        self._recheck_at: int | None = None
        self._flushing = False

    # ------------------------------------------------------------------ state from the owner

    def expected_occupancy(self, state: State) -> frozenset[int]:
        """Sensed squares occupied in ``state``."""
        board = state.board
        return frozenset(sq for sq in self.sensed if board[sq])

    def set_state(self, state: State) -> None:
        """The owner applied actions (or took one back): judge the board against ``state``."""
        self.state = state

    def resync(self, state: State, fresh: bool = False) -> list[Decision]:
        """An action was made off the board (a burial, an assignment, an undo): what must the
        players now change on the board to match ``state``? ``fresh``: the arbiter says the
        board is set, so nothing the hands did before counts; every difference is asked for."""
        self.state = state
        self._promotion = None
        self._provisional = None
        if fresh:
            self._turn = _Turn()
            self._in_problem = False
            self._dirty = False
        # Hands may already be making the next move: keep what they did, and do not ask for
        # the squares they are handling.
        return self._correction_needed(move_under_way=not fresh)

    # ------------------------------------------------------------------ input

    def lift(self, t_ms: int, sq: int) -> list[Decision]:
        """A square became empty."""
        out = self._advance(t_ms, change=True)
        self.observed = self.observed - {sq}
        self.letters.pop(sq, None)
        self.colours.pop(sq, None)
        self._turn.lifted(sq)
        self._dirty = True
        return out

    def place(self, t_ms: int, sq: int, letter: str | None = None) -> list[Decision]:
        """A square became occupied (``letter`` when the sensor knows the piece)."""
        out = self._advance(t_ms, change=True)
        if sq in self.observed:
            # A square that changes piece without an empty reading (a DGT scan caught the
            # capture in one go): the piece that was there has been taken away.
            self._turn.lifted(sq)
        self.observed = self.observed | {sq}
        self._turn.placed(sq)
        self.colours.pop(sq, None)
        if letter:
            self.letters[sq] = letter
        self._dirty = True
        return out

    def snapshot(self, t_ms: int, squares: Iterable[int],
                 colours: Mapping[int, int] = _NONE) -> list[Decision]:
        """A full snapshot (after a reconnect, or a camera's picture): exactly ``squares``
        are occupied; ``colours`` gives the piece colour (WHITE, BLACK) on some of them.

        A square that stays occupied but shows another colour than before (the colour last
        seen there, else the game's piece) was emptied and filled again: a capture seen
        without the victim being lifted. Squares emptied count first, then those, then the
        squares filled, so the capturer has left its square before its victim's is refilled.
        """
        out = self._advance(t_ms, change=True)
        new = frozenset(squares) & self.sensed
        board = self.state.board
        swapped = []
        for sq in sorted(new & self.observed):
            seen = colours.get(sq)
            before = self.colours.get(sq, board[sq] >> 4)
            if seen in (WHITE, BLACK) and before in (WHITE, BLACK) and seen != before:
                swapped.append(sq)
        for sq in sorted(self.observed - new):
            self._turn.lifted(sq)
        for sq in swapped:
            self._turn.lifted(sq)
            self._turn.placed(sq)
        for sq in sorted(new - self.observed):
            self._turn.placed(sq)
        self.observed = new
        self.colours = {sq: c for sq, c in colours.items() if sq in new and c in (WHITE, BLACK)}
        # a piece a sensor named earlier is gone from an emptied square, and from one that now
        # shows the other colour (after a reconnect the board may have changed a lot)
        gone = set(swapped)
        self.letters = {sq: x for sq, x in self.letters.items() if sq in new and sq not in gone}
        self._dirty = True
        return out

    def tick(self, now_ms: int) -> list[Decision]:
        """Time passed without events (live sensors call this a few times a second)."""
        return self._advance(now_ms)

    def flush(self) -> list[Decision]:
        """The stream ended: judge what is on the board now, accept held moves."""
        self._flushing = True
        try:
            out = self._judge() if self._dirty or self._recheck_at is not None else []
        finally:
            self._flushing = False
        self._recheck_at = None
        return out + self._confirm_held()

    def clock_pressed(self, colour: int) -> list[Decision]:
        """A player pressed its clock: recognises its move (with clock-confirmed moves), confirms
        a held move, or ends a zombie horde / passes."""
        if self.confirm_with_clock and colour == self.state.to_act:
            self._dirty = False
            out = self._judge_fresh() + self._confirm_held()
        else:
            out = self.flush()
        # The press may come right after the last piece was put down (the board not settled
        # yet): the move it finishes is recognised first, then the press counts for whoever
        # is to act (a pass or the end of a horde when that is the presser).
        if colour != self.state.to_act or not all(isinstance(d, Recognised | Correction)
                                                  for d in out):
            return out
        legal = self.variant.legal_actions(self.state)
        for kind in sorted(self.variant.kinds_done_by(A.CLOCK)):
            if A.simple(kind) in legal:
                return out + [Recognised((A.simple(kind),))]
        return out

    def promotion_button(self, name: str) -> list[Decision]:
        """``back`` cycles the pending promotion piece, ``confirm`` takes it."""
        if self._promotion is None:
            return []
        options, current, index = self._promotion
        if name == "back":
            self._promotion = (options, (current + 1) % len(options), index)
            return [self._promotion_prompt()]
        if name == "confirm":
            return self._take_promotion(current)
        return []

    def promotion_choose(self, piece: str) -> list[Decision]:
        """Take the pending promotion's ``piece`` (a letter, either case; ``-`` or empty for
        no promotion where that is allowed): chosen on a phone. Empty when none is pending or
        ``piece`` is not offered."""
        if self._promotion is None:
            return []
        options, _, index = self._promotion
        wanted = "" if piece in ("", "-") else piece.lower()
        for i, cand in enumerate(options):
            if cand.actions[index].promo.lower() == wanted:
                return self._take_promotion(i)
        return []

    def _take_promotion(self, chosen: int) -> list[Decision]:
        """Accept the pending promotion's option ``chosen``; hand movements made while the
        referee waited are the next turn's, judged now."""
        assert self._promotion is not None
        mark = self._promotion_mark
        moved_on = len(self._turn.log) > mark
        out = self._accept(self._promotion[0][chosen], since=mark)
        return out + self._judge_again() if moved_on else out

    def die(self, face: str) -> list[Decision]:
        """A physical die was read: a roll, if rolling is legal now (after any held move)."""
        # The move before the roll is finished, even if the board has not been still for the
        # settle time yet: the owner applies it first.
        out = self.flush()
        for kind in self.variant.kinds_done_by(A.DIE):
            action = self.variant.normalize(self.state, A.simple(kind, face))
            if self.variant.is_legal(self.state, action):
                out.append(Recognised((action,)))
        return out

    # ------------------------------------------------------------------ judging

    def _advance(self, now_ms: int, change: bool = False) -> list[Decision]:
        """Time is ``now_ms``: judge the board if it has been still for the settle time, and
        accept a held move whose time is up. ``change``: a board event comes at ``now_ms``
        (only board changes restart the settle time; a tick never does)."""
        out: list[Decision] = []
        last = self._last_event_ms
        self._now_ms = max(self._now_ms, now_ms)
        if self._recheck_at is not None and now_ms >= self._recheck_at and not change:
            self._recheck_at = None
            self._dirty = True  # the hand has held a piece long enough: judge again
        if change:
            self._recheck_at = None
        if last is not None and now_ms - last >= self.settle_ms and self._dirty:
            out += self._judge()
        if self._provisional is not None and now_ms >= self._provisional[2] and not self._dirty:
            out += self._provisional_due(now_ms)
        if change:
            self._last_event_ms = now_ms if last is None else max(last, now_ms)
        return out

    def _judge(self) -> list[Decision]:
        """The board is settled: accept, hold, report or wait."""
        self._dirty = False
        if self._promotion is not None:
            options = self._promotion[0]
            mine = set().union(*(c.player | c.free for c in options))
            if (self.observed ^ self._promotion_board) <= mine:
                # a bounce, a brushed square, or the rest of the move (the victim put in
                # Hell): still waiting for the buttons
                return []
            if not self.promotion_default:
                return []  # wait for the choice; what the hands do now is the next turn
            # Nobody can choose here and the game goes on: take the piece shown (the default).
            out = self._accept(self._promotion[0][self._promotion[1]], since=self._promotion_mark)
            return out + self._judge_again()
        if self._provisional is not None:
            return self._judge_provisional()
        if self.confirm_with_clock:
            if self._matches(self.state):
                return []  # a legal move on the board: it counts when its player presses
            return self._colour_problem() or self._check_problem()
        return self._judge_fresh()

    def _judge_again(self) -> list[Decision]:
        self._dirty = True
        legal = self.variant.legal_actions(self.state)
        if legal and not any(a.kind in self.variant.board_kinds for a in legal):
            return []  # an off-board choice comes first; the board is judged once it is made
        return self._judge()

    def _judge_fresh(self) -> list[Decision]:
        matches = self._matches(self.state)
        if not matches:
            split = None if self.confirm_with_clock else self._split()
            if split is not None:
                return split
            return self._colour_problem() or self._check_problem()
        if len(matches) > 1:
            return self._ambiguous(matches)
        cand = matches[0]
        known = sum(origin >= 0 for _, origin in cand.origins)
        if self._turn.agreement(cand.origins) < known and not self.confirm_with_clock:
            # The hands carried pieces elsewhere than this outcome says (a ghost that took
            # and left a ghost, or the ghost's plain move with the next player's piece in the
            # hand): a split into this move and the next one's start is the better reading.
            split = self._split()
            if split is not None:
                return split
        alternatives = self._extensions(cand)
        if alternatives:
            wait = self.provisional_ms
            if any(c.actions[0].rise >= 0 for c in alternatives):
                wait = self.decision_ms  # the player is deciding whether to resurrect
            self._provisional = (cand, alternatives, (self._last_event_ms or 0) + wait,
                                 len(self._turn.log))
            return []
        mark = self._next_turn_started(cand)
        if mark is not None:
            return self._accept(cand, since=mark) + self._judge_again()
        return self._accept(cand)

    def _next_turn_started(self, cand: Candidate) -> int | None:
        """Where the next turn began, if hands went on after ``cand`` was complete: the board
        may look as ``cand`` says while the next move is under way (a zombie put where its
        mover stood), or the next player may already have lifted a piece the move put down
        (a Hell home). The earliest point where the board fitted ``cand``, when squares
        ``cand`` does not handle were touched after it or the board then showed all of
        ``cand`` and no longer does; else None."""
        log = self._turn.log
        mine = cand.player | cand.free
        away = bool(cand.expect - self.observed)  # a piece of cand's full outcome is gone
        if all(sq in mine for _, sq in log) and not away:
            return None
        board = set(self._board_at(0))
        head = _Turn(earlier=self._turn.earlier)
        for mark, (was_lift, sq) in enumerate(log, start=1):
            if was_lift:
                head.lifted(sq)
                board.discard(sq)
            else:
                head.placed(sq)
                board.add(sq)
            rest = {s for _, s in log[mark:]}
            if not rest:
                break
            # the next turn began: hands touched other squares, or took away what the move
            # had completed (the opponent lifting a piece the referee's consequence put down)
            complete = away and board == cand.expect
            if (rest - mine or complete) and \
                    cand.matches(frozenset(board), head, {}, self._outstanding):
                return mark
        return None

    def _board_at(self, mark: int) -> frozenset[int]:
        """The occupancy after the first ``mark`` changes of this turn."""
        return _undo(self.observed, self._turn.log[mark:])

    def _judge_provisional(self) -> list[Decision]:
        assert self._provisional is not None
        held, alternatives, _, mark = self._provisional
        fitting = [c for c in alternatives
                   if c.matches(self.observed, self._turn, self.letters, self._outstanding,
                                self.colours)]
        if fitting:
            self._provisional = None
            return self._accept(fitting[0]) if len(fitting) == 1 else self._ambiguous(fitting)
        if self._on_the_way():
            return []  # the held move, or hands on the way to a larger one: keep waiting
        out = self._confirm_held()
        return out + self._judge_again()

    def _on_the_way(self) -> bool:
        """Whether the board differs from the held move only on squares of what it may still
        become (a king lifted to finish a rook-first castling). A brushed square leaves no
        difference; the opponent starting a move does."""
        assert self._provisional is not None
        held, alternatives, _, _ = self._provisional
        squares = set(held.player | held.free)
        for alt in alternatives:
            squares |= alt.player | alt.free
        return (self.observed ^ held.expect) <= squares

    def _provisional_due(self, now_ms: int) -> list[Decision]:
        """The held move's time is up. It counts if the board still shows it; a piece of the
        larger move still in the hand (the board shows neither) holds it longer."""
        assert self._provisional is not None
        held, alternatives, _, mark = self._provisional
        if not held.matches(self.observed, self._turn, self.letters, self._outstanding) \
                and self._on_the_way():
            self._provisional = (held, alternatives, now_ms + self.provisional_ms, mark)
            return []
        return self._confirm_held() + self._judge_again()

    def _confirm_held(self) -> list[Decision]:
        if self._provisional is None:
            return []
        held, mark = self._provisional[0], self._provisional[3]
        self._provisional = None
        return self._accept(held, since=mark)

    def _ambiguous(self, matches: list[Candidate]) -> list[Decision]:
        """Several candidates fit the occupancy: the order of lifts and places decides which
        piece went where; then only a promotion piece can be left open (asked for)."""
        best = max(self._turn.agreement(c.origins) for c in matches)
        matches = [c for c in matches if self._turn.agreement(c.origins) == best]
        if len(matches) == 1:
            return self._accept(matches[0])
        stripped = {tuple(a._replace(promo="") for a in c.actions) for c in matches}
        if len(stripped) != 1:
            return []
        index = next(i for i in range(len(matches[0].actions))
                     if len({c.actions[i].promo for c in matches}) > 1)
        order = promotion_order(self.variant)
        matches.sort(key=lambda c: order.index(c.actions[index].promo))
        self._promotion = (matches, 0, index)
        self._promotion_board = self.observed
        self._promotion_mark = len(self._turn.log)
        return [self._promotion_prompt()]

    def _promotion_prompt(self) -> PromotionPending:
        assert self._promotion is not None
        options, current, index = self._promotion
        letters = tuple(c.actions[index].promo for c in options)
        rotated = letters[current:] + letters[:current]
        return PromotionPending(options[0].actions[index].to, rotated)

    def _accept(self, cand: Candidate, since: int | None = None) -> list[Decision]:
        """Take ``cand``; hand movements after the ``since``-th change belong to the next turn."""
        self._promotion = None
        self.state = cand.after
        self._turn = self._turn.since(since) if since is not None else _Turn()
        out: list[Decision] = [Recognised(cand.actions)]
        out += self._correction_needed(move_under_way=since is not None)
        self._in_problem = False
        return out

    def _failed_attempt(self, action: Action, after: State, before: frozenset[int]) -> Candidate:
        """A capture attempt that the rules turn down (Masquerade): the player still makes the
        capture on the board; once it is recognised the referee says to put both pieces back."""
        frm, to = action.frm, action.to
        expect = (before - {frm}) | {to}
        letter = self.variant.piece_letter(after.board[frm])
        # the attacker stands on the square, as it would after a capture that succeeds: the
        # colours cannot tell a failed attempt (a secret permutation) from a capture
        colours = _colours_of(after.board, [to], after.board[frm])
        return Candidate((action,), after, expect, expect, frozenset(), frozenset({to}),
                         frozenset({frm, to}), ((to, letter),), ((to, frm),), colours=colours)

    def _correction_needed(self, move_under_way: bool = False) -> list[Decision]:
        """What the players must still change on the board. With ``move_under_way`` the squares
        handled in the current turn belong to the next move, already begun, and are left out."""
        expected = self.expected_occupancy(self.state)
        self._outstanding = self.observed ^ expected
        if move_under_way:
            self._outstanding -= self._turn.touched_since(0)
        wrong = self._wrong_pieces()
        if not self._outstanding and not wrong:
            return []
        return [Correction(tuple(sorted(self._outstanding - expected)),
                           tuple(sorted(self._outstanding & expected)), wrong)]

    def _wrong_pieces(self) -> tuple[int, ...]:
        """Squares where an identity sensor sees a different piece than the game has, or a
        colour sensor a piece of the other colour."""
        board, letter = self.state.board, self.variant.piece_letter
        wrong = {sq for sq, seen in self.letters.items()
                 if sq in self.observed and board[sq] and seen != letter(board[sq])}
        wrong.update(sq for sq, seen in self.colours.items()
                     if sq in self.observed and board[sq] >> 4 in (WHITE, BLACK)
                     and seen != board[sq] >> 4)
        return tuple(sorted(wrong))

    def _check_problem(self) -> list[Decision]:
        expected = self.expected_occupancy(self.state)
        wrong = self._wrong_pieces()
        if self.observed == expected and wrong:
            return self._report_once((), (), wrong)
        if self.observed == expected:
            # The board is back on the game: what hands did before no longer counts, except
            # that the squares lifted are remembered: the board may look unchanged while a
            # move is under way (a zombie put where the mover stood, the mover in the hand).
            corrected = bool(self._outstanding)  # a correction asked for is done
            self._outstanding = frozenset()
            self._turn = _Turn(earlier=self._turn.earlier | self._turn.first_lift.keys())
            if self._in_problem or corrected:
                self._in_problem = False
                return [BoardGood()]
            return []
        extra = self.observed - expected
        missing = expected - self.observed
        if not extra and not self._in_problem:
            return []  # pieces in hand: wait quietly
        if (extra | missing) <= self._outstanding and not wrong and not self._in_problem:
            return []  # what a correction already asks for: not a new problem
        if (self._turn.hand or self._partial(expected)) and not self._in_problem \
                and not self._flushing:
            # A piece lifted and not put down, or a board half-way to a legal outcome (a
            # ghost put on the ring before the capturer moves): the move is not finished,
            # however long the hand pauses. Say it is wrong only after a much longer stillness.
            due = (self._last_event_ms or 0) + self.hold_ms
            if self._now_ms < due:
                self._recheck_at = due
                return []
        return self._report_once(tuple(sorted(extra)), tuple(sorted(missing)), wrong)

    def _colour_problem(self) -> list[Decision]:
        """The board fits a legal outcome but for the colours seen on the squares the player
        filled: say which squares hold the wrong colour (nothing is applied)."""
        if not self.colours:
            return []
        wrong = {sq for cand in self._matches(self.state, colours=_NONE)
                 for sq, colour in cand.colours if self.colours.get(sq, colour) != colour}
        return self._report_once((), (), tuple(sorted(wrong))) if wrong else []

    def _partial(self, expected: frozenset[int]) -> bool:
        """Whether every change on the board is one some legal outcome of the turn makes:
        emptied squares are squares it changes, filled ones are occupied at its end."""
        emptied = expected - self.observed
        filled = self.observed - expected
        for cand in self.candidates(self.state):
            changes = cand.player | cand.free | cand.touch | (expected ^ cand.expect)
            if emptied <= changes and filled <= cand.expect:
                return True
        return False

    def _report_once(self, extra: tuple[int, ...], missing: tuple[int, ...],
                     wrong: tuple[int, ...]) -> list[Decision]:
        key = (extra + wrong, missing)
        if key in self._turn.reported:
            return []
        self._turn.reported.add(key)
        self._in_problem = True
        if not extra and not missing:
            names = " ".join(self.variant.layout.name(sq) for sq in wrong)
            return [Problem("unknown", f"wrong piece on {names}", (), (), swap=wrong)]
        problem = self._describe(frozenset(extra), frozenset(missing))
        return [Problem(problem.kind, problem.text, problem.to_empty, problem.to_fill,
                        problem.reason, wrong)]

    def _describe(self, extra: frozenset[int], missing: frozenset[int]) -> Problem:
        name = self.variant.layout.name
        empty, fill = tuple(sorted(extra)), tuple(sorted(missing))
        movers = [sq for sq in missing if self.state.board[sq] >> 4 in (self.state.to_act, 3)]
        if len(extra) == 1 and len(movers) == 1:
            move = A.move(movers[0], next(iter(extra)))
            reason = self.variant.why_illegal(self.state, move)
            text = f"illegal move {self.variant.format_action(move)}: {reason}"
            return Problem("illegal", text, empty, fill, reason)
        parts = []
        if empty:
            parts.append("remove the piece from " + " ".join(name(s) for s in empty))
        if fill:
            parts.append("put back the piece on " + " ".join(name(s) for s in fill))
        return Problem("unknown", "unknown position: " + "; ".join(parts), empty, fill)

    # ------------------------------------------------------------------ candidates

    def _matches(self, state: State, observed: frozenset[int] | None = None,
                 turn: _Turn | None = None, letters: Mapping[int, str] | None = None,
                 colours: Mapping[int, int] | None = None) -> list[Candidate]:
        """Candidates from ``state`` that fit the board (default: as it is now)."""
        observed = self.observed if observed is None else observed
        turn = self._turn if turn is None else turn
        letters = self.letters if letters is None else letters
        colours = self.colours if colours is None else colours
        placed = turn.last_place
        out = []
        for action in self.variant.legal_actions(state):
            # A move starts by lifting its piece; a choice ends by putting one down.
            if action.kind == A.MOVE and turn.was_lifted(action.frm) or (
                    action.kind in self.variant.placing_kinds and action.to in placed):
                out += [c for c in self.candidates_of(state, action)
                        if c.matches(observed, turn, letters, self._outstanding, colours)]
        return out

    def _split(self) -> list[Decision] | None:
        """The board fits no candidate: did the next player start before it settled?

        Looks for the latest point in the hand movements where the board fitted exactly one
        candidate, and takes it when what followed is the next player's doing too: a legal
        action of theirs (or several, each split the same way), or only pieces lifted (not
        one the mover just put down: the mover may be picking it up again to go on). None
        when there is no such point.
        """
        found = self._split_point(self.state, tuple(self._turn.log), self._turn.earlier, 0)
        if found is None:
            return None
        cand, mark = found
        return self._accept(cand, since=mark) + self._judge_again()

    def _split_point(self, state: State, log: tuple[tuple[bool, int], ...],
                     earlier: frozenset[int], depth: int) -> tuple[Candidate, int] | None:
        if depth > 4:
            return None
        for mark in range(len(log) - 1, 0, -1):
            rest = log[mark:]
            touched = {sq for _, sq in rest}
            head = _Turn.replay(log[:mark], earlier)
            letters = {sq: x for sq, x in self.letters.items() if sq not in touched}
            colours = {sq: c for sq, c in self.colours.items() if sq not in touched}
            board = _undo(self.observed, rest)
            matches = self._matches(state, board, head, letters, colours)
            if len(matches) > 1:
                best = max(head.agreement(c.origins) for c in matches)
                matches = [c for c in matches if head.agreement(c.origins) == best]
            if len(matches) != 1:
                continue
            cand = matches[0]
            # a move that may be the first half of another (a rook move before the king's
            # castling) ends here only if hands then touched none of the other's squares
            if any(touched & (alt.player | alt.free) for alt in self._extensions(cand)):
                continue
            if all(was_lift for was_lift, _ in rest) and not touched & cand.player:
                return cand, mark
            tail = _Turn.replay(rest, frozenset())
            if self._matches(cand.after, turn=tail) or \
                    self._split_point(cand.after, rest, frozenset(), depth + 1):
                return cand, mark
        return None

    def _extensions(self, cand: Candidate) -> list[Candidate]:
        """Candidates the player may still be on the way to when the board shows ``cand``.

        Two cases: ``cand`` is exactly what another candidate asks the referee to finish (a
        rook move that starts a rook-first castling: only a king's move has the referee finish
        another piece's move), or ``cand`` is a capture that its player may still turn into a
        resurrection by lifting the capturer again (Dead Man's Chess).
        """
        before = cand.after.parent
        if before is None:
            return []
        first = cand.actions[0]
        out = []
        for action in self.variant.legal_actions(before):
            rises = first.rise < 0 and action.rise >= 0 and action._replace(rise=-1) == first
            royal = action.kind == A.MOVE and before.board[action.frm] & 15 == KING
            if not (rises or (royal and action.frm not in cand.player)):
                continue
            for other in self.candidates_of(before, action):
                finishes = cand.player <= other.free and all(
                    (sq in other.expect) == (sq in cand.expect) for sq in cand.player)
                if rises or finishes:
                    out.append(other)
        return out

    def candidates(self, state: State) -> list[Candidate]:
        """Every physical way the turn can end from ``state`` (for tests and tools; the matcher
        builds only the candidates that the board's changes make possible)."""
        return [c for action in self.variant.legal_actions(state)
                if action.kind in self.variant.board_kinds
                for c in self.candidates_of(state, action)]

    def candidates_of(self, state: State, action: Action) -> list[Candidate]:
        """The candidates that begin with ``action`` (cached on the state)."""
        cache: dict[Action, list[Candidate]] = state.cache.setdefault("candidates", {})
        found = cache.get(action)
        if found is None:
            found = []
            self._extend(state, self.expected_occupancy(state), (action,), state, found)
            cache[action] = found
        return found

    def _extend(self, start: State, before: frozenset[int], actions: tuple[Action, ...],
                state: State, out: list[Candidate]) -> None:
        after = self.variant.apply(state, actions[-1])
        after.action = actions[-1]
        # The turn may stop here on the board (the piece still in hand or in Limbo) and the
        # choice follow later, or the choice may be made in the same breath: both are candidates.
        out.append(self._candidate(start, before, actions, after))
        if after.to_act == 3 - start.to_act and after.turn == after.to_act:
            return  # the turn simply passed: nothing more to put down (the common case, cheap)
        follow = self.variant.legal_actions(after)
        if follow and all(a.kind in self.variant.placing_kinds for a in follow):
            for choice in follow:
                self._extend(start, before, actions + (choice,), after, out)

    def _candidate(self, start: State, before: frozenset[int], actions: tuple[Action, ...],
                   after: State) -> Candidate:
        if len(actions) == 1 and actions[0].kind == A.MOVE and after.board == start.board:
            return self._failed_attempt(actions[0], after, before)
        player: set[int] = set()
        for action in actions:
            player.update(sq for sq in (action.frm, action.to, action.rise) if sq >= 0)
        player &= self.sensed
        expect = self.expected_occupancy(after)
        changed = {sq for sq in self.sensed
                   if start.board[sq] != after.board[sq] or start.ids[sq] != after.ids[sq]}
        touch = frozenset(sq for sq in player if sq in before and sq in expect
                          and start.ids[sq] != after.ids[sq])
        must_lift = self._referee_filled(start, before, actions, after)
        free = frozenset(changed - player) | must_lift
        touch -= must_lift
        letters = tuple((sq, self.variant.piece_letter(after.board[sq]))
                        for sq in sorted(player) if after.board[sq])
        where = {ident: sq for sq, ident in enumerate(start.ids) if ident}
        origins = tuple((sq, where.get(after.ids[sq], -1)) for sq in sorted(player)
                        if after.board[sq])
        colours = _colours_of(after.board, sorted(player - free))
        return Candidate(actions, after, expect, expect - free, free, touch, frozenset(player),
                         letters, origins, must_lift, colours)

    def _referee_filled(self, start: State, before: frozenset[int], actions: tuple[Action, ...],
                        after: State) -> frozenset[int]:
        """Player squares whose end state the rules decide, not the player's hand."""
        out = set()
        for i, action in enumerate(actions):
            if action.kind != A.MOVE:
                continue
            # a square the player fills later in the turn (an Afterlife drop onto the cell
            # the mover left) is the player's business, not the referee's
            later = {a.to for a in actions[i + 1:]}
            if action.to in before and not after.board[action.to] and action.to not in later:
                out.add(action.to)  # the capturer vanished (a ghost's ultimate sacrifice)
            if after.board[action.frm] and action.frm != action.to and action.frm not in later:
                out.add(action.frm)  # something rose where the mover stood (a zombie)
        return frozenset(out & self.sensed)


def _colours_of(board: Sequence[int], squares: Iterable[int],
                piece: int | None = None) -> tuple[tuple[int, int], ...]:
    """(square, colour) for the white and black pieces on ``squares`` (``piece``: the piece
    standing on each instead of ``board``'s)."""
    out = []
    for sq in squares:
        colour = (board[sq] if piece is None else piece) >> 4
        if colour in (WHITE, BLACK):
            out.append((sq, colour))
    return tuple(out)
