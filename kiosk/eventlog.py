"""The event log: every game and every action, one SQLite row each, written before anyone hears of it.

The log is the kiosk's only state. A row is committed (WAL, synchronous FULL) before the action is
applied in memory or answered with 200, so pulling the plug loses nothing a player saw confirmed.
On start the table replays the latest game from here. An undo is a row of its own, so `seq` (the
number of rows of a game) only ever grows and a phone's stale `seq` is always detected.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    header TEXT NOT NULL,
    tokens TEXT NOT NULL,
    started REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('action', 'undo')),
    line TEXT,
    source TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""


@dataclass(frozen=True)
class Row:
    """One logged event: an action (with its record line) or an undo of the last action."""

    seq: int
    kind: str
    line: dict[str, Any] | None
    source: str
    at: float


@dataclass(frozen=True)
class StoredGame:
    id: int
    header: dict[str, Any]
    tokens: list[str]
    rows: list[Row]


class EventLog:
    """An SQLite file of games and their events; safe to share between threads."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def meta(self, key: str, default: str | None = None) -> str | None:
        with self._lock:
            row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else default

    def set_meta(self, key: str, value: str) -> None:
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def new_game(
        self, header: dict[str, Any], tokens: list[str], lines: list[dict[str, Any]] = ()
    ) -> int:
        """Store a game (and, for an imported record, all its actions) in one transaction."""
        now = time.time()
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                cur = self._db.execute(
                    "INSERT INTO games (header, tokens, started) VALUES (?, ?, ?)",
                    (_dump(header), json.dumps(tokens), now),
                )
                game_id = cur.lastrowid
                self._db.executemany(
                    "INSERT INTO events VALUES (?, ?, 'action', ?, 'import', ?)",
                    [(game_id, i + 1, _dump(line), now) for i, line in enumerate(lines)],
                )
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        return game_id

    def append(
        self, game_id: int, seq: int, kind: str, line: dict[str, Any] | None, source: str
    ) -> Row:
        """Commit one event; its seq must be the next one (the primary key refuses a duplicate)."""
        row = Row(seq, kind, line, source, time.time())
        with self._lock:
            self._db.execute(
                "INSERT INTO events VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, seq, kind, None if line is None else _dump(line), source, row.at),
            )
        return row

    def latest_game(self) -> StoredGame | None:
        """The last game started, with its events in order: what the table resumes."""
        with self._lock:
            game = self._db.execute(
                "SELECT id, header, tokens FROM games ORDER BY id DESC LIMIT 1"
            ).fetchone()
            if game is None:
                return None
            rows = self._db.execute(
                "SELECT seq, kind, line, source, at FROM events WHERE game_id = ? ORDER BY seq",
                (game[0],),
            ).fetchall()
        return StoredGame(
            id=game[0],
            header=json.loads(game[1]),
            tokens=json.loads(game[2]),
            rows=[
                Row(s, k, None if ln is None else json.loads(ln), src, at)
                for s, k, ln, src, at in rows
            ],
        )

    def count_games(self) -> int:
        with self._lock:
            return self._db.execute("SELECT COUNT(*) FROM games").fetchone()[0]


def _dump(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
