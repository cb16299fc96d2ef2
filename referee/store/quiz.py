"""Quiz progress, per judge, in the rulings log's database: its own table, never a ruling.

Each answered part of each question is one row of `quiz_answers`, keyed by the session (one
sitting of a quiz), the question's number in it and the part, so a page sent twice records once.
The table is created on the first answer through the same backend seam as the rulings (a file
or a postgresql:// URL); the rulings' tables, their schema version and everything `log` reads
are untouched by it, so an older referee opens a log that has one.
"""
from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any, Iterator

from .backend import Backend
from .connect import connect
from .context import Location, db_path
from .record import utc_now

_TABLE = """
CREATE TABLE IF NOT EXISTS quiz_answers (
    session TEXT NOT NULL,
    n INTEGER NOT NULL,
    part TEXT NOT NULL,
    answered_at TEXT NOT NULL,
    judge TEXT NOT NULL,
    ruleset_id TEXT NOT NULL,
    item TEXT NOT NULL,
    situation TEXT NOT NULL,
    phase TEXT NOT NULL,
    given TEXT NOT NULL,
    correct INTEGER NOT NULL,
    PRIMARY KEY (session, n, part)
)
"""
_INDEX = "CREATE INDEX IF NOT EXISTS quiz_answers_judge ON quiz_answers (judge, answered_at)"
_INSERT = ("INSERT INTO quiz_answers (session, n, part, answered_at, judge, ruleset_id, item, situation, phase, "
           "given, correct) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING")
_COLUMNS = "judge, session, n, answered_at, ruleset_id, item, situation, phase, part, correct"


@dataclass(frozen=True)
class Answer:
    """One part of one question as it was marked."""

    judge: str
    session: str
    n: int
    answered_at: str
    ruleset: str
    item: str
    situation: str
    phase: str
    part: str
    right: bool


class QuizLog:
    def __init__(self, backend: Backend) -> None:
        self.db = backend
        self.where = backend.where

    @classmethod
    @contextlib.contextmanager
    def open(cls, where: Location | str | None = None, create: bool = True) -> Iterator["QuizLog"]:
        backend = connect(db_path(where), create)
        try:
            log = cls(backend)
            if create:
                log._ensure()
            yield log
        finally:
            backend.close()

    def _ensure(self) -> None:
        with self.db.guard(writing=True), self.db.transaction():
            self.db.execute(_TABLE)
            self.db.execute(_INDEX)

    def record(self, session: str, n: int, judge: str, ruleset: str, item: str, situation: str, phase: str,
               marks: list[tuple[str, str, bool]]) -> None:
        """One question's parts (part, what she answered, right), all or none."""
        now = utc_now()
        rows: list[Any] = [(session, n, part, now, judge, ruleset, item, situation, phase, given, int(right))
                           for part, given, right in marks]
        with self.db.guard(writing=True), self.db.transaction():
            self.db.executemany(_INSERT, rows)

    def answers(self, judge: str | None = None, session: str | None = None) -> list[Answer]:
        """Every marked part, oldest first; one judge's (names compared ignoring case) or one session's."""
        if not self._exists():
            return []
        clauses, args = [], []
        if judge is not None:
            clauses.append("lower(judge) = lower(?)")
            args.append(judge.strip())
        if session is not None:
            clauses.append("session = ?")
            args.append(session)
        where = (" WHERE " + " AND ".join(clauses)) if clauses else ""
        with self.db.guard():
            rows = self.db.execute(f"SELECT {_COLUMNS} FROM quiz_answers{where} ORDER BY answered_at, session, n, part",
                                   args).fetchall()
        return [Answer(r[0], r[1], int(r[2]), r[3], r[4], r[5], r[6], r[7], r[8], bool(r[9])) for r in rows]

    def _exists(self) -> bool:
        with self.db.guard():
            try:
                self.db.execute("SELECT 1 FROM quiz_answers LIMIT 1").fetchall()
                return True
            except Exception as exc:  # no such table yet: nobody has answered a quiz in this log
                if "quiz_answers" in str(exc) or "no such table" in str(exc) or "does not exist" in str(exc):
                    return False
                raise
