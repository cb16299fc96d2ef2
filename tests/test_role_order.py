"""One order of questions across a ruleset chain: an overlay that rewords a ruling does not
reorder the seats the judge is asked for."""
from __future__ import annotations

from typing import Any

from referee.ruling.engine import Question, advance
from referee.rules.loader import load_strict


def _asked(ruleset: str, sid: str, facts: dict[str, Any]) -> list[str]:
    rs, facts, asked = load_strict(ruleset), dict(facts), []
    while isinstance(step := advance(rs, sid, facts), Question):
        asked.append(step.fact)
        facts[step.fact] = None  # left open, as Enter leaves it
    return asked


def test_house_rewording_discarder_first_still_asks_winner_first() -> None:
    # house-example's hot-wall ruling names {discarder} before {winner}; nmjl's names the winner first
    nmjl = _asked("nmjl", "obvious-hand-discard", {"mahjong_valid": "yes", "jokerless": "no"})
    house = _asked("house-example", "obvious-hand-discard", {"mahjong_valid": "yes", "jokerless": "no", "hx_hot_tile": "yes"})
    seats = lambda asked: [f for f in asked if f in ("winner", "discarder")]  # noqa: E731
    assert seats(nmjl) == seats(house) == ["winner", "discarder"]


def test_a_situations_own_seats_keep_their_place() -> None:
    # the throwers named in the ruling's text come before the declarer, as before
    assert _asked("nmjl", "mahjong-in-error", {"others_acted": "two", "intact_dead_before": "no"})[:2] == ["exposers", "declarer"]


def test_a_yes_no_detail_that_changes_the_amounts_must_be_answered(cli) -> None:  # type: ignore[no-untyped-def]
    # issue 17: with jokerless=yes, Singles and Pairs decides whether the double applies; under
    # --no-input it was read as "no" and the double applied unseen
    args = ["rule", "obvious-hand-discard", "-a", "mahjong_valid=yes", "-s", "winner=South", "-s", "discarder=East",
            "-a", "hand_value=25", "-a", "jokerless=yes", "--no-input"]
    r = cli(*args)
    assert r.exit_code == 2 and "singles_and_pairs" in r.output, r.output
    assert cli(*args, "-a", "singles_and_pairs=no").exit_code == 0


def test_a_seat_or_a_hand_value_may_still_be_left_open() -> None:
    q = advance(load_strict("nmjl"), "wrong-end", {"several_wrong_end": "no", "wrong_end_discard_mj": "no"})
    assert isinstance(q, Question) and q.definition.type == "seat" and q.optional
