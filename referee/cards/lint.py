"""`referee card check`: what a card author must fix (errors) or should look at (warnings).

Errors from reading the file come from `notation`; here the lines are expanded: a line no 14
tiles can make, two lines that share a concrete hand, and wordings a judge could read two ways
("any wind" twice, "any dragon" beside a suit's dragon, "1 or 3 suits") without a note saying
which is meant.
"""
from __future__ import annotations

from operator import itemgetter

from ..errors import Problem
from .expand import RawTarget, raw_targets
from .groups import run_together
from .line import Line
from .notation import Card


_U = itemgetter(4)  # a target's packed U


def lint(card: Card, doc: object) -> tuple[list[Problem], list[Problem], list[list[RawTarget]]]:
    """(errors, warnings, targets per line) for a card read from `doc`."""
    problems, warnings = list(card.problems), list(card.warnings)
    place = doc.place  # type: ignore[attr-defined]
    raw: list[list[RawTarget]] = []
    # Two lines share a hand only if they share its tiles: the targets' packed U (ints, cheap to
    # hash) are compared first, and the groups (tuples of tuples) only from the first line whose
    # tiles another line also makes, which on a printed card is none.
    tiles: dict[int, str] = {}
    owner: dict[tuple[object, ...], str] | None = None  # groups -> the first line making them, once needed
    for line in card.lines:
        found = [] if line.broken else raw_targets(line)
        if not found and not line.broken:
            problems.append(Problem(place((*line.loc, "groups")), f"line {line.id}: no 14 tiles can make this line "
                                    "(it needs more of a tile than the set holds, or more than 8 jokers)"))
        clash = None
        if owner is None:
            us = list(map(_U, found))
            if tiles.keys().isdisjoint(us):  # the usual answer, found without a loop in Python
                tiles.update(dict.fromkeys(us))
            else:
                owner = {}
                for before, targets in zip(card.lines, raw):
                    for target in targets:
                        owner.setdefault(target[0], before.id)
        if owner is not None:
            keys = [target[0] for target in found]
            if owner.keys().isdisjoint(keys):
                owner.update(dict.fromkeys(keys, line.id))
            else:
                clash = next((owner[g] for g in keys if g in owner and owner[g] != line.id), None)
                for groups in keys:
                    owner.setdefault(groups, line.id)
        raw.append(found)
        if clash:
            warnings.append(Problem(place((*line.loc, "groups")), f"warning: line {line.id} and line {clash} "
                                    "can be the very same hand; a judge cannot tell which was meant"))
        for message in _repeated_picks(line):
            warnings.append(Problem(place((*line.loc, "groups")), f"warning: line {line.id}: {message}"))
        for message in _run_together(line):
            warnings.append(Problem(place((*line.loc, "groups")), f"warning: line {line.id}: {message}"))
        if not line.note:
            for message in _ambiguous(line):
                warnings.append(Problem(place((*line.loc, "groups")), f"warning: line {line.id}: {message}; "
                                        "say which in the line's note"))
            if _variable(line):
                from .printed import varies

                warnings.append(Problem(place(line.loc), f"warning: line {line.id} varies ({'; '.join(varies(line))}) "
                                        "but has no note: copy the card's note beside it so a judge reads the line as "
                                        "printed"))
    return problems, warnings, raw


def _repeated_picks(line: Line) -> list[str]:
    """Two bare D (Z) groups may be filled by the same dragon (wind) unless the line says."""
    out: list[str] = []
    if "D" not in line.groups and "Z" not in line.groups:  # most lines: no group of either
        return out
    for kind, word, letter, key in (("anydragon", "dragon", "D", "dragons"), ("anywind", "wind", "Z", "winds")):
        n = max((sum(1 for tok in form if tok[0].atoms[0][0] == kind) for form in line.forms), default=0)
        if n > 1 and key not in line.said:
            out.append(f"{_count(n)} 'any {word}' groups (bare {letter}): as written they may be the same {word}, "
                       f"so one {word} can fill two groups; if the card means different {word}s, say {key}: different "
                       f"(or the note 'Any {n} {word.title()}s'); {key}: any says they may match")
    return out


def _count(n: int) -> str:
    return {2: "two", 3: "three", 4: "four"}.get(n, str(n))


def _run_together(line: Line) -> list[str]:
    return [f"'{b.text}' reads as {len(b.atoms)} singles, which take no joker; if the card prints groups there, "
            "put a space between them (111 DDD, not 111DDD)" for tok in line.tokens for b in tok if run_together(b)]


def _variable(line: Line) -> bool:
    """More than one hand for a reason beyond the colours: a shift, a number variable, a suit
    count, any wind or dragon, or forms."""
    if line.shift != (0,) or line.vars or len(line.forms) > 1 or line.suits != "distinct":
        return True
    return any(a[0] in ("anywind", "anydragon") for tok in line.tokens for b in tok for a in b.atoms)


def _ambiguous(line: Line) -> list[str]:
    out = []
    kinds = [b.atoms[0][0] for tok in line.tokens for b in tok[:1]] if "D" in line.groups else []  # no D, no dragon
    if "anydragon" in kinds and "dragon" in kinds:
        out.append("an 'any dragon' group (bare D) may be the same dragon as a suit's dragon")
    if line.suits == "one-or-distinct":
        out.append("'1 or more suits' lines are often misread")
    return out
