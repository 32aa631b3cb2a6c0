"""A game in progress: one variant, its states, the actions and what happened.

:class:`Game` is the single owner of a game's state. Everything outside (outputs, pages, the
inference layer) receives the immutable :class:`~referee.rules.state.State` values or the events it
hands out, never a mutable structure that the game keeps changing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee.rules.actions import Action
from referee.rules.errors import IllegalActionError
from referee.rules.events import GameEnded, GameEvent
from referee.rules.state import PAST_CACHE, RECENT_CACHE, State
from referee.rules.variant import Outcome, Variant
from referee.rules.variants import make_variant

ADJUDICATE = "adjudicate"  # a game ended off the board (flag fall, arbiter); not replayable


@dataclass(frozen=True)
class Played:
    """One applied action: its canonical text, who made it and the events it caused."""

    ply: int
    action: Action
    text: str
    actor: int
    events: tuple[GameEvent, ...]


class Game:
    """A game of ``variant`` from its start (or from ``state``), seeded with ``seed``.

    Raises (from the constructor): UnknownVariantError, VariantNotImplementedError, OptionError.
    """

    def __init__(self, variant: Variant[Any] | str, options: Mapping[str, Any] | None = None,
                 seed: int = 0, state: State | None = None) -> None:
        self.variant = make_variant(variant, options) if isinstance(variant, str) else variant
        self.seed = seed
        self.start = state if state is not None else self.variant.initial_state(seed)
        self.state = self.start
        self.played: list[Played] = []

    @property
    def outcome(self) -> Outcome:
        """The result so far (``*`` while the game goes on)."""
        return self.variant.outcome(self.state)

    def legal(self) -> list[Action]:
        """The legal actions for the side to act now."""
        return self.variant.legal_actions(self.state)

    def legal_texts(self) -> list[str]:
        """The legal actions as canonical NOTATION.md text."""
        return [self.variant.format_action(a) for a in self.legal()]

    def parse(self, text: str) -> Action:
        """Parse ``text`` in the current position (raises NotationError)."""
        return self.variant.parse_action(text, self.state)

    def play(self, action: Action | str) -> Played:
        """Check and apply one action (text or parsed).

        Raises:
            NotationError: the text is not an action of this variant.
            IllegalActionError: the action is not legal now; the state is unchanged.
        """
        if isinstance(action, str):
            action = self.parse(action)
        actor = self.state.to_act
        events: list[GameEvent] = []
        new = self.variant.play(self.state, action, events)
        resolved = new.action if new.action is not None else action
        played = Played(self.state.ply + 1, resolved, self.variant.format_action(resolved),
                        actor, tuple(events))
        self._retire(self.state)
        self.state = new
        self.played.append(played)
        return played

    @staticmethod
    def _retire(old: State) -> None:
        """``old`` is history now: it keeps only what the rules need of the past."""
        old.retire(RECENT_CACHE)
        if old.parent is not None:
            old.parent.retire(PAST_CACHE)

    def adjudicate(self, result: str, reason: str) -> Played:
        """End the game from outside the board (a fallen flag, an arbiter's decision).

        Raises:
            IllegalActionError: the game is already over, or ``result`` is not a result.
        """
        if result not in ("1-0", "0-1", "1/2-1/2") or self.outcome.result != "*":
            raise IllegalActionError(result, "the game cannot be ended that way now")
        new = self.state.copy()
        new.result, new.reason = result, reason
        event = GameEnded(f"{reason} - {result}", result=result, reason=reason)
        played = Played(new.ply, Action(ADJUDICATE, value=result), reason, 0, (event,))
        self._retire(self.state)
        self.state = new
        self.played.append(played)
        return played

    def undo(self) -> Played:
        """Take back the last action (raises IllegalActionError at the start)."""
        if not self.played or self.state.parent is None:
            raise IllegalActionError("undo", "nothing to take back")
        self.state = self.state.parent
        return self.played.pop()

    def action_texts(self) -> list[str]:
        """Every action played on the board or chosen so far, in canonical text (an
        adjudication is not an action: the record keeps it as the result)."""
        return [p.text for p in self.played if p.action.kind != ADJUDICATE]

    def public_action_texts(self) -> list[str]:
        """:meth:`action_texts` as everyone may see them: secret choices (a Zombie burial
        square, a Masquerade assignment) hidden. Every public output uses these."""
        return [self.variant.public_action_text(p.action) for p in self.played
                if p.action.kind != ADJUDICATE]
