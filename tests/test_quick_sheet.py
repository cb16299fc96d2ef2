"""The quick-reference sheet: when each ruling applies, in ruling order, in the table's words."""
from __future__ import annotations

import re

from referee.handouts import build, sheets
from referee.loader import load_strict


def _lines(rid: str) -> dict[str, sheets.QuickLine]:
    return {line.ruling: line for g in sheets.quick(load_strict(rid)) for s in g.situations for line in s.lines}


def test_each_ruling_says_when_it_applies_in_a_few_words() -> None:
    lines = _lines("nmjl")
    assert lines["WE-3"].when == "more than one player picked from the wrong end"
    assert "Mah Jongg valid" in lines["WE-2"].when and lines["WE-1"].when == "otherwise"
    assert lines["TTO-1"].when == "during the deal" and lines["TTO-2"].when == "during play"
    for line in lines.values():
        assert line.when and len(line.when.split()) <= 4 * (sheets.WORDS + 1), line
    md = build("nmjl", "md", sheet="quick")
    assert "| WE-3 | more than one player picked from the wrong end |" in md
    html = build("nmjl", "html", sheet="quick")
    assert "WE-3</span> · <i>more than one player picked from the wrong end</i>" in html


def test_rulings_are_listed_in_order() -> None:
    for rid in ("nmjl", "tournament"):
        for g in sheets.quick(load_strict(rid)):
            for s in g.situations:
                ids = [line.ruling for line in s.lines]
                assert ids == sorted(ids, key=sheets._order), (s.id, ids)
                assert all(", " not in i for i in ids)  # one ruling a line: each says when it applies


def test_no_role_or_fact_names_leak_and_one_word_means_no_penalty() -> None:
    for rid in ("nmjl", "amja", "tournament"):
        md = build(rid, "md", sheet="quick")
        html = build(rid, "html", sheet="quick")
        assert "dead seats" not in md and "miscounted seats" not in md, rid
        assert "—" not in md and "—" not in html  # no dash standing for nothing
        assert "no dead hand" not in html
        assert not re.search(r"\b[a-z]+_[a-z_]+\b", md.split("## ", 1)[1]), rid  # no fact ids
    three = _lines("nmjl")["TDH-1"]
    assert three.dead == "three seats that have dead hands"
