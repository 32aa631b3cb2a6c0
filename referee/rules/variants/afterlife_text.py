"""Afterlife Chess as text: the one-line position notation and the terminal drawing.

Position: twelve space-separated fields (documented in docs/variants/afterlife.md)::

    wphw/ssss/4/1mm1/4/SSSS/WHPW - ee/4/ee 5 w - - - 0 0 0 -

1. World, rank 7 down to rank 1, files a-d, FEN style (digits count empty cells);
2. Limbo: ``-`` or the piece, ``@`` its arrival ply, ``!`` if its owner has moved since;
3. Twelve Hours, rank 3 (a3 d3), rank 2 (a2 b2 g2 d2), rank 1 (a1 d1);
4. Hall h1 up to h5; 5. side to move ``w``/``b``; 6. ``drop`` when the Limbo piece's owner must
   pick a Twelve-Hours cell, else ``-``; 7. en passant ``skipped/victim`` (``a3/a4``) or ``-``;
8. the last turn's gray move ``from-to`` or ``-``; 9. consecutive passes; 10. plies since the
   last irreversible action; 11. ply number; 12. pieces gone for good, in order, or ``-``.

A piece is its NOTATION.md letter, then ``*`` if it has ``captured_this_life`` and ``+`` if it
is a promoted Slave. Afterlife has no secrets, so the public and private forms are the same.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from referee.rules.errors import NotationError, RecordError
from referee.rules.pieces import BLACK, COLOUR_NAMES, GRAY, WHITE
from referee.rules.variants.afterlife_state import LIMBO, AfterlifeState

if TYPE_CHECKING:
    from referee.rules.variants.afterlife import Afterlife

_TOKEN = re.compile(r"(?P<letter>[PHWSphwsme])(?P<flag>\*?)(?P<promo>\+?)|(?P<empty>[1-9])")
_LIMBO = re.compile(r"^(?P<piece>[PHWSphws]\*?\+?)@(?P<ply>\d+)(?P<ready>!?)$")
HOURS_ROWS = (("hours:a3", "hours:d3"), ("hours:a2", "hours:b2", "hours:g2", "hours:d2"),
              ("hours:a1", "hours:d1"))
HALL_CELLS = ("hall:h1", "hall:h2", "hall:h3", "hall:h4", "hall:h5")
FILES = "abcd"


def world_rows(v: Afterlife) -> list[list[int]]:
    """World squares by rank, rank 7 first."""
    return [[v.layout.square(f"{f}{r}") for f in FILES] for r in range(7, 0, -1)]


# ------------------------------------------------------------------------------ writing


def _token(v: Afterlife, st: AfterlifeState, sq: int) -> str:
    ident = st.ids[sq]
    return (v.piece_letter(st.board[sq]) + ("*" if ident in st.flagged else "")
            + ("+" if ident in st.promoted else ""))


def _row(v: Afterlife, st: AfterlifeState, squares: list[int] | tuple[int, ...]) -> str:
    out, empty = "", 0
    for sq in squares:
        if st.board[sq]:
            out += (str(empty) if empty else "") + _token(v, st, sq)
            empty = 0
        else:
            empty += 1
    return out + (str(empty) if empty else "")


def write_position(v: Afterlife, st: AfterlifeState) -> str:
    """The position text of ``st``."""

    sq = v.layout.square
    name = v.layout.name
    world = "/".join(_row(v, st, row) for row in world_rows(v))
    limbo = "-"
    if st.board[LIMBO]:
        limbo = f"{_token(v, st, LIMBO)}@{st.limbo_ply}{'!' if st.limbo_ready else ''}"
    hours = "/".join(_row(v, st, [sq(c) for c in row]) for row in HOURS_ROWS)
    hall = _row(v, st, [sq(c) for c in HALL_CELLS])
    ep = f"{name(st.ep)}/{name(st.ep_to)}" if st.ep >= 0 else "-"
    gray = f"{name(st.last_gray[0])}-{name(st.last_gray[1])}" if st.last_gray else "-"
    removed = "".join(v.piece_letter(p) for p in st.removed) or "-"
    side = "w" if st.turn == WHITE else "b"
    return (f"{world} {limbo} {hours} {hall} {side} {'drop' if st.pending else '-'} {ep} {gray} "
            f"{st.passes} {st.halfmove} {st.ply} {removed}")


# ------------------------------------------------------------------------------ reading


def read_position(v: Afterlife, text: str) -> AfterlifeState:
    """A state from position text.

    Raises:
        RecordError: naming the field that is wrong.
    """

    fields = text.split()
    if len(fields) != 12:
        raise RecordError(f"an Afterlife position has 12 fields, not {len(fields)}: {text!r}")
    st = AfterlifeState(v.layout.size, WHITE, 0)
    sq = v.layout.square
    ranks = fields[0].split("/")
    if len(ranks) != 7:
        raise RecordError(f"the World field needs 7 ranks, has {len(ranks)}")
    for row, squares in zip(ranks, world_rows(v), strict=True):
        _place_row(v, st, row, squares, "World")
    _read_limbo(v, st, fields[1], LIMBO)
    hours = fields[2].split("/")
    if len(hours) != 3:
        raise RecordError(f"the Twelve Hours field needs 3 ranks, has {len(hours)}")
    for row, names in zip(hours, HOURS_ROWS, strict=True):
        _place_row(v, st, row, [sq(c) for c in names], "Twelve Hours")
    _place_row(v, st, fields[3], [sq(c) for c in HALL_CELLS], "Hall")
    if fields[4] not in ("w", "b"):
        raise RecordError(f"side to move must be w or b, not {fields[4]!r}")
    st.turn = WHITE if fields[4] == "w" else BLACK
    if fields[5] not in ("-", "drop"):
        raise RecordError(f"the choice field must be - or drop, not {fields[5]!r}")
    st.pending = fields[5] == "drop"
    if st.pending and not st.board[LIMBO]:
        raise RecordError("a drop is pending but Limbo is empty")
    st.to_act = st.board[LIMBO] >> 4 if st.pending else st.turn
    _read_tail(v, st, fields)
    return st


def _place_row(v: Afterlife, st: AfterlifeState, row: str, squares: list[int], where: str) -> None:
    i = 0
    pos = 0
    while pos < len(row) and i < len(squares):
        m = _TOKEN.match(row, pos)
        if m is None:
            raise RecordError(f"bad {where} row {row!r}")
        pos = m.end()
        if m.group("empty"):
            i += int(m.group("empty"))
            continue
        _put(v, st, squares[i], m.group("letter"), bool(m.group("flag")), bool(m.group("promo")))
        i += 1
    if i != len(squares) or pos != len(row):
        raise RecordError(f"{where} row {row!r} does not have {len(squares)} cells")


def _put(v: Afterlife, st: AfterlifeState, sq: int, letter: str, flag: bool, promo: bool) -> None:
    piece = v.piece_code(letter)
    if (flag or promo) and piece >> 4 == GRAY:
        raise RecordError(f"a gray piece ({letter}) cannot carry * or +")
    ident = st.place(sq, piece)
    if flag:
        st.flagged = st.flagged | {ident}
    if promo:
        st.promoted = st.promoted | {ident}


def _read_limbo(v: Afterlife, st: AfterlifeState, text: str, limbo: int) -> None:
    if text == "-":
        return
    m = _LIMBO.match(text)
    if m is None:
        raise RecordError(f"bad Limbo field {text!r} (like s@3, or -)")
    token = m.group("piece")
    _put(v, st, limbo, token[0], "*" in token, "+" in token)
    st.limbo_ply = int(m.group("ply"))
    st.limbo_ready = bool(m.group("ready"))


def _read_tail(v: Afterlife, st: AfterlifeState, fields: list[str]) -> None:
    try:
        if fields[6] != "-":
            skipped, _, victim = fields[6].partition("/")
            st.ep, st.ep_to = v.layout.square(skipped), v.layout.square(victim)
        if fields[7] != "-":
            frm, _, to = fields[7].partition("-")
            st.last_gray = (v.layout.square(frm), v.layout.square(to))
        st.passes, st.halfmove, st.ply = int(fields[8]), int(fields[9]), int(fields[10])
    except (NotationError, ValueError) as err:
        raise RecordError(f"bad Afterlife position field: {err}") from None
    if min(st.passes, st.halfmove, st.ply) < 0:
        raise RecordError("passes, clock and ply must not be negative")
    st.fullmove = 1 + st.ply // 2
    if fields[11] != "-":
        try:
            st.removed = tuple(v.piece_code(c) for c in fields[11])
        except KeyError as err:
            raise RecordError(f"bad removed field {fields[11]!r}: {err}") from None


# ------------------------------------------------------------------------------ drawing


def _cell(v: Afterlife, st: AfterlifeState, sq: int) -> str:
    return (_token(v, st, sq) if st.board[sq] else ".").ljust(3)


def render(v: Afterlife, st: AfterlifeState) -> str:
    """All four boards side by side, then Limbo, a legend and whose turn it is."""

    sq = v.layout.square
    left = ["   World"]
    for r, row in zip(range(7, 0, -1), world_rows(v), strict=True):
        left.append(f"{r}  " + "".join(_cell(v, st, s) for s in row))
    left.append("   " + "".join(f.ljust(3) for f in FILES))
    middle = ["   Twelve Hours"]
    for r, names in zip((3, 2, 1), HOURS_ROWS, strict=True):
        cells = {n[6]: _cell(v, st, sq(n)) for n in names}
        middle.append(f"{r}  " + "".join(cells.get(f, "   ") for f in "abgd"))
    middle.append("   " + "".join(f.ljust(3) for f in "abgd"))
    middle.append("")
    limbo = _token(v, st, LIMBO) if st.board[LIMBO] else " "
    middle.append(f"   Limbo [{limbo}]")
    right = ["Hall of Truth"]
    notes = {5: "Feather of Ma'at", 1: "Entrance"}
    for r in range(5, 0, -1):
        right.append(f"h{r}  {_cell(v, st, sq(f'hall:h{r}'))}{notes.get(r, '')}".rstrip())
    rows = max(len(left), len(middle), len(right))
    lines = []
    for i in range(rows):
        parts = [col[i] if i < len(col) else "" for col in (left, middle, right)]
        lines.append(f"{parts[0]:<18}{parts[1]:<19}{parts[2]}".rstrip())
    lines.append("(* captured this life, + promoted Slave)")
    lines.append(_status(v, st))
    return "\n".join(lines)


def _status(v: Afterlife, st: AfterlifeState) -> str:
    end = v.outcome(st)
    if end.result != "*":
        return f"Game over: {end.result} ({end.reason})"
    who = COLOUR_NAMES[st.to_act].capitalize()
    if st.pending:
        return f"{who} to drop the piece from Limbo on an empty Twelve-Hours cell"
    return f"{who} to move" + (" - check!" if v.in_check(st) else "")
