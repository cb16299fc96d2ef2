"""A card line's concrete targets: every way its suits, numbers, winds and dragons can be fixed.

Each target is a multiset of groups (tile, size, jokerable) plus the blocks in printed order for
display. Identical targets from different bindings are kept once; a target the 152 tiles cannot
build (more naturals of a tile than exist, or more than 8 jokers needed) is dropped.
"""
from __future__ import annotations

import itertools
from typing import Any, Iterator

from .notation import Block, Line
from .packed import BITS, COPIES_PACKED, fits_under, over, total
from .tiles import JOKERS, SUIT_DRAGON, SUITS, WHITE, WINDS, DRAGONS, suited

Group = tuple[int, int, bool]  # tile, size, may hold jokers
# (groups sorted, blocks in printed order as (tiles, jokerable), binding in words, packed L, packed U)
RawTarget = tuple[tuple[Group, ...], tuple[tuple[tuple[int, ...], bool], ...], str, int, int]


def _suit_bindings(line: Line) -> list[dict[str, int]]:
    """Each way to give the line's suit letters suits, fewest different suits first (as the
    counts are tried), letters bound in the order a b c."""
    names = line.letters
    out = []
    for n in line.suit_counts:
        out += [dict(zip(names, p)) for p in itertools.product(range(3), repeat=len(names)) if len(set(p)) == n]
    return out


def _run(line: Line, k: int) -> range:
    """The numbers of the line's run once its printed digits moved by `k`."""
    digits = [a[1] for tok in line.tokens for b in tok for a in b.atoms if a[0] == "num"]
    return range(min(digits) + k, max(digits) + k + 1) if digits else range(0)


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
    L, U = bounds(groups)
    return _buildable(L, U)


def bounds(groups: tuple[Group, ...] | list[Group]) -> tuple[int, int]:
    """Packed (L, U) of a multiset of groups: places that must be natural, and all places."""
    L = U = 0
    for t, size, jok in groups:
        U += size << (BITS * t)
        if not jok:
            L += size << (BITS * t)
    return L, U


def _buildable(L: int, U: int) -> bool:
    """No more naturals of a tile than the set holds, and at most 8 jokers for the rest."""
    if not fits_under(L, COPIES_PACKED):
        return False
    beyond = over(U, COPIES_PACKED)
    return not beyond or total(beyond) <= JOKERS


Resolved = tuple[tuple[tuple[int, ...], bool], list[Group], int, int, "int | None"]  # (tiles, jokerable), groups, L, U, pick


class _Resolver:
    """One block's tiles, groups and packed bounds for a binding, remembered by the part of the
    binding it reads (a year block reads only its suit; a wind kong reads nothing), so each is
    built once. Bindings are passed by their place in the line's lists of them: the part each
    reads is worked out once per line, not once per call (the card's hottest loop)."""

    def __init__(self, block: Block, sigmas: list[dict[str, int]], nus: list[dict[str, int]]) -> None:
        self.block = block
        suits = tuple(sorted({a[2] for a in block.atoms if a[2] is not None}))
        self.vars = tuple(sorted({a[1] for a in block.atoms if a[0] == "var"}))
        self.shifts = any(a[0] == "num" for a in block.atoms)
        self.choices = _choices(block)
        self.uniform = block.uniform
        self.by_sigma = [tuple([sigma[n] for n in suits]) for sigma in sigmas]
        self.by_nu = [tuple([nu[v] for v in self.vars]) for nu in nus] if self.vars else None
        self.memo: dict[tuple[object, ...], list[Resolved]] = {}

    def __call__(self, si: int, sigma: dict[str, int], k: int, ni: int, nu: dict[str, int]) -> list[Resolved]:
        """The block resolved for each of its picks (one unless it is an 'any wind/dragon' group),
        under sigmas[si], shift k and nus[ni]."""
        key = (self.by_sigma[si], k if self.shifts else 0, self.by_nu[ni] if self.by_nu is not None else ())
        hit = self.memo.get(key)
        if hit is None:
            b = self.block
            hit = []
            for pick in self.choices:
                if self.uniform:  # one atom repeated: one tile to work out
                    tiles = (_tile(b.atoms[0], sigma, k, nu, pick),) * len(b.atoms)
                    jok = len(tiles) >= 3 and not b.bang
                    groups = [(tiles[0], len(tiles), jok)]
                else:
                    tiles = tuple([_tile(a, sigma, k, nu, pick) for a in b.atoms])
                    jok, groups = False, [(t, 1, False) for t in tiles]
                L, U = bounds(groups)
                hit.append(((tiles, jok), groups, L, U, pick))
            self.memo[key] = hit
        return hit


def raw_targets(line: Line) -> Iterator[RawTarget]:
    """Every buildable concrete target of `line`, each multiset of groups once, with its packed
    bounds worked out along the way."""
    seen: set[tuple[Group, ...]] = set()
    nus = _var_bindings(line)
    sigmas = _suit_bindings(line)
    nu_words = [_describe({}, nu) for nu in nus]
    sigma_words = [_describe(sigma, {}) for sigma in sigmas]
    resolvers = {id(b): _Resolver(b, sigmas, nus) for tok in line.tokens for b in tok}
    product = itertools.product
    distinct = tuple(kind for kind, how in (("anydragon", line.dragons), ("anywind", line.winds)) if how == "different")
    runs = {k: _run(line, k) for k in line.shift} if line.runs else {}
    for alt in itertools.chain.from_iterable(product(*form) for form in line.forms):
        parts = [resolvers[id(b)] for b in alt]
        # the blocks whose picks must differ: two bare D groups never the same dragon, when said so
        apart = [[i for i, b in enumerate(alt) if b.atoms[0][0] == kind] for kind in distinct]
        apart = [group for group in apart if len(group) > 1]
        for si, (sigma, s_words) in enumerate(zip(sigmas, sigma_words)):
            for k in line.shift:
                fixed = [None if resolve.vars else resolve(si, sigma, k, 0, {}) for resolve in parts]  # the same for every nu
                run = runs.get(k)
                for ni, (nu, n_words) in enumerate(zip(nus, nu_words)):
                    if run is not None and any(nu[n] not in run for n in line.runs):
                        continue
                    options = [done if done is not None else resolve(si, sigma, k, ni, nu)
                               for done, resolve in zip(fixed, parts)]
                    for chosen in product(*options):
                        if apart and any(len({chosen[i][4] for i in group}) < len(group) for group in apart):
                            continue
                        groups: list[Group] = []
                        L = U = 0
                        for _, gs, l, u, _ in chosen:
                            groups += gs
                            L += l
                            U += u
                        groups.sort()
                        key = tuple(groups)
                        if key in seen:
                            continue
                        seen.add(key)
                        if _buildable(L, U):
                            words = f"{s_words}, {n_words}" if s_words and n_words else s_words or n_words
                            yield key, tuple([c[0] for c in chosen]), words, L, U
