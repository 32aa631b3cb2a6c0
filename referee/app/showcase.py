"""Curated showcase games for ``gravekeeper demo``: what each variant is, in a few turns.

Random play from the start position almost never shows a variant's point within the demo's
default steps (no capture, so no tombstone, no ghost, no burial). So the demo plays a short
script per variant in which its signature happens: the scripts are data in
``referee/app/showcases/VARIANT.txt``, one or more actions per line in NOTATION.md form, each line
optionally followed by ``# what the demo says about it``; lines starting with ``#`` are comments.
A test plays every script through the engine and through the demo, so a script can never go
stale silently when a rule changes: it fails loudly instead.

Notes are printed on the demo's stdout, a public stream: they must never tell a secret (a burial
square, an assignment). The scripted actions themselves are the referee's private input.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

from referee.rules.actions import Action
from referee.rules.errors import RefereeError
from referee.rules.game import Game

FOLDER = "showcases"


@dataclass(frozen=True)
class Scripted:
    """One scripted action: its NOTATION.md ``text`` and the ``note`` said about it (or "")."""

    text: str
    note: str = ""


def parse_showcase(text: str) -> list[Scripted]:
    """The scripted actions of a showcase file's ``text`` (the note goes with a line's first
    action)."""
    out: list[Scripted] = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        actions, _, note = line.partition("#")
        for i, word in enumerate(actions.split()):
            out.append(Scripted(word, note.strip() if i == 0 else ""))
    return out


def showcase_variants() -> list[str]:
    """The variants that have a showcase, sorted."""
    folder = resources.files("referee.app").joinpath(FOLDER)
    return sorted(p.name.removesuffix(".txt") for p in folder.iterdir()
                  if p.name.endswith(".txt"))


def load_showcase(variant: str) -> list[Scripted]:
    """The showcase of ``variant``.

    Raises:
        RefereeError: the variant has no showcase.
    """
    path = resources.files("referee.app").joinpath(FOLDER, f"{variant}.txt")
    if not path.is_file():
        have = ", ".join(showcase_variants())
        raise RefereeError(f"no showcase for variant {variant!r} (showcases: {have}); "
                           "use --random")
    return parse_showcase(path.read_text(encoding="utf-8"))


def check_showcase(variant: str, options: Mapping[str, Any] | None = None,
                   seed: int = 1) -> list[Scripted]:
    """The showcase of ``variant`` after playing it through the engine with ``options``.

    Raises:
        RefereeError: an unknown variant or option, no showcase, or the script does not fit
            these options (the message names the action and suggests ``--random``).
    """
    game = Game(variant, options, seed=seed)  # an unknown variant or option is named first
    script = load_showcase(variant)
    for item in script:
        try:
            game.play(item.text)
        except RefereeError as err:
            raise RefereeError(f"the {variant} showcase does not fit these options ({err}); "
                               "use --random") from None
    return script


#: Where the demo's actions come from: given the game so far, the next action and what to say
#: about it, or None when there is nothing more to play.
ActionSource = Callable[[Game], "tuple[Action, str] | None"]


def scripted_source(script: list[Scripted]) -> ActionSource:
    """An :data:`ActionSource` that plays ``script`` in order, then stops.

    The texts are parsed in the game's current state, so a script that no longer fits the
    rules raises NotationError/IllegalActionError (from the caller's ``play``) naming the action.
    """
    items: Iterator[Scripted] = iter(script)

    def next_action(game: Game) -> tuple[Action, str] | None:
        item = next(items, None)
        if item is None:
            return None
        return game.parse(item.text), item.note

    return next_action
