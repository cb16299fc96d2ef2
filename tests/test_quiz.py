"""`referee quiz`: items from published scenarios, their keys against the engine, marking, the
draw, the progress store on both backends, and the command in CliRunner (the pty tests are in
test_quiz_pty.py)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from clirun import Run
from referee.errors import UsageError
from referee.rules.loader import available, load_strict
from referee.quiz.draw import draw, topic_filter
from referee.quiz.items import (Key, corpus_stories, differences, item_of, items, key_from_outcome, outcome_of)
from referee.quiz.marking import mark, parse_dead, parse_game, parse_pay
from referee.quiz.progress import judges, trends
from referee.quiz.score import Score
from referee.ruling.scenarios import load_file
from referee.store.quiz import QuizLog

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("rid", sorted(available()))
def test_every_quiz_items_key_is_the_engines_ruling(rid: str) -> None:
    """The key a judge is marked against is the scenario's recorded outcome; the engine must rule
    exactly that, and a judge who answers as the engine rules gets every part right."""
    rs = load_strict(rid)
    for item in items(rs, with_caveats=True):
        o = outcome_of(item, rs)
        assert o.ruling.id == item.ruling, item.id
        assert differences(item.key, o) == [], item.id
        engine = key_from_outcome(o)
        assert all(m.right for m in mark(item, engine.dead, engine.game, engine.pay)), item.id


def test_items_are_published_questions_with_every_part_recorded() -> None:
    rs = load_strict("nmjl")
    found = items(rs)
    assert len(found) > 100 and len({i.situation for i in found}) > 20
    for item in found:
        sc = load_file(item.path)
        assert sc.data.published and sc.data.expect is not None
        assert sc.data.expect.dead is not None and sc.data.expect.game and sc.data.expect.payments is not None
        assert item.story and item.source and item.published
        assert item.caveat is None


def test_caveated_items_are_left_out_unless_asked_for() -> None:
    rs = load_strict("nmjl")
    plain = {i.id for i in items(rs)}
    every = items(rs, with_caveats=True)
    caveated = [i for i in every if i.caveat is not None]
    assert caveated and all(i.id not in plain for i in caveated)
    assert {i.caveat.kind for i in caveated} == {"contradicted", "opinion"}
    assert "nmjl/jokers-in-dead-hand/s327-concealed-2468" in {i.id for i in caveated}
    opinion = {i.id: i for i in caveated if i.caveat.kind == "opinion"}
    assert {"nmjl/wrong-tile-from-floor/joan-wrong-tile", "nmjl/packed-exposures/mary-m-packed-exposures"} <= set(opinion)
    assert all(i.caveat_text.startswith("the published answer is one writer's opinion") for i in opinion.values())


# How a story gives its answer away: it reports the published answer, reasons its way to the
# ruling ("so Consec #1 is out; the others remain"), or states the penalty or the rule. A story
# tells what happened at the table and what is asked; the ruling is the judge's to give.
GIVEAWAYS = re.compile(
    r"\b(answered|the column (gives|says|rules|explains)|the (league|bulletin|book) (says|rules|answered)"
    r"|so\b[^.?]*\b(is|was|are) (out|dead|not dead|valid)\b|\b(is|are) out\b|\bremains?\b|\bmay (do neither|not)\b"
    r"|no penalty|\b(is|was) (not )?allowed\b|should have been|(she|he) is dead and|\bthe rule (does|says)\b"
    r"|\bloses? \d+|\bis not dead\b|\bplay(s)? on\.$)", re.I)


@pytest.mark.parametrize("rid", sorted(available()))
def test_no_story_gives_its_ruling_away(rid: str) -> None:
    for item in items(load_strict(rid), with_caveats=True):
        said = GIVEAWAYS.search(item.story)
        assert said is None, f"{item.id}: the story says {said.group(0)!r}: {item.story}"
        for payer, payee, amount in item.key.pay:
            assert not re.search(rf"\b{payer} pays {payee}\b", item.story), f"{item.id} tells the payment"


def test_the_tournament_rulesets_have_quiz_stories_of_their_own() -> None:
    """Each event's sheet and the base tournament rules are asked from their own published
    questions, told as a table would tell them (not the scenario's title again)."""
    for rid in ("tournament", "tournament-crak", "tournament-destination", "tournament-fourseasons",
                "tournament-mahjcon", "tournament-mjmadness", "tournament-online"):
        own = [i for i in items(load_strict(rid)) if i.id.startswith(rid + "/")]
        assert len(own) >= 3, (rid, [i.id for i in own])
        told = [i for i in own if i.story != i.title]
        assert len(told) == len(own), [i.id for i in own if i.story == i.title]


def test_a_scenario_without_a_published_question_or_a_recorded_outcome_is_not_asked(tmp_path: Path) -> None:
    rs = load_strict("nmjl")
    base = (ROOT / "scenarios/nmjl/dead-challenge-contested/s600-wests-concealed-denied.yaml").read_text()
    unpublished = tmp_path / "a.yaml"
    unpublished.write_text(base.split("published:")[0] + "situation:" + base.split("\nsituation:")[1])
    assert item_of(load_file(unpublished), rs) is None
    no_payments = tmp_path / "b.yaml"
    no_payments.write_text(base.split("  payments:")[0])
    assert load_file(no_payments).data.expect.payments is None
    assert item_of(load_file(no_payments), rs) is None


def test_a_changed_rule_is_caught_as_a_key_the_engine_no_longer_rules() -> None:
    rs = load_strict("nmjl")
    item = next(i for i in items(rs) if i.key.pay)
    o = outcome_of(item, rs)
    payer, payee, amount = item.key.pay[0]
    changed = Key(item.key.dead, item.key.game, ((payer, payee, amount + 5),) + item.key.pay[1:])
    assert differences(changed, o) and differences(changed, o)[0].startswith("pay: key")
    other = Key(item.key.dead, "replay" if item.key.game != "replay" else "ends", item.key.pay)
    assert [d.split(":")[0] for d in differences(other, o)] == ["game"]


def test_the_story_corpus_is_read_loosely(tmp_path: Path) -> None:
    plain = tmp_path / "plain.yaml"
    plain.write_text("wrong-wall:\n  - she took from the wrong wall\n  - picked off the wrong end\n")
    assert corpus_stories(plain)["wrong-wall"] == ["she took from the wrong wall", "picked off the wrong end"]
    richer = tmp_path / "richer.yaml"
    richer.write_text("wrong-wall:\n  - story: she took from the wrong wall\n    first: true\n  - text: picked   wrong\n")
    assert corpus_stories(richer)["wrong-wall"] == ["she took from the wrong wall", "picked wrong"]
    broken = tmp_path / "broken.yaml"
    broken.write_text("wrong-wall: [unclosed\n")
    assert corpus_stories(broken) == {}
    assert corpus_stories(tmp_path / "missing.yaml") == {}
    shipped = corpus_stories()
    assert shipped and all(isinstance(s, str) and s for told in shipped.values() for s in told)


def test_a_scenario_without_a_story_is_told_from_the_corpus(tmp_path: Path) -> None:
    rs = load_strict("nmjl")
    text = (ROOT / "scenarios/nmjl/dead-challenge-contested/s600-wests-concealed-denied.yaml").read_text()
    start, rest = text.split("story: >-\n", 1)
    after = rest.split("\nsource:", 1)[1]
    bare = tmp_path / "s600.yaml"
    bare.write_text(start + "source:" + after)
    item = item_of(load_file(bare), rs)
    assert item is not None and item.story_from == "corpus"
    assert item.story in corpus_stories()["dead-challenge-contested"]


PLAYERS = {"East": "Ruth", "West": "Bea Ann"}


def test_seats_are_answered_by_number_initial_or_name() -> None:
    assert parse_dead("3, n", PLAYERS) == ("West", "North")
    assert parse_dead("ruth and bea ann", PLAYERS) == ("East", "West")
    assert parse_dead("West (Bea Ann)", PLAYERS) == ("West",)
    assert parse_dead("none", PLAYERS) == ()
    with pytest.raises(UsageError, match="twice"):
        parse_dead("w, 3", PLAYERS)
    with pytest.raises(UsageError, match="not a seat"):
        parse_dead("Zelda", PLAYERS)


def test_the_game_is_answered_by_number_value_or_words() -> None:
    assert parse_game("1") == "continues"
    assert parse_game("Play on") == "continues"
    assert parse_game("replayed") == "replay"
    assert parse_game("the game ends") == "ends"
    with pytest.raises(UsageError, match="not one of the choices"):
        parse_game("maybe")


def test_payments_and_points_are_read_in_the_judges_words() -> None:
    assert parse_pay("East pays North 50, s -> n 25", PLAYERS, False) == (("East", "North", 50), ("South", "North", 25))
    assert parse_pay("ruth to bea ann 100", PLAYERS, False) == (("East", "West", 100),)
    assert parse_pay("1 4 50", PLAYERS, False) == (("East", "North", 50),)
    assert parse_pay("nobody", PLAYERS, False) == ()
    with pytest.raises(UsageError, match="who pays whom"):
        parse_pay("East 50", PLAYERS, False)
    with pytest.raises(UsageError, match="cannot pay itself"):
        parse_pay("e pays east 50", PLAYERS, False)
    with pytest.raises(UsageError, match="not a whole number"):
        parse_pay("e pays n fifty", PLAYERS, False)
    assert parse_pay("North 30, West -25, east 0", PLAYERS, True) == (("North", "", 30), ("West", "", -25))


def test_each_part_is_marked_on_its_own() -> None:
    rs = load_strict("nmjl")
    item = next(i for i in items(rs) if i.key.dead and i.key.pay)
    k = item.key
    assert [m.right for m in mark(item, k.dead, k.game, k.pay)] == [True, True, True]
    wrong_game = "replay" if k.game != "replay" else "ends"
    assert [m.right for m in mark(item, k.dead, wrong_game, ())] == [True, False, False]
    assert [m.right for m in mark(item, (), wrong_game, ())] == [False, False, False]
    assert [m.right for m in mark(item, k.dead, k.game, tuple(reversed(k.pay)))] == [True, True, True]  # order is no part


def test_the_draw_spreads_over_situations_and_repeats_with_a_seed() -> None:
    rs = load_strict("nmjl")
    pool = items(rs)
    first = draw(pool, 10, 42)
    assert [i.id for i in first] == [i.id for i in draw(pool, 10, 42)]
    assert [i.id for i in first] != [i.id for i in draw(pool, 10, 43)]
    assert len({i.situation for i in first}) == 10
    assert len({i.phase for i in first}) >= 4
    everything = draw(pool, 10_000, 1)
    assert sorted(i.id for i in everything) == sorted(i.id for i in pool)  # each once, none twice
    with pytest.raises(UsageError):
        draw(pool, 0, 1)


def test_a_topic_is_a_phase_or_a_situation() -> None:
    rs = load_strict("nmjl")
    pool = items(rs)
    assert {i.phase for i in topic_filter(rs, "mahjong", pool)} == {"mahjong"}
    assert {i.situation for i in topic_filter(rs, "mahjong-in-error", pool)} == {"mahjong-in-error"}
    with pytest.raises(UsageError, match="not a phase"):
        topic_filter(rs, "bananas", pool)


def test_the_score_counts_parts_phases_and_what_to_read_again() -> None:
    rs = load_strict("nmjl")
    a, b = [i for i in items(rs) if i.key.pay][:2]
    s = Score()
    s.add(a, mark(a, a.key.dead, a.key.game, a.key.pay))
    s.add(b, mark(b, b.key.dead, "redeal" if b.key.game != "redeal" else "ends", ()))
    assert s.fully_right() == 1
    assert dict((p, (r, n)) for p, r, n in s.by_part()) == {"dead": (2, 2), "game": (1, 2), "pay": (1, 2)}
    assert s.read_again() == [b.situation]
    assert sum(n for _, _, n in s.by_phase()) == 6


def test_progress_is_kept_per_judge_apart_from_the_rulings(log_at: str) -> None:
    with QuizLog.open(log_at) as log:
        log.record("s1", 1, "Ann", "nmjl", "nmjl/x/a", "wrong-wall", "play", [("dead", "West", True), ("game", "ends", False), ("pay", "none", True)])
        log.record("s1", 1, "Ann", "nmjl", "nmjl/x/a", "wrong-wall", "play", [("dead", "West", True), ("game", "ends", False), ("pay", "none", True)])
        log.record("s2", 1, "ann", "nmjl", "nmjl/x/a", "wrong-wall", "play", [("dead", "West", True), ("game", "continues", True), ("pay", "none", True)])
        log.record("s3", 1, "Bea", "nmjl", "nmjl/x/b", "mahjong-in-error", "mahjong", [("dead", "none", False), ("game", "ends", True), ("pay", "none", False)])
        mine = log.answers("ANN")
        assert len(mine) == 6  # the question sent twice is kept once
        every = log.answers()
    from referee.store.rulings import RulingsLog

    with RulingsLog.open(log_at) as rulings:
        assert rulings.find() == []  # a quiz is never a ruling
    t = trends(mine)
    assert [(x.situation, x.marks) for x in t] == [("wrong-wall", "~+")]
    assert not t[0].weak  # right the last time, and 5 of 6 parts overall
    summary = {j.judge: j for j in judges(every)}
    assert summary["Ann"].sessions == 2 and summary["Bea"].weak == ["mahjong-in-error"]


def test_check_replays_every_item(cli) -> None:
    r = Run(cli("quiz", "--check", "-r", "nmjl"))
    assert r.code == 0, r.stdout
    assert "quiz items checked, 0 keys the engine no longer rules" in r.stdout


def test_referee_test_checks_the_quiz_keys(cli) -> None:
    r = Run(cli("test", "scenarios/nmjl/dead-challenge-contested"))
    assert r.code == 0
    assert "quiz item" in r.stdout and "0 with a key the engine no longer rules" in r.stdout


def test_a_quiz_answered_through_a_pipe_is_marked_and_recorded(cli, tmp_path: Path) -> None:
    db = str(tmp_path / "q.db")
    rs = load_strict("nmjl")
    first = draw(topic_filter(rs, "mahjong-in-error", items(rs)), 1, 5)[0]
    k = first.key
    pay = ", ".join(f"{a} pays {b} {n}" for a, b, n in k.pay) or "none"
    r = Run(cli("quiz", "-n", "1", "--seed", "5", "--topic", "mahjong-in-error", "--judge", "Ann", "--db", db,
                input=f"{', '.join(k.dead) or 'none'}\n{k.game}\n{pay}\n"))
    assert r.code == 0, r.stdout + r.stderr
    assert "Marked: all right" in r.stdout and f"Ruling {first.ruling}" in r.stdout
    assert "Asked: " in r.stdout and "Score: 1 of 1 stories fully right" in r.stdout
    rep = Run(cli("quiz", "--report", "--judge", "ann", "--db", db))
    assert rep.code == 0 and "mahjong-in-error" in rep.stdout and "+" in rep.stdout


def test_report_and_quiz_errors_are_one_line(cli, tmp_path: Path) -> None:
    r = Run(cli("quiz", "--report"))
    assert r.code == 2 and "--judge NAME" in r.stderr
    r = Run(cli("quiz", "--report", "--judge", "Ann", "--db", str(tmp_path / "none.db")))
    assert r.code == 2 and "no quiz recorded yet" in r.stderr and not (tmp_path / "none.db").exists()
    r = Run(cli("quiz", "--topic", "bananas"))
    assert r.code == 2 and "not a phase" in r.stderr
    r = Run(cli("quiz", "-n", "0"))
    assert r.code == 2 and "at least one" in r.stderr
    r = Run(cli("quiz", "--all"))
    assert r.code == 2 and "--report" in r.stderr


def test_a_caveated_story_is_asked_only_on_request_and_with_its_caveat(cli) -> None:
    rs = load_strict("nmjl")
    pool = topic_filter(rs, "jokers-in-dead-hand", items(rs, with_caveats=True))
    caveated = [i for i in pool if i.caveat is not None]
    assert caveated
    answers = "none\n1\nnone\n\n" * len(pool)
    r = Run(cli("quiz", "--topic", "jokers-in-dead-hand", "-n", str(len(pool)), "--with-caveats", input=answers))
    assert r.code == 0, r.stderr
    told = r.stdout + r.stderr
    assert told.count("Caveat: this ruleset rules otherwise than the published answer") == len(caveated)
    plain = Run(cli("quiz", "--topic", "jokers-in-dead-hand", "-n", str(len(pool)), input=answers))
    assert "Caveat:" not in plain.stdout + plain.stderr
    assert f"{len(pool) - len(caveated)} stories" in plain.stdout + plain.stderr
