"""Masquerade Chess (RULINGS.md §6): standard moves, secret capture patterns, capture attempts.

Before play each side secretly gives the other's non-pawn piece types a permutation σ of the
capture patterns K, Q, R, B, N: White first (``assign=black:KK,QQ,RR,BB,NN``), then Black
(``assign=white:...``); with ``masq.assignment=random`` the referee draws both from its seeded
generator and play starts at once. A move onto an enemy piece by a non-pawn is a capture
*attempt*: it succeeds iff σ(piece) reaches the target from the piece's square (slider paths
clear); otherwise nothing moves and the turn passes. Pawns capture normally (en passant too).
No check; capturing the king wins; a player with nothing possible passes.

Squares are the 64 global indices of :class:`~referee.rules.variants.chesslike.ChessLike`
(``rank * 8 + file``). σ is stored per colour as a 7-tuple indexed by piece kind (PAWN..KING)
giving the kind whose *pattern* the piece captures with.

Hidden information: σ of White's pieces is known to Black only, σ of Black's pieces to White
only; spectators know neither. Anything a player's legal set or a rule outcome depends on is
computed without the mover's own σ (the plausible filter uses the five patterns, not σ), so the
legal set never tells a player about their own pieces; only the public attempt results do.
"""

from __future__ import annotations

from typing import Any, ClassVar, Final

from referee.rules import actions as A
from referee.rules.actions import Action
from referee.rules.events import Announcement, CaptureAttempt, GameEvent, Moved
from referee.rules.fields import castling_text
from referee.rules.geometry import DIAGONAL, ORTHOGONAL, Geometry, Layout, Region, standard_board
from referee.rules.pieces import (
    BISHOP,
    BLACK,
    CHESS_LETTERS,
    COLOUR_NAMES,
    KING,
    KNIGHT,
    PAWN,
    QUEEN,
    ROOK,
    WHITE,
)
from referee.rules.rng import shuffle
from referee.rules.variant import BOOL, ONGOING, OptionSpec, Outcome, draw, win_for
from referee.rules.variants.masquerade_state import (
    ASSIGN_ROWS,
    ROW_LETTERS,
    SIGMA_TEXTS,
    Attempt,
    MasqState,
    deduction_table,
    parse_assignment,
    sigma_from_text,
    sigma_text,
)
from referee.rules.variants.masquerade_text import MasqueradeText

SECRET: Final = "(secret)"
_PASS: Final = A.simple(A.PASS)
#: Per kind, per direction (``geometry.DIRECTIONS``): how many empty squares it may move.
_ALONG: Final = {
    kind: tuple(0 if d not in dirs else 1 if kind == KING else 7 for d in range(8))
    for kind, dirs in ((KNIGHT, ()), (BISHOP, DIAGONAL), (ROOK, ORTHOGONAL),
                       (QUEEN, ORTHOGONAL + DIAGONAL), (KING, ORTHOGONAL + DIAGONAL))
}



def _line_tables() -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[tuple[int, ...], ...], ...]]:
    """Per pair of squares of the 8x8 board: which line patterns join them, and the squares
    between.

    ``bits[s][t]`` has the ROOK bit for a shared rank/file, the BISHOP bit for a shared
    diagonal (and the QUEEN bit in both cases); ``between[s][t]`` are the squares a slider
    passes. Knight and king reach come from the rule tables.
    """
    layout = Layout([Region("board", standard_board(), implicit=True)])
    geo = Geometry.build(layout, range(layout.size))
    bits = [[0] * layout.size for _ in range(layout.size)]
    between: list[list[tuple[int, ...]]] = [[()] * layout.size for _ in range(layout.size)]
    for s in range(layout.size):
        for d in range(8):
            bit = (1 << ROOK if d in ORTHOGONAL else 1 << BISHOP) | 1 << QUEEN
            ray = geo.rays[d][s]
            for i, t in enumerate(ray):
                bits[s][t] = bit
                between[s][t] = ray[:i]
    return tuple(map(tuple, bits)), tuple(map(tuple, between))


