"""The quiz as pages: the same stories, answers and marks as `referee quiz`, on a phone.

A quiz is carried in the address (ruleset's seed, how many, topic, which story, the marks so
far), so a reload or Back is safe and nothing is kept for an anonymous judge. A signed-in judge's
answers are recorded (store/quiz.py) and her progress is shown on the start page; the head
judge starts a shared quiz (everyone the same stories in the same order: one seed) and watches
the scores arrive on the board, refreshed by quiz.js (or, without JavaScript, by the page itself).
"""
from __future__ import annotations

import secrets
import threading
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response

from ..errors import UsageError
from ..rules.loader import Ruleset
from ..rules.model import PHASES, SEATS
from ..quiz.draw import draw, topic_filter
from ..quiz.items import PART_TITLES, Item, items, outcome_of
from ..quiz.marking import GAME_CHOICES, Marked, mark, parse_dead, parse_game, parse_pay, said
from ..quiz.score import Score
from ..ruling.render import rule_keys
from .state import Web, web
from .forms import form_text
from .walk import sections

MAX_N = 50
_ITEMS: dict[str, list[Item]] = {}  # ruleset hash -> its items: read from the scenarios once
_LOCK = threading.Lock()


@dataclass(frozen=True)
class Shared:
    """A quiz the head judge started for the room: one seed, so one order of stories."""

    id: str
    seed: int
    n: int
    topic: str


def _pool(rs: Ruleset, topic: str) -> list[Item]:
    with _LOCK:
        if rs.hash not in _ITEMS:
            _ITEMS[rs.hash] = items(rs)
    return topic_filter(rs, topic or None, _ITEMS[rs.hash])


@dataclass
class Quiz:
    """Where a judge is in a quiz, read from the address or the form."""

    seed: int
    n: int
    topic: str
    i: int  # the story being asked, from 1
    marks: str  # '.'-separated, one group of 0/1 per story answered: '111.010'
    session: str
    shared: str

    @classmethod
    def read(cls, q: Any) -> "Quiz":
        def number(name: str, default: int, low: int, high: int) -> int:
            raw = str(q.get(name) or "").strip()
            if not raw:
                return default
            if not raw.isdigit() or not low <= int(raw) <= high:
                raise HTTPException(400, f"'{name}' must be a number from {low} to {high}.")
            return int(raw)

        marks = str(q.get("r") or "")[:4 * MAX_N]
        if marks and not all(set(g) <= {"0", "1"} and len(g) == 3 for g in marks.split(".")):
            raise HTTPException(400, "The marks in this address are not ones this page wrote.")
        return cls(number("seed", 0, 0, 10**9), number("n", 10, 1, MAX_N), str(q.get("topic") or "")[:60].strip(),
                   number("i", 1, 1, MAX_N), marks, str(q.get("session") or "")[:40], str(q.get("shared") or "")[:40])

    def query(self, **change: Any) -> str:
        d = {"seed": self.seed, "n": self.n, "topic": self.topic, "i": self.i, "r": self.marks,
             "session": self.session, "shared": self.shared} | change
        return urlencode({k: v for k, v in d.items() if v not in ("", None)})

    def stories(self, rs: Ruleset) -> list[Item]:
        try:
            return draw(_pool(rs, self.topic), self.n, self.seed)
        except UsageError as exc:
            raise HTTPException(400, exc.message) from None


def start(request: Request) -> Response:
    """The start page: a new quiz, the shared one if the head judge started it, her own progress."""
    w = web(request)
    rs = w.ruleset()
    j = w.judge(request)
    mine, everyone = None, None
    if j is not None:
        mine, everyone = _progress(w, j)
    phases = [p for p in PHASES if any(i.phase == p for i in _pool(rs, ""))]
    from ..handouts.content import PHASE_TITLES

    return w.page(request, "quiz.html", shared=_shared(w), phases=[(p, PHASE_TITLES.get(p, p)) for p in phases],
                  count=len(_pool(rs, "")),
                  mine=mine, everyone=everyone, new_seed=secrets.randbelow(10**6))


def _progress(w: Web, j: Any) -> tuple[Any, Any]:
    from ..quiz.progress import judges, trends
    from ..store.quiz import QuizLog

    with QuizLog.open(w.settings.db) as log:
        rows = log.answers(None if j.role == "head" else j.name)
    own = [r for r in rows if r.judge.casefold() == j.name.casefold()]
    mine = {"stories": len({(r.session, r.n) for r in own}), "right": sum(r.right for r in own), "parts": len(own),
            "weak": [t for t in trends(own) if t.weak][:8]} if own else None
    return mine, (judges(rows) if j.role == "head" else None)


def _shared(w: Web) -> Shared | None:
    return w.shared_quiz  # type: ignore[no-any-return]


def story(request: Request) -> Response:
    w = web(request)
    rs = w.ruleset()
    qz = Quiz.read(request.query_params)
    if qz.shared:
        s = _shared(w)
        if s is None or s.id != qz.shared:
            raise HTTPException(404, "That shared quiz is over; start your own from the quiz page.")
        j = w.require(request)
        qz = Quiz(s.seed, s.n, s.topic, qz.i, qz.marks, f"{s.id}:{j.name}"[:40], s.id)
    if not qz.session:
        qz.session = secrets.token_hex(8)
    chosen = qz.stories(rs)
    if qz.i > len(chosen):
        return RedirectResponse(f"/quiz/score?{qz.query()}", 303)
    item = chosen[qz.i - 1]
    return _story_page(request, w, qz, item, len(chosen), 200, None, {})


