"""The card: official reading rules, table-driven, on the invented practice card; the pitfalls of
other projects (card-and-hands.md §7) as regression cases; the dead-hand check's own rules."""
from __future__ import annotations

import json

import pytest

from referee.cards import load
from referee.cards.dead import is_dead, judge, read_table
from referee.cards.verify import read_hand, verify
from referee.errors import UsageError


@pytest.fixture(scope="module")
def card():
    return load("practice")


def made(card, hand: str, exposed: list[str] | None = None) -> list[str]:
    return [m.line.id for m in verify(card, read_hand(hand, exposed)).made]


# (hand, exposures, line that must be made or None, line that must not be made or None, why)
READING_RULES = [
    ("FF 2033B 3333C 3333D", [], "Y1", None, "a year with the soap, kongs in the other suits"),
    ("FF 2J33B 3333C 3333D", [], None, "Y1", "a joker never stands in a single (the year's 0)"),
    ("FF 2033B 33J3C 3JJ3D", [], "Y1", None, "jokers in kongs"),
    ("JJ 2033B 3333C 3333D", [], None, "Y1", "a joker never stands in a pair (the flowers)"),
    ("5555B 555C 5555D FFF", [], "A1", None, "like numbers in three suits"),
    ("5555B 666C 5555D FFF", [], None, "A1", "like numbers must be the same number"),
    ("5555B JJJJ 555C FFF", [], "A1", None, "a concealed group may be all jokers at Mah Jongg"),
    ("2222B 4444C 66D 88D FF", [], "E2", None, "three different suits"),
    ("2222B 4444C 66C 88C FF", [], None, "E2", "suits a, b, c differ: the pairs may not share the kong's suit"),
    ("NEWS 2033B 222C RRR", [], "Y3", None, "a suit's dragon follows the suit (Craks: Red)"),
    ("NEWS 2033B 222C GGG", [], None, "Y3", "the Green Dragon is not the Crak dragon"),
    ("55B 666B 7777B 888B 99B", [], "R1", None, "a run may start anywhere that keeps it within 1-9"),
    ("88B 999B 1111B 222B 33B", [], None, "R1", "numbers never wrap from 9 to 1"),
    ("1111JB FF 3333JC 00", [], "Q6", None, "two quints both odd"),
    ("1111JB FF 2222JC 00", [], None, "Q6", "same-parity: one odd and one even quint is not the line"),
    ("2222B 88B 66B 4444C FF", [], "E8", None, "the no-joker kong, natural"),
    ("2222B 88B 66B 444JC FF", [], None, "E8", "a '!' kong takes no joker"),
    ("FF 2033B 2033D RR RR", [], "S6", None, "two pairs of one dragon"),
    ("FF 2033B 2033D RRJR", [], None, "S6", "two pairs of one dragon are never a kong: no joker"),
    ("2033B 2033C 2033D FF", [], "Y4", None, "a concealed line, nothing exposed"),
    ("FFFF 2033B FFF 333C", ["FFFF", "FFF"], "Y5", None, "two flower groups, each exposed on its own"),
    ("FFFF 2033B FFF 333C", ["FFF", "FFF"], None, "Y5", "two exposed flower pungs are not the line's kong and pung"),
    ("FF 2033B 3333C 3333D", ["3333C"], "Y1", None, "an exposed kong fills the line's kong"),
    ("FF 2033B 3333C 3333D", ["333C"], None, "Y1", "an exposed pung never becomes a kong"),
    ("NNNN 123B SSSS 111C", [], "W5", None, "a run of singles in any consecutive numbers"),
    ("NNNN 12JB SSSS 111C", [], None, "W5", "a run of singles takes no joker"),
    ("1111B 222C 333C 4444B", [], "R8", None, "one-or-distinct: two suits"),
    ("1111B 222B 333B 4444B", [], "R8", None, "one-or-distinct: one suit"),
]


@pytest.mark.parametrize("hand,exposed,yes,no,why", READING_RULES, ids=[r[4] for r in READING_RULES])
def test_reading_rules(card, hand, exposed, yes, no, why) -> None:
    lines = made(card, hand, exposed)
    if yes:
        assert yes in lines, why
    if no:
        assert no not in lines, why


