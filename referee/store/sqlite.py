"""The SQLite backend: one file, the default log (see `db` for how the file is opened safely).

One use of a log file at a time in this process, from opening to closing (`_in_use`). Opening
a log reads its first bytes to check it is one, and on POSIX closing *any* descriptor of a file
drops every lock this process holds on it, SQLite's included: a second thread opening the log
while the first is in a transaction would let another process take the file from under it (or
switch it out of WAL mode) and corrupt it. SQLite guards only its own descriptors, so the store
does the rest; a use takes milliseconds, and a thread waits for the one before it.
"""
from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
from pathlib import Path
from typing import Any, Iterator, Sequence

from . import db

_LOCKS: dict[str, threading.RLock] = {}  # real path -> the lock on its uses in this process
_LOCKS_LOCK = threading.Lock()


@contextlib.contextmanager
def _in_use(path: Path) -> Iterator[None]:
    """Hold this log file for this thread (again, if it holds it already) until the block ends."""
    key = os.path.normcase(os.path.realpath(path))
    with _LOCKS_LOCK:
        lock = _LOCKS.setdefault(key, threading.RLock())
    if not lock.acquire(timeout=db.BUSY_MS / 1000):
        raise db.StoreError(f"{path}: the rulings log has been in use by another thread of this program "
                            f"for {db.BUSY_MS // 1000} s; try again")
    try:
        yield
    finally:
        lock.release()


def hold(path: Path) -> sqlite3.Connection:
    """A connection a long-running process (`referee serve`) keeps open and never uses.

    The last connection to a WAL log to close checkpoints the WAL into the file and deletes it:
    with a page opening and closing the log for each use, every use paid for that (16 ms of a
    45 ms Record). Held open and idle, this one keeps the others from being the last; the WAL
    is still checkpointed as it grows (SQLite's automatic checkpoint). Close it when done."""
    path = Path(path)
    with _in_use(path):
        db.connect(path, create=False).close()  # checked and migrated, as any use would find it
        conn = sqlite3.connect(path, timeout=db.BUSY_MS / 1000, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA user_version").fetchone()  # opens the WAL index; holds a SHARED lock from now on
        st = path.stat()
        db.HELD.add((st.st_dev, st.st_ino))  # see db.HELD: its header is never read again by this process
    return conn


# The pages a new ruling is written through: the newest entry of each b-tree it inserts into.
_WRITE_PATH = (
    "SELECT count(*) FROM sqlite_master",
    "SELECT id FROM rulings ORDER BY recorded_at DESC LIMIT 1",
    "SELECT id FROM rulings ORDER BY id DESC LIMIT 1",
    "SELECT event FROM rulings INDEXED BY rulings_event ORDER BY event DESC, round DESC, table_no DESC LIMIT 1",
    "SELECT hash FROM snapshots ORDER BY hash DESC LIMIT 1",
)


class SqliteLog:
    def __init__(self, path: Path, conn: sqlite3.Connection, held: contextlib.ExitStack | None = None) -> None:
        self.where = path
        self.conn = conn
        self._held = held  # this process's hold on the file, let go by close()

    @classmethod
    def connect(cls, path: Path, create: bool = True) -> "SqliteLog":
        path = Path(path)
        with contextlib.ExitStack() as held:
            held.enter_context(_in_use(path))
            log = cls(path, db.connect(path, create), held.pop_all())
        return log

    @classmethod
    def migrate(cls, path: Path) -> tuple[int, int]:
        path = Path(path)
        with _in_use(path):
            return cls._migrate(path)

    @classmethod
    def _migrate(cls, path: Path) -> tuple[int, int]:
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
        try:
            self.conn.close()
        finally:
            if self._held is not None:
                self._held.close()
                self._held = None
