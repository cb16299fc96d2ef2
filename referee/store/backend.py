"""The seam between the log's operations and the database that holds them.

`rulings.RulingsLog` speaks one small SQL dialect (`?` placeholders, `INSERT ... ON CONFLICT DO
NOTHING`, `instr`) to a `Backend`; `sqlite` (a file, the default) and `postgres` (a
`postgresql://` URL, for an organization's shared log) each provide one. Nothing above this
layer (the engine, the command line, the web page) knows which is in use.

The PostgreSQL driver is imported only when a URL is opened, so `referee rule` starts as fast
with a file as it did before there were two.
"""
from __future__ import annotations

from typing import Any, ContextManager, Iterable, Protocol, Sequence

from .context import DbUrl, Location
from .db import StoreError


class Unreachable(StoreError):
    """The log's server cannot be reached just now (no connection, a restart, a dropped link).

    Not the same as "no such ruling": a page that meets this must not tell a judge a ruling is
    missing, since it may well be recorded. It passes; the same request later may succeed."""


class Unconfirmed(Unreachable):
    """A write whose COMMIT got no answer (the connection dropped): the server may have it."""


class NotFound(StoreError):
    """No ruling with that id in a log that answered."""


class Cursor(Protocol):
    rowcount: int

    def fetchone(self) -> Any: ...
    def fetchall(self) -> list[Any]: ...
    def __iter__(self) -> Any: ...


class Backend(Protocol):
    """An open, migrated log database."""

    where: Location  # how messages name the log: a path, or a URL that never shows a password

    def execute(self, sql: str, args: Sequence[Any] | Iterable[Any] = ()) -> Cursor:
        """Run one statement written with `?` placeholders."""

    def executemany(self, sql: str, rows: list[Sequence[Any]]) -> Cursor:
        """One statement for many rows, without a round trip each; rowcount is the total."""

    def transaction(self) -> ContextManager[Any]:
        """All or nothing: a failure inside leaves no trace of it."""

    def guard(self, writing: bool = False) -> ContextManager[None]:
        """The database's errors as one StoreError line naming the log (and, when writing,
        whether anything was recorded)."""

    def check(self) -> None:
        """Raise a StoreError when the log is damaged or unreachable."""

    def close(self) -> None: ...


def connect(where: Location, create: bool = True) -> Backend:
    """The backend for a path or a URL; a StoreError (one line) when it cannot be opened.

    Without `create`, a log that does not exist yet is an error, not a new empty one."""
    if isinstance(where, DbUrl):
        from .postgres import PostgresLog

        return PostgresLog.connect(where, create)
    from .sqlite import SqliteLog

    return SqliteLog.connect(where, create)


def migrate(where: Location) -> tuple[int, int]:
    """Create or upgrade the log's schema: (the version it had, 0 for none; the version now)."""
    if isinstance(where, DbUrl):
        from .postgres import PostgresLog

        return PostgresLog.migrate(where)
    from .sqlite import SqliteLog

    return SqliteLog.migrate(where)
