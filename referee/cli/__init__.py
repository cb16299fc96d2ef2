"""The command-line skin: parse, call the core, render, map errors to exit codes.

This package is the only place that imports typer. `base` holds what every command shares (the
`app`, the consoles, `guarded`); each command group lives in its own module and registers itself
on `app` when imported, below. Heavy imports (jinja2 and the like) belong inside the commands that
need them, so `referee rule` starts fast. Nothing outside `cli` imports it but `__main__`.
"""
from __future__ import annotations

from .base import EXIT_FINDING, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, app, err, main, out  # noqa: F401 (the face: tests and __main__)

# Command modules register on `app` as they are imported; `referee COMMAND` imports only its own
# (a ruling never loads the log's, the server's or the card's commands). Order here is the order
# in --help; tests/test_startup.py checks that every command is named.
app.modules(__name__, {
    "rule": "rule",
    "search": "browse", "list": "browse", "show": "browse", "rulesets": "browse",
    "check": "author", "test": "author", "schema": "author",
    "diff": "compare", "pay": "compare",
    "card": "card", "hand": "card",
    "handout": "handout",
    "house": "house",
    "log": "log",
    "serve": "serve",
    "quiz": "quiz",
})
