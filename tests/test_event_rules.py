"""A tournament's ruling says what its points say, and an event's overlay cites the event's own
rules (`recite`), not another event's."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from clirun import Run
from referee.rules import loader
from referee.rules import model as m
from referee.lint.checks import lint
from referee.cli import app
from referee.rules.loader import load_strict

OTHER_EVENTS = ("DEST", "ILM-PTS", "CRAK", "TMT", "MJM")
OHD = ["rule", "-r", "tournament-mahjcon", "obvious-hand-discard", "-a", "mahjong_valid=yes", "-s", "winner=North",
       "-s", "discarder=South", "-a", "hand_value=25", "-a", "jokerless=no", "--no-input"]


def referee(*args: str) -> Run:
    return Run(CliRunner().invoke(app, list(args)))


def test_mahjcon_obvious_hand_discard_reads_out_points_not_the_leagues_money() -> None:
    r = referee(*OHD)
    assert r.code == 0, r.stderr
    said = " ".join(r.stdout[:r.stdout.index("Dead hands:")].split())
    assert "pays" not in said and "double" not in said, said
    assert "South, who threw the winning tile, loses points by how many exposures North had" in said
    points = r.stdout[r.stdout.index("Points:"):]
    assert "North: 25" in points and "East: 0" in points and "West: 0" in points


def test_mahjcon_obvious_hand_discard_cites_mahjcons_scoring_not_another_events() -> None:
    r = referee(*OHD, "--full")
    rule = r.stdout[r.stdout.index("Rule:"):]
    assert "MC-RULES, Scoring" in rule
    assert not [k for k in OTHER_EVENTS if k in rule], rule


def test_mahjcon_wall_game_cites_mahjcon_not_destination() -> None:
    r = referee("rule", "-r", "tournament-mahjcon", "wall-game", "-a", "last_discard_claimed=no", "-a", "wg_unfinished_claim=no",
                "--no-input", "--full")
    assert r.code == 0, r.stderr
    rule = r.stdout[r.stdout.index("Rule:"):]
    assert "MC-RULES, Scoring" in rule and "DEST" not in rule and "Destination" not in rule, rule


def test_no_mahjcon_ruling_cites_another_events_rules() -> None:
    rs = load_strict("tournament-mahjcon")
    foreign = [(sid, n.ruling.id, str(c)) for sid, sit in rs.situations.items() for n in sit.nodes.values()
               if isinstance(n, m.RulingNode) for c in n.ruling.cite if c.source.startswith(OTHER_EVENTS)]
    assert not foreign, foreign


def test_a_dropped_citation_leaves_a_note_that_mahjcon_is_silent() -> None:
    # UCL-3 cites Destination's rule on an uncalled tile; MahjCon's page defers to the League there
    rs = load_strict("tournament-mahjcon")
    r = rs.situations["unclear-claim"].nodes["too_late"].ruling  # type: ignore[union-attr]
    assert [str(c) for c in r.cite if c.source == "DEST"] == []
    assert any("MahjCon's rules say nothing more on this point" in n for n in r.notes), r.notes
    base = load_strict("tournament").situations["unclear-claim"].nodes["too_late"].ruling  # type: ignore[union-attr]
    assert any(c.source == "DEST" for c in base.cite)  # the overlay re-cites; the base is untouched


@pytest.mark.parametrize("rid", ["tournament", "tournament-crak", "tournament-mahjcon", "tournament-mjmadness"])
def test_no_points_ruleset_reads_out_a_money_amount(rid: str) -> None:
    rs = load_strict(rid)
    assert rs.scoring.kind == "points"
    money = [p.message for p in lint(rs) if "scores points: its text must say what the points say" in p.message]
    assert not money, money


@pytest.fixture
def events(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("REFEREE_RULESETS", str(tmp_path))
    loader._CACHE.clear()
    return tmp_path


def _overlay(root: Path, text: str) -> None:
    (root / "ev" / "situations").mkdir(parents=True)
    (root / "ev" / "ruleset.yaml").write_text(textwrap.dedent(text))


def test_a_points_overlay_that_inherits_a_money_sentence_is_told_where(events: Path) -> None:
    _overlay(events, """\
        id: ev
        title: An event
        version: '1'
        extends: nmjl
        scoring: {kind: points, unit: points}
        """)
    rs, problems = loader.load("ev")
    assert rs is not None and not problems
    said = [str(p) for p in lint(rs) if "OHD-1" in p.message]
    assert said and "obvious-hand-discard.yaml" in said[0] and "scores points" in said[0], said
    # a dead hand "pays the winner like any other loser" is money too: under points it scores
    for rid in ("DHR-1", "DCH-3", "DBP-2", "SDD-2", "SMJ-3"):
        assert any(f"ruling {rid} says" in p.message and "scores points" in p.message for p in lint(rs)), rid


def test_recite_naming_a_source_or_section_that_does_not_exist_is_reported(events: Path) -> None:
    _overlay(events, """\
        id: ev
        title: An event
        version: '1'
        extends: tournament
        recite:
          - {from: "DESTT: scoring", to: "MC-RULES: Scoring"}
          - {from: "DEST", to: "MC-RULES: Scorng"}
        """)
    rs, problems = loader.load("ev")
    assert rs is not None and not problems
    messages = [p.message for p in lint(rs) if "recite" in p.message]
    assert "recite names unknown source 'DESTT'" in messages
    assert "recite names 'Scorng', which is not a section of MC-RULES" in messages


def test_no_silence_note_where_the_ruling_cites_mahjcons_own_rule() -> None:
    # time-called cites MahjCon's scoring (an unfinished game scores 0) beside Crak's, which is dropped
    r = load_strict("tournament-mahjcon").situations["time-called"].nodes["zero"].ruling  # type: ignore[union-attr]
    assert [str(c) for c in r.cite] == ["MC-RULES, Scoring", "S-465"]
    assert not any("say nothing more" in n for n in r.notes), r.notes
