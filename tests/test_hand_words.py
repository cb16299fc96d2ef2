"""`hand verify` as a judge and an organizer type it: no quotes, findings exit 1, a batch of hands,
and the card template from any install (issue 24 §6)."""
from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from referee.cli import app


def cli(*args: str, input: str | None = None):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(app, list(args), input=input)


def test_the_hand_needs_no_quotes() -> None:
    quoted = cli("hand", "verify", "FF 2033B 3333C 3333D", "-x", "3333C", "-c", "practice", "--json")
    bare = cli("hand", "verify", "FF", "2033B", "3333C", "3333D", "-x", "3333C", "-c", "practice", "--json")
    assert quoted.exit_code == bare.exit_code == 0, bare.output
    assert json.loads(quoted.stdout)["best"] == json.loads(bare.stdout)["best"] == "Y1"


def test_not_mah_jongg_and_dead_exit_1() -> None:
    r = cli("hand", "verify", "FF", "2033B", "3333C", "3334D", "-c", "practice")
    assert r.exit_code == 1 and "Not Mah Jongg" in r.output
    assert cli("hand", "verify", "FF", "2033B", "3333C", "3334D", "-c", "practice", "--json").exit_code == 1
    dead = cli("hand", "dead", "-x", "22J2B", "-x", "44JJC", "--discards", "6D 6D 6D", "-c", "practice")
    assert dead.exit_code == 1 and dead.output.startswith("Dead")
    alive = cli("hand", "dead", "-x", "22J2B", "-x", "44JJC", "--discards", "6D 6D", "-c", "practice")
    assert alive.exit_code == 0


def test_batch_reads_json_lines_and_writes_one_verdict_a_line(tmp_path: Path) -> None:
    hands = tmp_path / "hands.jsonl"
    hands.write_text("\n".join([
        json.dumps({"id": "t12-r3", "hand": "FF 2033B 3333C 3333D", "exposed": ["3333C"]}),
        json.dumps({"hand": "FF 2033B 3333C 3334D"}),
        "",
        "not json",
        json.dumps({"hand": "FF 20"}),
    ]) + "\n")
    r = cli("hand", "verify", "--batch", str(hands), "-c", "practice")
    assert r.exit_code == 1  # a hand that is not Mah Jongg is a finding
    rows = [json.loads(line) for line in r.stdout.splitlines()]
    assert [row["line"] for row in rows] == [1, 2, 4, 5]
    assert rows[0]["id"] == "t12-r3" and rows[0]["valid"] is True and rows[0]["best"] == "Y1"
    assert rows[1]["valid"] is False
    assert rows[2]["error"].startswith("not a JSON object") and "suit letter" in rows[3]["error"]
    ok = tmp_path / "ok.jsonl"
    ok.write_text(json.dumps({"hand": "FF 2033B 3333C 3333D"}) + "\n")
    assert cli("hand", "verify", "--batch", str(ok), "-c", "practice").exit_code == 0
    assert cli("hand", "verify", "FF", "--batch", str(ok), "-c", "practice").exit_code == 2


def test_card_template_prints_the_form_a_wheel_install_has_too() -> None:
    r = cli("card", "template")
    assert r.exit_code == 0 and "A template for entering a year's card" in r.stdout
    assert "cards/template.yaml" not in cli("card", "--help").output


def test_card_new_template_writes_the_form_and_never_replaces_a_file(tmp_path: Path) -> None:
    target = tmp_path / "my-card-2026.yaml"
    r = cli("card", "new", str(target), "--template")
    assert r.exit_code == 0 and "Wrote the card template" in r.output
    assert target.read_text(encoding="utf-8") == cli("card", "template").stdout
    again = cli("card", "new", str(target), "--template")
    assert again.exit_code == 2 and "exists" in again.output  # nothing lost
    assert "cards/" not in cli("card", "check", "--help").output  # a wheel install has no cards/ folder


def test_a_hand_typed_with_two_groups_run_together_is_told_about_spacing() -> None:
    r = cli("hand", "verify", "111DDD", "2222B", "3333C", "444C", "-c", "practice")
    assert r.exit_code == 2
    assert "'111DDD' runs two groups together; put a space between them" in r.output
