"""The fast matcher against the plain oracle (tests/cards_oracle.py), on generated hands and tables.

Generated winning hands for every line verify; near misses and random deals get the same lines
from both; the dead check agrees with the oracle on generated table states, and a hand that
exists is never called dead; the nearest lines are those a full scan finds.
"""
from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings, strategies as st

from referee.cards import load
from referee.cards.dead import Table, is_dead, judge
from referee.cards.index import pack
from referee.cards.tiles import COPIES, JOKER, JOKERS, KINDS, Exposure, group_text
from referee.cards.verify import Hand, _distance, nearest, verify

import cards_oracle as oracle

CARD = load("practice")
LINES = CARD.card.lines
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _hand(tiles: list[int], exposures: list[Exposure]) -> Hand:
    naturals = [0] * KINDS
    for t in tiles:
        if t != JOKER:
            naturals[t] += 1
    concealed = list(naturals)
    cj = tiles.count(JOKER)
    for e in exposures:
        concealed[e.tile] -= e.naturals
        cj -= e.jokers
    return Hand("generated", tiles, exposures, naturals, tiles.count(JOKER), concealed, cj)


def winning(rng: random.Random, number: int) -> tuple[Hand | None, str]:
    """A legal winning hand for target `number`: jokers in some 3+ groups, some exposed on X
    lines (None when the set cannot supply this target, e.g. it needs more than 8 jokers)."""
    tg = CARD.targets[number]
    tiles: list[int] = []
    exposures: list[Exposure] = []
    supply = list(COPIES)
    jokers_left = JOKERS
    for t, size, jok in sorted(tg.groups, key=lambda g: g[2]):  # no-joker places take their naturals first
        naturals = min(size, supply[t]) if jok else size
        if jok and jokers_left and rng.random() < 0.5:
            naturals = rng.randint(max(0, size - jokers_left), naturals) if naturals >= max(0, size - jokers_left) else naturals
        need = size - naturals
        if need > jokers_left or naturals > supply[t]:
            return None, tg.line.id
        supply[t] -= naturals
        jokers_left -= need
        group = [t] * naturals + [JOKER] * need
        tiles += group
        if size >= 3 and not tg.line.concealed and naturals >= 1 and rng.random() < 0.4:
            exposures.append(Exposure(t, size, need, group_text(t, size, need)))
    return _hand(tiles, exposures), tg.line.id


def oracle_lines(hand: Hand) -> set[str]:
    ex = [(e.tile, e.size, e.jokers) for e in hand.exposures]
    return {ln.id for ln in LINES if oracle.makes(ln, hand.concealed, hand.concealed_jokers, ex)}


@SETTINGS
@given(st.integers(0, len(CARD.targets) - 1), st.randoms(use_true_random=False))
def test_a_generated_winning_hand_makes_its_line_and_the_oracle_agrees(number, rng) -> None:
    hand, line = winning(rng, number)
    if hand is None:
        return
    fast = {m.line.id for m in verify(CARD, hand).made}
    assert line in fast
    assert fast == oracle_lines(hand)


@SETTINGS
@given(st.integers(0, len(CARD.targets) - 1), st.randoms(use_true_random=False))
def test_a_near_miss_gets_the_same_lines_from_both(number, rng) -> None:
    hand, _ = winning(rng, number)
    if hand is None:
        return
    tiles = list(hand.tiles)
    exposed = {id(e) for e in hand.exposures}
    i = rng.randrange(len(tiles))
    # swap one tile for another the set still has (a joker too, which tests 'no joker in a pair')
    counts = [tiles.count(t) for t in range(KINDS)] + [tiles.count(JOKER)]
    choices = [t for t in range(KINDS + 1) if counts[t] < (COPIES[t] if t < KINDS else JOKERS)]
    tiles[i] = rng.choice(choices)
    keep = [e for e in hand.exposures if id(e) in exposed]
    near = _hand(tiles, [])  # the swap may have broken an exposure: judge it all concealed
    assert {m.line.id for m in verify(CARD, near).made} == oracle_lines(near)
    if keep and all(_hand(tiles, keep).concealed[e.tile] >= 0 for e in keep):
        with_exposures = _hand(tiles, keep)
        if with_exposures.concealed_jokers >= 0:
            assert {m.line.id for m in verify(CARD, with_exposures).made} == oracle_lines(with_exposures)


