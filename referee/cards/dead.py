"""Is she dead? Whether any card line is still possible for a player, from public tiles only.

A target stays possible when it is an exposed (X) line whenever she has exposed, her exposures
each take a group of their own tile and size, and what is left can still be gathered: every
place that must be natural (singles, pairs, no-joker groups) has that many of its tile unseen,
and the places beyond the unseen tiles need no more jokers than can still be had. Unseen means
not discarded and not in anyone's exposure: tiles in racks are not evidence, so a rack never
changes the answer. Every doubt leans to "not dead", since a wrong challenge costs the challenger.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import UsageError
from .index import CardIndex, Target, fits_under, over, pack, total, unpack
from .tiles import COPIES, JOKER, JOKERS, KINDS, Exposure, name, parse_exposure, parse_tiles
from .verify import SIZE_WORD, block_text


@dataclass
class Table:
    """What everyone can see: her exposures, the discards, the other players' exposures."""

    exposures: list[Exposure]
    discards: list[int]
    others: list[int]  # tiles in the other players' exposures, jokers included
    others_jokers_count: bool = True  # jokers in others' exposures may still be redeemed
    unseen: list[int] = field(default_factory=list)
    jokers: int = 0  # jokers she could still get

    def __post_init__(self) -> None:
        shown = [0] * KINDS
        for t in self.discards + self.others:
            if t != JOKER:
                shown[t] += 1
        for e in self.exposures:
            shown[e.tile] += e.naturals
        for t in range(KINDS):
            if shown[t] > COPIES[t]:
                raise UsageError(f"{shown[t]} x {name(t, 2)} are shown on the table (the player's exposures, the discards "
                                 f"and the others' exposures), but a set has only {COPIES[t]}")
        out_jokers = self.discards.count(JOKER) + sum(e.jokers for e in self.exposures)
        held = self.others.count(JOKER)
        if out_jokers + held > JOKERS:
            raise UsageError(f"{out_jokers + held} jokers are shown on the table, but a set has only {JOKERS}")
        self.unseen = [COPIES[t] - shown[t] for t in range(KINDS)]
        self.jokers = JOKERS - out_jokers - (0 if self.others_jokers_count else held)

    @property
    def exposed(self) -> list[tuple[int, int, int]]:
        return [(e.tile, e.size, e.jokers) for e in self.exposures]


def read_table(exposed: list[str], discards: str = "", others: list[str] | None = None,
               others_jokers_count: bool = True) -> Table:
    return Table([parse_exposure(e) for e in exposed], parse_tiles(discards, "discards") if discards.strip() else [],
                 [t for text in others or [] for t in parse_tiles(text, "exposed by others")], others_jokers_count)


@dataclass
class Open:
    """A line still possible: its cheapest target, what is left to gather, and the critical tiles."""

    target: Target
    still: list[str]  # blocks not yet exposed, as typed
    hot: list[str]  # tiles whose unseen count is exactly what the line's natural places need
    jokers_needed: int


@dataclass
class Kill:
    """A line that can no longer be made, and why: the sentence the judge reads out."""

    target: Target | None
    reasons: list[str]
    short: int = 0  # how far out of reach: tiles missing plus jokers lacking


@dataclass
class DeadVerdict:
    table: Table
    open: list[Open]
    nearest: list[Kill]

    @property
    def dead(self) -> bool:
        return not self.open


def _candidates(idx: CardIndex, table: Table) -> int:
    bits = idx.all
    if table.exposures:
        bits &= idx.exposable
        for e in table.exposures:
            bits &= idx.by_group.get((e.tile, e.size), 0)
    return bits


def is_dead(idx: CardIndex, table: Table) -> bool:
    """The decision alone: stops at the first target still possible."""
    A, AJ, exposed = pack(table.unseen), table.jokers, table.exposed
    for tg in idx.each(_candidates(idx, table)):
        bounds = tg.without(exposed) if exposed else (tg.L, tg.U)
        if bounds is not None and fits_under(bounds[0], A) and total(over(bounds[1], A)) <= AJ:
            return False
    return True


