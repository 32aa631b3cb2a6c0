"""The contract every variant implements, and what they share.

A variant is a small class: its name, its ``CONFIG`` options (RULINGS.md, with the defaults
written there), its layout of regions, and four rule hooks: :meth:`Variant.initial_state`,
:meth:`Variant.generate`, :meth:`Variant.apply` and :meth:`Variant.rule_outcome`. Everything else
(legality checks, outcome caching, notation, views, records) is shared here or in
:mod:`referee.rules.game`. Instances are immutable after construction and safe to share.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from referee.rules import actions as A
from referee.rules.actions import Action, ActionKind
from referee.rules.errors import IllegalActionError, NotationError, OptionError
from referee.rules.events import GameEnded, GameEvent, MarkerKind
from referee.rules.geometry import Layout
from referee.rules.pieces import COLOUR_NAMES, WHITE, chess_letter
from referee.rules.state import State, repetition_count

OptionValue = Any

#: The state class of a variant (``Zombie`` is a ``Variant[ZombieState]``).
S = TypeVar("S", bound=State)


@dataclass(frozen=True)
class OptionSpec:
    """One ``CONFIG`` option: its key, default, allowed values and a one-line description.

    ``choices`` limits the value to a set (for booleans use ``(True, False)``). ``check`` may
    validate and normalise other values (lists, maps); it raises ``ValueError`` with a reason.
    """

    key: str
    default: OptionValue
    doc: str
    choices: tuple[OptionValue, ...] | None = None
    check: Callable[[OptionValue], OptionValue] | None = None

    def validate(self, value: OptionValue) -> OptionValue:
        """The value to use, or raises :class:`OptionError` saying what is allowed."""
        if self.check is not None:
            try:
                return self.check(value)
            except (TypeError, ValueError) as err:
                raise OptionError(f"option {self.key}: {err}") from None
        if self.choices is not None:
            # bool is an int in Python: compare type as well so that 1 is not True.
            if not any(value == c and type(value) is type(c) for c in self.choices):
                allowed = ", ".join(_show(c) for c in self.choices)
                raise OptionError(f"option {self.key}: {_show(value)} is not one of {allowed}")
        return value


def _show(value: OptionValue) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def int_option(minimum: int | None = None, allow_none: bool = False) -> Callable[[Any], Any]:
    """A ``check`` for integer options (``None`` allowed when ``allow_none``)."""
    def check(value: Any) -> Any:
        if value is None and allow_none:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"{value!r} is not a whole number")
        if minimum is not None and value < minimum:
            raise ValueError(f"{value} is below {minimum}")
        return value
    return check


BOOL = (True, False)


@dataclass(frozen=True)
class Outcome:
    """How a game ended: ``result`` (``1-0``, ``0-1``, ``1/2-1/2``) and a short ``reason``."""

    result: str
    reason: str


ONGOING = Outcome("*", "")


def win_for(colour: int, reason: str) -> Outcome:
    """The outcome where ``colour`` wins."""
    return Outcome("1-0" if colour == WHITE else "0-1", reason)


def draw(reason: str) -> Outcome:
    """A drawn outcome."""
    return Outcome("1/2-1/2", reason)


class Variant(ABC, Generic[S]):
    """Base class of all variants. Subclasses set the class attributes and the rule hooks.

    Args:
        options: ``CONFIG`` keys of RULINGS.md; missing keys take their defaults.

    Raises:
        OptionError: an unknown key, or a value that is not allowed.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    #: Upper-case letters a pawn-like piece may promote to, in canonical order.
    promo_letters: ClassVar[str] = "QRBN"
    #: The kinds of action of this variant (resign and draw come on top), in help order.
    action_kinds: ClassVar[tuple[ActionKind, ...]] = (A.MOVE_KIND,)
    #: The kinds of public marker under squares this variant's events put and take
    #: (tombstones, zombie coins), with how outputs show them.
    marker_kinds: ClassVar[tuple[MarkerKind, ...]] = ()
    #: The class of this variant's states (a subclass of State with the variant's extra fields).
    state_class: type[S]
    def __init__(self, options: Mapping[str, OptionValue] | None = None) -> None:
        self.options: dict[str, OptionValue] = self.validate_options(options or {})
        self.layout: Layout = self.build_layout()
        self.kinds: Mapping[str, ActionKind] = {k.name: k for k in self.action_kinds}
        #: Kinds made by moving or placing pieces: what move inference recognises.
        self.board_kinds: frozenset[str] = self.kinds_done_by(A.BOARD)
        #: Choices made by putting a piece down (the square is the choice: a Hell home).
        self.placing_kinds: frozenset[str] = frozenset(
            k.name for k in self.action_kinds if k.done_by == A.BOARD and k.choice)

    @classmethod
    def kinds_done_by(cls, *how: str) -> frozenset[str]:
        """Names of this variant's action kinds made in one of the ways ``how``
        (:data:`~referee.rules.actions.BOARD`, ``CLOCK``, ``DIE``, ``SECRET``...)."""
        return frozenset(k.name for k in cls.action_kinds if k.done_by in how)

    def help(self) -> str:
        """How to write this variant's actions, with these options: one line per action kind
        (:meth:`kind_help`; the move kind's says how this variant's moves are written), then
        resign and draw. Said once, by the kinds; ``play`` shows it, and anyone else showing
        help reads it here."""
        return "\n".join([*(self.kind_help(k) for k in self.action_kinds), A.META_HELP])

    def kind_help(self, kind: ActionKind) -> str:
        """The help line of one of this variant's action kinds with these options (its
        ``help``, unless an option changes how it is made: Die Chess with the referee's die)."""
        return kind.help

    @classmethod
    def validate_options(cls, given: Mapping[str, OptionValue]) -> dict[str, OptionValue]:
        """Defaults merged with ``given``, each value validated."""
        specs = {s.key: s for s in cls.option_specs}
        unknown = sorted(set(given) - set(specs))
        if unknown:
            known = ", ".join(sorted(specs)) or "none"
            raise OptionError(
                f"unknown option {unknown[0]!r} for variant {cls.name} (its options: {known})")
        out = {k: s.default for k, s in specs.items()}
        for key, value in given.items():
            out[key] = specs[key].validate(value)
        return out

    # ------------------------------------------------------------------ hooks for subclasses

    @abstractmethod
    def build_layout(self) -> Layout:
        """The regions and squares of this variant (with the options already set)."""

    @abstractmethod
    def initial_state(self, seed: int = 0) -> S:
        """The start position; ``seed`` seeds the private random generator."""

    @abstractmethod
    def generate(self, state: S) -> list[Action]:
        """Every legal action for ``state.to_act``, ignoring whether the game has ended."""

    @abstractmethod
    def apply(self, state: S, action: Action, events: list[GameEvent] | None = None) -> S:
        """The state after a legal ``action`` (``state`` is left untouched).

        Appends what happened to ``events`` when a list is given (perft passes None).
        The caller guarantees legality (see :meth:`is_legal`).
        """

    @abstractmethod
    def rule_outcome(self, state: S, legal: list[Action]) -> Outcome:
        """The result the rules give this state (``legal`` = :meth:`generate` of it)."""

    def new_state(self, turn: int = WHITE, rng: int = 0) -> S:
        """An empty board of this variant's state class, ``turn`` to move."""
        return self.state_class(self.layout.size, turn, rng)

    def piece_letter(self, piece: int) -> str:
        """The NOTATION.md letter of a piece code (``""`` for empty)."""
        return chess_letter(piece)

    def in_check(self, state: S) -> bool:
        """Whether the side to move is in check (False in variants without check)."""
        return False

    def position_key(self, state: S) -> Hashable:
        """What must be equal for two states to count as the same position (repetition)."""
        return (tuple(state.board), state.turn, state.to_act, state.castling, state.ep)

    def expectation(self, state: S, key: str) -> Any:
        """The value of a variant-specific scenario key (``tombstones``, ``faces``...).

        Raises:
            KeyError: this variant has no such key.
        """
        raise KeyError(key)

    def normalize(self, state: S, action: Action) -> Action:
        """Bring a parsed action to its canonical value (e.g. a die face letter to a number).

        Raises:
            NotationError: the action cannot mean anything in this variant.
        """
        return action

    def castling_action(self, state: S, long: bool) -> Action:
        """The king move that ``O-O`` (or ``O-O-O`` when ``long``) means now.

        Raises:
            NotationError: this variant has no castling.
        """
        raise NotationError(f"{self.name} has no castling")

    def position(self, state: S, private: bool = True) -> str:
        """The one-line position text of ``state`` (``private=False`` hides secrets)."""
        raise NotImplementedError(f"{self.name}: position notation not implemented")

    def from_position(self, text: str) -> S:
        """A state from :meth:`position` text. Raises RecordError for bad text."""
        raise NotImplementedError(f"{self.name}: position notation not implemented")

    def public_action_text(self, action: Action) -> str:
        """How ``action`` is shown to everyone (a shared screen, the public move list).

        Variants with secret actions (a Zombie Chess burial square) hide the secret part here;
        records keep the canonical :meth:`format_action` text.
        """
        return self.format_action(action)

    def legal_is_public(self, state: S) -> bool:
        """Whether the legal actions of ``state`` may be listed on a shared screen.

        False when they depend on the actor's secrets (Zombie Chess burials): the list would
        tell the opponent what only the actor may know.
        """
        return True

    def render(self, state: S, viewer: int | None = None) -> str:
        """A text drawing of every region for the terminal, as ``viewer`` may see it."""
        raise NotImplementedError

    def view(self, state: S, viewer: int | None) -> dict[str, Any]:
        """What ``viewer`` (WHITE, BLACK or None for spectators) may know, as plain data."""
        outcome = self.outcome(state)
        return {
            "variant": self.name,
            "squares": {self.layout.name(sq): self.piece_letter(p)
                        for sq, p in enumerate(state.board) if p},
            "turn": COLOUR_NAMES[state.turn],
            "to_act": COLOUR_NAMES[state.to_act],
            "result": outcome.result,
            "reason": outcome.reason,
            "removed": sorted(self.piece_letter(p) for p in state.removed),
            "ply": state.ply,
        }

    # ------------------------------------------------------------------ shared behaviour

    def legal_actions(self, state: S) -> list[Action]:
        """The legal actions for the side to act; empty once the game is over."""
        if self.outcome(state).result != "*":
            return []
        return self._generated(state)

    def _generated(self, state: S) -> list[Action]:
        moves: list[Action] | None = state.cache.get("legal")
        if moves is None:
            moves = self.generate(state)
            state.cache["legal"] = moves
        return moves

    def outcome(self, state: S) -> Outcome:
        """The game's result now: resignations and agreed draws first, then the rules."""
        found: Outcome | None = state.cache.get("outcome")
        if found is None:
            if state.result != "*":
                found = Outcome(state.result, state.reason)
            else:
                found = self.rule_outcome(state, self._generated(state))
            state.cache["outcome"] = found
        return found

    def is_legal(self, state: S, action: Action) -> bool:
        """Whether ``action`` may be applied now (resign/draw always, while the game goes on)."""
        if self.outcome(state).result != "*":
            return False
        if action.kind in A.META_KINDS:
            return True
        return action in self._generated(state)

    def play(self, state: S, action: Action, events: list[GameEvent] | None = None) -> S:
        """Apply ``action`` after checking it, including resign and draw.

        Raises:
            IllegalActionError: the action is not legal now (the reason says why).
        """
        if not self.is_legal(state, action):
            raise IllegalActionError(self.format_action(action), self.why_illegal(state, action))
        if action.kind in A.META_KINDS:
            new = state.copy()
            if action.kind == A.RESIGN:
                new.result = "0-1" if state.to_act == WHITE else "1-0"
                new.reason = f"{COLOUR_NAMES[state.to_act]} resigned"
            else:
                new.result, new.reason = "1/2-1/2", "draw agreed"
        else:
            new = self.apply(state, action, events)
        if new.action is None:  # apply may record a resolved form (a bare roll with its face)
            new.action = action
        if events is not None:
            end = self.outcome(new)
            if end.result != "*":
                events.append(GameEnded(f"{end.reason} - {end.result}", result=end.result,
                                        reason=end.reason))
        return new

    def can_mate(self, state: S, colour: int) -> bool:
        """Whether ``colour`` still has material that could win: when the opponent's flag
        falls, ``colour`` wins if so and the game is drawn otherwise (FIDE 6.9).

        Counted over every region (a piece in Hell may come back): anything but kings, and
        at most one knight or bishop, cannot mate; pieces either side may move (Afterlife's
        gray pieces) count for both. Variants with other ways to win may override this.
        """
        minors = 0
        for piece in state.board:
            if not piece or piece >> 4 not in (colour, 3):
                continue
            letter = self.piece_letter(piece).upper()
            if letter == "K":
                continue
            if letter not in ("N", "B"):
                return True
            minors += 1
        return minors >= 2

    def why_illegal(self, state: S, action: Action) -> str:
        """A short human reason why ``action`` is not legal in ``state``."""
        end = self.outcome(state)
        if end.result != "*":
            return f"the game is over ({end.reason}, {end.result})"
        legal = self._generated(state)
        if legal and action.kind not in {a.kind for a in legal}:
            wanted = sorted({a.kind for a in legal})
            who = COLOUR_NAMES[state.to_act]
            return f"{who} must now make a {'/'.join(wanted)} action"
        if action.kind == A.MOVE:
            return self.why_move_illegal(state, action)
        return "not one of the legal choices now"

    def why_move_illegal(self, state: S, action: Action) -> str:
        """Reason for an illegal move; variants refine it (check, pins...)."""
        piece = state.board[action.frm] if 0 <= action.frm < len(state.board) else 0
        if not piece:
            return f"there is no piece on {self.layout.name(action.frm)}"
        if piece >> 4 not in (state.to_act, 3):
            owner = COLOUR_NAMES[state.to_act]
            return f"the piece on {self.layout.name(action.frm)} is not {owner}'s"
        return "that piece cannot move there now"

    def standard_draws(self, state: S, fifty: bool = True, repetition: bool = True) -> Outcome:
        """The 50-move rule and threefold repetition, when switched on."""
        if fifty and state.halfmove >= 100:
            return draw("fifty-move rule")
        if repetition and state.halfmove >= 4:
            if repetition_count(state, self._cached_key) >= 3:
                return draw("threefold repetition")
        return ONGOING

    def _cached_key(self, state: S) -> Hashable:
        key: Hashable | None = state.cache.get("key")
        if key is None:
            key = self.position_key(state)
            state.cache["key"] = key
        return key

    # ------------------------------------------------------------------ notation

    def parse_action(self, text: str, state: S) -> Action:
        """An action from NOTATION.md text, for the side to act in ``state``.

        Raises:
            NotationError: the text is not an action of this variant (says what is wrong).
        """
        from referee.rules.notation import parse_action
        return self.normalize(state, parse_action(text, self, state))

    def format_action(self, action: Action) -> str:
        """The canonical NOTATION.md text of ``action``."""
        from referee.rules.notation import format_action
        return format_action(action, self.layout)
