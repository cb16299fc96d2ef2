"""A card line's concrete targets: every way its suits, numbers, winds and dragons can be fixed.

Each target is a multiset of groups (tile, size, jokerable) plus the blocks in printed order for
display. Identical targets from different bindings are kept once; a target the 152 tiles cannot
build (more naturals of a tile than exist, or more than 8 jokers needed) is dropped.
"""
from __future__ import annotations

import itertools
from typing import Any, Iterator

from .notation import Block, Line
from .tiles import COPIES, JOKERS, SUIT_DRAGON, SUITS, WHITE, WINDS, DRAGONS, suited

Group = tuple[int, int, bool]  # tile, size, may hold jokers
# (groups sorted, blocks in printed order as (tiles, jokerable), binding in words)
RawTarget = tuple[tuple[Group, ...], tuple[tuple[tuple[int, ...], bool], ...], str]


def _suit_bindings(line: Line) -> list[dict[str, int]]:
    names = sorted({a[2] for tok in line.tokens for b in tok for a in b.atoms if a[2] is not None})
    distinct = [dict(zip(names, p)) for p in itertools.permutations(range(3), len(names))]
    if line.suits == "distinct":
        return distinct
    if line.suits == "one-or-distinct":
        same = [{n: s for n in names} for s in range(3)] if len(names) > 1 else []
        return same + distinct
    return [dict(zip(names, p)) for p in itertools.product(range(3), repeat=len(names))]


def _var_bindings(line: Line) -> list[dict[str, int]]:
    free = [n for n, d in line.vars.items() if isinstance(d[0], int)]
    deps = [(n, d) for n, d in line.vars.items() if not isinstance(d[0], int)]
    out = []
    for values in itertools.product(*(line.vars[n] for n in free)):
        nu = dict(zip(free, values))
        if line.distinct_vars:
            equal_ok = {frozenset((a, b)) for a, op, b in line.constraints if op == "=="}
            if any(nu[a] == nu[b] and frozenset((a, b)) not in equal_ok for a, b in itertools.combinations(free, 2)):
                continue
        ok = True
        for n, (base, step) in deps:
            v = nu[base] + step
            if not 1 <= v <= 9:
                ok = False
                break
            nu[n] = v
        if ok and all(_holds(nu[a], op, nu[b]) for a, op, b in line.constraints):
            out.append(nu)
    return out


def _holds(x: int, op: str, y: int) -> bool:
    return {"same-parity": x % 2 == y % 2, "<": x < y, "!=": x != y, "==": x == y}[op]


def _choices(block: Block) -> list[int | None]:
    """What one 'any' pick in the block can be: a wind, a dragon, or nothing to pick."""
    kinds = {a[0] for a in block.atoms}
    if "anywind" in kinds:
        return list(WINDS)
    if "anydragon" in kinds:
        return list(DRAGONS)
    return [None]


def _tile(atom: tuple[str, Any, Any], sigma: dict[str, int], k: int, nu: dict[str, int], pick: int | None) -> int:
    kind, value, suit = atom
    if kind == "num":
        return suited(sigma[suit], value + k)
    if kind == "var":
        return suited(sigma[suit], nu[value])
    if kind == "dragon":
        return SUIT_DRAGON[sigma[suit]]
    if kind in ("anywind", "anydragon"):
        assert pick is not None
        return pick
    if kind == "soap":
        return WHITE
    return int(value)


def _describe(sigma: dict[str, int], nu: dict[str, int]) -> str:
    parts = [f"{n} = {SUITS[s]}s" for n, s in sorted(sigma.items())]
    parts += [f"{n} = {v}" for n, v in sorted(nu.items())]
    return ", ".join(parts)


def buildable(groups: tuple[Group, ...]) -> bool:
    lower: dict[int, int] = {}
    upper: dict[int, int] = {}
    for t, size, jok in groups:
        upper[t] = upper.get(t, 0) + size
        if not jok:
            lower[t] = lower.get(t, 0) + size
    if any(n > COPIES[t] for t, n in lower.items()):
        return False
    return sum(n - COPIES[t] for t, n in upper.items() if n > COPIES[t]) <= JOKERS


class _Resolver:
    """One block's tiles and groups for a binding, remembered by the part of the binding it reads
    (a year block reads only its suit; a wind kong reads nothing), so each is built once."""

    def __init__(self, block: Block) -> None:
        self.block = block
        self.reads_suits = any(a[2] is not None for a in block.atoms)
        self.reads_vars = any(a[0] == "var" for a in block.atoms)
        self.shifts = any(a[0] == "num" for a in block.atoms)
        self.memo: dict[tuple[object, ...], tuple[tuple[int, ...], bool, list[Group]]] = {}

    def __call__(self, sigma: dict[str, int], s_key: int, k: int, nu: dict[str, int], n_key: int,
                 pick: int | None) -> tuple[tuple[int, ...], bool, list[Group]]:
        key = (s_key if self.reads_suits else 0, k if self.shifts else 0, n_key if self.reads_vars else 0, pick)
        hit = self.memo.get(key)
        if hit is None:
            b = self.block
            tiles = tuple(_tile(a, sigma, k, nu, pick) for a in b.atoms)
            if b.uniform:
                jok = len(tiles) >= 3 and not b.bang
                hit = (tiles, jok, [(tiles[0], len(tiles), jok)])
            else:
                hit = (tiles, False, [(t, 1, False) for t in tiles])
            self.memo[key] = hit
        return hit


def raw_targets(line: Line) -> Iterator[RawTarget]:
    """Every buildable concrete target of `line`, each multiset of groups once."""
    seen: set[tuple[Group, ...]] = set()
    nus = list(enumerate(_var_bindings(line)))
    sigmas = list(enumerate(_suit_bindings(line)))
    resolvers = {id(b): _Resolver(b) for tok in line.tokens for b in tok}
    for alt in itertools.product(*line.tokens):
        picks = list(itertools.product(*(_choices(b) for b in alt)))
        parts = [resolvers[id(b)] for b in alt]
        for s_key, sigma in sigmas:
            for k in line.shift:
                for n_key, nu in nus:
                    words = None
                    for chosen in picks:
                        blocks = []
                        groups: list[Group] = []
                        for resolve, pick in zip(parts, chosen):
                            tiles, jok, gs = resolve(sigma, s_key, k, nu, n_key, pick)
                            groups += gs
                            blocks.append((tiles, jok))
                        groups.sort()
                        key = tuple(groups)
                        if key in seen:
                            continue
                        seen.add(key)
                        if buildable(key):
                            words = words or _describe(sigma, nu)
                            yield key, tuple(blocks), words
