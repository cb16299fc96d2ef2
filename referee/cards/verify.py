"""Is this a Mah Jongg? Every line a 14-tile hand makes, or the nearest lines and why they fail.

Pure: a hand and a card index in, results out; the wording is the judge's (tile names in full,
groups by their card names) so the CLI and the rulings print it as it is.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import UsageError
from .index import BITS, GUARD, CardIndex, Target, over, pack, total
from .tiles import (COPIES, echo, HAND_SIZE, KINDS, Exposure, check_supply, count, counts, group_text, name,
                    block_text, parse_exposure, parse_tiles)  # block_text: kept importable from here

SIZE_WORD = {1: "single", 2: "pair", 3: "pung", 4: "kong", 5: "quint", 6: "sextet"}


@dataclass
class Hand:
    """A declared hand: all 14 tiles, and which groups of them were exposed before Mah Jongg."""

    text: str
    tiles: list[int]
    exposures: list[Exposure]
    naturals: list[int]  # every natural, exposures included
    jokers: int  # every joker, exposures included
    concealed: list[int]  # naturals not in an exposure
    concealed_jokers: int

    @property
    def jokerless(self) -> bool:
        return self.jokers == 0

    @property
    def exposed(self) -> list[tuple[int, int, int]]:
        return [(e.tile, e.size, e.jokers) for e in self.exposures]


def read_hand(text: str, exposed: list[str] | None = None, size: int | None = HAND_SIZE) -> Hand:
    """The hand as typed; a UsageError names what is wrong (count, a tile that does not exist,
    five of a kind without jokers, an exposure not in the hand)."""
    tiles = parse_tiles(text)
    if size is not None and len(tiles) != size:
        raise UsageError(f"hand '{echo(text)}': {len(tiles)} tiles; a Mah Jongg hand has {size}, exposures included")
    c, jokers = counts(tiles)
    check_supply(c, jokers, f"hand '{echo(text)}'")
    exposures = [parse_exposure(e) for e in exposed or []]
    conc, cj = list(c), jokers
    for e in exposures:
        conc[e.tile] -= e.naturals
        cj -= e.jokers
        if conc[e.tile] < 0 or cj < 0:
            what = name(e.tile, 2) if conc[e.tile] < 0 else "jokers"
            raise UsageError(f"exposure {e.text} is not in the hand '{echo(text)}' (too few {what} for it); "
                             "type all 14 tiles, exposures included")
    return Hand(text, tiles, exposures, c, jokers, conc, cj)


@dataclass
class Made:
    """One line the hand makes, with the target that shows it and where each joker stands."""

    target: Target
    U: int  # the target's places left once the exposures took theirs
    hand: Hand

    @property
    def jokers_as(self) -> list[tuple[int, int]]:
        """(tile, jokers) among the concealed tiles: worked out only when shown."""
        return _jokers_as(self.target, self.U, self.hand)

    @property
    def line(self):  # noqa: ANN201 - a notation.Line
        return self.target.line


@dataclass
class Verdict:
    hand: Hand
    made: list[Made]  # one per line, highest value first
    nearest: list["Near"] = field(default_factory=list)

    @property
    def best(self) -> Made | None:
        return self.made[0] if self.made else None

    def value(self) -> int | None:
        """The card value of the best line (before any jokerless doubling)."""
        return self.best.line.value if self.best else None

    def doubled(self) -> bool:
        """Jokerless and the line's section pays double for it."""
        return bool(self.best and self.hand.jokerless and self.best.line.jokerless_bonus)


def _candidates(idx: CardIndex, hand: Hand) -> int:
    """Targets that use every tile kind the hand holds (and, with exposures, hold each exposed group)."""
    bits = idx.all
    has = idx.has  # its last entry, the joker's, is every target
    for t in hand.tiles:
        bits &= has[t]
    if hand.exposures:
        bits &= idx.exposable
        for e in hand.exposures:
            bits &= idx.by_group.get((e.tile, e.size), 0)
    return bits


