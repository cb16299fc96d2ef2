"""`referee quiz` at a real terminal (pexpect): three stories answered right, partly right and
wrong, the score at the end, and the judge's progress in `--report`."""
from __future__ import annotations

from pathlib import Path

import pytest

from referee.rules.loader import load_strict
from referee.quiz.draw import draw
from referee.quiz.items import items

pexpect = pytest.importorskip("pexpect")
from test_interactive import finish, spawn  # noqa: E402

SEED = 2026


def _answers(k, dead=None, game=None, pay=None):  # type: ignore[no-untyped-def]
    """What to type: the key's own parts, unless a part is given."""
    typed_pay = ", ".join(f"{a} pays {b} {n}" for a, b, n in k.pay) or "none"
    return [dead if dead is not None else (", ".join(s[0] for s in k.dead) or "none"),
            game if game is not None else {"continues": "1", "ends": "2", "replay": "3", "redeal": "4"}[k.game],
            pay if pay is not None else typed_pay]


def _other_game(game: str) -> str:
    return "replay" if game != "replay" else "ends"


def test_three_stories_right_partly_and_wrong_then_the_report(tmp_path: Path) -> None:
    db = str(tmp_path / "rulings.db")
    rs = load_strict("nmjl")
    chosen = draw(items(rs), 3, SEED)
    right, partly, wrong = chosen
    other_dead = "none" if wrong.key.dead else "North"
    typed = [
        _answers(right.key),
        _answers(partly.key, game=_other_game(partly.key.game)),
        _answers(wrong.key, dead=other_dead, game=_other_game(wrong.key.game),
                 pay="East pays South 999" if wrong.key.pay != (("East", "South", 999),) else "none"),
    ]
    child = spawn("quiz", "-n", "3", "--seed", str(SEED), "--judge", "Ann", "--db", db)
    try:
        child.expect(f"3 stories · seed {SEED}")
        for n, (item, answers) in enumerate(zip(chosen, typed), 1):
            child.expect(f"Story {n} of 3")
            child.expect(item.story.split()[0])
            child.expect("Whose hands are dead")
            if n == 1:
                child.sendline("Fred")  # not a seat: refused, asked again
                child.expect("not a seat")
            child.sendline(answers[0])
            child.expect("What happens to the game")
            child.sendline(answers[1])
            child.expect("Who pays whom how much")
            child.sendline(answers[2])
            child.expect(["Marked: all right", "Marked: 2 of 3 right", "Marked: wrong"][n - 1])
            child.expect(f"Ruling {item.ruling}")
            child.expect("Source: ")
            child.expect("Asked: ")
            if n < 3:
                child.expect("Enter for the next story")
                child.sendline("")
        child.expect("Score: 1 of 3 stories fully right")
        child.expect(r"Dead hands\s+2 of 3")
        child.expect(r"Game\s+1 of 3")
        child.expect(r"Payments\s+2 of 3")
        child.expect("By phase of the game")
        child.expect("Read again:")
        child.expect(f"referee show {partly.situation}")
        code, rest = finish(child)
    finally:
        child.close(force=True)
    assert code == 0
    assert f"referee show {wrong.situation}" in rest
    assert f"referee show {right.situation}" not in rest

    child = spawn("quiz", "--report", "--judge", "ann", "--db", db)
    code, text = finish(child)
    assert code == 0, text
    assert "Ann's quizzes: 1 sitting, 3 stories, 5 of 9 parts right" in " ".join(text.split())

    def line(item) -> list[str]:  # type: ignore[no-untyped-def]
        return next(x for x in text.splitlines() if item.situation in x.split()).split()

    assert line(wrong)[:3] == ["weak", wrong.situation, "-"]
    assert line(partly)[:3] == ["weak", partly.situation, "~"]
    assert line(right)[:2] == [right.situation, "+"]

    child = spawn("quiz", "--report", "--all", "--db", db)
    code, text = finish(child)
    assert code == 0 and "Ann" in text and "1 quiz, 3 stories" in text
