"""Every 'KEY: section' citation is checked against the headings its source lists; the sources
that list none are named by `referee check --sections`, so a reader knows what was not checked."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from clirun import Run
from referee.rules import loader
from referee.lint.checks import lint, unlisted_sections
from referee.cli import app
from referee.rules.loader import load_strict


def referee(*args: str) -> Run:
    return Run(CliRunner().invoke(app, list(args)))


@pytest.mark.parametrize("key", ["AMJA-CHARL", "AMJA-JOKER", "AMJA-JOKERERR", "AMJA-CLAIMERR", "MC-RULES"])
def test_the_guides_cited_by_heading_list_their_headings(key: str) -> None:
    rs = load_strict("nmjl")
    assert rs.sources[key].sections, f"{key} lists no sections, so its citations are not checked"
    assert key not in unlisted_sections(load_strict("tournament-mahjcon"))


def test_check_sections_names_the_sources_that_list_none_and_only_those() -> None:
    r = referee("check", "nmjl", "--sections")
    assert r.code == 0, r.stdout + r.stderr
    listed = {line.split(":")[0].strip() for line in r.stderr.splitlines() if line.startswith("  ")}
    assert "S-595" in listed and "AMJA-DEAD" in listed
    assert not listed & {"AMJA-PLAY", "AMJA-CHARL", "CARD", "MC-RULES"}, listed


def test_a_cited_section_missing_from_the_list_is_a_problem_and_an_unlisted_source_is_reported(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFEREE_RULESETS", str(tmp_path))
    loader._CACHE.clear()
    folder = tmp_path / "ours"
    (folder / "situations").mkdir(parents=True)
    (folder / "ruleset.yaml").write_text(textwrap.dedent("""\
        id: ours
        title: Ours
        version: '1'
        sources:
          GUIDE: {title: A guide, sections: ["Picking"]}
          LETTER: {title: A letter}
        """))
    (folder / "situations" / "tiny.yaml").write_text(textwrap.dedent("""\
        id: tiny
        title: A tiny situation
        phase: play
        summary: Something small.
        start: fine
        nodes:
          fine:
            ruling:
              id: T-1
              says: Nothing happens.
              game: continues
              cite: ["GUIDE: Pickng", "LETTER: its second paragraph"]
        """))
    rs = load_strict("ours")
    assert [p.message for p in lint(rs) if "section" in p.message] == [
        "ruling 'T-1' cites 'Pickng', which is not a section of GUIDE; did you mean 'Picking'?"]
    assert unlisted_sections(rs) == {"LETTER": {"its second paragraph"}}
