"""The two short sheets: quick reference (one line a ruling) and differences from a base ruleset."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any


from ..diff import describe, diff
from ..loader import Ruleset
from . import content


FONTS = tuple(round(11.0 - 0.2 * i, 1) for i in range(16))  # 11 pt down to 8 pt
COLUMN_CHARS_AT_10PT = 52  # characters a line of one column holds at 10 pt (A4, the narrower page)
# Estimated lines x pt that two pages hold. Measured: 2547 filled two Letter pages (the shorter
# page) to the last line in Chromium; this leaves about 4% for the estimate's error.
CAPACITY = 2450


@dataclass
class QuickLine:
    ruling: str
    dead: str
    pays: str
    game: str


@dataclass
class QuickSituation:
    id: str
    title: str
    lines: list[QuickLine]


@dataclass
class QuickGroup:
    title: str
    situations: list[QuickSituation] = field(default_factory=list)


def _short(text: str) -> str:
    """'The picker pays the winner 4 x the hand value' -> 'picker → winner 4 × hand value'."""
    text = re.sub(r"^(.*?) pays (.*?) (\d.*|the .*|\d+)$", r"\1 → \2 \3", text) if " pays " in text else text
    text = text.replace(" x ", " × ")
    text = re.sub(r"scores (the )?discarder's penalty by (the )?winner's exposures", "takes the discarder's penalty", text)
    text = re.sub(r"\bthe (lowest hand on the card)", r"\1", text)
    text = re.sub(r"\b[Tt]he ", "", text)
    text = re.sub(r" \((each )?other( player)?\)$", "", text)  # the settlement's own reminder of who "others" are
    text = re.sub(r"^[Ee]ach other player\b", "each other", text)
    text = text.replace("hand value", "value")  # the sheet's legend says value is the hand's card value
    return text


def _lines(text: str, width: int) -> int:
    return max(1, -(-len(text) // width))


def quick_font(groups: list[QuickGroup]) -> float:
    """The largest type (pt) at which the sheet should still fit two pages of Letter or A4: the
    sheet is for arm's length, so it shrinks only as far as the content makes it."""
    for pt in FONTS:
        width = int(COLUMN_CHARS_AT_10PT * 10 / pt)
        lines = 3 * 10 / pt * width / COLUMN_CHARS_AT_10PT  # the heading, spread over both columns
        for g in groups:
            lines += 1.6
            for sit in g.situations:
                lines += _lines(sit.title, int(width * 0.9))
                for q in sit.lines:
                    lines += _lines(f"{q.ruling} · dead: {q.dead} · {q.pays} · {q.game}", width)
        if lines * pt <= CAPACITY:
            return pt
    return FONTS[-1]


def quick(rs: Ruleset) -> list[QuickGroup]:
    groups: list[QuickGroup] = []
    for phase in content.phases(rs, with_examples=False):
        group = QuickGroup(phase.title)
        for page in phase.pages:
            lines: list[QuickLine] = []
            for row in page.rows:
                if row.ruling is None or any(row.ruling in q.ruling.split(", ") for q in lines):
                    continue
                dead = ", ".join(_short(d) for d in row.dead) or "—"
                pays = "; ".join(_short(x) for x in row.money) or "—"
                same = next((q for q in lines if (q.dead, q.pays, q.game) == (dead, pays, row.game)), None)
                if same:  # rulings that treat the table alike share a line
                    same.ruling += f", {row.ruling}"
                else:
                    lines.append(QuickLine(row.ruling, dead, pays, row.game))
            group.situations.append(QuickSituation(page.situation.id, page.situation.title, lines))
        groups.append(group)
    return groups


@dataclass
class DiffCase:
    answers: list[str]
    base: str
    this: str
    differs: list[str]


@dataclass
class DiffSituation:
    id: str
    title: str
    paths: int
    cases: list[DiffCase]


@dataclass
class DiffSheet:
    base: str
    this: str
    situations: list[DiffSituation]
    only_base: list[tuple[str, str]]
    only_this: list[tuple[str, str]]
    paths: int


def _answer(rs: Ruleset, sid: str, fact: str, value: Any) -> str:
    d = rs.fact(fact, sid) if sid in rs.situations else None
    if d is None:
        for other in rs.situations:
            d = rs.fact(fact, other)
            if d is not None:
                break
    ask = d.ask if d else fact
    if d is not None and d.choices and str(value) in d.choices:
        return f"{ask} {d.choices[str(value)]}"
    return f"{ask} {value}"


def differences(base: Ruleset, rs: Ruleset) -> DiffSheet:
    """What `referee diff BASE RS` reports, in the wording of the questions."""
    report = diff(base, rs)
    sits = []
    for s in report.differing:
        cases = [DiffCase([_answer(rs, s.id, k, v) for k, v in d.answers.items()],
                          describe(d.a, base.scoring.unit), describe(d.b, rs.scoring.unit), d.differs)
                 for d in s.differences]
        sits.append(DiffSituation(s.id, s.title, s.paths, cases))
    title = lambda r, sid: r.situations[sid].title  # noqa: E731
    return DiffSheet(base.id, rs.id, sits, [(sid, title(base, sid)) for sid in report.only_in_a],
                     [(sid, title(rs, sid)) for sid in report.only_in_b], report.paths)



