"""The ruleset a command uses: `-r`, else the event's (REFEREE_RULESET or `log event --ruleset`),
else nmjl. Every command that reads rules (rule, pay, search, list, show, handout) asks here, so
a tournament's judge never settles in the League's cents because she forgot `-r` on one command.

A ruleset chosen against the event's is said in one line on standard error; `rule` refuses it
outright when the ruling would be recorded (see rule.py).
"""
from __future__ import annotations

import os
from typing import Any

from ..errors import UsageError
from .base import err, safe

FALLBACK = "nmjl"


def event_default(saved: Any = None) -> tuple[str | None, str]:
    """(the event's ruleset or None, where it was set, for messages); `saved`: the event file,
    when the caller has read it (`rule --db` reads the one beside its log)."""
    from ..store.context import ENV, db_path, event_ruleset, read_event

    saved = saved if saved is not None else read_event(db_path())
    chosen = event_ruleset(saved)
    if chosen is None:
        return None, ""
    if os.environ.get(ENV["ruleset"], "").strip():
        return chosen, ENV["ruleset"]
    name = os.environ.get(ENV["event"], "").strip() or saved.event or ""
    return chosen, f"the event '{name}'"


def check_default(name: str, where: str) -> Any:
    """The event's ruleset, loaded (as records where the cache has it: only its id and hash are
    read); an unknown one names where it was set, not the command."""
    from ..rules.loader import load_strict

    try:
        return load_strict(name, plain=True)
    except UsageError as exc:
        setting = "REFEREE_RULESET" if where == "REFEREE_RULESET" else "'referee log event --ruleset'"
        raise UsageError(f"{exc.message} (the default ruleset set by {setting}; -r RULESET overrides it)") from None


def differs(rs: Any, default: str, where: str) -> str:
    """'' when `rs` is the event's ruleset (by content, so an id and its folder agree); else the
    event's ruleset as it should be named to the judge."""
    event_rs = check_default(default, where)
    return "" if event_rs.hash == rs.hash else event_rs.id


def ruleset_for(given: str | None) -> str:
    """The ruleset name a command should load: `given` (-r), else the event's, else nmjl; a
    `given` that disagrees with the event's is noted in one line."""
    from ..rules.loader import load_strict

    default, where = event_default()
    if given is None:
        if default is None:
            return FALLBACK
        check_default(default, where)
        return default
    if default is not None and given != default:
        other = differs(load_strict(given), default, where)
        if other:
            err.print(f"referee: note: ruleset {safe(given)}, not {safe(other)} as set by {safe(where)}")
    return given


def load_for(given: str | None) -> Any:
    """`ruleset_for`, loaded."""
    from ..rules.loader import load_strict

    return load_strict(ruleset_for(given))
