"""A slow, plain oracle for the card, written apart from referee.cards' fast matcher.

It shares only the card file's parser (notation.read_card). Lines are expanded by brute force
(every suit map, every shift, every value of every variable, filtered afterwards), exposures
are placed by backtracking, and tiles are dealt into groups by backtracking: no box test, no
packed counts, no index.
"""
from __future__ import annotations

import itertools

from referee.cards.line import Line

COPIES = [4] * 34 + [8]
WINDS = (30, 31, 32, 33)
DRAGONS = (27, 28, 29)


def _suit_maps(line: Line) -> list[dict[str, int]]:
    letters = line.letters
    out = []
    for combo in itertools.product(range(3), repeat=len(letters)):
        distinct = len(set(combo)) == len(combo)
        same = len(set(combo)) <= 1
        if line.suits == "distinct" and not distinct:
            continue
        if line.suits == "one-or-distinct" and not (distinct or same):
            continue
        if line.suits[0].isdigit() and str(len(set(combo))) not in line.suits.split(" or "):
            continue
        out.append(dict(zip(letters, combo)))
    return out


def _var_maps(line: Line) -> list[dict[str, int]]:
    names = sorted(line.vars)
    out = []
    for combo in itertools.product(range(1, 10), repeat=len(names)):
        nu = dict(zip(names, combo))
        ok = True
        for n, dom in line.vars.items():
            if isinstance(dom[0], str):  # ("X", +1)
                ok &= nu[n] == nu[dom[0]] + dom[1]
            else:
                ok &= nu[n] in dom
        free = [n for n in names if not isinstance(line.vars[n][0], str)]
        if line.distinct_vars:
            for a, b in itertools.combinations(free, 2):
                allowed = any({x, y} == {a, b} and op == "==" for x, op, y in line.constraints)
                ok &= nu[a] != nu[b] or allowed
        for a, op, b in line.constraints:
            ok &= {"same-parity": nu[a] % 2 == nu[b] % 2, "<": nu[a] < nu[b], "!=": nu[a] != nu[b], "==": nu[a] == nu[b]}[op]
        if ok:
            out.append(nu)
    return out


def _digits(line: Line) -> list[int]:
    return [a[1] for tok in line.tokens for b in tok for a in b.atoms if a[0] == "num"]


_TARGETS: dict[tuple[str, str], tuple[tuple[tuple[int, int, bool], ...], ...]] = {}


def targets(line: Line) -> tuple[tuple[tuple[int, int, bool], ...], ...]:
    """Every concrete target of the line as sorted groups (tile, size, jokerable)."""
    key = (line.id, line.groups)
    if key not in _TARGETS:
        _TARGETS[key] = _expand(line)
    return _TARGETS[key]


def _expand(line: Line) -> tuple[tuple[tuple[int, int, bool], ...], ...]:
    found = set()
    digits = _digits(line)
    for alt in (alt for form in line.forms for alt in itertools.product(*form)):
        for sigma in _suit_maps(line):
            for k in range(-8, 9):
                if k not in line.shift or any(not 1 <= d + k <= 9 for d in digits):
                    continue
                for nu in _var_maps(line):
                    if any(not min(digits) + k <= nu[n] <= max(digits) + k for n in line.runs):
                        continue
                    picks = [WINDS if any(a[0] == "anywind" for a in b.atoms) else
                             DRAGONS if any(a[0] == "anydragon" for a in b.atoms) else (None,) for b in alt]
                    for chosen in itertools.product(*picks):
                        if not _apart(line, alt, chosen):
                            continue
                        groups = []
                        for b, pick in zip(alt, chosen):
                            tiles = []
                            for kind, value, suit in b.atoms:
                                if kind == "num":
                                    tiles.append(sigma[suit] * 9 + value + k - 1)
                                elif kind == "var":
                                    tiles.append(sigma[suit] * 9 + nu[value] - 1)
                                elif kind == "dragon":
                                    tiles.append(DRAGONS[sigma[suit]])
                                elif kind == "soap":
                                    tiles.append(29)
                                elif kind in ("anywind", "anydragon"):
                                    tiles.append(pick)
                                else:
                                    tiles.append(value)
                            if len(set(b.atoms)) == 1:
                                groups.append((tiles[0], len(tiles), len(tiles) >= 3 and not b.bang))
                            else:
                                groups += [(t, 1, False) for t in tiles]
                        found.add(tuple(sorted(groups)))
    return tuple(sorted(found))


def _apart(line: Line, alt: tuple, chosen: tuple) -> bool:
    """Bare D (Z) groups each a different dragon (wind) when the line says so."""
    for kind, how in (("anydragon", line.dragons), ("anywind", line.winds)):
        picked = [c for b, c in zip(alt, chosen) if any(a[0] == kind for a in b.atoms)]
        if how == "different" and len(set(picked)) < len(picked):
            return False
    return True


def _place_exposures(groups: list[tuple[int, int, bool]], exposures: list[tuple[int, int, int]]):
    """Every way to give each exposure its own group; yields the groups left."""
    if not exposures:
        yield groups
        return
    (t, size, jokers), rest = exposures[0], exposures[1:]
    tried = set()
    for i, g in enumerate(groups):
        if g[0] == t and g[1] == size and (g[2] or not jokers) and g not in tried:
            tried.add(g)
            yield from _place_exposures(groups[:i] + groups[i + 1:], rest)


def _deal(groups: list[tuple[int, int, bool]], naturals: dict[int, int], jokers: int) -> bool:
    """Can exactly these naturals and jokers fill these groups?"""
    if not groups:
        return jokers == 0 and not any(naturals.values())
    (t, size, jok), rest = groups[0], groups[1:]
    for k in ([size] if not jok else range(size, -1, -1)):
        if naturals.get(t, 0) >= k and jokers >= size - k:
            naturals[t] = naturals.get(t, 0) - k
            ok = _deal(rest, naturals, jokers - (size - k))
            naturals[t] += k
            if ok:
                return True
    return False


def makes(line: Line, concealed: list[int], jokers: int, exposures: list[tuple[int, int, int]]) -> bool:
    """Whether the hand (concealed naturals as a count list, concealed jokers, exposures) makes the line."""
    if exposures and line.concealed:
        return False
    naturals = {t: n for t, n in enumerate(concealed) if n}
    for groups in targets(line):
        for left in _place_exposures(list(groups), list(exposures)):
            if _deal(left, dict(naturals), jokers):
                return True
    return False


def _gather(groups: list[tuple[int, int, bool]], unseen: list[int], jokers: int) -> bool:
    """Could these groups still be gathered from the unseen tiles and the jokers still to be had?"""
    if not groups:
        return True
    (t, size, jok), rest = groups[0], groups[1:]
    for k in ([size] if not jok else range(size, -1, -1)):
        if unseen[t] >= k and jokers >= size - k:
            unseen[t] -= k
            ok = _gather(rest, unseen, jokers - (size - k))
            unseen[t] += k
            if ok:
                return True
    return False


def still_possible(line: Line, exposures: list[tuple[int, int, int]], unseen: list[int], jokers: int) -> bool:
    if exposures and line.concealed:
        return False
    for groups in targets(line):
        for left in _place_exposures(list(groups), list(exposures)):
            if _gather(left, list(unseen), jokers):
                return True
    return False
