"""One order of questions across a ruleset chain: an overlay that rewords a ruling does not
reorder the seats the judge is asked for."""
from __future__ import annotations

from typing import Any

from referee.engine import Question, advance
from referee.loader import load_strict


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
    assert _asked("nmjl", "mahjong-in-error", {"others_acted": "two"})[:2] == ["exposers", "declarer"]
