"""Who is signed in: sign-in and out, a second device waiting for the head judge, and the head
judge's page of sign-ins (approve a device, sign everyone out, a new judges' PIN).

A name belongs to the device that first signed in under it at the event (store/signins.py): a
holder of the judges' PIN on another phone cannot record or withdraw as "Carol" until the head
judge approves that phone. Each session names its sign-in, and each ruling and withdrawal
records it.
"""
from __future__ import annotations

import secrets

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from ..store import signins
from .state import Web, web
from .forms import form_text, next_path
from .security import DEVICE_COOKIE, SESSION_COOKIE, SESSION_HOURS, Judge, new_pin, pin_matches

DEVICE_DAYS = 400


async def login(request: Request) -> Response:
    if request.method == "POST":
        return await _login_post(request)
    return web(request).page(request, "login.html", next=next_path(request.query_params.get("next")), error=None, name="")


async def _login_post(request: Request) -> Response:
    from starlette.concurrency import run_in_threadpool

    w = web(request)
    form = await request.form(max_fields=10, max_files=0)
    name, pin, nxt = form_text(form, "name", 40), form_text(form, "pin", 20), next_path(form_text(form, "next", 500))
    who = request.client.host if request.client else "?"
    if w.limiter.locked(who):
        return w.page(request, "login.html", 429, {"Retry-After": "60"}, next=nxt, name=name,
                      error="Too many wrong PINs. Wait a minute, then try again.")
    if not name:
        return w.page(request, "login.html", 400, next=nxt, name=name, error="Enter your name.")
    s = w.settings
    role = "head" if pin_matches(pin, s.head_pin) else "judge" if pin_matches(pin, s.pin) else None
    if role is None:
        w.limiter.fail(who)
        return w.page(request, "login.html", 401, next=nxt, name=name, error="That PIN is not right.")
    return await run_in_threadpool(_signed_in, request, w, name, role, nxt, who)


def _signed_in(request: Request, w: Web, name: str, role: str, nxt: str, who: str) -> Response:
    device = request.cookies.get(DEVICE_COOKIE) or ""
    if not (16 <= len(device) <= 64 and device.replace("-", "").replace("_", "").isalnum()):
        device = secrets.token_urlsafe(18)
    before = w.session(request)
    with w.log() as log:
        if before is not None and before.sign_in:  # the same phone signing in again: its older sign-in ends
            signins.end(log, w.settings.event, "signed in again", only=before.sign_in)
        s = signins.sign_in(log, w.settings.event, name, role, w.signer.device(device), who,
                            request.headers.get("user-agent"))
    w.sign_ins_changed()
    judge = Judge(s.judge, role, s.id, w.pin_mark(role))
    response = RedirectResponse(nxt if s.live else f"/login/wait?next={_quote(nxt)}", status_code=303)
    response.set_cookie(SESSION_COOKIE, w.signer.session(judge), max_age=SESSION_HOURS * 3600, httponly=True, samesite="strict")
    response.set_cookie(DEVICE_COOKIE, device, max_age=DEVICE_DAYS * 86400, httponly=True, samesite="strict")
    return response


def _quote(path: str) -> str:
    from urllib.parse import quote

    return quote(path, safe="")


def wait(request: Request) -> Response:
    """A second device under a name: waits here (reloading itself) until the head judge decides."""
    w = web(request)
    nxt = next_path(request.query_params.get("next"))
    j = w.session(request)
    s = w.sign_in(j.sign_in) if j is not None and j.sign_in else None
    if s is None:
        return RedirectResponse(f"/login?next={_quote(nxt)}", status_code=303)
    if s.live and w.judge(request) is not None:
        return RedirectResponse(nxt, status_code=303)
    return w.page(request, "wait.html", s=s, next=nxt, refused=s.ended_at is not None)


async def logout(request: Request) -> Response:
    w = web(request)
    form = await request.form(max_fields=5, max_files=0)
    w.check_csrf(request, form_text(form, "csrf", 200))
    j = w.session(request)
    if j is not None and j.sign_in:
        with w.log() as log:
            signins.end(log, w.settings.event, "signed out", only=j.sign_in)
        w.sign_ins_changed()
    response = RedirectResponse("/", status_code=303)
    response.delete_cookie(SESSION_COOKIE)
    return response


def judges(request: Request) -> Response:
    """The head judge's page of sign-ins: the phones waiting for approval, and who is signed in."""
    w = web(request)
    head = w.require(request, "head")
    with w.log() as log:
        found = signins.listed(log, w.settings.event)
    return w.page(request, "judges.html", waiting=[s for s in found if s.approved_at is None],
                  live=[s for s in found if s.approved_at is not None], me=head.sign_in, pin=w.settings.pin,
                  fresh=request.query_params.get("pin") == "new")


async def judges_post(request: Request) -> Response:
    from starlette.concurrency import run_in_threadpool

    w = web(request)
    head = w.require(request, "head")
    form = await request.form(max_fields=10, max_files=0)
    w.check_csrf(request, form_text(form, "csrf", 200))
    return await run_in_threadpool(_act, w, head, form_text(form, "action", 20), form_text(form, "id", 40))


def _act(w: Web, head: Judge, action: str, sid: str) -> Response:
    by = f"{head.name} (head judge)"
    event = w.settings.event
    after = "/judges"
    with w.log() as log:
        if action == "approve":
            if not signins.approve(log, event, sid, by):
                raise HTTPException(404, "No such sign-in is waiting; it may have been decided already.")
        elif action == "refuse":
            signins.end(log, event, by, only=sid)
        elif action == "end":
            signins.end(log, event, by, only=sid)
        elif action == "everyone":
            signins.end(log, event, by, keep=head.sign_in)
        elif action == "pin":
            pin = new_pin()
            while pin == w.settings.head_pin:
                pin = new_pin()
            w.settings.pin = pin  # every session signed in with the old one is stale from now on
            signins.end(log, event, f"{by}: new judges' PIN", role="judge")
            after = "/judges?pin=new"
        else:
            raise HTTPException(400, "Unknown action.")
    w.sign_ins_changed()
    return RedirectResponse(after, status_code=303)
