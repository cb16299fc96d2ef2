"""The real interactive prompt in a pseudo-terminal (pexpect), as a judge would use it."""
from __future__ import annotations

import json
import os
import signal
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

pexpect = pytest.importorskip("pexpect")

HOUSE = str(Path(__file__).resolve().parent / "rulesets" / "house")
TIMEOUT = 20


def spawn(*args: str, stdout_to: Path | None = None, columns: int = 120, rows: int = 40):  # type: ignore[no-untyped-def]
    """referee in a pseudo-terminal `columns` wide; with `stdout_to`, its standard output goes to that file."""
    env = {**os.environ, "NO_COLOR": "1", "TERM": "dumb", "COLUMNS": str(columns), "PYTHONUNBUFFERED": "1"}
    program, argv = sys.executable, ["-m", "referee", *args]
    if stdout_to is not None:
        program, argv = "/bin/sh", ["-c", 'exec "$0" "$@" > "$OUT"', sys.executable, *argv]
        env["OUT"] = str(stdout_to)
    # A run started in the background (`.ci/run &`, a job runner) inherits SIGINT ignored, and
    # Python then never raises KeyboardInterrupt: the judge's terminal has it, so the child does.
    return pexpect.spawn(program, argv, env=env, encoding="utf-8", timeout=TIMEOUT, dimensions=(rows, columns),
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


@contextmanager
def typing_in(*args: str, stdout_to: Path | None = None, columns: int = 120, rows: int = 40) -> Iterator[Any]:
    """referee in a pseudo-terminal for the length of a with-block (`spawn`), never left running
    after it, however the block ends: the one set-up every pty test shares."""
    child = spawn(*args, stdout_to=stdout_to, columns=columns, rows=rows)
    try:
        yield child
    finally:
        if child.isalive():
            child.terminate(force=True)


def wait_until_reading(child, timeout: float = TIMEOUT) -> None:  # type: ignore[no-untyped-def]
    """Return once the child sleeps, i.e. is blocked reading the terminal (Linux /proc; elsewhere at once).

    Seeing the prompt is not enough before a ^C: CPython's input() writes the prompt and only
    then blocks in read(); a SIGINT in between is noted but not acted on until read() returns,
    so the child would sit at the prompt until the next key. A judge never types that fast; a
    test on a loaded machine does.
    """
    stat = Path(f"/proc/{child.pid}/stat")
    deadline = time.monotonic() + timeout
    while stat.exists() and time.monotonic() < deadline:
        if stat.read_text().rpartition(")")[2].split()[0] == "S":
            return
        time.sleep(0.01)


def finish(child) -> tuple[int | None, str]:  # type: ignore[no-untyped-def]
    child.expect(pexpect.EOF)
    rest = child.before or ""
    child.close()
    return child.exitstatus, rest


def enter_to_finish(child) -> tuple[int | None, str]:  # type: ignore[no-untyped-def]
    """After the verdict the prompt offers the notes and citations; Enter declines."""
    child.expect("Enter to finish")
    child.sendline("")
    return finish(child)


def test_search_pick_answer_help_back_and_rule() -> None:
    child = spawn("rule", "--ruleset", HOUSE)
    transcript: list[str] = []
    try:
        child.expect("What happened")
        child.sendline("wrnog end")  # a typo is forgiven
        child.expect("Picked from the wrong end of the wall")
        child.expect("Which one")
        child.sendline("1")
        child.expect("discard claimed for Mah Jongg")
        child.expect(r"\? [^\r\n]*: ")
        child.sendline("?")
        child.expect("Claimed means another player called it")
        child.sendline("2")  # no ...
        child.expect("Which seat picked from the wrong end")
        transcript.append(child.before)
        child.sendline("back")  # ... revised: back to the previous question
        child.expect("discard claimed for Mah Jongg")
        child.sendline("1")  # yes
        child.expect("Is the Mah Jongg valid")
        child.sendline("yes")
        child.expect("Which seat picked from the wrong end")
        child.expect("Enter to leave open")
        child.sendline("3")  # West, by number
        child.expect("Which seat declared Mah Jongg")
        child.sendline("N")
        child.expect("value of the winning hand")
        child.sendline("30")
        child.expect("HW-2")
        child.expect(r"West pays North 120 \(4 x 30\)")
        child.expect("Rule: BOOK, CLUB")  # the verdict: the rule keys, not yet the citations
        child.expect("Enter to finish, or 'more' for 1 note and 2 citations")
        assert "Wrong end and Mah Jongg" not in child.before
        child.sendline("more")
        child.expect("BOOK, Wrong end and Mah Jongg")
        status, rest = finish(child)
    finally:
        if child.isalive():
            child.terminate(force=True)
    assert status == 0
    assert "Traceback" not in rest


def test_enter_leaves_a_detail_open() -> None:
    with typing_in("rule", "picked-wrong-end", "--ruleset", HOUSE, "-a", "discard_claimed=yes", "-a", "mahjong_valid=yes") as child:
        for _ in range(3):  # picker, winner, hand value: all left open
            child.expect("Enter to leave open")
            child.sendline("")
        child.expect("HW-2")
        child.expect("The picker pays the winner 4 x the hand value")
        status, _ = enter_to_finish(child)
    assert status == 0


def test_a_bad_answer_is_refused_and_asked_again() -> None:
    with typing_in("rule", "false-call", "--ruleset", HOUSE) as child:
        child.expect("What did the other players do")
        child.sendline("seven")
        child.expect("not an answer here")
        child.sendline("0")  # a count: nobody else acted
        child.expect("Which seat declared")
        child.sendline("Middle")
        child.expect("'Middle' is not an answer here: 1-4, E/S/W/N or a name")
        child.sendline("E")
        child.expect("HF-1")
        child.expect("East takes back the call")
        status, _ = enter_to_finish(child)
    assert status == 0


def _break_off(where: str, key) -> tuple[int | None, str]:  # type: ignore[no-untyped-def]
    """Press `key` (^C, ^D) while the prompt waits, at the search or at the first question."""
    args = ["rule", "--ruleset", HOUSE] if where == "search" else ["rule", "false-call", "--ruleset", HOUSE]
    with typing_in(*args) as child:
        child.expect("What happened" if where == "search" else r"What did the other players do(.|\n)*\? [^\r\n]*: ")
        wait_until_reading(child)
        key(child)
        return finish(child)


@pytest.mark.parametrize("where", ["search", "question"])
def test_ctrl_c_exits_130_without_a_traceback(where: str) -> None:
    status, rest = _break_off(where, lambda child: child.sendintr())
    assert status == 130, rest
    assert "Traceback" not in rest
    assert "interrupted" in rest


def test_questions_reach_the_terminal_when_stdout_is_a_file(tmp_path: Path) -> None:
    """`rule --json > file`: the judge still sees every question; the file holds only JSON."""
    doc = tmp_path / "ruling.json"
    child = spawn("rule", "picked-wrong-end", "--ruleset", HOUSE, "-p", "West=Ruth", "--json", stdout_to=doc)
    conversation = [("discard claimed for Mah Jongg", "yes"), ("Is the Mah Jongg valid", "yes"),
                    (r"Which seat picked from the wrong end(.|\n)*3 West \(Ruth\)", "3"),
                    ("Which seat declared Mah Jongg", "N"), ("value of the winning hand", "30")]
    try:
        for question, answer in conversation:
            child.expect(question)
            child.sendline(answer)
        status, rest = finish(child)
    finally:
        if child.isalive():
            child.terminate(force=True)
    assert status == 0, rest
    result = json.loads(doc.read_text())
    assert result["ruling"]["id"] == "HW-2"
    assert result["payments"][0]["from"] == {"seat": "West", "role": "picker", "name": "Ruth"}


def test_a_seat_clash_asks_that_seat_again_not_a_later_answer() -> None:
    with typing_in("rule", "mahjong-in-error", "-a", "others_acted=two", "-a", "intact_dead_before=no") as child:
        child.expect("Which seats exposed or threw in")
        child.sendline("East,West")
        child.expect("Which seat declared Mah Jongg")
        child.sendline("West")  # the declarer is not one of the throwers
        child.expect("West is already one of the exposers; the declarer is another player")
        child.expect(r"\? [^\r\n]*: ")
        child.sendline("North")
        child.expect("value")
        child.sendline("40")
        child.expect("MJE-6")
        child.expect(r"North pays South 80 \(2 x 40\)")
        status, rest = enter_to_finish(child)
    assert status == 0
    assert "pays East" not in rest and "pays West" not in rest


def test_ctrl_d_at_a_terminal_says_nothing_was_ruled() -> None:
    # a judge at the keyboard, not a script: no advice about --answer or --no-input
    status, rest = _break_off("question", lambda child: child.sendeof())
    assert status == 2, rest
    assert "input ended" in rest and "nothing was ruled" in rest, rest
    assert "--no-input" not in rest and "Traceback" not in rest
