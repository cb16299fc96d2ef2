"""The PostgreSQL backend: one organization's log, shared by every head table and judge.

Imported only when a `postgresql://` URL is given (psycopg is the optional extra
`referee[postgres]`). Concurrency is the server's: every write is one transaction and a
ruling's id is its primary key, so two hosts recording at once lose nothing and an import
run twice adds nothing. The schema is versioned in a one-row table, `referee_log`; a database
holding anything else, or a newer schema, is refused and left as it was.

Passwords come from the URL, PGPASSWORD or ~/.pgpass (libpq reads the last two itself); the
URL is only ever printed as `DbUrl` prints it, without the password, and the driver's own
messages are scrubbed of it too.
"""
from __future__ import annotations

import contextlib
import re
from typing import Any, Iterator, Sequence

from . import db
from .backend import Unconfirmed, Unreachable
from .context import DbUrl
from .db import StoreError

try:
    import psycopg
except ImportError:  # pragma: no cover - exercised where the extra is not installed
    psycopg = None  # type: ignore[assignment]

APPLICATION = "referee rulings log"
LOCK_KEY = 0x52465245  # "RFRE": two first openers take turns creating the tables
WRITE_KEY = LOCK_KEY + 1  # writers take turns, as SQLite's BEGIN IMMEDIATE makes them: a ruling's number is the event's next
CONNECT_TIMEOUT_S = 10


def _dialect(step: str) -> str:
    """One of SQLite's migrations (db.MIGRATIONS) for PostgreSQL: one schema, two dialects, so
    the backends cannot drift apart. Keys sort byte-wise (COLLATE "C"), as SQLite sorts them,
    so rulings come out in the same order and an export is the same file from either."""
    step = re.sub(r"\b(id|ruling|recorded_at|hash) TEXT\b", r'\1 TEXT COLLATE "C"', step)
    return step.replace(" BLOB", " BYTEA")


MIGRATIONS: list[str] = [_dialect(step) for step in db.MIGRATIONS]


def _dialect_query(sql: str) -> str:
    """The store writes SQLite's dialect; PostgreSQL's differs in the placeholder and in the
    name of instr() (same arguments, same meaning)."""
    return sql.replace("?", "%s").replace("instr(", "strpos(")
SCHEMA_VERSION = len(MIGRATIONS)


def _why(exc: BaseException, url: DbUrl) -> str:
    """The driver's message on one line, with no password in it."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    secret = _password(url)
    return text.replace(secret, "***") if secret else text


def _password(url: DbUrl) -> str | None:
    from urllib.parse import parse_qs, unquote, urlsplit

    parts = urlsplit(url.conninfo)
    if parts.password:
        return unquote(parts.password)
    found = parse_qs(parts.query).get("password")
    return found[0] if found else None


def _unreachable(exc: BaseException) -> bool:
    """Whether the server could not be reached or went away (a retry may succeed), as against an
    error the same request meets every time. psycopg's OperationalError covers both."""
    state = getattr(exc, "sqlstate", None)
    # no state: the client lost or never had the connection; 08: connection exception;
    # 57P: the server is shutting down or starting; 53300: too many connections
    return state is None or state.startswith(("08", "57P")) or state == "53300"


def _driver() -> Any:
    if psycopg is None:
        raise StoreError("a postgresql:// log needs the PostgreSQL driver: pip install 'referee[postgres]'")
    return psycopg


