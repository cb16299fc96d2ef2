"""Words a judge reads aloud with seats left open (issue 24 §4): no broken phrases ('The
miscounted's hand is dead'), 'each active player' only when more than one is left, and a
sentence that agrees with the arithmetic under it."""
from __future__ import annotations

import math
import re
from collections import Counter

import pytest

from leafwalk import RULESETS, printed, ruled

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


# The same three properties over every path of every ruleset (tests/leafwalk.py), seats named
# and seats open, so a new ruling cannot bring a broken phrase back.
_WORDS = {"twice": 2, "double": 2, "three times": 3, "four times": 4}
_STATED = re.compile(r"every payment is (doubled|multiplied by (\d+))")
_BROKEN = [
    (re.compile(r"[{}]"), "a placeholder left unfilled"),
    (re.compile(r"\bNone\b(?! of)"), "a value printed as None"),
    (re.compile(r"\b(the|a|an) \1\b", re.I), "a doubled article"),
    (re.compile(r"\bthe \w+ed's\b|\b\w+ dead's\b", re.I), "a participle read as a person"),
]


def _open_labels(rid: str, sid: str) -> set[str]:
    rs = load_strict(rid)
    return {d.label or "the " + role.replace("_", " ") for role, d in rs.situations[sid].roles.items()}


@pytest.mark.parametrize("rid", RULESETS)
def test_no_broken_phrase_on_any_path(rid: str) -> None:
    found: dict[str, str] = {}
    for r in ruled(rid):
        labels = _open_labels(rid, r.situation)
        for o in (r.named, r.open):
            if o is None:
                continue
            for title, line in printed(o):
                if title == "Rule":
                    continue  # a citation quotes its source's own words
                for pattern, what in _BROKEN:
                    if pattern.search(line):
                        found.setdefault(f"{what}: {line}", r.where())
                for label in labels:  # an open seat after a colon goes on the sentence: no capital
                    if f": {label[:1].upper()}{label[1:]}" in line and label[:1].islower():
                        found.setdefault(f"a capital after a colon: {line}", r.where())
    assert not found, "\n".join(f"{w}: {x}" for x, w in list(found.items())[:10]) + f"\n({len(found)})"


@pytest.mark.parametrize("rid", RULESETS)
def test_each_active_player_only_when_more_than_one_is_left_on_any_path(rid: str) -> None:
    """Read with seats open, 'each active player' must be more than one player once the seats are
    named, and 'the active player' exactly one."""
    wrong = []
    for r in ruled(rid):
        if r.open is None:
            continue
        said = " ".join(line for _, line in printed(r.open))
        active = [p for p in r.named.payments if "active" in (p.payer.role, p.payee.role)]
        per_side = Counter(p.payer.seat if p.payee.role == "active" else p.payee.seat for p in active)
        most = max(per_side.values(), default=0)
        if "each active player" in said and most == 1 or "the active player" in said and most > 1:
            wrong.append(f"{r.where()}: {most} active, yet: {said[:200]}")
    assert not wrong, "\n".join(wrong[:5]) + f"\n({len(wrong)})"


@pytest.mark.parametrize("rid", RULESETS)
def test_the_sentence_agrees_with_the_arithmetic_on_any_path(rid: str) -> None:
    """'twice the hand value' over a payment of 4 x the value is wrong unless the verdict also says
    what doubled it (an announced jokerless hand, a table's own rule)."""
    wrong = []
    for r in ruled(rid):
        o = r.named
        said = {n for w, n in _WORDS.items() if re.search(rf"\b{w} the hand value\b", o.text)}
        stated = math.prod(2 if m.group(1) == "doubled" else int(m.group(2))
                           for m in _STATED.finditer(" ".join(line for _, line in printed(o))))
        shown = {int(m.group(1)) for p in o.payments for m in [re.fullmatch(r"(\d+) x \d+", p.formula or "")] if m}
        if said and shown and not all(n * stated in shown for n in said):
            wrong.append(f"{r.where()}: says {sorted(said)} x {stated}, pays {sorted(shown)}: {o.text[:160]}")
    assert not wrong, "\n".join(wrong[:5]) + f"\n({len(wrong)})"