def verify(idx: CardIndex, hand: Hand, explain: int = 3) -> Verdict:
    """Every line the hand makes (its best target each); when none, the `explain` nearest lines."""
    if len(hand.tiles) != HAND_SIZE:  # the box test alone passes a hand one joker-place short
        return Verdict(hand, [])
    bits = _candidates(idx, hand)
    made: list[Made] = []
    if bits:
        c = pack(hand.concealed)
        exposed = hand.exposed
        found: set[int] = set()  # lines already made: one target each is enough
        line_of, Ls, Us = idx.line_of, idx.L, idx.U
        while bits:
            low = bits & -bits
            bits ^= low
            i = low.bit_length() - 1
            if line_of[i] in found:
                continue
            if exposed:
                bounds = idx.target(i).without(exposed)
                if bounds is None:
                    continue
                L, U = bounds
            else:
                L, U = Ls[i], Us[i]
            if ((U | GUARD) - c) & GUARD == GUARD and ((c | GUARD) - L) & GUARD == GUARD:  # L <= c <= U
                found.add(line_of[i])
                made.append(Made(idx.target(i), U, hand))
        if len(made) > 1:
            made.sort(key=lambda m: (-m.target.line.value, m.target.number))
    verdict = Verdict(hand, made)
    if not made and explain:
        verdict.nearest = nearest(idx, hand, explain)
    return verdict


def _jokers_as(tg: Target, U: int, hand: Hand) -> list[tuple[int, int]]:
    mask = (1 << BITS) - 1
    return [(t, (U >> (BITS * t) & mask) - hand.concealed[t]) for t in range(KINDS)
            if (U >> (BITS * t) & mask) > hand.concealed[t]]


@dataclass
class Near:
    """A line the hand misses: how many tiles are wrong, and the reasons in words."""

    target: Target
    distance: int
    reasons: list[str]
    blocked: bool = False

    @property
    def line(self):  # noqa: ANN201
        return self.target.line


def _distance(tg: Target, hand: Hand, c_conc: int, c_full: int) -> tuple[int, bool]:
    """Tiles to change to make `tg`; blocked when the exposures rule the line out whatever the tiles."""
    exposed = hand.exposed
    bounds = None
    if not (exposed and tg.line.concealed):
        bounds = tg.without(exposed) if exposed else (tg.L, tg.U)
    if bounds is None:  # judged on all 14 tiles as if nothing were exposed; the reason says why not
        L, U, c = tg.L, tg.U, c_full
    else:
        (L, U), c = bounds, c_conc
    return max(total(over(c, U)), total(over(L, c))), bounds is None


def nearest(idx: CardIndex, hand: Hand, n: int = 3) -> list[Near]:
    """The `n` lines the hand comes closest to, each by its closest target, nearest first.

    Targets are visited in order of a lower bound (the hand's naturals of kinds the target lacks
    altogether, counted for every target at once in bit-sliced counters), so a near miss looks
    at a handful of targets instead of all of them; the result is the same as a full scan."""
    planes = [0, 0, 0, 0]
    for t in range(KINDS):
        k = hand.naturals[t]
        if not k:
            continue
        mask = idx.all & ~idx.has[t]
        carry = 0
        for b in range(4):  # add k to every counter in `mask`
            bit = mask if k >> b & 1 else 0
            p = planes[b]
            planes[b] = p ^ bit ^ carry
            carry = (p & bit) | (p & carry) | (bit & carry)
    c_conc, c_full = pack(hand.concealed), pack(hand.naturals)
    best: dict[str, tuple[int, bool, int, Target]] = {}
    for bound in range(16):
        bucket = idx.all
        for b in range(4):
            bucket &= planes[b] if bound >> b & 1 else ~planes[b]
        for tg in idx.each(bucket):
            d, blocked = _distance(tg, hand, c_conc, c_full)
            key = (d, blocked, tg.number)
            have = best.get(tg.line.id)
            if have is None or key < have[:3]:
                best[tg.line.id] = (d, blocked, tg.number, tg)
        ranked = sorted(best.values(), key=lambda v: v[:3])
        if len(ranked) >= n and ranked[n - 1][0] <= bound:
            break
    ranked = sorted(best.values(), key=lambda v: v[:3])[:n]
    return [Near(tg, d, reasons(tg, hand), blocked) for d, blocked, _, tg in ranked]


