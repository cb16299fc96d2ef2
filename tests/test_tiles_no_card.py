"""`tiles` at a card question with no card set: the judge chooses one at the prompt (the practice
card or a file), the rest of the ruling reads it, and the verdict carries what the card said
(issue 24 §6). Driven in a pseudo-terminal, as a judge types."""
from __future__ import annotations

import pytest

from test_interactive import typing_in

pexpect = pytest.importorskip("pexpect")

PROMPT = r"\n\? [^\r\n]*: "


@pytest.fixture
def no_card(monkeypatch, tmp_path):  # type: ignore[no-untyped-def]
    monkeypatch.delenv("REFEREE_CARD", raising=False)
    monkeypatch.setenv("REFEREE_DB", str(tmp_path / "rulings.db"))  # no event, so no event's card


def test_tiles_with_no_card_lets_the_judge_choose_one(no_card) -> None:  # type: ignore[no-untyped-def]
    with typing_in("rule", "valid-mahjong", "--no-log") as child:
        child.expect("Is the Mah Jongg valid")
        child.expect(PROMPT)
        child.sendline("tiles")
        child.expect("No card is set for this ruling")
        child.expect(r"Which card\? practice, a file, or Enter to answer yourself: ")
        child.sendline("no-such-card.yaml")  # a slip: said, and asked again, not a way out of the ruling
        child.expect("no such file")
        child.expect(r"Which card\?[^\r\n]*: ")
        child.sendline("practice")
        child.expect("Card practice for this ruling")
        child.expect("14 tiles")
        child.sendline("FF 2033B 3333C 3333D")
        child.expect("exposed before Mah Jongg")
        child.sendline("")
        # the card answered 'valid' and 'value'; what it cannot tell is asked
        answers = {"jokerless": "no", "Singles and Pairs": "no", "How did the winner": "self-pick",
                   "Which seat won": "n"}
        asked = []
        for _ in range(8):
            if child.expect([PROMPT, r"Enter to finish[^\r\n]*"]) == 1:
                break
            question = next((q for q in answers if q in child.before), None)
            assert question is not None, child.before
            assert "Which card" not in child.before  # chosen once for the whole ruling
            asked.append(question)
            child.sendline(answers[question])
        verdict = " ".join(child.before.split())
        assert "value of the winning hand" not in " ".join(asked)
        assert "Ruling VMJ-2" in verdict
        assert "Card: " in verdict and "practice" in verdict  # the verdict says what the card said
        child.sendline("")
        child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_enter_at_the_card_choice_goes_back_to_the_question(no_card) -> None:  # type: ignore[no-untyped-def]
    with typing_in("rule", "valid-mahjong", "--no-log") as child:
        child.expect(PROMPT)
        child.sendline("tiles")
        child.expect(r"Which card\?[^\r\n]*: ")
        child.sendline("")
        child.expect(r"Is the Mah Jongg valid|" + PROMPT)
        child.sendline("q")
        child.expect("No ruling")
        child.expect(pexpect.EOF)