def judge(idx: CardIndex, table: Table, nearest: int = 3) -> DeadVerdict:
    """Every line still open (its cheapest target), or the nearest lines and what kills each."""
    A, AJ, exposed = pack(table.unseen), table.jokers, table.exposed
    best: dict[str, tuple[int, Target, int]] = {}
    missed: dict[str, tuple[int, Target, int]] = {}
    for tg in idx.each(_candidates(idx, table)):
        bounds = tg.without(exposed) if exposed else (tg.L, tg.U)
        if bounds is None:
            continue
        L, U = bounds
        need = total(over(U, A))
        short = total(over(L, A)) + max(0, need - AJ)
        lid = tg.line.id
        if short == 0:
            if lid not in best or need < best[lid][0]:
                best[lid] = (need, tg, U)
        elif lid not in missed or short < missed[lid][0]:
            missed[lid] = (short, tg, L)
    opened = [_open(tg, table, U, need) for need, tg, U in sorted(best.values(), key=lambda v: (-v[1].line.value, v[1].number))]
    if opened:
        return DeadVerdict(table, opened, [])
    kills = [Kill(tg, _kill_reasons(tg, table, L), short)
             for short, tg, L in sorted(missed.values(), key=lambda v: (v[0], v[1].number))[:nearest]]
    if not kills:
        kills = [Kill(None, [_no_fit(idx, table)])]
    return DeadVerdict(table, [], kills)


def _remaining_blocks(tg: Target, table: Table) -> list[tuple[tuple[int, ...], bool]]:
    left = list(tg.blocks)
    for e in sorted(table.exposures, key=lambda e: -e.jokers):
        for i, (tiles, jok) in enumerate(left):
            if len(tiles) == e.size and all(x == e.tile for x in tiles) and (jok or not e.jokers):
                del left[i]
                break
    return left


def _open(tg: Target, table: Table, U: int, need: int) -> Open:
    hot = []
    lower = tg.without(table.exposed)[0] if table.exposures else tg.L  # type: ignore[index]
    for t, n in enumerate(unpack(lower)):
        if n and table.unseen[t] == n:
            hot.append(f"{name(t, n)} (needs {n} natural; exactly {n} unseen)")
    return Open(tg, [block_text(tiles) for tiles, _ in _remaining_blocks(tg, table)], hot, need)


def _kill_reasons(tg: Target, table: Table, L: int) -> list[str]:
    out = []
    lower = unpack(L)
    for t in range(KINDS):
        if lower[t] > table.unseen[t]:
            places = [f"the {_word(tiles)} {block_text(tiles)}" for tiles, jok in _remaining_blocks(tg, table)
                      if t in tiles and not jok]
            shown = COPIES[t] - table.unseen[t]
            unseen = table.unseen[t]
            out.append(f"{' and '.join(places) or 'this line'} need{'s' if len(places) == 1 else ''} "
                       f"{lower[t]} natural {name(t, lower[t])} (no joker in a single or pair), but "
                       f"{shown} of the {COPIES[t]} {'are' if shown != 1 else 'is'} already out and only "
                       f"{unseen} {'is' if unseen == 1 else 'are'} unseen")
    U = tg.without(table.exposed)[1] if table.exposures else tg.U  # type: ignore[index]
    need = total(over(U, pack(table.unseen)))
    if need > table.jokers:
        out.append(f"it needs at least {need} jokers beyond the unseen tiles, and only {table.jokers} can still be had")
    return out


def _word(tiles: tuple[int, ...]) -> str:
    if all(x == tiles[0] for x in tiles):
        return SIZE_WORD[len(tiles)]
    return "singles"


def _no_fit(idx: CardIndex, table: Table) -> str:
    shown = ", ".join(e.text for e in table.exposures)
    concealed = any(tg.line.concealed for tg in idx.each(idx.all & ~idx.exposable)) and table.exposures
    fits = idx.all
    for e in table.exposures:
        fits &= idx.by_group.get((e.tile, e.size), 0)
    if fits and not fits & idx.exposable and concealed:
        return f"only concealed (C) lines have groups for the exposures {shown}, and a concealed line cannot be made once tiles are exposed"
    return f"no exposed (X) line of the card has a group for each of the exposures {shown}"


__all__ = ["DeadVerdict", "Kill", "Open", "Table", "is_dead", "judge", "read_table"]
