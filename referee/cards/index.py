"""A card made ready for matching: its targets with packed bounds, and bitsets to narrow them fast.

The box test (see /shared/reference/card-and-hands.md §3): once a target is fixed, a hand's
concealed naturals `c` fit its remaining groups iff L[t] <= c[t] <= U[t] for every tile kind,
where L counts the places that must be natural (singles, pairs, `!` groups) and U all places.
Counts are packed 5 bits a kind into one int, bit 4 of each field a guard, so a whole vector
compares in two subtractions.
"""
from __future__ import annotations

from typing import Any

from .expand import Group, RawTarget
from .notation import Card, Line
from .tiles import COPIES, KINDS

BITS = 5
GUARD = sum(16 << (BITS * t) for t in range(KINDS))
LOW = sum(1 << (BITS * t) for t in range(KINDS))  # bit 0 of every field
PLANES = tuple(LOW << k for k in range(4))  # bit k of every field
COPIES_PACKED = sum(n << (BITS * t) for t, n in enumerate(COPIES))


def pack(c: list[int] | tuple[int, ...]) -> int:
    return sum(n << (BITS * t) for t, n in enumerate(c) if n)


def fits_under(a: int, b: int) -> bool:
    """a[t] <= b[t] for every kind."""
    return ((b | GUARD) - a) & GUARD == GUARD


def over(a: int, b: int) -> int:
    """Packed max(0, a[t] - b[t])."""
    d = (a | GUARD) - b
    keep = (d & GUARD) >> 4
    return d & (keep * 15)


def total(x: int) -> int:
    """The sum of a packed vector's fields."""
    return sum((x & p).bit_count() << k for k, p in enumerate(PLANES))


def unpack(x: int) -> list[int]:
    mask = (1 << BITS) - 1
    return [x >> (BITS * t) & mask for t in range(KINDS)]


class Target:
    """One concrete way to make a line: its groups, its blocks as printed, and the packed bounds."""

    __slots__ = ("number", "line", "groups", "blocks", "binding", "L", "U", "_big")

    def __init__(self, number: int, line: Line, groups: tuple[Group, ...], blocks: Any, binding: str,
                 L: int | None = None, U: int | None = None) -> None:
        self.number, self.line, self.groups, self.blocks, self.binding = number, line, groups, blocks, binding
        if L is None or U is None:
            L = U = 0
            for t, size, jok in groups:
                U += size << (BITS * t)
                if not jok:
                    L += size << (BITS * t)
        self.L, self.U = L, U
        self._big: dict[tuple[int, int], list[int]] | None = None

    @property
    def lower(self) -> list[int]:
        return unpack(self.L)

    @property
    def upper(self) -> list[int]:
        return unpack(self.U)

    @property
    def big(self) -> dict[tuple[int, int], list[int]]:
        """(tile, size) of each 3+ group -> [no-joker groups, joker groups]."""
        if self._big is None:
            self._big = {}
            for t, size, jok in self.groups:
                if size >= 3:
                    self._big.setdefault((t, size), [0, 0])[1 if jok else 0] += 1
        return self._big

    def without(self, exposures: list[tuple[int, int, int]]) -> tuple[int, int] | None:
        """(L, U) of the groups left once each exposure (tile, size, jokers) has taken a group of
        its own tile and size, or None when they cannot all be placed. A joker-free exposure takes
        a no-joker group first, which leaves the fewest naturals still owed."""
        L, U = self.L, self.U
        used: dict[tuple[int, int], list[int]] = {}
        for t, size, jokers in sorted(exposures, key=lambda e: -e[2]):  # exposures with jokers choose first
            have = self.big.get((t, size))
            if have is None:
                return None
            taken = used.setdefault((t, size), [0, 0])
            free_plain, free_joker = have[0] - taken[0], have[1] - taken[1]
            shift = BITS * t
            if jokers:
                if free_joker <= 0:
                    return None
                taken[1] += 1
            elif free_plain > 0:
                taken[0] += 1
                L -= size << shift
            elif free_joker > 0:
                taken[1] += 1
            else:
                return None
            U -= size << shift
        return L, U


class CardIndex:
    """Targets of a card, with per-kind bitsets (which targets use a tile kind at all), the
    targets an exposed hand may make, and the targets holding a given 3+ group."""

    def __init__(self, card: Card, targets: list[Target], state: tuple[Any, ...] | None = None) -> None:
        self.card = card
        self.targets = targets
        self.all = (1 << len(targets)) - 1
        if state is None:
            state = self._state()
        has, self.exposable, self.by_group, self.by_line = state
        self.has: list[int] = list(has)

    @classmethod
    def build(cls, card: Card, raw: list[list[RawTarget]]) -> "CardIndex":
        targets: list[Target] = []
        for line, found in zip(card.lines, raw):
            for groups, blocks, binding in found:
                targets.append(Target(len(targets), line, groups, blocks, binding))
        return cls(card, targets)

    def _state(self) -> tuple[Any, ...]:
        has = [0] * KINDS
        exposable = 0
        by_group: dict[tuple[int, int], int] = {}
        by_line: dict[str, int] = {}
        for tg in self.targets:
            bit = 1 << tg.number
            for t in {g[0] for g in tg.groups}:
                has[t] |= bit
            if not tg.line.concealed:
                exposable |= bit
            for key in tg.big:
                by_group[key] = by_group.get(key, 0) | bit
            by_line[tg.line.id] = by_line.get(tg.line.id, 0) | bit
        return has, exposable, by_group, by_line

    def state(self) -> tuple[Any, ...]:
        """Everything but the card, as plain data for the cache."""
        rows = [(tg.line.id, tg.groups, tg.blocks, tg.binding, tg.L, tg.U) for tg in self.targets]
        return rows, (self.has, self.exposable, self.by_group, self.by_line)

    @classmethod
    def from_state(cls, card: Card, state: tuple[Any, ...]) -> "CardIndex":
        rows, rest = state
        lines = {ln.id: ln for ln in card.lines}
        targets = [Target(i, lines[lid], groups, blocks, binding, L, U)
                   for i, (lid, groups, blocks, binding, L, U) in enumerate(rows)]
        return cls(card, targets, rest)

    def each(self, bits: int) -> list[Target]:
        out = []
        targets = self.targets
        while bits:
            low = bits & -bits
            out.append(targets[low.bit_length() - 1])
            bits ^= low
        return out
