"""Reading and writing actions in NOTATION.md form.

Every accepted spelling parses to the same :class:`~referee.rules.actions.Action`; the writer always
gives the canonical one: UCI (``e2e4``, ``e7e8q``, ``z5z4``) when neither square needs a region
prefix, otherwise ``FROM-TO`` with prefixes only where needed, suffixes ``=Q`` then ``@SQUARE``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from referee.rules import actions as A
from referee.rules.actions import Action
from referee.rules.errors import NotationError
from referee.rules.geometry import Layout

if TYPE_CHECKING:
    from referee.rules.state import State
    from referee.rules.variant import Variant

# A square is letters, an optional ``:`` and letters, digits. Written so that no two ways of
# splitting the letters exist (``[a-z]+:?[a-z]*`` had n of them on a run of n letters, and the
# regex engine tried them all: 30,000 letters took 40 s), and bounded (no square name has more
# than 5 letters in a row or 1 digit), so that however the ``x`` separator is placed, the engine
# tries a bounded number of splits: matching is linear in the length of the text.
_SQ = r"[a-z]{1,16}(?::[a-z]{0,16})?\d{0,4}"
#: The longest action text read at all; the longest real one (a Masquerade assignment written
#: with spaces) is under 60 characters.
MAX_ACTION_TEXT = 100
_MOVE = re.compile(
    rf"^(?P<frm>{_SQ})\s*[-x]\s*(?P<to>{_SQ})(?:=(?P<promo>[a-z]))?(?:@(?P<rise>{_SQ}))?$"
)
_UCI = re.compile(r"^(?P<frm>[a-z]\d)(?P<to>[a-z]\d)(?P<promo>[a-z])?(?:=(?P<promo2>[a-z]))?$")
_WORD = re.compile(r"^(?P<kind>[a-z]+)\s*=\s*")
_CHOICE = re.compile(r"^(?P<sq>[a-z0-9:]+)(?:=(?P<promo>[a-z]))?$")
_CASTLE = re.compile(r"^[o0]-[o0](?P<long>-[o0])?[+#]?$")


def parse_action(text: str, variant: Variant[Any], state: State) -> Action:
    """Parse ``text`` for ``variant``; castling (``O-O``) needs ``state`` to find the king.

    Raises:
        NotationError: naming what is wrong with the text.
    """
    if len(text) > MAX_ACTION_TEXT and len(raw := text.strip()) > MAX_ACTION_TEXT:
        raise NotationError(f"{raw[:20]!r}... is {len(raw)} characters long, not an action "
                            f"(at most {MAX_ACTION_TEXT})")
    raw = text.strip()
    if not raw:
        raise NotationError("empty action")
    low = raw.lower()
    layout = variant.layout
    if low in A.META_KINDS:
        return A.simple(low)
    kind = variant.kinds.get(low)
    if kind is not None and (kind.form == A.BARE or kind.bare):
        return A.simple(low)
    word = _WORD.match(low)
    if word:
        return _word_action(raw, word, variant)
    castle = _CASTLE.match(low)
    if castle:
        return variant.castling_action(state, bool(castle.group("long")))
    low = low.rstrip("+#")
    uci = _UCI.match(low)
    if uci and layout.has_square(uci.group("frm")) and layout.has_square(uci.group("to")):
        promo = _promo(uci.group("promo") or uci.group("promo2"), variant, raw)
        return A.move(layout.square(uci.group("frm")), layout.square(uci.group("to")), promo)
    m = _MOVE.match(low)
    if m:
        rise = _square(layout, m.group("rise"), raw) if m.group("rise") else -1
        return A.move(_square(layout, m.group("frm"), raw), _square(layout, m.group("to"), raw),
                      _promo(m.group("promo"), variant, raw), rise)
    raise NotationError(f"cannot read {raw!r} as an action of {variant.name}")


def _word_action(raw: str, word: re.Match[str], variant: Variant[Any]) -> Action:
    """``kind=SQUARE[=P]`` or ``kind=VALUE`` for one of the variant's kinds."""
    kind = variant.kinds.get(word.group("kind"))
    if kind is None or kind.form not in (A.SQUARE, A.VALUE):
        raise NotationError(f"cannot read {raw!r} as an action of {variant.name} (its actions:"
                            f" {', '.join(variant.kinds)})")
    rest = raw.strip()[word.end():].strip()
    if kind.form == A.VALUE:
        if not rest:
            raise NotationError(f"{kind.name}= needs a value ({kind.help})")
        return A.simple(kind.name, kind.read(rest) if kind.read is not None else rest)
    choice = _CHOICE.match(rest.lower())
    if not choice:
        raise NotationError(f"{raw!r}: {kind.name}= needs a square ({kind.help})")
    promo = _promo(choice.group("promo"), variant, raw)
    return A.choice(kind.name, _square(variant.layout, choice.group("sq"), raw), promo)


def _square(layout: Layout, text: str, whole: str) -> int:
    if not layout.has_square(text):
        raise NotationError(f"{whole!r}: no square {text!r} in this variant")
    return layout.square(text)


def _promo(letter: str | None, variant: Variant[Any], whole: str) -> str:
    if not letter:
        return ""
    up = letter.upper()
    if up not in variant.promo_letters:
        allowed = " ".join(variant.promo_letters)
        raise NotationError(f"{whole!r}: cannot promote to {up!r} (allowed: {allowed})")
    return up


def format_action(action: Action, layout: Layout) -> str:
    """The canonical text of ``action``."""
    kind = action.kind
    if kind == A.MOVE:
        frm, to = layout.name(action.frm), layout.name(action.to)
        rise = f"@{layout.name(action.rise)}" if action.rise >= 0 else ""
        if not layout.needs_prefix(action.frm) and not layout.needs_prefix(action.to) and not rise:
            return f"{frm}{to}{action.promo.lower()}"
        promo = f"={action.promo}" if action.promo else ""
        return f"{frm}-{to}{promo}{rise}"
    if action.to >= 0:  # a choice of square
        promo = f"={action.promo}" if action.promo else ""
        return f"{kind}={layout.name(action.to)}{promo}"
    if action.value:
        return f"{kind}={action.value}"
    return kind
