"""Choosing the situation at the prompt: numbers, new words, back, list and q."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli import app

HOUSE = str(Path(__file__).resolve().parent / "rulesets" / "house")
FALSE_CALL_NOTHING = "0\n\n"  # house false-call: nothing (a count: 0) exposed, declarer left open -> HF-1


def pick(input: str, *args: str):  # type: ignore[no-untyped-def]
    result = CliRunner().invoke(app, ["rule", "--ruleset", HOUSE, *args], input=input)
    assert "Traceback" not in result.output, result.output
    return result


def test_enter_takes_the_best_match() -> None:
    r = pick("false mahj\n\n" + FALSE_CALL_NOTHING)
    assert r.exit_code == 0, r.output
    assert "HF-1" in r.stdout  # the ruling, on stdout


@pytest.mark.parametrize("lines", [
    "wrong end\nback\nfalse mahj\n1\n",  # back from the matches
    "list\n\nfalse-call\n",  # Enter after the list
    "wrong end\n1\nback\nback\nfalse mahj\n1\n",  # back from the first question, then from its matches
])
def test_what_happened_is_asked_again(lines: str) -> None:
    r = pick(lines + FALSE_CALL_NOTHING)
    assert r.exit_code == 0, r.output
    assert r.output.count("What happened?") == 2
    assert "HF-1" in r.stdout  # the ruling, on stdout


def test_back_from_the_first_question_shows_the_same_matches() -> None:
    r = pick("wrong end\n1\nback\nfalse mahj\n1\n" + FALSE_CALL_NOTHING)
    assert r.exit_code == 0, r.output
    assert r.output.count("What happened?") == 1 and r.output.count("Which one?") == 3
    assert r.output.count("Picked from the wrong end of the wall") == 2  # the list, shown again
    assert "HF-1" in r.stdout


def test_new_words_search_again() -> None:
    r = pick("wrong end\nmahj in error\n1\n" + FALSE_CALL_NOTHING)
    assert r.exit_code == 0, r.output
    assert r.output.count("Which one?") == 2
    assert "HF-1" in r.stdout  # the ruling, on stdout


@pytest.mark.parametrize("where", ["what happened", "which one"])
def test_list_shows_every_situation_by_number(where: str) -> None:
    lines = "list\n" if where == "what happened" else "wrong end\nlist\n"
    r = pick(lines + "3\n" + FALSE_CALL_NOTHING)
    assert r.exit_code == 0, r.output
    for title in ("Picked from the wrong end of the wall", "Wrong number of tiles", "Mah Jongg declared in error"):
        assert title in r.output
    assert "  3  Mah Jongg declared in error" in r.output  # grouped by phase: mahjong comes last
    assert "HF-1" in r.stdout  # the ruling, on stdout


@pytest.mark.parametrize("lines", ["q\n", "quit\n", "wrong end\nq\n", "list\nQ\n", "wrong end\nback\nquit\n"])
def test_q_quits_cleanly_with_no_ruling(lines: str) -> None:
    r = pick(lines)
    assert r.exit_code == 0, r.output
    assert "No ruling." in r.output
    assert "Ruling" not in r.stdout


def test_an_id_typed_at_the_prompt_is_taken_as_is() -> None:
    r = pick("false-call\n" + FALSE_CALL_NOTHING)
    assert r.exit_code == 0, r.output
    assert "Which one?" not in r.output
    assert "HF-1" in r.stdout  # the ruling, on stdout


def test_q_in_a_real_terminal() -> None:
    pexpect = pytest.importorskip("pexpect")
    env = {**os.environ, "NO_COLOR": "1", "TERM": "dumb", "COLUMNS": "120", "PYTHONUNBUFFERED": "1"}
    child = pexpect.spawn(sys.executable, ["-m", "referee", "rule", "--ruleset", HOUSE], env=env,
                          encoding="utf-8", timeout=20, dimensions=(40, 120))
    try:
        child.expect("What happened")
        child.sendline("wrong end")
        child.expect("Which one")
        child.sendline("back")
        child.expect("What happened")
        child.sendline("list")
        child.expect("Mah Jongg declared in error")
        child.expect("Which one")
        child.sendline("q")
        child.expect("No ruling")
        child.expect(pexpect.EOF)
        rest = child.before or ""
        child.close()
    finally:
        if child.isalive():
            child.terminate(force=True)
    assert child.exitstatus == 0
    assert "Traceback" not in rest


def test_back_at_the_first_question_stays_when_answers_were_given() -> None:
    r = pick("back\n\n", "false-call", "--answer", "others_acted=nothing")
    assert r.exit_code == 0, r.output
    assert "Nothing to go back to." in r.output
    assert "What happened?" not in r.output
    assert "HF-1" in r.stdout


def test_q_at_a_question_quits_cleanly() -> None:
    r = pick("false mahj\n1\nq\n")
    assert r.exit_code == 0, r.output
    assert "No ruling." in r.output
    assert "Ruling" not in r.stdout