def test_a_concealed_line_is_not_made_once_tiles_were_exposed(card) -> None:
    hand = "FF 1a 22a 333a 1b 22b 333b".replace("a", "B").replace("b", "C")  # R4, a C line
    assert "R4" in made(card, hand)
    verdict = verify(card, read_hand(hand, ["333B"]))
    assert "R4" not in [m.line.id for m in verdict.made]
    near = {n.line.id: n for n in verdict.nearest}
    assert "R4" in near and near["R4"].blocked
    assert any("concealed line" in r for r in near["R4"].reasons)


def test_the_best_line_is_the_highest_value_and_jokerless_doubles_except_singles_and_pairs(card) -> None:
    v = verify(card, read_hand("FF 2033B 3333C 3333D"))
    assert v.best.line.id == "Y1" and v.value() == 25 and v.doubled()
    s = verify(card, read_hand("FF 2033B 2033D RR RR"))
    assert s.value() == 75 and s.hand.jokerless and not s.doubled()


def test_joker_placement_names_the_tiles_they_stand_for(card) -> None:
    v = verify(card, read_hand("FF 2033B 33J3C 3JJ3D", ["33J3C"]))
    assert v.made[0].jokers_as == [(20, 2)]  # two jokers as 3 Dots (tile 18 + 3 - 1); the exposure's own is apart


def test_nearest_lines_say_why_in_a_judges_words(card) -> None:
    v = verify(card, read_hand("FF 2J33B 3333C 3333D"))
    assert not v.made
    y1 = next(n for n in v.nearest if n.line.id == "Y1")
    assert y1.distance == 1
    text = " ".join(y1.reasons)
    assert "White Dragon" in text and "no joker in a single or pair" in text and "nowhere legal" in text
    e = verify(card, read_hand("FF 2033B 3333C 3333D", ["333C"]))
    y1 = next(n for n in e.nearest if n.line.id == "Y1")
    assert any("exposure 333C fits no group" in r for r in y1.reasons)


BAD_HANDS = [
    ("FF 2033X 3333C 3333D", "'X'"),
    ("FF 2033B 3333C 333D", "13 tiles"),
    ("FF 2033B 3333C 33333D", "15 tiles"),
    ("11111B 2222C 3333D F", "five or more of a kind need jokers"),
    ("JJJJJJJJJ 2033B F", "9 jokers"),
    ("FF 2033 3333C 3333D", "ends without a suit letter"),
    ("FF 2033B 3333C 3333D K", "'K'"),
]


@pytest.mark.parametrize("hand,says", BAD_HANDS)
def test_a_malformed_hand_is_one_line_exit_2(cli, hand, says) -> None:
    r = cli("hand", "verify", hand, "--card", "practice")
    assert r.exit_code == 2
    assert says in r.output and "Traceback" not in r.output
    assert len(r.output.strip().splitlines()) == 1


def test_an_exposure_must_be_in_the_hand(cli) -> None:
    r = cli("hand", "verify", "FF 2033B 3333C 3333D", "-x", "5555C", "--card", "practice")
    assert r.exit_code == 2 and "not in the hand" in r.output


