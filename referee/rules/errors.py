"""The referee's exceptions: one root, each kind also a matching builtin.

Callers may catch :class:`RefereeError` for anything the referee refuses, or the builtin
(``ValueError``, ``KeyError``) when they do not care that it came from us.
"""

from __future__ import annotations


class RefereeError(Exception):
    """Root of every error the referee raises on purpose."""


class NotationError(RefereeError, ValueError):
    """Text that is not valid NOTATION.md (a square, an action, a position) for this variant."""


class IllegalActionError(RefereeError, ValueError):
    """A well-formed action that the rules do not allow now; ``reason`` says why."""

    def __init__(self, action: str, reason: str) -> None:
        super().__init__(f"illegal action {action!r}: {reason}")
        self.action = action
        self.reason = reason


class GameOverError(IllegalActionError):
    """An action was offered after the game had ended."""


class UnknownVariantError(RefereeError, KeyError):
    """A variant name that is not registered."""

    def __str__(self) -> str:  # KeyError quotes its argument; we want a plain sentence.
        return str(self.args[0]) if self.args else "unknown variant"


class VariantNotImplementedError(RefereeError, NotImplementedError):
    """A variant that is known by name but whose rules are not implemented yet."""


class OptionError(RefereeError, ValueError):
    """An unknown variant option, or a value that is not allowed for it."""


class RecordError(RefereeError, ValueError):
    """A game record or position string that cannot be read."""


class ScenarioError(RefereeError, ValueError):
    """A conformance scenario file that is not valid (FORMAT.md)."""
