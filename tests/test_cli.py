"""Every command through typer's CliRunner.

Most tests drive tests/rulesets/house, a small ruleset written for them, so they hold
whatever the shipped content says; the shipped rulesets are exercised generically.
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import typer
import yaml

import referee
from typer.testing import CliRunner

from referee.cli import app
from referee.rules.loader import available, load_strict
from referee.ruling.scenarios import scenario_files

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
HOUSE = str(TESTS / "rulesets" / "house")
BROKEN = TESTS / "broken" / "rulesets"
HOUSE_ENV = {"REFEREE_RULESETS": str(TESTS / "rulesets")}
SHIPPED_SCENARIOS = scenario_files([ROOT / "scenarios"]) if (ROOT / "scenarios").is_dir() else []


class Run:
    def __init__(self, result: Any) -> None:
        self.result = result
        self.code: int = result.exit_code
        self.stdout: str = result.stdout
        self.stderr: str = result.stderr
        self.output: str = result.output

    def json(self) -> Any:
        return json.loads(self.stdout)


def run(*args: str, input: str | None = None, env: dict[str, str] | None = None) -> Run:
    result = CliRunner().invoke(app, list(args), input=input, env=env)
    # an expected error is one line and an exit code, never a traceback
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert "Traceback" not in result.output, result.output
    return Run(result)


def house(*args: str, **kw: Any) -> Run:
    return run(*args, "--ruleset", HOUSE, **kw)


# ---------------------------------------------------------------------------
# rule


def test_rule_json_has_every_field() -> None:
    r = house("rule", "picked-wrong-end", "--answer", "discard_claimed=yes", "-a", "mahjong_valid=yes",
              "--seat", "picker=West", "-s", "winner=North", "-a", "hand_value=30",
              "--player", "West=Ruth", "-p", "N=Bea", "--no-input", "--json")
    assert r.code == 0, r.output
    doc = r.json()
    rs = load_strict(HOUSE)
    assert doc["referee_version"] == referee.__version__
    assert doc["ruleset"] == {"id": "house", "version": "7.1", "hash": rs.hash}
    assert re.fullmatch(r"[0-9a-f]{12}", doc["ruleset"]["hash"])
    assert doc["situation"]["id"] == "picked-wrong-end"
    assert [(s["fact"], s["answer"]) for s in doc["path"]] == [("discard_claimed", "yes"), ("mahjong_valid", "yes")]
    assert all(s["question"] for s in doc["path"])
    assert doc["ruling"]["id"] == "HW-2"
    assert doc["ruling"]["text"] == "The game ends. West (Ruth) pays North (Bea) four times the hand value."
    assert doc["ruling"]["cite"][0]["source"] == "BOOK"
    assert doc["ruling"]["cite"][0]["section"] == "Wrong end and Mah Jongg"
    assert doc["ruling"]["cite"][0]["url"] == "https://example.org/book"
    assert [c["source"] for c in doc["ruling"]["cite"]] == ["BOOK", "CLUB"]
    assert doc["dead"] == []
    assert doc["game"] == "ends"
    [pay] = doc["payments"]
    assert pay["from"] == {"seat": "West", "role": "picker", "name": "Ruth"}
    assert pay["to"] == {"seat": "North", "role": "winner", "name": "Bea"}
    assert pay["amount"] == 120
    assert doc["tiles"] == []
    assert doc["notes"] == ["Nobody else pays."]


def test_rule_json_dead_and_tiles() -> None:
    r = house("rule", "picked-wrong-end", "-a", "discard_claimed=no", "-s", "picker=S", "--no-input", "--json")
    assert r.code == 0, r.output
    doc = r.json()
    assert doc["ruling"]["id"] == "HW-1"
    assert doc["dead"] == [{"seat": "South", "role": "picker", "name": None}]
    assert doc["game"] == "continues"
    assert doc["payments"] == []
    assert doc["tiles"] == ["The wrongly picked tile stays in the dead hand."]


def test_rule_json_across_a_goto_and_group_payment() -> None:
    r = house("rule", "picked-wrong-end", "-a", "discard_claimed=yes", "-a", "mahjong_valid=no",
              "-a", "others_acted=two", "-s", "declarer=East", "--no-input", "--json")
    assert r.code == 0, r.output
    doc = r.json()
    assert doc["situation"]["id"] == "picked-wrong-end"
    assert doc["ruling"]["id"] == "HF-3"
    assert [s["situation"] for s in doc["path"]] == ["picked-wrong-end", "picked-wrong-end", "false-call"]
    assert sorted((p["from"]["seat"], p["to"]["seat"], p["amount"]) for p in doc["payments"]) == [
        ("East", "North", 25), ("East", "South", 25), ("East", "West", 25)]
    assert {p["to"]["role"] for p in doc["payments"]} == {"active"}  # a group, each member by seat


def test_rule_unknown_amount_stays_symbolic_under_no_input() -> None:
    r = house("rule", "picked-wrong-end", "-a", "discard_claimed=yes", "-a", "mahjong_valid=yes", "--no-input", "--json")
    assert r.code == 0, r.output
    [p] = r.json()["payments"]
    assert p["amount"] is None
    assert p["from"] == {"seat": None, "role": "picker", "name": None}  # left open: no seat, not prose
    assert p["to"] == {"seat": None, "role": "winner", "name": None}
    assert p["text"] == "The picker pays the winner 4 x the hand value"


def test_rule_text_output() -> None:
    r = house("rule", "picked-wrong-end", "-a", "discard_claimed=yes", "-a", "mahjong_valid=yes",
              "-s", "picker=West", "-s", "winner=North", "-a", "hand_value=25", "-p", "North=Ruth", "--no-input")
    assert r.code == 0, r.output
    out = r.stdout
    assert "HW-2" in out
    assert "West pays North (Ruth) 100 (4 x 25)" in out
    assert "The game ends" in out
    # the verdict, then the rule keys in one line; the citations' words only with --full
    assert "Rule: BOOK, CLUB" in out and "BOOK, Wrong end and Mah Jongg" not in out
    full = house("rule", "picked-wrong-end", "-a", "discard_claimed=yes", "-a", "mahjong_valid=yes",
                 "-s", "picker=West", "-s", "winner=North", "-a", "hand_value=25", "-p", "North=Ruth", "--no-input", "--full")
    assert "BOOK, Wrong end and Mah Jongg" in full.stdout
    assert full.stdout.startswith(out.rsplit("Rule:", 1)[0])  # the same verdict first


def test_rule_answers_file(tmp_path: Path) -> None:
    f = tmp_path / "case.yaml"
    f.write_text(yaml.safe_dump({
        "ruleset": HOUSE, "situation": "false-call", "answers": {"others_acted": "one"},
        "seats": {"declarer": "East", "exposer": "West"}, "players": {"East": "Ruth"},
        "expect": {"ruling": "HF-2", "dead": ["East", "West"]},
    }))
    r = run("rule", "--answers", str(f), "--no-input", "--json")
    assert r.code == 0, r.output
    doc = r.json()
    assert doc["ruling"]["id"] == "HF-2"
    assert [(d["seat"], d["role"], d["name"]) for d in doc["dead"]] == [("East", "declarer", "Ruth"), ("West", "exposer", None)]
    assert doc["ruling"]["text"].startswith("East (Ruth) and West are dead")
    # --answer and --seat win over the file
    r = run("rule", "--answers", str(f), "-s", "exposer=North", "--no-input", "--json")
    assert [d["seat"] for d in r.json()["dead"]] == ["East", "North"]


@pytest.mark.parametrize("path", SHIPPED_SCENARIOS, ids=[p.name for p in SHIPPED_SCENARIOS])
def test_rule_accepts_every_shipped_scenario_as_an_answers_file(path: Path) -> None:
    expect = yaml.safe_load(path.read_text())["expect"]
    r = run("rule", "--answers", str(path), "--no-input", "--json")
    assert r.code == 0, r.output
    assert r.json()["ruling"]["id"] == expect["ruling"]


def test_unknown_situation_exits_2_with_a_suggestion() -> None:
    r = house("rule", "tile-cuont", "--no-input")
    assert r.code == 2
    assert "tile-count" in r.stderr
    assert r.stderr.count("\n") == 1, "one line"
    r = house("rule", "zzzz qqqq", "--no-input")
    assert r.code == 2
    assert "referee list" in r.stderr


def test_unknown_fact_exits_2_with_did_you_mean() -> None:
    r = house("rule", "tile-count", "-a", "east_discard=yes", "--no-input")
    assert r.code == 2
    assert "unknown fact 'east_discard'" in r.stderr and "did you mean 'east_discarded'" in r.stderr


def test_unknown_role_is_called_a_role_with_the_roles_listed() -> None:
    r = house("rule", "picked-wrong-end", "--seat", "bogus=West", "--no-input")
    assert r.code == 2
    assert "unknown role 'bogus'" in r.stderr and "picker, winner" in r.stderr, r.stderr
    r = house("rule", "picked-wrong-end", "--seat", "pickr=West", "--no-input")
    assert "unknown role 'pickr'" in r.stderr and "did you mean 'picker'" in r.stderr, r.stderr


@pytest.mark.parametrize("end", ["discard", "wall"])
def test_an_open_role_with_a_label_reads_naturally(end: str) -> None:
    # the seat the bettor bet on, left open: her role's label, not "the bet on"
    bet = ["fifth-player-bettor", "-a", "bettor_spoke=no", "-a", "bettor_bet=seat", "-a", f"bettor_game_end={end}"]
    bet += ["-a", "jokerless=no"] if end == "discard" else []  # asked only of a Mah Jongg
    r = run("rule", *bet, "--no-input", "--json")
    assert r.code == 0, r.output
    text = r.json()["ruling"]["text"]
    assert "the bet on" not in text and "the seat bet on" in text, text
    assert text.count("bet on") == 1, text  # named once, not "the seat bet on, the seat bet on"
    named = run("rule", *bet, "-s", "bet_on=South", "--no-input", "--json")
    assert "the seat bet on" not in named.json()["ruling"]["text"]  # a known seat is simply named


def test_an_answer_the_ruling_never_reads_is_named_on_stderr() -> None:
    r = house("rule", "false-call", "-a", "others_acted=nothing", "-s", "declarer=East", "-s", "exposer=South", "--no-input")
    assert r.code == 0 and "HF-1" in r.stdout, r.output
    assert r.stderr == "referee: note: exposer=South was not used by this ruling\n", r.stderr
    used = house("rule", "false-call", "-a", "others_acted=one", "-s", "declarer=East", "-s", "exposer=South", "--no-input")
    assert used.code == 0 and used.stderr == ""  # HF-2 names both


def test_an_unused_answer_with_a_close_name_suggests_the_fact_left_open() -> None:
    args = ["rule", "mahjong-in-error", "-a", "others_acted=one", "-a", "dead_before_call=no", "-a", "survivor_later_dead=no",
            "-a", "exposers=South,West", "-s", "declarer=East", "--no-input"]
    r = run(*args)
    assert r.code == 0, r.output
    assert "referee: note: exposers=South,West was not used by this ruling (it asks for exposer)" in r.stderr, r.stderr
    doc = run(*args, "--json").json()  # stdout is the JSON alone; the note stays on stderr
    assert doc["unused"] == {"exposers": ["South", "West"]}
    assert "unused" not in run("rule", *args[1:8], "-s", "declarer=East", "--no-input", "--json").json()


def test_an_answers_file_may_hold_answers_for_other_branches(tmp_path: Path) -> None:
    # a scenario's answers cover the tree, not one path: no note for those
    f = tmp_path / "a.yaml"
    f.write_text("situation: false-call\nanswers: {others_acted: nothing}\nseats: {declarer: East, exposer: South}\n")
    r = house("rule", "--answers", str(f), "--no-input")
    assert r.code == 0 and "HF-1" in r.stdout and r.stderr == "", r.output


def test_bad_seat_exits_2_and_lists_seats() -> None:
    r = house("rule", "tile-count", "-a", "east_discarded=yes", "--seat", "miscounted=Westerly", "--no-input")
    assert r.code == 2
    assert "East, South, West, North" in r.stderr
    r = house("rule", "tile-count", "--player", "Middle=Ruth", "--no-input")
    assert r.code == 2


def test_bad_choice_lists_the_choices() -> None:
    r = house("rule", "false-call", "-a", "others_acted=three", "--no-input")
    assert r.code == 2
    for value in ("nothing", "one", "two"):
        assert value in r.stderr


def test_choice_by_number_and_label() -> None:
    # others_acted counts players: the count typed is the answer (0 is nothing), never a place in the list
    by_number = house("rule", "false-call", "-a", "others_acted=0", "--no-input", "--json").json()
    by_label = house("rule", "false-call", "-a", "others_acted=Nothing, every hand is intact", "--no-input", "--json").json()
    assert by_number["ruling"]["id"] == by_label["ruling"]["id"] == "HF-1"
    two = house("rule", "false-call", "-a", "others_acted=2", "-s", "declarer=East", "--no-input", "--json").json()
    assert two["facts"]["others_acted"] == "two"


def test_malformed_answer_flag() -> None:
    r = house("rule", "tile-count", "-a", "east_discarded", "--no-input")
    assert r.code == 2 and "NAME=VALUE" in r.stderr


def test_missing_answer_names_the_flag() -> None:
    r = house("rule", "false-call", "--no-input")
    assert r.code == 2
    assert "--answer others_acted=nothing|one|two" in r.stderr


def test_no_input_without_situation_exits_2() -> None:
    r = house("rule", "--no-input")
    assert r.code == 2
    assert "referee list" in r.stderr


def test_unknown_ruleset_exits_2() -> None:
    r = run("rule", "tile-count", "--ruleset", "nmlj", "--no-input")
    assert r.code == 2
    assert "unknown ruleset 'nmlj'" in r.stderr


def test_missing_answers_file_is_one_line() -> None:
    r = run("rule", "--answers", "does-not-exist.yaml", "--no-input")
    assert r.code != 0
    assert "does-not-exist.yaml" in r.output


def test_rule_interactive_through_stdin() -> None:
    """Search words, pick, answer by number, '?' for help, 'back' to revise, Enter to leave open."""
    typed = "\n".join([
        "wrong end",  # what happened
        "1",  # pick the first match
        "?",  # help for 'discard_claimed'
        "2",  # no
        "back",  # revise it
        "1",  # yes
        "yes",  # mahjong valid
        "3",  # picker = West
        "N",  # winner = North
        "",  # hand value left open
    ]) + "\n"
    r = house("rule", input=typed)
    assert r.code == 0, r.output
    assert "Claimed means another player called it" in r.stderr  # stdout is not a terminal here
    assert "Claimed means" not in r.stdout and "What happened" not in r.stdout
    assert "HW-2" in r.stdout
    assert "West pays North 4 x the hand value" in r.stdout


def test_typed_answers_keep_json_valid_and_prompts_off_stdout() -> None:
    r = house("rule", "picked-wrong-end", "--json", "-p", "West=Ruth", input="1\nyes\n3\nN\n30\n")
    assert r.code == 0, r.output
    doc = r.json()  # stdout holds the document and nothing else
    assert doc["ruling"]["id"] == "HW-2"
    assert [(p["from"]["seat"], p["to"]["seat"], p["amount"]) for p in doc["payments"]] == [("West", "North", 120)]
    assert "Which seat picked from the wrong end?" in r.stderr
    assert "3 West (Ruth)" in r.stderr  # seats offered with the names given by -p


def test_interactive_refuses_a_bad_value_and_asks_again() -> None:
    r = house("rule", "false-call", input="seven\n0\n\n")
    assert r.code == 0, r.output
    said = " ".join(r.stderr.split())
    assert "'seven' is not an answer here: the count, 0-2; ? explains." in said
    assert "others_acted" not in said  # the question's words, not the fact's id
    assert "HF-1" in r.stdout


def test_a_number_off_the_list_asks_again_instead_of_searching() -> None:
    r = house("rule", input="list\n99\n1\n")  # house lists three situations; 1 is picked-wrong-end
    assert "Nothing is numbered 99; choose a number from 1 to 3" in r.stderr
    assert "Nothing matches '99'" not in r.stderr
    assert "Was the picker's discard claimed" in r.stderr  # went on to the situation picked


def test_situation_words_need_no_quotes() -> None:
    # `referee rule wrong end` as --help shows it: several words are one search, not extra arguments
    r = house("rule", "wrong", "end", "-a", "discard_claimed=no", "-s", "picker=West", "--no-input")
    assert r.code == 0, r.output
    assert "HW-1" in r.stdout


def test_closed_stdin_is_a_usage_error_not_a_hang() -> None:
    r = house("rule", "false-call", input="")
    assert r.code == 2
    # the error starts its own line, not glued to the unanswered prompt
    assert "\nreferee: no more input" in r.stderr, r.stderr


# ---------------------------------------------------------------------------
# finding situations


@pytest.mark.parametrize("words,want", [
    ("wrong end", "picked-wrong-end"),
    ("end wrong", "picked-wrong-end"),  # word order
    ("wrnog edn", "picked-wrong-end"),  # typos
    ("drew from back", "picked-wrong-end"),
    ("false mahj", "false-call"),
    ("mah jongg in eror", "false-call"),
    ("tile count wrong", "tile-count"),
    ("too many tils", "tile-count"),
])
def test_search_ranking(words: str, want: str) -> None:
    r = house("search", *words.split(), "--json")
    assert r.code == 0, r.output
    hits = r.json()
    assert hits and hits[0]["id"] == want, hits
    assert all(set(h) >= {"id", "title", "score"} for h in hits)
    text = house("search", *words.split())
    assert text.stdout.splitlines()[0].startswith(want)


@pytest.mark.parametrize("limit", ["0", "-3"])
def test_search_limit_below_one_is_a_usage_error_not_no_match(limit: str) -> None:
    r = house("search", "wrong", "end", "--limit", limit)
    assert r.code == 2
    assert "--limit" in r.stderr and "no situation matches" not in r.stderr


def test_search_prints_the_summary_under_the_title_not_run_on() -> None:
    r = house("search", "wrong", "end")
    lines = r.stdout.splitlines()
    assert lines[0] == "picked-wrong-end  Picked from the wrong end of the wall"
    assert lines[1] == "    A player took her tile from the back end of the wall."


def test_search_nothing_found_exits_1() -> None:
    r = house("search", "xyzzy")
    assert r.code == 1
    assert "referee list" in r.stderr


def test_list() -> None:
    r = house("list")
    assert r.code == 0
    for sid in ("picked-wrong-end", "false-call", "tile-count"):
        assert sid in r.stdout
    doc = house("list", "--json").json()
    assert {d["id"] for d in doc} == {"picked-wrong-end", "false-call", "tile-count"}
    only = house("list", "--phase", "mahjong", "--json").json()
    assert [d["id"] for d in only] == ["false-call"]
    assert house("list", "--phase", "Mahjong", "--json").json() == only  # any case
    lunch = house("list", "--phase", "lunch")
    assert lunch.code == 2 and "deal, charleston" in lunch.stderr


def test_list_shipped() -> None:
    for rid in available():
        r = run("list", "--ruleset", rid, "--json")
        assert r.code == 0
        assert {d["id"] for d in r.json()} == set(load_strict(rid).situations)


def test_a_folder_without_ruleset_yaml_is_named_as_such(tmp_path: Path) -> None:
    r = run("show", "wrong-end", "--ruleset", str(tmp_path))
    assert r.code == 2
    assert f"{tmp_path}: not a ruleset folder (no ruleset.yaml in it)" in r.stderr
    assert "unknown ruleset" not in r.stderr


def test_show_text() -> None:
    r = house("show", "picked-wrong-end")
    assert r.code == 0
    out = r.stdout
    assert "picked-wrong-end: Picked from the wrong end of the wall" in out
    # in words: the questions as asked, the rulings in full with their seats open, no fact ids
    assert "? Was the picker's discard claimed for Mah Jongg?" in out and "discard_claimed=" in out  # as -a takes it
    assert "HW-2 · the game ends · The game ends. The picker pays the winner" in " ".join(out.split())
    assert "{" not in out
    assert "go on in 'Mah Jongg declared in error' (false-call)" in out
    # node ids, which an overlay's patch names: the house template sends authors here for them
    assert "[node claimed]" in " ".join(out.split()) and "[node dead]" in out


def test_show_prints_a_shared_question_once_and_points_back_to_it() -> None:
    r = run("show", "valid-mahjong")
    assert r.code == 0
    flat = " ".join(r.stdout.split())
    assert flat.count("? How did the winner get the last tile? win_how= [node how]") == 1
    assert "? How did the winner get the last tile? (as above) win_how= [node how]" in flat


def test_show_dot() -> None:
    r = house("show", "picked-wrong-end", "-f", "dot")
    assert r.code == 0
    assert r.stdout.startswith('digraph "picked-wrong-end" {')
    assert r.stdout.rstrip().endswith("}")
    assert 'label="yes"' in r.stdout and "shape=diamond" in r.stdout


def test_show_errors() -> None:
    assert house("show", "picked-wrong-end", "-f", "svg").code == 2
    r = house("show", "picked-wrong-edn")
    assert r.code == 2 and "did you mean 'picked-wrong-end'" in r.stderr


def test_show_cuts_no_ruling_short() -> None:
    from referee.ruling.render import tree_lines

    rs = load_strict("nmjl")
    line = next(x for x in tree_lines(rs, "served-early") if " SE-2 · " in x)
    full = " ".join(rs.situation("served-early").nodes["picker_pays"].ruling.says.split())
    assert len(full) > 90 and "\u2026" not in line
    import re

    words = re.sub(r"\{(\w+)\}", lambda m: "the " + m.group(1), full)  # seats open: 'the picker'
    assert line.lower().rstrip().endswith(words.lower() + "  [node picker_pays]")  # all of it, to the last word


def test_show_every_shipped_situation() -> None:
    from referee.ruling.render import tree_graph, tree_lines

    for rid in available():
        rs = load_strict(rid)
        for sid in rs.situations:
            assert tree_lines(rs, sid)[0].startswith(f"{sid}: ")
            assert tree_graph(rs, sid, "mermaid").startswith("flowchart TD")
            assert tree_graph(rs, sid, "dot").startswith("digraph")
    # and through the command line, one format each, for the default ruleset
    for i, sid in enumerate(sorted(load_strict("nmjl").situations)):
        fmt = ("text", "mermaid", "dot")[i % 3]
        r = run("show", sid, "--format", fmt)
        assert r.code == 0, (sid, fmt, r.output)


def test_rulesets() -> None:
    r = run("rulesets", "--json")
    assert r.code == 0
    ids = {row["id"] for row in r.json()}
    assert set(available()) <= ids and "nmjl" in ids
    r = run("rulesets", "--json", env={"REFEREE_RULESETS": str(TESTS / "rulesets")})
    rows = {row["id"]: row for row in r.json()}
    assert rows["house"]["version"] == "7.1" and rows["house"]["situations"] == 3
    assert "nmjl" in rows
    text = run("rulesets")
    assert text.code == 0 and "nmjl" in text.stdout



def test_rulesets_says_which_one_has_problems(tmp_path: Path) -> None:
    # a group's copy with a typo still loads in part; the listing must not pass it off as sound
    import shutil

    shutil.copytree(TESTS / "rulesets" / "house", tmp_path / "ours")
    (tmp_path / "ours" / "ruleset.yaml").write_text(
        (tmp_path / "ours" / "ruleset.yaml").read_text(encoding="utf-8").replace("id: house", "id: ours"), encoding="utf-8")
    bad = next((tmp_path / "ours" / "situations").glob("*.yaml"))
    bad.write_text(bad.read_text(encoding="utf-8") + "oops: [unclosed\n", encoding="utf-8")
    env = {"REFEREE_RULESETS": str(tmp_path)}
    rows = {row["id"]: row for row in run("rulesets", "--json", env=env).json()}
    assert rows["ours"]["problems"] >= 1 and rows["nmjl"]["problems"] == 0
    line = next(x for x in run("rulesets", env=env).stdout.splitlines() if x.startswith("ours "))
    assert "problem" in line and "referee check" in line, line


# ---------------------------------------------------------------------------
# authors' tools


def test_check_clean_folder() -> None:
    r = run("check", HOUSE)
    assert r.code == 0, r.output
    assert r.stdout == ""
    assert "ok: 1 ruleset" in r.stderr


def test_check_broken_folder_exits_1() -> None:
    r = run("check", str(BROKEN / "many-problems"))
    assert r.code == 1
    lines = r.stdout.splitlines()
    assert len(lines) >= 8
    assert f"{len(lines)} problems found" in r.stderr


def _scenario(tmp_path: Path, name: str, ruling: str, **answers: str) -> Path:
    f = tmp_path / f"{name}.yaml"
    f.write_text(yaml.safe_dump({
        "ruleset": HOUSE, "situation": "tile-count", "answers": answers,
        "seats": {"miscounted": "South"}, "expect": {"ruling": ruling},
    }))
    return f


def test_test_passing_files(tmp_path: Path) -> None:
    _scenario(tmp_path, "a", "HC-1", east_discarded="yes")
    _scenario(tmp_path, "b", "HC-2", east_discarded="no")
    r = run("test", str(tmp_path), env=HOUSE_ENV)
    assert r.code == 0, r.output
    assert "2 passed, 0 failed" in r.stdout


def test_test_counts_the_scenarios_from_published_questions(tmp_path: Path) -> None:
    _scenario(tmp_path, "a", "HC-1", east_discarded="yes")
    asked = _scenario(tmp_path, "b", "HC-2", east_discarded="no")
    data = yaml.safe_load(asked.read_text())
    asked.write_text(yaml.safe_dump({**data, "published": "Column 1: a hand found short before East discarded"}))
    r = run("test", str(tmp_path), env=HOUSE_ENV)
    assert r.code == 0, r.output
    assert re.search(r"^1 of them from published rulings questions$", r.stdout, re.M)
    asked.unlink()
    r = run("test", str(tmp_path), env=HOUSE_ENV)
    assert re.search(r"^0 of them from published rulings questions$", r.stdout, re.M)


def test_test_scenarios_of_a_ruleset_named_by_path(tmp_path: Path) -> None:
    _scenario(tmp_path, "a", "HC-1", east_discarded="yes")
    r = run("test", str(tmp_path))
    assert r.code == 0, r.output


def test_test_failing_scenario_exits_1(tmp_path: Path) -> None:
    _scenario(tmp_path, "good", "HC-1", east_discarded="yes")
    bad = _scenario(tmp_path, "bad", "HC-1", east_discarded="no")
    r = run("test", str(tmp_path), env=HOUSE_ENV)
    assert r.code == 1
    assert "1 passed, 1 failed" in r.stdout
    assert "FAIL" in r.stdout and str(bad) in r.stdout
    assert "expected HC-1, got HC-2" in r.stdout


def test_test_of_some_files_lists_only_their_situations_unreached_rulings(tmp_path: Path) -> None:
    _scenario(tmp_path, "a", "HC-1", east_discarded="yes")
    r = run("test", str(tmp_path), env=HOUSE_ENV)
    assert r.code == 0, r.output
    assert "house: HC-2 (tile-count.redeal) is reached by no scenario" in r.stdout
    assert "HW-" not in r.stdout and "HF-" not in r.stdout  # situations these files never started in
    r = run("test", "--coverage", str(tmp_path), env=HOUSE_ENV)
    assert r.code == 1
    assert "HC-2" in r.stdout and "HW-1" in r.stdout and "HF-1" in r.stdout


def test_test_shipped_prints_the_summary_line() -> None:
    # whether every leaf is covered is test_scenarios.py's business; here only the report's shape
    r = run("test")
    assert r.code in (0, 1), r.output
    assert re.search(r"^\d+ passed, \d+ failed$", r.stdout, re.M)


def test_schema() -> None:
    r = run("schema", "situation")
    assert r.code == 0
    doc = json.loads(r.stdout)
    assert doc["title"] == "referee situation file"
    assert "nodes" in doc["properties"]
    for kind in ("ruleset", "facts", "patch", "scenario"):
        assert run("schema", kind).code == 0
    r = run("schema", "situaton")
    assert r.code == 2


# ---------------------------------------------------------------------------
# every command


COMMANDS = sorted(typer.main.get_command(app).commands)  # type: ignore[attr-defined]


def test_commands_found() -> None:
    assert {"rule", "search", "list", "show", "rulesets", "check", "test", "schema"} <= set(COMMANDS)


@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_is_in_the_readme(name: str) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"referee {name}" in readme, f"README.md does not mention `referee {name}`"


@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_has_help(name: str) -> None:
    command = typer.main.get_command(app).commands[name]  # type: ignore[attr-defined]
    assert (command.help or "").strip(), f"`referee {name}` has no help text"
    r = run(name, "--help")
    assert r.code == 0
    assert "Usage:" in r.stdout
    for param in command.params:
        if param.name != "help" and getattr(param, "help", None) is None and param.param_type_name == "option":
            pytest.fail(f"`referee {name}`: option {param.opts} has no help")


def test_top_level_help() -> None:
    r = run("--help")
    assert r.code == 0
    for name in COMMANDS:
        assert name in r.stdout
    assert run().code == 0  # no arguments shows the help, as git or pip do


def test_python_dash_m(tmp_path: Path) -> None:
    import subprocess
    import sys

    p = subprocess.run([sys.executable, "-m", "referee", "rule", "tile-count", "-r", HOUSE, "-a", "east_discarded=no",
                        "--no-input", "--json"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["ruling"]["id"] == "HC-2"
    p = subprocess.run([sys.executable, "-m", "referee", "rule", "nope", "-r", HOUSE, "--no-input"],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 2
    assert "Traceback" not in p.stderr and p.stderr.startswith("referee: ")
