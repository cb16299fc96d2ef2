"""A card typed as printed (issue 30): one id per printed line, and no line that accepts a hand the
card refuses.

The shapes that once took several ids or read wrong (tests/data/shapes.yaml: "-or-" forms, any 3
dragons, any 2 winds, a pair of any number in the run, any 1 or 3 and any 2 or 3 suits, like
kongs 3, 6 or 9, these numbers only) each verify a valid hand and refuse a near miss; property
tests run every hand each line stands for; the practice card, rewritten as printed, stands for
the hands of its long form line by line; card check reports, hints and warns as an organizer
needs.
"""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from referee.cards import load
from referee.cards.store import check
from referee.cards.tiles import COPIES, JOKER, KINDS
from referee.cards.verify import read_hand, verify

import cards_oracle as oracle

HERE = Path(__file__).resolve().parent
SHAPES = HERE / "data" / "shapes.yaml"
ROOT = HERE.parent


@pytest.fixture(scope="module")
def shapes():
    return load(str(SHAPES))


def made(idx, hand: str, exposed: list[str] | None = None) -> list[str]:
    return [m.line.id for m in verify(idx, read_hand(hand, exposed)).made]


# (line, a hand the card accepts, a near miss it refuses, why the miss fails)
EACH_SHAPE = [
    ("OR", "FFFF 444C 5555C 666C", "FFF 444C 5555C 6666C", "the pung/kong swap is one form or the other, never a mix"),
    ("OR", "FFF 4444C 555C 6666C", "FFF 4444C 555C 6666D", "a form keeps its one suit"),
    ("ODDS", "55B 777B 9999B 777D 99D", "55B 777B 9999B 777D 55D", "1-3-5 or 5-7-9, not both at once"),
    ("DRAG", "FF 789C RR GGG 0000", "FF 789C RR RRJ JJJJ", "any 3 dragons are three different dragons"),
    ("DRAG", "FF 789D 00 RRR GGJG", "FF 789D GG RRR GGJJ", "one dragon cannot fill two groups"),
    ("WIND", "FFFF NNN SSS 7777C", "FFFF NNN NJJ 7777C", "any 2 winds are two different winds"),
    ("RUN", "34567B 5B 5555C 5555D", "34567B 5B 5555C 6666D", "both kongs match the pair"),
    ("RUN", "56789D 9D 9999B 9999C", "56789D 4D 4444B 4444C", "the pair is a number of the run"),
    ("S13", "444D 555D 666D NEWS F", "444B 555D 666D NEWS F", "any 1 or 3 suits: never 2"),
    ("S13", "444B 555C 666D NEWS F", "444B 555C 777D NEWS F", "three consecutive numbers"),
    ("S23", "FF 1111B 2222B 3333C", "FF 1111D 2222D 3333D", "any 2 or 3 suits: never 1"),
    ("S23", "FF 1111B 2222C 3333D", "FF 1111B 2222C 4444D", "the numbers as printed"),
    ("LIKE", "6666B 6666C 666JD FF", "5555B 5555C 5555D FF", "like kongs of 3, 6 or 9 only"),
    ("LIKE", "9999B JJJJ 9999D FF", "3333B 6666C 9999D FF", "the kongs are alike"),
    ("ONLY", "11C 77C 88C 8888D 22D FF", "22C 88C 99C 9999D 33D FF", "these numbers only: never moved"),
]


@pytest.mark.parametrize("line,good,miss,why", EACH_SHAPE, ids=[f"{s[0]}: {s[3]}" for s in EACH_SHAPE])
def test_each_shape_is_one_line_right_on_a_valid_hand_and_a_near_miss(shapes, line, good, miss, why) -> None:
    assert line in made(shapes, good), f"{good} should make {line}"
    assert line not in made(shapes, miss), why


def test_every_shape_is_one_id_per_printed_line(shapes) -> None:
    assert [ln.id for ln in shapes.card.lines] == ["OR", "ODDS", "DRAG", "WIND", "RUN", "S13", "S23", "LIKE", "ONLY"]


