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


def test_card_game_differences_from_its_own_penalty_page():
    by_id = {s.id: s for s in diff(load_strict("nmjl"), load_strict("card-game")).differing}

    def paths(sid, **answers):
        return [d for d in by_id[sid].differences if all(d.answers.get(k) == v for k, v in answers.items())]

    # drawing ahead in tournament play is fatal even when the previous discard was claimed
    claimed = paths("picking-ahead", pa_discard_claimed="yes", cg_tournament_play="yes")
    assert claimed and all(d.b.ruling == "CG-PA-4" and d.b.dead for d in claimed)
    assert any(not d.a.dead for d in claimed)
    # a caller who showed nothing from her hand may back out even after taking the tile
    backed_out = paths("claim-change-of-mind", ccm_committed="yes", ccm_can_expose="no", cg_hand_exposed="no")
    assert backed_out and all(d.a.dead and not d.b.dead for d in backed_out)
    # an illegal-hand set has no remedy in the Card Game
    illegal = paths("invalid-exposure", iex_when="before_lock", iex_fixable="yes", cg_iex_problem="illegal_hand")
    assert illegal and all(not d.a.dead and d.b.dead for d in illegal)
    # a rival's claim on the card stops the game from simply going on after a false mah jongg
    rival = paths("mahjong-in-error", cg_after_discard_call="rival_exposure")
    assert rival and all(d.b.game == "replay" for d in rival)


def test_tournament_organizers_differ_on_exposure_penalty():
    r = diff(load_strict("tournament"), load_strict("tournament-crak"))
    vm = {s.id: s for s in r.differing}["valid-mahjong"]
    d = [d for d in vm.differences if d.answers.get("winner_exposures") == 3]
    assert d and "points" in d[0].differs


def test_an_outcome_without_scores_is_worded_in_each_rulesets_unit():
    from referee.diff import describe

    r = diff(load_strict("nmjl"), load_strict("tournament"))
    mje = {s.id: s for s in r.differing}["mahjong-in-error"]
    d = next(d for d in mje.differences if d.b.ruling == "T-MJE-6")
    assert describe(d.a, "cents").endswith("(cents)")
    assert describe(d.b, "points").endswith("no points")  # a tournament scores points, never pays


def test_cli_diff(cli):
    r = cli("diff", "nmjl", "card-game")
    assert r.exit_code == 0, r.output
    assert "wrong-tile-count" in r.output and "dead-challenge-contested" in r.output
    assert "only in card-game" in r.output
    r = cli("diff", "nmjl", "card-game", "--json")
    data = json.loads(r.output)
    assert data["a"] == "nmjl" and "death-penalty" in data["only_in_b"]
    assert any(s["id"] == "wrong-tile-count" for s in data["situations"])


def test_json_parties_are_seat_role_and_name_like_rule_json(cli) -> None:
    """A script reading `diff --json` and `rule --json` meets the same party shape in both."""
    r = cli("diff", "nmjl", "card-game", "--json")
    data = json.loads(r.output)
    sides = [d[side] for s in data["situations"] for d in s["differences"] for side in ("a", "b")]
    dead = [p for side in sides for p in side["dead"]]
    paid = [p for side in sides for pay in side["payments"] for p in (pay["from"], pay["to"])]
    assert dead and paid
    for party in dead + paid:
        assert set(party) == {"seat", "role", "name"}, party
        assert party["role"]
    assert any(p["seat"] in ("East", "South", "West", "North") for p in dead)
