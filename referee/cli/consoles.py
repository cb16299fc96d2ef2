"""The rich consoles themselves; imported on first print (see `show.LazyConsole`), never at start-up."""
from __future__ import annotations

import sys
from typing import Any

from rich.console import Console
from rich.text import Text

from ..safe import controls
from .show import is_terminal


class SafeConsole(Console):
    def __init__(self, **kw: Any) -> None:
        kw.setdefault("highlight", False)
        kw.setdefault("soft_wrap", True)  # machine-read lines (check, test) are never wrapped
        super().__init__(emoji=False, **kw)

    def render_str(self, text: str, **kw: Any) -> Text:
        kw["emoji"] = False
        return super().render_str(controls(text), **kw)


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
