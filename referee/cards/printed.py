"""The card's own words: the notes printed beside a line that are settings, and what makes a line
vary, said back the way the card says it.

A note typed as printed ("Any 3 Consec. Nos.", "Like Kongs 3, 6 or 9", "Any 1 Suit", "These Nos.
Only", "Any 3 Dragons") sets what the line's numbers, suits or dragons may be, so a card goes in
as it reads; a setting written out beside it must agree. `varies` is the other direction: what
`card show` prints under a line so a judge reads it as the organizer meant it.
"""
from __future__ import annotations

import re
from typing import Any

from .line import Line

_NOS = r"(?:nos?\.?|numbers?)"
# (pattern, what it sets, a word any match holds: an ASCII note without it is not searched)
_PHRASES: list[tuple[re.Pattern[str], str, str]] = [
    (re.compile(rf"\bany\s+(\d)\s+consec(?:utive|\.)?\s*{_NOS}", re.I), "consecutive", "consec"),
    (re.compile(rf"\bany\s+like\s+{_NOS}", re.I), "like-any", "like"),
    (re.compile(r"\blike\s+(?:pungs?|kongs?|pairs?|quints?|sextets?|nos?\.?|numbers?)?\s*"
                r"([1-9](?:\s*(?:,|,?\s+or)\s*[1-9])+)\b", re.I), "like", "like"),
    (re.compile(r"\bany\s+([123])(?:\s*(?:or|,)\s*([123]))?(?:\s*(?:or|,)\s*([123]))?\s+suits?\b", re.I), "suits",
     "suit"),
    (re.compile(rf"\bthese\s+{_NOS}\s+only\b", re.I), "only", "only"),
    (re.compile(r"\bany\s+([234])\s+dragons\b", re.I), "dragons", "dragons"),
    (re.compile(r"\bany\s+([234])\s+winds\b", re.I), "winds", "winds"),
]


def note_settings(note: str, digits: list[int]) -> tuple[dict[str, Any], list[str]]:
    """({setting: value}, problems) that the printed note says, for a line whose printed numbers
    are `digits` (shift: any, [0, 3, 6]; suits: '1 or 3'; dragons: different)."""
    found: dict[str, Any] = {}
    problems: list[str] = []
    # Outside ASCII, re.I matches more than lower() finds (the long s is an s, the Kelvin sign a k)
    lower = note.lower() if note.isascii() else None
    for pattern, kind, word in _PHRASES:
        if lower is not None and word not in lower:
            continue
        m = pattern.search(note)
        if not m:
            continue
        phrase = m.group(0).strip()
        if kind == "consecutive":
            run = len(set(digits))
            if digits and run != int(m.group(1)):
                problems.append(f"the note '{phrase}' asks for {m.group(1)} consecutive numbers, but the line prints "
                                f"{run} different number{'s' if run != 1 else ''}")
            found["shift"] = ("any", phrase)
        elif kind == "like-any":
            found["shift"] = ("any", phrase)
        elif kind == "like":
            wanted = sorted({int(n) for n in re.findall(r"[1-9]", m.group(1))})
            if len(set(digits)) != 1:
                problems.append(f"the note '{phrase}' fits a line whose printed numbers are all one number "
                                "(3333 3333 3333, read as 3s, 6s or 9s)")
                continue
            found["shift"] = ([n - digits[0] for n in wanted], phrase)
        elif kind == "suits":
            counts = sorted({int(g) for g in m.groups() if g})
            found["suits"] = (" or ".join(map(str, counts)), phrase)
        elif kind == "only":
            found["shift"] = ([0], phrase)
        else:
            found[kind] = ("different", phrase)
    return found, problems


