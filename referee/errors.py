"""Every expected failure is a RefereeError; cli.py maps them to exit codes in one place."""
from __future__ import annotations

import os
from typing import NamedTuple

# Value classes here and in the ruling are NamedTuples, not frozen dataclasses: a dataclass
# compiles its methods from source as it is defined, about half a millisecond each, and a ruling
# defined a score of them before it said a word.


class Place(NamedTuple):
    """Where in a file a problem is: 1-based line and column, as editors count them."""

    path: str
    line: int = 0
    col: int = 0

    def __str__(self) -> str:
        path = _shown(self.path)
        return f"{path}:{self.line}:{self.col}" if self.line else path


def _shown(path: str) -> str:
    """A path under the current folder is shown relative to it, as an author typed it."""
    if os.path.isabs(path):
        try:
            rel = os.path.relpath(path)
        except ValueError:  # another drive on Windows
            return path
        if not rel.startswith(".."):
            return rel
    return path


class RefereeError(Exception):
    """An expected error: printed as one line, never a traceback."""

    exit_code = 1

    def __init__(self, message: str, place: Place | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.place = place

    def __str__(self) -> str:
        return f"{self.place}: {self.message}" if self.place else self.message


class UsageError(RefereeError):
    """Bad command-line input: an unknown id, a value not among the choices."""

    exit_code = 2


class MissingAnswer(UsageError):
    """A decision fact has no answer and we may not ask (--no-input)."""

    def __init__(self, fact: str, prompt: str, example: str) -> None:
        super().__init__(
            f"missing answer for '{fact}' ({prompt}); supply it with --answer {fact}={example}"
        )
        self.fact = fact


class LoadError(RefereeError):
    """A ruleset, scenario or answers file that cannot be read or does not fit the format."""

    def __init__(self, problems: list["Problem"], check: str = "referee check") -> None:
        self.problems = problems
        self.check = check  # the command that lists them all
        first = problems[0]
        super().__init__(first.message, first.place)

    def __str__(self) -> str:
        return "\n".join(str(p) for p in self.problems)


class Problem(NamedTuple):
    """One finding of the loader or the lint, with its place."""

    place: Place
    message: str

    def __str__(self) -> str:
        return f"{self.place}: {self.message}"
