"""The judge's words at a real prompt (a pseudo-terminal): Enter never rules a situation she did
not mean, a typed answer is never read as another, and the prompts stay short (issue 24)."""
from __future__ import annotations

import re

import pytest

from referee.ruling.engine import advance
from referee.rules.loader import load_strict
from referee.search.rank import near_tie, search
from referee.ruling.told import answer as told_answer

from test_interactive import typing_in, wait_until_reading

pexpect = pytest.importorskip("pexpect")

PROMPT = r"\n\? [^\r\n]*: "  # the prompt line, whatever it offers


def _first_question(sid: str, story: str = "") -> str:
    """The first question the prompt asks after this story: what the story says is not asked."""
    rs, facts = load_strict("nmjl"), {}
    while True:
        step = advance(rs, sid, facts, {})
        said = told_answer(story, step.fact, step.definition)
        if said is None:
            return step.definition.ask
        facts[step.fact] = said


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
    with typing_in("rule", "--no-log") as child:
        child.expect("What happened")
        child.sendline(story)
        child.expect("Which one")
        child.sendline("")  # Enter
        if close:
            child.expect("Type 1 or 2")  # asked, not taken
            child.expect("Which one")
            child.sendline(str(ranked.index(want) + 1))
        child.expect(re.escape(_first_question(want, story)[:30]))
        child.sendline("q")
        child.expect(pexpect.EOF)


def test_a_close_second_is_said_and_enter_asks_which() -> None:
    with typing_in("rule", "--no-log") as child:
        child.expect("What happened")
        # for an exposure or for Mah Jongg? The story does not say, and the two cases rule differently
        child.sendline("two players called the same discard")
        child.expect("1 and 2 fit about equally")
        child.sendline("")
        child.expect("Type 1 or 2")
        child.sendline("q")
        child.expect("No ruling")
        child.expect(pexpect.EOF)


def test_an_amount_question_offers_referee_pay() -> None:
    with typing_in("rule", "--no-log") as child:
        child.expect("What happened")
        child.sendline("what does she pay for a jokerless hand")
        child.expect("Paying a valid Mah Jongg")
        child.expect("referee pay")
        child.sendline("q")
        child.expect(pexpect.EOF)


def test_two_at_a_count_question_is_two_players() -> None:
    # "what did the other players do": 2 is the count, never the second item (which is "one")
    with typing_in("rule", "mahjong-in-error", "--no-log") as child:
        child.expect("what did the other players do")
        child.expect(r"\? the count, 0-3, or wall[^\r\n]*: ")
        child.sendline("2")
        child.expect("the one player whose hand stayed intact")  # asked only when two threw in
        child.sendline("q")
        child.expect(pexpect.EOF)


def test_enter_at_a_required_question_says_so_in_one_line() -> None:
    with typing_in("rule", "mahjong-in-error", "--no-log") as child:
        child.expect("what did the other players do")
        child.expect(PROMPT)
        child.sendline("")
        child.expect(r"An answer is needed: the count, 0-3, or wall; \? explains\.\r\n\? the count, 0-3, or wall: ")
        child.sendline("two")  # the count in words works too
        child.expect("the one player whose hand stayed intact")
        child.sendline("no")
        child.expect("Which seats exposed or threw in")
        child.sendline("s w")  # initials, spaced, as at any seat question
        child.expect("Which seat declared Mah Jongg")
        child.sendline("seven")
        child.expect(r"'seven' is not an answer here: 1-4, E/S/W/N or a name; \? explains\.\r\n\? 1 East  2 South  3 West  4 North: ")
        child.sendline("1")
        child.expect("value")
        child.sendline("40")
        child.expect("MJE-6")
        child.expect("South and West")
        child.sendline("")
        child.expect(pexpect.EOF)


def test_the_hint_is_said_once_per_ruling() -> None:
    with typing_in("rule", "mahjong-in-error", "--no-log", "-a", "others_acted=two", "-a", "intact_dead_before=no") as child:
        child.expect(r"\? 1 East  2 South  3 West  4 North \(several: 2,3 or s w\) \(\? explains, back revises, q quits\): ")
        child.sendline("2,3")  # numbers as the seats are numbered: South, West
        child.expect("Which seat declared Mah Jongg")
        child.expect(r"\? 1 East  2 South  3 West  4 North: ")
        child.sendline("q")
        child.expect(pexpect.EOF)


def test_enter_with_no_seat_named_asks_before_leaving_it_open() -> None:
    with typing_in("rule", "obvious-hand-discard", "--no-log", "-a", "intact_dead_before=yes", "-a", "mahjong_valid=no",
                   "-a", "others_acted=two") as child:
        for _ in range(5):  # seats asked before the exposers may come first: leave them open
            i = child.expect(["Which seats exposed", PROMPT])
            if i == 0:
                break
            child.sendline("")
        child.expect(PROMPT)
        child.sendline("")
        child.expect("No seat named: type the seats, or Enter again to leave it open.")
        child.sendline("")
        child.expect(["Ruling", PROMPT])
        child.sendline("q")


# The six stories the issue counts lines for, each with the answers a judge gives (by what the
# question asks) and the ruling reached. Lines are counted as the screen shows them at that width
# (the typed story wraps too), from the first prompt until the verdict's heading is on screen.
SIX = [
    ("she called mahjong but her hand was wrong and two of us threw our hands in", "MJE-6"),
    ("false mah jongg, two exposed their hands", "MJE-6"),
    ("false mahjong, two players threw in", "MJE-6"),
    ("how many points does the discarder lose", "VMJ-1"),
    ("what does she pay for a jokerless hand", "VMJ-2"),
    ("what may be exposed", "IEX-1"),
]
ANSWERS = [  # (words of the question, the answer)
    ("already dead before the false call", "no"),
    ("Which seats exposed", "s w"),
    ("Which seat declared", "e"),
    ("What value did the declarer claim", "40"),
    ("Is the Mah Jongg valid", "yes"),
    ("jokerless, and did the winner announce", "no"),
    ("Singles and Pairs", "no"),
    ("How did the winner get the last tile", "self-pick"),
    ("Which seat won", "n"),
    ("Which seat discarded", "e"),
    ("value of the winning hand", "25"),
    ("When did the problem come to light", "1"),
    ("turn it into a valid exposure", "yes"),
    ("Which seat made the exposure", "w"),
]
LIMITS = {80: 24, 40: 36}


