"""A ruling never genders a player (issue 24 §4): it says 'the player', 'they', or the player's
name. Checked on the words printed, every path of every ruleset, seats named and seats open.
Quiz stories and published questions are the askers' own stories and may say 'she'; a ruling
may not."""
from __future__ import annotations

import re

import pytest

from leafwalk import RULESETS, printed, ruled
from referee.rules.loader import load_strict
from referee.rules.model import GROUPS

GENDERED = re.compile(r"\b(?:she|her|hers|herself|he|him|his|himself)\b", re.I)


def _gendered(lines: list[tuple[str, str]]) -> list[str]:
    return [f"[{title or 'ruling'}] {line}" for title, line in lines if GENDERED.search(line)]


@pytest.mark.parametrize("rid", RULESETS)
def test_no_ruling_genders_a_player(rid: str) -> None:
    found: dict[str, str] = {}
    for r in ruled(rid):
        for o in (r.named, r.open):
            if o is not None:
                for line in _gendered(printed(o)):
                    found.setdefault(line, r.where())
    assert not found, "\n".join(f"{where}: {line}" for line, where in list(found.items())[:15]) + f"\n({len(found)} lines)"


@pytest.mark.parametrize("rid", RULESETS)
def test_no_open_seat_reads_as_a_gendered_person(rid: str) -> None:
    """How a ruling names a seat left open ('the seat bet on', 'each other player')."""
    rs = load_strict(rid)
    labels = {d.label for sit in rs.situations.values() for d in sit.roles.values() if d.label} | set(GROUPS.values())
    assert not [x for x in labels if GENDERED.search(x)]


def test_the_check_sees_a_pronoun_in_every_place_a_ruling_prints() -> None:
    lines = [("", "East pays her 50."), ("Tiles and jokers", "His exposures stay up."), ("Notes", "if he wins")]
    assert len(_gendered(lines)) == 3
    assert not _gendered([("", "The player pays them; their hand is dead. Shelley hears the heresy.")])


def test_the_walk_renders_rulings_as_printed() -> None:
    """The walk reaches seats named and seats open: Ann at East is named, an open seat reads as its role."""
    paths = [r for rid in RULESETS for r in ruled(rid) if r.situation == "mahjong-in-error"]
    assert paths
    named = " ".join(line for _, line in printed(paths[0].named))
    assert re.search(r"\b(?:East|South|West|North) \((?:Ann|Bea|Cy|Dot)\)", named), named
    assert any(r.open is not None and "the declarer" in " ".join(line for _, line in printed(r.open)) for r in paths)
