"""Where text leaves the program: consoles that cannot be hijacked, wrapping, the prompt's stream.

Every string printed passes `SafeConsole.render_str` (in `consoles`), which shows control and bidi
characters as visible escapes; rich emoji codes are off. Markup stays ours: a field that
came from a ruleset, an answer or the command line goes through `safe` (one line, markup
escaped) before it is put inside a markup string.
"""
from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any, Callable

from ..safe import clean, dumps

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text


class LazyConsole:
    """Stands in for a console, made on first use (`make`); every attribute passes through.

    Importing rich costs about as much as the rest of `referee rule --json`, which writes its
    JSON without a console; only what prints text pays for it.
    """

    def __init__(self, make: Callable[[], Console]) -> None:
        object.__setattr__(self, "_make", make)
        object.__setattr__(self, "_console", None)

    def get(self) -> Console:
        if self._console is None:
            object.__setattr__(self, "_console", self._make())
        return self._console

    def __getattr__(self, name: str) -> Any:
        return getattr(self.get(), name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self.get(), name, value)


def real(console: Console | LazyConsole) -> Console:
    """The console itself, for rich calls that need one (`Text.wrap`)."""
    return console.get() if isinstance(console, LazyConsole) else console


def safe(value: Any) -> str:
    """A field from outside the program, ready to sit inside markup: one line, markup escaped."""
    from rich.markup import escape

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


def styled(*parts: str | tuple[str, str]) -> Text:
    """Text from plain parts, each `str` or `(str, style)`; every part is cleaned, none is markup."""
    from rich.text import Text

    text = Text()
    for part in parts:
        value, style = (part, "") if isinstance(part, str) else part
        text.append(clean(value), style=style)
    return text


def wrap(console: Console | LazyConsole, text: str | Text, first: str = "", rest: str | None = None, style: str = "") -> list[Text]:
    """`text` wrapped at word boundaries to the console's width, `first` before line one and
    `rest` (default: as many spaces) before the others, so lists and numbered steps hang."""
    from rich.text import Text

    console = real(console)
    rest = " " * len(first) if rest is None else rest
    body = styled((text, style)) if isinstance(text, str) else text
    room = max(width(console.file) - max(len(first), len(rest)), 12)
    lines = []
    for i, line in enumerate(body.wrap(console, room, overflow="fold")):
        line.rstrip()
        lines.append(Text(first if i == 0 else rest) + line)
    return lines or [Text(first)]


def wrapped(console: Console | LazyConsole, text: str | Text, first: str = "", rest: str | None = None, style: str = "") -> None:
    for line in wrap(console, text, first, rest, style):
        console.print(line, soft_wrap=True)


def print_json(doc: Any) -> None:
    sys.stdout.write(dumps(doc) + "\n")
    sys.stdout.flush()
