"""The prompt at the table (issue 18), in a pseudo-terminal at a phone's and a laptop's width:
the verdict first with 'more' for the rest, seats answered by the player's name, errors in the
question's words, and `back` from the first question to the matches just shown."""
from __future__ import annotations

import re

import pytest

from test_interactive import finish, typing_in

pexpect = pytest.importorskip("pexpect")

WIDTHS = [40, 100]
PROMPT = r": $"  # the end of a prompt waiting for the judge, however the width wraps it


def flat(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("columns", WIDTHS)
def test_seats_by_name_errors_in_words_and_more_after_the_verdict(columns: int) -> None:
    with typing_in("rule", "mahjong-in-error", "-a", "others_acted=two", "-a", "intact_dead_before=no", "-p", "West=Cy", "-p", "North=Ruth Anne", "--no-log", columns=columns) as child:
        child.expect("exposed or threw in")
        child.expect(PROMPT)
        child.sendline("cy, east")  # a name as the list shows it, beside a seat
        child.expect("declared Mah Jongg")
        child.expect(PROMPT)
        child.sendline("RUTH ANNE")
        child.expect("value")
        child.expect(PROMPT)
        child.sendline("40c")
        child.expect(PROMPT)
        said = flat(child.before)
        assert "declared_value" not in said  # the fact's id means nothing at the table
        assert "'40c' is not a whole number" in said
        child.sendline("40")
        child.expect("Enter to finish")
        verdict = flat(child.before)
        assert "East and West (Cy) exposed" in verdict and "North (Ruth Anne) pays South 80" in verdict
        assert "Rule: AMJA-MJERR, CARD, S-415, S-055" in verdict
        assert "Mah Jongg Made Easy" not in verdict  # the citations wait for 'more'
        child.sendline("more")
        status, rest = finish(child)
    assert status == 0
    assert "quoting Mah Jongg Made Easy" in flat(rest) and "Notes:" in rest
    assert all(len(line) <= columns for line in rest.splitlines())


@pytest.mark.parametrize("columns", WIDTHS)
def test_back_at_the_first_question_shows_the_matches_again(columns: int) -> None:
    with typing_in("rule", "--no-log", columns=columns) as child:
        child.expect("What happened")
        child.sendline("two of us threw in after her bogus mahj")  # a story: a list, not an exact alias
        child.expect("Which one")
        matches = re.findall(r"  \d  ([^\r\n]+)", child.before)  # by title: a narrow screen drops the ids
        child.sendline("2")
        child.expect(PROMPT)
        child.sendline("back")
        child.expect("Which one")
        again = re.findall(r"  \d  ([^\r\n]+)", child.before)
        assert "What happened" not in child.before
        child.sendline("1")  # and a choice from it works as before
        child.expect(PROMPT)
        child.sendline("q")
        status, _ = finish(child)
    assert status == 0
    assert matches and again[-len(matches):] == matches


@pytest.mark.parametrize("columns", WIDTHS)
def test_back_after_an_exact_title_asks_what_happened(columns: int) -> None:
    with typing_in("rule", "wrong", "wall", "--no-log", columns=columns) as child:  # a title typed exactly: no list was shown
        child.expect(PROMPT)
        child.sendline("back")
        child.expect("What happened")
        child.sendline("q")
        status, _ = finish(child)
    assert status == 0
