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

    def __init__(self, card: Card, columns: tuple[Any, ...], state: tuple[Any, ...] | None = None) -> None:
        self.card = card
        self.line_of, self.groups, self.blocks, self.bindings, self.L, self.U = columns
        self._made: list[Target | None] = [None] * len(self.L)
        self.all = (1 << len(self.L)) - 1
        if state is None:
            state = self._state()
        has, self.exposable, self.by_group, self.by_line = state
        self.has: list[int] = list(has) + [self.all]  # the joker: every target may hold one

    @classmethod
    def build(cls, card: Card, raw: list[list[RawTarget]]) -> "CardIndex":
        """From lint's targets per line (groups, blocks, binding, L, U)."""
        columns: tuple[list[Any], ...] = ([], [], [], [], [], [])
        line_of, groups, blocks, bindings, Ls, Us = columns
        for number, found in enumerate(raw):
            if found:  # a column at a time, each extended in one call
                g, b, words, L, U = zip(*found)
                line_of += [number] * len(found)
                groups += g
                blocks += b
                bindings += words
                Ls += L
                Us += U
        return cls(card, columns)

    def _state(self) -> tuple[Any, ...]:
        # Bitmaps are set in bytearrays and turned into ints once: OR-ing into a 1,400-bit int
        # per target and group would make a new int each time.
        size = (len(self.L) + 7) // 8
        has = [bytearray(size) for _ in range(KINDS)]
        grouped: dict[tuple[int, int], bytearray] = {}
        spans: dict[int, list[int]] = {}
        for i, groups in enumerate(self.groups):
            at, bit = i >> 3, 1 << (i & 7)
            for t, n, _ in groups:
                has[t][at] |= bit
                if n >= 3:
                    row = grouped.get((t, n))
                    if row is None:
                        row = grouped[(t, n)] = bytearray(size)
                    row[at] |= bit
            span = spans.get(self.line_of[i])
            if span is None:
                spans[self.line_of[i]] = [i, i + 1]
            else:
                span[1] = i + 1
        lines = self.card.lines
        by_line, exposable = {}, 0
        for number, (start, end) in spans.items():
            bits = ((1 << (end - start)) - 1) << start  # a line's targets are numbered together
            by_line[lines[number].id] = bits
            if not lines[number].concealed:
                exposable |= bits
        return ([int.from_bytes(row, "little") for row in has], exposable,
                {key: int.from_bytes(row, "little") for key, row in grouped.items()}, by_line)

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
