"""A ruling recorded twice by mistake: the same ruling at the same table and round, moments apart.

A judge whose terminal lost the "logged" line (a dropped session, a kill between the commit and the
message) runs the command again; the log would then hold the ruling twice and the players a
repeat offence they did not commit. `rule` asks first (`already`), and records again only when told.
"""
from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from typing import Any

from .context import LogContext
from .db import StoreError
from .record import Ruling
from .rulings import Filters, RulingsLog

WINDOW_S = 600  # ten minutes: a re-run, not the same call made again later in the round


def already(ctx: LogContext, outcome: Any, players: dict[str, str], window_s: int = WINDOW_S) -> Ruling | None:
    """The same ruling recorded at the same table and round within the window, newest first; None
    when there is none, or no table to compare (a ruling with no table is never called a repeat)."""
    if not ctx.table:
        return None
    since = (datetime.now(timezone.utc) - timedelta(seconds=window_s)).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    try:
        with RulingsLog.open(ctx.db) as log:
            near = log.find(Filters(event=ctx.event, round=ctx.round, table=ctx.table, situation=outcome.start,
                                    since=since, include_withdrawn=False))
    except StoreError:  # recording will say what is wrong with the log, in its own words
        return None
    answers = json.loads(json.dumps(dict(outcome.facts)))  # as stored: a tuple reads back as a list
    for r in reversed(near):
        if (r.round, r.event) == (ctx.round, ctx.event) and r.situation == outcome.start and \
                r.ruleset_hash == outcome.ruleset.hash and r.answers == answers and r.players == players:
            return r
    return None


def described(r: Ruling) -> str:
    """'already recorded at 11:33 as #12' (local time), or the id's tail where the log has no number."""
    local = datetime.fromisoformat(r.recorded_at.replace("Z", "+00:00")).astimezone()
    number = getattr(r, "number", None)
    return f"already recorded at {local:%H:%M} as #{number}" if number else f"already recorded at {local:%H:%M} as {r.id[-8:]}"
