"""Who may do what on a venue's network full of players' phones, and the guards on every request.

- Sign-in is a name plus the event PIN (judge) or the head judge's PIN. The session is a
  signed cookie (HttpOnly, SameSite=Strict) naming its sign-in, kept in the log (see
  store/signins.py: a name belongs to the device that first used it); the key lives in a file
  beside the log, so a restart of the server signs nobody out. A session carries a mark of the
  PIN it signed in with: a new PIN ends every older session at once.
- CSRF: a form token derived from the session, an Origin check, and the SameSite cookie.
  Fetch Metadata is not used: browsers do not send `Sec-Fetch-Site` to an http LAN address.
- `Referrer-Policy: same-origin`, never `no-referrer`: with it Chrome sends `Origin: null` on a
  same-origin form, which would fail the Origin check.
- PIN failures are rate limited per address; bodies over 64 KB are refused before they are read.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import secrets
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Awaitable, Callable

MAX_BODY = 64 * 1024
SESSION_COOKIE = "referee_judge"
DEVICE_COOKIE = "referee_device"  # this browser's own random id: the log keeps only a digest of it
SESSION_HOURS = 16
PIN_TRIES = 5  # failures per address per window before a lock-out
PIN_WINDOW = 60.0
ROLES = ("public", "judge", "head")

CSP = ("default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
       "frame-ancestors 'none'; form-action 'self'; base-uri 'none'")
HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
]


def new_pin() -> str:
    return f"{secrets.randbelow(10**6):06d}"


def key_file(db: Any) -> Path:
    """Beside a log file; for a database URL, beside that log's event settings on this machine."""
    from ..store.context import event_file

    beside = db if isinstance(db, Path) else event_file(db)
    return beside.with_name(beside.name + ".serve-key")


def load_key(db: Any) -> bytes:
    """The server's signing key, kept beside the log (created once, readable by its owner only)."""
    path = key_file(db)
    try:
        key = path.read_bytes()
        if len(key) >= 32:
            return key
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_bytes(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(key)
    return key


@dataclass(frozen=True)
class Judge:
    name: str
    role: str  # judge or head
    sign_in: str = ""  # the log's sign-in (store.signins) this session belongs to
    mark: str = ""  # of the PIN it signed in with (Signer.pin_mark)


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Signer:
    def __init__(self, key: bytes) -> None:
        self.key = key

    def _mac(self, purpose: str, text: str) -> str:
        return _b64(hmac.new(self.key, f"{purpose}:{text}".encode(), hashlib.sha256).digest())

    def session(self, judge: Judge) -> str:
        body = _b64(json.dumps({"n": judge.name, "r": judge.role, "t": int(time.time()), "s": judge.sign_in,
                                "p": judge.mark}).encode())
        return f"{body}.{self._mac('session', body)}"

    def pin_mark(self, role: str, pin: str) -> str:
        """Which PIN a session signed in with, without the PIN: a new PIN makes older marks stale."""
        return self._mac("pin", f"{role}:{pin}")[:16]

    def device(self, cookie: str) -> str:
        """What the log keeps of a device's cookie: enough to know the device again, not to be it."""
        return self._mac("device", cookie)[:22]

    def judge(self, cookie: str | None) -> Judge | None:
        if not cookie or "." not in cookie or len(cookie) > 1000:
            return None
        body, mac = cookie.rsplit(".", 1)
        if not hmac.compare_digest(mac, self._mac("session", body)):
            return None
        try:
            data = json.loads(_unb64(body))
            name, role, issued = str(data["n"]), str(data["r"]), int(data["t"])
            sign_in, mark = str(data["s"]), str(data["p"])
        except (ValueError, KeyError, TypeError):
            return None
        if role not in ROLES[1:] or time.time() - issued > SESSION_HOURS * 3600:
            return None
        return Judge(name, role, sign_in, mark)

    def csrf(self, cookie: str) -> str:
        return self._mac("csrf", cookie)

    def csrf_ok(self, cookie: str | None, token: str | None) -> bool:
        return bool(cookie and token) and hmac.compare_digest(str(token), self.csrf(str(cookie)))


class PinLimiter:
    """At most PIN_TRIES wrong PINs per address per minute; then a lock-out until the window passes."""

    def __init__(self, tries: int = PIN_TRIES, window: float = PIN_WINDOW) -> None:
        self.tries, self.window = tries, window
        self.failures: dict[str, deque[float]] = {}

    def _recent(self, who: str) -> deque[float]:
        q = self.failures.setdefault(who, deque())
        now = time.monotonic()
        while q and now - q[0] > self.window:
            q.popleft()
        if len(self.failures) > 10_000:  # a flood of addresses cannot grow this without bound
            self.failures = {k: v for k, v in self.failures.items() if v}
        return q

    def locked(self, who: str) -> bool:
        return len(self._recent(who)) >= self.tries

    def fail(self, who: str) -> None:
        self._recent(who).append(time.monotonic())


def pin_matches(given: str, pin: str) -> bool:
    return hmac.compare_digest(given.strip().encode(), pin.encode())


def origin_ok(headers: dict[str, str]) -> bool:
    """A present Origin must be this host; an absent one (or 'null') leaves it to the form token."""
    origin = headers.get("origin")
    if not origin or origin == "null":
        return True
    host = headers.get("host", "")
    return origin.split("://", 1)[-1].rstrip("/").lower() == host.lower()


Scope = dict[str, Any]
ASGI = Callable[[Scope, Callable[..., Awaitable[Any]], Callable[..., Awaitable[Any]]], Awaitable[None]]


class Guard:
    """Pure ASGI (so the log's event stream is not buffered): security headers on every response,
    oversized or unsized POST bodies refused, cross-origin POSTs refused."""

    def __init__(self, app: ASGI, max_body: int = MAX_BODY) -> None:
        self.app, self.max_body = app, max_body

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        if scope["method"] not in ("GET", "HEAD"):
            length = headers.get("content-length", "")
            if not origin_ok(headers):
                await _plain(send, 403, "Refused: this form was sent from another site.")
                return
            if not length.isdigit():
                await _plain(send, 411 if "transfer-encoding" in headers else 400, "Refused: a form must say its length.")
                return
            if int(length) > self.max_body:
                await _plain(send, 413, f"Refused: the form is larger than {self.max_body // 1024} KB.")
                return

        async def send_with_headers(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + HEADERS
            await send(message)

        await self.app(scope, receive, send_with_headers)


async def _plain(send: Any, status: int, text: str) -> None:
    body = text.encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode())] + HEADERS})
    await send({"type": "http.response.body", "body": body})
