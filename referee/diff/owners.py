"""Each difference once, under the situation that owns it, with the answers that lead there.

The walk starts in every situation, so a difference inside 'mahjong-in-error' is met again from
every situation that continues there by goto. A path's *owner* is the last situation both
rulesets were still in together (the end of the common part of their trails): where both reach
a ruling of the same situation, that situation; where one goes on elsewhere, the situation they
parted in. A path's *exit* on each side is the ruling it reached there, or where it went on
to. One difference is one (owner, exit, exit); every differing path belongs to exactly one.

Its conditions ("ways") are the answers that decide it, as few as still pick out exactly this
difference among every path walked from the owner: a condition never claims a case it does
not hold for, and answers that only change the amounts are dropped (and named).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..rules.loader import Ruleset
from ..rules import model as m
from .walk import ASPECTS, Difference, Report, Side, describe
from .words import answer, asked_differently


@dataclass(frozen=True)
class Exit:
    """Where one side's path left the owner: a ruling there, another situation, or an error."""

    kind: str  # "ruling", "goto" or "error"
    id: str  # the ruling id, the situation gone on to, or the error


@dataclass
class Owned:
    situation: str
    title: str
    a: Exit
    b: Exit
    differs: list[str]  # every aspect that differs on some path of it
    paths: list[Difference]  # every differing path that ends in it, from any start
    ways: list[dict[str, Any]]  # each exact: the answers that lead here (empty: always)
    shown: Difference  # the path whose outcomes are printed
    varies: list[str]  # facts whose answer changes the outcomes printed (e.g. jokerless)
    via: str | None  # the situation the ways are answered from, when no path starts in the owner
    entries: list[str] = field(default_factory=list)  # other situations that lead into it

    @property
    def key(self) -> tuple[str, Exit, Exit]:
        return (self.situation, self.a, self.b)


@dataclass
class Worded:
    """Two rulings that do the same to the table but say it, or cite it, differently."""

    situation: str
    title: str
    a: Side
    b: Side
    what: list[str]  # "ruling", "text", "citations"


@dataclass
class Summary:
    owned: list[Owned]
    worded: list[Worded]
    questions: list[tuple[str, str, str, str]]  # (situation, fact, as a asks it, as b asks it)

    def situations(self) -> list[str]:
        return list(dict.fromkeys(o.situation for o in self.owned))

    def kinds(self) -> dict[str, int]:
        """How many differences differ in each aspect."""
        return {x: n for x in ("error", *ASPECTS) if (n := sum(x in o.differs for o in self.owned))}


def owner(d: Difference) -> str:
    """The last situation of the part of the two trails that is the same (both begin at the start)."""
    n = 0
    for x, y in zip(d.a.trail, d.b.trail):
        if x != y:
            break
        n += 1
    return d.a.trail[n - 1] if n else d.start


def exit_of(side: Side, own: str) -> Exit:
    if side.error is not None:
        return Exit("error", side.error)
    at = side.trail.index(own) if own in side.trail else len(side.trail) - 1
    if at >= len(side.trail) - 1:
        return Exit("ruling", side.ruling or "?")
    return Exit("goto", side.trail[at + 1])


def key_of(d: Difference) -> tuple[str, Exit, Exit]:
    own = owner(d)
    return (own, exit_of(d.a, own), exit_of(d.b, own))


def _matches(d: Difference, cond: list[tuple[str, Any]]) -> bool:
    return all(f in d.answers and d.answers[f] == v for f, v in cond)


def _ways(members: list[Difference], universe: list[Difference], key: tuple[str, Exit, Exit]) -> list[dict[str, Any]]:
    """The fewest answers that still pick out only this difference, one way a starting path."""
    def exact(cond: list[tuple[str, Any]]) -> bool:
        return all(d.differs and key_of(d) == key for d in universe if _matches(d, cond))

    found: list[list[tuple[str, Any]]] = []
    for d in members:
        if any(_matches(d, c) for c in found):
            continue  # an earlier way covers it already
        cond = list(d.answers.items())
        for i in reversed(range(len(cond))):  # later answers (amounts, details) go first
            trial = cond[:i] + cond[i + 1:]
            if exact(trial):
                cond = trial
        found.append(cond)
    # a way that includes another is the same case said longer
    kept = [c for c in found if not any(o is not c and set(o) < set(c) for o in found)]
    return [dict(c) for c in kept]


def _outcome(side: Side) -> str:
    return repr([side.key(x) for x in ASPECTS] + [side.ruling, side.error])


def _plainest(members: list[Difference]) -> Difference:
    """The path to print: the fewest 'yes' answers (no jokerless, no Singles and Pairs)."""
    return min(members, key=lambda d: sum(v == "yes" for v in d.answers.values()))


def _varies(members: list[Difference], a: Exit, b: Exit) -> list[str]:
    """The answers that change what a ruling on either side does (the amounts for a jokerless
    hand), where the printed outcome is only one of several."""
    sides = [(a, "a"), (b, "b")]
    seen = {tuple(_outcome(getattr(d, x)) for ex, x in sides if ex.kind != "goto") for d in members}
    if len(seen) < 2:
        return []
    read = {f for d in members for ex, x in sides if ex.kind != "goto" for f in getattr(d, x).used}
    facts = dict.fromkeys(f for d in members for f in d.answers if f in read)
    return [f for f in facts if len({str(d.answers.get(f)) for d in members}) > 1]