def test_the_nearest_lines_name_the_printed_line_once(shapes) -> None:
    verdict = verify(shapes, read_hand("FF 789C RR RRJ JJJJ"))
    assert not verdict.made
    ids = [n.line.id for n in verdict.nearest]
    assert len(ids) == len(set(ids)) and "DRAG" in ids


# --- every shape, every hand: property tests over each line's expansion ---

def _natural_hand(groups: tuple) -> list[int] | None:
    """The target's tiles: naturals where the set has them (no-joker places first), jokers for the rest."""
    supply = list(COPIES)
    tiles: list[int] = []
    for t, size, jok in sorted(groups, key=lambda g: g[2]):
        naturals = size if not jok else min(size, max(0, supply[t]))
        if naturals > supply[t]:
            return None
        supply[t] -= naturals
        tiles += [t] * naturals + [JOKER] * (size - naturals)
    return tiles if tiles.count(JOKER) <= 8 else None


def _hand(tiles: list[int]):
    from test_cards_properties import _hand as plain

    return plain(tiles, [])


def _targets(idx, lid: str) -> list:
    return idx.each(idx.by_line[lid])


@pytest.mark.parametrize("lid", ["OR", "ODDS", "DRAG", "WIND", "RUN", "S13", "S23", "LIKE", "ONLY"])
def test_every_hand_a_shape_stands_for_verifies_and_one_tile_off_agrees_with_the_oracle(shapes, lid) -> None:
    line = shapes.card.line(lid)
    rng = random.Random(lid)
    targets = _targets(shapes, lid)
    assert {tg.groups for tg in targets} == set(oracle.targets(line)), "the expansion is the oracle's"
    refused = 0
    for tg in targets:
        tiles = _natural_hand(tg.groups)
        assert tiles is not None
        assert lid in [m.line.id for m in verify(shapes, _hand(tiles), explain=0).made]
        off = list(tiles)
        i = rng.choice([k for k, t in enumerate(off) if t != JOKER])
        off[i] = rng.choice([t for t in range(KINDS) if t != off[i] and off.count(t) < COPIES[t]])
        hand = _hand(off)
        fast = lid in [m.line.id for m in verify(shapes, hand, explain=0).made]
        assert fast == oracle.makes(line, hand.concealed, hand.concealed_jokers, [])
        refused += not fast
    assert refused >= len(targets) * 0.9, "a hand one tile off is refused (but where it is another hand of the line)"


def _shared(tg) -> set[int]:
    """Tile kinds that fill places in two different groups of the target."""
    seen: set[int] = set()
    shared: set[int] = set()
    for tiles, _ in tg.blocks:
        for t in set(tiles):
            (shared if t in seen else seen).add(t)
    return shared


@pytest.mark.parametrize("lid", ["OR", "ODDS", "DRAG", "WIND", "S13", "LIKE", "ONLY"])
def test_no_two_groups_are_filled_by_the_same_tiles(shapes, lid) -> None:
    for tg in _targets(shapes, lid):
        assert not _shared(tg), f"{lid}: {tg.blocks} fills two groups with one tile"


def test_groups_share_a_tile_only_where_the_line_says_so(shapes) -> None:
    """S23 says 'any 2 or 3 suits' (two years may share a suit); RUN says the pair is a number of
    the run (Xa beside 12345a); nothing else is shared."""
    for tg in _targets(shapes, "S23"):
        if _shared(tg):
            suits = re.findall(r"= (\w+)", tg.binding)
            assert len(set(suits)) < len(suits), tg.binding
    for tg in _targets(shapes, "RUN"):
        pair = next(tiles for tiles, _ in tg.blocks if len(tiles) == 1)
        assert _shared(tg) == set(pair)


def test_a_bare_d_line_said_different_never_repeats_a_dragon_while_any_does(tmp_path) -> None:
    path = tmp_path / "c.yaml"
    path.write_text("card: c\nsections:\n  - name: s\n    lines:\n"
                    '      - {id: ANY, groups: "FF 789a DD DDD DDDD", value: 25, dragons: any}\n'
                    '      - {id: DIF, groups: "FF 789a DD DDD DDDD", value: 25, dragons: different}\n', encoding="utf-8")
    idx = load(str(path))
    assert made(idx, "FF 789C RR RRJ JJJJ") == ["ANY"]
    assert sorted(made(idx, "FF 789C RR GGG 0000")) == ["ANY", "DIF"]
    for tg in _targets(idx, "DIF"):
        dragons = [tiles[0] for tiles, _ in tg.blocks if tiles[0] in (27, 28, 29)]
        assert len(dragons) == len(set(dragons)) == 3


