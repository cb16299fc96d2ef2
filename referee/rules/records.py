"""A validated ruleset as plain records: what a ruling reads from the cache without pydantic.

The rules format is defined once, by the pydantic models in `model`. Defining those classes costs
a ruling about 14 ms, a tenth of its start-up, only so a cached entry can be rebuilt as models.
So a cache entry also keeps the ruleset as records: one small class per model, its fields in the
instance's `__dict__`, frozen like the model. `cache.fetch(..., plain=True)` hands these out, and
the ruling (engine, outcome, render) reads them exactly as it reads the models: by attribute, and
by the kinds below, which the models share (`model.QuestionNode` is a `QuestionNodeKind`), so
`isinstance(node, QuestionNodeKind)` holds for either.

The game's constants live here too, so a ruling names seats and groups without the models.
Imports nothing of referee; never pydantic.
"""
from __future__ import annotations

from typing import Any

SEATS: tuple[str, ...] = ("East", "South", "West", "North")
GROUPS: dict[str, str] = {
    "others": "each other player",
    "active": "each active player",
}
PHASES = ("deal", "charleston", "play", "claiming", "joker", "mahjong", "dead", "end")
GAME_STATES = ("continues", "ends", "replay", "redeal")
BETTOR = "Bettor"  # a fifth player who bets on a seat; she pays and collects beside the four seats
WALL_BET = "wall"  # a fifth player's bet on a wall game rather than on a seat

# Scoring's whole numbers, in the model's field order: what a ruling may name in `of:` or
# `{...}`. The model's `int` fields (tests/test_records.py holds the two together).
SCORING_NUMBERS = ("lowest_hand", "discarder_times", "others_times", "self_pick_times", "jokerless_times",
                   "dice_doubles_times", "stakes_times", "first_last_times", "hand_bonus", "winner_times",
                   "self_pick_bonus", "jokerless_bonus", "wall_game_points", "dead_points")


# ---------------------------------------------------------------------------
# kinds: behaviour the models and the records share


# No annotations on a kind: pydantic would read them as fields of the model that mixes it in.


class QuestionNodeKind:
    __slots__ = ()

    def branches(self: Any) -> list[tuple[str, Any]]:
        out: list[tuple[str, Any]] = []
        if self.yes is not None:
            out.append(("yes", self.yes))
        if self.no is not None:
            out.append(("no", self.no))
        out.extend((self.when or {}).items())
        if self.else_ is not None:
            out.append(("else", self.else_))
        return out


class RulingNodeKind:
    __slots__ = ()


class GotoNodeKind:
    __slots__ = ()


class GotoKind:
    """A jump to another situation: a branch's inline goto, a ruling's `then`, a goto node's target."""

    __slots__ = ()


class ScoringKind:
    __slots__ = ()

    def number(self: Any, name: str) -> int | None:
        """A scoring number or a named penalty, by the name a ruling gives it; None when it is neither."""
        if name in self.penalties:
            return self.penalties[name]
        return int(getattr(self, name)) if name in SCORING_NUMBERS else None


class CiteKind:
    __slots__ = ()

    def __str__(self: Any) -> str:
        return f"{self.source}, {self.section}" if self.section else self.source


# ---------------------------------------------------------------------------
# records


class Record:
    """A model's fields as a frozen record. Built from a model by `cache` (or by a record's own
    method), and unpickled by filling `__dict__`: no constructor runs."""

    _defaults: dict[str, Any] = {}  # fields a record built in code may leave out, as the model's defaults

    def __init__(self, **fields: Any) -> None:
        state = self.__dict__
        for name, value in self._defaults.items():
            state[name] = value() if callable(value) else value
        state.update(fields)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Record):
            return NotImplemented
        return type(other) is type(self) and other.__dict__ == self.__dict__

    def __hash__(self) -> int:
        return hash((type(self).__name__, *self.__dict__.values()))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in self.__dict__.items())})"


class QuestionNode(QuestionNodeKind, Record):
    pass


class RulingNode(RulingNodeKind, Record):
    pass


class Goto(GotoKind, Record):
    _defaults = {"at": None, "bind": dict, "dead": list, "set": dict}


class GotoNode(GotoNodeKind, Record):
    goto: str
    at: str | None
    bind: dict[str, str]
    dead: list[str]
    set: dict[str, str]

    def target(self) -> Goto:
        """The same jump as a branch's inline goto."""
        return Goto(goto=self.goto, at=self.at, bind=self.bind, dead=self.dead, set=self.set)


class FactDef(Record):
    _defaults = {"help": "", "choices": None, "min": None, "max": None, "seats": None, "may_also_be": list,
                 "multiple_of": None, "default": None, "short": None, "card": None, "card_claims": dict}


class RoleDef(Record):
    ask: str
    help: str
    seats: list[str] | None
    may_also_be: list[str]

    def as_fact(self) -> FactDef:
        return FactDef(type="seat", ask=self.ask, help=self.help, seats=self.seats, may_also_be=self.may_also_be)


class Scoring(ScoringKind, Record):
    pass


class Cite(CiteKind, Record):
    pass


def _data(name: str) -> type[Record]:
    return type(name, (Record,), {"__module__": __name__, "__qualname__": name})


# The models that hold only data: a record each, of the same name.
Answers, Caveat, Contradiction, CustomUse, Expect, ExposurePenalty, HandTiles, PointAward, Recite, Ruling, \
    RulesetMeta, Settle, SheetNumbers, Situation, Source, TableTiles, Transfer = map(_data, (
        "Answers", "Caveat", "Contradiction", "CustomUse", "Expect", "ExposurePenalty", "HandTiles", "PointAward",
        "Recite", "Ruling", "RulesetMeta", "Settle", "SheetNumbers", "Situation", "Source", "TableTiles", "Transfer"))

KINDS: dict[str, type[Record]] = {cls.__name__: cls for cls in (
    QuestionNode, RulingNode, Goto, GotoNode, FactDef, RoleDef, Scoring, Cite, Answers, Caveat, Contradiction,
    CustomUse, Expect, ExposurePenalty, HandTiles, PointAward, Recite, Ruling, RulesetMeta, Settle, SheetNumbers,
    Situation, Source, TableTiles, Transfer)}


def of(value: Any) -> Any:
    """A model's data as a record of the same name, its parts likewise; anything else as it is."""
    fields = getattr(type(value), "model_fields", None)
    if fields is not None:
        kind = KINDS.get(type(value).__name__)
        if kind is None:
            raise TypeError(f"no record for {type(value).__name__}")
        rec = kind.__new__(kind)
        rec.__dict__.update({name: of(getattr(value, name)) for name in fields})
        return rec
    if isinstance(value, list):
        return [of(v) for v in value]
    if isinstance(value, dict):
        return {k: of(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return tuple(of(v) for v in value)
    return value


def as_dict(value: Any) -> Any:
    """A model or a record as plain dicts and lists (what `model_dump` gives a model)."""
    dump = getattr(value, "model_dump", None)
    if dump is not None:
        return dump()
    if isinstance(value, Record):
        return {k: as_dict(v) for k, v in value.__dict__.items()}
    if isinstance(value, list):
        return [as_dict(v) for v in value]
    if isinstance(value, dict):
        return {k: as_dict(v) for k, v in value.items()}
    return value
