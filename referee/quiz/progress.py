"""A judge's progress over time, from her recorded answers: which situations she gets wrong, and
whether she is getting them right now. Works on any rows with the fields of store.quiz.Answer."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable


@dataclass(frozen=True)
class Trend:
    situation: str
    phase: str
    marks: str  # one mark per time asked, oldest first: + all parts right, ~ some, - none
    right: int  # parts right
    parts: int  # parts asked
    last: str  # when last asked (UTC, ISO)

    @property
    def share(self) -> float:
        return self.right / self.parts if self.parts else 0.0

    @property
    def weak(self) -> bool:
        """Wrong in part the last time she met it, or right under three parts in four overall."""
        return self.marks[-1:] != "+" or self.share < 0.75


@dataclass(frozen=True)
class JudgeSummary:
    judge: str
    sessions: int
    questions: int
    right: int
    parts: int
    weak: list[str]  # situations, weakest first
    last: str


def _questions(rows: Iterable[Any]) -> dict[tuple[str, str, int], list[Any]]:
    out: dict[tuple[str, str, int], list[Any]] = {}
    for r in rows:
        out.setdefault((r.judge.casefold(), r.session, r.n), []).append(r)
    return out


def trends(rows: Iterable[Any]) -> list[Trend]:
    """Per situation, weakest first (then the most recently asked)."""
    per: dict[str, list[list[Any]]] = {}
    for parts in sorted(_questions(rows).values(), key=lambda ps: (ps[0].answered_at, ps[0].session, ps[0].n)):
        per.setdefault(parts[0].situation, []).append(parts)
    out = []
    for sid, asked in per.items():
        marks = "".join("+" if all(p.right for p in ps) else "-" if not any(p.right for p in ps) else "~" for ps in asked)
        right = sum(p.right for ps in asked for p in ps)
        parts = sum(len(ps) for ps in asked)
        out.append(Trend(sid, asked[0][0].phase, marks, right, parts, max(p.answered_at for ps in asked for p in ps)))
    return sorted(out, key=lambda t: (not t.weak, t.share, t.marks[-1:] == "+", t.situation))


def judges(rows: list[Any]) -> list[JudgeSummary]:
    """One line per judge, for the head judge: how many sittings, how she scores, what to read."""
    by: dict[str, list[Any]] = {}
    names: dict[str, str] = {}
    for r in rows:
        by.setdefault(r.judge.casefold(), []).append(r)
        names.setdefault(r.judge.casefold(), r.judge)
    out = []
    for key, mine in by.items():
        qs = _questions(mine)
        out.append(JudgeSummary(names[key], len({r.session for r in mine}), len(qs), sum(r.right for r in mine),
                                len(mine), [t.situation for t in trends(mine) if t.weak], max(r.answered_at for r in mine)))
    return sorted(out, key=lambda j: j.judge.casefold())
