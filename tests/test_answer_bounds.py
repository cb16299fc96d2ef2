"""Odd digits, huge numbers and impossible card values are refused in one line, never a crash."""
from __future__ import annotations

import pytest
from typer.testing import CliRunner

from referee.ruling.answers import CARD_VALUE, is_index, normalize
from referee.cli import app
from referee.errors import UsageError
from referee.rules.model import FactDef

CHOICE = FactDef(type="choice", ask="Which?", choices={"a": "Alpha", "b": "Beta"})
PAY = ["pay", "--winner", "E", "--how", "discard", "--discarder", "W"]


@pytest.mark.parametrize("raw", ["²", "³", "١", "1_0", "+", "", " ", "2.5", "1e3", "0x10", "inf"])
def test_odd_digits_are_not_numbers(raw: str) -> None:
    with pytest.raises(UsageError, match="is not a whole number"):
        normalize("n", FactDef(type="number", ask="How many?"), raw)


@pytest.mark.parametrize("raw", ["²", "³", "٢", "99999999999999999999"])
def test_odd_digits_are_not_menu_numbers(raw: str) -> None:
    assert not is_index(raw, 3)
    with pytest.raises(UsageError, match="is not one of the choices"):
        normalize("c", CHOICE, raw)


def test_menu_numbers_still_work() -> None:
    assert normalize("c", CHOICE, "2") == "b"
    assert normalize("n", FactDef(type="number", ask="How many?"), " -3 ") == -3
    assert normalize("n", FactDef(type="number", ask="How many?"), 7) == 7


def test_a_huge_number_is_named_by_its_length_not_echoed() -> None:
    with pytest.raises(UsageError) as info:
        normalize("hand_value", CARD_VALUE, "9" * 5000)
    assert str(info.value) == "hand_value: a number with 5000 digits is far too large"


@pytest.mark.parametrize("raw, message", [
    ("0", "0 is below the smallest allowed value, 20"),
    ("33", "33 is not a multiple of 5"),
    ("205", "205 is above the largest allowed value, 200"),
    ("-25", "-25 is below the smallest allowed value, 20"),
])
def test_card_values_go_in_fives_within_reason(raw: str, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        normalize("hand_value", CARD_VALUE, raw)
    assert normalize("hand_value", CARD_VALUE, "35") == 35


@pytest.mark.parametrize("value, line", [
    ("0", "referee: --value: 0 is below the smallest allowed value, 20"),
    ("33", "referee: --value: 33 is not a multiple of 5"),
    ("²", "referee: --value: '²' is not a whole number"),
    ("9" * 4300, "referee: --value: a number with 4300 digits is far too large"),
])
def test_pay_refuses_impossible_values_in_one_line(value: str, line: str) -> None:
    result = CliRunner().invoke(app, [*PAY, "--value", value])
    assert result.exit_code == 2, result.output
    assert result.stderr.splitlines() == [line]
    assert result.stdout == ""


def test_pay_still_settles_a_card_value() -> None:
    result = CliRunner().invoke(app, [*PAY, "--value", "25", "--json"])
    assert result.exit_code == 0, result.output
    assert '"value": 25' in result.stdout


def test_hand_value_fact_uses_the_same_bounds() -> None:
    result = CliRunner().invoke(app, ["rule", "wrong-end", "--seat", "picker=West", "--answer", "hand_value=33", "--no-input"])
    assert result.exit_code == 2
    assert result.stderr.splitlines() == ["referee: hand_value: 33 is not a multiple of 5"]


def test_prompt_takes_odd_digits_as_a_wrong_answer_not_a_crash() -> None:
    """At the prompt '²' is refused and asked again; '1' then picks the first answer, yes."""
    result = CliRunner().invoke(app, ["rule", "wrong-end"], input="²\n1\n" + "\n" * 10)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "'²' is not an answer here" in " ".join(result.output.split())  # the prompt's own lines
    assert "Ruling WE-3" in result.stdout
