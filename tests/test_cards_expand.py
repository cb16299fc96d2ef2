"""The fast expansion against the plain oracle's brute force (tests/cards_oracle.py), line by line.

expand.py resolves a block by arithmetic on the binding, skips suit bindings that only rename
the letters of an earlier one, and tells a way met twice by one packed sum: each is a shortcut
a wrong assumption would break silently (a dragon no longer the suit's dragon, two letters not
interchangeable after all). The oracle tries every suit map, shift and number and keeps what the
tiles can build, so every line of the practice card and of generated lines (suit counts, shifts,
variables, constraints, picks, forms) must give the same set of targets, each once.
"""
from __future__ import annotations

import random

import pytest
import yaml

from referee.cards import load, store
from referee.cards.expand import raw_targets
from referee.cards.tiles import COPIES, JOKERS

import cards_oracle as oracle


def _buildable(groups: tuple[tuple[int, int, bool], ...]) -> bool:
    """The 152 tiles can make it: no-joker places within a tile's copies, at most 8 jokers beside."""
    natural, every = [0] * len(COPIES), [0] * len(COPIES)
    for t, size, jok in groups:
        every[t] += size
        if not jok:
            natural[t] += size
    return (all(n <= c for n, c in zip(natural, COPIES))
            and sum(max(0, n - c) for n, c in zip(every, COPIES)) <= JOKERS)


def _same_as_the_oracle(line) -> None:  # noqa: ANN001
    found = [target[0] for target in raw_targets(line)]
    assert len(found) == len(set(found)), f"line {line.id}: a target is made twice"
    assert set(found) == {g for g in oracle.targets(line) if _buildable(g)}, f"line {line.id} ({line.groups})"


@pytest.mark.parametrize("line", load("practice").card.lines, ids=lambda ln: ln.id)
def test_every_practice_line_expands_as_the_oracle_does(line) -> None:  # noqa: ANN001
    _same_as_the_oracle(line)


def _group(rng: random.Random, size: int) -> str:
    if size >= 2 and rng.random() < 0.15:  # singles shown together
        return "".join(rng.sample("1234567890", size)) + rng.choice(["a", "b", "c", ""])
    suit, kind = rng.choice("abc"), rng.random()
    if kind < 0.45:
        body = str(rng.randint(1, 9)) * size + suit
    elif kind < 0.55:
        body = rng.choice("XY") * size + suit
    elif kind < 0.65:
        body = "D" * size + rng.choice([suit, ""])
    elif kind < 0.72:
        body = "Z" * size
    elif kind < 0.8:
        body = "F" * size
    elif kind < 0.9:
        body = rng.choice("NEWSRG0") * size
    else:
        body = str(rng.randint(1, 9)) * size
    return body + ("!" if size >= 3 and rng.random() < 0.1 else "")


def _line(rng: random.Random, i: int) -> dict:
    forms = []
    for _ in range(1 if rng.random() < 0.85 else 2):
        left, groups = 14, []
        while left:
            size = min(left, rng.choice([1, 2, 2, 3, 3, 4, 4, 5, 6]))
            text = _group(rng, size)
            if size >= 3 and rng.random() < 0.1:
                text += "|" + _group(rng, size)
            groups.append(text)
            left -= size
        forms.append(" ".join(groups))
    line: dict = {"id": f"L{i}", "groups": forms[0] if len(forms) == 1 else forms, "value": 25}
    if rng.random() < 0.4:
        line["suits"] = rng.choice(["distinct", "one-or-distinct", "any", "1", "2", "3", "1 or 2", "1 or 3", "2 or 3"])
    if rng.random() < 0.4:
        line["shift"] = rng.choice(["any", "even", [0, 1], [0, 3, 6], [0, -1]])
    names = sorted({c for c in " ".join(forms) if c in "XY"})
    if names:
        line["vars"] = {n: rng.choice(["any", "even", "odd", "run", [1, 5, 9]]) for n in names}
        if len(names) == 2 and rng.random() < 0.3:
            line["vars"]["Y"] = rng.choice(["X+1", "X-2"])
        if len(names) == 2 and rng.random() < 0.3:
            line["constraints"] = [rng.choice(["same-parity X Y", "X < Y", "X != Y", "X == Y"])]
        if rng.random() < 0.3:
            line["distinct_vars"] = False
    for key in ("dragons", "winds"):
        if rng.random() < 0.2:
            line[key] = rng.choice(["any", "different"])
    return line


@pytest.mark.parametrize("seed", range(12))
def test_generated_lines_expand_as_the_oracle_does(seed, tmp_path) -> None:  # noqa: ANN001
    rng = random.Random(seed)
    lines = [_line(rng, i) for i in range(80)]
    path = tmp_path / "card.yaml"
    path.write_text(yaml.safe_dump({"card": "fuzz", "title": "Fuzz", "values": {"min": 25, "max": 75},
                                    "sections": [{"name": "One", "lines": lines}]}, sort_keys=False))
    card, *_ = store.check(path)
    expanded = [line for line in card.lines if not line.broken]
    assert len(expanded) >= 12, "the generator should make mostly lines that can be read"
    for line in expanded:
        _same_as_the_oracle(line)
