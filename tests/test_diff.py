"""`referee diff`: every path of every situation in two rulesets, and where they differ."""
from __future__ import annotations

import json

from referee.diff import diff
from referee.loader import load_strict


def test_same_ruleset_has_no_differences():
    r = diff(load_strict("nmjl"), load_strict("nmjl"))
    assert r.differing == [] and r.only_in_a == [] and r.only_in_b == [] and r.paths > 0


def test_nmjl_vs_card_game():
    r = diff(load_strict("nmjl"), load_strict("card-game"))
    by_id = {s.id: s for s in r.differing}
    two = [d for d in by_id["wrong-tile-count"].differences if d.answers.get("miscounted_players") == "two"]
    assert two and two[0].a.game == "continues" and two[0].b.game == "replay"
    assert len(two[0].a.dead) == 2 and two[0].b.dead == []
    dc = by_id["dead-challenge-contested"].differences
    assert any("payments" in d.differs for d in dc)
    assert "death-penalty" in r.only_in_b


def test_tournament_organizers_differ_on_exposure_penalty():
    r = diff(load_strict("tournament"), load_strict("tournament-crak"))
    vm = {s.id: s for s in r.differing}["valid-mahjong"]
    d = [d for d in vm.differences if d.answers.get("winner_exposures") == 3]
    assert d and "points" in d[0].differs


def test_cli_diff(cli):
    r = cli("diff", "nmjl", "card-game")
    assert r.exit_code == 0, r.output
    assert "wrong-tile-count" in r.output and "dead-challenge-contested" in r.output
    assert "only in card-game" in r.output
    r = cli("diff", "nmjl", "card-game", "--json")
    data = json.loads(r.output)
    assert data["a"] == "nmjl" and "death-penalty" in data["only_in_b"]
    assert any(s["id"] == "wrong-tile-count" for s in data["situations"])
