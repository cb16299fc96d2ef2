"""Every path of every situation of a ruleset, ruled as the judge would see it: for checks on the
words printed (the verdict, the arithmetic, the notes), not only on the YAML they come from.

Each decision question is branched over every answer; the seats a ruling names are filled in
with distinct seats and given player names, as at a real table, and each path is also ruled
again with every seat left open ('the declarer'), which is how a ruling reads when the judge
skips the seat questions. Situations an overlay inherits unchanged (same tree, same scoring) are
walked once, in the first ruleset that has them."""
from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from referee.diff.walk import NUMBER_BRANCHES, _detail
from referee.errors import RefereeError
from referee.rules.loader import available, load_strict
from referee.ruling.engine import Question, advance
from referee.ruling.outcome import Outcome
from referee.ruling.render import outcome_lines
from referee.ruling.scenarios import run

NAMES = {"East": "Ann", "South": "Bea", "West": "Cy", "North": "Dot"}


@dataclass(frozen=True)
class Ruled:
    ruleset: str
    situation: str
    answers: dict[str, Any]  # the decision answers of the path
    named: Outcome  # seats filled in, every player named
    open: Outcome | None  # every seat left open (None where the ruling needs a seat to rule)

    def where(self) -> str:
        return f"{self.ruleset}:{self.situation} {self.named.ruling.id} " + " ".join(f"{k}={v}" for k, v in self.answers.items())


def printed(o: Outcome) -> list[tuple[str, str]]:
    """Every line `rule --full` prints for the outcome, with its heading, earlier rulings first."""
    out = [(title, line) for b in o.before for title, lines in outcome_lines(b) for line in lines]
    return out + [(title, line) for title, lines in outcome_lines(o) for line in lines]


def _paths(rs: Any, sid: str) -> Iterator[tuple[dict[str, Any], Outcome]]:
    stack: list[tuple[dict[str, Any], dict[str, Any]]] = [({}, {})]
    while stack:
        facts, answers = stack.pop()
        try:
            step = advance(rs, sid, dict(facts), NAMES)
        except RefereeError:
            continue  # a seat filled in that this ruling refuses (two roles, one seat): not a table
        if isinstance(step, Outcome):
            yield answers, step
            continue
        q: Question = step
        d = q.definition
        if not q.optional or q.fact in NUMBER_BRANCHES:
            values = NUMBER_BRANCHES.get(q.fact) or (["yes", "no"] if d.type == "yesno" else list(d.choices or {}))
            if d.type == "number" and q.fact not in NUMBER_BRANCHES:
                values = [_detail(q, facts)]
            stack += [({**facts, q.fact: v}, {**answers, q.fact: v}) for v in reversed(values)]
        else:
            stack.append(({**facts, q.fact: _detail(q, facts)}, answers))


@functools.cache
def ruled(rid: str) -> list[Ruled]:
    """Every path of the situations this ruleset does not share unchanged with one walked before."""
    out = []
    rs = load_strict(rid)
    for sid in sorted(rs.situations):
        if (sid, rid) not in _owners():
            continue
        for answers, named in _paths(rs, sid):
            try:
                bare = run(rs, sid, dict(answers), {})
            except RefereeError:
                bare = None
            out.append(Ruled(rid, sid, answers, named, bare))
    return out


@functools.cache
def _owners() -> frozenset[tuple[str, str]]:
    """(situation, ruleset) for the first ruleset in which each distinct situation appears."""
    seen: set[tuple[str, str, str]] = set()
    owners = set()
    for rid in sorted(available()):
        rs = load_strict(rid)
        for sid, sit in rs.situations.items():
            key = (sid, sit.model_dump_json(), rs.scoring.model_dump_json() + repr(rs.meta.customs))
            if key not in seen:
                seen.add(key)
                owners.add((sid, rid))
    return frozenset(owners)


RULESETS = sorted(available())