def varies(line: Line) -> list[str]:
    """What makes the line stand for more than one hand, in the card's words."""
    out: list[str] = []
    digits = sorted({a[1] for tok in line.tokens for b in tok for a in b.atoms if a[0] == "num"})
    if len(line.forms) > 1:
        out.append(f"{len(line.forms)} forms (-or-)")
    if line.shift != (0,):
        steps = list(line.shift)
        if len(digits) > 1 and steps == list(range(steps[0], steps[-1] + 1)):
            out.append("any consecutive run")
        elif len(digits) == 1:
            values = ", ".join(str(digits[0] + k) for k in steps)
            out.append("any number" if len(steps) == 9 else f"the {digits[0]}s may be {_or(values)}")
        else:
            out.append("numbers moved together by " + _or(", ".join(f"{k:+d}" for k in steps)))
    for name, dom in line.vars.items():
        if name in line.runs:
            out.append(f"{name} any number of the run")
        elif isinstance(dom[0], str):
            base, step = dom
            out.append(f"{name} = {base}{step:+d}")
        elif tuple(dom) == tuple(range(1, 10)):
            out.append(f"{name} any number")
        elif tuple(dom) == (1, 3, 5, 7, 9):
            out.append(f"{name} any odd number")
        elif tuple(dom) == (2, 4, 6, 8):
            out.append(f"{name} any even number")
        else:
            out.append(f"{name} one of {_or(', '.join(map(str, dom)))}")
    for a, op, b in line.constraints:
        out.append({"same-parity": f"{a} and {b} both odd or both even", "<": f"{a} below {b}",
                    "!=": f"{a} not {b}", "==": f"{a} the same as {b}"}[op])
    if len([n for n in line.vars if not isinstance(line.vars[n][0], str)]) > 1 and line.distinct_vars:
        out.append("different numbers for different letters")
    n = len(line.letters)
    if n:
        counts = line.suit_counts
        words = " or ".join(map(str, counts))
        out.append(f"any {words} suit{'s' if counts != (1,) else ''}")
    for kind, word, setting in (("anydragon", "dragon", line.dragons), ("anywind", "wind", line.winds)):
        groups = sum(1 for tok in line.tokens if any(a[0] == kind for a in tok[0].atoms))
        if groups == 1:
            out.append(f"any {word}")
        elif groups > 1:
            out.append(f"any {word}s, {'each a different one' if setting == 'different' else 'the same one or different ones'}")
    return out


def _or(listed: str) -> str:
    """'3, 6, 9' -> '3, 6 or 9'."""
    head, _, last = listed.rpartition(", ")
    return f"{head} or {last}" if head else last


def example(found: list[Any]) -> tuple[str, int, str]:
    """One hand a line makes, as a judge would type it, for reading the card back against the
    printed one: (tiles, jokers it needs, reading). The first target the set can make without
    jokers, else the one needing fewest (a quint of a number needs one)."""
    from .tiles import COPIES, block_text

    best: tuple[int, str, str] | None = None
    for _, blocks, words, _, _ in found:
        supply = list(COPIES)
        for tiles, jok in blocks:  # places that must be natural take their tiles first
            if not jok:
                for t in tiles:
                    supply[t] -= 1
        parts, jokers = [], 0
        for tiles, jok in blocks:
            if jok:
                t, size = tiles[0], len(tiles)
                naturals = max(0, min(size, supply[t]))
                supply[t] -= naturals
                jokers += size - naturals
                parts.append(_with_jokers(block_text(tiles[:naturals]) if naturals else "", size - naturals))
            else:
                parts.append(block_text(tiles))
        if best is None or jokers < best[0]:
            best = (jokers, " ".join(parts), words)
        if not jokers:
            break
    assert best is not None
    return best[1], best[0], best[2]


def _with_jokers(group: str, jokers: int) -> str:
    """'1111B' + 1 joker -> '1111JB'; 'NNNN' + 1 -> 'NNNNJ'."""
    if not jokers:
        return group
    if group and group[-1] in "BCD" and group[:-1].isdigit():
        return group[:-1] + "J" * jokers + group[-1]
    return group + "J" * jokers
