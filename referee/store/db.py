"""Opening the SQLite file safely: foreign or damaged files are refused, never rewritten.

WAL mode and a busy timeout let several judges' processes write at once; the schema is
versioned with `PRAGMA user_version` and migrated when a log is opened.
"""
from __future__ import annotations

import contextlib
import contextvars
import os
import sqlite3
from pathlib import Path
from typing import Any, Callable, Iterator

from ..errors import RefereeError
from . import charges

APPLICATION_ID = 0x52465245  # "RFRE": marks a file as a referee log
BUSY_MS = 30_000
SQLITE_MAGIC = b"SQLite format 3\x00"

# One entry per schema version; a log at version N runs MIGRATIONS[N:] when opened.
MIGRATIONS: list[str] = [
    """
    CREATE TABLE rulings (
        id TEXT PRIMARY KEY,
        recorded_at TEXT NOT NULL,
        event TEXT, round TEXT, table_no TEXT, judge TEXT, machine TEXT,
        ruleset_id TEXT NOT NULL, ruleset_version TEXT NOT NULL, ruleset_hash TEXT NOT NULL,
        ruleset_source TEXT,
        situation TEXT NOT NULL, ruled_in TEXT NOT NULL, ruling_id TEXT NOT NULL, game TEXT NOT NULL,
        answers TEXT NOT NULL, seats TEXT NOT NULL, players TEXT NOT NULL,
        questions TEXT NOT NULL, dead TEXT NOT NULL, payments TEXT NOT NULL, points TEXT NOT NULL,
        outcome TEXT NOT NULL, printed TEXT NOT NULL,
        withdrawn_at TEXT, withdrawn_by TEXT, withdrawn_reason TEXT
    );
    CREATE INDEX rulings_time ON rulings (recorded_at);
    CREATE INDEX rulings_event ON rulings (event, round, table_no);
    CREATE TABLE snapshots (
        hash TEXT PRIMARY KEY,
        ruleset_id TEXT NOT NULL,
        version TEXT NOT NULL,
        files BLOB NOT NULL
    );
    """,
    # 2: what a page shows is asked for by index, never by reading the event: a ruling's own number
    # within its event (kept, so "#16" never changes), the sign-in that recorded or withdrew it,
    # and the venue's sign-ins themselves (which phone signed in under which name).
    """
    ALTER TABLE rulings ADD COLUMN number INTEGER;
    ALTER TABLE rulings ADD COLUMN sign_in TEXT;
    ALTER TABLE rulings ADD COLUMN withdrawn_sign_in TEXT;
    UPDATE rulings SET number = numbered.n FROM (
        SELECT id, row_number() OVER (PARTITION BY event ORDER BY recorded_at, id) AS n FROM rulings
    ) AS numbered WHERE rulings.id = numbered.id;
    CREATE UNIQUE INDEX rulings_number ON rulings (event, number);
    CREATE INDEX rulings_judge ON rulings (event, judge, recorded_at);
    CREATE INDEX rulings_table ON rulings (event, table_no, recorded_at);
    CREATE TABLE sign_ins (
        id TEXT PRIMARY KEY,
        event TEXT,
        judge TEXT NOT NULL, judge_key TEXT NOT NULL, role TEXT NOT NULL,
        device TEXT NOT NULL, address TEXT, agent TEXT,
        signed_in_at TEXT NOT NULL,
        approved_at TEXT, approved_by TEXT,
        ended_at TEXT, ended_by TEXT
    );
    CREATE INDEX sign_ins_judge ON sign_ins (event, judge_key)
    """,
    # 3: what each ruling holds against each named player, so `log players` adds up rows in the
    # database rather than decoding every ruling (charges.py); FILLS writes them for older rulings.
    charges.SCHEMA,
]
SCHEMA_VERSION = len(MIGRATIONS)
# Python run after a migration (by its index in MIGRATIONS), with the statement runners of the
# backend doing the upgrade: `fill(execute, executemany)`, each taking SQLite's dialect.
FILLS: dict[int, Callable[[Callable[..., Any], Callable[..., Any]], None]] = {2: charges.fill}


class StoreError(RefereeError):
    """The log cannot be used: not a log, damaged, newer than this referee, unwritable."""


def refuse(path: Path, why: str) -> StoreError:
    why = " ".join(why.replace("*** in database main ***", "").split())  # SQLite's reports span lines
    return StoreError(f"{path}: {why}; not touching it (use another --db or REFEREE_DB)")


