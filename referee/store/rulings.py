"""The log's operations: add, find, show, withdraw, summarize by player, merge another log."""
from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator

from ..errors import UsageError
from .backend import Backend, NotFound, Unconfirmed, Unreachable
from .connect import connect
from .context import Location, db_path
from .db import StoreError
from . import charges
from .charges import against  # noqa: F401  (where callers have found it)
from .record import FIELDS, JSON_FIELDS, LOG_FIELDS, Ruling, utc_now

ORIGIN = ("machine", "ruleset_source")  # where a ruling was made; `log export` keeps them home unless asked
COLUMN = {"table": "table_no"}  # `table` is an SQL keyword
COLUMNS = [COLUMN.get(f, f) for f in FIELDS]
_SELECT = ", ".join(COLUMNS + LOG_FIELDS)  # a ruling as read back: with its number and sign-ins


def _row(r: Ruling) -> list[Any]:
    d = r.as_dict()
    return [json.dumps(d[f], sort_keys=True) if f in JSON_FIELDS else d[f] for f in FIELDS]


def _ruling(row: tuple[Any, ...]) -> Ruling:
    values = {f: (json.loads(v) if f in JSON_FIELDS else v) for f, v in zip(FIELDS + LOG_FIELDS, row)}
    return Ruling(**values)


@dataclass
class Filters:
    event: str | None = None
    round: str | None = None
    table: str | None = None
    player: str | None = None
    situation: str | None = None
    judge: str | None = None  # exactly as recorded (the judges' page signs each name in one spelling)
    since: str | None = None  # an ISO date or UTC time; compared as text, which ISO allows
    include_withdrawn: bool = True

    def where(self) -> tuple[str, list[Any]]:
        clauses, args = [], []
        for name in ("event", "round", "table", "judge"):
            value = getattr(self, name)
            if value is not None:
                clauses.append(f"{COLUMN.get(name, name)} = ?")
                args.append(value)
        if self.situation:
            clauses.append("(situation = ? OR ruled_in = ?)")
            args += [self.situation, self.situation]
        if self.since:
            clauses.append("recorded_at >= ?")
            args.append(self.since)
        if not self.include_withdrawn:
            clauses.append("withdrawn_at IS NULL")
        return (" WHERE " + " AND ".join(clauses) if clauses else ""), args

    def keep(self, r: Ruling) -> bool:
        """The player filter: a name at any seat, ignoring case."""
        if not self.player:
            return True
        want = self.player.strip().casefold()
        return any(name.strip().casefold() == want for name in r.players.values())


@dataclass(frozen=True)
class Entry:
    """A ruling as a player's record lists it: which, when and where (`log show ID` has the rest)."""

    id: str
    recorded_at: str
    event: str | None
    round: str | None
    table: str | None
    situation: str
    ruled_in: str
    ruling_id: str
    game: str


_ENTRY = ["id", "recorded_at", "event", "round", "table_no", "situation", "ruled_in", "ruling_id", "game"]


@dataclass
class PlayerRecord:
    """One player's record in the log: what was ruled against her."""

    name: str
    against: list[Entry] = field(default_factory=list)  # rulings that made her dead, pay or lose points (or owe a penalty left open)
    dead: int = 0
    paid: int = 0  # money, in the ruleset's unit
    paid_open: int = 0  # payments whose amount was left open
    points_lost: int = 0
    points_open: int = 0  # penalties whose points were left open (the winner's exposures not given)
    rulings: int = 0  # every ruling that names her
    charged: int = 0  # how many rulings are against her (`against` lists them when asked for)
    repeats: dict[str, int] = field(default_factory=dict)  # situations ruled against her more than once


@dataclass
class Merged:
    """What an import did: rulings added, withdrawals carried over, ids in conflict (not applied)."""

    added: int = 0
    withdrawn: int = 0
    conflicts: list[str] = field(default_factory=list)