# Immutable tables for the 8x8 board, built once: the move actions (one shared Action per
# (from, to), so generation allocates nothing per move) and the line tables.
_MOVES: Final = tuple(tuple(Action(A.MOVE, f, t) for t in range(64)) for f in range(64))
_LINE_BITS, _BETWEEN = _line_tables()


ASSIGN: Final = A.ActionKind(
    "assign", A.VALUE, A.SECRET,
    "assign=COLOUR:KX,QX,RX,BX,NX: at the start each side secretly chooses how the other "
    "side's pieces capture (play guides you)",
    read=parse_assignment,
    arrangement=A.Arrangement(
        ASSIGN_ROWS, ("king", "queen", "rooks", "bishops", "knights"), "piece",
        "capture pattern", "how {side}'s pieces capture", "capture like which piece?",
        "RKNBQ: the king captures like a rook..."))
MOVES: Final = A.moves(
    "e4, Nf3, O-O (SAN) or e2e4: move; a piece capture (Nxe5) is an attempt that fails when the "
    "secret pattern does not reach")


class Masquerade(MasqueradeText):
    """Masquerade Chess (Don Kirkby)."""

    name = "masquerade"
    title = "Masquerade Chess"
    action_kinds = (MOVES, ASSIGN, A.PASS_KIND)
    fifty_option = "masq.fifty_move"
    repetition_option = "masq.repetition_draw"
    option_specs: ClassVar = (
        OptionSpec("masq.assignment", "player_chosen",
                   "player_chosen: two assign= actions; random: the referee draws both",
                   ("player_chosen", "random")),
        OptionSpec("masq.promoted_capture", "sigma_of_new_type",
                   "a promoted piece captures by σ of its new type, or normally (true_normal)",
                   ("sigma_of_new_type", "true_normal")),
        OptionSpec("masq.attempt_filter", "plausible",
                   "plausible: the target must be reachable by some K/Q/R/B/N pattern; "
                   "any: any enemy piece may be tried", ("plausible", "any")),
        OptionSpec("masq.castle_ignores_attacks", True,
                   "castling through or into attacked squares is allowed", BOOL),
        OptionSpec("masq.no_move", "pass", "with nothing possible: pass, or the game is drawn",
                   ("pass", "draw")),
        OptionSpec(repetition_option, False, "threefold repetition draws", BOOL),
        OptionSpec(fifty_option, True,
                   "50-move rule (failed attempts count as non-capture, non-pawn moves)", BOOL),
    )

    def __init__(self, options: dict[str, Any] | None = None) -> None:
        super().__init__(options)
        o = self.options
        self.random_assignment: bool = o["masq.assignment"] == "random"
        self.promoted_normal: bool = o["masq.promoted_capture"] == "true_normal"
        self.plausible_only: bool = o["masq.attempt_filter"] == "plausible"
        self.castle_ignores_attacks: bool = o["masq.castle_ignores_attacks"]
        self.pass_when_stuck: bool = o["masq.no_move"] == "pass"
        self.assign_actions: dict[int, tuple[Action, ...]] = {
            c: tuple(A.simple(ASSIGN.name, f"{COLOUR_NAMES[c]}:{t}") for t in SIGMA_TEXTS)
            for c in (WHITE, BLACK)
        }
        size = self.layout.size
        assert size == 64  # the tables below are for ChessLike's board, a1 = 0 ... h8 = 63
        self.moves = _MOVES
        self.line_bits, self.between = _LINE_BITS, _BETWEEN
        self.knight_sets = tuple(frozenset(t) for t in self.rules.knight)
        self.king_sets = tuple(frozenset(t) for t in self.rules.king)
    # ------------------------------------------------------------------ geometry of patterns

    def reach_mask(self, board: list[int], frm: int, to: int) -> int:
        """Bit mask (bit = kind) of the five capture patterns that reach ``to`` from ``frm``.

        Computed from the board alone, never from σ: it is public knowledge.
        """
        mask = 0
        line = self.line_bits[frm][to]
        if line and not any(board[s] for s in self.between[frm][to]):
            mask = line
        if to in self.king_sets[frm]:
            mask |= 1 << KING
        if to in self.knight_sets[frm]:
            mask |= 1 << KNIGHT
        return mask

    def capture_pattern(self, state: MasqState, sq: int) -> int:
        """The kind whose pattern the piece on ``sq`` captures with (PAWN for pawns)."""
        piece = state.board[sq]
        kind = piece & 15
        if kind == PAWN or (self.promoted_normal and state.ids[sq] in state.promoted):
            return kind
        sigma = state.sigma[piece >> 4]
        assert sigma is not None
        return sigma[kind]

    def known_capturer(self, state: MasqState, sq: int) -> bool:
        """Whether everyone knows how the piece on ``sq`` captures (pawns; promoted pieces
        with ``true_normal``): its captures are ordinary moves, not attempts."""
        return state.board[sq] & 15 == PAWN or (
            self.promoted_normal and state.ids[sq] in state.promoted)

    # ------------------------------------------------------------------ rules

    def initial_state(self, seed: int = 0) -> MasqState:
        st = super().initial_state(seed)
        if self.random_assignment:
            # Black's σ first, as White assigns first when players choose (§6.4).
            st.rng, black = shuffle(st.rng, list(ROW_LETTERS))
            st.rng, white = shuffle(st.rng, list(ROW_LETTERS))
            st.sigma[BLACK] = sigma_from_text(",".join(r + c for r, c in zip(ROW_LETTERS, black,
                                                                              strict=True)))
            st.sigma[WHITE] = sigma_from_text(",".join(r + c for r, c in zip(ROW_LETTERS, white,
                                                                              strict=True)))
        return st

    def generate(self, state: MasqState) -> list[Action]:
        target = self.assigning(state)
        if target:
            return list(self.assign_actions[target])
        out: list[Action] = []
        us = state.turn
        board = state.board
        for sq in self.rules.squares:
            p = board[sq]
            if p and p >> 4 == us:
                if p & 15 == PAWN:
                    self._pawn_moves(state, sq, us, out)
                else:
                    self._piece_moves(state, sq, p & 15, us, out)
        if state.castling:
            self._castling(state, us, out)
        if not out and self.pass_when_stuck:
            out.append(_PASS)  # nothing possible: pass (§6.6, masq.no_move=pass)
        return out

    def _pawn_moves(self, state: MasqState, sq: int, us: int, out: list[Action]) -> None:
        """Pawn pushes and normal pawn captures (en passant included): known moves."""
        rules, board = self.rules, state.board
        targets = rules.pawn_pushes(board, sq, us)
        them = 3 - us
        for t in rules.caps[us][sq]:
            q = board[t]
            if (q and q >> 4 == them) or t == state.ep:
                targets.append(t)
        promo = rules.promotion[us]
        for t in targets:
            if t in promo:
                out.extend(Action(A.MOVE, sq, t, letter) for letter in self.promo_letters)
            else:
                out.append(self.moves[sq][t])

    def _piece_moves(self, state: MasqState, sq: int, kind: int, us: int,
                     out: list[Action]) -> None:
        """Non-capturing moves by the piece's own pattern, and its capture attempts.

        The common case (plausible filter, σ applies) walks each of the eight lines once: the
        empty squares are moves when the piece moves that way, the first piece met is a
        plausible target when it is an enemy; knight leaps likewise.
        """
        board, rules = state.board, self.rules
        append = out.append
        them = 3 - us
        moves = self.moves[sq]
        simple = self.plausible_only and not self.known_capturer(state, sq)
        along = _ALONG[kind]
        rays = rules.rays
        for d in range(8):
            steps = along[d]
            for t in rays[d][sq]:
                q = board[t]
                if q:
                    if simple and q >> 4 == them:
                        append(moves[t])
                    break
                if steps:
                    append(moves[t])
                    steps -= 1
                elif not simple:
                    break
        for t in rules.knight[sq]:
            q = board[t]
            if not q:
                if kind == KNIGHT:
                    append(moves[t])
            elif simple and q >> 4 == them:
                append(moves[t])
        if simple:
            return
        if self.known_capturer(state, sq):  # a true_normal promoted piece: known captures
            for t in self._enemy_targets(board, sq, them):
                if self.reach_mask(board, sq, t) >> kind & 1:
                    append(moves[t])
            return
        for t in self._enemy_targets(board, sq, them):
            append(moves[t])

    def _enemy_targets(self, board: list[int], sq: int, them: int) -> list[int]:
        """Enemy squares a piece on ``sq`` may try to capture.

        With the plausible filter: the first piece on each of the eight lines and the knight
        leaps, i.e. targets reachable by at least one of K/Q/R/B/N with standard blocking.
        This depends only on the board, never on σ, so the legal set tells the mover nothing
        about their own secret patterns (the leak a σ-based filter would open).
        """
        if not self.plausible_only:
            return [t for t in self.rules.squares if board[t] and board[t] >> 4 == them]
        out = []
        for d in range(8):
            for t in self.rules.rays[d][sq]:
                q = board[t]
                if q:
                    if q >> 4 == them:
                        out.append(t)
                    break
        out.extend(t for t in self.rules.knight[sq] if board[t] and board[t] >> 4 == them)
        return out

    def _castling(self, state: MasqState, us: int, out: list[Action]) -> None:
        """Usual castling conditions; attacks ignored by default (§6.5).

        With ``masq.castle_ignores_attacks=false`` the king may still castle out of check
        (SOURCE) but not through or into a square the opponent's pieces attack by their σ.
        That σ was chosen by the mover, so the test reveals nothing to the mover, and it
        never looks at the mover's own σ.
        """
        board = state.board
        rook = ROOK | us << 4
        king = KING | us << 4
        for rule in self.rules.castles[us]:
            if (not state.castling & rule.bit or board[rule.king_from] != king
                    or board[rule.rook_from] != rook):
                continue
            if any(board[s] for s in rule.empty):
                continue
            if not self.castle_ignores_attacks and any(
                    self.attacked_by_sigma(state, s, 3 - us) for s in rule.safe):
                continue
            out.append(self.moves[rule.king_from][rule.king_to])

    def attacked_by_sigma(self, state: MasqState, sq: int, by: int) -> bool:
        """Whether a piece of ``by`` could capture on ``sq`` with its real capture pattern."""
        board = state.board
        for t in self.rules.pawn_from[by][sq]:
            if board[t] == PAWN | by << 4:
                return True
        for t in self.rules.squares:
            p = board[t]
            if p and p >> 4 == by and p & 15 != PAWN:
                if self.reach_mask(board, t, sq) >> self.capture_pattern(state, t) & 1:
                    return True
        return False

    def apply(self, state: MasqState, action: Action,
              events: list[GameEvent] | None = None) -> MasqState:
        new = state.copy()
        if action.kind == ASSIGN.name:
            self._assign(new, action, events)
            return new
        if action.kind == A.PASS:
            new.ep = -1
            new.halfmove += 1
            if events is not None:
                events.append(Announcement(
                    f"{COLOUR_NAMES[new.turn].capitalize()} has nothing possible and passes"))
        else:
            board = new.board
            victim = board[action.to]
            if victim and not self.known_capturer(new, action.frm):
                self._attempt(new, action, events)
            else:
                self._move(new, action, events)
        self.end_turn(new)
        return new

    def _assign(self, new: MasqState, action: Action, events: list[GameEvent] | None) -> None:
        colour_name, _, rows = action.value.partition(":")
        target = WHITE if colour_name == "white" else BLACK
        new.sigma[target] = sigma_from_text(rows)
        chooser = 3 - target
        new.to_act = target  # Black assigns next, then White moves first
        if events is not None:
            # The permutation goes to its chooser only; everyone else learns that it was made.
            events.append(Announcement(
                f"{COLOUR_NAMES[chooser].capitalize()} has secretly assigned "
                f"{COLOUR_NAMES[target].capitalize()}'s capture patterns"))
            events.append(Announcement(
                f"You gave {COLOUR_NAMES[target].capitalize()}'s pieces: {rows}",
                audience=chooser))

    def _attempt(self, new: MasqState, action: Action, events: list[GameEvent] | None) -> None:
        """A non-pawn tries to capture: succeeds iff its σ pattern reaches the target."""
        board, frm, to = new.board, action.frm, action.to
        us = board[frm] >> 4
        kind = board[frm] & 15
        mask = self.reach_mask(board, frm, to)
        ok = bool(mask >> self.capture_pattern(new, frm) & 1)
        new.attempts = new.attempts + ((us, kind, frm, to, ok, mask),)
        new.attempt_log = new.attempt_log + (self.attempt_text(new.attempts[-1]),)
        known = list(new.consistent)
        known[us] = tuple(s for s in known[us] if bool(mask >> s[kind] & 1) == ok)
        new.consistent = tuple(known)
        tables = list(new.deduced)
        tables[us] = deduction_table(known[us])
        new.deduced = tuple(tables)
        if events is not None:
            name = self.layout.name
            letter = self.piece_letter(board[frm])
            verdict = "captures" if ok else "fails: nothing moves"
            events.append(CaptureAttempt(
                f"{letter} {name(frm)}x{name(to)}? {verdict}", frm=name(frm), to=name(to),
                succeeded=ok))
        if ok:
            self._move(new, action, events)
        else:
            new.ep = -1  # the turn passes: en passant is no longer "immediately after"
            new.halfmove += 1  # a failed attempt is a non-capture, non-pawn move (§6.6)

    def _move(self, new: MasqState, action: Action, events: list[GameEvent] | None) -> None:
        record = self.rules.make_move(new, action)
        if record.captured_id in new.promoted:
            new.promoted = new.promoted - {record.captured_id}
        if action.promo:
            new.promoted = new.promoted | {new.ids[action.to]}
        if events is not None:
            self.move_events(action, record.piece, record.captured, record.captured_on, events)
            if record.rook is not None:
                name = self.layout.name
                rook = self.piece_letter(new.board[record.rook[1]])
                events.append(Moved(f"{rook} {name(record.rook[0])}-{name(record.rook[1])}",
                                    piece=rook, frm=name(record.rook[0]),
                                    to=name(record.rook[1])))

    def in_check(self, state: MasqState) -> bool:
        return False  # no check in Masquerade (RULINGS §6.8 #6)

    def rule_outcome(self, state: MasqState, legal: list[Action]) -> Outcome:
        if self.assigning(state):
            return ONGOING
        board = state.board
        for colour in (WHITE, BLACK):
            if KING | colour << 4 not in board:
                return win_for(3 - colour, f"the {COLOUR_NAMES[colour]} king was captured")
        if not legal:
            return draw("no possible move (masq.no_move=draw)")
        return self.standard_draws(state, fifty=self.options[self.fifty_option],
                                   repetition=self.options[self.repetition_option])

    def position_key(self, state: MasqState) -> tuple[Any, ...]:
        """Board, side, castling, a usable en passant square, both σ (hidden state) and, when
        promoted pieces capture normally, which pieces are promoted. The attempt history is
        not part of it: a failed attempt repeats the position (§6.6)."""
        base = super().position_key(state)
        return (base, state.sigma[WHITE], state.sigma[BLACK], self._promoted_squares(state))

    def why_move_illegal(self, state: MasqState, action: Action) -> str:
        """A reason that never depends on σ (the mover may not learn their own patterns)."""
        board = state.board
        frm, to = action.frm, action.to
        piece = board[frm] if 0 <= frm < len(board) else 0
        if not piece:
            return f"there is no piece on {self.layout.name(frm)}"
        if piece >> 4 != state.to_act:
            return f"the piece on {self.layout.name(frm)} is not {COLOUR_NAMES[state.to_act]}'s"
        if board[to] and board[to] >> 4 == piece >> 4:
            return "you cannot capture your own piece"
        if board[to] and piece & 15 != PAWN:
            return "no capture pattern could reach that piece (not a plausible attempt)"
        return "that piece cannot move there"

    # ------------------------------------------------------------------ knowledge and views

    def deductions(self, state: MasqState, colour: int) -> dict[str, str]:
        """What the public attempt history proves about ``colour``'s σ.

        One row per piece type (``K Q R B N``), one letter per capture pattern in the same
        column order: ``O`` proven, ``X`` ruled out, ``?`` open (see :func:`deduction_table`);
        ``{"N": "?XXXX"}`` says the knights capture like a king. It uses only public facts, so
        it is safe to show to anyone; players get it for their own pieces (§6.7, the private
        help table).
        """
        table = state.deduced[colour]
        return {row: table[5 * i:5 * i + 5] for i, row in enumerate(ROW_LETTERS)}

    def attempt_text(self, attempt: Attempt) -> str:
        """One public attempt: ``Nc3xd5 failed`` (White's knight), ``qd8xd5 succeeded``."""
        colour, kind, frm, to, ok, _ = attempt
        letter = CHESS_LETTERS[kind] if colour == WHITE else CHESS_LETTERS[kind].lower()
        return (f"{letter}{self.names[frm]}x{self.names[to]} "
                f"{'succeeded' if ok else 'failed'}")

    def public_action_text(self, action: Action, viewer: int | None = None) -> str:
        """How a move list shown to ``viewer`` writes ``action``.

        An assignment is shown in full only to its chooser (``assign=black:...`` to White);
        everyone else sees ``assign=black:(secret)``. Records keep the full text: they are the
        referee's private copy.
        """
        if action.kind == ASSIGN.name:
            colour_name = action.value.partition(":")[0]
            chooser = BLACK if colour_name == "white" else WHITE
            if viewer != chooser:
                return f"assign={colour_name}:{SECRET}"
        return self.format_action(action)

    def legal_is_public(self, state: MasqState) -> bool:
        """The legal set depends on no secret (the plausible filter ignores σ), except castling
        when attacks count: whether the opponent's pieces attack f1/g1 follows from the
        opponent's own σ, which the opponent must not learn from a shared screen."""
        return self.castle_ignores_attacks

    def view(self, state: MasqState, viewer: int | None) -> dict[str, Any]:
        """What ``viewer`` may know: the board, the public attempt history, the σ the viewer
        chose (or was shown) for the opponent, and deductions from public facts only.

        Never the viewer's own σ, never the referee's generator.
        """
        outcome = self.outcome(state)
        letters, names = self.letters, self.names
        out: dict[str, Any] = {
            "variant": self.name,
            "squares": {names[sq]: letters[p] for sq, p in enumerate(state.board) if p},
            "turn": COLOUR_NAMES[state.turn], "to_act": COLOUR_NAMES[state.to_act],
            "result": outcome.result, "reason": outcome.reason,
            "removed": sorted(self.piece_letter(p) for p in state.removed), "ply": state.ply,
        }
        name = self.layout.name
        out["phase"] = "assign" if self.assigning(state) else "play"
        out["castling"] = castling_text(state.castling).strip("-")
        out["en_passant"] = name(state.ep) if state.ep >= 0 else None
        out["halfmove"], out["fullmove"] = state.halfmove, state.fullmove
        out["assigned"] = {COLOUR_NAMES[c]: state.sigma[c] is not None for c in (WHITE, BLACK)}
        out["promoted"] = [name(s) for s in self._promoted_squares(state)]
        out["attempts"] = list(state.attempt_log)
        if viewer in (WHITE, BLACK):
            theirs = state.sigma[3 - viewer]
            # The opponent's σ: chosen by the viewer (or shown to them in random mode).
            out["opponent_patterns"] = sigma_text(theirs) if theirs is not None else None
            out["deductions"] = {COLOUR_NAMES[viewer]: self.deductions(state, viewer)}
        else:
            out["deductions"] = {COLOUR_NAMES[c]: self.deductions(state, c)
                                 for c in (WHITE, BLACK)}
        return out

    def render(self, state: MasqState, viewer: int | None = None) -> str:
        lines = self.draw_grid(state, "board", 8, 8)
        target = self.assigning(state)
        if target:
            lines.append(f"Setup: {COLOUR_NAMES[3 - target].capitalize()} secretly assigns "
                         f"{COLOUR_NAMES[target].capitalize()}'s capture patterns")
        tried = state.attempts
        if tried:
            lines.append(f"Last attempt: {self.attempt_text(tried[-1])} "
                         f"({len(tried)} attempts so far)")
        if viewer in (WHITE, BLACK):
            theirs = state.sigma[3 - viewer]
            lines.append(f"Opponent's patterns: {sigma_text(theirs) if theirs else '-'}")
        lines.append(self.status_line(state))
        return "\n".join(lines)



__all__ = ["Masquerade", "MasqState", "sigma_text", "sigma_from_text"]