@SETTINGS
@given(st.randoms(use_true_random=False))
def test_a_random_deal_gets_the_same_lines_from_both(rng) -> None:
    wall = [t for t in range(KINDS) for _ in range(COPIES[t])] + [JOKER] * JOKERS
    hand = _hand(rng.sample(wall, 14), [])
    assert {m.line.id for m in verify(CARD, hand).made} == oracle_lines(hand)


def test_thirteen_tiles_make_nothing() -> None:
    rng = random.Random(7)
    for number in range(0, len(CARD.targets), 37):
        hand, _ = winning(rng, number)
        if hand is None:
            continue
        tiles = hand.tiles[1:]
        assert not verify(CARD, _hand(tiles, []), explain=0).made


@SETTINGS
@given(st.integers(0, len(CARD.targets) - 1), st.randoms(use_true_random=False))
def test_the_nearest_lines_are_those_a_full_scan_finds(number, rng) -> None:
    hand, _ = winning(rng, number)
    if hand is None:
        return
    tiles = list(hand.tiles)
    for _ in range(rng.randint(1, 3)):
        tiles[rng.randrange(14)] = rng.randrange(KINDS)
    if any(tiles.count(t) > COPIES[t] for t in range(KINDS)):
        return
    h = _hand(tiles, [])
    fast = [(n.line.id, n.distance) for n in nearest(CARD, h, 3)]
    full: dict[str, tuple[int, bool, int]] = {}
    c = pack(h.concealed)
    for tg in CARD.targets:
        d, blocked = _distance(tg, h, c, c)
        key = (d, blocked, tg.number)
        if tg.line.id not in full or key < full[tg.line.id]:
            full[tg.line.id] = key
    ranked = sorted(full.items(), key=lambda kv: kv[1])[:3]
    assert fast == [(lid, key[0]) for lid, key in ranked]


def _table(rng: random.Random, exposures: list[Exposure], avoid: list[int] | None = None) -> Table:
    """Her exposures and random public tiles drawn from what is left of the set (minus `avoid`)."""
    left = [COPIES[t] for t in range(KINDS)] + [JOKERS]
    for e in exposures:
        left[e.tile] -= e.naturals
        left[KINDS] -= e.jokers
    for t in avoid or []:
        left[t] -= 1
    pool = [t for t in range(KINDS + 1) for _ in range(max(0, left[t]))]
    shown = rng.sample(pool, rng.randint(0, min(len(pool), 60)))
    cut = rng.randint(0, len(shown))
    discards = [JOKER if t == KINDS else t for t in shown[:cut]]
    others = [JOKER if t == KINDS else t for t in shown[cut:]]
    return Table(exposures, discards, others, rng.random() < 0.7)


def _oracle_open(table: Table) -> set[str]:
    ex = [(e.tile, e.size, e.jokers) for e in table.exposures]
    return {ln.id for ln in LINES if oracle.still_possible(ln, ex, table.unseen, table.jokers)}


@SETTINGS
@given(st.integers(0, len(CARD.targets) - 1), st.randoms(use_true_random=False))
def test_the_dead_check_agrees_with_the_oracle(number, rng) -> None:
    hand, _ = winning(rng, number)
    if hand is None:
        return
    table = _table(rng, hand.exposures)
    verdict = judge(CARD, table)
    assert {o.target.line.id for o in verdict.open} == _oracle_open(table)
    assert verdict.dead == is_dead(CARD, table)


@SETTINGS
@given(st.integers(0, len(CARD.targets) - 1), st.randoms(use_true_random=False))
def test_a_hand_that_exists_is_never_called_dead(number, rng) -> None:
    """She holds a real winning hand; everything visible comes from the rest of the set."""
    hand, line = winning(rng, number)
    if hand is None:
        return
    held = [t for t in hand.tiles if t != JOKER]
    concealed_held = list(held)
    for e in hand.exposures:
        for _ in range(e.naturals):
            concealed_held.remove(e.tile)
    table = _table(rng, hand.exposures, concealed_held)
    # the jokers in her rack are unseen too: drop any shown joker beyond what the set can spare
    spare = JOKERS - hand.jokers
    while table.discards.count(JOKER) + table.others.count(JOKER) > spare:
        (table.discards if JOKER in table.discards else table.others).remove(JOKER)
    table = Table(table.exposures, table.discards, table.others, True)
    assert not is_dead(CARD, table)
    assert line in {o.target.line.id for o in judge(CARD, table).open}
