"""``gravekeeper play``: a game in the terminal, every region drawn, actions typed in.

Reads one line at a time from an input stream, so it works at a terminal and when driven by
another program. Commands: an action, ``legal``, ``undo``, ``position``, ``save FILE``, ``pgn``,
``help``, ``quit``.

Actions are typed the way chess players expect: SAN (``e4``, ``Nf3``, ``exd5``, ``O-O``,
``e8=Q+``) wherever the variant has chess men on an 8x8 board, as well as the NOTATION.md form
(``e2e4``, ``hell:e2-hell:e4``, ``spawn=a0``). SAN is matched against the engine's legal
actions (:mod:`referee.rules.san`), so it can never let through what the rules refuse. The help
text comes from the variant, which alone knows its actions. A Masquerade assignment is one of
120 permutations: nobody wants to read them all, so the player is guided through it one piece at
a time (or types the five letters at once, or asks for a random one). In Die Chess the face of a
roll is the player's to type only when a real die is read (``die.roll_source=physical``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from pathlib import Path
from typing import Final, TextIO

from referee.rules import actions as A
from referee.rules.errors import NotationError, RefereeError
from referee.rules.events import visible_to
from referee.rules.game import Game
from referee.rules.pgn import to_pgn
from referee.rules.pieces import COLOUR_NAMES
from referee.rules.records import record_of
from referee.rules.san import looks_like_san, parse_san

COMMANDS: Final = ("Commands: legal (list legal actions), undo, position, save FILE, pgn, "
                   "help, quit.")


class TerminalGame:
    """The play loop over text streams (stdin/stdout by default)."""

    def __init__(self, game: Game, out: TextIO) -> None:
        self.game = game
        self.out = out
        self._guide: list[str] | None = None  # capture letters chosen so far in a guided setup

    def say(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def help_text(self) -> str:
        """The variant's own help on typing actions, then the commands."""
        return f"{self.game.variant.help()}\n{COMMANDS}"

    def show(self) -> None:
        """Draw every region and whose turn/choice it is."""
        self.say(self.game.variant.render(self.game.state, None))
        legal = self.game.legal()
        if self._arrangement() is not None:
            self._assign_prompt()
        elif legal and legal[0].kind != "move":
            who = COLOUR_NAMES[self.game.state.to_act].capitalize()
            if self.game.variant.legal_is_public(self.game.state):
                self.say(f"{who} chooses: " + " ".join(self._describe(self.game.legal_texts())))
            else:  # the choices would show a secret on the shared screen
                self.say(f"{who} chooses in secret ({legal[0].kind}=...)")

    def handle(self, line: str) -> bool:
        """Process one input line; returns False when the player wants to stop."""
        text = line.strip()
        if not text:
            return True
        word, _, rest = text.partition(" ")
        if word in ("quit", "exit", "q"):
            return False
        commands: dict[str, Callable[[], None]] = {
                    "help": lambda: self.say(self.help_text()), "legal": self._legal,
                    "undo": self._undo, "pgn": self._pgn, "board": self.show,
                    "position": lambda: self.say(
                        self.game.variant.position(self.game.state, private=False))}
        if word in commands:
            commands[word]()
        elif word == "save":
            self._save(rest.strip())
        elif self._assigning():
            self._assign(text)
        else:
            self._act(text)
        return True

    def _legal(self) -> None:
        if not self.game.variant.legal_is_public(self.game.state):
            self.say("(the legal actions depend on a secret and are not shown here)")
            return
        arrangement = self._arrangement()
        if arrangement is not None:
            items = arrangement.items
            self.say(f"any order of the {arrangement.unit}s {' '.join(items)}, one per "
                     f"{arrangement.item} ({math.factorial(len(items))} ways); 'guide' asks "
                     f"{arrangement.item} by {arrangement.item}, 'random' draws one")
            return
        texts = self._describe(sorted(self.game.legal_texts()))
        self.say(" ".join(texts) or "(no legal action: game over)")

    def _describe(self, texts: list[str]) -> list[str]:
        """``texts`` with the die readings of each kind made by a die (``roll=1`` ...
        ``roll=6``) said once: the face is what the die shows, not a choice."""
        for kind in sorted(self.game.variant.kinds_done_by(A.DIE)):
            texts = _faces_once(texts, kind)
        return texts

    def _undo(self) -> None:
        try:
            self.say(f"took back {self.game.variant.public_action_text(self.game.undo().action)}")
            self._guide = None
            self.show()
        except RefereeError as err:
            self.say(f"error: {err}")

    def _pgn(self) -> None:
        try:
            self.say(to_pgn(self.game))
        except RefereeError as err:
            self.say(f"error: {err}")

    def _save(self, name: str) -> None:
        if not name:
            self.say("error: save needs a file name")
            return
        try:
            Path(name).write_text(record_of(self.game).to_json(), encoding="utf-8")
            self.say(f"saved to {name}")
        except OSError as err:
            self.say(f"error: cannot save: {err}")

    def _parse(self, text: str) -> A.Action:
        """``text`` as NOTATION.md, else as SAN (a SAN error is the clearer one for SAN text)."""
        try:
            return self.game.parse(text)
        except NotationError:
            if not looks_like_san(text):
                raise
        return parse_san(text, self.game.variant, self.game.state)

    def _act(self, text: str) -> None:
        try:
            played = self.game.play(self._parse(text))
        except RefereeError as err:
            self.say(f"refused: {err}")
            return
        shown = self.game.variant.public_action_text(played.action)
        self.say(f"{COLOUR_NAMES[played.actor]}: {shown}")
        for event in played.events:
            if visible_to(event, None):  # one shared terminal: public events only
                self.say(f"  {event.text}")
        self.show()

    # ------------------------------------- a guided arrangement (Masquerade's setup)

    def _arranged_kind(self) -> A.ActionKind | None:
        """The kind of action the rules wait for, when it is an arrangement to guide (the
        variant's action kind says so, and in which words)."""
        legal = self.game.legal()
        kind = self.game.variant.kinds.get(legal[0].kind) if legal else None
        return kind if kind is not None and kind.arrangement is not None else None

    def _arrangement(self) -> A.Arrangement | None:
        kind = self._arranged_kind()
        return kind.arrangement if kind is not None else None

    def _assigning(self) -> bool:
        return self._arrangement() is not None

    def _assigned_side(self) -> str:
        """The side the arrangement is for (in Masquerade the assigner's opponent)."""
        return A.Arrangement.side(self.game.legal_texts()[0].partition("=")[2])

    def _assign_prompt(self) -> None:
        kind = self._arranged_kind()
        assert kind is not None and kind.arrangement is not None
        arrangement = kind.arrangement
        who = COLOUR_NAMES[self.game.state.to_act].capitalize()
        side = self._assigned_side().capitalize()
        items, item = arrangement.items, arrangement.item
        if self._guide is None:
            secret = " in secret" if kind.private else ""
            self.say(f"{who}: choose{secret} {arrangement.goal.format(side=side)}. Type the "
                     f"{arrangement.unit} of each {item} in the order {' '.join(items)} (e.g. "
                     f"{arrangement.example}), or 'guide' to be asked {item} by {item}, "
                     f"or 'random'.")
            return
        index = len(self._guide)
        left = " ".join(c for c in items if c not in self._guide)
        self.say(f"{side}'s {arrangement.names[index]} - {arrangement.ask} ({left})")

    def _assign(self, text: str) -> None:
        """A step of a guided arrangement: a letter when guided, else all the letters,
        ``guide``, ``random`` or the full action (``assign=...``)."""
        arrangement = self._arrangement()
        assert arrangement is not None
        word = text.strip()
        low = word.lower()
        if "=" in low:
            self._act(word)
            return
        if self._guide is None and low == "guide":
            self._guide = []
            self._assign_prompt()
            return
        if low == "random":
            letters = random.sample(arrangement.items, len(arrangement.items))
            self._guide = None
            self._finish_assignment(arrangement, "".join(letters))
            return
        if self._guide is not None:
            self._guided_letter(arrangement, word.upper())
            return
        self._finish_assignment(arrangement, word.upper())

    def _guided_letter(self, arrangement: A.Arrangement, letter: str) -> None:
        assert self._guide is not None
        left = [c for c in arrangement.items if c not in self._guide]
        if letter not in left:
            self.say(f"refused: {letter!r} is not one of {' '.join(left)}")
            self._assign_prompt()
            return
        self._guide.append(letter)
        left.remove(letter)
        if len(left) == 1:  # the last item takes the letter that is left
            self._guide.append(left[0])
        if len(self._guide) < len(arrangement.items):
            self._assign_prompt()
            return
        letters, self._guide = "".join(self._guide), None
        self._finish_assignment(arrangement, letters)

    def _finish_assignment(self, arrangement: A.Arrangement, letters: str) -> None:
        items = arrangement.items
        if sorted(letters) != sorted(items):
            self.say(f"refused: {letters!r} is not an order of {' '.join(items)} "
                     f"(each letter once); type 'guide' to be asked {arrangement.item} by "
                     f"{arrangement.item}")
            return
        kind = self._arranged_kind()
        assert kind is not None
        self._act(f"{kind.name}={arrangement.value(self._assigned_side(), letters)}")

    def run(self, stream: TextIO) -> int:
        """Play until ``quit`` or end of input; returns the exit status."""
        self.say(f"Gravekeeper - {self.game.variant.title}. Type 'help' for commands.")
        self.show()
        for line in stream:
            if not self.handle(line):
                break
        return 0


def _faces_once(texts: list[str], kind: str) -> list[str]:
    """``texts`` with the readings ``KIND=face`` of a die said once, where the bare ``KIND``
    (the referee rolls) was."""
    head = f"{kind}="
    rolls = [t for t in texts if t.startswith(head)]
    if len(rolls) < 2:
        return texts
    at = texts.index(rolls[0])
    rest = [t for t in texts if not t.startswith(head)]
    first, last = rolls[0][len(head):], rolls[-1][len(head):]
    faces = f"{kind}=N (N: what your die shows, {first}-{last})"
    return [*rest[:at], faces, f"{kind} (the referee rolls)", *rest[at:]]