class PostgresLog:
    def __init__(self, url: DbUrl, conn: Any) -> None:
        self.where = url
        self.conn = conn
        self.before = SCHEMA_VERSION  # the schema found when opened (0: none)

    @classmethod
    def connect(cls, url: DbUrl, create: bool = True) -> "PostgresLog":
        pg = _driver()
        try:
            conn = pg.connect(url.conninfo, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S,
                              application_name="referee")
        except pg.OperationalError as exc:  # no server, a restart, a full server: it passes
            if not _unreachable(exc):
                raise StoreError(f"{url}: cannot connect to the rulings log ({_why(exc, url)})") from None
            raise Unreachable(f"{url}: cannot connect to the rulings log ({_why(exc, url)})") from None
        except pg.Error as exc:
            raise StoreError(f"{url}: cannot connect to the rulings log ({_why(exc, url)})") from None
        log = cls(url, conn)
        try:
            with log.guard():
                log._migrate(create)
        except BaseException:
            conn.close()
            raise
        return log

    @classmethod
    def migrate(cls, url: DbUrl) -> tuple[int, int]:
        log = cls.connect(url, create=True)
        log.close()
        return log.before, SCHEMA_VERSION

    def _refuse(self, why: str) -> StoreError:
        return StoreError(f"{self.where}: {why}; not touching it (use another --db or REFEREE_DB)")

    def _version(self) -> tuple[str, int] | None:
        # pg_tables, not to_regclass(): a name lookup may answer from a cache that has not yet
        # seen the table another opener just created while this one waited for the lock
        if not self.conn.execute("SELECT count(*) FROM pg_tables WHERE schemaname = current_schema() "
                                 "AND tablename = 'referee_log'").fetchone()[0]:
            return None
        row = self.conn.execute("SELECT application, schema_version FROM referee_log").fetchone()
        return (row[0], int(row[1])) if row else ("", 0)

    def _migrate(self, create: bool) -> None:
        try:  # one round trip when the log is ready, as it is at every ruling but the first
            row = self.conn.execute("SELECT application, schema_version FROM referee_log").fetchone()
            if row is not None and (row[0], int(row[1])) == (APPLICATION, SCHEMA_VERSION):
                return
        except psycopg.Error:  # no such table (or not ours): the careful way, below
            pass
        with self.transaction():
            self.conn.execute("SELECT pg_advisory_xact_lock(%s)", (LOCK_KEY,))
            found = self._version()
            if found is None:
                tables = self.conn.execute(
                    "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()").fetchone()[0]
                if tables:
                    raise self._refuse("holds another program's tables, not a rulings log")
                if not create:
                    raise StoreError(f"no rulings log in {self.where} yet; 'referee log migrate --db URL' creates one")
                self.conn.execute("CREATE TABLE referee_log (application TEXT NOT NULL, schema_version INTEGER NOT NULL)")
                self.conn.execute("INSERT INTO referee_log VALUES (%s, 0)", (APPLICATION,))
                found = (APPLICATION, 0)
            application, version = found
            if application != APPLICATION:
                raise self._refuse("is not a rulings log (its referee_log table belongs to something else)")
            if version > SCHEMA_VERSION:
                raise StoreError(f"{self.where}: this log was written by a newer referee (schema {version}, "
                                 f"this one knows {SCHEMA_VERSION}); upgrade referee to use it")
            self.before = version
            for number, step in enumerate(MIGRATIONS[version:], version):
                for statement in step.split(";"):
                    if statement.strip():
                        self.conn.execute(statement)
                if number in db.FILLS:
                    db.FILLS[number](self.execute, self.executemany)
            self.conn.execute("UPDATE referee_log SET schema_version = %s", (SCHEMA_VERSION,))

    def execute(self, sql: str, args: Sequence[Any] = ()) -> Any:
        return self.conn.execute(_dialect_query(sql), args)

    def executemany(self, sql: str, rows: list[Sequence[Any]]) -> Any:
        cur = self.conn.cursor()
        try:
            cur.executemany(_dialect_query(sql), rows)  # pipelined: one round trip for the lot
        except psycopg.errors.PipelineAborted as exc:  # the statement that failed first is the one to report
            raise (exc.__cause__ or exc.__context__ or exc) from None
        return cur

    @contextlib.contextmanager
    def transaction(self) -> Iterator[Any]:
        """BEGIN ... COMMIT by hand, so a COMMIT that gets no answer is told apart from a
        failure before it (which the server rolls back: nothing was recorded)."""
        self.conn.execute("BEGIN")
        try:
            self.conn.execute("SELECT pg_advisory_xact_lock(%s)", (WRITE_KEY,))
            yield self.conn
        except BaseException:
            with contextlib.suppress(Exception):  # a dropped connection rolls back by itself
                self.conn.execute("ROLLBACK")
            raise
        try:
            self.conn.execute("COMMIT")
        except psycopg.OperationalError as exc:
            raise Unconfirmed(f"{self.where}: the connection failed while committing ({_why(exc, self.where)}); "
                             "the server may or may not have recorded it: see 'referee log list'") from None

    @contextlib.contextmanager
    def guard(self, writing: bool = False) -> Iterator[None]:
        outcome = "; nothing was recorded" if writing else ""
        try:
            yield
        except psycopg.OperationalError as exc:
            if not _unreachable(exc):  # e.g. a value too long to index: the same on every retry
                raise StoreError(f"{self.where}: the rulings log could not be used ({_why(exc, self.where)}){outcome}") from None
            raise Unreachable(f"{self.where}: the connection to the rulings log failed ({_why(exc, self.where)}){outcome}") from None
        except psycopg.Error as exc:
            raise StoreError(f"{self.where}: the rulings log could not be used ({_why(exc, self.where)}){outcome}") from None

    def check(self) -> None:
        """Reachable, and writable by this role: a read-only role is told before the questions,
        not after the whole ruling has been read out."""
        with self.guard():
            self.conn.execute("SELECT 1 FROM rulings LIMIT 1")
            row = self.conn.execute(
                "SELECT current_user, current_setting('transaction_read_only'), "
                "has_table_privilege('rulings', 'INSERT'), has_table_privilege('snapshots', 'INSERT')").fetchone()
        user, read_only, rulings, snapshots = row
        if read_only == "on":
            raise StoreError(f"{self.where}: cannot record rulings here: the database is read-only "
                             "(a standby, or default_transaction_read_only); use the primary's URL")
        if not (rulings and snapshots):
            table = "rulings" if not rulings else "snapshots"
            raise StoreError(f"{self.where}: cannot record rulings here: the role {user} may not add to the "
                             f"'{table}' table; ask the database's administrator to GRANT INSERT on it")

    def close(self) -> None:
        self.conn.close()
