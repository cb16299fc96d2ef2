"""Quality bars over whatever content ships: findable, short, and sourced."""
from __future__ import annotations

from typing import Any

import pytest

from referee.rules import model as m
from referee.ruling.engine import branch
from referee.rules.loader import Ruleset, available, load_strict
from referee.search.rank import search

MAX_DECISIONS = 7  # questions from a situation's start to any ruling, gotos followed

RULESETS = list(available())
SITUATIONS = [(rid, sid) for rid in RULESETS for sid in load_strict(rid).situations]


@pytest.mark.parametrize("rid", RULESETS)
def test_every_title_and_alias_finds_its_situation_first(rid: str) -> None:
    rs = load_strict(rid)
    sits = list(rs.situations.values())
    misses: list[str] = []
    for sit in sits:
        for phrase in [sit.title, *sit.aliases]:
            hits = search(sits, phrase, limit=3)
            if not hits or hits[0].situation.id != sit.id:
                got = [(h.situation.id, h.score) for h in hits]
                misses.append(f"{sit.id}: {phrase!r} -> {got}")
    assert not misses, "\n".join(misses)


def _values(rs: Ruleset, sid: str, node: m.QuestionNode) -> list[str]:
    """One answer per distinct branch: every 'when' value, yes/no, and one value that falls to 'else'."""
    fact = rs.fact(node.ask, sid)
    out = [v for v, _ in node.branches() if v != "else"]
    if node.else_ is not None and fact is not None and fact.choices:
        rest = [c for c in fact.choices if c not in (node.when or {})]
        out += rest[:1]
    return out


def max_decisions(rs: Ruleset, sid: str) -> tuple[int, list[str]]:
    """The longest run of distinct questions to a ruling; a fact answered once is not asked again.

    Returns the count and the longest path (for the failure message). Memoised on the node and
    the answers so far, so trees that share sub-trees through gotos stay cheap.
    """
    memo: dict[tuple[str, str, frozenset[tuple[str, Any]]], tuple[int, list[str]]] = {}

    def go(cur: str, nid: str, answers: dict[str, Any], steps: int) -> tuple[int, list[str]]:
        assert steps < 500, f"{sid}: the tree does not end"
        key = (cur, nid, frozenset(answers.items()))
        if key in memo:
            return memo[key]
        node = rs.situations[cur].nodes[nid]
        if isinstance(node, m.RulingNode):
            memo[key] = (0, [node.ruling.id])
            return memo[key]
        if isinstance(node, m.GotoNode):
            options: list[tuple[str | None, Any]] = [(None, node)]
        elif node.ask in answers:
            options = [(None, branch(node, answers[node.ask]))]
        else:
            options = [(v, branch(node, v)) for v in _values(rs, cur, node)]
        best: tuple[int, list[str]] = (-1, [])
        for value, target in options:
            assert target is not None
            more = dict(answers)
            if value is not None:
                more[node.ask] = value
            if isinstance(target, (m.Goto, m.GotoNode)):
                for name, settled in (getattr(target, "set", None) or {}).items():
                    more.setdefault(name, settled)  # a goto may settle facts there: not asked
                depth, trail = go(target.goto, target.at or rs.situations[target.goto].start, more, steps + 1)
            else:
                depth, trail = go(cur, target, more, steps + 1)
            if value is not None:
                depth, trail = depth + 1, [f"{cur}.{node.ask}={value}", *trail]
            if depth > best[0]:
                best = (depth, trail)
        memo[key] = best
        return best

    return go(sid, rs.situations[sid].start, {}, 0)


@pytest.mark.parametrize("rid,sid", SITUATIONS, ids=[f"{r}:{s}" for r, s in SITUATIONS])
def test_no_ruling_needs_more_than_seven_questions(rid: str, sid: str) -> None:
    rs = load_strict(rid)
    depth, trail = max_decisions(rs, sid)
    assert depth <= MAX_DECISIONS, f"{sid}: {depth} questions on the longest path: {' -> '.join(trail)}"


@pytest.mark.parametrize("rid", RULESETS)
def test_every_ruling_cites_a_known_source(rid: str) -> None:
    rs = load_strict(rid)
    bad = []
    for sid, sit in rs.situations.items():
        for nid, node in sit.nodes.items():
            if isinstance(node, m.RulingNode):
                r = node.ruling
                if not r.cite:
                    bad.append(f"{sid}.{nid} ({r.id}) cites nothing")
                for c in r.cite:
                    if c.source not in rs.sources:
                        bad.append(f"{sid}.{nid} ({r.id}) cites unknown source {c.source!r}")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("rid", RULESETS)
def test_ruling_ids_are_unique(rid: str) -> None:
    rs = load_strict(rid)
    seen: dict[str, str] = {}
    dups = []
    for sid, sit in rs.situations.items():
        for nid, node in sit.nodes.items():
            if isinstance(node, m.RulingNode):
                where = seen.setdefault(node.ruling.id, f"{sid}.{nid}")
                if where != f"{sid}.{nid}":
                    dups.append(f"{node.ruling.id}: {where} and {sid}.{nid}")
    assert not dups, "\n".join(dups)


@pytest.mark.parametrize("rid", RULESETS)
def test_every_situation_is_findable_and_explained(rid: str) -> None:
    rs = load_strict(rid)
    for sit in rs.situations.values():
        assert sit.aliases, f"{sit.id}: no aliases (the words a judge types)"
        assert sit.summary.strip(), f"{sit.id}: no summary"


def test_the_depth_measure_counts_a_fact_once_across_a_goto(tmp_path) -> None:
    from referee.rules.loader import load

    (tmp_path / "situations").mkdir()
    (tmp_path / "ruleset.yaml").write_text("id: d\ntitle: D\nversion: '1'\nsources: {B: {title: B}}\n")
    (tmp_path / "facts.yaml").write_text(
        "facts:\n  a: {type: yesno, ask: A?}\n  b: {type: yesno, ask: B?}\n  c: {type: yesno, ask: C?}\n")
    leaf = "{ruling: {id: X-%d, says: ok, game: continues, cite: B}}"
    (tmp_path / "situations" / "one.yaml").write_text(
        "id: one\ntitle: One\nphase: play\nsummary: s\nstart: q\nnodes:\n"
        "  q: {ask: a, yes: r, no: {goto: two}}\n  r: {ask: b, yes: l1, no: l2}\n"
        f"  l1: {leaf % 1}\n  l2: {leaf % 2}\n")
    # two asks a again (already answered 'no': not counted, and only its 'no' branch is taken), then c
    (tmp_path / "situations" / "two.yaml").write_text(
        "id: two\ntitle: Two\nphase: play\nsummary: s\nstart: q\nnodes:\n"
        "  q: {ask: a, yes: deep, no: c}\n  deep: {ask: b, yes: c, no: c}\n  c: {ask: c, yes: l3, no: l4}\n"
        f"  l3: {leaf % 3}\n  l4: {leaf % 4}\n")
    rs, problems = load(tmp_path)
    assert rs is not None and not problems
    assert max_decisions(rs, "one")[0] == 2  # a=no -> (a not asked again) -> c
    assert max_decisions(rs, "two")[0] == 3  # a=yes -> b -> c
