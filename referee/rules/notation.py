"""Reading and writing actions in NOTATION.md form.

Every accepted spelling parses to the same :class:`~referee.rules.actions.Action`; the writer always
gives the canonical one: UCI (``e2e4``, ``e7e8q``, ``z5z4``) when neither square needs a region
prefix, otherwise ``FROM-TO`` with prefixes only where needed, suffixes ``=Q`` then ``@SQUARE``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

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
_SIMPLE = {"pass": A.PASS, "end": A.END, "depart": A.DEPART, "resign": A.RESIGN,
           "draw": A.DRAW, "roll": A.ROLL}
_CHOICE = re.compile(
    r"^(?P<kind>home|spawn|bury|drop|promote)\s*=\s*(?P<sq>[a-z0-9:]+)(?:=(?P<promo>[a-z]))?$"
)
_CASTLE = re.compile(r"^[o0]-[o0](?P<long>-[o0])?[+#]?$")
ASSIGN_ROWS = "KQRBN"


def parse_action(text: str, variant: Variant, state: State) -> Action:
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
    if low in _SIMPLE:
        return A.simple(_SIMPLE[low])
    if low.startswith("roll="):
        face = raw[5:].strip()
        if not face:
            raise NotationError("roll= needs a face: 1-6 or a piece letter")
        return A.simple(A.ROLL, face.upper())
    if low.startswith("assign="):
        return A.simple(A.ASSIGN, parse_assignment(raw[7:]))
    castle = _CASTLE.match(low)
    if castle:
        return variant.castling_action(state, bool(castle.group("long")))
    choice = _CHOICE.match(low)
    if choice:
        promo = _promo(choice.group("promo"), variant, raw)
        return A.choice(choice.group("kind"), _square(layout, choice.group("sq"), raw), promo)
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


def _square(layout: Layout, text: str, whole: str) -> int:
    if not layout.has_square(text):
        raise NotationError(f"{whole!r}: no square {text!r} in this variant")
    return layout.square(text)


def _promo(letter: str | None, variant: Variant, whole: str) -> str:
    if not letter:
        return ""
    up = letter.upper()
    if up not in variant.promo_letters:
        allowed = " ".join(variant.promo_letters)
        raise NotationError(f"{whole!r}: cannot promote to {up!r} (allowed: {allowed})")
    return up


def parse_assignment(text: str) -> str:
    """Canonical ``colour:KX,QX,RX,BX,NX`` from a Masquerade assignment (any row order).

    Raises:
        NotationError: not a colour and a permutation of K, Q, R, B, N.
    """
    colour, sep, rows = text.strip().partition(":")
    colour = colour.strip().lower()
    if not sep or colour not in ("white", "black"):
        raise NotationError(f"assignment {text!r} must start with white: or black:")
    pairs = [p.strip().upper() for p in rows.split(",") if p.strip()]
    if len(pairs) != 5 or any(len(p) != 2 for p in pairs):
        raise NotationError(f"assignment {text!r} needs five pairs like KR,QK,RN,BB,NQ")
    table = {p[0]: p[1] for p in pairs}
    if sorted(table) != sorted(ASSIGN_ROWS) or sorted(table.values()) != sorted(ASSIGN_ROWS):
        raise NotationError(f"assignment {text!r} must map K,Q,R,B,N one-to-one onto K,Q,R,B,N")
    return colour + ":" + ",".join(r + table[r] for r in ASSIGN_ROWS)


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
    if kind in A.CHOICE_KINDS:
        promo = f"={action.promo}" if action.promo else ""
        return f"{kind}={layout.name(action.to)}{promo}"
    if kind in (A.ROLL, A.ASSIGN) and action.value:
        return f"{kind}={action.value}"
    return kind
