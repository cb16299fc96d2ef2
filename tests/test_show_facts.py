"""`referee show` names the facts as `-a` takes them, and `show --json` drives a script (issue 24)."""
from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from referee.ruling.answers import normalize
from referee.cli import app
from referee.errors import UsageError
from referee.rules.loader import load_strict
from referee.rules.model import SEATS
from referee.ruling.render import fact_table
from referee.ruling.scenarios import fact_for, run

SHIPPED = ["nmjl", "amja", "card-game", "tournament"]


def _scripted(entry: dict, taken: list[str]) -> object:
    """A value a script would pass for this fact, read from `show --json` alone."""
    if entry["type"] == "seat":
        free = [s for s in SEATS if s not in taken] or SEATS
        taken.append(free[0])
        return free[0]
    if entry["type"] == "seats":
        want = entry.get("min", 1)
        free = [s for s in SEATS if s not in taken] + [s for s in SEATS if s in taken]
        return ",".join(free[:want])
    if entry["type"] == "number":
        return str(entry.get("min", 25) if not entry.get("multiple_of") else max(entry.get("min", 25), 25))
    return entry["values"][0]


@pytest.mark.parametrize("rid", SHIPPED)
def test_show_json_facts_script_every_situation_without_an_unknown_fact(rid: str) -> None:
    rs = load_strict(rid)
    for sid in rs.situations:
        table = fact_table(rs, sid)
        taken: list[str] = []
        facts = {}
        for entry in table:
            definition = fact_for(rs, sid, entry["fact"])  # an unknown fact raises here
            raw = _scripted(entry, taken)
            facts[entry["fact"]] = normalize(entry["fact"], definition, raw)
            for value in entry["values"] if entry["type"] in ("choice", "yesno") else ():
                assert normalize(entry["fact"], definition, value) == value  # each value as -a takes it
        try:
            outcome = run(rs, sid, facts, {})
        except UsageError as exc:  # two roles on one seat is the script's slip, never an unknown fact
            assert "unknown fact" not in exc.message and "already" in exc.message, (sid, exc.message)
            continue
        assert outcome.ruling.id, sid


def test_show_lists_facts_and_choices_in_the_prompts_order() -> None:
    r = CliRunner().invoke(app, ["show", "simultaneous-mahjong"])
    assert r.exit_code == 0, r.output
    flat = " ".join(r.output.split())
    assert "exposed_first= [node exposed]" in flat
    neither, farther, both = (flat.index(f"{v} (") for v in ("neither", "farther", "both"))
    assert neither < farther < both  # as the prompt numbers them, not as the YAML branches
    rs = load_strict("nmjl")
    assert list(rs.situations["simultaneous-mahjong"].facts["exposed_first"].choices) == ["neither", "farther", "both"]


def test_node_ids_are_marked_as_nodes_and_facts_as_facts() -> None:
    import re

    r = CliRunner().invoke(app, ["show", "called-tile-racked"])
    flat = " ".join(r.output.split())
    assert not re.findall(r"\[(?!node )[a-z_]+\]", flat)  # a bare [id] looked like a fact and was not
    assert "ctr_called_for= [node called_for]" in flat


def test_show_json_and_facts() -> None:
    r = CliRunner().invoke(app, ["show", "mahjong-in-error", "--json"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    by_name = {f["fact"]: f for f in doc["facts"]}
    assert by_name["others_acted"]["values"] == ["nothing", "one", "two", "three", "wall"]
    assert by_name["others_acted"]["asked"][0].startswith("question mahjong-in-error/")
    assert any(a.startswith("ruling ") for a in by_name["declarer"]["asked"])
    text = CliRunner().invoke(app, ["show", "mahjong-in-error", "--facts"])
    assert "others_acted" in text.output and "takes: nothing, one, two, three, wall" in " ".join(text.output.split())


def test_a_wrong_value_and_an_unknown_fact_are_told_apart() -> None:
    unknown = CliRunner().invoke(app, ["rule", "wrong-end", "-a", "dead_seats=South", "--no-input", "--no-log"])
    assert unknown.exit_code == 2 and "unknown fact 'dead_seats' for situation 'wrong-end'" in unknown.output
    wrong = CliRunner().invoke(app, ["rule", "three-dead-hands", "-a", "dead_seats=South", "--no-input", "--no-log"])
    assert wrong.exit_code == 2 and "dead_seats: name 3 seats" in " ".join(wrong.output.split())
    assert "unknown" not in wrong.output
