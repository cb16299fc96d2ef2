"""Each event rules from its own published sheet (issue 23, section 1).

- a ruling that states a number and cites a sheet giving another number fails `check`;
- an event's ruleset cites no other event's sheet;
- every rule of an event's sheet has an entry in its coverage map, and every entry exists.
"""
from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest

from referee.rules import loader
from referee.lint.checks import lint
from referee.rules.loader import data_dir

RULESETS = data_dir("rulesets")
SHIPPED = sorted(p.name for p in RULESETS.iterdir() if (p / "ruleset.yaml").is_file())


def _load(folder: Path) -> loader.Ruleset:
    rs, problems = loader.load(folder)
    assert rs is not None, problems
    return rs


def _overlay(tmp_path: Path, body: str, name: str = "planted") -> Path:
    folder = tmp_path / name
    folder.mkdir()
    (folder / "ruleset.yaml").write_text(body, encoding="utf-8")
    return folder


def _event(tmp_path: Path, scoring: str, name: str = "planted") -> loader.Ruleset:
    """An event overlay on the common base that changes only its scoring."""
    head = f"id: {name}\ntitle: {name}\nversion: '1'\nextends: tournament\nscoring:\n"
    return _load(_overlay(tmp_path, head + textwrap.indent(textwrap.dedent(scoring), "  "), name))


def test_a_planted_contradiction_fails_the_citation_check(tmp_path: Path) -> None:
    # An event charging 30 for three exposures, inheriting rulings that cite Destination's sheet (25).
    rs = _event(tmp_path, """\
        discarder_penalties:
          - {exposures: 0, points: -10}
          - {exposures: 2, points: -20}
          - {exposures: 3, points: -30}
        """)
    messages = [p.message for p in lint(rs)]
    hit = [m for m in messages if m.startswith("ruling T-VMJ-1 ") and "cites DEST" in m]
    assert hit, messages[:5]
    assert "-30 from 3 exposures" in hit[0] and "whose sheet gives" in hit[0] and "-25 from 3 exposures" in hit[0]


def test_a_planted_penalty_contradiction_fails_too(tmp_path: Path) -> None:
    messages = [p.message for p in lint(_event(tmp_path, "penalties: {peek_penalty: -15}\n"))]
    assert any(m.startswith("ruling T-BPP-2 states the peek penalty as -15") and "cites DEST" in m for m in messages), messages


def test_an_agreeing_number_passes(tmp_path: Path) -> None:
    assert not [p for p in lint(_event(tmp_path, "penalties: {peek_penalty: -10}\n", "agreeing")) if "whose sheet gives" in p.message]


@pytest.mark.parametrize("name", SHIPPED)
def test_every_shipped_ruleset_passes_the_citation_check(name: str) -> None:
    rs = _load(RULESETS / name)
    found = [str(p) for p in lint(rs) if "whose sheet gives" in p.message or "another event's sheet" in p.message]
    assert not found, "\n".join(found)


def test_an_event_may_not_cite_another_events_sheet(tmp_path: Path) -> None:
    folder = _overlay(tmp_path, "id: own-sheet\ntitle: Own sheet\nversion: '1'\nextends: tournament\nsheet: [CRAK]\n", "own-sheet")
    shutil.copy(RULESETS / "tournament-crak" / "coverage.yaml", folder / "coverage.yaml")
    messages = [p.message for p in lint(_load(folder))]
    assert any("cites DEST, another event's sheet" in m for m in messages), messages[:5]


def _events() -> list[str]:
    return [n for n in SHIPPED if _load(RULESETS / n).meta.sheet]


@pytest.mark.parametrize("name", ["tournament-destination", "tournament-crak", "tournament-mahjcon", "tournament-fourseasons",
                                  "tournament-mjmadness", "online", "tournament-online"])
def test_events_named_in_the_issue_have_maps(name: str) -> None:
    assert (RULESETS / name / "coverage.yaml").is_file()
    assert _load(RULESETS / name).meta.sheet


def test_a_sheet_rule_without_an_entry_fails(tmp_path: Path) -> None:
    folder = tmp_path / "tournament-destination"
    shutil.copytree(RULESETS / "tournament-destination", folder)
    text = (folder / "coverage.yaml").read_text(encoding="utf-8")
    start = text.index('    "Calling":')
    end = text.index('    "Jokers":')
    (folder / "coverage.yaml").write_text(text[:start] + text[end:], encoding="utf-8")
    messages = [p.message for p in lint(_load(folder))]
    assert any(m.startswith("DEST: the sheet's rule 'Calling' has no entry") for m in messages), messages