def _settled(child) -> str:  # type: ignore[no-untyped-def]
    """All the child has written once it waits for the judge (blocked reading) or has ended."""
    out = ""
    for _ in range(200):
        wait_until_reading(child)
        try:
            out += child.read_nonblocking(65536, timeout=0.05)
        except pexpect.TIMEOUT:
            # every prompt ends in a space (wrapped or not) and every printed line in a newline,
            # so a pause after a space is the prompt, and any other pause is mid-output
            if out.endswith(" ") or not child.isalive():
                return out
        except pexpect.EOF:
            return out
    return out


def _number_of(screen: str, sid: str) -> str:
    """The number the match list gives this situation (by its title: a narrow screen drops the id)."""
    title = " ".join(load_strict("nmjl").situations[sid].title.split())
    items = re.split(r"\n  ?(\d+)  ", screen.rpartition("What happened?")[2])[1:]
    found = {num: " ".join(text.split("\n?")[0].split("\n  amounts")[0].split()) for num, text in zip(items[::2], items[1::2])}
    return next(num for num, text in found.items() if text == title or text.startswith(title + " ("))


def _drive(columns: int, story: str, want_sid: str) -> tuple[list[str], str]:
    seen = ""
    with typing_in("rule", "--no-log", columns=columns, rows=400) as child:  # rows: nothing scrolls away
        seen += _settled(child)
        child.sendline(story)
        for _ in range(20):
            seen += _settled(child)
            before, _, prompt = seen.replace("\r", "").rpartition("\n? ")
            if prompt.startswith("Enter to finish"):
                seen = before  # the verdict ends above the offer of more
                break
            asked = " ".join((before.rpartition("\n? ")[2] + " " + prompt).split())  # since the last prompt
            if prompt.startswith("Which one"):
                reply = _number_of(before, want_sid)
            else:
                reply = next((a for q, a in ANSWERS if q in asked), None)
                assert reply is not None, seen
            child.sendline(reply)
        child.sendline("")
        child.expect(pexpect.EOF)
    lines = seen.replace("\r", "").rstrip("\n").split("\n")
    return lines, seen


SIX_SITUATIONS = ["mahjong-in-error", "mahjong-in-error", "mahjong-in-error", "valid-mahjong", "valid-mahjong",
                  "invalid-exposure"]


@pytest.mark.parametrize("columns", sorted(LIMITS))
def test_the_six_stories_reach_the_verdict_in_few_lines(columns: int) -> None:
    counts = []
    for (story, ruling), sid in zip(SIX, SIX_SITUATIONS):
        lines, seen = _drive(columns, story, sid)
        assert f"Ruling {ruling}" in seen, seen
        # what the program prints fits the width; the story typed wraps on the screen like any line
        assert all(len(line) <= columns for line in lines if story not in line), [x for x in lines if len(x) > columns]
        reached = next(i for i, line in enumerate(lines) if line.startswith(f" Ruling {ruling} "))
        counts.append(sum(max(1, -(-len(line) // columns)) for line in lines[:reached + 1]))
    assert max(counts) <= LIMITS[columns], f"lines at {columns} columns: {counts}"


def _enter_to_the_end(child) -> None:  # type: ignore[no-untyped-def]
    """Enter at every question left (an open seats question takes it twice), then at the verdict."""
    for _ in range(12):
        if child.expect([PROMPT, pexpect.EOF]) == 1:
            return
        child.sendline("")
    raise AssertionError("still asking after 12 Enters")


def test_what_the_story_says_is_not_asked_again_and_is_logged_as_from_the_story(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import json

    doc = tmp_path / "ruling.json"
    with typing_in("rule", "--no-log", "--json", "she", "called", "mahjong", "but", "two", "of", "us", "threw", "in",
                   stdout_to=doc) as child:
        child.expect("Which one")
        child.sendline("1")
        child.expect("you said: Two other players exposed tiles")
        child.expect("'back' to change")
        child.expect(r"1\. Was the one player whose hand stayed intact")  # numbered 1: the count was not asked
        child.sendline("back")  # the story was read wrong: take it back, and it is asked
        child.expect("what did the other players do")
        child.sendline("2")
        child.expect("whose hand stayed intact")
        child.sendline("back")
        child.expect("what did the other players do")
        child.sendline("two")
        child.expect("whose hand stayed intact")
        child.sendline("no")
        _enter_to_the_end(child)
    ruling = json.loads(doc.read_text())
    assert "from_story" not in ruling  # taken back and answered: asked, not read
    story = tmp_path / "story.json"
    with typing_in("rule", "--no-log", "--json", "she", "called", "mahjong", "but", "two", "of", "us", "threw", "in",
                   stdout_to=story) as child:
        child.expect("Which one")
        child.sendline("1")
        child.expect("whose hand stayed intact")
        child.sendline("no")
        _enter_to_the_end(child)
    ruling = json.loads(story.read_text())
    assert ruling["from_story"] == ["others_acted"]
    assert {"fact": "others_acted", "answer": "two", "from": "story"}.items() <= ruling["path"][0].items()
