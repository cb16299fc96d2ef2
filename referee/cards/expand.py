"""A line's concrete targets: every way its suits, numbers, winds and dragons can be fixed.

Each target is a multiset of groups (tile, size, jokerable) plus the blocks in printed order for
display. Identical targets from different bindings are kept once; a target the 152 tiles cannot
build (more naturals of a tile than exist, or more than 8 jokers needed) is dropped.

The ways are visited alternative by alternative, then suit binding, shift and number binding,
in that order, which is the order targets are numbered in. Most of a way is known before its
innermost loop: a block that reads only the suits is the same under every shift, one that reads
no number variable the same under every number binding. So each block is resolved once per part
of a binding it reads (`_Part`), and the sums a way needs (its multiset key and packed bounds)
are added up level by level, each level adding only the blocks that change there. A cold load
of the card is mostly this loop.
"""
from __future__ import annotations

import itertools
from typing import Any, Iterator

from .groups import Block
from .line import Line
from .packed import BITS, COPIES_PACKED, GUARD, fits_under, over, total
from .tiles import JOKERS, SUIT_DRAGON, SUITS, WHITE, WINDS, DRAGONS, suited

Group = tuple[int, int, bool]  # tile, size, may hold jokers
# (groups sorted, blocks in printed order as (tiles, jokerable), binding in words, packed L, packed U)
RawTarget = tuple[tuple[Group, ...], tuple[tuple[tuple[int, ...], bool], ...], str, int, int]

# Every way to give n suit letters suits (n <= 3: the letters are a, b, c), by how many different
# suits it uses, in the order the letters are bound: worked out once, not once per line.
_SUIT_MAPS = {n: {used: [p for p in itertools.product(range(3), repeat=n) if len(set(p)) == used]
                  for used in range(n + 1)} for n in range(4)}


def _suit_bindings(line: Line) -> list[tuple[int, ...]]:
    """Each way to give the line's suit letters (line.letters, in order) suits, fewest
    different suits first (as the counts are tried), letters bound in the order a b c."""
    maps = _SUIT_MAPS[len(line.letters)]
    out: list[tuple[int, ...]] = []
    for n in line.suit_counts:
        out += maps.get(n, ())
    return out


def _run(line: Line, k: int) -> range:
    """The numbers of the line's run once its printed digits moved by `k`."""
    digits = [a[1] for tok in line.tokens for b in tok for a in b.atoms if a[0] == "num"]
    return range(min(digits) + k, max(digits) + k + 1) if digits else range(0)


def _var_bindings(line: Line) -> list[dict[str, int]]:
    free = [n for n, d in line.vars.items() if isinstance(d[0], int)]
    deps = [(n, d) for n, d in line.vars.items() if not isinstance(d[0], int)]
    out = []
    equal_ok = {frozenset((a, b)) for a, op, b in line.constraints if op == "=="}
    for values in itertools.product(*(line.vars[n] for n in free)):
        nu = dict(zip(free, values))
        if line.distinct_vars:
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


# _choices of a block of one atom repeated, by the atom's kind: its picks without a set per block
_UNIFORM_CHOICES: dict[str, list[int | None]] = {"anywind": list(WINDS), "anydragon": list(DRAGONS)}
_NO_PICK: list[int | None] = [None]


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


# One block resolved: (tiles, jokerable) as printed, its groups, its part of the way's multiset
# key, packed L and U, and the wind or dragon picked (None when the block picks none).
Resolved = tuple[tuple[tuple[int, ...], bool], list[Group], int, int, int, "int | None"]


