"""Nothing the tool says to a judge genders a player (issue 24 §4): it says 'the player', 'they',
the role's name or the seat. Checked on the rulings as printed (every path of every ruleset, seats
named and seats open) and on everything a judge reads before the ruling: each ruleset's title and
description, each situation's title, summary and help, each question's ask, help, choice labels
and quick-sheet wording, each role's question and label.

The same holds for the other text we wrote that the tool prints: every table custom the house
wizard offers (its prompts, rulings and worked examples), and each scenario's title and caveat
(the booklet's worked examples, the quiz's key).

Exempt, on purpose: a situation's `aliases` are the words judges type to find it ("she dropped
out" is how a judge says it), never printed as the tool's own words; a source's title is its
publisher's; a scenario's story, published question and source are the askers' and answerers'
own words ("call her dead") and may say 'she'."""
from __future__ import annotations

import re

import pytest

from collections.abc import Iterator
from typing import Any

from leafwalk import RULESETS, printed, ruled
from referee.rules.loader import load_strict
from referee.rules.model import GROUPS, FactDef, RoleDef
from referee.rules.folders import data_dir
from referee.rules.ruleset import Ruleset
from referee.rules.yamlload import read

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


def _question(where: str, d: FactDef | RoleDef) -> Iterator[tuple[str, str]]:
    yield f"{where}.ask", d.ask
    yield f"{where}.help", d.help
    if isinstance(d, RoleDef):
        yield f"{where}.label", d.label
        return
    for value, label in (d.choices or {}).items():
        yield f"{where}.choices.{value}", label
    for value, said in (d.short or {}).items():
        yield f"{where}.short.{value}", said


def read_before_the_ruling(rs: Ruleset) -> Iterator[tuple[str, str]]:
    """(where, text) for every field the tool prints to a judge from the ruleset besides the
    rulings: at the prompt, in `show`, `search`, `list`, on the phone page and in the handouts.
    Not `aliases` (the judges' words) nor a source's title (its publisher's)."""
    yield "title", rs.meta.title
    yield "description", rs.meta.description
    for custom in rs.meta.customs:
        yield f"customs.{custom.id}", f"{custom.rule} {custom.says}"
    for key, source in rs.sources.items():
        yield f"sources.{key}.note", source.note or ""
    for fid, d in rs.facts.items():
        yield from _question(f"facts.{fid}", d)
    for sid, sit in rs.situations.items():
        yield f"{sid}.title", sit.title
        yield f"{sid}.summary", sit.summary
        yield f"{sid}.help", sit.help
        for role, r in sit.roles.items():
            yield from _question(f"{sid}.roles.{role}", r)
        for fid, d in sit.facts.items():
            yield from _question(f"{sid}.facts.{fid}", d)


@pytest.mark.parametrize("rid", RULESETS)
def test_nothing_read_before_the_ruling_genders_a_player(rid: str) -> None:
    found = [f"{rid}: {where}: {text}" for where, text in read_before_the_ruling(load_strict(rid)) if GENDERED.search(text)]
    assert not found, "\n".join(found[:15]) + f"\n({len(found)} fields)"


def test_the_prompt_check_reads_every_kind_of_field() -> None:
    """The walk reaches each kind of printed field in the shipped rulesets, so the check above
    cannot pass by looking at nothing; and the aliases it leaves alone do say 'she'."""
    kinds = {where.rsplit(".", 2)[-2] if ".choices." in where or ".short." in where else where.rsplit(".", 1)[-1]
             for rid in RULESETS for where, text in read_before_the_ruling(load_strict(rid)) if text}
    assert {"title", "description", "summary", "help", "ask", "label", "choices", "short"} <= kinds, kinds
    nmjl = load_strict("nmjl")
    assert any(GENDERED.search(a) for sit in nmjl.situations.values() for a in sit.aliases)


def _strings(value: Any, where: str) -> Iterator[tuple[str, str]]:
    """Every string in a custom's YAML, with its place; not its aliases nor its sources' titles."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k != "aliases" and not (k == "title" and where.split(".")[-2:-1] == ["sources"]):
                yield from _strings(v, f"{where}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _strings(v, f"{where}.{i}")
    elif isinstance(value, str):
        yield where, value


def test_no_table_custom_genders_a_player() -> None:
    """What the house wizard offers and writes: a custom's description and sentence, its
    question, its situations' prompts and rulings, its worked examples."""
    from referee.house.catalogue import CUSTOMS_DIR

    files = sorted(CUSTOMS_DIR.glob("*.yaml"))
    assert len(files) > 5
    found = [f"{where}: {text}" for f in files for where, text in _strings(read(f).data, f.stem) if GENDERED.search(text)]
    assert not found, "\n".join(found[:15]) + f"\n({len(found)} strings)"


def test_no_scenario_title_or_caveat_genders_a_player() -> None:
    """A scenario's title and caveat are ours (the booklet's worked examples, the quiz's key);
    its story, published question and source are the askers' and answerers' words."""
    folder = data_dir("scenarios")
    files = sorted(folder.rglob("*.yaml"))
    assert len(files) > 500
    found = []
    for f in files:
        data = read(f).data
        said = [data.get("title") or "", ((data.get("caveat") or {}).get("note") or "")]
        found += [f"{f.relative_to(folder)}: {text}" for text in said if GENDERED.search(text)]
    assert not found, "\n".join(found[:15]) + f"\n({len(found)} scenarios)"
