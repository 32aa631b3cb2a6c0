"""Actions: everything a player (or the referee's dice) can do.

One small immutable tuple type serves every variant, so that actions hash, compare and store
cheaply in the hot path of move generation. Squares are global indices of the variant's
:class:`~referee.rules.geometry.Layout`; text forms live in :mod:`referee.rules.notation`.

Which kinds of action a variant has, how each is written and how a player makes it at the board
(:class:`ActionKind`) is said by the variant (``Variant.action_kinds``); this module holds only
what every variant shares: moves, passing, resigning and agreed draws.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final, NamedTuple

from referee.rules.events import PUBLIC, Prompt

MOVE: Final = "move"        # frm -> to, optional promo letter, optional rise (resurrection square)
PASS: Final = "pass"        # a turn without a move, where a variant allows one
RESIGN: Final = "resign"
DRAW: Final = "draw"        # agreed draw

#: Actions every variant has besides its own kinds (never in a legal list: always allowed).
META_KINDS: Final = (RESIGN, DRAW)
#: Their help line (after the variant's kinds' lines).
META_HELP: Final = "resign, draw: resign, or agree a draw"

# How an action is written (NOTATION.md): a move, a bare word (``pass``), ``word=SQUARE`` (a
# choice of square, optionally ``=P``), or ``word=VALUE`` (a die face, an assignment).
MOVE_FORM: Final = "move"
BARE: Final = "bare"
SQUARE: Final = "square"
VALUE: Final = "value"

# How a player makes it at a physical board: by moving or placing pieces (the board sees it),
# by pressing the own clock, by rolling a die (or pressing roll), secretly off the board (a
# phone), publicly off the board (chosen with the display's buttons), or not seen at all yet
# (typed in by hand).
BOARD: Final = "board"
CLOCK: Final = "clock"
DIE: Final = "die"
SECRET: Final = "secret"
DISPLAY: Final = "display"
UNSENSED: Final = "unsensed"
PHYSICAL: Final = (BOARD, CLOCK, DIE)
OFF_BOARD: Final = (SECRET, DISPLAY)


@dataclass(frozen=True)
class Arrangement:
    """A VALUE kind whose value gives each of some items one of the same letters, each letter
    once, written ``SIDE:IL,IL,...`` (Masquerade's assignment: how each of K Q R B N captures,
    ``white:KR,QK,RN,BB,NQ``). There are too many to list (5! = 120), so ``gravekeeper play``
    guides a player item by item; the words it uses are the variant's, said here.

    Attributes:
        items: the items, in order, which are also the letters given to them (``"KQRBN"``).
        names: the name of each item in a question, in the order of ``items``
            (``("king", "queen", "rooks", "bishops", "knights")``).
        item: what one item is called (``"piece"``); ``unit``: what one letter given is
            (``"capture pattern"``).
        goal: what the whole choice decides, with ``{side}`` (``"how {side}'s pieces
            capture"``); ``ask``: the question for one item (``"capture like which piece?"``).
        example: a value and what it means (``"RKNBQ: the king captures like a rook..."``).
    """

    items: str
    names: tuple[str, ...]
    item: str
    unit: str
    goal: str
    ask: str
    example: str

    def value(self, side: str, letters: str) -> str:
        """The text after ``=`` giving ``letters`` to the items in order, for ``side``."""
        return f"{side}:" + ",".join(i + c for i, c in zip(self.items, letters, strict=True))

    @staticmethod
    def side(value: str) -> str:
        """The side a value is for (``white`` of ``white:KR,...``)."""
        return value.partition(":")[0]


@dataclass(frozen=True)
class ActionKind:
    """What one kind of action is, said once by the variant that has it.

    Attributes:
        name: the word that starts its text (``home``, ``roll``) and :attr:`Action.kind`.
        form: how it is written: :data:`MOVE_FORM`, :data:`BARE`, :data:`SQUARE` or
            :data:`VALUE`.
        done_by: how a player makes it at the board (:data:`BOARD` ... :data:`UNSENSED`).
        help: one line for ``play``'s help: its spelling and what it does.
        read: for a VALUE kind, the canonical value of the text after ``=`` (raises
            NotationError naming the problem); None keeps the text as written.
        bare: a VALUE kind that may also be written alone (``roll``: the referee rolls).
        legend: for a choice of square, the few words the LED picture's legend shows while
            the referee waits for it (``"hell home"``); empty: the kind's name.
        arrangement: for a VALUE kind chosen as an :class:`Arrangement`, how to guide it.
    """

    name: str
    form: str
    done_by: str
    help: str
    read: Callable[[str], str] | None = field(default=None, compare=False)
    bare: bool = False
    legend: str = ""
    arrangement: Arrangement | None = field(default=None, compare=False)

    @property
    def physical(self) -> bool:
        """Whether it is made at the board (pieces, a clock, a die) rather than off it."""
        return self.done_by in PHYSICAL

    @property
    def private(self) -> bool:
        """Whether it is a secret of the player who makes it."""
        return self.done_by == SECRET

    @property
    def choice(self) -> bool:
        """Whether it names a square (``home=hell:b1``)."""
        return self.form == SQUARE

    def prompt(self, text: str, colour: int, options: tuple[str, ...] = (), *,
               audience: int = PUBLIC) -> Prompt:
        """The event saying the referee waits for ``colour`` to make this kind of action
        (one of ``options``), with this kind's legend for the LEDs."""
        return Prompt(text, colour=colour, kind=self.name, options=options,
                      legend=self.legend or self.name, done_by=self.done_by, audience=audience)


def moves(help_line: str) -> ActionKind:
    """The move kind with a variant's own help line (how its moves are written)."""
    return ActionKind(MOVE, MOVE_FORM, BOARD, help_line)


MOVE_KIND: Final = moves("e2e4, e2-e4, e7e8=Q, O-O: move a piece (NOTATION.md)")
PASS_KIND: Final = ActionKind(PASS, BARE, CLOCK, "pass: pass the turn (press your clock)")


class Action(NamedTuple):
    """One action. Unused fields keep their defaults so equal actions compare equal.

    Attributes:
        kind: the name of an :class:`ActionKind` of the variant, or resign/draw.
        frm: origin square index of a move, else -1.
        to: destination square of a move, or the square a choice names, else -1.
        promo: promotion piece letter in upper case (``"Q"``), else ``""``.
        rise: Dead Man's resurrection square, else -1.
        value: a roll face or an assignment, else ``""``.
    """

    kind: str
    frm: int = -1
    to: int = -1
    promo: str = ""
    rise: int = -1
    value: str = ""


def move(frm: int, to: int, promo: str = "", rise: int = -1) -> Action:
    """A move action."""
    return Action(MOVE, frm, to, promo, rise)


def choice(kind: str, square: int, promo: str = "") -> Action:
    """A choice action (a :data:`SQUARE` kind: ``home=hell:b1``)."""
    return Action(kind, -1, square, promo)


def simple(kind: str, value: str = "") -> Action:
    """An action without squares (a :data:`BARE` or :data:`VALUE` kind: ``pass``, ``roll=5``)."""
    return Action(kind, value=value)
