"""Every answer on every shipped flowchart can be read: no two answers overlap, none sits on a
box, none is drawn below 11 px where a phone shows the chart at its natural size, and no two
charts of a booklet share an id (issue 18).

The rectangles are read back from the SVG as drawn, not from the layout's own bookkeeping.
"""
from __future__ import annotations

import re

import pytest

from referee.handouts import flowchart
from referee.rules.loader import available, load_strict

NUMBER = r"(-?[\d.]+)"
ANSWER = re.compile(rf'<g class="answer"><rect x="{NUMBER}" y="{NUMBER}" width="{NUMBER}" height="{NUMBER}"[^>]*/>'
                    r'((?:<text [^>]*>[^<]*</text>)+)</g>')
LINE = re.compile(r"<text [^>]*>([^<]*)</text>")
BOX = re.compile(rf'<g class="(?:ask|ruling|goto)[^"]*"><rect x="{NUMBER}" y="{NUMBER}" width="{NUMBER}" height="{NUMBER}"')

Rect = tuple[float, float, float, float]


def _meet(a: Rect, b: Rect) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


@pytest.mark.parametrize("ruleset", available())
def test_no_answer_overlaps_another_or_a_box_none_is_below_11px_and_ids_are_unique(ruleset: str) -> None:
    rs = load_strict(ruleset)
    problems = []
    ids: list[str] = []  # every chart of a ruleset is on one booklet page
    for sid in sorted(rs.situations):
        svg = flowchart.svg(rs, sid)
        ids += re.findall(r'\bid="([^"]+)"', svg)
        assert all(ref in ids for ref in re.findall(r"url\(#([^)]+)\)", svg)), sid
        sizes = [float(s) for s in re.findall(r'font-size="([\d.]+)"', svg)]
        assert sizes and min(sizes) >= 11, (sid, sizes)
        answers = [(tuple(map(float, m[:4])), LINE.findall(m[4])) for m in ANSWER.findall(svg)]
        boxes = [tuple(map(float, m)) for m in BOX.findall(svg)]
        assert len(answers) == svg.count("marker-end=") and len(boxes) >= 1, sid  # every edge's answer was read
        for i, (a, lines) in enumerate(answers):
            text = " ".join(lines)
            # the white rectangle holds its text, each line at least 11 px high
            assert a[2] >= max(len(line) for line in lines) * flowchart.CHAR and a[3] >= 14 * len(lines), (sid, text)
            problems += [f"{sid}: '{text}' overlaps '{' '.join(t)}'" for b, t in answers[i + 1:] if _meet(a, b)]
            problems += [f"{sid}: '{text}' lies on a box" for b in boxes if _meet(a, b)]
    assert problems == []
    assert len(ids) == len(set(ids)) and not set(ids) & set(rs.situations)  # a section is named by its situation's id


def test_answers_leading_to_one_place_share_one_edge() -> None:
    rs = load_strict("amja")  # 'Is the winning hand a Singles and Pairs hand?' goes on the same way either way
    chart = flowchart.layout(rs, "valid-mahjong")
    pairs = [(e.src, e.dst) for e in chart.edges]
    assert len(pairs) == len(set(pairs))
    assert any(" / " in e.label for e in chart.edges)


def test_many_answers_sharing_an_edge_are_stacked_on_short_lines() -> None:
    rs = load_strict("card-game")  # four errors of 'Which error was made?' lead to one ruling
    chart = flowchart.layout(rs, "death-penalty")
    (shared,) = [lab for lab in chart.labels if len(lab.lines) > 1]
    assert " ".join(shared.lines).count("/") == 3
    assert all(len(line) <= flowchart.LABEL_WRAP + 2 for line in shared.lines)


def test_a_wide_fan_grows_its_gap_rather_than_stack_answers() -> None:
    rs = load_strict("amja")
    chart = flowchart.layout(rs, "replay-or-penalty")  # one question, nine answers
    assert len(chart.labels) >= 9
    top = chart.boxes[chart.layers[0][0]]
    first = min(chart.boxes[k].y for k in chart.layers[1])
    assert first - (top.y + top.h) > flowchart.GAP_Y
