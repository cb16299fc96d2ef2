"""A card made ready for matching: its targets with packed bounds, and bitsets to narrow them fast.

The box test (see /shared/reference/card-and-hands.md §3): once a target is fixed, a hand's
concealed naturals `c` fit its remaining groups iff L[t] <= c[t] <= U[t] for every tile kind,
where L counts the places that must be natural (singles, pairs, `!` groups) and U all places.
Counts are packed 5 bits a kind into one int, bit 4 of each field a guard, so a whole vector
compares in two subtractions.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .line import Line
from .notation import Card
from .packed import BITS, COPIES_PACKED, GUARD, LOW, PLANES, fits_under, over, pack, total, unpack
from .tiles import KINDS

__all__ = ["BITS", "COPIES_PACKED", "GUARD", "LOW", "PLANES", "CardIndex", "Target", "fits_under", "over", "pack", "total",
           "unpack"]

if TYPE_CHECKING:  # expanding a card is for a cold load only: a cached one never imports it
    from .expand import Group, RawTarget


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
        big = self._big if self._big is not None else self.big
        if len(exposures) > 1:
            exposures = sorted(exposures, key=lambda e: -e[2])  # exposures with jokers choose first
        used: dict[tuple[int, int], list[int]] = {}
        for t, size, jokers in exposures:
            have = big.get((t, size))
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
    targets an exposed hand may make, and the targets holding a given 3+ group.

    The targets are kept as plain columns (line, groups, blocks, binding, L, U), the form the
    cache stores; a Target object is made only when a search reaches it."""

    def __init__(self, card: Card, columns: tuple[Any, ...], state: tuple[Any, ...]) -> None:
        self.card = card
        self.line_of, self.groups, self.blocks, self.bindings, self.L, self.U = columns
        self._made: list[Target | None] = [None] * len(self.L)
        self.all = (1 << len(self.L)) - 1
        has, self.exposable, self.by_group, self.by_line = state
        self.has: list[int] = list(has) + [self.all]  # the joker: every target may hold one

    @classmethod
    def build(cls, card: Card, raw: list[list[RawTarget]]) -> "CardIndex":
        """From lint's targets per line (groups, blocks, binding, L, U)."""
        columns: tuple[list[Any], ...] = ([], [], [], [], [], [])
        line_of, groups, blocks, bindings, Ls, Us = columns
        # The bitsets are made a line at a time: a line's targets are numbered together and
        # share a few groups, so each group's targets are a small int, shifted into place once
        # a line, instead of bits set once a target and group in bitsets of every target.
        has, by_group, by_line, exposable = [0] * KINDS, {}, {}, 0
        start = 0
        for number, found in enumerate(raw):
            if not found:
                continue
            g, b, words, L, U = zip(*found)  # a column at a time, each extended in one call
            line_of += [number] * len(found)
            groups += g
            blocks += b
            bindings += words
            Ls += L
            Us += U
            made: dict[Group, int] = {}  # each group of the line -> its targets
            bit = 1
            for target in g:
                for group in target:
                    made[group] = made.get(group, 0) | bit
                bit <<= 1
            for (t, n, _), bits in made.items():
                bits <<= start
                has[t] |= bits
                if n >= 3:
                    by_group[(t, n)] = by_group.get((t, n), 0) | bits
            line = card.lines[number]
            bits = (bit - 1) << start
            by_line[line.id] = bits
            if not line.concealed:
                exposable |= bits
            start += len(found)
        return cls(card, columns, (has, exposable, by_group, by_line))

    def state(self) -> tuple[Any, ...]:
        """Everything but the card, as plain data (tuples, ints, strings) for the cache."""
        columns = (self.line_of, self.groups, self.blocks, self.bindings, self.L, self.U)
        return columns, (self.has[:KINDS], self.exposable, self.by_group, self.by_line)

    @classmethod
    def from_state(cls, card: Card, state: tuple[Any, ...]) -> "CardIndex":
        columns, rest = state
        return cls(card, columns, rest)

    def target(self, number: int) -> Target:
        tg = self._made[number]
        if tg is None:
            tg = self._made[number] = Target(number, self.card.lines[self.line_of[number]], self.groups[number],
                                             self.blocks[number], self.bindings[number], self.L[number], self.U[number])
        return tg

    @property
    def targets(self) -> list[Target]:
        """Every target, in order (made all at once: for tests and reports, not for searches)."""
        return [self.target(i) for i in range(len(self.L))]

    def each(self, bits: int) -> list[Target]:
        out = []
        made = self._made
        while bits:
            low = bits & -bits
            i = low.bit_length() - 1
            out.append(made[i] or self.target(i))
            bits ^= low
        return out
