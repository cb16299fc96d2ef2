"""Small things a judge notices at the table: names in possessives, the words typed for a win,
a ragged totals column, and exit codes that mean the same thing in text and JSON."""
from __future__ import annotations

import json
import re


def test_a_named_seat_takes_the_possessive_on_the_seat(cli) -> None:
    r = cli("rule", "--ruleset", "tournament", "misnamed-discard", "-a", "misnamed_claimed_for=mahjong",
            "-a", "mahjong_with=named", "-s", "misnamer=South", "-s", "caller=North", "-a", "hand_value=25", "-a", "jokerless=no",
            "-p", "North=Ann", "--no-input")
    assert r.exit_code == 0, r.output
    assert "North's (Ann's) Mah Jongg" in r.output
    assert ")'s" not in r.output


def test_pay_understands_self_for_self_pick(cli) -> None:
    short = cli("pay", "--winner", "North", "--how", "self", "--value", "25", "--json")
    full = cli("pay", "--winner", "North", "--how", "self-pick", "--value", "25", "--json")
    assert short.exit_code == 0, short.output
    assert json.loads(short.output)["totals"] == json.loads(full.output)["totals"]


def test_pay_winner_collects_what_the_payers_pay(cli) -> None:
    r = cli("pay", "--winner", "North", "--how", "discard", "--discarder", "East", "--value", "25", "-p", "North=Ann")
    assert r.exit_code == 0, r.output
    paid = [int(m) for m in re.findall(r"pays North \(Ann\) (\d+)", r.output)]
    assert len(paid) == 3 and f"North (Ann) collects {sum(paid)}" in r.output


def test_a_bad_bettor_names_every_choice(cli) -> None:
    r = cli("pay", "--winner", "North", "--how", "self-pick", "--value", "25", "--bettor", "Nobody")
    assert r.exit_code == 2
    assert "'wall'" in r.output and "East" in r.output


def test_search_without_a_match_exits_1_in_text_and_json(cli) -> None:
    text = cli("search", "zzqx")
    as_json = cli("search", "--json", "zzqx")
    assert text.exit_code == as_json.exit_code == 1
    assert json.loads(as_json.output) == []
