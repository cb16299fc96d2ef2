"""A decision answer as the reader meets it: the question's words and the answer's label.

Shared by `referee diff` and the printed differences sheet, so both say a condition the same way.
"""
from __future__ import annotations

from typing import Any

from ..rules import model as m
from ..rules.loader import Ruleset


def _definition(rss: tuple[Ruleset, ...], sid: str, fact: str) -> m.FactDef | None:
    """The fact as the first ruleset that asks it defines it: in this situation, else anywhere."""
    for rs in rss:
        d = rs.fact(fact, sid) if sid in rs.situations else None
        if d is not None:
            return d
    for rs in rss:
        for other in rs.situations:
            d = rs.fact(fact, other)
            if d is not None:
                return d
    return None


def answer(rss: tuple[Ruleset, ...], sid: str, fact: str, value: Any) -> str:
    """'Did the others act on the call? Two players exposed or threw in' (the label, not 'two')."""
    d = _definition(rss, sid, fact)
    ask = d.ask if d else fact
    if d is not None and d.choices and str(value) in d.choices:
        return f"{ask} {d.choices[str(value)]}"
    return f"{ask} {value}"


def asked_differently(a: Ruleset, b: Ruleset, sid: str, fact: str) -> tuple[str, str] | None:
    """The two wordings of a question both rulesets ask here, where they differ (what counts as
    'exposing' can be the whole difference between two rulesets), else None."""
    da, db = a.fact(fact, sid), b.fact(fact, sid)
    if da is None or db is None:
        return None
    if da.ask == db.ask and (da.choices or {}) == (db.choices or {}):
        return None
    return da.ask, db.ask
