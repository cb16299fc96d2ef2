"""The benchmark's own inputs still reach a ruling: a question added to a situation once turned
the serve load figure into 'MISSED (no rid on the ruling page)' without any test noticing."""
from __future__ import annotations

import sys
from pathlib import Path
from urllib.parse import parse_qs

from referee.rules.loader import load_strict
from referee.ruling.scenarios import run

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))


def test_the_serve_load_answers_reach_a_ruling() -> None:
    import serveload

    given = {k: (v if len(v) > 1 else v[0]) for k, v in parse_qs(serveload.MJE).items()}
    outcome = run(load_strict("nmjl"), "mahjong-in-error", given, {})
    assert outcome.ruling is not None and outcome.ruling.id.startswith("MJE-")


def test_the_question_count_walks_every_published_question_of_the_corpus() -> None:
    import asked
    from referee.search.corpus import corpus, heldback

    published = [p for p in corpus() + heldback() if p.kind == "published"]
    plain = asked.counts(None)
    assert len(plain) == len(published) and sum(c.asked for c in plain) > len(plain)  # a few rule at once
    assert all(c.left == c.asked and c.misread == 0 for c in plain)  # nothing read: every question asked
    wrong = asked.counts(lambda story, fact, d: "a reading no scenario gives")
    assert [c.misread for c in wrong] == [c.asked for c in wrong]  # a misreading is still asked
    assert [c.left for c in wrong] == [c.asked for c in wrong]


def test_a_story_that_answers_a_question_saves_it() -> None:
    import asked
    from referee.rules.folders import data_dir
    from referee.ruling.scenarios import facts_of, load_file, ruleset_of

    sc = load_file(data_dir("scenarios") / "nmjl/mahjong-in-error/two-threw-in.yaml")
    rs = ruleset_of(sc)
    facts, players = facts_of(rs, sc)
    n, left, misread = asked.count(rs, sc.situation, facts, players, "two of us threw in", None)
    told = asked.count(rs, sc.situation, facts, players, "two of us threw in",
                       lambda story, fact, d: facts["others_acted"] if fact == "others_acted" else None)
    assert n == left >= 2 and misread == 0
    assert told == (n, n - 1, 0)
