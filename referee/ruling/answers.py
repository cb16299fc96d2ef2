"""Turning what a judge types into a fact's value, with the valid choices named on refusal."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ..errors import UsageError
from ..rules.records import BETTOR, SEATS
from ..rules.memo import keep

if TYPE_CHECKING:
    from ..rules.model import FactDef

YES = {"yes", "y", "true", "t", "1"}
NO = {"no", "n", "false", "f", "0"}
_SEAT_ALIASES = {s.lower(): s for s in SEATS} | {s[0].lower(): s for s in SEATS}
_WHOLE = re.compile(r"-?[0-9]{1,9}")  # ASCII digits only: str.isdigit() also takes '²', which int() refuses
_BUILT: dict[str, FactDef] = {}


def __getattr__(name: str) -> FactDef:
    """CARD_VALUE: a card value when the ruleset defines no hand_value fact (the card prints them in
    fives). Built on first use, without validation (these values are valid): its first
    model_construct costs a ruling, which never needs it, 2 ms."""
    if name != "CARD_VALUE":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    if name not in _BUILT:
        from ..rules.model import FactDef

        _BUILT[name] = FactDef.model_construct(type="number", ask="Card value of the hand", min=20, max=200, multiple_of=5)
    return _BUILT[name]


# A choice whose values are counts ("what did the others do": nothing, one, two, three) takes the
# count itself: `2` there is two players, never the second item of a list.
COUNTS = {"nothing": 0, "none": 0, "zero": 0, "nobody": 0, "no": 0, "one": 1, "two": 2, "three": 3, "four": 4}
_COUNT_TYPED = {**COUNTS, "0": 0, "1": 1, "2": 2, "3": 3, "4": 4, "both": 2}


def is_count(fact: FactDef) -> bool:
    """Whether a choice question counts something: its values are counts (and perhaps one other)."""
    values = list(fact.choices or {}) if fact.type == "choice" else []
    return sum(v in COUNTS and COUNTS[v] > 0 for v in values) >= 2


def _by_count(fact: FactDef, key: str) -> str | None:
    n = _COUNT_TYPED.get(key.lower())
    return next((v for v in fact.choices or {} if COUNTS.get(v) == n), None) if n is not None else None


# 'nobody' at a seats question that may name none (min: 0): a wall game with every hand live
NOBODY = ("nobody", "none", "no one", "no-one", "noone", "no seat", "no seats")


def seats_typed(raw: Any, players: dict[str, str] | None = None, what: str = "seat") -> list[str]:
    """The seats in what was typed, by one rule for every seat question: numbers as the prompt
    shows them (1 East ... 4 North), initials, seats and players' names, separated by commas or
    spaces ('2,3', 's w', 'South West', 'Ruth, cy')."""
    names: dict[str, str] = {}
    for s, name in (players or {}).items():
        if s in SEATS and name.strip():
            names[" ".join(name.split()).lower()] = s
            names[f"{s} ({' '.join(name.split())})".lower()] = s
    found: list[str] = []
    for chunk in str(raw).split(","):
        key = " ".join(chunk.split()).lower()
        if not key:
            continue
        if key in names:  # a name with a space in it, or 'West (Cy)' as the list shows it
            found.append(names[key])
            continue
        for part in chunk.split():
            if part.lower() in names:
                found.append(names[part.lower()])
            elif is_index(part, len(SEATS)):
                found.append(SEATS[int(part) - 1])
            else:
                found.append(seat(part, what))
    return found


def is_index(raw: str, count: int) -> bool:
    """Whether what was typed is a menu number 1..count."""
    return raw.isascii() and raw.isdigit() and len(raw) < 6 and 1 <= int(raw) <= count


def whole(name: str, raw: Any) -> int:
    """A whole number typed or written in a file, refused in one line however long or odd it is."""
    if isinstance(raw, int) and not isinstance(raw, bool):
        raw = str(raw)
    text = str(raw).strip()
    if not _WHOLE.fullmatch(text):
        if text.lstrip("-").isascii() and text.lstrip("-").isdigit():
            raise UsageError(f"{name}: a number with {len(text.lstrip('-'))} digits is far too large")
        raise UsageError(f"{name}: '{raw}' is not a whole number")
    return int(text)


def seat(raw: Any, what: str = "seat") -> str:
    key = str(raw).strip().lower()
    if key in _SEAT_ALIASES:
        return _SEAT_ALIASES[key]
    raise UsageError(f"{what}: '{raw}' is not a seat; choose one of {', '.join(SEATS)} (or E, S, W, N)")


def seat_by_name(typed: str, players: dict[str, str]) -> str:
    """The seat of a player named as the prompts show her ('cy', 'West (Cy)'); else what was typed."""
    key = " ".join(typed.split()).lower()
    named = [s for s, name in players.items() if s in SEATS and key in (" ".join(name.split()).lower(), f"{s} ({name})".lower())]
    return named[0] if len(named) == 1 else typed.strip()


def player_seat(raw: Any, what: str = "player seat") -> str:
    """A seat, or the bettor (the fifth player), as `--player` and an answers file name them."""
    if str(raw).strip().lower() == BETTOR.lower():
        return BETTOR
    try:
        return seat(raw, what)
    except UsageError:
        raise UsageError(f"{what}: '{raw}' is not a seat; choose one of {', '.join(SEATS)} (or E, S, W, N), "
                         f"or {BETTOR} for a fifth player") from None


def players_map(raw: dict[str, Any], what: str = "player seat") -> dict[str, str]:
    """Seat (or Bettor) -> player name."""
    return {player_seat(k, what): str(v) for k, v in raw.items()}


# Answers already made canonical, by the fact and what was written: a booklet reads the same
# scenario files once for each of twelve rulesets, and a seat answer takes some parsing. Keyed by
# the definition itself (kept alive here, so its id is not reused; a loaded one is never changed)
# and the answer with its type (True and 1 are equal keys, not equal answers). `name` only words
# a refusal, and a refusal is never kept.
_CANONICAL: dict[tuple[int, type, Any], tuple[FactDef, Any]] = {}


def normalize(name: str, fact: FactDef, raw: Any) -> Any:
    """The canonical value of an answer, or a UsageError that lists what would be accepted."""
    kind = type(raw)
    if kind is list:
        if not all(type(item) is str for item in raw):
            return _normalize(name, fact, raw)
        key = (id(fact), kind, tuple(raw))
    elif kind is str or kind is int or kind is bool:
        key = (id(fact), kind, raw)
    else:
        return _normalize(name, fact, raw)
    known = _CANONICAL.get(key)
    if known is None or known[0] is not fact:
        known = keep(_CANONICAL, key, (fact, _normalize(name, fact, raw)), 8192)
    value = known[1]
    return list(value) if type(value) is list else value  # the caller's own list, as ever


def _normalize(name: str, fact: FactDef, raw: Any) -> Any:
    if fact.type == "yesno":
        if isinstance(raw, bool):
            return "yes" if raw else "no"
        key = str(raw).strip().lower()
        if key in YES:
            return "yes"
        if key in NO:
            return "no"
        raise UsageError(f"{name}: '{raw}' is not an answer to a yes/no question; answer yes or no")
    if fact.type == "choice":
        assert fact.choices
        key = str(raw).strip()
        values = list(fact.choices)
        if key.lower() in values:
            return key.lower()
        if is_count(fact):  # the count typed, never a place in the list
            counted = _by_count(fact, key)
            if counted is not None:
                return counted
        elif is_index(key, len(values)):
            return values[int(key) - 1]
        for value, label in fact.choices.items():
            if key.lower() == label.lower():
                return value
        listing = "; ".join(f"{v} ({label})" for v, label in fact.choices.items())
        raise UsageError(f"{name}: '{raw}' is not one of the choices: {listing}")
    if fact.type == "seat":
        typed = [seat(item, name) for item in raw] if isinstance(raw, list) else seats_typed(raw, what=name)
        if not typed:
            return seat(raw, name)  # nothing typed: refused as no seat
        if len(typed) != 1:
            raise UsageError(f"{name}: name one seat, not {len(typed)}")
        return typed[0]
    if fact.type == "seats":
        if isinstance(raw, str) and " ".join(raw.split()).lower() in NOBODY:
            if fact.min != 0:  # a question that needs a seat: 'nobody' is no answer to it
                raise UsageError(f"{name}: name at least one seat; 'nobody' is not an answer here")
            return []
        seats = [seat(item, name) for item in raw] if isinstance(raw, list) else seats_typed(raw, what=name)
        if len(set(seats)) != len(seats):
            raise UsageError(f"{name}: a seat is named twice in '{raw}'")
        if fact.min is not None and len(seats) < fact.min or fact.max is not None and len(seats) > fact.max:
            want = fact.min if fact.min == fact.max else f"{fact.min or 1} to {fact.max or 4}"
            raise UsageError(f"{name}: name {want} seats, separated by commas (got {len(seats)})")
        return sorted(seats, key=SEATS.index)
    if fact.type == "number":
        value = whole(name, raw)
        if fact.min is not None and value < fact.min:
            raise UsageError(f"{name}: {value} is below the smallest allowed value, {fact.min}")
        if fact.max is not None and value > fact.max:
            raise UsageError(f"{name}: {value} is above the largest allowed value, {fact.max}")
        if fact.multiple_of and value % fact.multiple_of:
            raise UsageError(f"{name}: {value} is not a multiple of {fact.multiple_of}")
        return value
    raise AssertionError(fact.type)  # pragma: no cover


def example(fact: FactDef) -> str:
    """A value to show in 'supply it with --answer fact=VALUE'."""
    return {
        "yesno": "yes|no",
        "choice": "|".join(fact.choices or {}),
        "seat": "East|South|West|North",
        "seats": "East,West",
        "number": "25",
    }[fact.type]
