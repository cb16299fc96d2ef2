"""The floor judge's pages: search, one question per page, the ruling, Record, sign-in."""
from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response

from ..rules.model import PHASES
from ..ruling.render import GAME_TEXT, details, outcome_json, rule_keys
from ..store.context import LogContext
from ..store.backend import NotFound, Unreachable
from ..store.db import StoreError
from ..store.record import new_id
from .state import Web, web
from .outage import RETRY_AFTER_S, RULING_MAY_BE_RECORDED
from .security import SESSION_COOKIE, SESSION_HOURS, Judge
from .forms import form_text, next_path
from .walk import RULING_ID, Walk, printed, sections, walk
MAX_FIELD = 10  # table and round
MAX_QUERY = 4000
PREFS = {"table": "referee_table", "round": "referee_round"}


def _open_for(w: Web, request: Request) -> None:
    if w.settings.judges_only and w.judge(request) is None:
        raise HTTPException(403, "This server is for judges only. Sign in first.")


def home(request: Request) -> Response:
    from ..search.rank import search_ruleset

    w = web(request)
    _open_for(w, request)
    rs = w.ruleset()
    q = request.query_params.get("q", "").strip()[:200]
    sits = list(rs.situations.values())
    hits = [h.situation for h in search_ruleset(rs, q, limit=8)] if q else []
    groups: list[tuple[str, list[Any]]] = []
    if not q:
        for phase in PHASES:
            in_phase = sorted((s for s in sits if s.phase == phase), key=lambda s: s.title.lower())
            if in_phase:
                groups.append((phase, in_phase))
    j = w.judge(request)
    mine = _history(w, judge=j.name) if j else []
    return w.page(request, "home.html", q=q, hits=hits, groups=groups, mine=mine or [])


def _history(w: Web, **where: str) -> list[Any] | None:
    """The newest five of this event's rulings that match, newest first, for a page that can do
    without them: None while the log cannot be read (the page says so and still works)."""
    try:
        return _last(w, **where)
    except StoreError:
        return None


def _last(w: Web, **where: str) -> list[Any]:
    """The newest five of this event's rulings by a judge or at a table, newest first: read from
    the end of an index, so the page costs the same at ruling 5,000 as at ruling 5."""
    from ..store.rulings import Filters

    with w.log() as log:
        return log.find(Filters(event=w.settings.event, **where), last=5)[::-1]


def situation(request: Request) -> Response:
    w = web(request)
    _open_for(w, request)
    rs = w.ruleset()
    sid = request.path_params["sid"]
    if sid not in rs.situations:
        raise HTTPException(404, f"No situation '{sid[:80]}' in ruleset '{rs.id}'. Search for it instead.")
    params = list(request.query_params.multi_items())
    wk = walk(rs, sid, params, rid=new_id())  # the query's id, or a new one for a walk's first page
    if wk.outcome is None:
        return w.page(request, "question.html", 400 if wk.error else 200, **_question_ctx(rs, wk))
    return _ruling_page(request, w, wk)


def _question_ctx(rs: Any, wk: Walk) -> dict[str, Any]:
    from ..rules.model import SEATS
    from .walk import NONE_TICKED

    sit = rs.situations[wk.sid]
    q = wk.question
    assert q is not None
    asked_in = rs.situations[q.situation]
    back = wk.answered[-1].revise if wk.answered else None
    return {"sit": sit, "asked_in": asked_in, "wk": wk, "q": q, "d": q.definition, "back": back, "seats": SEATS,
            "none_ticked": NONE_TICKED}


def _ruling_page(request: Request, w: Web, wk: Walk, status: int = 200, errors: dict[str, str] | None = None,
                 form: dict[str, str] | None = None, headers: dict[str, str] | None = None) -> Response:
    rs = w.ruleset()
    o = wk.outcome
    assert o is not None
    j = w.judge(request)
    prefs = {k: (form or {}).get(k) or request.cookies.get(c, "") for k, c in PREFS.items()}
    if not prefs["round"]:
        prefs["round"] = w.settings.round or ""
    # a ruling needs no database: the table's history is shown when the log can be read
    earlier = _history(w, table=prefs["table"]) if j and prefs["table"] else []
    done, rid = _done(w, wk) if j else (None, wk.rid)
    title = rs.situations[o.situation].title
    return w.page(request, "ruling.html", status, headers, o=o, wk=wk, sit=rs.situations[wk.sid], title=title,
                  reached_from=rs.situations[o.start].title if o.situation != o.start else None,
                  dead=[p.label for p in o.dead], game=GAME_TEXT[o.game], sections=sections(o),
                  more=details(o), keys=rule_keys(o),
                  rid=(form or {}).get("rid") or rid, done=done, prefs=prefs, errors=errors or {}, earlier=earlier,
                  back=wk.answered[-1].revise if wk.answered else None)


def _done(w: Web, wk: Walk) -> tuple[Any, str | None]:
    """The ruling this walk's id was recorded as, if it was (Back after Record), and the id a
    Record on this page sends: the same one, or a new one when the answers have changed since,
    which records a second ruling rather than being taken for the first."""
    import json

    if wk.rid is None:
        return None, None
    try:
        with w.log() as log:
            done = log.ruling(wk.rid)
    except StoreError:  # the log cannot be read: Record with this id records it once whatever it holds
        return None, wk.rid
    if done is None:
        return None, wk.rid
    o = wk.outcome
    assert o is not None
    same = (done.situation, done.ruled_in, json.dumps(done.answers, sort_keys=True), done.players) == (
        wk.sid, o.situation, json.dumps(o.facts, sort_keys=True, default=str), wk.players)
    return done, (None if same else new_id())


