"""Where text leaves the program: consoles that cannot be hijacked, wrapping, the prompt's stream.

Every string printed passes `SafeConsole.render_str`, which shows control and bidi
characters as visible escapes; rich emoji codes are off. Markup stays ours: a field that
came from a ruleset, an answer or the command line goes through `safe` (one line, markup
escaped) before it is put inside a markup string.
"""
from __future__ import annotations

import os
import sys
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from ..safe import clean, controls, dumps


class SafeConsole(Console):
    def __init__(self, **kw: Any) -> None:
        kw.setdefault("highlight", False)
        kw.setdefault("soft_wrap", True)  # machine-read lines (check, test) are never wrapped
        super().__init__(emoji=False, **kw)

    def render_str(self, text: str, **kw: Any) -> Text:
        kw["emoji"] = False
        return super().render_str(controls(text), **kw)


def safe(value: Any) -> str:
    """A field from outside the program, ready to sit inside markup: one line, markup escaped."""
    return escape(clean(value))


def width(stream: Any = None) -> int:
    """Columns to wrap to: $COLUMNS, else the terminal's width, else 80."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    try:
        return os.get_terminal_size((stream or sys.stdout).fileno()).columns or 80
    except (AttributeError, ValueError, OSError):
        return 80


def is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


class PromptConsole(SafeConsole):
    """Questions go to the terminal: stdout when it is one, else stderr, so a redirected
    stdout (`--json > file`, a pipe) holds only the ruling. Decided at each print, because
    the streams can be swapped after start-up (tests do)."""

    @property
    def file(self) -> Any:
        return sys.stdout if is_terminal(sys.stdout) else sys.stderr

    @file.setter
    def file(self, new_file: Any) -> None:  # rich sets it; the choice above always wins
        pass


def styled(*parts: str | tuple[str, str]) -> Text:
    """Text from plain parts, each `str` or `(str, style)`; every part is cleaned, none is markup."""
    text = Text()
    for part in parts:
        value, style = (part, "") if isinstance(part, str) else part
        text.append(clean(value), style=style)
    return text


def wrap(console: Console, text: str | Text, first: str = "", rest: str | None = None, style: str = "") -> list[Text]:
    """`text` wrapped at word boundaries to the console's width, `first` before line one and
    `rest` (default: as many spaces) before the others, so lists and numbered steps hang."""
    rest = " " * len(first) if rest is None else rest
    body = styled((text, style)) if isinstance(text, str) else text
    room = max(width(console.file) - max(len(first), len(rest)), 12)
    lines = []
    for i, line in enumerate(body.wrap(console, room, overflow="fold")):
        line.rstrip()
        lines.append(Text(first if i == 0 else rest) + line)
    return lines or [Text(first)]


def wrapped(console: Console, text: str | Text, first: str = "", rest: str | None = None, style: str = "") -> None:
    for line in wrap(console, text, first, rest, style):
        console.print(line, soft_wrap=True)


def print_json(doc: Any) -> None:
    sys.stdout.write(dumps(doc) + "\n")
    sys.stdout.flush()