def _story_page(request: Request, w: Web, qz: Quiz, item: Item, total: int, status: int, error: str | None,
                given: dict[str, str]) -> Response:
    from ..handouts.content import PHASE_TITLES

    return w.page(request, "quiz_story.html", status, qz=qz, item=item, total=total, seats=SEATS, names=item.names,
                  games=GAME_CHOICES, unit=w.ruleset().scoring.unit, error=error, given=given,
                  phase=PHASE_TITLES.get(item.phase, item.phase))


async def answer(request: Request) -> Response:
    w = web(request)
    form = await request.form(max_fields=40, max_files=0)
    j = w.judge(request)
    if j is not None:
        w.check_csrf(request, form_text(form, "csrf", 200))
    return await run_in_threadpool(_answer, request, w, j, form)


def _answer(request: Request, w: Web, j: Any, form: Any) -> Response:
    rs = w.ruleset()
    qz = Quiz.read(form)
    chosen = qz.stories(rs)
    if qz.i > len(chosen):
        raise HTTPException(400, "This quiz has no such story.")
    item = chosen[qz.i - 1]
    names = item.names
    dead_raw = ", ".join(v for v in form.getlist("dead") if isinstance(v, str) and v in SEATS) or "none"
    given = {"dead": dead_raw, "game": form_text(form, "game", 20), "pay": form_text(form, "pay", 300)}
    try:
        if not given["game"]:
            raise UsageError("What happens to the game? Choose one.")
        dead = parse_dead(dead_raw, names)
        game = parse_game(given["game"])
        pay = parse_pay(given["pay"] or "none", names, item.points)
    except UsageError as exc:
        return _story_page(request, w, qz, item, len(chosen), 400, exc.message, given)
    marks = mark(item, dead, game, pay)
    if j is not None and qz.session:
        from ..store.quiz import QuizLog

        with QuizLog.open(w.settings.db) as log:
            log.record(qz.session, qz.i, j.name, rs.id, item.id, item.situation, item.phase,
                       [(m.part, said(m.part, m.given, item), m.right) for m in marks])
    done = ".".join(x for x in (qz.marks, "".join("1" if m.right else "0" for m in marks)) if x)
    o = outcome_of(item, rs)
    nxt = qz.query(i=qz.i + 1, r=done)
    return w.page(request, "quiz_marked.html", qz=qz, item=item, total=len(chosen), marks=_shown(marks, item),
                  right=sum(m.right for m in marks), o=o, title=rs.situations[o.situation].title,
                  dead=[p.label for p in o.dead], sections=sections(o), keys=rule_keys(o),
                  next_url=(f"/quiz/story?{nxt}" if qz.i < len(chosen) else f"/quiz/score?{nxt}"),
                  last=qz.i >= len(chosen))


def _shown(marks: list[Marked], item: Item) -> list[dict[str, Any]]:
    return [{"title": PART_TITLES["points" if m.part == "pay" and item.points else m.part], "right": m.right,
             "given": said(m.part, m.given, item), "key": said(m.part, m.key, item)} for m in marks]


def score(request: Request) -> Response:
    w = web(request)
    rs = w.ruleset()
    qz = Quiz.read(request.query_params)
    chosen = qz.stories(rs)
    groups = qz.marks.split(".") if qz.marks else []
    s = Score()
    for item, g in zip(chosen, groups):
        s.add(item, [Marked(part, None, None, bit == "1") for part, bit in zip(("dead", "game", "pay"), g)])
    again = [(sid, rs.situations[sid].title) for sid in s.read_again() if sid in rs.situations]
    return w.page(request, "quiz_score.html", qz=qz, s=s, again=again, titles=PART_TITLES,
                  points=bool(chosen) and all(i.points for i in chosen))


async def share(request: Request) -> Response:
    """The head judge starts (or ends) the room's quiz."""
    w = web(request)
    w.require(request, "head")
    form = await request.form(max_fields=10, max_files=0)
    w.check_csrf(request, form_text(form, "csrf", 200))
    if form_text(form, "end", 5):
        w.shared_quiz = None
        return RedirectResponse("/quiz", 303)
    qz = Quiz.read({"n": form_text(form, "n", 3), "topic": form_text(form, "topic", 60), "seed": form_text(form, "seed", 9)})
    seed = qz.seed or secrets.randbelow(10**6)
    Quiz(seed, qz.n, qz.topic, 1, "", "", "").stories(w.ruleset())  # a topic with no stories: refused now
    w.shared_quiz = Shared(secrets.token_hex(4), seed, qz.n, qz.topic)
    return RedirectResponse("/quiz/board", 303)


def _board_rows(w: Web, s: Shared) -> list[dict[str, Any]]:
    from ..store.quiz import QuizLog

    with QuizLog.open(w.settings.db) as log:
        rows = [r for r in log.answers() if r.session.startswith(s.id + ":")]
    by: dict[str, dict[str, Any]] = {}
    for r in rows:
        e = by.setdefault(r.judge, {"judge": r.judge, "stories": set(), "right": 0, "parts": 0})
        e["stories"].add(r.n)
        e["right"] += r.right
        e["parts"] += 1
    return sorted(({"judge": e["judge"], "stories": len(e["stories"]), "right": e["right"], "parts": e["parts"]}
                   for e in by.values()), key=lambda e: (-e["right"], e["judge"].casefold()))


def board(request: Request) -> Response:
    w = web(request)
    w.require(request, "head")
    s = _shared(w)
    rows = _board_rows(w, s) if s else []
    if request.query_params.get("format") == "json":
        return JSONResponse({"shared": s.id if s else None, "rows": rows}, headers={"Cache-Control": "no-store"})
    return w.page(request, "quiz_board.html", shared=s, rows=rows)
