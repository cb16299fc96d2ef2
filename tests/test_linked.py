"""A ruling that goes on into another situation (`then`): the judge is carried from the first
ruling into the second, every answer kept, and both rulings are printed, the first first."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from referee.rules import model as m
from referee.ruling.engine import Question, advance
from referee.rules.loader import load_strict
from referee.ruling.outcome import Outcome

pexpect = pytest.importorskip("pexpect")
TIMEOUT = 20


def _spawn(*args: str):  # type: ignore[no-untyped-def]
    env = {**os.environ, "NO_COLOR": "1", "TERM": "dumb", "COLUMNS": "120", "PYTHONUNBUFFERED": "1"}
    return pexpect.spawn(sys.executable, ["-m", "referee", "rule", *args, "--no-log"], env=env,
                         encoding="utf-8", timeout=TIMEOUT, dimensions=(40, 120))


def _answer_all(child, answers: dict[str, str]) -> list[str]:  # type: ignore[no-untyped-def]
    """Answer every question by a phrase of it; return the questions asked, in order."""
    asked: list[str] = []
    phrases = list(answers)
    while True:
        i = child.expect([r"(?:^|\n)\d+\. ([^\n]*)\n", " Ruling ", pexpect.EOF])
        if i:
            return asked
        question = child.match.group(1)
        asked.append(question)
        phrase = next((p for p in phrases if p in question), None)
        assert phrase is not None, f"asked something unexpected: {question!r} after {asked[:-1]}"
        child.expect(r"(?:^|\n)\? [^\r\n]*: ")
        child.sendline(answers[phrase])


def _rest(child) -> str:  # type: ignore[no-untyped-def]
    """The rest of the ruling, finishing at the prompt that offers more."""
    child.expect("Enter to finish")
    text = child.before or ""
    child.sendline("")
    child.expect(pexpect.EOF)
    child.close()
    return text


def test_a_mahjong_that_closed_the_window_goes_on_to_the_payment_without_retyping() -> None:
    child = _spawn("claim-window")
    asked = _answer_all(child, {
        "how far": "declared", "already exposed": "no", "Mah Jongg valid": "yes", "jokerless": "no",
        "called the discard": "South", "next in turn": "North", "value of the winning hand": "30",
    })
    text = " Ruling " + _rest(child)
    assert child.exitstatus == 0, text
    # the winner of the payment is the next player: never asked again under another name
    assert not any("won" in q for q in asked), asked
    assert not any("How did the winner get the last tile" in q for q in asked), asked  # a self-pick, settled
    first, second = text.index("Ruling WIN-5"), text.index("Ruling VMJ-2")
    assert first < text.index("Then, as 'Paying a valid Mah Jongg'") < second
    assert "East pays North 60" in text and "South pays North 60" in text


def test_not_jokerless_goes_on_to_the_payment_with_jokerless_settled() -> None:
    child = _spawn("jokerless-after-redemption")
    asked = _answer_all(child, {
        "any joker among their 14 tiles": "yes", "How did the winner get": "self-pick",
        "Which seat won": "West", "value of the winning hand": "25",
    })
    text = " Ruling " + _rest(child)
    assert child.exitstatus == 0, text
    assert not any("jokerless" in q for q in asked), asked  # the first ruling settled it
    assert text.index("Ruling JLR-1") < text.index("Ruling VMJ-2")
    assert "East pays West 50" in text


def test_a_false_mahjong_goes_on_to_which_of_her_jokers_may_be_redeemed_without_retyping() -> None:
    child = _spawn("mahjong-in-error")
    asked = _answer_all(child, {
        "what did the other players do": "nothing", "exposed any tiles": "yes", "claimed discard": "no",
        "Which seat declared": "South",
    })
    text = " Ruling " + _rest(child)
    assert child.exitstatus == 0, text
    # the dead player is the declarer and the cause is the false call: neither is asked again
    assert not any("dead hand" in q or "Why is the hand dead" in q for q in asked), asked
    first, second = text.index("Ruling MJE-3"), text.index("Ruling JDH-2")
    assert first < text.index("Then, as 'Can jokers be taken from a dead player's exposures?'") < second
    assert "Exposures South made properly before the error stay up" in text[second:]


def test_the_first_rulings_dead_hand_stays_dead_in_the_second() -> None:
    rs = load_strict("nmjl")
    facts = {"window_next_player": "declared", "late_caller_exposed": "yes", "mahjong_valid": "no",
             "others_acted": "nothing", "declarer_exposed": "yes", "caller": "South", "next_player": "East"}
    o = advance(rs, "claim-window", facts)
    assert isinstance(o, Outcome), o
    assert [b.ruling.id for b in o.before] == ["WIN-6", "MJE-3"] and o.ruling.id == "JDH-2"
    assert sorted(p.seat for p in o.dead) == ["East", "South"]  # the late caller, then the false declarer


def test_a_seat_of_the_first_ruling_is_asked_even_when_the_second_does_not_name_it() -> None:
    rs = load_strict("nmjl")
    q = advance(rs, "claim-window", {"window_next_player": "same-moment", "window_call_for": "exposure",
                                     "mahjong_valid": "yes", "jokerless": "no", "next_player": "East", "hand_value": 25})
    assert isinstance(q, Question) and q.fact == "caller", q


def test_json_carries_the_first_ruling_under_before() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "referee", "rule", "claim-window", "-a", "window_next_player=declared",
         "-a", "late_caller_exposed=no", "-a", "mahjong_valid=yes", "-a", "jokerless=no", "-a", "hand_value=25",
         "-s", "caller=West", "-s", "next_player=South", "--no-input", "--json"],
        capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    doc = json.loads(run.stdout)
    assert doc["ruling"]["id"] == "VMJ-2"
    assert [b["ruling"]["id"] for b in doc["before"]] == ["WIN-5"]
    assert doc["before"][0]["situation"]["id"] == "claim-window"


def test_lint_names_an_unknown_then_target() -> None:
    import dataclasses

    from referee.lint.checks import lint

    rs = dataclasses.replace(load_strict("nmjl"))
    rs.situations = dict(rs.situations)
    sit = rs.situations["claim-window"]
    node = sit.nodes["mahjong_first"]
    assert isinstance(node, m.RulingNode)
    broken = node.model_copy(update={"ruling": node.ruling.model_copy(update={"then": m.Goto(goto="no-such-situation")})})
    rs.situations["claim-window"] = sit.model_copy(update={"nodes": {**sit.nodes, "mahjong_first": broken}})
    assert any("goto names unknown situation 'no-such-situation'" in p.message for p in lint(rs))


def test_a_death_challenge_borne_out_at_the_end_goes_on_to_the_mahjong_payments_without_retyping() -> None:
    """One outcome, one ruling: from the first question of the challenge to the game's payments, the
    challenge's 50 cents and the dead hand carried into the last ruling's amounts."""
    child = _spawn("death-challenge")
    asked = _answer_all(child, {
        "challenger's own hand still active": "yes", "table rule": "no", "What does the challenged player say": "denies",
        "Who turned out to be right": "challenger", "How did the game end": "mahjong", "jokerless": "no",
        "How did the winner get the last tile": "discard", "called the other player dead": "East", "was called dead": "South",
        "Which seat won": "West", "discarded": "North", "value of the winning hand": "30",
    })
    text = " Ruling " + _rest(child)
    assert child.exitstatus == 0, text
    assert len(asked) == len(set(asked)), asked  # nothing asked twice, under either situation's name
    assert sum("Which seat" in q and "dead" in q for q in asked) == 2, asked  # challenger and challenged, once each
    first, second = text.index("Ruling DCC-2"), text.index("Ruling VMJ-1")
    assert first < text.index("Then, as 'Paying a valid Mah Jongg'") < second
    final = " ".join(text[second:].split())
    assert "Dead hands: South" in final  # the first ruling's dead hand is still dead in the last
    for line in ("South pays East 50 (DCC-2)", "North pays West 60", "East pays West 30", "South pays West 30"):
        assert line in final, final


def test_a_dead_hand_cannot_be_named_the_winner_of_the_game_it_died_in() -> None:
    rs = load_strict("nmjl")
    facts = {"challenge_outcome": "challenger", "dcc_game_end": "mahjong", "jokerless": "no", "win_how": "self-pick",
             "challenger": "East", "challenged": "South", "winner": "South", "hand_value": 25}
    from referee.errors import UsageError

    with pytest.raises(UsageError, match="South's hand is already dead, and a dead hand cannot win"):
        advance(rs, "dead-challenge-contested", facts)
    o = advance(rs, "dead-challenge-contested", {**facts, "challenge_outcome": "challenged"})
    assert isinstance(o, Outcome) and o.ruling.id == "VMJ-2"  # shown live, she may have won: she collects
    assert ("East", "South", 50) in [(p.payer.seat, p.payee.seat, p.amount) for p in o.payments]
