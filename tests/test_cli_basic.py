from __future__ import annotations

import json


def test_check_is_clean(cli):
    result = cli("check")
    assert result.exit_code == 0, result.output


def test_rule_no_input_json(cli):
    result = cli("rule", "wrong-end", "-a", "several_wrong_end=no", "-a", "wrong_end_discard_mj=yes",
                 "-a", "mahjong_valid=yes", "-s", "picker=West", "-s", "winner=North", "-a", "hand_value=30",
                 "--no-input", "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["ruling"]["id"] == "WE-2"
    assert doc["payments"] == [{"from": {"seat": "West", "role": "picker", "name": None},
                                "to": {"seat": "North", "role": "winner", "name": None},
                                "amount": 120, "formula": "4 x 30", "text": "West pays North 120 (4 x 30)"}]
    assert doc["game"] == "ends"
    assert doc["ruleset"]["id"] == "nmjl" and len(doc["ruleset"]["hash"]) == 12


def test_missing_answer_exits_2_and_names_the_flag(cli):
    result = cli("rule", "wrong-end", "--no-input")
    assert result.exit_code == 2
    assert "--answer several_wrong_end=yes|no" in result.stderr
    assert "Traceback" not in result.output


def test_value_not_among_choices_lists_them(cli):
    result = cli("rule", "misnamed-discard", "-a", "misnamed_claimed_for=pung", "--no-input")
    assert result.exit_code == 2
    assert "nothing" in result.stderr and "exposure" in result.stderr and "mahjong" in result.stderr
