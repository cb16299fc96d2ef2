"""`referee card new`: a card typed in one printed line at a time, each line checked as typed,
shown back with an example hand, the file saved after every line kept (issue 30 §2)."""
from __future__ import annotations

from referee.cards import load
from referee.cards.draft import Draft
from referee.cards.verify import read_hand, verify

SESSION = "\n".join([
    "club-2033", "My club 2033", "25 75",
    "Consecutive Run",
    "11 222 3333 444 55", "25", "X", "Any 5 Consec. Nos.",
    "1111A 222b 333c", "25", "X", "",                       # refused: a slip, asked again
    "FF 789 DD DDD DDDD", "30", "c", "Any 3 Dragons",
    "",
    "2468",
    "E9: 22 444 66 888 FFFF", "", "", "",
    "", "",
]) + "\n"


def test_a_card_is_typed_line_by_line_checked_and_saved(cli, tmp_path) -> None:
    path = tmp_path / "club.yaml"
    r = cli("card", "new", str(path), input=SESSION)
    assert r.exit_code == 0, r.output
    assert "kept CR1" in r.output and "for example 11B 222B 3333B 444B 55B" in r.output
    assert "suit letters are lower-case" in r.output and "Not kept; type the line again." in r.output
    assert "varies: any consecutive run; any 1 suit" in r.output
    assert "kept E9" in r.output and "Saved 3 lines" in r.output
    checked = cli("card", "check", str(path))
    assert checked.exit_code == 0 and "0 warnings" in checked.output, checked.output
    idx = load(str(path))
    assert [ln.id for ln in idx.card.lines] == ["CR1", "CR2", "E9"]
    assert idx.card.line("CR2").concealed and idx.card.line("E9").value == 30
    assert [m.line.id for m in verify(idx, read_hand("FF 789D GG RRR 0000")).made] == ["CR2"]
    assert [m.line.id for m in verify(idx, read_hand("FF 789D GG RRR 0000", ["RRR"])).made] == []  # a C line
    assert [m.line.id for m in verify(idx, read_hand("55C 666C 7777C 888C 99C")).made] == ["CR1"]


def test_lines_kept_before_ctrl_d_are_saved(cli, tmp_path) -> None:
    path = tmp_path / "club.yaml"
    r = cli("card", "new", str(path), input="\n\n\nRun\n11 222 3333 444 55\n25\nX\nAny 5 Consec. Nos.\n22 33")
    assert r.exit_code == 0 and "Saved 1 line" in r.output
    assert load(str(path)).card.line("R1").value == 25


def test_an_existing_file_is_never_replaced_without_force(cli, tmp_path) -> None:
    path = tmp_path / "club.yaml"
    path.write_text("mine\n", encoding="utf-8")
    r = cli("card", "new", str(path), input="\n")
    assert r.exit_code == 2 and "exists" in r.output and path.read_text(encoding="utf-8") == "mine\n"
    r = cli("card", "new", str(path), "--force", input="\n\n\n\n")
    assert r.exit_code == 0 and "nothing saved" in r.output and path.read_text(encoding="utf-8") == "mine\n"


def test_a_draft_refuses_a_repeated_id_and_a_line_past_its_bound() -> None:
    draft = Draft("c", "C", (25, 50))
    assert draft.offer("One", {"id": "A", "groups": "FF 2033a 3333b 3333c", "value": 25}).ok
    again = draft.offer("One", {"id": "A", "groups": "FF 2033a 4444b 4444c", "value": 25})
    assert not again.ok and "used twice" in again.problems[0]
    huge = draft.offer("One", {"id": "B", "groups": " ".join(["1a|2a|3a|4a|5a|6a|7a|8a|9a"] * 14), "value": 25})
    assert not huge.ok and "at most 5,000" in huge.problems[0]
    assert draft.lines == 1 and draft.next_id("One") == "O2" and draft.next_id("2468") == "2468-1"
