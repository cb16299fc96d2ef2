"""Does a ruling's text say that a hand is dead, and whose?

The judge reads `says` aloud and the table acts on the `Dead hands:` line, so the two must
agree. This is a reading of plain English, kept deliberately narrow: it looks for a verb
that states a death ("is dead", "have dead hands", "died"), and skips clauses that deny it
("is not dead", "nobody is dead") or speak of a tile ("the discard is now dead").
"""
from __future__ import annotations

import re
from dataclasses import dataclass

_CLAUSE = re.compile(r"[.;:!?](?:\s+|$)|[()]")
_STATES = re.compile(
    r"\b(?:is|are|was|were|be|been|becomes?|became)(?:\s+(?:now|already|also|then))?\s+dead\b"
    r"|\bha(?:s|ve|d)\s+(?:a\s+)?dead\s+hands?\b"
    r"|\b(?:hands?|she|it)\s+(?:had\s+|has\s+)?died\b",
    re.I,
)
# a denial shortly before the verb: "is not dead", "nobody's hand is dead", "no hand is dead"
_DENIED = re.compile(r"\b(?:not|nobody|nobody's|no|neither|never|none)\b(?:\s+[\w'{}]+){0,3}\s+(?:dead|died)\b", re.I)
_TILE = re.compile(r"\b(?:tiles?|discards?|jokers?|wall)\b", re.I)
_HAND = re.compile(r"\bhands?\b", re.I)
_PLACEHOLDER = re.compile(r"\{([a-z][a-z0-9_]*)\}")


@dataclass(frozen=True)
class DeadClaim:
    clause: str
    names: tuple[str, ...]  # the {placeholders} before the verb: the seats said to be dead


def dead_claims(text: str) -> list[DeadClaim]:
    """The clauses of `text` that state a hand is dead, each with the placeholders it names."""
    out = []
    for clause in _CLAUSE.split(" ".join(text.split())):
        verb = _STATES.search(clause)
        if verb is None or _DENIED.search(clause):
            continue
        if _TILE.search(clause) and not _HAND.search(clause):
            continue  # "the discard is now dead": a tile, not a hand
        # "{picker} is dead and pays {winner}": only the subject died
        out.append(DeadClaim(clause.strip(), tuple(_PLACEHOLDER.findall(clause[: verb.start()]))))
    return out


def says_dead(text: str) -> bool:
    return bool(dead_claims(text))
