"""The judges' sign-ins at a venue (`referee serve`), kept in the log beside the rulings they made.

A name belongs to the device that first signed in under it at the event: a sign-in from that
device (or one the head judge has approved for the name) is approved at once; one from another
device waits for the head judge. Each ruling and withdrawal records the sign-in that made it
(`rulings.sign_in`, `rulings.withdrawn_sign_in`), so the log tells which phone did each thing.
Ending sign-ins ("sign everyone out", a new judges' PIN) marks them ended; nothing is deleted.

Called by the web package (`web/auth.py`); works on an open `RulingsLog` of either backend.
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from .record import new_id, utc_now

FIRST_DEVICE = "first device"  # approved_by of a name's first sign-in


@dataclass
class SignIn:
    id: str
    event: str | None
    judge: str  # the name as the first sign-in under it spelled it
    judge_key: str  # the name matched without case or spacing
    role: str  # judge or head
    device: str  # a digest of the device's own cookie, never the cookie
    address: str | None
    agent: str | None  # the browser's own description, shortened: for the head judge to tell phones apart
    signed_in_at: str
    approved_at: str | None = None
    approved_by: str | None = None
    ended_at: str | None = None
    ended_by: str | None = None

    @property
    def live(self) -> bool:
        return self.approved_at is not None and self.ended_at is None

    @property
    def code(self) -> str:
        """What the waiting phone shows and the head judge's page lists, to match the two."""
        return self.id[-4:].upper()


_COLUMNS = [f.name for f in fields(SignIn)]
_SELECT = f"SELECT {', '.join(_COLUMNS)} FROM sign_ins"


def key(name: str) -> str:
    return " ".join(name.split()).casefold()


def _event(event: str | None) -> tuple[str, list[Any]]:
    return ("event = ?", [event]) if event is not None else ("event IS NULL", [])


def sign_in(log: Any, event: str | None, name: str, role: str, device: str, address: str | None,
            agent: str | None) -> SignIn:
    """Record a sign-in under `name`: approved when the name is new at the event, or this device
    already holds it, or the head judge signs in; otherwise waiting for the head judge."""
    k = key(name)
    where, args = _event(event)
    with log.db.guard(writing=True), log.db.transaction():
        held = log.db.execute(f"{_SELECT} WHERE {where} AND judge_key = ? AND approved_at IS NOT NULL "
                              "ORDER BY signed_in_at, id", [*args, k]).fetchall()
        held_by = [SignIn(*row) for row in held]
        now = utc_now()
        s = SignIn(new_id(), event, held_by[0].judge if held_by else " ".join(name.split()), k, role, device,
                   address, (agent or "")[:120] or None, now)
        if role == "head" or not held_by:
            s.approved_at, s.approved_by = now, (role if role == "head" else FIRST_DEVICE)
        elif any(h.device == device for h in held_by):
            s.approved_at, s.approved_by = now, "same device"
        log.db.execute(f"INSERT INTO sign_ins ({', '.join(_COLUMNS)}) VALUES ({', '.join('?' * len(_COLUMNS))})",
                       [getattr(s, c) for c in _COLUMNS])
    return s


def get(log: Any, sid: str) -> SignIn | None:
    with log.db.guard():
        row = log.db.execute(f"{_SELECT} WHERE id = ?", (sid,)).fetchone()
    return SignIn(*row) if row else None


def listed(log: Any, event: str | None) -> list[SignIn]:
    """The event's sign-ins still open (waiting or approved), oldest first."""
    where, args = _event(event)
    with log.db.guard():
        rows = log.db.execute(f"{_SELECT} WHERE {where} AND ended_at IS NULL ORDER BY signed_in_at, id", args).fetchall()
    return [SignIn(*row) for row in rows]


def approve(log: Any, event: str | None, sid: str, by: str) -> bool:
    """Let a waiting device in under its name at this event; False when no such sign-in waits."""
    where, args = _event(event)
    with log.db.guard(writing=True), log.db.transaction():
        return bool(log.db.execute(f"UPDATE sign_ins SET approved_at = ?, approved_by = ? WHERE id = ? AND {where} "
                                   "AND approved_at IS NULL AND ended_at IS NULL", [utc_now(), by, sid, *args]).rowcount)


def end(log: Any, event: str | None, by: str, *, only: str | None = None, role: str | None = None,
        keep: str | None = None) -> int:
    """End open sign-ins of the event: one (`only`), those of a role, all but `keep`. How many."""
    where, args = _event(event)
    clauses = [where, "ended_at IS NULL"]
    if only is not None:
        clauses.append("id = ?")
        args.append(only)
    if role is not None:
        clauses.append("role = ?")
        args.append(role)
    if keep is not None:
        clauses.append("id <> ?")
        args.append(keep)
    with log.db.guard(writing=True), log.db.transaction():
        return int(log.db.execute(f"UPDATE sign_ins SET ended_at = ?, ended_by = ? WHERE {' AND '.join(clauses)}",
                                  [utc_now(), by, *args]).rowcount)
