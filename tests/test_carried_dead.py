"""A hand carried into a ruling already dead (a bad pick whose discard was falsely claimed) can leave
too few live hands for the ruling's own text; the outcome must say so rather than 'play on'."""
from __future__ import annotations

import pytest

from referee.ruling.engine import Outcome, advance
from referee.rules.loader import load_strict

WRONG_END_FALSE_MJ = {"several_wrong_end": "no", "wrong_end_discard_mj": "yes", "mahjong_valid": "no",
                      "picker": "North", "winner": "South"}


@pytest.fixture(scope="module")
def nmjl():  # type: ignore[no-untyped-def]
    return load_strict("nmjl")


def outcome(rs, sid: str, **facts: object) -> Outcome:  # type: ignore[no-untyped-def]
    out = advance(rs, sid, facts)
    assert isinstance(out, Outcome), out
    return out


def test_a_throw_in_after_a_false_call_on_a_wrong_end_discard_replays_with_one_live_hand(nmjl) -> None:  # type: ignore[no-untyped-def]
    # the picker died before the call: the goto says so, so the judge is not asked, and the game
    # is replayed rather than played on by one live hand
    out = outcome(nmjl, "wrong-end", **WRONG_END_FALSE_MJ, others_acted="one", exposer="East")
    assert out.ruling.id == "MJE-11" and out.game == "replay"
    assert {p.seat for p in out.dead} == {"South", "East", "North"}
    assert not any("left live" in n for n in out.notes)


def test_a_hand_dead_before_the_call_is_asked_when_the_judge_starts_at_the_false_call(nmjl) -> None:  # type: ignore[no-untyped-def]
    q = advance(nmjl, "mahjong-in-error", {"others_acted": "one"})
    assert not isinstance(q, Outcome) and q.fact == "dead_before_call"
    out = outcome(nmjl, "mahjong-in-error", others_acted="one", dead_before_call="yes", declarer="South", exposer="East")
    assert out.ruling.id == "MJE-11" and out.game == "replay"
    out = outcome(nmjl, "mahjong-in-error", others_acted="one", dead_before_call="no", survivor_later_dead="no",
                  declarer="South", exposer="East")
    assert out.ruling.id == "MJE-4" and out.game == "continues"


def test_no_note_when_two_live_hands_remain(nmjl) -> None:  # type: ignore[no-untyped-def]
    out = outcome(nmjl, "wrong-end", **WRONG_END_FALSE_MJ, others_acted="nothing", declarer_exposed="yes",
                  exposure_convertible="no")
    assert [b.ruling.id for b in out.before] == ["MJE-3"] and out.ruling.id == "JDH-2"
    assert not any("left live" in n for b in out.before for n in b.notes) and not any("left live" in n for n in out.notes)


def test_no_note_when_the_ruling_already_replays_three_dead_hands(nmjl) -> None:  # type: ignore[no-untyped-def]
    out = outcome(nmjl, "dead-hand-rules", dead_accepted="yes", dead_when="third", dead_player="East", tdh_cause="none",
                  dead_seats="East,South,West")
    assert out.ruling.id == "TDH-1"
    assert not any("left live" in n for n in out.notes)
