"""The seam between the log's operations and the database that holds them.

`rulings.RulingsLog` speaks one small SQL dialect (`?` placeholders, `INSERT ... ON CONFLICT DO
NOTHING`, `instr`) to a `Backend`; `sqlite` (a file, the default) and `postgres` (a
`postgresql://` URL, for an organization's shared log) each provide one. Nothing above this
layer (the engine, the command line, the web page) knows which is in use.

Which backend a log's address means is chosen in `connect`, above both; this module holds only
what both share (the protocol and the errors), so neither backend imports the other's chooser.
"""
from __future__ import annotations

from typing import Any, ContextManager, Iterable, Protocol, Sequence

from .context import Location
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
