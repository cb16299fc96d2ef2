"""The head judge's pages: the live log, withdrawing a ruling, exports and handouts.

The log page is fed by Server-Sent Events that tail the rulings log itself (no in-memory
queue), so a ruling recorded by `referee rule` at the head table shows up as well as one
recorded from a phone, and a restarted server loses nothing.
"""
from __future__ import annotations

from typing import Any, AsyncIterator
from urllib.parse import urlencode

import anyio
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response, StreamingResponse

from ..store.backend import NotFound
from .state import Web, web
from .forms import form_text
from .walk import RULING_ID
from .security import SESSION_COOKIE

FILTERS = ("table", "round", "player", "judge", "situation")
LOOKBACK_S = 10  # a ruling committed late (another process) is still caught; the page drops repeats
POLL_S = 1.0
KEEPALIVE_EVERY = 15


def _rulings(w: Web, **where: str | None) -> list[Any]:
    """This event's rulings, oldest first, filtered; none while the log does not exist yet."""
    from ..store.rulings import Filters

    judge = where.pop("judge", None)
    with w.log() as log:
        found = log.find(Filters(event=w.settings.event, **where))
    return [r for r in found if judge is None or (r.judge or "").casefold() == judge.casefold()]


def _filters(request: Request) -> dict[str, str]:
    return {k: v[:40] for k in FILTERS if (v := request.query_params.get(k, "").strip())}


def _rows(w: Web, chosen: dict[str, str], since: str | None = None) -> list[Any]:
    where: dict[str, Any] = {k: v for k, v in chosen.items() if k != "judge"}
    if since:
        where["since"] = since
    return _rulings(w, judge=chosen.get("judge"), **where)


def repeats(w: Web, rows: list[Any]) -> dict[str, list[str]]:
    """Ruling id -> the players for whom it is a repeat offence (the same situation again), for
    the rulings on the page: each player's count per situation, and who each of these rulings is
    against, both added up by the database (listing every ruling against them took most of a
    5,000-ruling event's page time)."""
    from ..store import charges
    from ..store.rulings import Filters

    if not rows:
        return {}
    with w.log() as log:
        players = log.players(Filters(event=w.settings.event), {r.situation for r in rows}, entries=False)
        against = log.charged([r.id for r in rows])
    again = {charges.key(p.name): p for p in players if p.repeats}
    marked: dict[str, list[str]] = {}
    for r in rows:
        for key in against.get(r.id, []):
            p = again.get(key)
            if p is not None and r.situation in p.repeats:
                marked.setdefault(r.id, []).append(p.name)
    return marked


PAGE = 100  # rulings on one page of the head judge's log: 5,000 made a 4.9 MB page taking a second


def log(request: Request) -> Response:
    w = web(request)
    w.require(request, "head")
    chosen = _filters(request)
    before = _event_key(request.query_params.get("before", ""))
    rows, older, total = _page(w, chosen, before)
    newest = (rows[0].recorded_at, rows[0].id) if rows and before is None else None
    return w.page(request, "log.html", rows=rows, chosen=chosen, repeated=repeats(w, rows), filters=FILTERS,
                  after=f"{newest[0]} {newest[1]}" if newest else "", query=urlencode(chosen),
                  older=f"{rows[-1].recorded_at} {rows[-1].id}" if older and rows else "", total=total,
                  paged=before is not None)


def _page(w: Web, chosen: dict[str, str], before: tuple[str, str] | None) -> tuple[list[Any], bool, int]:
    """One page of the log, newest first: (its rulings, whether older ones follow, how many match)."""
    from ..store.rulings import Filters

    if "judge" in chosen or "player" in chosen:  # matched ignoring case, after reading: filtered here
        rows = [r for r in _rows(w, chosen)[::-1] if before is None or (r.recorded_at, r.id) < before]
        return rows[:PAGE], len(rows) > PAGE, len(rows)
    filters = Filters(event=w.settings.event, **chosen)
    with w.log() as log:
        rows, older = log.newest(filters, PAGE, before)
        return rows, older, log.count(filters)


def _event_key(raw: str) -> tuple[str, str] | None:
    at, _, rid = raw.strip().partition(" ")
    return (at, rid) if at and RULING_ID.fullmatch(rid) and len(at) < 40 else None


