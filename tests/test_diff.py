"""`referee diff`: every path of every situation in two rulesets, and where they differ."""
from __future__ import annotations

import json

import pytest
from test_cli import run

from referee.diff import diff, key_of, summarize
from referee.rules.loader import load_strict

PAIRS = [("nmjl", "card-game"), ("nmjl", "amja"), ("tournament", "tournament-crak"), ("nmjl", "house-example")]


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
    assert "Only in card-game" in r.output
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


@pytest.fixture(scope="module", params=PAIRS, ids=lambda p: f"{p[0]}-{p[1]}")
def compared(request):
    a, b = (load_strict(x) for x in request.param)
    report = diff(a, b)
    return report, summarize(report, a, b)


def test_every_differing_path_is_in_exactly_one_case(compared) -> None:
    """Nothing the walk finds is lost, and nothing is said twice: each differing path belongs to
    the one case with its (owner, exit, exit), and no two cases share that key."""
    report, summary = compared
    keys = [o.key for o in summary.owned]
    assert len(keys) == len(set(keys))
    differing = [d for s in report.situations for d in s.differences]
    assert sum(len(o.paths) for o in summary.owned) == len(differing)
    by_key = {o.key: o for o in summary.owned}
    for d in differing:
        assert any(p is d for p in by_key[key_of(d)].paths)
    assert {key_of(d) for d in differing} == set(keys)


def test_each_case_s_conditions_hold_for_exactly_its_paths(compared) -> None:
    """A condition printed for a case never covers a path of another outcome, and every path of
    the case that starts where its conditions are asked meets one of them."""
    report, summary = compared
    walked = {s.id: s.walked for s in report.situations}
    for o in summary.owned:
        start = o.via or o.situation
        assert o.ways, o.key
        for d in walked[start]:
            met = any(all(d.answers.get(f) == v for f, v in way.items()) for way in o.ways)
            mine = bool(d.differs) and key_of(d) == o.key
            assert met == mine, (o.key, d.answers)


def test_a_difference_met_through_a_goto_is_owned_where_the_rulings_differ() -> None:
    a, b = load_strict("nmjl"), load_strict("card-game")
    summary = summarize(diff(a, b), a, b)
    rival = [o for o in summary.owned if o.b.id == "CG-MJE-1"]
    assert rival and {o.situation for o in rival} == {"mahjong-in-error"}
    assert all(len(o.entries) > 10 for o in rival)  # met from many situations, said once


def test_cli_diff_is_a_summary_then_each_case_once_in_the_questions_words() -> None:
    a, b = load_strict("nmjl"), load_strict("card-game")
    summary = summarize(diff(a, b), a, b)
    r = run("diff", "nmjl", "card-game", env={"COLUMNS": "100"})
    assert r.code == 0, r.stdout
    lines = r.stdout.splitlines()
    assert len(lines) < 650, len(lines)  # was 6,000 and more; about 25 of these list what CARD contradicts
    assert "rule differently in" in lines[0] and f"{len(summary.owned)} cases" in lines[0]
    assert r.stdout.count(". When: ") == len(summary.owned)
    # the false Mah Jongg a rival also claimed: one case, not one under every situation leading there
    assert sum("CG-MJE-1 · " in line for line in lines) == sum(o.b.id == "CG-MJE-1" for o in summary.owned)
    assert "cg_after_discard_call" not in r.stdout  # questions and answers, not fact ids
    assert "Another player also claimed the card for mah jongg" in " ".join(r.stdout.split())  # wherever it wraps
    every = run("diff", "nmjl", "card-game", "--paths", env={"COLUMNS": "100"})
    assert "cg_after_discard_call=rival_mahjong" in every.stdout  # the full detail, on request
    assert every.stdout.count("CG-MJE-1 · ") > 20


def test_cli_diff_shows_a_question_asked_differently_though_outcomes_agree() -> None:
    """nmjl and amja give the tile to the same claimant on the same answers, but the answers
    mean different things: what counts as having begun to expose."""
    r = run("diff", "nmjl", "amja", env={"COLUMNS": "100"})
    text = " ".join(r.stdout.split())
    amja, nmjl = load_strict("amja"), load_strict("nmjl")
    for rs in (nmjl, amja):
        assert " ".join(rs.fact("txc_exposed", "two-exposure-claims").ask.split()) in text
    assert "TXC-2 (nmjl) and AMJA-TXC-2 (amja) differ in ruling, text, citations" in text


def test_json_keeps_every_path_and_adds_each_case_once(cli) -> None:
    data = json.loads(cli("diff", "nmjl", "card-game", "--json").output)
    per_path = sum(len(s["differences"]) for s in data["situations"])
    assert sum(c["paths"] for c in data["cases"]) == per_path
    case = next(c for c in data["cases"] if c["b"]["id"] == "CG-MJE-1")
    assert case["situation"] == "mahjong-in-error" and case["b"]["exit"] == "ruling"
    assert all(len(w) == len(words) for w, words in zip(case["ways"], case["ways_in_words"]))


def test_a_seat_the_filler_picks_that_the_rulings_refuse_is_picked_again() -> None:
    """Seats are filled in without asking; East filled in as an exposer where East's Heavenly
    Hand makes her the declarer is the filler's mistake, not a ruling: the path is walked again
    with other seats, and both rulesets rule it."""
    r = diff(load_strict("nmjl"), load_strict("tournament"))
    hh = next(s for s in r.situations if s.id == "heavenly-hand")
    two = [d for d in hh.walked if d.answers.get("others_acted") == "two"]
    assert two and all(d.a.ruling and d.b.ruling for d in two)
    assert "East" not in two[0].details["exposers"]
    assert not [d for s in r.situations for d in s.walked if d.a.error or d.b.error]


def test_a_path_no_seats_can_rule_is_reported_once_as_first_walked(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """card-game asked for a discarder after a served-early false Mah Jongg a rival also claimed,
    where all four seats already play other parts: no seat suits, and the path is reported once.
    (The shipped card-game now carries 'converted' into its own question, so that path is gone;
    an overlay that restores the League's jump keeps it for this test.)"""
    from referee.rules import loader

    folder = tmp_path / "old-card-game"
    (folder / "situations").mkdir(parents=True)
    (folder / "ruleset.yaml").write_text("id: old-card-game\ntitle: t\nversion: '1'\nextends: card-game\n")
    (folder / "situations" / "served-early.yaml").write_text(
        "patch: served-early\nnodes:\n  false_call:\n    ask: se_false_call\n    when:\n"
        "      withdrawn: third_dead\n      dead: third_dead\n"
        "      converted: {goto: mahjong-in-error, bind: {declarer: winner}, dead: [server, picker], set: "
        "{others_acted: nothing, declarer_exposed: 'yes', declared_on_discard: 'yes', exposure_convertible: 'yes'}}\n")
    monkeypatch.setenv("REFEREE_RULESETS", str(tmp_path))
    loader._CACHE.clear()
    r = diff(load_strict("nmjl"), load_strict("old-card-game"))
    se = next(s for s in r.situations if s.id == "served-early")
    errors = [d for d in se.walked if d.b.error]
    assert len(errors) == 1 and errors[0].a.error is None
    assert len({id(d) for d in se.walked}) == len(se.walked)
