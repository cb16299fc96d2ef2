"""The backend a log's address means: a `postgresql://` URL, else a SQLite file.

The PostgreSQL driver is imported only when a URL is opened, so `referee rule` starts as fast
with a file as it did before there were two. Sits above both backends (each imports only
`backend` for the protocol and the errors they share).
"""
from __future__ import annotations

from .backend import Backend
from .context import DbUrl, Location


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