_WRITTEN = COLUMNS + ["number", "sign_in"]
_INSERT = f"INSERT INTO rulings ({', '.join(_WRITTEN)}) VALUES ({', '.join('?' * len(_WRITTEN))})"
_CONTENT_AT = [i for i, f in enumerate(FIELDS) if not f.startswith("withdrawn_")]
_ORIGIN_AT = {FIELDS.index(f) for f in ORIGIN}


def _numbered(r: Ruling, number: int) -> list[Any]:
    return [*_row(r), number, r.sign_in]


def _charges(r: Ruling) -> list[list[Any]]:
    return charges.rows(r.id, r.players, r.dead, r.payments, r.points, charges.settled(r.outcome))
_BATCH = 500  # rulings per query when importing (SQLite allows 32,766 parameters)
_SNAPSHOT = "INSERT INTO snapshots (hash, ruleset_id, version, files) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING"


class RulingsLog:
    """An open log. Use as a context manager: `with RulingsLog.open(path) as log: ...`.

    The same operations on either backend (backend.py): a file path or a postgresql:// URL.
    """

    def __init__(self, backend: Backend) -> None:
        self.db = backend
        self.path = backend.where  # a Path or a DbUrl; either prints without a password

    @classmethod
    def open(cls, where: Location | str, create: bool = True) -> "RulingsLog":
        return cls(connect(db_path(where), create))

    def __enter__(self) -> "RulingsLog":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.db.close()

    # -- writing

    def add(self, r: Ruling, snapshot: tuple[str, str, str, bytes] | None = None) -> None:
        """Record one ruling (and the rules it was made under, the first time that version is seen)."""
        with self.db.guard(writing=True), self.db.transaction():
            r.number = self._next_number(r.event)
            self.db.execute(_INSERT, _numbered(r, r.number))
            for row in _charges(r):
                self.db.execute(charges.INSERT, row)
            if snapshot is not None:
                self.db.execute(_SNAPSHOT, snapshot)

    def _next_number(self, event: str | None) -> int:
        """The next ruling's number within its event; inside a write transaction, which both
        backends hold one at a time, so two judges recording at once never share a number."""
        where = "event = ?" if event is not None else "event IS NULL"
        row = self.db.execute(f"SELECT max(number) FROM rulings WHERE {where}", [event] if event is not None else []).fetchone()
        return int(row[0] or 0) + 1

    def has_snapshot(self, hash: str) -> bool:
        with self.db.guard():
            return self.db.execute("SELECT 1 FROM snapshots WHERE hash = ?", (hash,)).fetchone() is not None

    def snapshot(self, hash: str) -> tuple[str, str, str, bytes] | None:
        with self.db.guard():
            row = self.db.execute("SELECT hash, ruleset_id, version, files FROM snapshots WHERE hash = ?", (hash,)).fetchone()
        return (row[0], row[1], row[2], bytes(row[3])) if row else None

    def snapshots(self) -> list[tuple[str, str, str, bytes]]:
        with self.db.guard():
            rows = self.db.execute("SELECT hash, ruleset_id, version, files FROM snapshots ORDER BY hash").fetchall()
        return [(r[0], r[1], r[2], bytes(r[3])) for r in rows]

    def withdraw(self, ref: str, by: str | None, reason: str, sign_in: str | None = None) -> Ruling:
        """Mark a mistaken ruling withdrawn: it stays in the log, with who withdrew it and why."""
        if not reason.strip():
            raise UsageError("say why the ruling is withdrawn: --reason \"...\"")
        r = self.get(ref)
        if r.withdrawn:
            raise UsageError(f"ruling {r.id} was already withdrawn at {r.withdrawn_at} by {r.withdrawn_by or 'someone'}: {r.withdrawn_reason}")
        with self.db.guard(writing=True), self.db.transaction():
            self.db.execute("UPDATE rulings SET withdrawn_at = ?, withdrawn_by = ?, withdrawn_reason = ?, withdrawn_sign_in = ? "
                            "WHERE id = ? AND withdrawn_at IS NULL", (utc_now(), by, reason.strip(), sign_in, r.id))
        return self.get(r.id)

    def merge(self, rulings: Iterable[Ruling], snapshots: Iterable[tuple[str, str, str, bytes]] = ()) -> "Merged":
        """Add rulings not yet here (by id) and withdrawals made elsewhere of rulings that are
        the same here; anything else under an id already here is a conflict, reported and not applied.

        An import never changes what a ruling here says, and never withdraws a ruling whose
        record differs from the one withdrawn elsewhere (a forged withdrawal would have to copy
        it field for field). Stored rules already here are kept. One transaction: a file that
        fails halfway adds nothing.
        """
        with self.merging() as merge:
            return merge(rulings, snapshots)

    @contextlib.contextmanager
    def merging(self) -> Iterator[Callable[..., "Merged"]]:
        """One transaction for several merges (`merge(rulings, snapshots)` inside): the files of
        one import go in together or not at all. `rulings` may be a stream (an export read line
        by line): it is taken a batch at a time, so an import's memory does not grow with it."""
        with self.db.guard(writing=True), self.db.transaction():
            yield self._merge

    def _merge(self, rulings: Iterable[Ruling], snapshots: Iterable[tuple[str, str, str, bytes]] = ()) -> "Merged":
        merged = Merged()
        batch: list[Ruling] = []
        for r in rulings:
            batch.append(r)
            if len(batch) == _BATCH:
                self._merge_batch(batch, merged)
                batch = []
        if batch:
            self._merge_batch(batch, merged)
        for snap in snapshots:
            self.db.execute(_SNAPSHOT, snap)  # stored rules already here are kept
        return merged

    def _merge_batch(self, batch: list[Ruling], merged: Merged) -> None:
        """One query for the ids already here, one batch of inserts for the rest: on a server,
        a round trip per ruling made a 100,000-ruling import take minutes."""
        ids = sorted({r.id for r in batch})
        rows = self.db.execute(f"SELECT {', '.join(COLUMNS)} FROM rulings WHERE id IN ({', '.join('?' * len(ids))})", ids).fetchall()
        here = {row[0]: list(row) for row in rows}  # as stored: compared as stored, never decoded
        fresh: dict[str, Ruling] = {}
        again: list[tuple[list[Any], Ruling, list[Any]]] = []  # (the row here, the ruling imported under its id, its row)
        for r in batch:
            row = _row(r)
            old = here.get(r.id) or (_row(fresh[r.id]) if r.id in fresh else None)
            if old is None:
                fresh[r.id] = r
            else:
                again.append((old, r, row))
        if fresh:  # ON CONFLICT: another importer at the same moment may add one first
            numbers: dict[str | None, int] = {}
            rows, charged = [], []
            for r in sorted(fresh.values(), key=lambda r: (r.recorded_at, r.id)):  # numbered in this log, in time order
                numbers[r.event] = numbers.get(r.event) or self._next_number(r.event)
                r.number = numbers[r.event]
                numbers[r.event] += 1
                rows.append(_numbered(r, r.number))
                charged += _charges(r)
            merged.added += self.db.executemany(_INSERT + " ON CONFLICT DO NOTHING", rows).rowcount
            if charged:  # a ruling another importer added first has its charges already: they do nothing
                self.db.executemany(charges.INSERT, charged)
        for old, r, row in again:
            # an export leaves the host name and local folder behind unless asked: their
            # absence is no difference (ORIGIN), a different value is
            if any(old[i] != row[i] and not (i in _ORIGIN_AT and row[i] is None) for i in _CONTENT_AT):
                merged.conflicts.append(r.id)
            elif r.withdrawn:
                merged.withdrawn += self.db.execute(
                    "UPDATE rulings SET withdrawn_at = ?, withdrawn_by = ?, withdrawn_reason = ? WHERE id = ? AND withdrawn_at IS NULL",
                    (r.withdrawn_at, r.withdrawn_by, r.withdrawn_reason, r.id)).rowcount

    # -- reading

    def find(self, filters: Filters | None = None, last: int | None = None) -> list[Ruling]:
        """The rulings that match, oldest first; with `last`, only the newest `last` of them
        (read from the end of the time index, not the whole log)."""
        filters = filters or Filters()
        where, args = filters.where()
        if last and not filters.player:  # the player filter is applied here, after the query
            # by the time index alone (adding ", id" would sort the whole table first)
            sql = f"SELECT {_SELECT} FROM rulings{where} ORDER BY recorded_at DESC LIMIT ?"
            with self.db.guard():
                rows = self.db.execute(sql, [*args, last]).fetchall()
            return sorted(map(_ruling, rows), key=lambda r: (r.recorded_at, r.id))
        with self.db.guard():
            rows = self.db.execute(f"SELECT {_SELECT} FROM rulings{where} ORDER BY recorded_at, id", args).fetchall()
        found = [r for r in map(_ruling, rows) if filters.keep(r)]
        return found[-last:] if last else found

    def page(self, filters: Filters | None, limit: int, offset: int = 0) -> list[Ruling]:
        """`limit` matching rulings from the `offset`-th on, oldest first: one page of a long
        event, read by the database rather than decoded whole and sliced."""
        filters = filters or Filters()
        if filters.player:  # a name at any seat: matched after decoding
            return self.find(filters)[offset:offset + limit]
        where, args = filters.where()
        with self.db.guard():
            rows = self.db.execute(f"SELECT {_SELECT} FROM rulings{where} ORDER BY recorded_at, id LIMIT ? OFFSET ?",
                                   [*args, int(limit), int(offset)]).fetchall()
        return list(map(_ruling, rows))

    def newest(self, filters: Filters | None, limit: int, before: tuple[str, str] | None = None) -> tuple[list[Ruling], bool]:
        """Up to `limit` matching rulings, newest first, older than `before` (a ruling's
        (recorded_at, id)); and whether there are older ones. A page of a long log, by the database."""
        filters = filters or Filters()
        where, args = filters.where()
        if before is not None:  # a range on the time index, as in `rows`
            where += f"{' AND' if where else ' WHERE'} recorded_at <= ? AND NOT (recorded_at = ? AND id >= ?)"
            args = [*args, before[0], before[0], before[1]]
        with self.db.guard():
            rows = self.db.execute(f"SELECT {_SELECT} FROM rulings{where} ORDER BY recorded_at DESC, id DESC LIMIT ?",
                                   [*args, int(limit) + 1]).fetchall()
        return list(map(_ruling, rows[:limit])), len(rows) > limit

    def rows(self, filters: Filters | None = None, batch: int = 2000) -> Iterator[tuple[Any, ...]]:
        """Every matching ruling as stored (JSON fields as their stored text), oldest first, a
        batch at a time: an export of 100,000 rulings holds one batch in memory, never the log.
        Keyset paging on (recorded_at, id) reads the same from either backend (a PostgreSQL
        cursor would fetch the whole result first). No player filter: that one needs decoding."""
        filters = filters or Filters()
        where, args = filters.where()
        # a range on the time index (an OR of the two would scan it from the start every page)
        after = f"{' AND' if where else ' WHERE'} recorded_at >= ? AND NOT (recorded_at = ? AND id <= ?)"
        sql = f"SELECT {', '.join(COLUMNS)} FROM rulings{where}{{}} ORDER BY recorded_at, id LIMIT {int(batch)}"
        last: tuple[str, str] | None = None
        while True:
            with self.db.guard():
                if last is None:
                    page = self.db.execute(sql.format(""), args).fetchall()
                else:
                    page = self.db.execute(sql.format(after), [*args, last[0], last[0], last[1]]).fetchall()
            yield from page
            if len(page) < batch:
                return
            last = (page[-1][1], page[-1][0])  # COLUMNS begin id, recorded_at

    def hashes(self, filters: Filters | None = None) -> set[str]:
        """The rules' hashes the matching rulings were made under (for the snapshots an export carries)."""
        where, args = (filters or Filters()).where()
        with self.db.guard():
            return {row[0] for row in self.db.execute(f"SELECT DISTINCT ruleset_hash FROM rulings{where}", args).fetchall()}

    def count(self, filters: Filters | None = None) -> int:
        filters = filters or Filters()
        if filters.player:
            return len(self.find(filters))
        where, args = filters.where()
        with self.db.guard():
            return int(self.db.execute(f"SELECT count(*) FROM rulings{where}", args).fetchone()[0])

    def __iter__(self) -> Iterator[Ruling]:
        return iter(self.find())

    def ruling(self, rid: str) -> Ruling | None:
        """The ruling with exactly this id (its primary key: one index lookup), or None.

        The key a caller issues before recording (`record(..., ruling_id=)`) finds it again:
        whether a ruling was recorded already, and as which number."""
        with self.db.guard():
            row = self.db.execute(f"SELECT {_SELECT} FROM rulings WHERE id = ?", (rid,)).fetchone()
        return _ruling(row) if row else None

    def last_number(self, event: str | None) -> int:
        """The highest ruling number in an event (withdrawn rulings keep theirs): by index, not by count."""
        with self.db.guard():
            return self._next_number(event) - 1

    def get(self, ref: str) -> Ruling:
        """A ruling by its id, or by any unique part of it of 4 characters or more (`log list` shows the last 8)."""
        ref = ref.strip().lower()
        if len(ref) < 4:
            raise UsageError(f"ruling id '{ref}' is too short; give at least 4 characters")
        whole = self.ruling(ref)  # a whole id by its key, before a scan for a part of one
        if whole is not None:
            return whole
        with self.db.guard():
            rows = self.db.execute(
                f"SELECT {_SELECT} FROM rulings WHERE instr(id, ?) > 0 LIMIT 6", (ref,)).fetchall()
        exact = [row for row in rows if row[0] == ref]
        if exact or len(rows) == 1:
            return _ruling((exact or rows)[0])
        if not rows:
            raise NotFound(f"no ruling '{ref}' in {self.path}; see 'referee log list'")
        raise UsageError(f"'{ref}' matches several rulings ({', '.join(r[0] for r in rows[:5])}); give more of the id")

    def charged(self, ids: list[str]) -> dict[str, list[str]]:
        """Ruling id -> the players (as `charges.key` spells them) each of these rulings is against."""
        if not ids:
            return {}
        with self.db.guard():
            rows = self.db.execute(f"SELECT ruling, player_key FROM charges WHERE charged = 1 AND ruling IN "
                                   f"({', '.join('?' * len(ids))}) ORDER BY ruling, seat", list(ids)).fetchall()
        out: dict[str, list[str]] = {}
        for rid, key in rows:
            out.setdefault(rid, []).append(key)
        return out

    def players(self, filters: Filters | None = None, situations: set[str] | None = None,
                entries: bool = True) -> list[PlayerRecord]:
        """Per player (by name, ignoring case): rulings against them, dead hands, penalties paid, points lost.

        Only what a ruling holds against a player counts (see `charges.against`); withdrawn rulings
        do not. Added up by the database from the charges written with each ruling.
        `situations`: only rulings in these (a page's repeat offences need no others).
        `entries`: list each player's rulings against her (`against`); without, only the counts.
        """
        f = Filters(**{**(filters or Filters()).__dict__, "include_withdrawn": False})
        where, args = f.where()
        if situations is not None:
            chosen = sorted(situations) or [""]
            where += f"{' AND' if where else ' WHERE'} situation IN ({', '.join('?' * len(chosen))})"
            args += chosen
        if f.player:  # the rulings that name her at any seat, and everyone in them
            where += f"{' AND' if where else ' WHERE'} id IN (SELECT ruling FROM charges WHERE player_key = ?)"
            args.append(charges.key(f.player))
        joined = f"FROM charges JOIN rulings ON rulings.id = charges.ruling{where}"
        with self.db.guard():
            # one pass, per player and situation: a player's totals, and her repeat offences
            sums = self.db.execute(
                "SELECT player_key, min(player), situation, count(*), sum(charged), sum(is_dead), sum(paid), sum(paid_open), "
                f"sum(points_lost), sum(points_open) {joined} GROUP BY player_key, situation", args).fetchall()
            listed = self.db.execute(
                f"SELECT player_key, {', '.join('rulings.' + c for c in _ENTRY)} {joined}{' AND' if where else ' WHERE'} "
                "charged = 1 ORDER BY recorded_at, rulings.id", args).fetchall() if entries else []
        table: dict[str, PlayerRecord] = {}
        for k, name, situation, n, c, d, p, po, pl, pn in sums:
            rec = table.setdefault(k, PlayerRecord(name))
            rec.name = min(rec.name, name)  # one spelling whichever situation comes first
            rec.rulings += int(n)
            rec.charged += int(c or 0)
            rec.dead += int(d or 0)
            rec.paid += int(p or 0)
            rec.paid_open += int(po or 0)
            rec.points_lost += int(pl or 0)
            rec.points_open += int(pn or 0)
            if (c or 0) > 1:
                rec.repeats[situation] = int(c)
        for k, *entry in listed:
            table[k].against.append(Entry(*entry))
        return sorted(table.values(), key=lambda p: (-p.charged, -p.dead, p.name.casefold()))