def summarize(report: Report, rs_a: Ruleset, rs_b: Ruleset) -> Summary:
    walked = {s.id: s.walked for s in report.situations}
    groups: dict[tuple[str, Exit, Exit], list[Difference]] = {}
    for s in report.situations:
        for d in s.differences:
            groups.setdefault(key_of(d), []).append(d)
    owned: list[Owned] = []
    for key, paths in groups.items():
        own, a, b = key
        members = [d for d in paths if d.start == own]
        via = None
        if not members:  # reached only through a goto that changes it: answer from the first way in
            via = sorted(paths, key=lambda d: d.start)[0].start
            members = [d for d in paths if d.start == via]
        ways = _ways(members, walked[members[0].start], key)
        differs = [x for x in ("error", *ASPECTS) if any(x in d.differs for d in paths)]
        title = (rs_b.situations.get(own) or rs_a.situations[own]).title
        entries = sorted({d.start for d in paths} - {own})
        owned.append(Owned(own, title, a, b, differs, paths, ways, _plainest(members), _varies(members, a, b), via, entries))
    owned.sort(key=lambda o: (o.situation, _first(o, walked)))
    return Summary(owned, _worded(report, rs_a, rs_b, {o.key for o in owned}), _questions(rs_a, rs_b))


def _first(o: Owned, walked: dict[str, list[Difference]]) -> int:
    """The order the walk met it in: the tree's own order, 'yes' before 'no'."""
    order = walked[o.shown.start]
    return next(i for i, d in enumerate(order) if d is o.shown)


def _worded(report: Report, rs_a: Ruleset, rs_b: Ruleset, shown: set[tuple[str, Exit, Exit]]) -> list[Worded]:
    """Rulings alike in outcome but not in words or sources, once each, unless shown as differing."""
    out: dict[tuple[str, Exit, Exit], Worded] = {}
    for s in report.situations:
        for d in s.walked:
            if d.differs or d.a.error or d.b.error:
                continue
            what = [w for w, x, y in (("ruling", d.a.ruling, d.b.ruling), ("text", d.a.text, d.b.text),
                                      ("citations", d.a.cite, d.b.cite)) if x != y]
            key = key_of(d)
            if what and key not in shown and key not in out:
                own = key[0]
                title = (rs_b.situations.get(own) or rs_a.situations[own]).title
                out[key] = Worded(own, title, d.a, d.b, what)
    return sorted(out.values(), key=lambda w: (w.situation, w.a.ruling or "", w.b.ruling or ""))


def _questions(rs_a: Ruleset, rs_b: Ruleset) -> list[tuple[str, str, str, str]]:
    out = []
    for sid in sorted(set(rs_a.situations) & set(rs_b.situations)):
        asked = dict.fromkeys(n.ask for rs in (rs_a, rs_b) for n in rs.situations[sid].nodes.values()
                              if isinstance(n, m.QuestionNode))
        for fact in asked:
            two = asked_differently(rs_a, rs_b, sid, fact)
            if two:
                out.append((sid, fact, *two))
    return out


def exit_text(rs: Ruleset, side: Side, ex: Exit) -> str:
    """One side of a case in one line: the outcome, or the situation it goes on in."""
    if ex.kind == "goto":
        target = rs.situations.get(ex.id)
        return f"continues as '{target.title if target else ex.id}' ({ex.id}); its rulings apply"
    return describe(side, rs.scoring.unit)


def _exit_json(ex: Exit, side: Side) -> dict[str, Any]:
    return {"exit": ex.kind, "id": ex.id, **(side.as_json() if ex.kind != "goto" else {})}


def summary_json(s: Summary, rs_a: Ruleset, rs_b: Ruleset) -> dict[str, Any]:
    """Each case once, as `referee diff` prints it: `cases` (with the owner, both exits, the
    ways as fact -> value and in words, and how many paths end in it), `worded` and
    `asked_differently`."""
    rss = (rs_b, rs_a)
    return {
        "cases": [
            {
                "situation": o.situation, "title": o.title, "differs": o.differs, "paths": len(o.paths),
                "ways": o.ways, "ways_in_words": [[answer(rss, o.via or o.situation, f, v) for f, v in w.items()] for w in o.ways],
                "ways_from": o.via or o.situation, "amounts_vary_with": o.varies, "also_from": o.entries,
                "a": _exit_json(o.a, o.shown.a), "b": _exit_json(o.b, o.shown.b), "shown_answers": o.shown.answers,
            }
            for o in s.owned
        ],
        "worded": [{"situation": w.situation, "a": w.a.ruling, "b": w.b.ruling, "differ_in": w.what} for w in s.worded],
        "asked_differently": [{"situation": sid, "fact": f, "a": x, "b": y} for sid, f, x, y in s.questions],
    }