def test_an_entry_naming_nothing_fails(tmp_path: Path) -> None:
    folder = tmp_path / "tournament-destination"
    shutil.copytree(RULESETS / "tournament-destination", folder)
    text = (folder / "coverage.yaml").read_text(encoding="utf-8").replace("ruling: DST-CALL-1", "ruling: DST-CALL-9")
    (folder / "coverage.yaml").write_text(text, encoding="utf-8")
    problems = lint(_load(folder))
    bad = [p for p in problems if "'DST-CALL-9' is not a ruling" in p.message]
    assert bad and bad[0].place.path.endswith("coverage.yaml") and bad[0].place.line > 1


def test_an_event_without_a_map_fails(tmp_path: Path) -> None:
    folder = tmp_path / "tournament-destination"
    shutil.copytree(RULESETS / "tournament-destination", folder)
    (folder / "coverage.yaml").unlink()
    assert any("has no coverage.yaml" in p.message for p in lint(_load(folder)))


@pytest.mark.parametrize("name", SHIPPED)
def test_every_shipped_map_is_whole(name: str) -> None:
    rs = _load(RULESETS / name)
    found = [str(p) for p in lint(rs) if "coverage.yaml" in p.place.path or "coverage.yaml" in p.message]
    assert not found, "\n".join(found)
def test_every_read_sheet_has_its_own_ruleset() -> None:
    rs = _load(RULESETS / "nmjl")
    read = {k for k, s in rs.sources.items() if s.event and s.sections}
    owned = {k for n in _events() for k in _load(RULESETS / n).meta.sheet}
    assert read <= owned, f"sheets read but ruled by no ruleset: {sorted(read - owned)}"




def test_rulesets_lists_each_event_with_its_own_sheet_and_online_play() -> None:
    from typer.testing import CliRunner

    from referee.cli import app

    result = CliRunner().invoke(app, ["rulesets", "--json"])
    assert result.exit_code == 0, result.output
    rows = {row["id"]: row for row in __import__("json").loads(result.stdout)}
    assert rows["tournament-destination"]["sheet"] == ["DEST"]
    assert rows["tournament-crak"]["sheet"] == ["CRAK"]
    assert rows["tournament-mjmadness"]["sheet"] == ["MJMP"]
    assert "ILM-TIMER" in rows["online"]["sheet"] and "TMT" in rows["tournament-online"]["sheet"]
    assert rows["tournament"]["sheet"] == []  # the common base is nobody's sheet
    text = CliRunner().invoke(app, ["rulesets"]).stdout
    assert "tournament-destination" in text and "its own sheet: DEST" in text


def test_a_directors_number_defaults_to_the_sheets_own() -> None:
    # --no-input (and every scenario) takes the question's default; an answer overrides it
    import json

    from typer.testing import CliRunner

    from referee.cli import app

    base = ["rule", "blind-pass-peek", "-r", "tournament-crak", "-a", "bpp_saw_face=yes", "--seat", "peeker=West",
            "--no-input", "--no-log", "--json"]
    got = CliRunner().invoke(app, base)
    assert got.exit_code == 0, got.output
    assert {p["to"]["seat"]: p["points"] for p in json.loads(got.stdout)["points"]} == {"West": 0}
    got = CliRunner().invoke(app, [*base, "-a", "crk_peek_points=-10"])
    assert {p["to"]["seat"]: p["points"] for p in json.loads(got.stdout)["points"]} == {"West": -10}


def test_the_phone_page_takes_the_default_for_a_blank_number() -> None:
    pytest.importorskip("starlette")
    from referee.ruling.engine import Question
    from referee.web.walk import _value

    rs = _load(RULESETS / "tournament-crak")
    fact = rs.fact("crk_peek_points", "blind-pass-peek")
    assert fact is not None and fact.default == 0
    assert _value(Question("crk_peek_points", fact, "blind-pass-peek", "no_penalty"), [""]) == 0
    assert _value(Question("crk_peek_points", fact, "blind-pass-peek", "no_penalty"), ["-10"]) == -10


def test_where_the_sheet_is_silent_a_note_says_so_and_the_base_rules() -> None:
    # Destination's sheet says nothing of a game unfinished at time: the base rules (0 each), with a note
    r = _load(RULESETS / "tournament-destination").situations["time-called"].nodes["zero"].ruling  # type: ignore[union-attr]
    assert [c.source for c in r.cite] == ["S-465"]
    assert any("Destination's sheet says nothing more" in n for n in r.notes), r.notes
    # Four Seasons' scoring could not be read: the common figures, cited as such and noted
    r = _load(RULESETS / "tournament-fourseasons").situations["valid-mahjong"].nodes["on_discard"].ruling  # type: ignore[union-attr]
    assert [c.source for c in r.cite] == ["COMMON-PTS"] and any("could not be read" in n for n in r.notes)
