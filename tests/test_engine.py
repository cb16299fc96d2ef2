"""Unit tests of referee.ruling.engine on a small ruleset written for them (shipped content may change)."""
from __future__ import annotations

from typing import Any

import pytest

from referee.ruling import engine
from referee.ruling.engine import Outcome, Question, advance, walk
from referee.errors import UsageError
from referee.rules.loader import Ruleset, load

FILES = {
    "ruleset.yaml": """\
id: eng
title: Engine test rules
version: '1'
scoring: {kind: money, unit: cents, lowest_hand: 25}
sources:
  BOOK: {title: The rule book}
""",
    "facts.yaml": """\
facts:
  valid:
    type: yesno
    ask: Is the Mah Jongg valid?
    help: All 14 tiles match a hand on the card.
  hand_value:
    type: number
    ask: What is the hand value?
    min: 0
  winner:
    type: seat
    ask: Which seat won?
  extra:
    type: yesno
    ask: Anything else?
""",
    "situations/first.yaml": """\
id: first
title: First situation
phase: play
summary: Decides a payment or goes to the second situation.
roles:
  picker: Which seat picked?
facts:
  kind:
    type: choice
    ask: What kind?
    choices: {four: Four times, others: Others pay, active: Active paid, fixed: Fixed, both: Picker pays herself}
start: valid
nodes:
  valid:
    ask: valid
    yes: kind
    no: {goto: second}
  kind:
    ask: kind
    when:
      four: pay4
      others: from_others
      active: to_active
      fixed: fixed
      both: pays_winner_fixed
  pay4:
    ruling:
      id: F-1
      says: "{picker} pays {winner} four times the hand value."
      game: ends
      pay:
        - {from: picker, to: winner, times: 4, of: hand_value}
      cite: BOOK
  from_others:
    ruling:
      id: F-2
      says: "{picker} is dead; everyone else pays {winner}."
      game: ends
      dead: [picker]
      pay:
        - {from: others, to: winner, of: hand_value}
      cite: BOOK
  to_active:
    ruling:
      id: F-3
      says: "{picker} is dead; {winner} pays each active player {lowest_hand}."
      game: ends
      dead: [picker]
      pay:
        - {from: winner, to: active, of: lowest_hand}
      cite: BOOK
  fixed:
    ruling:
      id: F-4
      says: "{picker} pays a fixed 50."
      game: continues
      pay:
        - {from: picker, to: winner, amount: 50}
      cite: BOOK
  pays_winner_fixed:
    ruling:
      id: F-5
      says: "{picker} pays {winner} 10."
      game: continues
      pay:
        - {from: picker, to: winner, amount: 10}
      cite: BOOK
""",
    "situations/second.yaml": """\
id: second
title: Second situation
phase: mahjong
summary: Asks 'valid' again, which was answered before the goto.
start: again
nodes:
  again:
    ask: valid
    yes: extra
    no: extra
  extra:
    ask: extra
    yes: {goto: third}
    no: done
  done:
    ruling:
      id: S-1
      says: Nothing more.
      game: continues
      cite: BOOK
""",
    "situations/third.yaml": """\
id: third
title: Third situation
phase: mahjong
summary: Asks both earlier facts again; neither is asked twice.
start: a
nodes:
  a:
    ask: valid
    yes: b
    no: b
  b:
    ask: extra
    yes: end
    no: end
  end:
    ruling:
      id: T-1
      says: "Settled for {winner}."
      game: ends
      settle: {winner: winner, how: self-pick}
      cite: BOOK
""",
}


@pytest.fixture(scope="module")
def rs(tmp_path_factory: pytest.TempPathFactory) -> Ruleset:
    folder = tmp_path_factory.mktemp("rulesets") / "eng"
    for name, text in FILES.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    ruleset, problems = load(folder)
    assert ruleset is not None and not problems, problems
    from referee.lint.checks import lint

    assert lint(ruleset) == []
    return ruleset


def questions(rs: Ruleset, sid: str, answers: dict[str, Any], players: dict[str, str] | None = None) -> tuple[list[Question], Outcome]:
    """Answer every question from `answers` (missing ones left open); return what was asked, in order."""
    facts: dict[str, Any] = {}
    asked: list[Question] = []
    for _ in range(50):
        step = advance(rs, sid, facts, players)
        if isinstance(step, Outcome):
            return asked, step
        assert step.fact not in facts, f"{step.fact} asked again"
        asked.append(step)
        facts[step.fact] = answers.get(step.fact)
    raise AssertionError("no outcome after 50 questions")


# --- asking ---------------------------------------------------------------


def test_first_question_is_the_start_node(rs: Ruleset) -> None:
    q = advance(rs, "first", {})
    assert isinstance(q, Question)
    assert (q.fact, q.situation, q.node, q.optional) == ("valid", "first", "valid", False)
    assert q.definition.help.startswith("All 14 tiles")


