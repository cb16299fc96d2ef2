"""The walk: every path of every situation, in both rulesets at once.

For every situation in either ruleset, walk both engines together: whenever either one asks a
decision question, branch over every answer; details (seats, hand values) get fixed values, so
both rulesets see exactly the same table. Compare the outcomes at the end of each path, and
keep every path (differing or not) with the situations each side passed through, so that
`owners` can say which situation a difference belongs to.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .. import model as m
from ..engine import Question, advance
from ..outcome import Outcome
from ..errors import RefereeError
from ..loader import Ruleset
from ..render import party_json

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


def _explore(rs_a: Ruleset, rs_b: Ruleset, sid: str) -> tuple[int, list[Difference]]:
    """Every path of one situation, in the order walked."""
    walked: list[Difference] = []
    paths = 0
    # each item: (facts, decision answers in order)
    stack: list[tuple[dict[str, Any], dict[str, Any]]] = [({}, {})]
    while stack and paths < MAX_PATHS:
        facts, answers = stack.pop()
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
                stack.append(({**facts, q.fact: value}, {**answers, q.fact: value}))
            continue
        if detail is not None and detail.fact in NUMBER_BRANCHES:
            for value in reversed(NUMBER_BRANCHES[detail.fact]):
                stack.append(({**facts, detail.fact: value}, {**answers, detail.fact: value}))
            continue
        if detail is not None:
            stack.append(({**facts, detail.fact: _detail(detail, facts)}, answers))
            continue
        paths += 1
        a, b = _side(results[0], sid), _side(results[1], sid)  # type: ignore[arg-type]
        differs = [x for x in ASPECTS if a.key(x) != b.key(x)]
        if a.error != b.error:
            differs.insert(0, "error")
        detail_facts = {k: v for k, v in facts.items() if k not in answers}
        walked.append(Difference(answers, detail_facts, differs, a, b, sid))
    return paths, walked


exc_placeholder = RefereeError("unfinished")


def diff(rs_a: Ruleset, rs_b: Ruleset) -> Report:
    only_a = sorted(set(rs_a.situations) - set(rs_b.situations))
    only_b = sorted(set(rs_b.situations) - set(rs_a.situations))
    sits: list[SituationDiff] = []
    total = 0
    for sid in sorted(set(rs_a.situations) & set(rs_b.situations)):
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
