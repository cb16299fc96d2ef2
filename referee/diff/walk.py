"""The walk: every path of every situation, in both rulesets at once.

For every situation in either ruleset, walk both engines together: whenever either one asks a
decision question, branch over every answer; details (seats, hand values) get fixed values, so
both rulesets see exactly the same table. Compare the outcomes at the end of each path, and
keep every path (differing or not) with the situations each side passed through, so that
`owners` can say which situation a difference belongs to.
"""
from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..rules import model as m
from ..ruling.engine import Question, advance
from ..ruling.outcome import Outcome
from ..errors import RefereeError
from ..rules.loader import Ruleset
from ..ruling.render import party_json

ASPECTS = ("dead", "game", "payments", "points", "tiles")
MAX_PATHS = 5000  # per situation; a guard, far above any real tree
NUMBER_VALUES = {"hand_value": 30, "declared_value": 40, "attempted_value": 35, "winner_exposures": 2}
DEFAULT_NUMBER = 35
# numbers whose value changes the ruling in some rulesets: branched over like answers
NUMBER_BRANCHES = {"winner_exposures": [1, 2, 3]}


@dataclass
class Side:
    """One ruleset's outcome on a path, reduced to what a table feels."""

    ruling: str | None
    dead: list[str] = field(default_factory=list)
    game: str | None = None
    payments: list[tuple[str, str, Any]] = field(default_factory=list)
    points: list[tuple[str, Any]] = field(default_factory=list)
    tiles: list[str] = field(default_factory=list)
    text: str = ""
    error: str | None = None
    cite: list[str] = field(default_factory=list, compare=False)
    used: list[str] = field(default_factory=list, compare=False)  # the facts the path and ruling read
    # the situations the path passed through, the one it started in first and the ruling's last
    trail: list[str] = field(default_factory=list, compare=False)
    # dead, payments and points with every party as {seat, role, name}, as `rule --json` gives them
    parties: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def key(self, aspect: str) -> Any:
        value = getattr(self, aspect)
        return sorted(value) if isinstance(value, list) else value

    def as_json(self) -> dict[str, Any]:
        return {
            "ruling": self.ruling, "dead": self.parties.get("dead", []), "game": self.game,
            "payments": self.parties.get("payments", []), "points": self.parties.get("points", []),
            "tiles": self.tiles, "text": self.text, "error": self.error,
        }


@dataclass
class Difference:
    answers: dict[str, Any]  # the decision answers that lead here, in the order asked
    details: dict[str, Any]  # seats and numbers the comparison assumed
    differs: list[str]  # which aspects differ (empty on a path both rule alike)
    a: Side
    b: Side
    start: str = ""  # the situation the walk began in


@dataclass
class SituationDiff:
    id: str
    title: str
    paths: int
    differences: list[Difference]
    walked: list[Difference] = field(default_factory=list, repr=False)  # every path, alike or not


@dataclass
class Report:
    a: str
    b: str
    only_in_a: list[str]
    only_in_b: list[str]
    situations: list[SituationDiff]
    paths: int

    @property
    def differing(self) -> list[SituationDiff]:
        return [s for s in self.situations if s.differences]


def _trail(start: str, o: Outcome) -> list[str]:
    out = [start]
    for sid in [st.situation for st in o.path] + [o.situation]:
        if sid != out[-1]:
            out.append(sid)
    return out


def _side(o: Outcome | Exception, start: str) -> Side:
    if isinstance(o, Exception):
        return Side(None, error=str(o), trail=[start])
    label = lambda p: p.seat or p.label  # noqa: E731
    return Side(
        ruling=o.ruling.id,
        dead=sorted(label(p) for p in o.dead),
        game=o.game,
        payments=[(label(p.payer), label(p.payee), p.amount if p.amount is not None else p.formula) for p in o.payments],
        points=[(label(a.party), a.points if a.points is not None else a.formula) for a in o.awards],
        tiles=[" ".join(t.split()) for t in o.tiles],
        text=o.text,
        cite=[str(c) for c in o.ruling.cite],
        used=list(o.used),
        trail=_trail(start, o),
        parties={
            "dead": sorted((party_json(p) for p in o.dead), key=lambda d: d["seat"] or d["role"]),
            "payments": [{"from": party_json(p.payer), "to": party_json(p.payee),
                          "amount": p.amount if p.amount is not None else p.formula} for p in o.payments],
            "points": [{"to": party_json(a.party), "points": a.points if a.points is not None else a.formula}
                       for a in o.awards],
        },
    )


