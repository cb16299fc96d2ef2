"""The Dead hands line agrees with the ruling's own words, on every leaf of every shipped ruleset."""
from __future__ import annotations

import dataclasses

import pytest

from referee import model as m
from referee.checks import lint
from referee.deadtext import dead_claims, says_dead
from referee.engine import advance
from referee.loader import available, load_strict

SAYS_DEAD = [
    "{picker}'s hand is dead.",
    "Three hands are dead without a Mah Jongg in error, so the game is replayed.",
    "{challenger} has a dead hand, so she may not challenge anyone.",
    "Both {server} and {picker} have dead hands.",
    "No. {dead_player}'s hand died because her exposures showed a concealed hand.",
    "The game ends. {exposers} exposed or threw in and are dead; they neither pay nor collect.",
    "after two hands had died for other reasons",
    "She has thrown in her hand, so it can no longer be played: it is dead.",
]
SAYS_NONE_DEAD = [
    "{player} is not dead: at least one hand still fits.",
    "Nobody's hand is dead and the Charleston goes on.",
    "nobody pays and nobody is dead.",
    "{challenged} was right: her hand was not dead.",
    "A discarded joker is dead and can never be claimed.",
    "The discard is now dead and cannot be claimed.",
    "No penalty, but saying it does not make her hand dead.",
    "It is a wall game. Nobody pays anybody, dead hands included.",
    "No hand is dead before the Charleston ends.",
]


@pytest.mark.parametrize("text", SAYS_DEAD)
def test_a_stated_death_is_read_as_one(text: str) -> None:
    assert says_dead(text)


@pytest.mark.parametrize("text", SAYS_NONE_DEAD)
def test_a_denied_death_or_a_dead_tile_is_not(text: str) -> None:
    assert not says_dead(text)


def test_the_clause_names_whose_hand() -> None:
    [claim] = dead_claims("{challenger} was right: {challenged}'s hand was dead. {challenged} pays {challenger} 50.")
    assert claim.names == ("challenged",)
    [claim] = dead_claims("{picker} is dead and pays {winner}.")
    assert claim.names == ("picker",)


LEAVES = [
    (rid, sid, nid)
    for rid in available()
    for sid, sit in load_strict(rid).situations.items()
    for nid, node in sit.nodes.items()
    if isinstance(node, m.RulingNode)
]


@pytest.mark.parametrize("rid,sid,nid", LEAVES, ids=[f"{r}:{s}:{n}" for r, s, n in LEAVES])
def test_a_ruling_that_says_a_hand_is_dead_lists_it(rid: str, sid: str, nid: str) -> None:
    rs = load_strict(rid)
    node = rs.situations[sid].nodes[nid]
    assert isinstance(node, m.RulingNode)
    r = node.ruling
    claims = dead_claims(r.says)
    if claims:
        assert r.dead, f"{r.id} says {claims[0].clause!r} but lists no dead hand"
    for claim in claims:
        for name in claim.names:
            fact = rs.fact(name, sid)
            if fact is not None and fact.type in ("seat", "seats"):
                assert name in r.dead, f"{r.id} says {{{name}}} is dead but 'dead' lacks it"


def test_lint_reports_a_ruling_that_says_dead_but_lists_nobody() -> None:
    # A copy: load_strict's ruleset is shared by every later test in this process.
    rs = dataclasses.replace(load_strict("nmjl"))
    rs.situations = dict(rs.situations)
    sit = rs.situations["wrong-end"]
    node = sit.nodes["picker_dead"]
    assert isinstance(node, m.RulingNode)
    bare = node.model_copy(update={"ruling": node.ruling.model_copy(update={"dead": []})})
    rs.situations["wrong-end"] = sit.model_copy(update={"nodes": {**sit.nodes, "picker_dead": bare}})
    messages = [p.message for p in lint(rs)]
    assert any("'WE-1' says {picker} is dead; add 'picker' to 'dead'" in msg for msg in messages), messages


def _rule(sid: str, facts: dict[str, object]):  # type: ignore[no-untyped-def]
    rs = load_strict("nmjl")
    known = dict(facts)
    while True:
        step = advance(rs, sid, known)
        if not hasattr(step, "fact"):
            return step
        assert step.optional, f"{step.fact} not answered"
        known[step.fact] = None


@pytest.mark.parametrize("when,extra", [
    ("won", {"jokerless": "no", "win_how": "self-pick", "hand_value": 25, "winner": "East"}),
    ("wall", {"last_discard_claimed": "no"}),
    ("third", {"tdh_cause": "none"}),
])
def test_a_dead_hand_stays_dead_when_the_ruling_is_made_elsewhere(when: str, extra: dict[str, object]) -> None:
    o = _rule("dead-hand-rules", {"dead_accepted": "yes", "dead_when": when, "dead_player": "South", **extra})
    assert "South" in [p.seat for p in o.dead], (o.ruling.id, o.dead)