_CHECKED: set[tuple[int, int, int, int]] = set()  # files this process found to be SQLite's, as _identity gives them
# (device, inode) of log files this process holds open for its lifetime (sqlite.hold): never opened
# and closed outside SQLite again, since closing any descriptor of a file drops this process's locks
# on it, the held connection's SHARED lock included, and another process closing its last
# connection would then delete the WAL from under this one ("disk I/O error").
HELD: set[tuple[int, int]] = set()


def _check_file(path: Path) -> None:
    """Refuse anything that is not an SQLite file before SQLite sees it (it would not be ours).

    A file checked once is not read again while it is the same file, unchanged on disk: a
    long-running process (`referee serve`) opens the log for every page, and each read of the
    header opens and closes a descriptor of the file, which on POSIX drops the locks of any
    other connection this process holds on it (see `hold`)."""
    if path.is_dir():
        raise refuse(path, "is a folder, not a rulings log")
    if not path.exists():
        return
    if not path.is_file():  # opening a FIFO would wait for a writer for ever; a device is no log
        raise refuse(path, "is not a regular file (a device, FIFO or socket)")
    try:
        st = path.stat()
    except OSError:
        st = None
    if st is not None and st.st_size and (_identity(st) in _CHECKED or (st.st_dev, st.st_ino) in HELD):
        return
    try:
        with path.open("rb") as fh:
            head = fh.read(len(SQLITE_MAGIC))
    except OSError as exc:
        raise StoreError(f"{path}: cannot read the rulings log ({exc.strerror})") from None
    if head and head != SQLITE_MAGIC:
        raise refuse(path, "is not a rulings log (not an SQLite database)")
    if head and st is not None:
        _CHECKED.add(_identity(st))


def _identity(st: os.stat_result) -> tuple[int, int, int, int]:
    """Which file, and which state of it: in WAL mode the file itself changes only at a checkpoint."""
    return st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns


def unwritable(path: Path) -> str | None:
    """Why this process cannot write the log (its folder, or the file), or None when it can."""
    folder = path.parent if path.parent.exists() else next((p for p in path.parents if p.exists()), path.parent)
    for target in ([path] if path.exists() else []) + [folder]:
        if not os.access(target, os.W_OK):
            try:
                readonly = bool(os.statvfs(target).f_flag & os.ST_RDONLY)
            except (OSError, AttributeError):  # no statvfs on Windows
                readonly = False
            what = "the folder" if target == folder else "the file"
            return f"{what} {target} is on a read-only file system" if readonly else f"you may not write {what} {target}"
    return None


def connect(path: Path, create: bool = True) -> sqlite3.Connection:
    """An open, migrated log; a StoreError (one line) for anything that is not one.

    Without `create`, a missing file is an error rather than a new empty log (a mistyped
    --db should not quietly show an empty log), and a log this process may not write is
    opened read-only: the judge can still list and export it.
    """
    path = Path(path)
    _check_file(path)
    if not create and not path.exists():
        raise StoreError(f"no rulings log at {path} yet; 'referee rule --table N' or 'referee log event NAME' starts one")
    why = unwritable(path)
    if why is not None:
        if create:
            raise StoreError(f"{path}: cannot record rulings here: {why}; use another --db or REFEREE_DB")
        return _read_only(path, why)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"{path.parent}: cannot create the folder for the rulings log ({exc.strerror})") from None
    try:
        conn = sqlite3.connect(path, timeout=BUSY_MS / 1000, isolation_level=None)
    except sqlite3.Error as exc:
        raise StoreError(f"{path}: cannot open the rulings log ({exc})") from None
    try:
        conn.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
        _migrate(conn, path)
        if conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":  # once per file; it persists
            conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")  # durable in WAL mode, except on power loss
    except sqlite3.OperationalError as exc:  # locked, unwritable, out of space: not damage
        conn.close()
        raise StoreError(f"{path}: cannot open the rulings log ({_cause(exc)})") from None
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise refuse(path, f"is damaged or not a rulings log ({exc})") from None
    except StoreError:
        conn.close()
        raise
    return conn


