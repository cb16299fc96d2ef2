"""Properties over every situation of every shipped ruleset (whatever content exists).

- A random walk (random valid answers, random distinct seats, hand values 25-75, details
  sometimes left open) always ends at a ruling within a bound, never asks a fact twice,
  and never raises.
- Every payment whose amount is known is a non-negative integer between two different
  seats, and the money nets to zero over the four seats.
- The standard settlement sums to zero for any winner, discarder and value.
"""
from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.rules import model as m
from referee.ruling.deadtext import says_dead
from referee.ruling.engine import Outcome, Question, advance, check_answer
from referee.errors import UsageError
from referee.rules.loader import available, load_strict
from referee.ruling.render import outcome_json, outcome_lines
from referee.ruling.scoring import Settlement, standard

MAX_QUESTIONS = 40  # decisions plus details; a real tree needs far fewer

SETTINGS = settings(max_examples=25, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def reachable(rs: Any, sid: str) -> list[tuple[str, m.Situation]]:
    """The situation and every situation its gotos can lead to: all a walk from it can see."""
    seen: dict[str, m.Situation] = {}
    todo = [sid]
    while todo:
        here = todo.pop()
        if here in seen or here not in rs.situations:
            continue
        seen[here] = sit = rs.situations[here]
        for node in sit.nodes.values():
            if isinstance(node, m.GotoNode):
                todo.append(node.goto)
            elif isinstance(node, m.QuestionNode):
                todo += [t.goto for _, t in node.branches() if isinstance(t, m.Goto)]
    return sorted(seen.items())


def distinct_cases() -> list[tuple[str, str, int]]:
    """(ruleset, situation, examples) for every walk that can differ from one already listed.

    An overlay repeats most of its base's situations; when everything a walk can see (the
    situations it can reach, the facts, the scoring, the sources it cites) is equal, the walk
    is the same walk, so it is run once. Examples scale with the ways out of the situation's own
    tree (rulings and gotos): four per way, between 8 and 25.
    """
    seen: set[str] = set()
    out = []
    for rid in sorted(available(), key=lambda r: (len(load_strict(r).chain), r)):  # bases first
        rs = load_strict(rid)
        for sid, sit in rs.situations.items():
            key = repr((sid, reachable(rs, sid), sorted(rs.facts.items()), rs.scoring, sorted(rs.sources.items())))
            if key in seen:
                continue
            seen.add(key)
            exits = sum(not isinstance(n, m.QuestionNode) for n in sit.nodes.values())
            exits += sum(isinstance(t, m.Goto) for n in sit.nodes.values() if isinstance(n, m.QuestionNode) for _, t in n.branches())
            out.append((rid, sid, min(25, max(8, 4 * exits))))
    return out


CASES = distinct_cases()


def answer(data: st.DataObject, q: Question, used: list[str]) -> Any:
    """A random valid answer; seats are distinct across roles; details may be left open."""
    d = q.definition
    if q.optional and data.draw(st.integers(0, 5), label=f"open {q.fact}") == 0:
        return None
    if d.type == "yesno":
        return data.draw(st.sampled_from(["yes", "no"]), label=q.fact)
    if d.type == "choice":
        assert d.choices
        return data.draw(st.sampled_from(list(d.choices)), label=q.fact)
    free = [s for s in m.SEATS if s not in used]
    if d.type == "seat":
        if not free:
            return None
        value = data.draw(st.sampled_from(free), label=q.fact)
        used.append(value)
        return value
    if d.type == "seats":
        lo = max(d.min or 1, 1)
        hi = min(d.max or len(free), len(free))
        if lo > hi:
            return None
        chosen = data.draw(st.lists(st.sampled_from(free), min_size=lo, max_size=hi, unique=True), label=q.fact)
        used.extend(chosen)
        return sorted(chosen, key=m.SEATS.index)
    if d.type == "number":
        lo = max(25, d.min if d.min is not None else 25)
        hi = min(75, d.max if d.max is not None else 75)
        if lo > hi:
            lo, hi = d.min or 0, d.max if d.max is not None else (d.min or 0) + 50
        return data.draw(st.integers(lo, hi), label=q.fact)
    raise AssertionError(d.type)


def random_walk(data: st.DataObject, rid: str, sid: str) -> tuple[Outcome, list[Question]]:
    rs = load_strict(rid)
    facts: dict[str, Any] = {}
    used: list[str] = []
    players = {s: name for s, name in zip(m.SEATS, ["Ruth", "Bea", "Sadie", "Lil"]) if data.draw(st.booleans(), label=f"name {s}")}
    asked: list[Question] = []
    while True:
        step = advance(rs, sid, facts, players)
        if isinstance(step, Outcome):
            return step, asked
        assert step.fact not in facts, f"{step.fact} asked twice"
        asked.append(step)
        assert len(asked) <= MAX_QUESTIONS, f"{sid}: more than {MAX_QUESTIONS} questions: {[q.fact for q in asked]}"
        for _ in range(5):  # as at the prompt: a seat the facts so far rule out is refused, asked again
            before = list(used)
            value = answer(data, step, used)
            try:
                check_answer(rs, sid, {**facts, step.fact: value}, step.fact)
                break
            except UsageError:
                used[:] = before
                value = None
        facts[step.fact] = value


def check_money(o: Outcome) -> None:
    for p in o.payments:
        if p.amount is not None:
            assert isinstance(p.amount, int) and not isinstance(p.amount, bool), p
            assert p.amount >= 0, p
        if p.payer.seat and p.payee.seat:
            assert p.payer.seat != p.payee.seat, p
    net = Settlement(list(o.payments)).totals()
    assert sum(net.values()) == 0, net


@pytest.mark.parametrize("rid,sid,examples", CASES, ids=[f"{r}:{s}" for r, s, _ in CASES])
def test_random_walk_ends_at_a_ruling(rid: str, sid: str, examples: int) -> None:
    @settings(SETTINGS, max_examples=examples)
    @given(data=st.data())
    def walk(data: st.DataObject) -> None:
        check_walk(data, rid, sid)

    walk()


def check_walk(data: st.DataObject, rid: str, sid: str) -> None:
    o, asked = random_walk(data, rid, sid)
    rs = o.ruleset
    assert o.ruling.id
    assert o.game in m.GAME_STATES
    assert o.start == sid and o.situation in rs.situations
    # every decision came before every detail
    kinds = [q.node is None for q in asked]
    assert kinds == sorted(kinds), [q.fact for q in asked]
    # the text is fully filled in
    for text in [o.text, *o.tiles, *o.procedure, *o.notes, *(p.text for p in o.payments)]:
        assert not re.search(r"\{[a-z_]+\}", text), text
    if rs.scoring.kind == "money":
        check_money(o)
    for a in o.awards:
        assert a.points is None or isinstance(a.points, int)
    if says_dead(o.text):  # the Dead hands line never says "none" under a ruling that names a dead hand
        assert o.dead, o.text
    # the outcome renders both ways
    json.dumps(outcome_json(o))
    assert outcome_lines(o)


@SETTINGS
@given(
    winner=st.sampled_from(m.SEATS),
    discarder=st.sampled_from(m.SEATS),
    how=st.sampled_from(["discard", "self-pick"]),
    value=st.integers(0, 1000),
    jokerless=st.booleans(),
    singles=st.booleans(),
)
def test_standard_settlement_sums_to_zero(winner: str, discarder: str, how: str, value: int, jokerless: bool, singles: bool) -> None:
    if how == "discard" and discarder == winner:
        discarder = m.SEATS[(m.SEATS.index(winner) + 1) % 4]
    for rid in available():
        scoring = load_strict(rid).scoring
        s = standard(scoring, winner=winner, how=how, value=value,
                     discarder=discarder if how == "discard" else None, jokerless=jokerless, singles_and_pairs=singles)
        net = s.totals()
        assert sum(net.values()) == 0
        assert len(s.payments) == 3
        assert all(p.payee.seat == winner and p.payer.seat != winner for p in s.payments)
        assert all(isinstance(p.amount, int) and p.amount >= 0 for p in s.payments)
        factor = scoring.jokerless_times if jokerless and not singles else 1
        if how == "discard":
            by_seat = {p.payer.seat: p.amount for p in s.payments}
            assert by_seat[discarder] == scoring.discarder_times * value * factor
            assert all(a == scoring.others_times * value * factor for st_, a in by_seat.items() if st_ != discarder)
        else:
            assert all(p.amount == scoring.self_pick_times * value * factor for p in s.payments)
        assert net[winner] == sum(p.amount for p in s.payments)  # type: ignore[misc]


def test_cases_cover_every_shipped_situation() -> None:
    assert CASES, "no situations found"
    assert ("nmjl", "mahjong-in-error") in [(r, s) for r, s, _ in CASES]
    shipped = {(rid, sid) for rid in available() for sid in load_strict(rid).situations}
    walked = {(r, s) for r, s, _ in CASES}
    for rid, sid in shipped - walked:  # each one skipped is the same walk as one run
        rs = load_strict(rid)
        twin = [r for r, s in walked if s == sid and reachable(load_strict(r), sid) == reachable(rs, sid)]
        assert twin, f"{rid}:{sid} is walked nowhere"
