"""``gravekeeper play``: a game in the terminal, every region drawn, actions typed in.

Reads one line at a time from an input stream, so it works at a terminal and when driven by
another program. Commands: an action in NOTATION.md form, ``legal``, ``undo``, ``position``,
``save FILE``, ``pgn``, ``help``, ``quit``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from referee.rules.errors import RefereeError
from referee.rules.events import visible_to
from referee.rules.game import Game
from referee.rules.pgn import to_pgn
from referee.rules.pieces import COLOUR_NAMES
from referee.rules.records import record_of

COMMANDS = "Commands: legal (list legal actions), undo, position, save FILE, pgn, help, quit."


class TerminalGame:
    """The play loop over text streams (stdin/stdout by default)."""

    def __init__(self, game: Game, out: TextIO) -> None:
        self.game = game
        self.out = out

    def say(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def show(self) -> None:
        """Draw every region and whose turn/choice it is."""
        self.say(self.game.variant.render(self.game.state, None))
        legal = self.game.legal()
        if legal and legal[0].kind != "move":
            who = COLOUR_NAMES[self.game.state.to_act].capitalize()
            if self.game.variant.legal_is_public(self.game.state):
                self.say(f"{who} chooses: " + " ".join(self.game.legal_texts()))
            else:  # the choices would show a secret on the shared screen
                self.say(f"{who} chooses in secret ({legal[0].kind}=...)")

    def _help(self) -> None:
        """The variant's actions (NOTATION.md form), then the commands."""
        self.say("Type an action:\n" + self.game.variant.help_text() + "\n" + COMMANDS)

    def handle(self, line: str) -> bool:
        """Process one input line; returns False when the player wants to stop."""
        text = line.strip()
        if not text:
            return True
        word, _, rest = text.partition(" ")
        if word in ("quit", "exit", "q"):
            return False
        commands = {"help": self._help, "legal": self._legal, "undo": self._undo,
                    "position": lambda: self.say(
                        self.game.variant.position(self.game.state, private=False)),
                    "pgn": self._pgn, "board": self.show}
        if word in commands:
            commands[word]()
        elif word == "save":
            self._save(rest.strip())
        else:
            self._act(text)
        return True

    def _legal(self) -> None:
        if not self.game.variant.legal_is_public(self.game.state):
            self.say("(the legal actions depend on a secret and are not shown here)")
            return
        self.say(" ".join(sorted(self.game.legal_texts())) or "(no legal action: game over)")

    def _undo(self) -> None:
        try:
            self.say(f"took back {self.game.variant.public_action_text(self.game.undo().action)}")
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

    def _act(self, text: str) -> None:
        try:
            played = self.game.play(text)
        except RefereeError as err:
            self.say(f"refused: {err}")
            return
        shown = self.game.variant.public_action_text(played.action)
        self.say(f"{COLOUR_NAMES[played.actor]}: {shown}")
        for event in played.events:
            if visible_to(event, None):  # one shared terminal: public events only
                self.say(f"  {event.text}")
        self.show()

    def run(self, stream: TextIO) -> int:
        """Play until ``quit`` or end of input; returns the exit status."""
        self.say(f"Gravekeeper - {self.game.variant.title}. Type 'help' for commands.")
        self.show()
        for line in stream:
            if not self.handle(line):
                break
        return 0