async def record(request: Request) -> Response:
    w = web(request)
    j = w.require(request)
    form = await request.form(max_fields=50, max_files=0)
    w.check_csrf(request, form_text(form, "csrf", 200))
    return await run_in_threadpool(_record, request, w, j, form)


def _record(request: Request, w: Web, j: Judge, form: FormData) -> Response:
    from ..store.rulings import store

    rs = w.ruleset()
    sid = form_text(form, "situation", 200)
    query = str(form.get("query") or "")
    rid = form_text(form, "rid", 40)
    if sid not in rs.situations or len(query) > MAX_QUERY or not RULING_ID.fullmatch(rid):
        raise HTTPException(400, "This form is not one the ruling page sent. Go back and tap Record again.")
    wk = walk(rs, sid, parse_qsl(query, keep_blank_values=True))
    if wk.outcome is None:
        raise HTTPException(400, "These answers do not reach a ruling yet. Go back and answer the questions.")
    values = {"table": form_text(form, "table", 100), "round": form_text(form, "round", 100), "rid": rid}
    errors = {}
    for name in ("table", "round"):
        if not values[name]:
            errors[name] = f"Enter the {name}."
        elif len(values[name]) > MAX_FIELD:
            errors[name] = f"At most {MAX_FIELD} characters."
    if errors:
        return _ruling_page(request, w, wk, 400, errors, values)
    o = wk.outcome
    ctx = LogContext(db=w.settings.db, event=w.settings.event, round=values["round"], table=values["table"], judge=j.name,
                     sign_in=j.sign_in)
    try:
        with w.outage.watch():
            r = store(ctx, o, wk.players, printed(o), outcome_json(o), ruling_id=rid)
    except Unreachable:  # the same form (its ruling id) sent again records it once
        return _ruling_page(request, w, wk, 503, {"log": RULING_MAY_BE_RECORDED}, values,
                            headers={"Retry-After": str(RETRY_AFTER_S)})
    except StoreError as exc:
        return _ruling_page(request, w, wk, 500, {"log": f"This ruling is NOT recorded: {exc.message}. "
                                                         "Tell the head judge; keep the ruling on paper meanwhile."}, values)
    response = RedirectResponse(f"/rulings/{r.id}", status_code=303)
    for name, cookie in PREFS.items():
        response.set_cookie(cookie, values[name], max_age=SESSION_HOURS * 3600, samesite="strict", httponly=True)
    return response


def recorded(request: Request) -> Response:

    w = web(request)
    j = w.require(request)
    rid = request.path_params["rid"]
    if not RULING_ID.fullmatch(rid):
        raise HTTPException(404, "No such ruling in the log.")
    try:
        with w.log() as log:
            r = log.get(rid)
    except NotFound:
        raise HTTPException(404, "No such ruling in the log.") from None
    except Unreachable:  # it may well be there: "not found" would have the judge rule again
        raise HTTPException(503, RULING_MAY_BE_RECORDED, {"Retry-After": str(RETRY_AFTER_S)}) from None
    if r.event != w.settings.event:  # a shared log holds every venue's rulings: each serve shows its own
        raise HTTPException(404, "No such ruling in this event's log.")
    number = r.number
    may_withdraw = not r.withdrawn and (j.role == "head" or (r.judge or "") == j.name)
    return w.page(request, "recorded.html", r=r, number=number, may_withdraw=may_withdraw)


async def theme(request: Request) -> Response:
    form = await request.form(max_fields=5, max_files=0)
    chosen = form_text(form, "theme", 10)
    response = RedirectResponse(next_path(form_text(form, "next", 500)), status_code=303)
    response.set_cookie("referee_theme", chosen if chosen in ("light", "dark") else "", max_age=365 * 86400, samesite="strict")
    return response


def csrf(request: Request) -> Response:
    """A fresh form token for the signed-in judge: the phone's outbox resends a ruling kept from
    an older sign-in with it. Same-origin only (the session cookie is SameSite=Strict, and no
    other site may read the answer)."""
    from starlette.responses import JSONResponse

    w = web(request)
    w.require(request)
    return JSONResponse({"csrf": w.signer.csrf(request.cookies.get(SESSION_COOKIE, ""))}, headers={"Cache-Control": "no-store"})


def health(request: Request) -> Response:
    """Up and answering: the log is not read (anyone may ask, as often as they like)."""
    return PlainTextResponse("ok")


def join(request: Request) -> Response:
    """The address to open and its QR code, for the head judge's screen or a printed sign; the
    judges' PIN only to the head judge."""
    import base64

    w = web(request)
    urls = list(w.settings.urls) or [str(request.base_url)]
    qr = ""
    try:
        import io

        import segno

        buf = io.BytesIO()
        segno.make(urls[0], error="m").save(buf, kind="svg", scale=6, border=2, dark="#000", light="#fff")
        qr = "data:image/svg+xml;base64," + base64.b64encode(buf.getvalue()).decode()
    except ImportError:
        pass
    j = w.judge(request)
    pin = w.settings.pin if j and j.role == "head" else None
    return w.page(request, "join.html", urls=urls, qr=qr, pin=pin)
