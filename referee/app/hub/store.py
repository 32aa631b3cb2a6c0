"""The hub's store: every board, game, action and the event, in one SQLite file (WAL).

Why SQLite in WAL mode: one file a club organiser can copy, readers (the web pages) never block
the writer (the MQTT thread), and a ``kill -9`` loses at most the transaction being written.
Every write is one transaction. Actions are keyed by (board, game, n), so a message the broker
delivers twice is stored once; a board's retained state (which lists every public move) is
authoritative and also fills any gap and undoes taken-back moves.

One connection per thread (SQLite connections must not be shared between threads); the
connections are made lazily, so nothing is opened until the store is first used.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS boards (
    board TEXT PRIMARY KEY, status TEXT NOT NULL DEFAULT 'offline', seen REAL,
    game TEXT, state TEXT, join_urls TEXT);
CREATE TABLE IF NOT EXISTS games (
    board TEXT NOT NULL, game TEXT NOT NULL, variant TEXT, white TEXT, black TEXT,
    result TEXT NOT NULL DEFAULT '*', reason TEXT, first_seen REAL,
    PRIMARY KEY (board, game));
CREATE TABLE IF NOT EXISTS actions (
    board TEXT NOT NULL, game TEXT NOT NULL, n INTEGER NOT NULL, text TEXT NOT NULL,
    t REAL, PRIMARY KEY (board, game, n));
CREATE TABLE IF NOT EXISTS players (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, rating INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS rounds (
    round INTEGER PRIMARY KEY, system TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS pairings (
    round INTEGER NOT NULL, tableno INTEGER NOT NULL, white INTEGER NOT NULL, black INTEGER,
    board TEXT, result TEXT NOT NULL DEFAULT '*', PRIMARY KEY (round, tableno));
"""


