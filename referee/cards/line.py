"""A card line as read: its groups in forms, the settings that say what its letters and numbers
may be, and what it costs to expand.

It has a module of its own because every part of the card speaks of it: `notation` makes it from
a card file, `limits` bounds what it may cost, `printed` says it back in the card's words, and
`expand`, `lint` and `index` work on it. All of them import it; it imports only `groups`, so the
dependency runs one way.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from .groups import Form, Token


@dataclass
class Line:
    id: str
    section: str
    value: int
    concealed: bool
    jokerless_bonus: bool
    groups: str  # as typed; forms joined by ' || '
    forms: list[Form]
    note: str = ""
    display: str = ""
    shift: tuple[int, ...] = (0,)
    vars: dict[str, tuple[int, ...] | tuple[str, int]] = field(default_factory=dict)
    constraints: list[tuple[str, str, str]] = field(default_factory=list)
    suits: str = "distinct"
    distinct_vars: bool = True
    dragons: str = "any"  # bare D groups: any dragon each, or each a different one
    winds: str = "any"
    runs: tuple[str, ...] = ()  # variables bound to the run of the line's printed numbers (X: run)
    said: tuple[str, ...] = ()  # settings written out (or said by the note), not left to their default
    loc: tuple[Any, ...] = ()  # where the line sits in the file, for Document.place
    broken: bool = False  # reading it found a problem: it is not expanded
    cost: int = 0  # the ways it may be made (limits.ways), worked out once as it is read

    @property
    def mark(self) -> str:
        return "C" if self.concealed else "X"

    @property
    def printed(self) -> str:
        """The groups as the card prints them: forms joined by -or-."""
        return self.groups.replace(" || ", " -or- ")

    @property
    def tokens(self) -> list[Token]:
        """The groups of every form, in order."""
        return [tok for form in self.forms for tok in form]

    @cached_property
    def letters(self) -> list[str]:
        """The suit letters the line uses, sorted."""
        return sorted({a[2] for tok in self.tokens for b in tok for a in b.atoms if a[2] is not None})

    @property
    def suit_counts(self) -> tuple[int, ...]:
        """How many different suits the letters may take, in the order they are tried."""
        n = len(self.letters)
        if self.suits[0].isdigit():
            return tuple(int(c) for c in self.suits.split(" or "))
        if self.suits == "distinct" or n < 2:
            return (n,)
        if self.suits == "one-or-distinct":
            return (1, n)
        return tuple(range(1, min(n, 3) + 1))