def test_a_fact_answered_once_is_never_asked_again_across_gotos(rs: Ruleset) -> None:
    asked, outcome = questions(rs, "first", {"valid": "no", "extra": "yes", "winner": "East", "hand_value": 30})
    facts = [q.fact for q in asked]
    # 'valid' is asked in all three situations' trees, 'extra' in two: each is asked once
    assert facts == ["valid", "extra", "winner", "hand_value"]
    assert outcome.ruling.id == "T-1" and outcome.situation == "third" and outcome.start == "first"
    # the path records every decision in the situation it was taken, including the carried-over ones
    assert [(s.situation, s.fact) for s in outcome.path] == [
        ("first", "valid"), ("second", "valid"), ("second", "extra"), ("third", "valid"), ("third", "extra")
    ]


def test_walk_follows_known_facts_to_the_leaf(rs: Ruleset) -> None:
    reached = walk(rs, "first", {"valid": "no", "extra": "no"})
    assert not isinstance(reached, Question)
    # walk returns the leaf it reached: (situation, node, path), as a tuple or an object
    if isinstance(reached, tuple):
        sid, nid, path = reached
    else:
        sid, nid, path = reached.situation, reached.node, reached.path
    assert (sid, nid) == ("second", "done")
    assert [s.answer for s in path] == ["no", "no", "no"]


def test_walk_stops_at_first_unknown(rs: Ruleset) -> None:
    q = walk(rs, "first", {"valid": "yes"})
    assert isinstance(q, Question) and q.fact == "kind" and q.node == "kind"


def test_details_come_after_the_tree_is_decided_and_are_optional(rs: Ruleset) -> None:
    asked, outcome = questions(rs, "first", {"valid": "yes", "kind": "four"})
    decisions = [q for q in asked if q.node is not None]
    details = [q for q in asked if q.node is None]
    assert [q.fact for q in decisions] == ["valid", "kind"]
    assert asked[: len(decisions)] == decisions, "every decision question comes before any detail"
    assert [q.fact for q in details] == ["picker", "winner", "hand_value"]
    assert all(q.optional for q in details) and not any(q.optional for q in decisions)
    assert details[0].definition.type == "seat" and details[0].definition.ask == "Which seat picked?"
    assert outcome.ruling.id == "F-1"


def test_unanswered_decision_is_not_optional_even_when_a_detail_is_known(rs: Ruleset) -> None:
    q = advance(rs, "first", {"picker": "East", "hand_value": 25})
    assert isinstance(q, Question) and q.fact == "valid" and not q.optional


# --- amounts --------------------------------------------------------------


def test_symbolic_amount_when_the_value_is_unknown(rs: Ruleset) -> None:
    o = advance(rs, "first", {"valid": "yes", "kind": "four", "picker": None, "winner": None, "hand_value": None})
    assert isinstance(o, Outcome)
    [p] = o.payments
    assert p.amount is None
    assert p.formula == "4 x the hand value"
    assert p.text == "The picker pays the winner 4 x the hand value"
    assert o.text == "The picker pays the winner four times the hand value."


def test_symbolic_amount_with_seats_known(rs: Ruleset) -> None:
    o = advance(rs, "first", {"valid": "yes", "kind": "four", "picker": "West", "winner": "North", "hand_value": None})
    assert isinstance(o, Outcome)
    [p] = o.payments
    assert (p.payer.seat, p.payee.seat, p.amount) == ("West", "North", None)
    assert p.text == "West pays North 4 x the hand value"


def test_amount_computed_when_known(rs: Ruleset) -> None:
    o = advance(rs, "first", {"valid": "yes", "kind": "four", "picker": "West", "winner": "North", "hand_value": 35})
    assert isinstance(o, Outcome)
    [p] = o.payments
    assert (p.amount, p.formula) == (140, "4 x 35")
    assert isinstance(p.amount, int)
    assert p.text == "West pays North 140 (4 x 35)"


def test_fixed_amount(rs: Ruleset) -> None:
    o = advance(rs, "first", {"valid": "yes", "kind": "fixed", "picker": "South", "winner": "East"})
    assert isinstance(o, Outcome)
    [p] = o.payments
    assert (p.payer.seat, p.payee.seat, p.amount) == ("South", "East", 50)
    assert o.game == "continues"


# --- groups ---------------------------------------------------------------


def test_others_pay_expands_to_every_other_seat_dead_or_not(rs: Ruleset) -> None:
    o = advance(rs, "first", {"valid": "yes", "kind": "others", "picker": "South", "winner": "West", "hand_value": 25})
    assert isinstance(o, Outcome)
    assert [p.seat for p in o.dead] == ["South"]
    assert sorted((p.payer.seat, p.payee.seat, p.amount) for p in o.payments) == [
        ("East", "West", 25), ("North", "West", 25), ("South", "West", 25)
    ]


def test_active_excludes_dead_seats_and_the_payer(rs: Ruleset) -> None:
    o = advance(rs, "first", {"valid": "yes", "kind": "active", "picker": "South", "winner": "West"})
    assert isinstance(o, Outcome)
    got = sorted((p.payer.seat, p.payee.seat, p.amount) for p in o.payments)
    assert got == [("West", "East", 25), ("West", "North", 25)], "lowest_hand comes from the ruleset's scoring"
    assert "25" in o.text


