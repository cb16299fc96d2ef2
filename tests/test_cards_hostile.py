"""A card file from a stranger cannot hang, trick or break the tool (issue 26 §1 and §2).

The hostile corpus: the shapes that once ran past a minute (bench/hostile.py), the card inputs
of the other card tests, and every text field carrying terminal controls. Each file is checked,
shown and used to verify hands; each is accepted or refused, in one line a problem, never a
traceback, within 2 s of CPU time (CPU, not the wall clock: the suite shares its machine).
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest
import yaml

from referee.cards.limits import MAX_CARD_BYTES, MAX_CARD_WAYS, MAX_LINE_WAYS, MAX_LINES

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import hostile  # noqa: E402
from test_card_schema import BAD, _with  # noqa: E402
from test_cards import BAD_CARD, BAD_HANDS, READING_RULES  # noqa: E402
from test_cards_printed import EACH_SHAPE  # noqa: E402

HANDS = [r[0] for r in READING_RULES] + [h for h, _ in BAD_HANDS] + [h for s in EACH_SHAPE for h in s[1:3]] + [
    "FF 789C RR RRJ JJJJ", "1" * 100_000 + "B", "\x1b[2J FF 2033B 3333C 3333D", "", "   ",
]


def _inputs() -> list[tuple[str, str, str]]:
    out = list(hostile.shapes())
    out.append(("the bad card of test_cards", BAD_CARD, "refused"))
    out += [(f"schema: {why}", yaml.safe_dump(_with(change), sort_keys=False), "refused") for why, change in BAD]
    here = Path(__file__).resolve().parent
    for path in (here.parent / "cards" / "practice.yaml", here.parent / "cards" / "template.yaml",
                 here / "data" / "shapes.yaml", here / "data" / "practice-long-form.yaml"):
        out.append((path.name, path.read_text(encoding="utf-8"), "ok"))
    head = BAD_CARD.split("    lines:")[0] + "    lines:\n"
    out += [(f"a line the other card tests refuse: {line.strip()[:40]}", head + line, "refused") for line in (
        '      - {id: B1, groups: "1111A 4444D 5555b+ J 11a", value: 25, suits: "4 or 5", vars: {X: run}}\n',
        '      - {id: B1, groups: "11a 222a 3333a 444a 55a", shift: [0], value: 25, note: "Any 5 Consec. Nos."}\n',
        '      - {id: B1, groups: "11a 222b 3333a 444b 55a", value: 25, note: "Any 3 Suits"}\n',
        '      - {id: B1, groups: "FF 2033a 3333b 3333c", value: 25, suits: 3, dragons: maybe}\n',
        '      - {id: B1, groups: ["FF 2033a 3333b 3333c", 7], value: 25}\n',
        '      - {id: B1, groups: "FF 2033a 3333b 3333c ||", value: 25}\n',
        '      - {id: B1, groups: "12345 X XXXXb XXXXc", vars: {X: run}, value: 25}\n')]
    out.append(("the any-wind card of test_cards", head + '      - {id: Z1, groups: "ZZZZ 2033a 0000 ZZ", value: 35}\n', "ok"))
    return out


INPUTS = _inputs()


@pytest.mark.slow  # 47 cards, each checked, shown and used: `python -m pytest -m slow` (CI) runs it
@pytest.mark.parametrize("name,text,expected", INPUTS, ids=[i[0] for i in INPUTS])
def test_every_hostile_card_is_refused_or_accepted_quickly_and_cleanly(cli, tmp_path, name, text, expected) -> None:
    path = tmp_path / "card.yaml"
    path.write_text(text, encoding="utf-8")
    spent: dict[str, float] = {}

    def run(*args: str):  # noqa: ANN202
        start = time.process_time()
        result = cli(*args)
        spent[" ".join(args[:2])] = max(spent.get(" ".join(args[:2]), 0.0), time.process_time() - start)
        return result

    r = run("card", "check", str(path))
    assert "Traceback" not in r.output
    assert r.exit_code == (0 if expected == "ok" else 1), r.output[-2000:]
    if expected == "refused":
        first = r.output.splitlines()[0]
        assert first.startswith(str(path)) or first.startswith("card.yaml"), first
    shown = run("card", "show", str(path))
    assert shown.exit_code == r.exit_code and "Traceback" not in shown.output
    assert "\x1b" not in shown.output and "\u202e" not in shown.output
    for hand in HANDS[:3]:
        v = run("hand", "verify", hand, "--card", str(path))
        assert v.exit_code in (0, 1, 2) and "Traceback" not in v.output
    assert max(spent.values()) < 2.0, f"{name}: {spent} s of CPU"


@pytest.mark.parametrize("hand", HANDS, ids=range(len(HANDS)))
def test_every_hand_of_the_corpus_is_judged_or_refused_in_one_line(cli, hand) -> None:
    r = cli("hand", "verify", hand, "--card", "practice")
    assert r.exit_code in (0, 1, 2) and "Traceback" not in r.output
    if r.exit_code == 2:
        assert len(r.output.strip().splitlines()) == 1


def test_a_line_past_its_bound_is_refused_at_its_place_naming_it(cli, tmp_path) -> None:
    path = tmp_path / "c.yaml"
    path.write_text(hostile.shapes()[0][1], encoding="utf-8")
    r = cli("card", "check", str(path))
    assert r.exit_code == 1
    assert f"{path}:7:" in r.output or "c.yaml:7:" in r.output
    assert "line L1:" in r.output and f"at most {MAX_LINE_WAYS:,}" in r.output
    v = cli("hand", "verify", "FF 2033B 3333C 3333D", "--card", str(path))
    assert v.exit_code == 1 and "line L1:" in v.output


def test_the_card_bound_names_the_line_that_crosses_it(cli, tmp_path) -> None:
    name, text, _ = next(s for s in hostile.shapes() if s[0] == "a card just past the bound on ways")
    path = tmp_path / "c.yaml"
    path.write_text(text, encoding="utf-8")
    r = cli("card", "check", str(path))
    refusals = [ln for ln in r.output.splitlines() if "warning" not in ln]
    assert len(refusals) == 1 and "line L158:" in refusals[0] and f"{MAX_CARD_WAYS:,}" in refusals[0]


def test_card_check_says_what_the_card_costs_and_the_bounds_it_keeps(cli) -> None:
    r = cli("card", "check", "cards/practice.yaml")
    assert r.exit_code == 0
    assert f"of the {MAX_CARD_WAYS:,} ways a card may take" in r.output and f"of {MAX_LINE_WAYS:,})" in r.output
    helped = cli("card", "check", "--help").output.replace("\n", " ").replace("  ", " ")
    for figure in (f"{MAX_LINES} lines", f"{MAX_CARD_WAYS:,} ways", f"one line {MAX_LINE_WAYS:,}", f"{MAX_CARD_BYTES // 1000} kB"):
        assert figure in helped, figure


def test_every_line_error_is_reported_not_only_the_first(cli, tmp_path) -> None:
    path = tmp_path / "c.yaml"
    path.write_text(hostile.HEAD + '      - {id: L1, groups: "1111A 4444x 5555b J", value: 25}\n', encoding="utf-8")
    r = cli("card", "check", str(path))
    assert r.exit_code == 1
    assert "suit letters are lower-case" in r.output and "'x' in '4444x'" in r.output and "J is a joker" in r.output


# --- nothing a card says reaches the terminal raw ---

TEXT_FIELDS = {
    "title": lambda d, v: d.update(title=v),
    "section name": lambda d, v: d["sections"][0].update(name=v),
    "line id": lambda d, v: d["sections"][0]["lines"][0].update(id=v),
    "note": lambda d, v: d["sections"][0]["lines"][0].update(note=v),
    "display": lambda d, v: d["sections"][0]["lines"][0].update(display=v),
}
NASTY = {"clear screen": "\x1b[2J", "window title": "\x1b]0;owned\x07", "OSC 8 link": "\x1b]8;;http://x\x1b\\y\x1b]8;;\x1b\\",
         "C1 CSI": "\x9b31m", "right-to-left override": "\u202e", "NUL": "\x00"}


@pytest.mark.parametrize("field", TEXT_FIELDS)
def test_no_text_field_reaches_the_terminal_raw_and_check_warns(cli, tmp_path, field) -> None:
    doc = _with(lambda d: None)
    TEXT_FIELDS[field](doc, "A" + "".join(NASTY.values()) + "B")
    path = tmp_path / "c.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False, allow_unicode=True), encoding="utf-8")
    r = cli("card", "check", str(path))
    assert r.exit_code == 0 and "holds a control or right-to-left character" in r.output, r.output
    for args in (("card", "check", str(path)), ("card", "show", str(path)), ("card", "show", str(path), "--json"),
                 ("hand", "verify", "FF 2033B 3333C 3333D", "--card", str(path)),
                 ("hand", "verify", "FF 2033B 3333C 333D 5D", "--card", str(path))):
        shown = cli(*args).output
        assert not any(ch in shown for ch in "\x00\x07\x1b\x9b\u202e"), (args, shown)


@pytest.mark.parametrize("what", NASTY)
def test_check_warns_of_each_kind_of_control(tmp_path, what) -> None:
    from referee.cards.notation import read_card
    from referee.rules.yamlload import parse

    doc = _with(lambda d: None)
    doc["sections"][0]["lines"][0]["note"] = f"A{NASTY[what]}B"
    card = read_card(parse(yaml.safe_dump(doc, sort_keys=False, allow_unicode=True), str(tmp_path / "c.yaml")))
    assert [w.message for w in card.warnings if "'note' holds a control" in w.message]