class _Bindings:
    """A line's suit bindings, shifts and number bindings, the part of them a block reads, and
    the groups its blocks resolve to, each made once per line.

    Every group gets a field of its own in the line's multiset key, `width` bits a field (wide
    enough for every tile of a form to be a group of its own): the sum of a way's blocks is its
    multiset of groups as one int, so a target met again under another binding is known without
    sorting its groups."""

    def __init__(self, line: Line) -> None:
        self.letters = line.letters
        self.sigmas = _suit_bindings(line)
        self.shift = line.shift
        self.nus = _var_bindings(line)
        self.width = max(sum(max(len(b.atoms) for b in tok) for tok in form) for form in line.forms).bit_length()
        self._fields: dict[Group, int] = {}
        self._groups: dict[tuple[int, int, bool, int | None], Resolved] = {}
        self._sigma_parts: dict[tuple[str, ...], list[tuple[int, ...]]] = {}
        self._nu_parts: dict[tuple[str, ...], list[tuple[int, ...]]] = {}

    def sigma_part(self, names: tuple[str, ...]) -> list[tuple[int, ...]]:
        """The suits of `names` under each suit binding."""
        hit = self._sigma_parts.get(names)
        if hit is None:
            at = [self.letters.index(n) for n in names]
            if len(at) == 1:  # the usual block, of one suit letter: one comprehension, not one a binding
                i = at[0]
                hit = [(sigma[i],) for sigma in self.sigmas]
            else:
                hit = [tuple([sigma[i] for i in at]) for sigma in self.sigmas]
            self._sigma_parts[names] = hit
        return hit

    def nu_part(self, names: tuple[str, ...]) -> list[tuple[int, ...]]:
        """The numbers of `names` under each number binding."""
        hit = self._nu_parts.get(names)
        if hit is None:
            hit = self._nu_parts[names] = [tuple([nu[n] for n in names]) for nu in self.nus]
        return hit

    def group(self, t: int, size: int, jok: bool, pick: int | None) -> Resolved:
        """A block of `size` tiles `t`: one group."""
        key = (t, size, jok, pick)
        hit = self._groups.get(key)
        if hit is None:
            g = (t, size, jok)
            U = size << (BITS * t)
            hit = self._groups[key] = (((t,) * size, jok), [g], self._key([g]), 0 if jok else U, U, pick)
        return hit

    def singles(self, tiles: tuple[int, ...], pick: int | None) -> Resolved:
        """A block of singles shown together (2033a, NEWS)."""
        groups = [(t, 1, False) for t in tiles]
        L, U = bounds(groups)
        return (tiles, False), groups, self._key(groups), L, U, pick

    def _key(self, groups: list[Group]) -> int:
        key = 0
        for g in groups:
            key += 1 << (self.width * self._fields.setdefault(g, len(self._fields)))
        return key


class _Part:
    """One block of a line under every binding: `table[suit binding][shift][number binding]` is
    the block resolved for each of its picks (one unless it is an 'any wind/dragon' group).

    `level` says the innermost of the three the block reads (0 suits only, 1 the shift, 2 a
    number variable). A resolution is made once for the part of a binding the block reads, and
    the cells (and rows) that read the same share it."""

    __slots__ = ("table", "level", "picks")

    def __init__(self, block: Block, line: _Bindings) -> None:
        uniform = block.uniform
        suit_set, name_set, shifts = set(), set(), False
        for kind, value, suit in block.atoms[:1] if uniform else block.atoms:
            if suit is not None:
                suit_set.add(suit)
            if kind == "var":
                name_set.add(value)
            elif kind == "num":
                shifts = True
        suits, names = tuple(sorted(suit_set)), tuple(sorted(name_set))
        choices = _UNIFORM_CHOICES.get(block.atoms[0][0], _NO_PICK) if uniform else _choices(block)
        self.level = 2 if names else 1 if shifts else 0
        self.picks = len(choices) > 1
        shift, n_nus = line.shift, len(line.nus)
        group = line.group

        if uniform:  # one atom repeated: one group, from one tile
            atom, size = block.atoms[0], len(block.atoms)
            jok = size >= 3 and not block.bang

            def resolved(sigma: dict[str, int], k: int, nu: dict[str, int]) -> list[Resolved]:
                return [group(_tile(atom, sigma, k, nu, pick), size, jok, pick) for pick in choices]
        else:  # singles shown together
            def resolved(sigma: dict[str, int], k: int, nu: dict[str, int]) -> list[Resolved]:
                return [line.singles(tuple([_tile(a, sigma, k, nu, pick) for a in block.atoms]), pick)
                        for pick in choices]

        rows: dict[tuple[int, ...], list[list[list[Resolved]]]] = {}
        values = line.sigma_part(suits)
        for v in values:
            if v in rows:
                continue
            if names:  # a cell for each number binding, shared by those that agree on its variables
                sigma = dict(zip(suits, v))
                memo: dict[tuple[object, ...], list[Resolved]] = {}
                row = []
                nvs = line.nu_part(names)
                for k in shift:
                    cells = []
                    for nv in nvs:
                        key = (k if shifts else 0, nv)
                        hit = memo.get(key)
                        if hit is None:
                            hit = memo[key] = resolved(sigma, k, dict(zip(names, nv)))
                        cells.append(hit)
                    row.append(cells)
            elif shifts and uniform:  # a number group: its tile moves with the shift (the card's most common block)
                at = suited(v[0], atom[1])
                row = [[[group(at + k, size, jok, None)]] * n_nus for k in shift]
            elif shifts:  # the same for every number binding
                sigma = dict(zip(suits, v))
                row = [[resolved(sigma, k, {})] * n_nus for k in shift]
            else:  # the same for every shift too
                row = [[resolved(dict(zip(suits, v)), 0, {})] * n_nus] * len(shift)
            rows[v] = row
        self.table = [rows[v] for v in values]