def _choices(rss: list[Ruleset], sid: str, q: Question) -> list[str]:
    """Every answer either ruleset knows for a decision fact."""
    values: list[str] = []
    for rs in rss:
        d = rs.fact(q.fact, sid) if sid in rs.situations else None
        d = d or (q.definition if rs is rss[0] else None)
        if d is None:
            continue
        opts = ["yes", "no"] if d.type == "yesno" else list(d.choices or {})
        values += [v for v in opts if v not in values]
    if not values:
        values = ["yes", "no"] if q.definition.type == "yesno" else list(q.definition.choices or {})
    return values


def _detail(q: Question, facts: dict[str, Any]) -> Any:
    """A fixed value for a detail: distinct seats in table order, fixed numbers, 'no'."""
    d = q.definition
    taken: set[str] = set()
    for v in facts.values():
        if isinstance(v, str) and v in m.SEATS:
            taken.add(v)
        elif isinstance(v, list):
            taken |= {s for s in v if s in m.SEATS}
    free = [s for s in m.SEATS if s not in taken] or list(m.SEATS)
    if d.type == "seat":
        return free[0]
    if d.type == "seats":
        n = max(1, d.min or 1)
        if d.max is not None:
            n = min(n, d.max)
        return (free + [s for s in m.SEATS if s not in free])[:n]
    if d.type == "number":
        n = NUMBER_VALUES.get(q.fact, DEFAULT_NUMBER)
        if d.min is not None:
            n = max(n, d.min)
        if d.max is not None:
            n = min(n, d.max)
        return n
    if d.type == "yesno":
        return "no"
    return next(iter(d.choices or {"none": ""}))


RETRIES = 8  # other seats tried for one path whose first seats made a ruling refuse the table


def _seat_options(q: Question, facts: dict[str, Any]) -> list[Any]:
    """The value `_detail` picks first, then every other seat (or set of seats) it could be:
    when all four are named already she is one of them, and which one only the rulings' own
    checks can say; a seat a ruling fills in itself (East's Heavenly Hand) is not in the facts."""
    first = _detail(q, facts)
    if q.definition.type == "seat":
        return [first] + [s for s in m.SEATS if s != first]
    if q.definition.type == "seats":
        others = [list(c) for c in itertools.combinations(m.SEATS, len(first)) if list(c) != first]
        return [first] + others
    return [first]


def _explore(rs_a: Ruleset, rs_b: Ruleset, sid: str) -> tuple[int, list[Difference]]:
    """Every path of one situation, in the order walked.

    Seats are filled in without asking; where the seat chosen makes either ruleset refuse the
    table (the discarder named as a seat that already plays another part), the path is walked
    again with the next seat, so a filler's choice is never reported as a difference."""
    walked: list[Difference] = []
    given_up: set[int] = set()  # paths walked again with every seat in vain, recorded once
    paths = 0
    # each item: (facts, decision answers in order, seats filled in with the seats not yet tried,
    # retries left, the path as first walked when it is being walked again)
    Tries = tuple[tuple[str, tuple[Any, ...]], ...]
    stack: list[tuple[dict[str, Any], dict[str, Any], Tries, int, Difference | None]] = [({}, {}, (), RETRIES, None)]
    while stack and paths < MAX_PATHS:
        facts, answers, tries, retries, first_try = stack.pop()
        results: list[Outcome | Exception] = []
        branch_on: tuple[Ruleset, Question] | None = None
        detail: Question | None = None
        for rs in (rs_a, rs_b):
            try:
                step = advance(rs, sid, dict(facts))
            except RefereeError as exc:
                results.append(exc)
                continue
            if isinstance(step, Question):
                if not step.optional and branch_on is None:
                    branch_on = (rs, step)
                elif step.optional and detail is None:
                    detail = step
                results.append(exc_placeholder)
            else:
                results.append(step)
        if branch_on is not None:
            rs, q = branch_on
            for value in reversed(_choices([rs, rs_b if rs is rs_a else rs_a], sid, q)):
                stack.append(({**facts, q.fact: value}, {**answers, q.fact: value}, tries, retries, first_try))
            continue
        if detail is not None and detail.fact in NUMBER_BRANCHES:
            for value in reversed(NUMBER_BRANCHES[detail.fact]):
                stack.append(({**facts, detail.fact: value}, {**answers, detail.fact: value}, tries, retries, first_try))
            continue
        if detail is not None:
            first, *others = _seat_options(detail, facts)
            stack.append(({**facts, detail.fact: first}, answers, (*tries, (detail.fact, tuple(others))), retries, first_try))
            continue
        a, b = _side(results[0], sid), _side(results[1], sid)  # type: ignore[arg-type]
        differs = [x for x in ASPECTS if a.key(x) != b.key(x)]
        if a.error != b.error:
            differs.insert(0, "error")
        here = Difference(answers, {k: v for k, v in facts.items() if k not in answers}, differs, a, b, sid)
        if a.error is not None or b.error is not None:
            again = _next_seats(facts, tries) if retries > 0 else None
            if again is not None:
                stack.append((again[0], answers, again[1], retries - 1, first_try or here))
                continue
            if first_try is not None:  # no seats suit both: the path as first walked says why
                if id(first_try) in given_up:
                    continue
                given_up.add(id(first_try))
                here = first_try
        paths += 1
        walked.append(here)
    return paths, walked