async def stream(request: Request) -> Response:
    """`event: ruling` per new row, its id the row's (recorded_at, id): a reconnecting browser sends
    it back as Last-Event-ID and resumes where it stopped."""
    w = web(request)
    w.require(request, "head")
    chosen = _filters(request)
    last = _event_key(request.headers.get("last-event-id") or request.query_params.get("after") or "")
    row_template = w.templates.env.get_template("_row.html")
    csrf = w.signer.csrf(request.cookies.get(SESSION_COOKIE, ""))  # for the withdraw form in each row

    async def events() -> AsyncIterator[str]:
        nonlocal last
        sent: set[str] = set()  # rows already on the page or sent; the look-back sees them again
        first = True
        yield "retry: 2000\n\n"
        ticks = 0
        while not await request.is_disconnected() and not w.settings.stopping():
            since = _minus(last[0], LOOKBACK_S) if last else None
            rows = await run_in_threadpool(_rows, w, chosen, since)
            fresh = [r for r in rows if r.id not in sent]
            if first and last:  # what the page was rendered with, or received before a reconnect
                sent.update(r.id for r in fresh if (r.recorded_at, r.id) <= last)
                fresh = [r for r in fresh if (r.recorded_at, r.id) > last]
            first = False
            marked = await run_in_threadpool(repeats, w, fresh) if fresh else {}
            for r in fresh:
                sent.add(r.id)
                last = max(last, (r.recorded_at, r.id)) if last else (r.recorded_at, r.id)
                html = " ".join(row_template.render(r=r, repeated=marked, csrf=csrf).split())
                yield f"id: {r.recorded_at} {r.id}\nevent: ruling\ndata: {html}\n\n"
            ticks += 1
            if ticks % KEEPALIVE_EVERY == 0:
                yield ": keep-alive\n\n"
            for _ in range(4):  # a quarter of a poll at a time: Ctrl+C ends the stream promptly
                if w.settings.stopping():
                    return
                await anyio.sleep(POLL_S / 4)

    return StreamingResponse(events(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


def _minus(iso: str, seconds: int) -> str:
    from datetime import datetime, timedelta

    try:
        t = datetime.fromisoformat(iso.replace("Z", "+00:00")) - timedelta(seconds=seconds)
    except ValueError:
        return iso
    return t.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def export(request: Request) -> Response:
    from ..store.transfer import FORMATS, export as dump

    w = web(request)
    w.require(request, "head")
    fmt = request.query_params.get("format", "csv")
    if fmt not in FORMATS:
        raise HTTPException(400, f"Unknown format '{fmt[:20]}'; choose one of {', '.join(FORMATS)}.")
    rows = _rows(w, _filters(request))
    with w.log() as log:  # a CSV reads them for the answers' words
        wanted = {r.ruleset_hash for r in rows}
        snaps = [s for s in log.snapshots() if s[0] in wanted]
    body = dump(rows, snaps, fmt)
    kind = {"csv": "text/csv", "json": "application/json", "jsonl": "application/x-ndjson"}[fmt]
    return Response(body, media_type=kind + "; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="rulings.{fmt}"', "Cache-Control": "no-store"})


async def withdraw(request: Request) -> Response:
    w = web(request)
    j = w.require(request)
    form = await request.form(max_fields=10, max_files=0)
    w.check_csrf(request, form_text(form, "csrf", 200))
    rid = request.path_params["rid"]
    reason = form_text(form, "reason", 500)
    back = "/log" if form_text(form, "back", 10) == "log" else f"/rulings/{rid}"
    return await run_in_threadpool(_withdraw, w, j, rid, reason, back)


def _withdraw(w: Web, j: Any, rid: str, reason: str, back: str) -> Response:
    from ..errors import UsageError

    if not RULING_ID.fullmatch(rid):
        raise HTTPException(404, "No such ruling in the log.")
    try:
        with w.log() as log:
            r = log.get(rid)
            if r.event != w.settings.event:  # a shared log holds other venues' rulings: not ours to change
                raise HTTPException(403, f"This ruling belongs to another event, not {w.settings.event}; "
                                         "only that event's judges may withdraw it.")
            if j.role != "head" and (r.judge or "") != j.name:
                raise HTTPException(403, "Only the head judge, or the judge who made it, may withdraw a ruling.")
            if not reason:
                raise HTTPException(400, "Say why the ruling is withdrawn.")
            log.withdraw(rid, j.name, reason, sign_in=j.sign_in)
    except NotFound:
        raise HTTPException(404, "No such ruling in the log.") from None
    except UsageError as exc:
        raise HTTPException(400, exc.message) from None
    return RedirectResponse(back, status_code=303)


def handout(request: Request) -> Response:
    from ..handouts import build

    w = web(request)
    sheet = request.path_params["sheet"]
    house = bool(w.ruleset().meta.customs)  # a house ruleset: its customs on one page for the table
    if sheet not in ("booklet", "quick") and not (sheet == "house" and house):
        raise HTTPException(404, "The handouts are the booklet, the quick sheet" + (" and our table's rules." if house else "."))
    doc = build(w.ruleset(), "html", sheet)
    assert isinstance(doc, str)
    headers = {"Cache-Control": "no-store"}
    if request.query_params.get("download"):
        headers["Content-Disposition"] = f'attachment; filename="{w.ruleset().id}-{sheet}.html"'
    return Response(doc, media_type="text/html; charset=utf-8", headers=headers)
