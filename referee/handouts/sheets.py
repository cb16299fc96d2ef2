"""The two short sheets: quick reference (one line a ruling) and differences from a base ruleset."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..rules.loader import Ruleset
from . import content, phrases


FONTS = tuple(round(11.0 - 0.2 * i, 1) for i in range(16))  # 11 pt down to 8 pt
COLUMN_CHARS_AT_10PT = 52  # characters a line of one column holds at 10 pt (A4, the narrower page)
# Estimated lines x pt that two pages hold. Measured: 2547 filled two Letter pages (the shorter
# page) to the last line in Chromium; this leaves about 10% for the estimate's error (4% once let
# card-game, which has the most situations, run to a fifth page, and so did 8% once the sheets
# said 'they' for 'she': the estimate counts characters, not the words a line breaks at).
CAPACITY = 2300
# Pages, in twos: saying when each ruling applies doubled the sheet, and at 8 pt it still
# overflowed two pages; two sheets printed on both sides keep the type at arm's length.
SHEETS = 2


@dataclass
class QuickLine:
    ruling: str
    when: str  # the answers that decide it, in a few words
    dead: str
    pays: str
    game: str


NONE = "none"  # the one word for no dead hand, no payment


def _condition(q: "content.Question | None", value: str) -> str:
    if q is None:
        return value
    return phrases.phrase(q.ask, q.choices, q.short, value)


def _when(page: "content.Page", answers: list[tuple[int, str]]) -> list[str]:
    """The answers on one path that decide between the situation's rulings, as the sheet says
    them: what was the case (a 'yes', a choice), not every 'no' on the way. A path of nothing but
    'no' is the situation's 'otherwise'; the more specific lines are the exceptions to it."""
    qs = {q.number: q for q in page.questions}
    shared = set.intersection(*(set(r.answers) for r in page.rows)) if page.rows else set()
    return [_condition(qs.get(n), v) for n, v in answers if (n, v) not in shared and v != "no"]


def _either(paths: list[list[str]]) -> str:
    """One ruling reached several ways: what the ways share decides it (an answer that differs
    between them does not); where they share nothing, each way, split by ' / '."""
    common = [c for c in paths[0] if all(c in p for p in paths[1:])]
    if common or len(paths) == 1:
        return "; ".join(common) or "otherwise"
    return " / ".join(dict.fromkeys("; ".join(p) or "otherwise" for p in paths))


def _order(ruling: str) -> tuple[str, int, str]:
    """WE-1 before WE-2 before WE-10."""
    m = re.match(r"(.*?)(\d+)([A-Za-z]*)$", ruling)
    return (m.group(1), int(m.group(2)), m.group(3)) if m else (ruling, 0, "")


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
    """The largest type (pt) at which the sheet should still fit four pages (two sheets) of Letter or A4: the
    sheet is for arm's length, so it shrinks only as far as the content makes it."""
    for pt in FONTS:
        width = int(COLUMN_CHARS_AT_10PT * 10 / pt)
        lines = 3 * 10 / pt * width / COLUMN_CHARS_AT_10PT  # the heading, spread over both columns
        for g in groups:
            lines += 1.6
            for sit in g.situations:
                lines += _lines(sit.title, int(width * 0.9))
                for q in sit.lines:
                    lines += _lines(f"{q.ruling} · {q.when} · dead: {q.dead} · {q.pays} · {q.game}", width)
        if lines * pt <= CAPACITY * SHEETS:
            return pt
    return FONTS[-1]


def quick(rs: Ruleset) -> list[QuickGroup]:
    """One line a ruling, in ruling order: when it applies, who is dead, who pays, the game.
    A ruling reached more than one way says each way, joined by 'or'."""
    groups: list[QuickGroup] = []
    for phase in content.phases(rs, with_examples=False):
        group = QuickGroup(phase.title)
        for page in phase.pages:
            lines: dict[str, QuickLine] = {}
            ways: dict[str, list[list[str]]] = {}
            for row in page.rows:
                if row.ruling is None:
                    continue
                ways.setdefault(row.ruling, []).append(_when(page, row.answers))
                if row.ruling not in lines:
                    dead = ", ".join(_short(d) for d in row.dead) or NONE
                    pays = "; ".join(_short(x) for x in row.money) or NONE
                    lines[row.ruling] = QuickLine(row.ruling, "", dead, pays, row.game)
            for rid, paths in ways.items():
                lines[rid].when = _either(paths) if len(ways) > 1 or page.questions else "always"
            ordered = [lines[k] for k in sorted(lines, key=_order)]
            group.situations.append(QuickSituation(page.situation.id, page.situation.title, ordered))
        groups.append(group)
    return groups


@dataclass
class DiffCase:
    ways: list[list[str]]  # each way: the answers that lead here, in the questions' words ([]: always)
    base: str
    this: str
    differs: list[str]
    paths: int
    shown_for: list[str] = field(default_factory=list)  # answers the amounts printed assume (jokerless: no)


@dataclass
class DiffSituation:
    id: str
    title: str
    cases: list[DiffCase]


@dataclass
class DiffSheet:
    base: str
    this: str
    situations: list[DiffSituation]
    only_base: list[tuple[str, str]]
    only_this: list[tuple[str, str]]
    paths: int
    asked: list[tuple[str, str, str]] = field(default_factory=list)  # (situation title, as base asks, as this asks)
    worded: list[tuple[str, str, str, str]] = field(default_factory=list)  # (situation title, base ruling, this ruling, what)


def differences(base: Ruleset, rs: Ruleset) -> DiffSheet:
    """What `referee diff BASE RS` reports, each case once, in the wording of the questions."""
    from ..diff import answer, diff, exit_text, summarize  # here: a booklet or quick sheet never compares

    report = diff(base, rs)
    found = summarize(report, base, rs)
    rss = (rs, base)
    sits: dict[str, DiffSituation] = {}
    for o in found.owned:
        case = DiffCase([[answer(rss, o.via or o.situation, f, v) for f, v in w.items()] for w in o.ways],
                        exit_text(base, o.shown.a, o.a), exit_text(rs, o.shown.b, o.b), o.differs, len(o.paths),
                        [answer(rss, o.situation, f, o.shown.answers[f]) for f in o.varies if f in o.shown.answers])
        sits.setdefault(o.situation, DiffSituation(o.situation, o.title, [])).cases.append(case)
    title = lambda r, sid: r.situations[sid].title  # noqa: E731
    return DiffSheet(base.id, rs.id, list(sits.values()), [(sid, title(base, sid)) for sid in report.only_in_a],
                     [(sid, title(rs, sid)) for sid in report.only_in_b], report.paths,
                     [(title(rs, sid), x, y) for sid, _, x, y in found.questions],
                     [(w.title, w.a.ruling or "", w.b.ruling or "", ", ".join(w.what)) for w in found.worded])
