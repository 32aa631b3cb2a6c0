"""Zombie Chess as text and data: the position notation, player views and the terminal drawing.

Position notation (one line, ten space-separated fields)::

    FEN(6 fields) ZOMBIES WHITE-BURIALS BLACK-BURIALS TURN

* ``ZOMBIES``: squares with a zombie coin, comma-separated (``b2,a1``), or ``-``.
* ``WHITE-BURIALS`` / ``BLACK-BURIALS``: the burier's map as ``SQUARE`` + buried piece letter,
  comma-separated (``b2p,e8R`` is not possible: White buries black pieces, so ``b2p,e8r``), or
  ``-``. In the public form (and for the opponent in a player's form) a map is written ``?``
  followed by its piece letters only (``?pr``): which pieces are buried is public, where is not.
* ``TURN``: ``-`` between turns; otherwise the phase (``open`` while a horde turn goes on,
  ``choose`` while promotions and burials wait) and ``;``-separated parts, each left out when
  empty: ``unmoved=c3,d4`` (horde zombies that have not moved), ``left=e2,h1`` (squares left this
  turn, not yet checked), ``bury=pn`` (captured pieces waiting for burial),
  ``promote=a8`` (revealed pawns waiting for their owner's choice). Example:
  ``open;unmoved=c3;left=e2``.

Only the private form (both maps in full) can be read back: it round-trips every state.
Squares are the board's global indices (a1 = 0, h8 = 63).
"""

from __future__ import annotations

from typing import Any, Final

from referee.rules import actions as A
from referee.rules.errors import NotationError, RecordError
from referee.rules.pieces import (
    BLACK,
    CHESS_KIND_BY_LETTER,
    COLOUR_NAMES,
    KING,
    PAWN,
    WHITE,
    chess_letter,
    code,
)
from referee.rules.variants.chesslike import ChessLike
from referee.rules.variants.zombie_state import CHOOSE, OPEN, START, Burials, ZombieState, bits

PHASE_NAMES = {START: "start", OPEN: "open", CHOOSE: "choose"}
#: piece code -> letter, for the hot position writer
_LETTERS = tuple(chess_letter(p) if p & 15 in range(1, 7) and p >> 4 in (WHITE, BLACK) else ""
                 for p in range(64))
_PHASE_BY_NAME = {"open": OPEN, "choose": CHOOSE}


BURY: Final = A.ActionKind(
    "bury", A.SQUARE, A.SECRET,
    "bury=SQUARE: after a capture, secretly bury the enemy piece under one of yours (bury=c6)",
    legend="bury here")
END: Final = A.ActionKind("end", A.BARE, A.CLOCK, "end: end the horde turn (press your clock)")
PROMOTE: Final = A.ActionKind(
    "promote", A.SQUARE, A.DISPLAY,
    "promote=SQUARE=P: choose the piece for your revealed pawn on its last rank (promote=c8=Q)")
MOVES: Final = A.moves(
    "e4, Nf3, O-O (SAN) or e2e4: move; with zombies, move them one after another and finish "
    "with end")


