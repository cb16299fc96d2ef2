"""Words a judge reads aloud with seats left open (issue 24 §4): no broken phrases ('The
miscounted's hand is dead'), 'each active player' only when more than one is left, and a
sentence that agrees with the arithmetic under it."""
from __future__ import annotations

import pytest

from referee.rules.loader import available, load_strict
from referee.ruling.render import verdict_lines
from referee.ruling.scenarios import run


def _said(rid: str, sid: str, facts: dict) -> str:
    o = run(load_strict(rid), sid, dict(facts), {})  # every seat left open
    return " ".join(" ".join(f"{title}: " * bool(title) + " ".join(lines) for title, lines in verdict_lines(o)).split())


@pytest.mark.parametrize("rid", sorted(available()))
def test_an_open_role_that_is_no_noun_has_a_label(rid: str) -> None:
    """'the miscounted', 'the survivor dead', 'the challenged' are not things a judge can say: a
    role named by a participle or ending in 'dead' says how it reads while open (`label:`)."""
    rs = load_strict(rid)
    unread = sorted({(sid, role) for sid, sit in rs.situations.items() for role, d in sit.roles.items()
                     if not d.label and (role.split("_")[-1].endswith("ed") or role.split("_")[-1] == "dead")})
    assert not unread, unread


def test_a_hand_dead_while_its_seat_is_open_is_named_as_a_person() -> None:
    said = _said("nmjl", "mahjong-in-error", {"others_acted": "one", "dead_before_call": "no", "survivor_later_dead": "yes"})
    assert "The dead survivor's hand is dead" in said and "survivor dead" not in said
    assert "Dead hands: the declarer, the exposer, the dead survivor" in said


def test_each_active_player_only_when_more_than_one_is_left() -> None:
    # three hands dead (declarer, exposer, the survivor later found dead): one player is left
    said = _said("nmjl", "mahjong-in-error", {"others_acted": "one", "dead_before_call": "no", "survivor_later_dead": "yes"})
    assert "The dead survivor pays the active player 2 x the attempted value" in said
    assert "each active player" not in said


def test_the_sentence_agrees_with_the_arithmetic_of_a_jokerless_hand() -> None:
    facts = {"mahjong_valid": "yes", "jokerless": "yes", "singles_and_pairs": "no", "win_how": "self-pick",
             "winner": "North", "hand_value": 25}
    said = _said("nmjl", "valid-mahjong", facts)
    assert "twice the hand value. The hand is jokerless, so every payment is doubled." in said
    assert "East pays North 100 (4 x 25)" in said
    plain = _said("nmjl", "valid-mahjong", {**facts, "jokerless": "no"})
    assert "jokerless" not in plain and "East pays North 50 (2 x 25)" in plain
    # a win by joker exchange is never jokerless: neither the sentence nor the sums double
    swapped = _said("nmjl", "valid-mahjong", {**facts, "win_how": "joker-exchange"})
    assert "every payment is doubled" not in swapped and "(4 x 25)" not in swapped
