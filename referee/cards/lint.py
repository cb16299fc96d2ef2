"""`referee card check`: what a card author must fix (errors) or should look at (warnings).

Errors from reading the file come from `notation`; here the lines are expanded: a line no 14
tiles can make, two lines that share a concrete hand, and wordings a judge could read two ways
("any wind" twice, "any dragon" beside a suit's dragon, "1 or 3 suits") without a note saying
which is meant.
"""
from __future__ import annotations

from ..errors import Problem
from .expand import RawTarget, raw_targets
from .notation import Card, Line


def lint(card: Card, doc: object) -> tuple[list[Problem], list[Problem], list[list[RawTarget]]]:
    """(errors, warnings, targets per line) for a card read from `doc`."""
    problems, warnings = list(card.problems), list(card.warnings)
    place = doc.place  # type: ignore[attr-defined]
    raw: list[list[RawTarget]] = []
    owner: dict[tuple[object, ...], str] = {}
    for line in card.lines:
        found = [] if line.broken else list(raw_targets(line))
        raw.append(found)
        if not found and not line.broken:
            problems.append(Problem(place((*line.loc, "groups")), f"line {line.id}: no 14 tiles can make this line "
                                    "(it needs more of a tile than the set holds, or more than 8 jokers)"))
        clash = next((owner[g] for g, *_ in found if g in owner and owner[g] != line.id), None)
        if clash:
            warnings.append(Problem(place((*line.loc, "groups")), f"warning: line {line.id} and line {clash} "
                                    "can be the very same hand; a judge cannot tell which was meant"))
        for groups, *_ in found:
            owner.setdefault(groups, line.id)
        if not line.note:
            for message in _ambiguous(line):
                warnings.append(Problem(place((*line.loc, "groups")), f"warning: line {line.id}: {message}; "
                                        "say which in the line's note"))
    return problems, warnings, raw


def _ambiguous(line: Line) -> list[str]:
    atoms = [a for tok in line.tokens for b in tok[:1] for a in b.atoms[:1]]
    kinds = [a[0] for a in atoms]
    out = []
    if kinds.count("anywind") > 1:
        out.append("two 'any wind' groups (Z) may be the same wind or different ones")
    if "anydragon" in kinds and "dragon" in kinds:
        out.append("an 'any dragon' group (bare D) may be the same dragon as a suit's dragon")
    if line.suits == "one-or-distinct":
        out.append("'1 or more suits' lines are often misread")
    return out
