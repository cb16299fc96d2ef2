"""A judge's answers, read in the prompts' own forms and marked part by part against the key.

Seats are answered as `referee rule` takes them: a number from the list (1 East .. 4 North), the
seat or its initial, or the player's name; the seat words are the core's (`answers.seat`,
`answers.seat_by_name`), not a copy.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..ruling.answers import is_index, normalize, seat, seat_by_name, whole
from ..errors import UsageError
from ..rules.model import GAME_STATES, SEATS, FactDef
from .items import Item, Key

NONE_WORDS = {"none", "nobody", "no one", "noone", "nothing", "-", "0", "no"}
GAME_CHOICES = {
    "continues": "play continues",
    "ends": "the game ends",
    "replay": "the game is replayed",
    "redeal": "the hand is thrown in and dealt again",
}
assert tuple(GAME_CHOICES) == GAME_STATES
# Built without validation (the values are valid), as answers.CARD_VALUE is: no schema at import.
_GAME = FactDef.model_construct(type="choice", ask="What happens to the game?", choices=GAME_CHOICES)
_GAME_WORDS = {"continue": "continues", "play on": "continues", "plays on": "continues", "play continues": "continues",
               "end": "ends", "game ends": "ends", "over": "ends", "replayed": "replay", "re-deal": "redeal",
               "redealt": "redeal", "thrown in": "redeal"}


def seat_answer(typed: str, players: dict[str, str], what: str = "seat") -> str:
    """One seat as the prompts take it: 1-4 (the list's order), East or E, or the player's name."""
    typed = typed.strip()
    if is_index(typed, len(SEATS)):
        return SEATS[int(typed) - 1]
    return seat(seat_by_name(typed, players), what)


def _pieces(raw: str) -> list[str]:
    return [p.strip() for p in re.split(r"[,;/]|\band\b|\n", raw) if p.strip()]


def parse_dead(raw: str, players: dict[str, str]) -> tuple[str, ...]:
    """Whose hands are dead: seats separated by commas, or 'none'."""
    if raw.strip().lower() in NONE_WORDS:
        return ()
    seats = [seat_answer(p, players, "dead hands") for p in _pieces(raw)]
    if not seats:
        raise UsageError("dead hands: name the seats, or answer none")
    if len(set(seats)) != len(seats):
        raise UsageError(f"dead hands: a seat is named twice in '{raw.strip()}'")
    return tuple(sorted(seats, key=SEATS.index))


def parse_game(raw: str) -> str:
    """What happens to the game: a number from the list, the value, or its words."""
    key = " ".join(raw.lower().split())
    return _GAME_WORDS.get(key) or normalize("game", _GAME, key)


_PAYS = re.compile(r"\s*(?:\bpays\b|\bpay\b|\bto\b|->|→|>)\s*", re.I)


def parse_pay(raw: str, players: dict[str, str], points: bool) -> tuple[tuple[str, str, int], ...]:
    """Who pays whom how much ('East pays North 50, South pays North 25'; 'E N 50'; names and
    list numbers as for a seat), or the points ('North 30, West -25'); 'none' when nobody pays."""
    if raw.strip().lower() in NONE_WORDS:
        return ()
    rows: list[tuple[str, str, int]] = []
    for piece in _pieces(raw):
        words = piece.split()
        if len(words) < 2:
            raise UsageError(f"'{piece}': {_pay_form(points)}")
        amount = whole("amount", words[-1].lstrip("+"))
        rest = " ".join(words[:-1])
        if points:
            if amount:
                rows.append((seat_answer(rest, players), "", amount))
            continue
        if amount < 0:
            raise UsageError(f"'{piece}': an amount is paid, never negative; name who pays whom")
        parts = [p for p in _PAYS.split(rest) if p]
        if len(parts) == 1:  # 'East North 50': two seat words, or two names without 'pays'
            parts = parts[0].split()
        if len(parts) != 2:
            raise UsageError(f"'{piece}': {_pay_form(points)}")
        payer, payee = (seat_answer(p, players) for p in parts)
        if payer == payee:
            raise UsageError(f"'{piece}': a seat cannot pay itself")
        rows.append((payer, payee, amount))
    if points:
        total: dict[str, int] = {}
        for s, _, n in rows:
            total[s] = total.get(s, 0) + n
        return tuple(sorted((s, "", n) for s, n in total.items() if n))
    return tuple(sorted(rows))


def _pay_form(points: bool) -> str:
    if points:
        return "say each seat and its points, e.g. 'North 30, West -25', or none"
    return "say who pays whom how much, e.g. 'East pays North 50', or none"


@dataclass(frozen=True)
class Marked:
    """One part of one answer: what she said, what the key says, and whether they agree."""

    part: str
    given: object
    key: object
    right: bool


def mark(item: Item, dead: tuple[str, ...], game: str, pay: tuple[tuple[str, str, int], ...]) -> list[Marked]:
    k: Key = item.key
    return [Marked("dead", dead, k.dead, tuple(dead) == k.dead),
            Marked("game", game, k.game, game == k.game),
            Marked("pay", tuple(sorted(pay)), k.pay, tuple(sorted(pay)) == k.pay)]


def said(part: str, value: object, item: Item) -> str:
    """An answer (or the key) in words, seats with the players' names as the story has them."""
    names = item.names

    def who(s: str) -> str:
        return f"{s} ({names[s]})" if names.get(s) else s

    if part == "dead":
        return ", ".join(who(s) for s in value) or "none"  # type: ignore[attr-defined]
    if part == "game":
        return GAME_CHOICES.get(str(value), str(value))
    rows = list(value)  # type: ignore[call-overload]
    if not rows:
        return "nobody scores" if item.points else "nobody pays"
    if item.points:
        return ", ".join(f"{who(s)} {n:+d}" for s, _, n in rows)
    return ", ".join(f"{who(a)} pays {who(b)} {n}" for a, b, n in rows)