@pytest.mark.parametrize("picker", ["East", "South", "North"])
def test_active_for_every_dead_seat(rs: Ruleset, picker: str) -> None:
    o = advance(rs, "first", {"valid": "yes", "kind": "active", "picker": picker, "winner": "West"})
    assert isinstance(o, Outcome)
    payees = {p.payee.seat for p in o.payments}
    assert payees == {"East", "South", "West", "North"} - {picker, "West"}


def test_group_stays_symbolic_when_the_anchor_seat_is_unknown(rs: Ruleset) -> None:
    o = advance(rs, "first", {"valid": "yes", "kind": "others", "picker": None, "winner": None, "hand_value": None})
    assert isinstance(o, Outcome)
    [p] = o.payments
    assert p.payer.seat is None and p.amount is None
    assert p.text.startswith("Each other player pays the winner")


# --- seats and names --------------------------------------------------------


def test_a_seat_paying_itself_is_a_usage_error(rs: Ruleset) -> None:
    with pytest.raises(UsageError, match="East"):
        advance(rs, "first", {"valid": "yes", "kind": "both", "picker": "East", "winner": "East"})


def test_a_winner_settling_with_herself_is_a_usage_error(rs: Ruleset) -> None:
    # the standard schedule for a self-pick needs no discarder, so only the payer rule applies;
    # with 'four' the same seat on both sides must be refused too
    with pytest.raises(UsageError):
        advance(rs, "first", {"valid": "yes", "kind": "four", "picker": "North", "winner": "North", "hand_value": 25})


def test_outcome_text_fills_roles_with_seat_and_player_name(rs: Ruleset) -> None:
    o = advance(rs, "first", {"valid": "yes", "kind": "four", "picker": "West", "winner": "North", "hand_value": 25},
                players={"West": "Ruth", "North": "Bea"})
    assert isinstance(o, Outcome)
    assert o.text == "West (Ruth) pays North (Bea) four times the hand value."
    [p] = o.payments
    assert (p.payer.name, p.payee.name) == ("Ruth", "Bea")
    assert p.text == "West (Ruth) pays North (Bea) 100 (4 x 25)"


def test_unknown_role_reads_as_the_role(rs: Ruleset) -> None:
    o = advance(rs, "first", {"valid": "yes", "kind": "fixed", "picker": None, "winner": "East"})
    assert isinstance(o, Outcome)
    assert o.text == "The picker pays a fixed 50."


def test_settle_by_standard_schedule_sums_to_zero(rs: Ruleset) -> None:
    o = advance(rs, "first", {"valid": "no", "extra": "yes", "winner": "South", "hand_value": 30, "jokerless": "no"})
    assert isinstance(o, Outcome)
    assert o.ruling.id == "T-1"
    assert sorted((p.payer.seat, p.amount) for p in o.payments) == [("East", 60), ("North", 60), ("West", 60)]
    assert {p.payee.seat for p in o.payments} == {"South"}
    assert o.text == "Settled for South."


def test_settle_symbolic_when_value_unknown(rs: Ruleset) -> None:
    o = advance(rs, "first", {"valid": "no", "extra": "yes", "winner": "South", "hand_value": None, "jokerless": None})
    assert isinstance(o, Outcome)
    assert all(p.amount is None for p in o.payments)
    assert any("the hand value" in p.formula for p in o.payments)


def test_unknown_situation_is_a_usage_error_with_a_hint(rs: Ruleset) -> None:
    with pytest.raises(UsageError, match="did you mean 'first'"):
        advance(rs, "firts", {})


def test_an_answer_no_branch_takes_is_a_usage_error(rs: Ruleset) -> None:
    with pytest.raises(UsageError, match="leads nowhere"):
        walk(rs, "first", {"valid": "yes", "kind": "nonsense"})


def test_engine_is_pure(rs: Ruleset) -> None:
    """advance never changes the facts it is given."""
    facts = {"valid": "yes", "kind": "four", "picker": "West", "winner": "North", "hand_value": 25}
    before = dict(facts)
    advance(rs, "first", facts)
    assert facts == before
    assert engine.MAX_STEPS >= 100


def test_open_seats_word_the_settlement_once_and_mid_sentence() -> None:
    from referee.rules.loader import load_strict
    from referee.ruling.scenarios import run

    rs = load_strict("nmjl")
    o = run(rs, "valid-mahjong", {"mahjong_valid": "yes", "jokerless": "no", "win_how": "discard", "hand_value": 25}, {})
    assert [p.formula for p in o.payments] == ["50", "25"]  # "each other player" is the payer, not a suffix
    o = run(rs, "fifth-player-bettor", {"bettor_spoke": "no", "bettor_bet": "seat", "bettor_game_end": "discard",
                                         "jokerless": "no"}, {})
    line = next(x for x in o.settle_lines if x.startswith("The bettor pays or collects"))
    assert " exactly what the " in line, line  # the open seat is not capitalised mid-sentence
