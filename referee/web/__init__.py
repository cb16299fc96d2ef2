"""`referee serve`: the judges' web pages, served from the head table's laptop over the venue's
own network, so every floor judge rules, records and looks up from her phone's browser.

Called only by the `serve` command (`referee/cli/serve.py`), which imports this package (and
with it Starlette and uvicorn, the optional `web` extra) inside the command: no other command
pays for them at start-up.

The pages hold no rules logic. They walk the same engine as `referee rule` (`walk`), show the
outcome through the same core renderer, and record through the same store call into the same
log, with the same event settings; a ruling recorded from a phone is stored exactly as the
command line stores it. Modules: `app` (the routes and the error pages; the only module that
imports the pages), `state` (what every page shares, read from `request.app.state`: settings,
templates, roles, the log), `forms` (what a page reads from a request), `walk` (a
query string to the next question or the outcome; pure), `judge` (search, questions, ruling,
record), `auth` (sign-in, a second phone waiting for the head judge, the Judges page), `head`
(the live log, withdraw, exports, handouts), `pay` (settle a Mah Jongg), `quiz`
(the judges' quiz and the head judge's shared quiz), `security` (PINs,
cookies, CSRF, headers, size limits), `conn` (uvicorn's HTTP protocol with a deadline per request
and a cap per address: imported by `serve` only).
"""
from __future__ import annotations

from .app import create_app
from .state import Settings

__all__ = ["Settings", "create_app"]
