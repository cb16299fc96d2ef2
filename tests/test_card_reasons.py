"""Nearest-line reasons name what the hand lacks, not only what it has too much of: a judge reads
them out ("needs a fourth 3 Dot for the kong 3333D"), so every line of the practice card is tried
with one tile of each of its groups swapped for a tile the line has no place for."""
from __future__ import annotations

import pytest

from referee.cards import load
from referee.cards.tiles import COPIES, JOKER, KINDS, name, short
from referee.cards.verify import block_text, read_hand, reasons, verify

CARD = load("practice")


def _natural_hand(tg) -> list[int] | None:
    """The target's tiles, naturals where the set has them, jokers in jokerable groups for the rest."""
    supply, tiles = list(COPIES), []
    for t, size, jok in tg.groups:
        naturals = min(size, supply[t])
        if naturals < size and not jok:
            return None
        supply[t] -= naturals
        tiles += [t] * naturals + [JOKER] * (size - naturals)
    return tiles


def _cases() -> list[tuple[str, str, int]]:
    """(line, block as typed, tile taken out): one tile of each group of each line's first target."""
    out = []
    for ln in CARD.card.lines:
        tg = CARD.each(CARD.by_line[ln.id])[0]
        for tiles, _ in tg.blocks:
            out.append((ln.id, block_text(tiles), tiles[0]))
    return out


def _swapped(tg, take: int) -> str | None:
    tiles = _natural_hand(tg)
    if tiles is None or take not in tiles:
        return None
    used = {t for t, _, _ in tg.groups}
    foreign = next(x for x in range(KINDS) if x not in used)
    tiles[tiles.index(take)] = foreign
    return " ".join(short(t) for t in tiles)


@pytest.mark.parametrize("line,block,take", _cases())
def test_a_near_miss_is_told_which_tile_its_group_lacks(line, block, take) -> None:
    tg = CARD.each(CARD.by_line[line])[0]
    text = _swapped(tg, take)
    if text is None:
        pytest.skip(f"{line}: no natural {short(take)} to take out of {block}")
    said = reasons(tg, read_hand(text))
    lacks = [r for r in said if r.startswith("needs") and (name(take, 1) in r or name(take, 2) in r)]
    assert lacks, f"{line} {block} without one {short(take)} ({text}): {said}"


# (hand, line, a reason that must be given)
SAID = [
    ("FF 2033B 3333C 3335D", "Y1", "needs a fourth 3 Dot for the kong 3333D (or a joker)"),
    ("FF 2033B 3333C 3355D", "Y1", "needs two more 3 Dots for the kong 3333D (or jokers)"),
    ("FF 2033B 3333C 335D J", "Y1", "the hand's 1 joker can fill only 1 of those 2 places"),
    ("FF 2033B 3333C 3333D", None, None),
    ("F 5B 2033B 3333C 3333D", "Y1", "needs one more natural Flower for the pair FF; no joker in a single or pair"),
]


@pytest.mark.parametrize("hand,line,reason", SAID)
def test_reasons_read_out_what_is_missing(hand, line, reason) -> None:
    verdict = verify(CARD, read_hand(hand))
    if line is None:
        assert verdict.made and not verdict.nearest
        return
    near = {n.line.id: n.reasons for n in verdict.nearest}
    assert reason in near[line], near.get(line)
