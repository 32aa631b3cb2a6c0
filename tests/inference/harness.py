"""Drive the referee with events: from physical steps or from event files."""

from __future__ import annotations

import random
from collections.abc import Iterable

from referee.live.physical import Step, changed_squares, physical_steps, sensor_events
from referee.live.session import Referee, Update
from referee.rules import actions as A
from referee.rules.game import Game
from referee.rules.state import State


class Recorder:
    """A subscriber keeping every update."""

    def __init__(self) -> None:
        self.updates: list[Update] = []

    def __call__(self, update: Update) -> None:
        self.updates.append(update)

    def texts(self, kind: str = "action") -> list[str]:
        return [u.text for u in self.updates if u.kind == kind]


def random_physical_game(variant: str, seed: int, max_turns: int = 60, noise: bool = True,
                         private_kinds: Iterable[str] | None = None,
                         within_ms: tuple[int, int] = (15, 90),
                         between_ms: tuple[int, int] = (400, 1200)
                         ) -> tuple[list[str], list[str], Recorder]:
    """A random legal game played by hand through a Referee.

    ``within_ms`` bounds the pauses between two hand movements of one turn, ``between_ms``
    the pause before a turn starts. Returns (the actions chosen, the actions the referee
    recognised, the recorder).
    """
    rng = random.Random(seed)
    truth = Game(variant, seed=seed)
    if private_kinds is None:  # the choices made off the board, as the variant says
        private_kinds = truth.variant.kinds_done_by(*A.OFF_BOARD)
    watched = Game(variant, seed=seed)
    recorder = Recorder()
    private: list[str] = []
    referee = Referee(watched, [recorder], private=private)
    referee.start()
    t = 0
    chosen: list[str] = []
    for _ in range(max_turns):
        t = _private_choices(truth, referee, rng, chosen, tuple(private_kinds), t)
        if truth.outcome.result != "*":
            break
        turn = [rng.choice(truth.legal())]
        before = truth.state
        truth.play(turn[0])
        while truth.outcome.result == "*" and truth.state.to_act == before.to_act \
                and truth.legal() and truth.legal()[0].kind in truth.variant.placing_kinds:
            turn.append(rng.choice(truth.legal()))
            truth.play(turn[-1])
        chosen += [truth.variant.format_action(a) for a in turn]
        steps = physical_steps(truth.variant, before, turn, rng, noise=noise,
                               within_ms=within_ms)
        events, t = sensor_events(truth.variant, steps, t + rng.randint(*between_ms))
        for ev in events:
            referee.feed(ev)
    referee.finish()
    return chosen, referee.game.action_texts(), recorder


def _private_choices(truth: Game, referee: Referee, rng: random.Random, chosen: list[str],
                     kinds: tuple[str, ...], t: int) -> int:
    """Choices made off the board (a phone): given once the referee has settled the board."""
    while truth.outcome.result == "*" and truth.legal() and truth.legal()[0].kind in kinds:
        t += 1000
        referee.tick(t)
        secret = truth.variant.format_action(rng.choice(truth.legal()))
        before = truth.state
        truth.play(secret)
        chosen.append(secret)
        referee.private_action(secret)
        # what the choice changes on the board (a rotting zombie) the players then carry out
        steps = [Step(s.kind, s.square, s.letter, gap_ms=s.gap_ms)
                 for s in _board_changes(truth, before)]
        events, t = sensor_events(truth.variant, steps, t + 500)
        for ev in events:
            referee.feed(ev)
    return t


def _board_changes(truth: Game, before: State) -> list[Step]:
    lifts, places = changed_squares(before, truth.state)
    return [Step("lift", sq) for sq in lifts] + [
        Step("place", sq, truth.variant.piece_letter(truth.state.board[sq])) for sq in places]