# --- the practice card as printed stands for the hands of its long form ---

def _by_line(path: Path) -> dict[str, set]:
    card, problems, _, raw = check(path)
    assert not problems, problems
    return {line.id: {g for g, *_ in found} for line, found in zip(card.lines, raw)}


def test_the_practice_card_as_printed_has_the_long_forms_hands_line_by_line() -> None:
    printed = _by_line(ROOT / "cards" / "practice.yaml")
    long_form = _by_line(HERE / "data" / "practice-long-form.yaml")
    assert list(printed) == list(long_form)
    for lid in printed:
        assert printed[lid] == long_form[lid], lid
    assert sum(len(h) for h in printed.values()) == 1411


def test_the_practice_card_is_typed_as_printed() -> None:
    text = (ROOT / "cards" / "practice.yaml").read_text(encoding="utf-8")
    assert "shift:" not in text.split("sections:")[1], "consecutive and like lines say it with the card's note"
    assert '"11 222 3333 444 55"' in text and "Any 5 Consec. Nos." in text
    assert " + " in text and "display:" not in text.split("sections:")[1]
    assert "groups: [" in text


# --- the README's walkthrough: as printed and in long form, the same hands ---

def _readme_cards(tmp_path: Path) -> tuple[Path, Path]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"<!-- card: (printed|long) -->\s*```yaml\n(.*?)```", readme, re.S)
    assert [kind for kind, _ in blocks] == ["printed", "long"], "the README keeps its two card blocks"
    paths = []
    for kind, body in blocks:
        p = tmp_path / f"{kind}.yaml"
        p.write_text(body, encoding="utf-8")
        paths.append(p)
    return paths[0], paths[1]


def test_the_readme_walkthrough_as_printed_gives_the_long_forms_hands(tmp_path) -> None:
    printed, long_form = _readme_cards(tmp_path)
    a, b = _by_line(printed), _by_line(long_form)
    assert list(a) == list(b) and all(a[lid] == b[lid] for lid in a)
    assert len(a) >= 5


# --- card check: every error, hints at the usual slips, warnings, examples ---

HEAD = "card: c\nvalues: {min: 25, max: 75}\nsections:\n  - name: s\n    lines:\n"


def _check(cli, tmp_path, *lines: str):
    path = tmp_path / "c.yaml"
    path.write_text(HEAD + "".join(f"      - {ln}\n" for ln in lines), encoding="utf-8")
    return cli("card", "check", str(path))


def test_card_check_warns_on_repeated_bare_dragons_and_winds_and_says_what_the_line_means(cli, tmp_path) -> None:
    r = _check(cli, tmp_path, '{id: D1, groups: "FF 789a DD DDD DDDD", value: 25, note: "Dragons"}',
               '{id: Z1, groups: "FFFF ZZZ ZZZ 1111a", value: 25, note: "Winds"}',
               '{id: D2, groups: "FF 789a DD DDD DDDD", value: 25, dragons: different}',
               '{id: D3, groups: "FF 789a DD DDD DDDD", value: 25, note: "Any 3 Dragons"}',
               '{id: Z2, groups: "FFFF ZZZ ZZZ 1111a", value: 25, winds: any, note: "Same wind or two"}')
    assert r.exit_code == 0
    assert "line D1: three 'any dragon' groups (bare D): as written they may be the same dragon" in r.output
    assert "dragons: different" in r.output and "line Z1: two 'any wind' groups" in r.output
    assert not re.search(r"line (D2|D3|Z2): \w+ 'any", r.output)


def test_card_check_warns_on_a_variable_line_without_a_note(cli, tmp_path) -> None:
    r = _check(cli, tmp_path, '{id: R1, groups: "11a 222a 3333a 444a 55a", shift: any, value: 25}',
               '{id: R2, groups: "11 222 3333 444 55", value: 25, note: "Any 5 Consec. Nos."}',
               '{id: P1, groups: "FF 2033a 3333b 3333c", value: 25}')
    assert "line R1 varies (any consecutive run; any 1 suit) but has no note" in r.output
    assert "line R2 varies" not in r.output and "line P1 varies" not in r.output