def _read_only(path: Path, why: str) -> sqlite3.Connection:
    """The log opened for reading only. WAL needs its -shm file; where none can be made (a folder
    the judge may not write) the file is read as immutable, which is safe because no process of
    this user can be writing it either."""
    uri = path.resolve().as_uri()
    last: Exception | None = None
    for query in ("mode=ro", "mode=ro&immutable=1"):
        try:
            conn = sqlite3.connect(f"{uri}?{query}", uri=True, timeout=BUSY_MS / 1000, isolation_level=None)
        except sqlite3.Error as exc:
            last = exc
            continue
        try:
            conn.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
            app_id = conn.execute("PRAGMA application_id").fetchone()[0]
            version = conn.execute("PRAGMA user_version").fetchone()[0]
        except sqlite3.OperationalError as exc:
            conn.close()
            last = exc
            continue
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise refuse(path, f"is damaged or not a rulings log ({exc})") from None
        if app_id != APPLICATION_ID:
            conn.close()
            raise refuse(path, "is not a rulings log")
        if version != SCHEMA_VERSION:
            conn.close()
            raise StoreError(f"{path}: this log has schema {version} and this referee reads {SCHEMA_VERSION}; "
                             f"it cannot be upgraded because {why}")
        return conn
    raise StoreError(f"{path}: cannot open the rulings log to read it ({last}); {why}")


def _busy(exc: sqlite3.Error) -> bool:
    return getattr(exc, "sqlite_errorcode", None) in (5, 6) or "locked" in str(exc)  # SQLITE_BUSY, _LOCKED


def _cause(exc: sqlite3.Error) -> str:
    """SQLite's reason, with the one a judge can act on named plainly."""
    if _busy(exc):
        return f"another program has held it busy for {BUSY_MS // 1000} s"
    if getattr(exc, "sqlite_errorcode", None) == 8 or "readonly" in str(exc):  # SQLITE_READONLY
        return "it is read-only here"
    return str(exc)


def _migrate(conn: sqlite3.Connection, path: Path) -> None:
    app_id = conn.execute("PRAGMA application_id").fetchone()[0]
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if app_id == APPLICATION_ID and version == SCHEMA_VERSION:
        return
    with transaction(conn):  # BEGIN IMMEDIATE: two first openers do not both create tables
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if app_id != APPLICATION_ID:
            tables = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
            if tables:
                raise refuse(path, "is an SQLite database of another program, not a rulings log")
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        if version > SCHEMA_VERSION:
            raise StoreError(f"{path}: this log was written by a newer referee (schema {version}, "
                             f"this one knows {SCHEMA_VERSION}); upgrade referee to use it")
        for number, step in enumerate(MIGRATIONS[version:], version):
            for statement in step.split(";"):
                if statement.strip():
                    conn.execute(statement)
            if number in FILLS:
                FILLS[number](conn.execute, conn.executemany)
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


# Set by a command that has a judge waiting (`when_busy`): called once, at once, when another
# process holds the write lock, before waiting up to BUSY_MS for it.
_WAITING: contextvars.ContextVar[Callable[[], None] | None] = contextvars.ContextVar("waiting", default=None)
QUICK_MS = 250  # how long a lock may be held before the judge is told the log is busy


@contextlib.contextmanager
def when_busy(notice: Callable[[], None]) -> Iterator[None]:
    """Within this block, a transaction that finds the log locked calls `notice` before it waits."""
    token = _WAITING.set(notice)
    try:
        yield
    finally:
        _WAITING.reset(token)


def _begin(conn: sqlite3.Connection) -> None:
    notice = _WAITING.get()
    if notice is None:
        conn.execute("BEGIN IMMEDIATE")
        return
    conn.execute(f"PRAGMA busy_timeout = {QUICK_MS}")
    try:
        conn.execute("BEGIN IMMEDIATE")
        return
    except sqlite3.OperationalError as exc:
        if not _busy(exc):
            raise
    finally:
        conn.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
    notice()
    conn.execute("BEGIN IMMEDIATE")


@contextlib.contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """All or nothing; takes the write lock up front so a busy log waits rather than fails midway."""
    _begin(conn)
    try:
        yield conn
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


@contextlib.contextmanager
def guard(path: Path) -> Iterator[None]:
    """Turn SQLite's errors during use into one line naming the log."""
    try:
        yield
    except sqlite3.OperationalError as exc:
        raise StoreError(f"{path}: the rulings log could not be used ({_cause(exc)})") from None
    except sqlite3.DatabaseError as exc:
        raise refuse(path, f"is damaged ({exc})") from None
