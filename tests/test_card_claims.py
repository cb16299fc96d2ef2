"""A choice that claims what the card would say ("the challenger was right": her hand was dead) is
checked against the tiles when they were entered, as a fact the card answers is."""
from __future__ import annotations

import json

import pytest

from referee.rules.model import FactDef

CHALLENGE = ["rule", "dead-challenge-contested", "-x", "22J2B", "-x", "44JJC", "--card", "practice",
             "--seat", "challenger=East", "--seat", "challenged=South"]
ALIVE = ["--discards", "6D 6D 9B J"]  # one 6 Dot still unseen: E2's pair can still be made
DEAD = ["--discards", "9B J", "--exposed-by-others", "66J6D"]  # three 6 Dots out: E2 is gone


def flat(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("claim,table,says", [
    ("challenger", ALIVE, "which say the hand was not dead"),
    ("challenged", DEAD, "which say the hand was dead"),
])
def test_a_claim_the_tiles_contradict_is_refused(cli, claim, table, says) -> None:
    r = cli(*CHALLENGE, *table, "--no-input", "-a", f"challenge_outcome={claim}")
    assert r.exit_code == 2
    text = flat(r.output)
    assert f"challenge_outcome={claim} contradicts the tiles, {says}" in text
    assert "E2" in text  # the line it rests on, as the judge reads it out


@pytest.mark.parametrize("claim,table,ruling", [("challenger", DEAD, "DCC-2"), ("challenged", ALIVE, "DCC-3")])
def test_a_claim_the_tiles_bear_out_cites_the_card(cli, claim, table, ruling) -> None:
    r = cli(*CHALLENGE, *table, "--no-input", "--json", "-a", f"challenge_outcome={claim}", "-a", "dcc_game_end=wall")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert [b["ruling"]["id"] for b in doc["before"]] == [ruling] and doc["ruling"]["id"] == "WG-1"
    assert doc["card"]["confirmed"] == {"challenge_outcome": claim}
    assert doc["card"]["table"]["dead"] is (claim == "challenger")


def test_without_tiles_the_judges_word_stands(cli) -> None:
    r = cli("rule", "dead-challenge-contested", "--seat", "challenger=East", "--seat", "challenged=South",
            "--no-input", "--json", "-a", "challenge_outcome=challenger", "-a", "dcc_game_end=wall")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["before"][0]["ruling"]["id"] == "DCC-2"


def test_at_the_prompt_a_claim_the_tiles_contradict_is_asked_again(cli) -> None:
    typed = "challenger\nchallenged\nwall\n"
    r = cli(*CHALLENGE, *ALIVE, input=typed)
    assert r.exit_code == 0, r.output
    text = flat(r.output)
    assert "The answer 'challenger' contradicts the tiles, which say the hand was not dead" in text
    assert "DCC-3" in text and "East pays South 50" in text


def test_an_answers_file_claim_the_tiles_contradict_is_placed_in_the_file(cli, tmp_path) -> None:
    f = tmp_path / "claim.yaml"
    f.write_text("situation: dead-challenge-contested\ncard: practice\n"
                 "table: {exposed: [22J2B, 44JJC], discards: 6D 6D 9B J}\n"
                 "answers: {challenge_outcome: challenger}\nseats: {challenger: North, challenged: South}\n",
                 encoding="utf-8")
    r = cli("rule", "--answers", str(f), "--no-input")
    assert r.exit_code != 0
    assert f"{f}:" in r.output and "contradicts the tiles" in flat(r.output)


def test_claims_are_for_a_choice_and_name_its_choices() -> None:
    FactDef(type="choice", ask="Who?", choices={"a": "A", "b": "B"}, card_claims={"a": "dead"})
    with pytest.raises(ValueError, match="card_claims"):
        FactDef(type="choice", ask="Who?", choices={"a": "A"}, card_claims={"z": "dead"})
    with pytest.raises(ValueError, match="card_claims"):
        FactDef(type="yesno", ask="Dead?", card_claims={"yes": "dead"})


# --- an answers file's tiles and the event's card ---

ANSWERS = ("situation: mahjong-verification\nhand: {tiles: FF 2033B 333JC 3333D, exposed: [333JC]}\n"
           "answers: {mj_hand_shown: 'yes', win_how: discard}\nseats: {winner: East, discarder: South}\n")


def _event(cli, monkeypatch, tmp_path, card: str | None) -> None:
    monkeypatch.setenv("REFEREE_DB", str(tmp_path / "rulings.db"))
    monkeypatch.delenv("REFEREE_CARD", raising=False)
    if card:
        assert cli("log", "event", "--card", card).exit_code == 0


def _my_card(tmp_path) -> str:
    """The practice card under another id, so the ruling shows which card it read."""
    from referee.cards.store import locate

    text = locate("practice").read_text(encoding="utf-8").replace("card: practice", "card: my-card", 1)
    path = tmp_path / "my-card.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_an_answers_file_with_tiles_reads_the_events_card(cli, monkeypatch, tmp_path) -> None:
    _event(cli, monkeypatch, tmp_path, _my_card(tmp_path))
    f = tmp_path / "answers.yaml"
    f.write_text(ANSWERS, encoding="utf-8")
    r = cli("rule", "--answers", str(f), "--no-input", "--no-log", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["card"]["id"] == "my-card"


def test_the_files_card_and_then_card_come_before_the_events(cli, monkeypatch, tmp_path) -> None:
    _event(cli, monkeypatch, tmp_path, _my_card(tmp_path))
    f = tmp_path / "answers.yaml"
    f.write_text("card: practice\n" + ANSWERS, encoding="utf-8")
    r = cli("rule", "--answers", str(f), "--no-input", "--no-log", "--json")
    assert json.loads(r.output)["card"]["id"] == "practice"
    g = tmp_path / "plain.yaml"
    g.write_text(ANSWERS, encoding="utf-8")
    r = cli("rule", "--answers", str(g), "--no-input", "--no-log", "--json", "--card", "practice")
    assert json.loads(r.output)["card"]["id"] == "practice"


def test_an_answers_file_with_tiles_and_no_card_anywhere_says_how_to_name_one(cli, monkeypatch, tmp_path) -> None:
    _event(cli, monkeypatch, tmp_path, None)
    f = tmp_path / "answers.yaml"
    f.write_text(ANSWERS, encoding="utf-8")
    r = cli("rule", "--answers", str(f), "--no-input", "--no-log")
    assert r.exit_code != 0 and "no card" in flat(r.output)
