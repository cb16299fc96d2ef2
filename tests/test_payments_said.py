"""'Payments: nobody pays' is printed only under a ruling that decides nobody pays.

A ruling that ends the game without computing amounts either says so in its own words
("nobody pays"), or states what is owed in `owed` (a table's own rule, payments already made).
"""
from __future__ import annotations

import re

import pytest

from referee import model as m
from referee.engine import Outcome, advance
from referee.loader import available, load_strict
from referee.render import outcome_lines

NOBODY_PAYS = re.compile(r"nobody pays|nobody paying|with no payment|nobody is penalized|nothing is owed", re.I)
NOBODY_SCORES = re.compile(r"nobody scores|scores? 0|scores nothing", re.I)

LEAVES = [
    (rid, sid, nid)
    for rid in available()
    for sid, sit in load_strict(rid).situations.items()
    for nid, node in sit.nodes.items()
    if isinstance(node, m.RulingNode)
]


@pytest.mark.parametrize("rid,sid,nid", LEAVES, ids=[f"{r}:{s}:{n}" for r, s, n in LEAVES])
def test_a_ruling_that_computes_no_amount_says_what_is_owed(rid: str, sid: str, nid: str) -> None:
    rs = load_strict(rid)
    node = rs.situations[sid].nodes[nid]
    assert isinstance(node, m.RulingNode)
    r = node.ruling
    if r.game != "ends" or r.pay or r.settle or r.points or r.owed:
        return  # a replay or redeal settles nothing by definition
    said = NOBODY_PAYS.search(r.says) or (rs.scoring.kind == "points" and NOBODY_SCORES.search(r.says))
    assert said, f"{r.id} ends the game, computes no amount and does not say nobody pays: set 'owed'"


def _outcome(sid: str, facts: dict[str, object], rid: str = "nmjl") -> Outcome:
    rs = load_strict(rid)
    known = dict(facts)
    while True:
        step = advance(rs, sid, known)
        if isinstance(step, Outcome):
            return step
        assert step.optional, step.fact
        known[step.fact] = None


@pytest.mark.parametrize("sid,facts", [
    ("jokerless-not-announced", {"singles_and_pairs": "no", "jokerless_claimed_when": "after-paid"}),
    ("jokerless-not-announced", {"singles_and_pairs": "yes"}),
    ("self-draw-and-discard-tie", {"tie_simultaneous": "yes", "tie_valid": "both", "tie_table_rule": "none"}),
])
def test_nobody_pays_is_not_printed_where_amounts_are_not_computed(sid: str, facts: dict[str, object]) -> None:
    lines = dict(outcome_lines(_outcome(sid, facts)))
    assert lines.get("Payments") != ["nobody pays"], lines.get("Payments")
    assert lines.get("Payments"), "the ruling says nothing about what is owed"
