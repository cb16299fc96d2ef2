"""The judge's words at a real prompt (a pseudo-terminal): Enter never rules a situation she did
not mean, a typed answer is never read as another, and the prompts stay short (issue 24)."""
from __future__ import annotations

import pytest

from referee.ruling.engine import advance
from referee.rules.loader import load_strict
from referee.search.rank import near_tie, search

from test_interactive import spawn

pexpect = pytest.importorskip("pexpect")


def _first_question(sid: str) -> str:
    step = advance(load_strict("nmjl"), sid, {}, {})
    return step.definition.ask


# The four stories the issue tried, whose first match used to be a ruling the judge never meant.
TROUBLE = [
    ("she called mahjong but her hand was wrong and two of us threw our hands in", "mahjong-in-error"),
    ("false mah jongg, two exposed their hands", "mahjong-in-error"),
    ("false mahjong, two players threw in", "mahjong-in-error"),
    ("how many points does the discarder lose", "valid-mahjong"),
]


@pytest.mark.parametrize("story,want", TROUBLE)
def test_enter_after_these_stories_never_rules_another_situation(story: str, want: str) -> None:
    sits = list(load_strict("nmjl").situations.values())
    hits = search(sits, story, limit=5)
    ranked = [h.situation.id for h in hits]
    assert want in ranked[:2], ranked
    close = near_tie(hits)
    assert ranked[0] == want or close, f"{ranked}: Enter would take {ranked[0]}"
    child = spawn("rule", "--no-log")
    try:
        child.expect("What happened")
        child.sendline(story)
        child.expect("Which one")
        child.sendline("")  # Enter
        if close:
            child.expect("Type 1 or 2")  # asked, not taken
            child.expect("Which one")
            child.sendline(str(ranked.index(want) + 1))
        child.expect(_first_question(want)[:30])
        child.sendline("q")
        child.expect(pexpect.EOF)
    finally:
        if child.isalive():
            child.terminate(force=True)


def test_a_close_second_is_said_and_enter_asks_which() -> None:
    child = spawn("rule", "--no-log")
    try:
        child.expect("What happened")
        child.sendline("false mahjong, two players threw in")
        child.expect("1 and 2 fit about equally")
        child.sendline("")
        child.expect("Type 1 or 2")
        child.sendline("q")
        child.expect("No ruling")
        child.expect(pexpect.EOF)
    finally:
        if child.isalive():
            child.terminate(force=True)


def test_an_amount_question_offers_referee_pay() -> None:
    child = spawn("rule", "--no-log")
    try:
        child.expect("What happened")
        child.sendline("what does she pay for a jokerless hand")
        child.expect("Paying a valid Mah Jongg")
        child.expect("referee pay")
        child.sendline("q")
        child.expect(pexpect.EOF)
    finally:
        if child.isalive():
            child.terminate(force=True)