def check(path: Location) -> None:
    """Open (creating) the log, check it and close it: a bad --db is reported before the
    questions, not after the ruling is read out."""
    with RulingsLog.open(path) as log:
        log.db.check()


def record(ctx: Any, outcome: Any, players: dict[str, str], printed: str, document: dict[str, Any],
           ruling_id: str | None = None) -> Ruling:
    """Record a ruling as printed into the context's log (see `store`), for a judge at a
    terminal: a failure says plainly that the ruling on the screen above is NOT in the log."""
    try:
        return store(ctx, outcome, players, printed, document, ruling_id)
    except Unconfirmed:  # it may well be in the log: 'NOT recorded' could be false
        raise
    except (StoreError, OSError) as exc:  # the ruling is on the screen already: say plainly it is not in the log
        why = exc.message if isinstance(exc, StoreError) else f"{exc.filename}: {exc.strerror}"
        kind = Unreachable if isinstance(exc, Unreachable) else StoreError
        raise kind(f"the ruling above was NOT recorded: {why}") from None


def store(ctx: Any, outcome: Any, players: dict[str, str], printed: str, document: dict[str, Any],
          ruling_id: str | None = None) -> Ruling:
    """Record a ruling into the context's log; the rules' files too, the first time. The log's
    own errors pass through as they are (Unreachable: try again; StoreError: not recorded).

    `ruling_id` (a `new_id()` issued before the ruling was shown, as the judges' web page does)
    makes recording idempotent: a form sent twice finds its id already there, adds nothing and
    returns the ruling first stored.
    """
    from .record import from_outcome
    from .snapshot import capture

    r = from_outcome(outcome, ctx, players, printed, document)
    if ruling_id is not None:
        r.id = ruling_id
    with RulingsLog.open(ctx.db) as log:
        snap = None if log.has_snapshot(r.ruleset_hash) else capture(outcome.ruleset)
        if ruling_id is None:
            log.add(r, snap)
            return r
        merged = log.merge([r], [snap] if snap else [])  # one transaction: an id already there is not added again
        return r if merged.added else log.get(ruling_id)


def since_utc(text: str) -> str:
    """`--since`: a date or time (local unless it says otherwise), or 'today', as a UTC ISO string."""
    from datetime import datetime, time as dtime, timezone

    raw = text.strip()
    try:
        when = datetime.combine(datetime.now().date(), dtime()) if raw.lower() == "today" else datetime.fromisoformat(raw.replace("Z", "+00:00"))
    except ValueError:
        raise UsageError(f"--since: '{text}' is not a date or time; e.g. 2026-11-23 or 2026-11-23T14:00 or today") from None
    try:
        if when.tzinfo is None:
            when = when.astimezone()  # the judge's local clock
        return when.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    except (OverflowError, ValueError, OSError):  # year 1 or 9999 moved across a time zone
        raise UsageError(f"--since: '{text}' is outside the dates a log can hold; e.g. 2026-11-23") from None