class Store:
    """The hub's SQLite store at ``path`` (see the module docstring)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._local = threading.local()
        self._write = threading.Lock()

    def _db(self) -> sqlite3.Connection:
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is None:
            db = sqlite3.connect(self.path, timeout=10, isolation_level=None)
            db.row_factory = sqlite3.Row
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.executescript(SCHEMA)
            self._local.db = db
        return db

    def _tx(self, statements: list[tuple[str, tuple[Any, ...]]]) -> None:
        with self._write:
            db = self._db()
            db.execute("BEGIN IMMEDIATE")
            try:
                for sql, args in statements:
                    db.execute(sql, args)
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    def query(self, sql: str, args: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        return list(self._db().execute(sql, args))

    # ------------------------------------------------------------------ from the boards

    def board_status(self, board: str, status: str, t: float | None) -> None:
        self._tx([("INSERT INTO boards (board, status, seen) VALUES (?, ?, ?) "
                   "ON CONFLICT(board) DO UPDATE SET status = excluded.status, "
                   "seen = coalesce(excluded.seen, seen)", (board, status, t))])

    def action(self, board: str, game: str, n: int, text: str, t: float | None,
               variant: str | None) -> bool:
        """Store one action; False when (board, game, n) was already there with that text."""
        known = self.query("SELECT text FROM actions WHERE board = ? AND game = ? AND n = ?",
                           (board, game, n))
        if known and known[0]["text"] == text:
            return False
        self._tx([
            ("INSERT INTO boards (board, status, seen) VALUES (?, 'online', ?) "
             "ON CONFLICT(board) DO UPDATE SET seen = excluded.seen", (board, t)),
            ("INSERT OR IGNORE INTO games (board, game, variant, first_seen) VALUES (?, ?, ?, ?)",
             (board, game, variant, t)),
            ("INSERT OR REPLACE INTO actions (board, game, n, text, t) VALUES (?, ?, ?, ?, ?)",
             (board, game, n, text, t)),
        ])
        return True

    def state(self, board: str, message: dict[str, Any]) -> list[int]:
        """A board's retained state; returns the action numbers it added or changed."""
        game, moves = str(message["game"]), [str(m) for m in message["moves"]]
        have = {row["n"]: row["text"] for row in self.query(
            "SELECT n, text FROM actions WHERE board = ? AND game = ?", (board, game))}
        changed = [n for n, text in enumerate(moves, 1) if have.get(n) != text]
        players = message.get("players") or {}
        t = message.get("t")
        statements: list[tuple[str, tuple[Any, ...]]] = [
            ("INSERT INTO boards (board, status, seen, game, state) VALUES (?, 'online', ?, ?, ?) "
             "ON CONFLICT(board) DO UPDATE SET game = excluded.game, state = excluded.state, "
             "seen = excluded.seen", (board, t, game, json.dumps(message))),
            ("INSERT INTO games (board, game, variant, white, black, result, reason, first_seen) "
             "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(board, game) DO UPDATE SET "
             "variant = excluded.variant, white = excluded.white, black = excluded.black, "
             "result = excluded.result, reason = excluded.reason",
             (board, game, message.get("variant"), players.get("white"), players.get("black"),
              message.get("result", "*"), message.get("reason"), t)),
            ("DELETE FROM actions WHERE board = ? AND game = ? AND n > ?",
             (board, game, len(moves))),
        ]
        statements += [("INSERT OR REPLACE INTO actions (board, game, n, text, t) "
                        "VALUES (?, ?, ?, ?, coalesce((SELECT t FROM actions WHERE board = ? "
                        "AND game = ? AND n = ?), ?))",
                        (board, game, n, moves[n - 1], board, game, n, t)) for n in changed]
        self._tx(statements)
        return changed

    def join(self, board: str, urls: dict[str, str]) -> None:
        self._tx([("INSERT INTO boards (board, join_urls) VALUES (?, ?) ON CONFLICT(board) "
                   "DO UPDATE SET join_urls = excluded.join_urls", (board, json.dumps(urls)))])

    # ------------------------------------------------------------------ reading

    def boards(self) -> list[sqlite3.Row]:
        return self.query("SELECT * FROM boards ORDER BY board")

    def board(self, board: str) -> sqlite3.Row | None:
        rows = self.query("SELECT * FROM boards WHERE board = ?", (board,))
        return rows[0] if rows else None

    def moves(self, board: str, game: str) -> list[str]:
        return [row["text"] for row in self.query(
            "SELECT text FROM actions WHERE board = ? AND game = ? ORDER BY n", (board, game))]

    def game_row(self, board: str, game: str) -> sqlite3.Row | None:
        rows = self.query("SELECT * FROM games WHERE board = ? AND game = ?", (board, game))
        return rows[0] if rows else None

    # ------------------------------------------------------------------ the event

    def add_player(self, name: str, rating: int) -> int:
        self._tx([("INSERT INTO players (name, rating) VALUES (?, ?)", (name, rating))])
        return int(self.query("SELECT id FROM players WHERE name = ?", (name,))[0]["id"])

    def players(self) -> list[sqlite3.Row]:
        return self.query("SELECT * FROM players ORDER BY id")

    def rounds(self) -> list[sqlite3.Row]:
        return self.query("SELECT * FROM rounds ORDER BY round")

    def pairings(self, round_no: int | None = None) -> list[sqlite3.Row]:
        if round_no is None:
            return self.query("SELECT * FROM pairings ORDER BY round, tableno")
        return self.query("SELECT * FROM pairings WHERE round = ? ORDER BY tableno", (round_no,))

    def add_round(self, round_no: int, system: str,
                  tables: list[tuple[int, int | None, str | None, str]]) -> None:
        self._tx([("INSERT INTO rounds (round, system) VALUES (?, ?)", (round_no, system))]
                 + [("INSERT INTO pairings (round, tableno, white, black, board, result) "
                     "VALUES (?, ?, ?, ?, ?, ?)", (round_no, i, w, b, board, result))
                    for i, (w, b, board, result) in enumerate(tables, 1)])

    def set_result(self, round_no: int, tableno: int, result: str) -> bool:
        before = self.pairings(round_no)
        if not any(row["tableno"] == tableno for row in before):
            return False
        self._tx([("UPDATE pairings SET result = ? WHERE round = ? AND tableno = ?",
                   (result, round_no, tableno))])
        return True
