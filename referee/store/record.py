"""A ruling as the log keeps it, built from the engine's outcome at the moment it is printed."""
from __future__ import annotations

import os
import platform
import time
from dataclasses import dataclass, field, fields
from datetime import datetime, timezone
from typing import Any

from .context import LogContext

_CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz"


def new_id(now_ms: int | None = None) -> str:
    """A ULID in lower case: 48 bits of milliseconds, then 80 random bits.

    Sorts by time and is unique across machines without coordination, so logs from several
    judges' laptops merge without clashes.
    """
    ms = int(time.time() * 1000) if now_ms is None else now_ms
    value = (ms << 80) | int.from_bytes(os.urandom(10), "big")
    chars = []
    for _ in range(26):
        chars.append(_CROCKFORD[value & 31])
        value >>= 5
    return "".join(reversed(chars))


def utc_now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass
class Ruling:
    """One recorded ruling. JSON-like fields hold plain dicts and lists."""

    id: str
    recorded_at: str  # UTC, ISO 8601 with a Z
    ruleset_id: str
    ruleset_version: str
    ruleset_hash: str
    situation: str  # where the judge started
    ruled_in: str  # where the ruling was found (after any goto)
    ruling_id: str
    game: str  # continues, ends, replay, redeal
    event: str | None = None
    round: str | None = None
    table: str | None = None
    judge: str | None = None
    machine: str | None = None
    ruleset_source: str | None = None  # the folder the rules were read from
    answers: dict[str, Any] = field(default_factory=dict)  # every fact, as the engine used it
    seats: dict[str, Any] = field(default_factory=dict)  # role -> seat(s)
    players: dict[str, str] = field(default_factory=dict)  # seat -> name
    questions: list[dict[str, Any]] = field(default_factory=list)  # {question, fact, answer, situation}
    dead: list[str] = field(default_factory=list)  # seats, or a role's label when the seat was left open
    payments: list[dict[str, Any]] = field(default_factory=list)  # {from, to, amount, formula}
    points: list[dict[str, Any]] = field(default_factory=list)  # {to, points}
    outcome: dict[str, Any] = field(default_factory=dict)  # the `rule --json` document, whatever its shape
    printed: str = ""  # the ruling exactly as the judge saw it
    withdrawn_at: str | None = None
    withdrawn_by: str | None = None
    withdrawn_reason: str | None = None
    # Kept by this log, not part of the ruling: an export leaves them out and an import assigns its own.
    number: int | None = field(default=None, metadata={"log": True})  # its number within the event, from 1
    sign_in: str | None = field(default=None, metadata={"log": True})  # the sign-in that recorded it (serve)
    withdrawn_sign_in: str | None = field(default=None, metadata={"log": True})

    @property
    def withdrawn(self) -> bool:
        return self.withdrawn_at is not None

    def as_dict(self) -> dict[str, Any]:
        """The ruling itself, as exported and shown by `log show --json`: without what only this log keeps."""
        return {name: getattr(self, name) for name in FIELDS}


FIELDS = [f.name for f in fields(Ruling) if not f.metadata.get("log")]
LOG_FIELDS = [f.name for f in fields(Ruling) if f.metadata.get("log")]
JSON_FIELDS = ["answers", "seats", "players", "questions", "dead", "payments", "points", "outcome"]


def verdict(o: Any) -> dict[str, Any]:
    """What a ruling decides, in plain data: the part replay compares."""
    return {
        "ruling": o.ruling.id,
        "game": o.game,
        "dead": [p.seat or p.label for p in o.dead],
        "payments": [
            {"from": p.payer.seat or p.payer.label, "to": p.payee.seat or p.payee.label,
             "amount": p.amount, "formula": p.formula}
            for p in o.payments
        ],
        "points": [{"to": a.party.seat or a.party.label, "points": a.points} for a in o.awards],
    }


def from_outcome(o: Any, ctx: LogContext, players: dict[str, str], printed: str, document: dict[str, Any]) -> Ruling:
    """The record of an outcome (engine.Outcome) as printed, with every player named (seat -> name)."""
    rs = o.ruleset
    questions = []
    for s in o.path:
        definition = rs.fact(s.fact, s.situation)
        questions.append({"question": definition.ask if definition else s.fact, "fact": s.fact,
                          "answer": s.answer, "situation": s.situation})
    visited = [o.start, *(s.situation for s in o.path), o.situation]  # a goto's roles count too
    seats = {}
    for name, value in o.facts.items():
        kinds = {d.type for d in (rs.fact(name, sid) for sid in visited) if d is not None}
        if kinds & {"seat", "seats"} and value is not None:
            seats[name] = value
    v = verdict(o)
    return Ruling(
        id=new_id(), recorded_at=utc_now(),
        ruleset_id=rs.id, ruleset_version=str(rs.meta.version), ruleset_hash=rs.hash,
        ruleset_source=str(rs.folder), situation=o.start, ruled_in=o.situation, ruling_id=o.ruling.id, game=o.game,
        event=ctx.event, round=ctx.round, table=ctx.table, judge=ctx.judge, machine=platform.node() or None,
        sign_in=ctx.sign_in,
        answers=dict(o.facts), seats=seats, players=dict(players), questions=questions,
        dead=v["dead"], payments=v["payments"], points=v["points"],
        outcome=document, printed=printed,
    )
