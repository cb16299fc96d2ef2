"""The Starlette application: the routes to every page, and the error pages.

The only module that imports the pages; each page takes the shared state (`state.Web`) from the
request, never from here.

Page endpoints are plain `def` (Starlette runs them in its thread pool): the engine and the
SQLite log are synchronous. Only the log's event stream is async.
"""
from __future__ import annotations

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..errors import RefereeError
from .outage import NOT_REACHED, RETRY_AFTER_S
from .security import Guard
from .state import STATIC, Settings, Web, web


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    titles = {400: "Not understood", 403: "Not allowed", 404: "Not found", 405: "Not allowed", 429: "Too many tries",
              503: "Try again in a moment"}
    return web(request).page(request, "error.html", exc.status_code, exc.headers,
                             title=titles.get(exc.status_code, "Error"), message=exc.detail)


async def _referee_error(request: Request, exc: Exception) -> Response:
    """A ruleset that does not load, an unusable log: one clear line, never a traceback."""
    from ..store.backend import Unreachable

    assert isinstance(exc, RefereeError)
    if isinstance(exc, Unreachable):  # passes: a retry, never an error a judge must act on
        return web(request).page(request, "error.html", 503, {"Retry-After": str(RETRY_AFTER_S)},
                                 title="Try again in a moment", message=NOT_REACHED)
    message = str(exc)
    problems = getattr(exc, "problems", None)
    if problems:
        message = str(problems[0]) + (f" (and {len(problems) - 1} more; run 'referee check')" if len(problems) > 1 else "")
    return web(request).page(request, "error.html", 500, None, title="The server cannot answer this", message=message)


def create_app(settings: Settings) -> Starlette:
    from . import auth, head, judge, pay, quiz

    routes = [
        Route("/", judge.home),
        Route("/s/{sid}", judge.situation),
        Route("/rulings", judge.record, methods=["POST"]),
        Route("/rulings/{rid}", judge.recorded),
        Route("/rulings/{rid}/withdraw", head.withdraw, methods=["POST"]),
        Route("/login", auth.login, methods=["GET", "POST"]),
        Route("/login/wait", auth.wait),
        Route("/logout", auth.logout, methods=["POST"]),
        Route("/judges", auth.judges),
        Route("/judges", auth.judges_post, methods=["POST"]),
        Route("/theme", judge.theme, methods=["POST"]),
        Route("/csrf", judge.csrf),
        Route("/pay", pay.page),
        Route("/log", head.log),
        Route("/log/stream", head.stream),
        Route("/log/export", head.export),
        Route("/handouts/{sheet}", head.handout),
        Route("/quiz", quiz.start),
        Route("/quiz/story", quiz.story),
        Route("/quiz/answer", quiz.answer, methods=["POST"]),
        Route("/quiz/score", quiz.score),
        Route("/quiz/shared", quiz.share, methods=["POST"]),
        Route("/quiz/board", quiz.board),
        Route("/health", judge.health),
        Route("/join", judge.join),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    middleware = [Middleware(Guard)]
    if settings.allowed_hosts is not None:
        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=settings.allowed_hosts))
    app = Starlette(routes=routes, middleware=middleware,
                    exception_handlers={HTTPException: _http_error, RefereeError: _referee_error})
    app.state.web = Web(settings)
    return app
