"""The event: players, rounds, pairings, results and standings.

Pairings come from ``pairing-core`` (MIT, maintained, deterministic): FIDE Dutch Swiss
(``dutch-till2026-compat``, its frozen and most-tested kernel) and Berger round-robin tables.
We chose it over writing our own because pairing rules are intricate and a club arbiter must be
able to trust and reproduce them; over the external engines (bbpPairings, JaVaFo) because it is
pure Python and installs from PyPI with no binary. Tables are given to the boards the hub knows
in order (table 1 on the first board); a finished game on a board fills in that table's result
unless the arbiter has already entered one.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from typing import Final

from referee.app.hub.schema import HubError
from referee.app.hub.store import Store

SYSTEMS: Final = ("swiss", "roundrobin")
RESULTS: Final = ("1-0", "0-1", "1/2-1/2", "*")
_POINTS: Final = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5)}


@dataclass(frozen=True)
class Standing:
    player: int
    name: str
    points: float
    games: int


def pair_next_round(store: Store, system: str, boards: list[str]) -> int:
    """Pair the next round and store it; returns its number. Raises HubError when it can't."""
    if system not in SYSTEMS:
        raise HubError(f"pairing system {system!r} is not one of {', '.join(SYSTEMS)}")
    players = store.players()
    if len(players) < 2:
        raise HubError("at least two players are needed to pair a round")
    rounds = store.rounds()
    if any(row["result"] == "*" and row["black"] is not None for row in store.pairings()):
        raise HubError("the current round still has games without a result")
    round_no = len(rounds) + 1
    pairs = (_round_robin(players, round_no) if system == "roundrobin"
             else _swiss(store, players, round_no))
    tables: list[tuple[int, int | None, str | None, str]] = []
    for i, (white, black) in enumerate(pairs):
        board = boards[i] if black is not None and i < len(boards) else None
        tables.append((white, black, board, "1-0" if black is None else "*"))
    store.add_round(round_no, system, tables)
    return round_no


def _round_robin(players: list[sqlite3.Row], round_no: int) -> list[tuple[int, int | None]]:
    from pairing_core import round_robin

    ids = [row["id"] for row in players]
    schedule = round_robin(len(ids))
    if round_no > len(schedule):
        raise HubError(f"a round-robin of {len(ids)} players has {len(schedule)} rounds")
    return [(ids[w - 1], ids[b - 1] if b is not None else None)
            for w, b in schedule[round_no - 1]]


def _swiss(store: Store, players: list[sqlite3.Row], round_no: int) -> list[tuple[int, int | None]]:
    from pairing_core import (
        DUTCH_TILL2026_COMPAT,
        CanonicalPlayer,
        CanonicalRequest,
        PairingError,
        pair_canonical,
    )

    history = _history(store)
    ranked = sorted(players, key=lambda row: (-row["rating"], row["name"]))
    canonical = tuple(
        CanonicalPlayer(id=row["id"], pairing_no=i, rating=row["rating"],
                        points=history[row["id"]].points, color_hist=history[row["id"]].colours,
                        opponents=tuple(history[row["id"]].opponents),
                        received_bye=history[row["id"]].bye)
        for i, row in enumerate(ranked, 1))
    try:
        result = pair_canonical(CanonicalRequest(players=canonical, ruleset=DUTCH_TILL2026_COMPAT,
                                                 round_number=round_no))
    except PairingError as exc:
        raise HubError(f"no Swiss pairing for round {round_no}: {exc}") from None
    return [(p.white_id, None if p.is_bye else p.black_id) for p in result.pairings]


@dataclass
class _Record:
    points: float = 0.0
    colours: str = ""
    opponents: set[int] = field(default_factory=set)
    bye: bool = False
    games: int = 0


def _history(store: Store) -> dict[int, _Record]:
    records = {row["id"]: _Record() for row in store.players()}
    for row in store.pairings():
        white, black, result = row["white"], row["black"], row["result"]
        if black is None:
            records[white].points += 1.0
            records[white].colours += "-"
            records[white].bye = True
            continue
        records[white].colours += "w"
        records[black].colours += "b"
        records[white].opponents.add(black)
        records[black].opponents.add(white)
        if result in _POINTS:
            w, b = _POINTS[result]
            records[white].points += w
            records[black].points += b
            records[white].games += 1
            records[black].games += 1
    return records


def standings(store: Store) -> list[Standing]:
    """Players by points (then name), byes counted as a win."""
    history = _history(store)
    rows = [Standing(row["id"], row["name"], history[row["id"]].points,
                     history[row["id"]].games) for row in store.players()]
    return sorted(rows, key=lambda s: (-s.points, s.name))


def result_from_board(store: Store, board: str, result: str) -> None:
    """A game finished on ``board``: fill in its table of the latest round, if still open."""
    rounds = store.rounds()
    if not rounds or result not in _POINTS:
        return
    latest = rounds[-1]["round"]
    for row in store.pairings(latest):
        if row["board"] == board and row["result"] == "*":
            store.set_result(latest, row["tableno"], result)
