"""The state every page shares, hung on the application (`request.app.state.web`): the settings
`referee serve` was started with, the templates, the log, who is asking.

Pages get it from the request through `web(request)`; none imports `app.py`, which alone imports
the pages to route to them (as Datasette hands each view the application object).
"""
from __future__ import annotations

import contextlib
import hashlib
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Callable, Iterator

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from ..errors import RefereeError
from ..rules.loader import Ruleset, load_strict
from ..store.db import StoreError
from .forms import device_label
from .outage import Outage
from .security import SESSION_COOKIE, Judge, PinLimiter, Signer, load_key

HERE = Path(__file__).parent
SIGN_IN_S = 3.0  # how long a page trusts what it read of a sign-in (another server on the log may end it)
STATIC = HERE / "static"


@dataclass
class Settings:
    """What `referee serve` was started with: one event, one ruleset, one log."""

    db: Any  # the log: a file's Path, or a PostgreSQL URL (store.context.db_path gives either)
    ruleset: str  # an id or a folder, as `referee rule -r` takes it
    pin: str  # the judges' PIN
    head_pin: str
    event: str | None = None
    round: str | None = None
    allowed_hosts: list[str] | None = None  # None: any Host header (tests); serve lists its addresses
    judges_only: bool = False  # everything behind sign-in, search and rulings too
    key: bytes | None = None  # the signing key; default: the file beside the log
    stopping: Callable[[], bool] = lambda: False  # true once the server is shutting down: streams end
    urls: tuple[str, ...] = ()  # the addresses serve printed, for the join page
    tz: Any = None  # the venue's time zone (a tzinfo; serve --tz): None is this machine's own
    notify: Callable[[str], None] = lambda line: None  # serve prints the log's outages on its terminal


class Web:
    """The state every endpoint shares; hung on `app.state.web`."""

    def __init__(self, settings: Settings) -> None:
        from ..store.rulings import check

        self.settings = settings
        check(settings.db)  # the log exists (created if need be) and is one, before any page reads it
        self._held = None
        if isinstance(settings.db, Path):  # see store.sqlite.hold: no page pays for the WAL's checkpoint
            from ..store.sqlite import hold

            self._held = hold(settings.db)
        self.signer = Signer(settings.key or load_key(settings.db))
        self.limiter = PinLimiter()
        self.outage = Outage(settings.notify)
        self._versions: dict[str, str] = {}
        self._sign_ins: dict[str, tuple[float, Any]] = {}  # sign-in id -> (when read, SignIn or None)
        self.shared_quiz: Any = None  # the quiz the head judge started for the room (web/quiz.py)

    @cached_property
    def templates(self) -> Any:
        """The pages' templates, made at the first page: jinja2 is a tenth of the server's start,
        and its first answers (the health check, the static files) need none."""
        import jinja2
        from starlette.templating import Jinja2Templates

        env = jinja2.Environment(loader=jinja2.FileSystemLoader(HERE / "templates"), autoescape=True,
                                 undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
        env.globals["static"] = self.static_url
        env.filters["clock"] = self.clock
        env.filters["device"] = device_label
        return Jinja2Templates(env=env)

    def static_url(self, name: str) -> str:
        """A static file's URL with its content hash, so a new version is never served stale."""
        if name not in self._versions:
            self._versions[name] = hashlib.sha256((STATIC / name).read_bytes()).hexdigest()[:10]
        return f"/static/{name}?v={self._versions[name]}"

    def clock(self, iso: str | None) -> str:
        """A time the log keeps (UTC) as the venue's clocks show it: 11:33."""
        from datetime import datetime

        if not iso:
            return ""
        try:
            return datetime.fromisoformat(iso.replace("Z", "+00:00")).astimezone(self.settings.tz).strftime("%H:%M")
        except ValueError:
            return iso

    @contextlib.contextmanager
    def log(self) -> Iterator[Any]:
        """The rulings log, opened for this one use (never created by reading it)."""
        from ..store.rulings import RulingsLog

        # the store lets one thread at a time use an SQLite file (see store/sqlite.py): no lock here
        with self.outage.watch(), RulingsLog.open(self.settings.db, create=False) as log:
            yield log

    def ruleset(self) -> Ruleset:
        return load_strict(self.settings.ruleset)  # memoized by the loader; a broken one raises RefereeError

    def session(self, request: Request) -> Judge | None:
        """The session's judge, signed with this server's key, whatever its sign-in's state."""
        return self.signer.judge(request.cookies.get(SESSION_COOKIE))

    def judge(self, request: Request) -> Judge | None:
        """Who is signed in: a session signed with the PIN in force now, whose sign-in the head
        judge has not ended and, for a second device under a name, has approved."""
        j = self.session(request)
        if j is None or j.mark != self.pin_mark(j.role):
            return None
        s = self.sign_in(j.sign_in)
        return j if s is not None and s.live else None

    def pin_mark(self, role: str) -> str:
        return self.signer.pin_mark(role, self.settings.head_pin if role == "head" else self.settings.pin)

    def sign_in(self, sid: str) -> Any:
        """A sign-in from the log, read again after SIGN_IN_S: every page asks, few change."""
        import time

        from ..store import signins

        now = time.monotonic()
        cached = self._sign_ins.get(sid)
        if cached is not None and now - cached[0] < SIGN_IN_S:
            return cached[1]
        try:
            with self.log() as log:
                found = signins.get(log, sid)
        except StoreError:
            # the log is away (a restart): the last answer stands, else the page is shown signed
            # out; a ruling page must not fail for want of the log
            return cached[1] if cached is not None else None
        if len(self._sign_ins) > 10_000:
            self._sign_ins.clear()
        self._sign_ins[sid] = (now, found)
        return found

    def sign_ins_changed(self) -> None:
        self._sign_ins.clear()

    def require(self, request: Request, role: str = "judge") -> Judge:
        """The one role check every recording, withdrawing and log route calls."""
        j = self.judge(request)
        if j is None or (role == "head" and j.role != "head"):
            what = "the head judge" if role == "head" else "a judge"
            raise HTTPException(403, f"Only {what} may do this. Sign in first.")
        return j

    def check_csrf(self, request: Request, token: str | None) -> None:
        if not self.signer.csrf_ok(request.cookies.get(SESSION_COOKIE), token):
            raise HTTPException(403, "Refused: the form's security token is missing or wrong. Reload the page and try again.")

    def page(self, request: Request, template: str, status: int = 200, headers: dict[str, str] | None = None, /,
             **ctx: Any) -> Response:
        j = self.judge(request)
        cookie = request.cookies.get(SESSION_COOKIE)
        s = self.settings
        try:
            rs = self.ruleset()
            footer = f"{rs.meta.title} · {rs.id} {rs.meta.version} ({rs.hash})"
            house = bool(rs.meta.customs)
        except RefereeError:
            footer = f"ruleset {s.ruleset} (has problems)"
            house = False
        base = {"judge": j, "csrf": self.signer.csrf(cookie) if j and cookie else "", "event": s.event,
                "round": s.round, "footer": footer, "house": house, "theme": request.cookies.get("referee_theme", "")}
        return self.templates.TemplateResponse(request, template, {**base, **ctx}, status_code=status,
                                               headers={"Cache-Control": "no-store", **(headers or {})})


def web(request: Request) -> Web:
    return request.app.state.web  # type: ignore[no-any-return]