def _next_seats(
    facts: dict[str, Any], tries: tuple[tuple[str, tuple[Any, ...]], ...],
) -> tuple[dict[str, Any], tuple[tuple[str, tuple[Any, ...]], ...]] | None:
    """The facts with the latest seat that has another to try changed to it (and the seats
    filled in after it cleared, to be filled in again), or None when every seat was tried."""
    for i in reversed(range(len(tries))):
        fact, left = tries[i]
        if left:
            later = {f for f, _ in tries[i + 1:]}
            kept = {k: v for k, v in facts.items() if k not in later}
            return {**kept, fact: left[0]}, (*tries[:i], (fact, left[1:]))
    return None


def every_ruling(rs: Ruleset) -> Iterator[tuple[str, dict[str, Any], Side]]:
    """Every path of every situation in one ruleset, as `diff` walks them (a ruleset against
    itself): (situation, the answers that lead there, what is ruled). For checks that must hold
    on every path, not only on the ones the scenarios take."""
    for sid in sorted(rs.situations):
        for path in _explore(rs, rs, sid)[1]:
            yield sid, path.answers, path.a


exc_placeholder = RefereeError("unfinished")


def diff(rs_a: Ruleset, rs_b: Ruleset, only: "set[str] | None" = None) -> Report:
    """Every path of every situation both rulesets have (or of those in `only`), walked in both."""
    only_a = sorted(set(rs_a.situations) - set(rs_b.situations))
    only_b = sorted(set(rs_b.situations) - set(rs_a.situations))
    sits: list[SituationDiff] = []
    total = 0
    for sid in sorted(set(rs_a.situations) & set(rs_b.situations) & (only if only is not None else set(rs_b.situations))):
        paths, walked = _explore(rs_a, rs_b, sid)
        total += paths
        sits.append(SituationDiff(sid, rs_b.situations[sid].title, paths, [d for d in walked if d.differs], walked))
    return Report(rs_a.id, rs_b.id, only_a, only_b, sits, total)


def describe(side: Side, unit: str) -> str:
    """One line: what this ruleset's outcome does to the table."""
    if side.error:
        return f"error: {side.error}"
    bits = [side.ruling or "?"]
    bits.append("dead: " + (", ".join(side.dead) if side.dead else "none"))
    bits.append(f"game {side.game}")
    if side.payments:
        bits.append("; ".join(f"{a} pays {b} {n}" for a, b, n in side.payments) + f" ({unit})")
    if side.points:
        bits.append("points: " + ", ".join(f"{a} {n:+d}" if isinstance(n, int) else f"{a} {n}" for a, n in side.points))
    if not side.payments and not side.points:
        bits.append("no points" if unit == "points" else "no payment")  # in a judge's own unit
    return " · ".join(bits)


def report_json(r: Report) -> dict[str, Any]:
    return {
        "a": r.a, "b": r.b,
        "only_in_a": r.only_in_a, "only_in_b": r.only_in_b,
        "paths_compared": r.paths,
        "situations": [
            {
                "id": s.id, "title": s.title, "paths": s.paths,
                "differences": [
                    {"answers": d.answers, "assumed": d.details, "differs": d.differs, "a": d.a.as_json(), "b": d.b.as_json()}
                    for d in s.differences
                ],
            }
            for s in r.differing
        ],
    }