_ROOM = COPIES_PACKED | GUARD  # fits_under(L, COPIES_PACKED) is (_ROOM - L) & GUARD == GUARD


def raw_targets(line: Line) -> Iterator[RawTarget]:
    """Every buildable concrete target of `line`, each multiset of groups once, with its packed
    bounds worked out along the way."""
    bindings = _Bindings(line)
    sigmas, nus = bindings.sigmas, bindings.nus
    if not nus or not line.shift:  # the constraints leave no numbers, or no shift fits
        return
    parts = {id(b): _Part(b, bindings) for tok in line.tokens for b in tok}
    sigma_words: list[str | None] = [None] * len(sigmas)  # said only for a binding that makes a target
    nu_words = [_describe({}, nu) for nu in nus]
    seen: set[int] = set()  # the multiset keys of the ways met
    product = itertools.product
    distinct = tuple(kind for kind, how in (("anydragon", line.dragons), ("anywind", line.winds)) if how == "different")
    runs = [_run(line, k) for k in line.shift] if line.runs else None
    shifts = range(len(line.shift))
    for alt in itertools.chain.from_iterable(product(*form) for form in line.forms):
        here = [parts[id(b)] for b in alt]
        tables = [p.table for p in here]
        # the blocks of one pick are added at each level; those with picks, way by way
        fixed = [[i for i, p in enumerate(here) if p.level == level and not p.picks] for level in range(3)]
        picking = [i for i, p in enumerate(here) if p.picks]
        # the blocks whose picks must differ: two bare D groups never the same dragon, when said so
        apart = [[picking.index(i) for i, b in enumerate(alt) if b.atoms[0][0] == kind] for kind in distinct]
        apart = [group for group in apart if len(group) > 1]
        for si in range(len(sigmas)):
            rows = [t[si] for t in tables]
            K0 = L0 = U0 = 0
            for i in fixed[0]:
                _, _, k, l, u, _ = rows[i][0][0][0]
                K0 += k
                L0 += l
                U0 += u
            for ki in shifts:
                K1, L1, U1 = K0, L0, U0
                for i in fixed[1]:
                    _, _, k, l, u, _ = rows[i][ki][0][0]
                    K1 += k
                    L1 += l
                    U1 += u
                run = runs[ki] if runs is not None else None
                for ni in range(len(nus)):
                    if run is not None and any(nus[ni][n] not in run for n in line.runs):
                        continue
                    K2, L2, U2 = K1, L1, U1
                    for i in fixed[2]:
                        _, _, k, l, u, _ = rows[i][ki][ni][0]
                        K2 += k
                        L2 += l
                        U2 += u
                    for chosen in product(*[rows[i][ki][ni] for i in picking]) if picking else ((),):
                        if apart and any(len({chosen[i][5] for i in group}) < len(group) for group in apart):
                            continue
                        K, L, U = K2, L2, U2
                        for _, _, k, l, u, _ in chosen:
                            K += k
                            L += l
                            U += u
                        if K in seen:
                            continue
                        seen.add(K)
                        # buildable: no more naturals of a tile than the set holds, at most 8 jokers for the rest
                        if (_ROOM - L) & GUARD != GUARD:
                            continue
                        d = (U | GUARD) - COPIES_PACKED  # over(U, COPIES_PACKED), inline: once a way
                        beyond = d & (((d & GUARD) >> 4) * 15)
                        if beyond and total(beyond) > JOKERS:
                            continue
                        groups: list[Group] = []
                        blocks = []
                        if picking:
                            cells = [row[ki][ni][0] for row in rows]
                            for i, c in zip(picking, chosen):
                                cells[i] = c
                            for c in cells:
                                groups += c[1]
                                blocks.append(c[0])
                        else:  # a plain loop: a comprehension here costs a frame per target
                            for row in rows:
                                c = row[ki][ni][0]
                                groups += c[1]
                                blocks.append(c[0])
                        groups.sort()
                        s_words = sigma_words[si]
                        if s_words is None:
                            s_words = sigma_words[si] = _describe(dict(zip(bindings.letters, sigmas[si])), {})
                        n_words = nu_words[ni]
                        words = f"{s_words}, {n_words}" if s_words and n_words else s_words or n_words
                        yield tuple(groups), tuple(blocks), words, L, U