def reasons(tg: Target, hand: Hand) -> list[str]:
    """Why the hand does not make `tg`, in the words a judge reads out."""
    line = tg.line
    out: list[str] = []
    exposed = hand.exposed
    if exposed and line.concealed:
        out.append(f"concealed line ({line.id} is C), but tiles were exposed before Mah Jongg")
        bounds = None
    else:
        bounds = tg.without(exposed) if exposed else (tg.L, tg.U)
        if bounds is None:
            out.append(_exposure_misfit(tg, hand))
    if bounds is None:
        lower, upper, c, jokers = tg.lower, tg.upper, hand.naturals, hand.jokers
    else:
        mask = (1 << BITS) - 1
        lower = [bounds[0] >> (BITS * t) & mask for t in range(KINDS)]
        upper = [bounds[1] >> (BITS * t) & mask for t in range(KINDS)]
        c, jokers = hand.concealed, hand.concealed_jokers
    holes = 0
    short: list[tuple[int, int, int]] = []  # (tile, places a natural or a joker could fill, naturals held)
    for t in range(KINDS):
        if lower[t] > c[t]:
            out.append(_missing_natural(tg, t, lower[t] - c[t]))
        if c[t] > upper[t]:
            extra = c[t] - upper[t]
            out.append(f"has {count(extra, t)} this line has no place for" if upper[t] == 0 else
                       f"has {count(extra, t)} more than this line holds (it takes {upper[t]})")
        gap = upper[t] - max(c[t], lower[t])
        if gap > 0:
            holes += gap
            short.append((t, gap, max(c[t], lower[t])))
    if jokers > holes:
        extra = jokers - holes
        out.append(f"{extra} joker{'s' if extra != 1 else ''} with nowhere legal to go (the places left take no joker)")
    elif jokers < holes:  # what the groups still lack, tile by tile: her jokers cannot fill it all
        out += [_missing_place(tg, t, gap, held) for t, gap, held in short]
        if jokers:
            out.append(f"the hand's {jokers} joker{'s' if jokers != 1 else ''} can fill only {jokers} of those {holes} places")
    return out


_ORDINAL = {2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth", 7: "seventh", 8: "eighth"}


def _missing_place(tg: Target, t: int, gap: int, held: int) -> str:
    """'needs a fourth 3 Dot for the kong 3333D (or a joker)', 'needs three more Flowers for ...'."""
    if gap == 1 and held and held + 1 in _ORDINAL:
        what = f"a {_ORDINAL[held + 1]} {name(t)}"
    else:
        what = count(gap, t).replace(" ", " more ", 1) if held else count(gap, t)
    groups = [f"the {SIZE_WORD.get(len(tiles), 'group')} {block_text(tiles)}" for tiles, jok in tg.blocks if jok and t in tiles]
    where = f" for {' and '.join(groups)}" if groups else ""
    if held + gap > COPIES[t]:  # more than the set holds: only jokers can make up the rest
        return f"needs {what}{where}; the set has only {COPIES[t]}, so a joker must stand in"
    return f"needs {what}{where} (or {'a joker' if gap == 1 else 'jokers'})"


def _missing_natural(tg: Target, t: int, short_by: int) -> str:
    """'needs 1 more natural 5 Dot for the pair 55D; no joker in a single or pair'."""
    what = f"needs {count(short_by, t).replace(' ', ' more natural ', 1)}"
    places = []
    for tiles, jok in tg.blocks:
        if t in tiles and not jok:
            uniform = all(x == tiles[0] for x in tiles)
            if not uniform:
                places.append(f"the singles {block_text(tiles)}")
            elif len(tiles) < 3:
                places.append(f"the {SIZE_WORD[len(tiles)]} {block_text(tiles)}")
            else:
                places.append(f"the {SIZE_WORD[len(tiles)]} {block_text(tiles)}, which this card marks no-joker")
    if not places:
        return what
    tail = "" if all("no-joker" in p for p in places) else "; no joker in a single or pair"
    return f"{what} for {' and '.join(places)}{tail}"


def _exposure_misfit(tg: Target, hand: Hand) -> str:
    for e in hand.exposures:
        have = tg.big.get((e.tile, e.size))
        if have is None:
            return f"exposure {e.text} fits no group of this line"
        if e.jokers and not have[1]:
            return f"exposure {e.text} holds a joker, but this line's {group_text(e.tile, e.size)} takes none"
    return "its exposures cannot all be placed in this line's groups"


__all__ = ["Hand", "Made", "Near", "Verdict", "block_text", "nearest", "read_hand", "verify"]
