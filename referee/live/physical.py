"""What a person does on the board to carry out actions: lifts, places, die readings.

:func:`physical_steps` turns one turn's actions into the hand movements that make the board
match the new state, in a random order a person might use (the mover's own piece first or the
victim first, the castling rook first or last), optionally with noise: switch bounce, a brushed
empty square, a piece lifted and put back. The demo drives the simulated board with these
steps; the property tests check that move inference recovers exactly the actions.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from firmware_bridge.events import Button, Die, Lift, Place, SensorEvent
from referee.rules import actions as A
from referee.rules.actions import Action
from referee.rules.state import State
from referee.rules.variant import Variant


@dataclass(frozen=True)
class Step:
    """One sensor-level thing a person causes.

    ``kind`` is ``lift``, ``place``, ``die`` (``value`` = face) or ``button`` (``value`` = name);
    ``square`` is a global square index (-1 when none); ``letter`` the piece put down;
    ``gap_ms`` the time since the previous step.
    """

    kind: str
    square: int = -1
    letter: str = ""
    value: str = ""
    gap_ms: int = 60


def sensor_events(variant: Variant[Any], steps: Sequence[Step],
                  start_ms: int) -> tuple[list[SensorEvent], int]:
    """The sensor events ``steps`` cause, timed from ``start_ms``; returns them and the time of
    the last one (milliseconds)."""
    name = variant.layout.name
    out: list[SensorEvent] = []
    t = start_ms
    for step in steps:
        t += step.gap_ms
        if step.kind == "lift":
            out.append(Lift(t, name(step.square)))
        elif step.kind == "place":
            out.append(Place(t, name(step.square), None))
        elif step.kind == "die":
            out.append(Die(t, int(step.value)))
        else:
            out.append(Button(t, step.value))
    return out, t


def changed_squares(before: State, after: State) -> tuple[list[int], list[int]]:
    """(squares to lift, squares to fill) to turn ``before``'s board into ``after``'s."""
    lifts, places = [], []
    for sq, (p0, p1) in enumerate(zip(before.board, after.board, strict=True)):
        same_piece = p0 == p1 and before.ids[sq] == after.ids[sq]
        if p0 and not same_piece:
            lifts.append(sq)
        if p1 and not same_piece:
            places.append(sq)
    return lifts, places


def physical_steps(variant: Variant[Any], before: State, actions: Sequence[Action],
                   rng: random.Random, *, noise: bool = False,
                   within_ms: tuple[int, int] = (15, 90)) -> list[Step]:
    """Hand movements for ``actions`` (applied in order from ``before``).

    Rolls become a die reading; ``pass``/``end`` a press of the mover's clock. Gaps inside a
    turn are drawn from ``within_ms`` (keep them below the inference's settle time).
    """
    steps: list[Step] = []
    state = before
    for action in actions:
        after = variant.apply(state, action)
        how = variant.kinds[action.kind].done_by if action.kind in variant.kinds else ""
        if how == A.DIE:
            face = after.action.value if after.action is not None else action.value
            steps.append(Step("die", value=face, gap_ms=rng.randint(*within_ms)))
        elif how == A.CLOCK:
            name = "clock-white" if state.to_act == 1 else "clock-black"
            steps.append(Step("button", value=name, gap_ms=rng.randint(*within_ms)))
        elif action.kind == A.MOVE and after.board == state.board:
            steps += _failed_attempt(variant, state, action, rng, within_ms)
        else:
            steps += _board_steps(variant, state, after, rng, within_ms)
            steps += _promotion_buttons(variant, state, action, rng)
        state = after
    if noise:
        steps = _add_noise(steps, before, rng)
    return steps


def _board_steps(variant: Variant[Any], before: State, after: State, rng: random.Random,
                 within_ms: tuple[int, int]) -> list[Step]:
    lifts, places = changed_squares(before, after)
    rng.shuffle(lifts)
    origin = {before.ids[sq]: sq for sq in lifts}  # where each lifted piece came from
    order: list[Step] = [Step("lift", sq) for sq in lifts]
    for sq in places:
        letter = variant.piece_letter(after.board[sq])
        # A piece is put down only after its square was emptied and the piece itself picked up
        # (a piece from off the board - a revealed zombie, a reset Sethling - needs no lift).
        needs = {sq, origin.get(after.ids[sq], -1)}
        earliest = max((i + 1 for i, s in enumerate(order)
                        if s.kind == "lift" and s.square in needs), default=0)
        order.insert(rng.randint(earliest, len(order)), Step("place", sq, letter))
    return [Step(s.kind, s.square, s.letter, gap_ms=rng.randint(*within_ms)) for s in order]


def _failed_attempt(variant: Variant[Any], state: State, action: Action, rng: random.Random,
                    within_ms: tuple[int, int]) -> list[Step]:
    """A refused capture attempt: the capture is made, the referee says no, both go back."""
    frm, to = action.frm, action.to
    mover, victim = (variant.piece_letter(state.board[sq]) for sq in (frm, to))
    first = [Step("lift", frm), Step("lift", to)]
    rng.shuffle(first)
    steps = first + [Step("place", to, mover)]
    steps = [Step(s.kind, s.square, s.letter, gap_ms=rng.randint(*within_ms)) for s in steps]
    back = [Step("lift", to, gap_ms=rng.randint(400, 800)), Step("place", to, victim),
            Step("place", frm, mover)]
    return steps + [Step(s.kind, s.square, s.letter, gap_ms=s.gap_ms if s.gap_ms != 60 else
                         rng.randint(*within_ms)) for s in back]


def _promotion_buttons(variant: Variant[Any], state: State, action: Action,
                       rng: random.Random) -> list[Step]:
    """A board that cannot tell pieces apart asks for the promotion piece on the display: the
    player presses ``back`` to step through the choices (the first is the default) and then
    ``confirm``, after reading the prompt (longer than the settle time)."""
    from referee.live.inference import promotion_order

    if action.kind not in variant.board_kinds:
        return []
    legal = set(variant.legal_actions(state))
    offered = [p for p in promotion_order(variant) if action._replace(promo=p) in legal]
    if len(offered) < 2:
        return []
    presses = offered.index(action.promo)
    steps = [Step("button", value="back", gap_ms=rng.randint(300, 600) if i == 0 else 120)
             for i in range(presses)]
    return steps + [Step("button", value="confirm", gap_ms=rng.randint(300, 600))]


def _add_noise(steps: list[Step], before: State, rng: random.Random) -> list[Step]:
    """Bounce on a handled square, or brush an empty square, at a random point."""
    handled = [s for s in steps if s.kind in ("lift", "place")]
    if not handled:
        return steps
    at = rng.randrange(len(steps) + 1)
    pick = rng.random()
    if pick < 0.5:
        last = handled[-1]
        flips = [Step("lift", last.square, gap_ms=3), Step("place", last.square, last.letter,
                                                            gap_ms=3)]
        return steps + flips if last.kind == "place" else steps
    empty = [sq for sq, p in enumerate(before.board) if not p and
             all(s.square != sq for s in handled)]
    if not empty:
        return steps
    sq = rng.choice(empty)
    brush = [Step("place", sq, gap_ms=8), Step("lift", sq, gap_ms=12)]
    return steps[:at] + brush + steps[at:]
