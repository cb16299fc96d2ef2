"""Seats are checked against each other as each is answered; group payments never from an unknown set."""
from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from referee.ruling.engine import Outcome, Question, advance, check_answer
from referee.errors import UsageError
from referee.rules.loader import load_strict
from referee.ruling.scenarios import run

TWO_THREW_IN = {"others_acted": "two", "intact_dead_before": "no", "declarer": "East", "declared_value": 40}


def settle(sid: str, facts: dict[str, Any]) -> Outcome:
    return run(load_strict("nmjl"), sid, dict(facts), {})  # details not given stay open


def test_two_threw_in_with_the_throwers_left_open_pays_nobody_a_number() -> None:
    o = settle("mahjong-in-error", {**TWO_THREW_IN, "exposers": None})
    # one payment to whoever is still active, never 80 to each of three seats
    assert [(p.payer.seat, p.payee.seat) for p in o.payments] == [("East", None)]
    assert "active" in o.payments[0].text


def test_two_threw_in_pays_the_one_intact_player() -> None:
    o = settle("mahjong-in-error", {**TWO_THREW_IN, "exposers": ["South", "West"]})
    assert [(p.payer.seat, p.payee.seat, p.amount) for p in o.payments] == [("East", "North", 80)]


@pytest.mark.parametrize("declarer", ["East", "South", "West", "North"])
def test_all_three_threw_in_kills_every_hand(declarer: str) -> None:
    """MJE-7's `dead: [declarer, others]`: the declarer, then every other seat, each once."""
    o = settle("mahjong-in-error", {"others_acted": "three", "declarer": declarer})
    assert o.ruling.id == "MJE-7"
    assert [p.seat for p in o.dead][0] == declarer
    assert sorted(p.seat for p in o.dead) == ["East", "North", "South", "West"]
    assert not o.payments


def test_all_three_threw_in_with_the_declarer_left_open_says_so_in_words() -> None:
    o = settle("mahjong-in-error", {"others_acted": "three", "declarer": None})
    assert [p.label for p in o.dead] == ["the declarer", "each other player"]


def test_the_declarer_is_refused_among_the_throwers_when_that_answer_is_given() -> None:
    rs = load_strict("nmjl")
    with pytest.raises(UsageError, match=r"exposers: East is the declarer"):
        check_answer(rs, "mahjong-in-error", {**TWO_THREW_IN, "exposers": ["East", "West"]}, "exposers")
    check_answer(rs, "mahjong-in-error", {**TWO_THREW_IN, "exposers": ["South", "West"]}, "exposers")


def test_a_clash_in_answers_given_up_front_names_both_roles() -> None:
    rs = load_strict("nmjl")
    with pytest.raises(UsageError, match="declarer"):
        advance(rs, "mahjong-in-error", {**TWO_THREW_IN, "exposers": ["East", "West"]})


def test_the_clash_is_reported_against_the_answer_just_given() -> None:
    rs = load_strict("nmjl")
    facts = {"others_acted": "two", "intact_dead_before": "no", "exposers": ["South", "West"], "declarer": "West"}
    with pytest.raises(UsageError, match=r"^declarer: West is already one of the exposers;"):
        check_answer(rs, "mahjong-in-error", facts, "declarer")


def test_a_winner_cannot_be_the_discarder_checked_at_once() -> None:
    rs = load_strict("nmjl")
    facts = {"mahjong_valid": "yes", "jokerless": "no", "win_how": "discard", "winner": "North", "discarder": "North"}
    with pytest.raises(UsageError, match="discarder: North is already the winner"):
        check_answer(rs, "valid-mahjong", facts, "discarder")


def test_heavenly_hand_winner_is_east_and_never_asked() -> None:
    rs = load_strict("nmjl")
    facts: dict[str, Any] = {"hh_before_charleston": "yes", "mahjong_valid": "yes"}
    step = advance(rs, "heavenly-hand", facts)
    assert isinstance(step, Question) and step.fact != "winner"
    o = settle("heavenly-hand", {**facts, "jokerless": "no", "hand_value": 25})
    assert {p.payee.seat for p in o.payments} == {"East"}
    assert sorted(p.payer.seat for p in o.payments) == ["North", "South", "West"]


def test_heavenly_hand_refuses_another_winner() -> None:
    rs = load_strict("nmjl")
    facts = {"hh_before_charleston": "yes", "mahjong_valid": "yes", "winner": "West"}
    with pytest.raises(UsageError, match="winner: only East"):
        check_answer(rs, "heavenly-hand", facts, "winner")
    with pytest.raises(UsageError, match="winner: only East"):
        advance(rs, "heavenly-hand", {**facts, "jokerless": "no", "hand_value": 25})


def test_lint_names_a_may_also_be_that_is_not_a_role() -> None:
    from referee.rules import model as m
    from referee.lint.checks import lint

    # A copy: load_strict's ruleset is shared by every later test in this process.
    rs = dataclasses.replace(load_strict("nmjl"))
    rs.situations = dict(rs.situations)
    sit = rs.situations["mahjong-in-error"]
    breaker = m.RoleDef(ask="Which seat broke the wall?", may_also_be=["wall_thrower"])
    rs.situations["mahjong-in-error"] = sit.model_copy(update={"roles": {**sit.roles, "wall_breaker": breaker}})
    messages = [p.message for p in lint(rs)]
    assert "may_also_be: 'wall_thrower' is not a seat role or seats fact of 'mahjong-in-error'" in messages, messages


def test_a_clash_given_on_the_command_line_is_one_line_and_exit_2(cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("rule", "mahjong-in-error", "-a", "others_acted=two", "-a", "intact_dead_before=no", "-a", "exposers=East,West",
                 "-a", "declared_value=40", "--seat", "declarer=East", "--no-input")
    assert result.exit_code == 2
    assert "East is the declarer" in result.output and "Traceback" not in result.output


def test_nobody_answers_a_seats_question_that_may_name_none_and_no_other() -> None:
    from referee.errors import UsageError
    from referee.rules.model import FactDef
    from referee.ruling.answers import normalize

    may_be_none = FactDef(type="seats", ask="Which seats had dead hands?", min=0, max=4)
    assert normalize("dead_hands", may_be_none, "nobody") == [] == normalize("dead_hands", may_be_none, " None ")
    assert normalize("dead_hands", may_be_none, "s w") == ["South", "West"]
    needs_one = FactDef(type="seats", ask="Which seats threw in?")
    with pytest.raises(UsageError, match="name at least one seat; 'nobody' is not an answer here"):
        normalize("exposers", needs_one, "nobody")
