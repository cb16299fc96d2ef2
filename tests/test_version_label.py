"""A ruleset's version as printed names its content: two folders can both say 2026.1."""
from __future__ import annotations

import json

from typer.testing import CliRunner

from referee.cli import app
from referee.handouts import build
from referee.rules.loader import load_strict


def test_rulesets_shows_each_rulesets_content_hash() -> None:
    r = CliRunner().invoke(app, ["rulesets"], env={"COLUMNS": "200"})
    assert r.exit_code == 0
    nmjl = load_strict("nmjl")
    assert f"nmjl {nmjl.meta.version} ({nmjl.hash})" in r.stdout
    rows = json.loads(CliRunner().invoke(app, ["rulesets", "--json"]).stdout)
    assert {row["id"]: row["hash"] for row in rows}["tournament"] == load_strict("tournament").hash


def test_every_handout_names_the_rules_it_was_printed_from_by_hash() -> None:
    rs, base = load_strict("tournament"), load_strict("nmjl")
    for sheet in ("booklet", "quick", "diff"):
        for fmt in ("html", "md"):
            text = build(rs, fmt, sheet, base=base if sheet == "diff" else None)
            assert f"{rs.meta.version} ({rs.hash})" in str(text), (sheet, fmt)
            if sheet == "diff":
                assert f"{base.meta.version} ({base.hash})" in str(text)