def test_card_check_reports_every_error_of_a_line_with_hints(cli, tmp_path) -> None:
    r = _check(cli, tmp_path, '{id: L1, groups: "1111A 4444D 5555b+ J 11a", value: 25, suits: "4 or 5", vars: {X: run}}')
    assert r.exit_code == 1
    out = r.output
    assert "suit letters are lower-case (a)" in out
    assert "'D' in '4444D' is a dragon in a card line; suits are a, b, c" in out
    assert "decorations go in display:" in out and "J is a joker" in out
    assert "suits is one of" in out and "variable X is declared but not used" in out
    assert len([ln for ln in out.splitlines() if "line L1" in ln]) >= 5


def test_a_group_typed_without_its_space_gets_a_message_about_spacing(cli, tmp_path) -> None:
    r = _check(cli, tmp_path, '{id: L1, groups: "FF 111aDDDa 2222b 3333c", value: 25}',
               '{id: L2, groups: "111a222a 3333b 4444c", value: 25}')
    assert "put a space between them (111 DDD, not 111DDD)" in r.output
    assert "'111a222a' reads as 6 singles" in r.output


def test_a_group_typed_unspaced_as_printed_is_told_about_spacing_not_suits_or_counts(cli, tmp_path) -> None:
    r = _check(cli, tmp_path, '{id: L1, groups: "FF 111DDD 2222 3333", value: 25}')
    assert r.exit_code == 1
    assert "'111DDD' is 2 groups printed side by side; put a space between them (111 DDD)" in r.output
    assert "is a dragon in a card line" not in r.output and "a hand is 14" not in r.output


def test_a_setting_and_the_note_that_disagree_are_refused(cli, tmp_path) -> None:
    r = _check(cli, tmp_path, '{id: L1, groups: "11a 222a 3333a 444a 55a", shift: [0], value: 25, note: "Any 5 Consec. Nos."}',
               '{id: L2, groups: "11a 222a 3333a 444a 55a", value: 25, note: "Any 4 Consec. Nos."}',
               '{id: L3, groups: "11a 222b 3333a 444b 55a", value: 25, note: "Any 3 Suits"}')
    assert r.exit_code == 1
    assert "line L1: the note 'Any 5 Consec. Nos.' says shift: any, but the line says shift: [0]" in r.output
    assert "asks for 4 consecutive numbers, but the line prints 5" in r.output
    assert "line L3: suits 3, but the line has 2 suit letters" in r.output


def test_examples_show_one_hand_per_line_and_mark_those_needing_jokers(cli) -> None:
    r = cli("card", "check", str(SHAPES), "--examples")
    assert r.exit_code == 0
    rows = {ln.split()[0]: ln for ln in r.output.splitlines() if ln.startswith("  ")}
    assert set(rows) == {"OR", "ODDS", "DRAG", "WIND", "RUN", "S13", "S23", "LIKE", "ONLY"}
    assert "FF 789B GG RRR 0000" in rows["DRAG"] and "joker" not in rows["DRAG"]
    q = cli("card", "check", "cards/practice.yaml", "--examples").output
    assert re.search(r"Q4 +NNNNJ 9999JB 0000  needs 2 jokers", q)
    for line in q.splitlines():
        if line.startswith("  ") and "needs" not in line:
            lid, hand = re.split(r"\s{2,}", line.strip())[:2]
            assert lid in made(load("practice"), hand), line


def test_card_show_says_what_makes_each_line_vary(cli) -> None:
    r = cli("card", "show", str(SHAPES))
    text = " ".join(r.output.split())
    assert "varies: any consecutive run; any 1 suit" in text or "varies: 2 forms (-or-); any consecutive run; any 1 suit" in text
    assert "X any number of the run" in text and "any dragons, each a different one" in text
    assert "-or-" in r.output and "the 3s may be 3, 6 or 9" in text
    doc = cli("card", "show", str(SHAPES), "--json").output
    assert '"varies": [' in doc
