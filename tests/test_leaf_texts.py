"""Every ruling leaf of every shipped ruleset says what its outcome lines show.

- The Dead hands line agrees with the ruling's words: a ruling that says a hand is dead lists it.
- 'Payments: nobody pays' is printed only under a ruling that decides nobody pays. A ruling that
  ends the game without computing amounts either says so in its own words, or states what is
  owed in `owed` (a table's own rule, payments already made).
"""
from __future__ import annotations

import dataclasses
import re
from typing import Any

import pytest

from referee.rules import model as m
from referee.lint.checks import lint
from referee.ruling.deadtext import dead_claims, says_dead
from referee.ruling.engine import Outcome
from referee.rules.loader import available, load_strict
from referee.ruling.render import outcome_lines
from referee.ruling.scenarios import run

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


def _leaf_key(rs: Any, sid: str, r: m.Ruling) -> tuple[str, str, tuple[tuple[str, str | None], ...]]:
    """Everything the leaf checks below read: the ruling itself, the scoring kind and the type of
    every fact its text calls dead. Overlays inherit most of nmjl's rulings unchanged, and a check
    of an identical leaf proves nothing new."""
    names = sorted({n for c in dead_claims(r.says) for n in c.names})
    types = tuple((n, getattr(rs.fact(n, sid), "type", None)) for n in names)
    return r.model_dump_json(), rs.scoring.kind, types


def _all_leaves() -> list[tuple[str, str, str]]:
    return [
        (rid, sid, nid)
        for rid in available()
        for sid, sit in load_strict(rid).situations.items()
        for nid, node in sit.nodes.items()
        if isinstance(node, m.RulingNode)
    ]


def _distinct(leaves: list[tuple[str, str, str]]) -> dict[tuple[str, str, tuple[tuple[str, str | None], ...]], tuple[str, str, str]]:
    first: dict[tuple[str, str, tuple[tuple[str, str | None], ...]], tuple[str, str, str]] = {}
    for rid, sid, nid in leaves:
        rs, r = _ruling(rid, sid, nid)
        first.setdefault(_leaf_key(rs, sid, r), (rid, sid, nid))
    return first


def _ruling(rid: str, sid: str, nid: str) -> tuple[Any, m.Ruling]:
    rs = load_strict(rid)
    node = rs.situations[sid].nodes[nid]
    assert isinstance(node, m.RulingNode)
    return rs, node.ruling


LEAVES = list(_distinct(_all_leaves()).values())


def test_every_leaf_left_out_has_an_identical_twin_checked() -> None:
    every = _all_leaves()
    assert ("nmjl", "wrong-end", "picker_dead") in every and len(LEAVES) < len(every)
    checked = set()
    for rid, sid, nid in LEAVES:
        rs, r = _ruling(rid, sid, nid)
        checked.add(_leaf_key(rs, sid, r))
    for rid, sid, nid in every:
        rs, r = _ruling(rid, sid, nid)
        assert _leaf_key(rs, sid, r) in checked, f"{rid}:{sid}:{nid} is checked nowhere"


@pytest.mark.parametrize("rid,sid,nid", LEAVES, ids=[f"{r}:{s}:{n}" for r, s, n in LEAVES])
def test_a_ruling_that_says_a_hand_is_dead_lists_it(rid: str, sid: str, nid: str) -> None:
    rs, r = _ruling(rid, sid, nid)
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


def _rule(sid: str, facts: dict[str, object]) -> Outcome:
    return run(load_strict("nmjl"), sid, dict(facts), {})  # details not given stay open


@pytest.mark.parametrize("when,extra", [
    ("won", {"jokerless": "no", "win_how": "self-pick", "hand_value": 25, "winner": "East"}),
    ("wall", {"last_discard_claimed": "no"}),
    ("third", {"tdh_cause": "none"}),
])
def test_a_dead_hand_stays_dead_when_the_ruling_is_made_elsewhere(when: str, extra: dict[str, object]) -> None:
    o = _rule("dead-hand-rules", {"dead_accepted": "yes", "dead_when": when, "dead_player": "South", **extra})
    assert "South" in [p.seat for p in o.dead], (o.ruling.id, o.dead)


NOBODY_PAYS = re.compile(r"nobody pays|nobody paying|with no payment|nobody is penalized|nothing is owed", re.I)
NOBODY_SCORES = re.compile(r"nobody scores|scores? 0|scores nothing", re.I)

@pytest.mark.parametrize("rid,sid,nid", LEAVES, ids=[f"{r}:{s}:{n}" for r, s, n in LEAVES])
def test_a_ruling_that_computes_no_amount_says_what_is_owed(rid: str, sid: str, nid: str) -> None:
    rs, r = _ruling(rid, sid, nid)
    if r.game != "ends" or r.pay or r.settle or r.points or r.owed or r.then:
        return  # a replay or redeal settles nothing by definition; after `then`, the next ruling settles
    said = NOBODY_PAYS.search(r.says) or (rs.scoring.kind == "points" and NOBODY_SCORES.search(r.says))
    assert said, f"{r.id} ends the game, computes no amount and does not say nobody pays: set 'owed'"


@pytest.mark.parametrize("sid,facts", [
    ("jokerless-not-announced", {"singles_and_pairs": "no", "jokerless_claimed_when": "after-paid"}),
    ("jokerless-not-announced", {"singles_and_pairs": "yes"}),
    ("self-draw-and-discard-tie", {"tie_simultaneous": "yes", "tie_valid": "both", "tie_table_rule": "none"}),
])
def test_nobody_pays_is_not_printed_where_amounts_are_not_computed(sid: str, facts: dict[str, object]) -> None:
    lines = dict(outcome_lines(_rule(sid, facts)))
    assert lines.get("Payments") != ["nobody pays"], lines.get("Payments")
    assert lines.get("Payments"), "the ruling says nothing about what is owed"


def test_lint_reports_a_cited_section_the_source_does_not_have() -> None:
    # DJ-3 once cited an AMJA heading that does not exist; the source's own headings catch that
    rs = dataclasses.replace(load_strict("nmjl"))
    rs.situations = dict(rs.situations)
    sit = rs.situations["discarded-joker"]
    nid = next(n for n, node in sit.nodes.items() if isinstance(node, m.RulingNode) and node.ruling.id == "DJ-3")
    node = sit.nodes[nid]
    assert isinstance(node, m.RulingNode)
    cite = [m.Cite(source="AMJA-CLAIM", section="Committing to a Claim"), m.Cite(source="AMJA-CLAIM", section="Window of Opportunity (closes)")]
    wrong = node.model_copy(update={"ruling": node.ruling.model_copy(update={"cite": cite})})
    rs.situations["discarded-joker"] = sit.model_copy(update={"nodes": {**sit.nodes, nid: wrong}})
    messages = [p.message for p in lint(rs) if "DJ-3" in p.message]
    assert messages == ["ruling 'DJ-3' cites 'Committing to a Claim', which is not a section of AMJA-CLAIM; "
                        "did you mean 'Committing to Claim a Tile for an Exposure'?"], messages