def test_verify_json_carries_tiles_and_result(cli) -> None:
    r = cli("hand", "verify", "FF 2033B 33J3C 3333D", "-x", "33J3C", "--card", "practice", "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert doc["valid"] and doc["best"] == "Y1" and doc["value"] == 25 and not doc["jokerless"]
    assert doc["exposed"] == ["33J3C"] and doc["tiles"].startswith("F F 2B 0 3B 3B")
    assert doc["lines"][0]["jokers"] == [{"tile": "3C", "count": 1, "exposure": "33J3C"}]


def test_verify_text_names_line_value_and_kind(cli) -> None:
    r = cli("hand", "verify", "FF 2033B 3333C 3333D", "--exposed", "3333C", "--card", "practice")
    assert r.exit_code == 0
    assert "Mah Jongg" in r.output and "Y1" in r.output and "exposed (X) 25" in r.output


def test_no_card_is_a_clear_usage_error(cli) -> None:
    r = cli("hand", "verify", "FF 2033B 3333C 3333D")
    assert r.exit_code == 2 and "--card practice" in r.output
    r = cli("hand", "verify", "FF 2033B 3333C 3333D", "--card", "nosuch")
    assert r.exit_code == 2 and "unknown card 'nosuch'" in r.output


BAD_CARD = """\
card: bad
title: Bad
values: {min: 25, max: 50}
sections:
  - name: one
    lines:
      - {id: B1, groups: "FF 2033x 3333b 3333c", value: 25}
      - {id: B2, groups: "FF 2033a 3333b 333c", value: 25}
      - {id: B3, groups: "FF 2033a 3333b 3333c", value: 80}
      - {id: B4, groups: "11a 11a 11a 2222b FF FF", value: 25}
      - {id: B5, groups: "NN 2033a 3333b 3333c", value: 25, vars: {Q: odd}}
      - {id: B1, groups: "FF 2033a 3333b 3333c", value: 25}
"""


def test_card_check_places_each_problem(cli, tmp_path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(BAD_CARD)
    r = cli("card", "check", str(path))
    assert r.exit_code == 1
    lines = r.output.splitlines()

    def at(message: str) -> str:
        return next(line for line in lines if message in line).split(": ", 1)[0].rsplit(":", 2)[-2:]

    assert at("'x' in '2033x' is not a tile") == ["7", str(BAD_CARD.splitlines()[6].index("2033x") + 5)]
    assert at("hold 13 tiles")[0] == "8"
    assert at("outside the card's range 25-50")[0] == "9"
    assert at("no 14 tiles can make")[0] == "10"
    assert at("variable Q is declared but not used")[0] == "11"
    assert at("used twice")[0] == "12"


def test_card_check_passes_the_shipped_cards(cli) -> None:
    from referee.cards.store import shipped

    for path in [*shipped().values(), shipped()["practice"].parent / "template.yaml"]:
        r = cli("card", "check", str(path))
        assert r.exit_code == 0, r.output
        assert "warning:" not in r.output and "0 warnings" in r.output


def test_card_check_takes_a_shipped_cards_id_as_card_does(cli, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)  # no file named practice here: the id, not a path
    r = cli("card", "check", "practice")
    assert r.exit_code == 0, r.output
    assert "practice.yaml: 70 lines" in r.output
    wrong = cli("card", "check", "practise")
    assert wrong.exit_code == 2
    assert "unknown card 'practise'; shipped cards: practice" in wrong.output
    missing = cli("card", "check", "mine.yaml")  # a file name stays a file: said in its place, exit 1
    assert missing.exit_code == 1 and "mine.yaml: no such file" in missing.output


def test_card_check_warns_of_wording_a_judge_could_misread(cli, tmp_path) -> None:
    path = tmp_path / "c.yaml"
    path.write_text(BAD_CARD.split("    lines:")[0] + "    lines:\n"
                    '      - {id: Z1, groups: "ZZZZ 2033a 0000 ZZ", value: 35}\n')
    r = cli("card", "check", str(path))
    assert r.exit_code == 0 and "warning: line Z1: two 'any wind' groups" in r.output


def test_a_broken_card_is_refused_by_verify_with_its_place(cli, tmp_path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(BAD_CARD)
    r = cli("hand", "verify", "FF 2033B 3333C 3333D", "--card", str(path))
    assert r.exit_code == 1 and "bad.yaml:7:" in r.output and "Traceback" not in r.output


def test_card_show_reads_like_the_printed_card(cli) -> None:
    r = cli("card", "show", "practice")
    assert r.exit_code == 0
    assert "Singles and Pairs" in r.output and "C  75" in r.output and "X  25" in r.output
    doc = json.loads(cli("card", "show", "practice", "--json").output)
    assert len(doc["lines"]) == 70 and sum(line["hands"] for line in doc["lines"]) == 1411


# --- is she dead? ---


def test_the_amja_example_her_pair_is_dead_on_the_table(card) -> None:
    """Exposures fix the line (E2 needs the pair 66D): three 6 Dots out is dead, two is not."""
    exposed = ["22J2B", "44JJC"]
    assert is_dead(card, read_table(exposed, "6D 6D 6D"))
    alive = judge(card, read_table(exposed, "6D 6D"))
    assert not alive.dead and [o.target.line.id for o in alive.open] == ["E2"]
    assert any("6 Dot" in h for h in alive.open[0].hot)
    dead = judge(card, read_table(exposed, "6D 6D 6D"))
    assert dead.dead and dead.nearest[0].target.line.id == "E2"
    assert "only 1 is unseen" in dead.nearest[0].reasons[0]


def test_concealed_lines_are_out_once_she_has_exposed(card) -> None:
    v = judge(card, read_table(["FFFF"], ""))
    assert v.open and not any(o.target.line.concealed for o in v.open)


def test_tiles_in_others_exposures_count_as_out_and_their_jokers_may_be_redeemed(card) -> None:
    exposed = ["22J2B", "44JJC"]
    assert is_dead(card, read_table(exposed, "6D", ["666D"]))
    # jokers: her line needs few; redeemable jokers in others' exposures keep counting by default
    t = read_table(exposed, "JJJ", ["JJ5555C"], others_jokers_count=False)
    assert t.jokers == 0
    assert read_table(exposed, "JJJ", ["JJ5555C"]).jokers == 2


def test_more_tiles_shown_than_exist_is_refused() -> None:
    with pytest.raises(UsageError, match="6 x 6 Dots"):
        read_table([], "6D 6D 6D", ["666D"])
    with pytest.raises(UsageError, match="10 jokers are shown"):
        read_table(["55JJJC"], "JJJJJ JJ")


def test_the_card_code_stays_out_of_a_ruling_that_uses_no_card() -> None:
    import subprocess
    import sys

    code = """
import sys, json
from typer.testing import CliRunner
from referee.cli import app
r = CliRunner().invoke(app, ["rule", "wrong-end", "-a", "several_wrong_end=no", "-a", "wrong_end_discard_mj=no",
                             "--seat", "picker=West", "--no-input", "--json"])
assert r.exit_code == 0, r.output
print(json.dumps(sorted(m for m in sys.modules if m.startswith("referee.cards"))))
"""
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout.splitlines()[-1]) == []


def test_hand_dead_reads_out_the_sentence(cli) -> None:
    r = cli("hand", "dead", "-x", "22J2B", "-x", "44JJC", "--discards", "6D 6D 6D", "--card", "practice")
    assert r.exit_code == 1, r.output  # "Dead" is a finding
    assert r.output.startswith("Dead") and "E2" in r.output and "only 1 is unseen" in r.output
    r = cli("hand", "dead", "-x", "22J2B", "-x", "44JJC", "--discards", "6D 6D", "--card", "practice", "--json")
    doc = json.loads(r.output)
    assert doc["dead"] is False and [o["id"] for o in doc["open"]] == ["E2"]
    assert doc["open"][0]["still_needs"] == ["66D", "88D", "FF"] and doc["exposed"] == ["22J2B", "44JJC"]


def test_hand_dead_lists_five_lines_unless_all(cli) -> None:
    r = cli("hand", "dead", "-x", "3333C", "--card", "practice")
    assert "more (--all lists them)" in r.output
    assert "more (--all" not in cli("hand", "dead", "-x", "3333C", "--card", "practice", "--all").output


def test_hand_dead_refuses_a_table_that_cannot_be(cli) -> None:
    r = cli("hand", "dead", "-x", "666D", "--discards", "6D 6D", "--card", "practice")
    assert r.exit_code == 2 and "a set has only 4" in r.output
    r = cli("hand", "dead", "-x", "66D", "--card", "practice")
    assert r.exit_code == 2 and "3 to 6 tiles" in r.output


# --- rulings answered with tiles ---

def flat(text: str) -> str:
    return " ".join(text.split())


VALID = ["rule", "mahjong-verification", "-a", "mj_hand_shown=yes", "-a", "win_how=discard",
         "--seat", "winner=East", "--seat", "discarder=South", "--no-input"]


def test_a_ruling_answered_with_tiles_cites_the_line_and_takes_the_value(cli) -> None:
    r = cli(*VALID, "--hand", "FF 2033B 333JC 3333D", "-x", "333JC", "--card", "practice")
    assert r.exit_code == 0, r.output
    assert "makes line Y1 (2033, exposed, 25)" in flat(r.output)
    assert "South pays East 50 (2 x 25)" in flat(r.output)
    doc = json.loads(cli(*VALID, "--hand", "FF 2033B 333JC 3333D", "--card", "practice", "--json").output)
    assert doc["card"]["answered"] == {"mahjong_valid": "yes", "mjv_joker_single_pair": "no", "hand_value": 25, "jokerless": "no"}
    assert doc["card"]["hand"]["tiles"].startswith("F F 2B") and doc["card"]["hand"]["best"] == "Y1"
    assert doc["payments"][0]["amount"] == 50


def test_a_jokerless_hand_still_asks_whether_she_announced_it(cli) -> None:
    r = cli(*VALID, "--hand", "FF 2033B 3333C 3333D", "--card", "practice")
    assert r.exit_code == 2 and "jokerless" in flat(r.output)
    r = cli(*VALID, "--hand", "FF 2033B 3333C 3333D", "--card", "practice", "-a", "jokerless=yes")
    assert r.exit_code == 0 and "South pays East 100" in flat(r.output)


def test_an_invalid_hand_goes_to_mahjong_in_error_with_the_reason(cli) -> None:
    r = cli("rule", "mahjong-verification", "-a", "mj_hand_shown=yes", "-a", "others_acted=nothing",
            "-a", "declarer_exposed=no", "--seat", "declarer=East", "--no-input",
            "--hand", "FF 2J33B 3333C 3333D", "--card", "practice")
    assert r.exit_code == 0, r.output
    assert "makes no line" in flat(r.output) and "Nearest, Y1 (25)" in flat(r.output) and "no joker in a single" in flat(r.output)


def test_an_answer_the_tiles_contradict_is_refused(cli) -> None:
    r = cli(*VALID, "--hand", "FF 2J33B 3333C 3333D", "--card", "practice", "-a", "mahjong_valid=yes")
    assert r.exit_code == 2 and "mahjong_valid=yes contradicts the tiles" in flat(r.output)


def test_tiles_without_a_card_say_how_to_name_one(cli) -> None:
    r = cli(*VALID, "--hand", "FF 2033B 333JC 3333D")
    assert r.exit_code == 2 and "--card practice" in flat(r.output)


def test_the_dead_check_answers_the_unwinnable_question(cli) -> None:
    base = ["rule", "unwinnable-hand", "-a", "unw_evidence=visible", "--seat", "player=West", "--no-input",
            "-x", "22J2B", "-x", "44JJC", "--card", "practice"]
    dead = cli(*base, "--discards", "6D 6D 6D")
    assert "UNW-1" in flat(dead.output) and "only 1 is unseen" in flat(dead.output)
    alive = json.loads(cli(*base, "--discards", "6D 6D", "--json").output)
    assert alive["ruling"]["id"] == "UNW-2" and alive["card"]["table"]["open"][0]["id"] == "E2"


def test_a_disputed_death_challenge_is_settled_from_the_tiles(cli) -> None:
    """Reached straight or from death-challenge, the end-of-game check reads the card: a third 6 Dot
    exposed by another player makes the challenger right; two out leave the challenged player alive."""
    tiles = ["-x", "22J2B", "-x", "44JJC", "--card", "practice", "--no-input", "--seat", "challenger=East",
             "--seat", "challenged=South", "-a", "challenge_outcome=over", "-a", "dcc_game_end=wall"]
    dead = cli("rule", "dead-challenge-contested", *tiles, "--discards", "9B J", "--exposed-by-others", "66J6D")
    assert dead.exit_code == 0, dead.output
    assert "DCC-2" in flat(dead.output) and "South pays East 50" in flat(dead.output)
    assert "Nearest, E2 (25)" in flat(dead.output) and "only 1 is unseen" in flat(dead.output)
    via = ["rule", "death-challenge", *tiles, "-a", "challenger_active=yes", "-a", "no_death_table_rule=no",
           "-a", "challenged_response=denies"]
    alive = json.loads(cli(*via, "--discards", "6D 6D 9B J", "--json").output)
    assert alive["before"][0]["ruling"]["id"] == "DCC-3" and alive["card"]["answered"] == {"dcc_was_dead": "no"}
    assert alive["card"]["table"]["open"][0]["id"] == "E2"
    wrong = cli(*via, "--discards", "6D 6D 6D", "-a", "dcc_was_dead=no")
    assert wrong.exit_code == 2 and "dcc_was_dead=no contradicts the tiles" in flat(wrong.output)


def test_an_answers_file_with_bad_tiles_is_placed_in_the_file(cli, tmp_path) -> None:
    path = tmp_path / "case.yaml"
    path.write_text("situation: mahjong-verification\ncard: practice\nhand:\n  tiles: FF 2033Q\n"
                    "answers:\n  mj_hand_shown: 'yes'\n")
    r = cli("rule", "--answers", str(path), "--no-input")
    assert r.exit_code == 1 and "case.yaml:3:" in flat(r.output) and "'Q'" in flat(r.output)


def test_a_ruleset_names_its_card(cli, tmp_path) -> None:
    folder = tmp_path / "ours"
    folder.mkdir()
    (folder / "ruleset.yaml").write_text("id: ours\ntitle: Ours\nversion: '1'\nextends: nmjl\ncard: practice\n")
    r = cli(*VALID, "-r", str(folder), "--hand", "FF 2033B 333JC 3333D")
    assert r.exit_code == 0, r.output
    assert "makes line Y1" in flat(r.output)
    assert cli("hand", "verify", "FF 2033B 333JC 3333D", "-r", str(folder)).exit_code == 0


# --- pay --hand ---

PAY = ["pay", "--winner", "East", "--how", "discard", "--discarder", "South"]


def test_pay_takes_the_value_from_the_card(cli) -> None:
    r = cli(*PAY, "--hand", "FF 2033B 333JC 3333D", "-x", "333JC", "--card", "practice")
    assert r.exit_code == 0, r.output
    assert "is line Y1" in flat(r.output) and "pays East 50 (2 x 25)" in r.output
    doc = json.loads(cli(*PAY, "--hand", "FF 2033B 333JC 3333D", "--card", "practice", "--json").output)
    assert doc["value"] == 25 and doc["card"]["best"] == "Y1" and doc["card"]["tiles"].startswith("F F")


def test_pay_knows_singles_and_pairs_from_the_card(cli) -> None:
    r = cli(*PAY, "--hand", "FF 2033B 2033D RR RR", "--card", "practice", "--jokerless")
    assert r.exit_code == 0 and "never doubled" in r.output and "pays East 150 (2 x 75)" in r.output


def test_pay_refuses_a_hand_the_card_does_not_back(cli) -> None:
    assert cli(*PAY, "--hand", "FF 2J33B 3333C 3333D", "--card", "practice").exit_code == 2
    r = cli(*PAY, "--hand", "FF 2033B 333JC 3333D", "--card", "practice", "--jokerless")
    assert r.exit_code == 2 and "holds 1 joker" in r.output
    r = cli(*PAY, "--hand", "FF 2033B 333JC 3333D", "--card", "practice", "--value", "30")
    assert r.exit_code == 2 and "Y1 is worth 25" in r.output
    r = cli(*PAY)
    assert r.exit_code == 2 and "--value VALUE, or the tiles with --hand" in r.output


def test_tiles_typed_at_the_prompt_answer_the_question_and_those_after_it(cli) -> None:
    typed = "yes\n?\ntiles\nFF 2033B 333JC 3333D\n333JC\ndiscard\nEast\nSouth\n"
    r = cli("rule", "mahjong-verification", "--card", "practice", input=typed)
    assert r.exit_code == 0, r.output
    text = flat(r.output)
    assert "2 no, or tiles" in text  # offered on the prompt, not on a line of its own
    assert "Type tiles to answer from the card" in text  # and '?' says what it does
    assert "makes line Y1 (2033, exposed, 25)" in text and "pays East 50 (2 x 25)" in text
    assert "value of the winning hand" not in text  # the card gave the value: never asked


def test_tiles_the_card_refuses_at_the_prompt_are_asked_again(cli) -> None:
    typed = "yes\ntiles\nFF 2033Q\n\nno\nnothing\nno\nEast\n"
    r = cli("rule", "mahjong-verification", "--card", "practice", input=typed)
    assert "'Q'" in r.output and "Mah Jongg declared in error" in r.output


def test_the_booklet_can_carry_the_card(cli, tmp_path) -> None:
    r = cli("handout", "--format", "md", "--card", "practice")
    assert r.exit_code == 0
    assert "## The card: Referee Practice Card" in r.output and "| Y1 | `FF 2033a 3333b 3333c` | X | 25 |" in r.output
    html = cli("handout", "--format", "html", "--card", "practice").output
    assert '<section id="card">' in html and "<td>S6</td>" in html
    assert "The card:" not in cli("handout", "--format", "md").output
    assert cli("handout", "--sheet", "quick", "--card", "practice").exit_code == 2


def test_the_events_card_is_the_default(cli, monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("REFEREE_DB", str(tmp_path / "rulings.db"))
    monkeypatch.delenv("REFEREE_CARD", raising=False)
    assert cli("hand", "verify", "FF 2033B 3333C 3333D").exit_code == 2
    r = cli("log", "event", "--card", "practice")
    assert r.exit_code == 0 and "card    practice" in r.output
    assert "makes 1 line of card practice" in flat(cli("hand", "verify", "FF 2033B 3333C 3333D").output)
    assert "makes line Y1" in flat(cli(*VALID, "--hand", "FF 2033B 333JC 3333D").output)
    assert cli("log", "event", "--card", "nosuch").exit_code == 2
    monkeypatch.setenv("REFEREE_CARD", str(tmp_path / "missing.yaml"))
    assert "no such file" in cli("hand", "verify", "FF 2033B 3333C 3333D").output