class ZombieText(ChessLike[ZombieState]):
    """The text and data side of :class:`~referee.rules.variants.zombie.Zombie`."""

    state_class = ZombieState

    #: set by the rules class: whether legality counts the opponent's burials (a leak)
    opp_reveal: bool = False

    # ------------------------------------------------------------------ public facts

    def graveyard(self, st: ZombieState) -> list[str]:
        """Letters of the captured pieces that may come back: buried, or waiting for their
        burial (they already sit in the graveyard beside the board). Public."""
        pieces = [p for burials in st.burials for _, p in burials] + list(st.to_bury)
        return sorted(self.piece_letter(p) for p in pieces)

    def _squares(self, squares: Any) -> str:
        return ",".join(self.layout.name(sq) for sq in squares) or "-"

    # ------------------------------------------------------------------ positions

    def piece_letter(self, piece: int) -> str:
        return _LETTERS[piece]

    def position(self, state: ZombieState, private: bool = True) -> str:
        """The position text; ``private=False`` hides both burial maps (spectators)."""
        return self.position_for(state, None if not private else 0)

    def position_for(self, st: ZombieState, viewer: int | None) -> str:
        """The position as ``viewer`` may see it: 0 = the referee (everything), WHITE/BLACK =
        that player's own map in full and the opponent's hidden, None = both hidden."""
        maps = [self._burial_field(st.burials_of(c), viewer in (0, c)) for c in (WHITE, BLACK)]
        return " ".join([self.fen(st), self._squares(bits(st.zombies)), *maps,
                         self._turn_field(st)])

    def _burial_field(self, burials: Burials, shown: bool) -> str:
        if not burials:
            return "-"
        if shown:
            return ",".join(self.layout.name(sq) + self.piece_letter(p) for sq, p in burials)
        return "?" + "".join(sorted(self.piece_letter(p) for _, p in burials))

    def _turn_field(self, st: ZombieState) -> str:
        if st.phase == START:
            return "-"
        parts = [PHASE_NAMES[st.phase]]
        if st.horde:
            parts.append("unmoved=" + self._squares(bits(st.horde)))
        if st.left:
            parts.append("left=" + self._squares(st.left))
        if st.to_bury:
            parts.append("bury=" + "".join(self.piece_letter(p) for p in st.to_bury))
        if st.promos:
            parts.append("promote=" + self._squares(st.promos))
        return ";".join(parts)

    def from_position(self, text: str, seed: int = 0) -> ZombieState:
        """A state from the private :meth:`position` text.

        Raises:
            RecordError: naming the field that is wrong (the public form cannot be read: it
                has no burial squares).
        """
        fields = text.split()
        if len(fields) != 10:
            raise RecordError(f"a zombie position has 10 fields, not {len(fields)}: {text!r}")
        st = super().from_position(" ".join(fields[:6]), seed)
        try:
            st.zombies = sum(1 << sq for sq in self._read_squares(fields[6]))
            st.burials = (self._read_burials(fields[7], WHITE),
                          self._read_burials(fields[8], BLACK))
            self._read_turn(st, fields[9])
        except NotationError as err:
            raise RecordError(f"bad zombie position {text!r}: {err}") from None
        self._check_loaded(st)
        return st

    def _read_squares(self, text: str) -> list[int]:
        if text == "-":
            return []
        return [self.layout.square(name) for name in text.split(",")]

    def _read_burials(self, text: str, burier: int) -> Burials:
        if text == "-":
            return ()
        if text.startswith("?"):
            raise RecordError("this is a public position: the burial squares are hidden")
        out: dict[int, int] = {}
        for item in text.split(","):
            sq, letter = self.layout.square(item[:-1]), item[-1:]
            kind = CHESS_KIND_BY_LETTER.get(letter.upper(), 0)
            colour = WHITE if letter.isupper() else BLACK
            if not kind or kind == KING or colour == burier or sq in out:
                raise RecordError(f"bad burial {item!r} of {COLOUR_NAMES[burier]}")
            out[sq] = code(kind, colour)
        return tuple(sorted(out.items()))

    def _read_turn(self, st: ZombieState, text: str) -> None:
        if text == "-":
            st.horde = sum(1 << sq for sq in bits(st.zombies) if st.board[sq] >> 4 == st.turn)
            return
        phase, *parts = text.split(";")
        if phase not in _PHASE_BY_NAME:
            raise RecordError(f"bad turn field {text!r}")
        st.phase = _PHASE_BY_NAME[phase]
        for part in parts:
            key, _, value = part.partition("=")
            if key == "unmoved":
                st.horde = sum(1 << sq for sq in self._read_squares(value))
            elif key == "left":
                st.left = tuple(self._read_squares(value))
            elif key == "bury":
                st.to_bury = tuple(self._read_piece(ch) for ch in value)
            elif key == "promote":
                st.promos = tuple(self._read_squares(value))
            else:
                raise RecordError(f"bad turn field part {part!r}")
        st.to_act = st.board[st.promos[0]] >> 4 if st.promos else st.turn

    @staticmethod
    def _read_piece(letter: str) -> int:
        kind = CHESS_KIND_BY_LETTER.get(letter.upper(), 0)
        if not kind or kind == KING:
            raise RecordError(f"bad piece letter {letter!r}")
        return code(kind, WHITE if letter.isupper() else BLACK)

    def _check_loaded(self, st: ZombieState) -> None:
        """Consistency of a loaded state (raises RecordError)."""
        board = st.board
        for colour in (WHITE, BLACK):
            if board.count(code(KING, colour)) != 1:
                raise RecordError(f"{COLOUR_NAMES[colour]} needs exactly one king")
        for sq in bits(st.zombies):
            if not board[sq] or board[sq] & 15 == KING:
                raise RecordError("a zombie coin must lie under a piece other than a king")
        for sq in bits(st.horde):
            if not st.zombies >> sq & 1 or board[sq] >> 4 != st.turn:
                raise RecordError("an unmoved horde zombie must be a zombie of the mover")
        for sq in st.promos:
            if board[sq] & 15 != PAWN or st.phase != CHOOSE:
                raise RecordError("a promotion waits only for a revealed pawn in the choose phase")
        if st.left and st.phase != OPEN:
            raise RecordError("squares left wait for their check only in an open turn")
        if st.phase == CHOOSE and not st.promos and not st.to_bury:
            raise RecordError("a choose phase needs a promotion or a burial waiting")
        if any(p >> 4 == st.turn for p in st.to_bury):
            raise RecordError("the mover buries only the opponent's pieces")

    # ------------------------------------------------------------------ views

    def view(self, state: ZombieState, viewer: int | None) -> dict[str, Any]:
        """What ``viewer`` may know: the board, coins, graveyard (which pieces, not where), dust
        bin, the turn's public progress, the viewer's own burials, and the legal actions only
        for the player to act (they depend on that player's burials)."""
        out = super().view(state, viewer)
        out.update({
            "zombies": [self.layout.name(sq) for sq in bits(state.zombies)],
            "graveyard": self.graveyard(state),
            "dust_bin": out["removed"],
            "in_check": self.in_check(state),
            "phase": PHASE_NAMES[state.phase],
            "unmoved_zombies": [self.layout.name(sq) for sq in bits(state.horde)],
            "waiting_burial": [self.piece_letter(p) for p in state.to_bury],
            "waiting_promotion": [self.layout.name(sq) for sq in state.promos],
            "position": self.position_for(state, viewer),
            "last_action": self._last_action(state, viewer),
        })
        if viewer in (WHITE, BLACK):
            out["my_burials"] = {self.layout.name(sq): self.piece_letter(p)
                                 for sq, p in state.burials_of(viewer)}
        # With the CONFIG alternative the list depends on the opponent's map: shown to nobody.
        if (viewer == state.to_act and not self.opp_reveal) or self.legal_is_public(state):
            out["legal"] = sorted(self.format_action(a) for a in self.legal_actions(state))
        return out

    def _last_action(self, st: ZombieState, viewer: int | None) -> str:
        if st.action is None:
            return ""
        actor = st.parent.to_act if st.parent is not None else None
        if st.action.kind == BURY.name and viewer != actor:
            return self.public_action_text(st.action)
        return self.format_action(st.action)

    def render(self, state: ZombieState, viewer: int | None = None) -> str:
        """The board (``*`` after a zombie), graveyard, dust bin, the viewer's own burials and
        whose turn or choice it is; burial squares only for their burier."""
        lines = []
        for y in range(7, -1, -1):
            cells = []
            for x in range(8):
                sq = y * 8 + x
                letter = self.piece_letter(state.board[sq]) or "."
                cells.append(letter + ("*" if state.zombies >> sq & 1 else " "))
            lines.append(f"{y + 1} " + " ".join(cells).rstrip())
        lines.append("  " + "  ".join("abcdefgh"))
        lines.append("Graveyard: " + (" ".join(self.graveyard(state)) or "-"))
        lines.append("Dust bin: " + (" ".join(self.piece_letter(p) for p in state.removed) or "-"))
        if viewer in (WHITE, BLACK):
            mine = self._burial_field(state.burials_of(viewer), True)
            lines.append(f"Your burials ({COLOUR_NAMES[viewer]}): {mine}")
        lines.append(self._turn_line(state))
        return "\n".join(lines)

    def _turn_line(self, st: ZombieState) -> str:
        who = COLOUR_NAMES[st.to_act].capitalize()
        if st.phase == CHOOSE and st.promos:
            where = self.layout.name(st.promos[0])
            return f"{who} chooses the piece for the zombie pawn on {where}"
        if st.phase == CHOOSE:
            return f"{who} buries the captured {self.piece_letter(st.to_bury[0])} (in secret)"
        if st.phase == OPEN:
            horde = " ".join(self.layout.name(sq) for sq in bits(st.horde))
            return f"{who} may move the zombies on {horde}, or end"
        return self.status_line(st)
