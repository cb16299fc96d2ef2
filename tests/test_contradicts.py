"""A ruleset true to its own source (issue 23, section 5): an inherited ruling that the ruleset's
own source rules otherwise on is listed under that source's `contradicts:`, `check` fails while
the ruleset still inherits it unchanged, and `referee diff` reports each one with what replaced it.
"""
from __future__ import annotations

import json
from pathlib import Path

from referee.lint.checks import lint
from referee.lint.sheets import contradicted
from referee.rules import loader


def _overlay(tmp_path: Path, body: str, patch: str | None = None) -> Path:
    folder = tmp_path / "planted"
    folder.mkdir()
    (folder / "ruleset.yaml").write_text(body, encoding="utf-8")
    if patch:
        (folder / "situations").mkdir()
        (folder / "situations" / "misnamed-joker.yaml").write_text(patch, encoding="utf-8")
    return folder


PLANTED = """\
id: planted
title: Planted
version: '1'
extends: nmjl
sources:
  CARD:
    contradicts:
      - ruling: MNJ-3
        section: "Misnaming a discard"
        says: "A misnamed card called for a set cannot be taken and nobody is penalized."
"""

PATCH = """\
patch: misnamed-joker
nodes:
  caller_dead:
    ruling:
      id: PL-MNJ-3
      says: "{caller} cannot take the joker, and nobody is penalized; play goes on."
      game: continues
      cite: ["CARD: Misnaming a discard"]
"""


def _problems(folder: Path) -> list[str]:
    rs, problems = loader.load(folder)
    assert rs is not None and not problems, problems
    return [f"{p.place}: {p.message}" for p in lint(rs)]


def test_card_game_lists_what_its_source_contradicts_and_replaces_each() -> None:
    rs = loader.load_strict("card-game")
    found = {x.entry.ruling: x for x in contradicted(rs)}
    assert {"MNJ-3", "MVX-2", "MVX-3", "SMJ-5", "BPP-2", "TC-2"} <= set(found)
    assert found["MNJ-3"].now == "CG-MNJ-3" and found["MNJ-3"].situation == "misnamed-joker"
    assert not [x.entry.ruling for x in found.values() if x.unchanged or not x.known]
    assert not [p for p in lint(rs) if "contradict" in p.message]


def test_the_base_is_not_held_to_an_overlays_list() -> None:
    assert contradicted(loader.load_strict("nmjl")) == []
    assert "MNJ-3" in {n.ruling.id for s in loader.load_strict("nmjl").situations.values()
                       for n in s.nodes.values() if hasattr(n, "ruling")}


def test_a_planted_contradiction_left_unchanged_fails_the_check(tmp_path: Path) -> None:
    problems = _problems(_overlay(tmp_path, PLANTED))
    hits = [p for p in problems if "MNJ-3" in p]
    assert len(hits) == 1, problems
    assert "ruleset.yaml:8:" in hits[0] and "inherited from 'nmjl' unchanged" in hits[0]
    assert "CARD (Misnaming a discard)" in hits[0] and "situations/misnamed-joker.yaml" in hits[0]


def test_patching_the_ruling_settles_it(tmp_path: Path) -> None:
    assert not [p for p in _problems(_overlay(tmp_path, PLANTED, PATCH)) if "MNJ-3" in p]


def test_an_entry_naming_no_base_ruling_or_section_fails(tmp_path: Path) -> None:
    body = PLANTED.replace("ruling: MNJ-3", "ruling: MNJ-33").replace('"Misnaming a discard"', '"Misnaming"')
    problems = _problems(_overlay(tmp_path, body))
    assert any("'MNJ-33' is not a ruling of 'nmjl'" in p for p in problems), problems
    assert any("'Misnaming' is not a section of CARD; did you mean 'Misnaming a discard'?" in p for p in problems), problems


def test_an_overlays_entry_adds_to_the_bases_source_without_repeating_it(tmp_path: Path) -> None:
    rs, _ = loader.load(_overlay(tmp_path, PLANTED))
    assert rs is not None
    base = loader.load_strict("nmjl").sources["CARD"]
    assert rs.sources["CARD"].title == base.title and rs.sources["CARD"].sections == base.sections
    assert [c.ruling for c in rs.sources["CARD"].contradicts] == ["MNJ-3"]


def test_check_fails_on_the_planted_ruleset_with_one_line_naming_the_place(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    folder = _overlay(tmp_path, PLANTED)
    r = cli("check", str(folder))
    assert r.exit_code != 0, r.output
    lines = [ln for ln in r.output.splitlines() if "MNJ-3" in ln]
    assert len(lines) == 1 and "ruleset.yaml:8:" in lines[0], r.output


def test_diff_reports_each_contradicted_ruling_and_what_replaced_it(cli) -> None:  # type: ignore[no-untyped-def]
    r = cli("diff", "nmjl", "card-game")
    assert r.exit_code == 0, r.output
    text = " ".join(r.output.split())
    assert "card-game's own sources contradict" in text
    assert "MNJ-3 -> CG-MNJ-3 (misnamed-joker) · CARD: Misnaming a discard" in text
    doc = json.loads(cli("diff", "nmjl", "card-game", "--json").output)
    rows = {row["ruling"]: row for row in doc["contradicted"]}
    assert rows["SMJ-5"]["now"] == "CG-SMJ-5" and rows["SMJ-5"]["unchanged"] is False
    assert rows["SMJ-5"]["ruleset"] == "card-game" and rows["SMJ-5"]["source"] == "CARD"


def test_diff_reports_a_ruling_left_unchanged(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    folder = _overlay(tmp_path, PLANTED)
    r = cli("diff", "nmjl", str(folder))
    text = " ".join(r.output.split())
    assert r.exit_code == 0, r.output
    assert "MNJ-3 (misnamed-joker) · planted still rules it as nmjl does; patch it (check fails)" in text, text
    assert "nobody is penalized" in text  # what the source says, where the ruleset must act
