"""A new user at a terminal answers `referee house new`, rules under the folder it writes, and
`referee house edit` asks again with her answers as defaults, keeping her own file."""
from __future__ import annotations

from pathlib import Path

import pytest

from referee.house import catalogue, read_answers

from test_interactive import finish, spawn, typing_in

pexpect = pytest.importorskip("pexpect")


def _answer_custom(child, title: str, play: bool, number: str | None = None) -> None:  # type: ignore[no-untyped-def]
    child.expect_exact(title)
    child.expect(r"Does your table play it\?")
    child.sendline("y" if play else "")
    if play and number is not None:
        child.expect(r"\(Enter for \d+\)")
        child.sendline(number)


def test_a_new_user_answers_the_wizard_rules_under_it_and_edit_keeps_her_file(tmp_path: Path) -> None:
    cat = catalogue()  # absolute paths throughout: a chdir here would move every later test in this worker
    plays = {"pie": "300", "hot-wall": ""}  # '' takes the default number
    with typing_in("house", "new") as child:
        child.expect("Folder for your table's rules")
        child.sendline(str(tmp_path / "tuesday"))
        child.expect("A title for your rules")
        child.sendline("Tuesday group")
        for c in cat.values():
            _answer_custom(child, c.title, c.id in plays, plays.get(c.id) if c.number else None)
        child.expect(r"check:\s+ok")
        child.expect(r"situations?\s+rules?\s+differently")
        child.expect("REFEREE_RULESET")
        status, rest = finish(child)
    assert status == 0, rest
    assert read_answers(tmp_path / "tuesday").customs == {"pie": 300, "hot-wall": 3}

    # `rule` under it gives the custom's ruling
    child = spawn("rule", "obvious-hand-discard", "-r", str(tmp_path / "tuesday"), "-s", "winner=North", "-s", "discarder=West",
                  "-a", "hand_value=30", "-a", "mahjong_valid=yes", "-a", "hc_hot_tile=yes", "--no-input")
    child.expect("HC-HW-2")
    child.expect("By your table's hot-wall rule")
    child.expect(r"West pays North 120")
    assert finish(child)[0] == 0

    # her own file, then `house edit`: today's answers are the defaults (Enter keeps them)
    mine = tmp_path / "tuesday" / "situations" / "our-words.yaml"
    mine.write_text("patch: wrong-wall\ntitle: Picked from the wrong wall (our words)\n")
    with typing_in("house", "edit", str(tmp_path / "tuesday")) as child:
        for c in cat.values():
            child.expect_exact(c.title)
            child.expect(r"Does your table play it\? \((Y/n|y/N)\)")
            assert (child.match.group(1) == "Y/n") == (c.id in plays), c.id
            if c.id == "hot-wall":
                child.sendline("n")  # no longer played
            elif c.id == "pie":
                child.sendline("")
                child.expect(r"\(Enter for 300\)")
                child.sendline("")
            else:
                child.sendline("")
        child.expect(r"check:\s+ok")
        status, rest = finish(child)
    assert status == 0, rest
    assert mine.read_text().startswith("patch: wrong-wall")
    assert read_answers(tmp_path / "tuesday").customs == {"pie": 300}
    child = spawn("show", "wrong-wall", "-r", str(tmp_path / "tuesday"))
    child.expect("our words")
    assert finish(child)[0] == 0
