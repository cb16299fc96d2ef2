"""The SQLite backend: one file, the default log (see `db` for how the file is opened safely)."""
from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path
from typing import Any, Iterator, Sequence

from . import db


# The pages a new ruling is written through: the newest entry of each b-tree it inserts into.
_WRITE_PATH = (
    "SELECT count(*) FROM sqlite_master",
    "SELECT id FROM rulings ORDER BY recorded_at DESC LIMIT 1",
    "SELECT id FROM rulings ORDER BY id DESC LIMIT 1",
    "SELECT event FROM rulings INDEXED BY rulings_event ORDER BY event DESC, round DESC, table_no DESC LIMIT 1",
    "SELECT hash FROM snapshots ORDER BY hash DESC LIMIT 1",
)


class SqliteLog:
    def __init__(self, path: Path, conn: sqlite3.Connection) -> None:
        self.where = path
        self.conn = conn

    @classmethod
    def connect(cls, path: Path, create: bool = True) -> "SqliteLog":
        path = Path(path)
        return cls(path, db.connect(path, create))

    @classmethod
    def migrate(cls, path: Path) -> tuple[int, int]:
        path = Path(path)
        before = 0
        if path.is_file() and path.stat().st_size:  # read only: opening would migrate it
            with contextlib.suppress(sqlite3.Error):  # anything odd is db.connect's to refuse
                peek = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
                try:
                    before = peek.execute("PRAGMA user_version").fetchone()[0]
                finally:
                    peek.close()
        db.connect(path).close()
        return before, db.SCHEMA_VERSION

    def execute(self, sql: str, args: Sequence[Any] = ()) -> sqlite3.Cursor:
        return self.conn.execute(sql, args)

    def executemany(self, sql: str, rows: list[Sequence[Any]]) -> sqlite3.Cursor:
        return self.conn.executemany(sql, rows)

    def transaction(self) -> contextlib.AbstractContextManager[sqlite3.Connection]:
        return db.transaction(self.conn)

    @contextlib.contextmanager
    def guard(self, writing: bool = False) -> Iterator[None]:
        with db.guard(self.where):
            yield

    def check(self) -> None:
        """Reads only the pages the new ruling will be written through, not the whole file: at
        an event's first ruling of the day a full `PRAGMA quick_check` of a 46 MB log cost
        660 ms of reading from a cold disk while the table waited."""
        with self.guard():
            for sql in _WRITE_PATH:
                self.conn.execute(sql).fetchall()

    def close(self) -> None:
        self.conn.close()
