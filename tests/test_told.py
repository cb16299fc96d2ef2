"""What the story already says answers its question (referee/told.py): only unambiguous words."""
from __future__ import annotations

import pytest

from referee.rules.loader import load_strict
from referee.ruling.told import answer


@pytest.fixture(scope="module")
def rs():  # type: ignore[no-untyped-def]
    return load_strict("nmjl")


def _ask(rs, sid: str, fact: str):  # type: ignore[no-untyped-def]
    sit = rs.situations[sid]
    if fact in sit.roles:
        from referee.rules.model import FactDef

        return FactDef(type="seat", ask=sit.roles[fact].ask)
    return sit.facts.get(fact) or rs.facts[fact]


@pytest.mark.parametrize("sid,fact,story,want", [
    ("mahjong-in-error", "others_acted", "she called mahjong but two of us threw our hands in", "two"),
    ("mahjong-in-error", "others_acted", "false mah jongg, two exposed their hands", "two"),
    ("mahjong-in-error", "others_acted", "false mahjong, two players threw in", "two"),
    ("mahjong-in-error", "others_acted", "bogus mahj and all three threw in", "three"),
    ("mahjong-in-error", "others_acted", "false mahj, one player exposed", "one"),
    ("mahjong-in-error", "others_acted", "false mahj and someone knocked the wall over", "wall"),
    ("misnamed-discard", "misnamed_claimed_for", "she said 3 bam but it was a 5 and I called it for mahjong", "mahjong"),
    ("misnamed-discard", "misnamed_claimed_for", "misnamed discard, south called it for a pung", "exposure"),
    ("wrong-tile-count", "miscounted", "East has 15 tiles", "East"),
    ("wrong-tile-count", "miscounted", "we found north only had 12 tiles", "North"),
    ("valid-mahjong", "win_how", "she won off my discard, what do we pay", "discard"),
    ("valid-mahjong", "win_how", "how much on a self-picked hand", "self-pick"),
    ("valid-mahjong", "jokerless", "she announced jokerless and won off my discard", "yes"),
    ("valid-mahjong", "jokerless", "her hand was jokerless and she declared it", "yes"),
    ("valid-mahjong", "jokerless", "he called it jokerless", "yes"),
    ("valid-mahjong", "hand_value", "she won with a 30 cent hand", 30),
])
def test_unambiguous_words_answer_their_question(rs, sid: str, fact: str, story: str, want) -> None:  # type: ignore[no-untyped-def]
    assert answer(story, fact, _ask(rs, sid, fact)) == want


@pytest.mark.parametrize("sid,fact,story", [
    ("mahjong-in-error", "others_acted", "false mahj"),
    ("mahjong-in-error", "others_acted", "two of us are dead"),  # nobody acted in these words
    ("mahjong-in-error", "others_acted", "one threw in, then two more exposed"),  # two readings
    ("misnamed-discard", "misnamed_claimed_for", "she said 3 bam but it was a 5, nobody called it for anything"),
    ("wrong-tile-count", "miscounted", "East has 15 tiles and West has 13 tiles"),  # which seat?
    ("valid-mahjong", "jokerless", "jokerless but she didn't announce it"),  # the question asks both
    # the tiles, not the announcement: an unannounced jokerless hand is paid single, so it is asked
    ("valid-mahjong", "jokerless", "what does she pay for a jokerless hand"),
    ("valid-mahjong", "jokerless", "she won with no jokers"),
    ("valid-mahjong", "jokerless", "mahjong without jokers, how much"),
    ("valid-mahjong", "win_how", "she picked it from the wall, or did she win off east's discard"),
])
def test_ambiguous_or_silent_words_leave_the_question_to_be_asked(rs, sid: str, fact: str, story: str) -> None:  # type: ignore[no-untyped-def]
    assert answer(story, fact, _ask(rs, sid, fact)) is None


def test_a_fact_no_reader_knows_is_never_answered(rs) -> None:  # type: ignore[no-untyped-def]
    assert answer("two of us threw in", "intact_dead_before", rs.situations["mahjong-in-error"].facts["intact_dead_before"]) is None
    assert answer(None, "others_acted", rs.situations["mahjong-in-error"].facts["others_acted"]) is None
