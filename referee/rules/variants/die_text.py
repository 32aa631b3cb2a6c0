"""Scenario keys, views, drawings and the position text of Die Chess (the text side of
:class:`~referee.rules.variants.die.Die`, as ``zombie_text`` is Zombie's).
"""

from __future__ import annotations

from typing import Any

from referee.rules.errors import NotationError, RecordError
from referee.rules.fields import pop_rng, read_side, rng_text, side_text
from referee.rules.pieces import (
    BLACK,
    CHESS_KIND_BY_LETTER,
    CHESS_LETTERS,
    COLOUR_NAMES,
    WHITE,
    code,
)
from referee.rules.rng import seed_state
from referee.rules.variants.chesslike import ChessLike
from referee.rules.variants.die_state import FACE_NAMES, LIMIT, DieState


class DieText(ChessLike[DieState]):
    """The position text, drawings and views of Die states."""

    state_class = DieState

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

    def expectation(self, state: DieState, key: str) -> Any:
        if key == "faces":
            return self.faces(state)
        if key == "moves_left":
            return self.moves_left(state)
        raise KeyError(key)

    def view(self, state: DieState, viewer: int | None) -> dict[str, Any]:
        """Everything is public in Die Chess except the referee's generator, left out here."""
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

    def render(self, state: DieState, viewer: int | None = None) -> str:
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

    def position(self, state: DieState, private: bool = True) -> str:
        """``<white die> <black die> <side> <turn> <no-capture turns> <move number>[ rng:HEX]``.

        A die is ``<face><square>:<c>`` (``Qh8:1``, ``pf8:0``), or ``<face>x`` once captured
        as king. ``<turn>`` is ``-`` at the start of a turn, else ``r<rolls>`` (rolls made),
        ``m`` (moved) and ``x`` (captured) run together. The private form adds the referee's
        generator state; the public form never shows it.
        """
        text: str | None = state.cache.get("position")
        if text is None:  # memoised: written several times per state (records, views, tests)
            text = self._position_text(state)
            state.cache["position"] = text
        return f"{text} {rng_text(state.rng)}" if private else text

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
        side = side_text(state.turn)
        return f"{dice[0]} {dice[1]} {side} {turn or '-'} {state.halfmove} {state.fullmove}"

    def from_position(self, text: str, seed: int = 0) -> DieState:
        """A state from :meth:`position` text (without ``rng:`` the generator is seeded).

        Raises:
            RecordError: naming the field that is wrong.
        """
        fields = text.split()
        rng = pop_rng(fields, seed_state(seed), text)
        if len(fields) != 6:
            raise RecordError(f"a Die Chess position has 6 fields (+ rng:), not {len(fields)}")
        st = DieState(self.layout.size, WHITE, rng)
        st.pos, st.count, st.fresh = [-1, -1, -1], [0, 0, 0], False
        for colour, field in zip((WHITE, BLACK), fields[:2], strict=True):
            self._read_die(st, colour, field)
        st.turn = st.to_act = read_side(fields[2])
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
