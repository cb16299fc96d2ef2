"""The rules format: what a ruleset, a situation and a ruling may say.

These models are the single source of the JSON Schema (`referee schema`), so every
field carries a description an editor can show.
"""
# no `from __future__ import annotations`: pydantic would compile every annotation string at import

import re
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag, field_validator, model_validator

from .records import (BETTOR, GAME_STATES, GROUPS, PHASES, SEATS, WALL_BET, CiteKind, GotoKind,  # noqa: F401 (the game's constants, named here too)
                      GotoNodeKind, QuestionNodeKind, RulingNodeKind, ScoringKind)

FACT_ID = r"^[a-z][a-z0-9_]*$"
SITUATION_ID = r"^[a-z][a-z0-9-]*$"
RULING_ID = r"^[A-Z][A-Z0-9]*(-[A-Za-z0-9]+)+$"


def _no_items() -> list[Any]:
    return []


def _no_entries() -> dict[Any, Any]:
    return {}


# The empty defaults above, rather than `list` and `dict`: pydantic reads a default factory's
# signature each time it fills a default, and a builtin's signature is parsed from text (the
# tokenizer's patterns compiled first), which cost each ruling 2 ms in `model_construct`.


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True, defer_build=True)

    # Pickled bytes are how the cache and the handouts tell two rulesets' situations alike. The
    # fields a model was given are a set, whose order follows the process's string hashing: kept
    # as is, the same situation pickled in two runs gave two byte strings, and an overlay cached by
    # one run shared nothing with its base cached by another. Sorted, the bytes follow the content.
    def __getstate__(self) -> dict[Any, Any]:
        state = super().__getstate__()
        state["__pydantic_fields_set__"] = sorted(state["__pydantic_fields_set__"])
        return state

    def __setstate__(self, state: dict[Any, Any]) -> None:
        state["__pydantic_fields_set__"] = set(state["__pydantic_fields_set__"])
        super().__setstate__(state)


class Contradiction(Strict):
    """A ruling the base ruleset rules, which this source rules otherwise on."""

    ruling: str = Field(pattern=RULING_ID, description="Id of the base ruleset's ruling (MNJ-3)")
    section: str = Field(description="The section of this source that rules otherwise")
    says: str = Field(description="What the source rules instead, in a sentence of our own words")


class Source(Strict):
    title: str = Field("", description="Title of the source document (an overlay adding to its base's entry for the "
                       "same key, a `contradicts` list say, may leave it out: the keys it writes are laid over the base's)")
    url: str | None = Field(None, description="Where the source can be read")
    note: str | None = Field(None, description="How complete our reading of it is, or what it covers")
    sections: list[str] = Field(
        default_factory=_no_items,
        description="The source's own headings, where we have read them: a ruling that cites a section of "
        "this source must name one of these (lint), so a citation cannot point at a heading that does not exist")
    event: bool = Field(
        False, description="An event's own rule sheet (a tournament's, or an online host's): a ruleset that names "
        "another sheet as its own (`sheet:`) may not cite this one; where its own sheet is silent it says so in a note")
    numbers: "SheetNumbers | None" = Field(
        None, description="The scoring numbers this sheet states, by the scoring key they set: a ruling that states "
        "a number (through its scoring or points) and cites this sheet must state the sheet's number (lint)")
    contradicts: list[Contradiction] = Field(
        default_factory=list, description="Written by a ruleset that takes this source as its own: the rulings of the "
        "ruleset it extends that this source rules otherwise on. Each must be ruled otherwise here (a patch with a ruling "
        "of this ruleset's own), or the check fails; 'referee diff' lists each with what replaced it")


class ExposurePenalty(Strict):
    exposures: int = Field(ge=0, description="From this many exposures of the winner upward")
    points: int = Field(description="Points the discarder scores (usually negative)")


class SheetNumbers(Strict):
    """The scoring numbers a published sheet states: each key as in `scoring`, given only where the sheet says it."""

    winner_times: int | None = None
    self_pick_bonus: int | None = None
    jokerless_bonus: int | None = None
    discarder_penalties: list[ExposurePenalty] | None = None
    wall_game_points: int | None = None
    dead_points: int | None = None
    penalties: dict[str, int] = Field(default_factory=_no_entries, description="Named points, as in scoring's `penalties`")


class Scoring(ScoringKind, Strict):
    kind: Literal["money", "points"] = Field("money", description="Money games pay between players; tournaments score points")
    unit: str = Field("cents", description="What amounts count: cents, points")
    lowest_hand: int = Field(25, ge=0, description="Value of the lowest hand on the current card (L)")
    discarder_times: int = Field(2, ge=0, description="Standard schedule: the discarder of the winning tile pays this many times the hand value")
    others_times: int = Field(1, ge=0, description="Standard schedule: each other loser pays this many times the value on a discard win")
    self_pick_times: int = Field(2, ge=0, description="Standard schedule: each loser pays this many times the value on a self-picked win")
    jokerless_times: int = Field(2, ge=1, description="Multiplier for an announced jokerless hand (never for Singles and Pairs)")
    joker_exchange_as_self_pick: bool = Field(True, description="A Mah Jongg made by a joker exchange is paid (or scored) like a self-pick")
    dice_doubles_times: int = Field(1, ge=1, description="House rule 'double dice': when East's opening roll was doubles, every Mah Jongg payment is multiplied by this")
    stakes_times: int = Field(1, ge=1, description="House rule: every Mah Jongg payment is multiplied by this (doubling the card: 2, adding a zero: 10)")
    stakes_name: str = Field("your table's stakes", description="What the table calls its stakes rule, as the arithmetic names it")
    first_last_times: int = Field(1, ge=1, description="House rule: the first and the last game of a session are paid this many times over")
    hand_bonus: int = Field(0, ge=0, description="House rule: each loser pays the winner this much more when the winning hand is the table's bonus hand (not multiplied)")
    hand_bonus_name: str = Field("", description="The table's bonus hand, in the words its players use")
    pie: int | None = Field(None, ge=1, description="House rule 'pie' (a loss limit): a player who has lost this much in the session pays nothing more until they win some back")
    winner_times: int = Field(1, ge=0, description="Points: the winner scores this many times the card value")
    self_pick_bonus: int = Field(0, description="Points: added to the winner's score for a self-picked Mah Jongg")
    jokerless_bonus: int = Field(0, description="Points: added to the winner's score for a jokerless hand (never Singles and Pairs)")
    discarder_penalties: list[ExposurePenalty] = Field(
        default_factory=_no_items,
        description="Points: the discarder of the winning tile scores these (negative) points, by the winner's number of exposures; the entry with the largest 'exposures' not above the winner's count applies",
    )
    wall_game_points: int = Field(0, description="Points: each live (not dead) hand scores this in a wall game")
    dead_points: int = Field(0, description="Points: what a dead hand scores")
    penalties: dict[str, int] = Field(
        default_factory=_no_entries,
        description="Points: the other fixed points an event's sheet states, by name (peek_penalty: -10 for peeking "
        "at a blind pass); a ruling names one in `of:` or as {peek_penalty}, and `referee pay --penalty NAME=SEAT` "
        "adds it. An overlay's entries are added to its base's")

    @field_validator("penalties")
    @classmethod
    def _penalty_names(cls, value: dict[str, int]) -> dict[str, int]:
        for name in value:
            if not re.match(FACT_ID, name) or name in Scoring.model_fields:
                raise ValueError(f"penalty name {name!r} must be lower-case letters, digits and '_', and not a scoring key")
        return value



class RulesetMeta(Strict):
    id: str = Field(pattern=SITUATION_ID, description="Short id used with --ruleset")
    title: str
    version: str = Field(description="Version of this ruleset's text")
    effective: str | None = Field(None, description="Date from which these rules apply (YYYY-MM-DD)")
    extends: str | None = Field(None, description="Id of the ruleset this one overrides")
    description: str = ""
    sources: dict[str, Source] = Field(default_factory=_no_entries, description="Bibliography: key -> source")
    scoring: Scoring | None = Field(None, description="Scoring; inherited when the ruleset extends another")
    remove: list[str] = Field(default_factory=_no_items, description="Situations of the base ruleset that this one drops")
    recite: "list[Recite]" = Field(
        default_factory=_no_items,
        description="An event's own rules cited in place of another event's on every ruling it inherits (first match "
        "wins): {from: 'KEY' or 'KEY: section', to: [citations], note: what this event's rules say, or that they are silent}")
    customs: "list[CustomUse]" = Field(
        default_factory=_no_items,
        description="The table customs this house ruleset plays (written by 'referee house'): each names its rule, "
        "its source and what it changes, so a ruling it changes can say so")
    sheet: list[str] = Field(
        default_factory=_no_items, description="An event's ruleset: the source keys of its own published sheet (its "
        "`coverage.yaml` maps each of the sheet's sections to what carries it); its rulings may cite no other event's sheet")
    card: str | None = Field(
        None, description="The card hands are checked against when a ruling is answered with tiles: 'practice' (the "
        "invented card that ships) or the path of a card file, relative to this folder; inherited when not given")


class CustomUse(Strict):
    """A table custom from the catalogue, as one house ruleset plays it."""

    id: str = Field(description="The custom's id in the catalogue ('referee house list')")
    rule: str = Field(description="What the table calls it, as a ruling says it: 'pie' -> 'by your table's pie rule'")
    says: str = Field(description="The custom in one sentence, with its number")
    number: int | None = Field(None, description="The number the table chose for it, if it needs one")
    cite: str = Field(description="The source that describes it: 'KEY' or 'KEY: section'")
    scoring: list[str] = Field(default_factory=_no_items, description="The scoring keys it sets (the arithmetic it changes)")
    rulings: list[str] = Field(default_factory=_no_items, description="The ids of the rulings it adds or rewrites")


class FactDef(Strict):
    type: Literal["yesno", "choice", "seat", "seats", "number"] = Field(description="Kind of answer")
    ask: str = Field(description="The question as the judge reads it")
    help: str = Field("", description="What the terms in the question mean; shown on '?'")
    choices: dict[str, str] | None = Field(None, description="For type choice: value -> label")
    min: int | None = Field(None, description="For type number: smallest allowed value")
    max: int | None = Field(None, description="For type number: largest allowed value")
    seats: list[Literal["East", "South", "West", "North"]] | None = Field(
        None, description="For type seat or seats: the only seats that can play this part (a single seat is filled in without asking)")
    may_also_be: list[str] = Field(
        default_factory=_no_items,
        description="For type seat or seats: other roles or seat facts that may name the same player (roles are different players unless listed here)")
    multiple_of: int | None = Field(None, ge=1, description="For type number: answers must be a multiple of this (card values go in fives)")
    default: int | None = Field(
        None, description="For type number: the number the event's sheet gives where the director decides; Enter at "
        "the prompt takes it, and a run without prompts (--no-input, a scenario) uses it when no answer is given")
    short: dict[str, str] | None = Field(
        None, description="For type yesno or choice: answer -> what it means in a few words, as the quick-reference sheet "
        "says when a ruling applies, e.g. yes: 'they completed the wrong swap' (default: the choice's label, or the "
        "question turned into a statement where that is safe, else the question and its answer)")
    card: Literal["valid", "invalid", "dead", "alive", "value", "singles-and-pairs", "jokerless", "joker-misplaced"] | None = Field(
        None, description="The card can answer this fact from tiles: valid/invalid (yesno: the declared hand makes a "
        "card line, or makes none), dead/alive (yesno: no line is still possible for the player, or one is), value "
        "(number: the card value of the hand's best line), singles-and-pairs (yesno: that line is a Singles and Pairs hand), "
        "jokerless (yesno: 'no' when the hand holds a joker; a hand without one is still asked, for the announcement), "
        "joker-misplaced (yesno: 'no' when the hand makes a line or holds no joker; a hand with a joker that makes no "
        "line is still asked, since the card cannot tell which group the joker was meant for)")
    card_claims: dict[str, Literal["valid", "invalid", "dead", "alive"]] = Field(
        default_factory=_no_entries, description="For type choice: answers that claim what the card can tell from tiles "
        "(challenger: dead - 'the challenger was right' claims the challenged hand was dead). With tiles entered, such an "
        "answer the tiles contradict is refused, and one they bear out cites the card")

    @model_validator(mode="after")
    def _choices_only_for_choice(self) -> "FactDef":
        if self.type == "choice" and not self.choices:
            raise ValueError("a choice fact needs 'choices'")
        if self.type != "choice" and self.choices:
            raise ValueError("'choices' is only for type choice")
        if self.type not in ("seat", "seats") and (self.seats or self.may_also_be):
            raise ValueError("'seats' and 'may_also_be' are only for type seat or seats")
        if self.type != "number" and self.multiple_of is not None:
            raise ValueError("'multiple_of' is only for type number")
        if self.type != "number" and self.default is not None:
            raise ValueError("'default' is only for type number")
        if self.default is not None and not ((self.min is None or self.default >= self.min) and (self.max is None or self.default <= self.max)):
            raise ValueError(f"default {self.default} is outside min..max")
        if self.card_claims and (self.type != "choice" or not set(self.card_claims) <= set(self.choices or {})):
            raise ValueError("'card_claims' is for type choice, keyed by its choices")
        if self.card is not None and self.type != ("number" if self.card == "value" else "yesno"):
            raise ValueError(f"card: {self.card} answers a {'number' if self.card == 'value' else 'yesno'} fact, not a {self.type} one")
        if self.choices:
            for value in self.choices:
                if not re.match(r"^[a-z0-9][a-z0-9_-]*$", value):
                    raise ValueError(f"choice value {value!r} must be lower-case letters, digits, '-' or '_'")
        if self.short:
            answers = ["yes", "no"] if self.type == "yesno" else list(self.choices or {})
            unknown = [k for k in self.short if k not in answers]
            if unknown:
                raise ValueError(f"short: {unknown[0]!r} is not an answer to this question"
                                 + (f" ({', '.join(answers)})" if answers else "; 'short' is only for yesno and choice facts"))
        return self


class RoleDef(Strict):
    ask: str = Field(description="Which seat plays this role?")
    help: str = ""
    seats: list[Literal["East", "South", "West", "North"]] | None = Field(
        None, description="The only seats that can play this role (a single seat is filled in without asking)")
    may_also_be: list[str] = Field(
        default_factory=_no_items, description="Other roles or seat facts that may name the same player (roles are different players unless listed here)")
    label: str = Field("", description="How a ruling names this seat while it is left open, e.g. 'the seat bet on' "
                       "(default: 'the' and the role's name, 'the picker')")

    def as_fact(self) -> "FactDef":
        # Built without validation: this role is valid, so its seat fact is too, and building
        # FactDef's deferred validator would cost a ruling several milliseconds.
        return FactDef.model_construct(type="seat", ask=self.ask, help=self.help, seats=self.seats, may_also_be=self.may_also_be)


def _role_text(value: Any) -> Any:
    # `picker: Which seat picked?` is the short form of `picker: {ask: ...}`.
    if isinstance(value, dict):
        return {k: ({"ask": v} if isinstance(v, str) else v) for k, v in value.items()}
    return value


class Cite(CiteKind, Strict):
    source: str = Field(description="A key of the ruleset's sources")
    section: str = Field("", description="Section or heading within the source")


def _parse_cite(value: Any) -> Any:
    # "AMJA-PLAY: Picking from Wrong End" is easier to write than a mapping.
    if isinstance(value, str):
        key, _, section = value.partition(":")
        return {"source": key.strip(), "section": section.strip()}
    return value


def _parse_cites(value: Any) -> Any:
    """One citation or a list of them, each as _parse_cite reads it."""
    if isinstance(value, (str, dict)):
        value = [value]
    return [_parse_cite(v) for v in value] if isinstance(value, list) else value


class Recite(Strict):
    """One citation of another source that an overlay's rulings cite differently: an event's
    overlay inherits rulings that cite the common tournament sheets, and must cite its own."""

    from_: str = Field(alias="from", description="The citation replaced: 'KEY' (any section of it) or 'KEY: section'")
    to: list[Cite] = Field(default_factory=_no_items, description="Cited instead ('KEY' or 'KEY: section'); empty drops the citation")
    note: str = Field("", description="Added to the notes of each ruling that loses the citation: what this ruleset's own source says on the point, or that it says nothing")

    @field_validator("to", mode="before")
    @classmethod
    def _cites(cls, value: Any) -> Any:
        return _parse_cites(value)

    def matches(self, cite: Cite) -> bool:
        key, _, section = self.from_.partition(":")
        return cite.source == key.strip() and (not section.strip() or cite.section.casefold() == section.strip().casefold())


class Transfer(Strict):
    """Money that moves from one party to another."""

    from_: str = Field(alias="from", description="Role that pays, or a group: others, active")
    to: str = Field(description="Role that collects, or a group: others, active")
    times: int = Field(1, ge=1, description="Multiplier applied to 'of'")
    of: str | None = Field(None, description="A number fact (hand_value, declared_value) or lowest_hand")
    amount: int | None = Field(None, ge=0, description="A fixed amount in the ruleset's unit instead of 'of'")

    @model_validator(mode="after")
    def _one_base(self) -> "Transfer":
        if (self.of is None) == (self.amount is None):
            raise ValueError("a payment needs exactly one of 'of' or 'amount'")
        if self.amount is not None and self.times != 1:
            raise ValueError("'times' goes with 'of', not with a fixed 'amount'")
        return self


class PointAward(Strict):
    """Tournament points credited (or, when negative, charged) to a party."""

    to: str = Field(description="Role or group: others, active")
    points: int | None = Field(None, description="A fixed number of points (may be negative)")
    times: int = Field(1, description="Multiplier applied to 'of'")
    of: str | None = Field(None, description="A number fact, such as hand_value")

    @model_validator(mode="after")
    def _one_base(self) -> "PointAward":
        if (self.of is None) == (self.points is None):
            raise ValueError("a point award needs exactly one of 'of' or 'points'")
        return self


class Settle(Strict):
    """Settle the Mah Jongg by the ruleset's standard schedule."""

    winner: str = Field(description="Role of the winner")
    how: Literal["discard", "self-pick", "joker-exchange"] = Field(description="How the winning tile came")
    discarder: str | None = Field(None, description="Role of the discarder, for a discard win")
    value: str = Field("hand_value", description="Number fact holding the hand value")
    exempt: list[str] = Field(
        default_factory=_no_items,
        description="Roles that pay nothing by a rule the table agreed before play (a player who has lost their whole pie)")
    bettor: str | None = Field(
        None,
        description="Role of the seat a fifth player (the bettor) bet on: the bettor pays or collects exactly like that seat; "
        f"'{WALL_BET}' for a bet on a wall game: the bettor pays like a loser who did not throw the winning tile",
    )

    @model_validator(mode="after")
    def _discarder(self) -> "Settle":
        if (self.how == "discard") != (self.discarder is not None):
            raise ValueError("a discard win names its 'discarder'; a self-pick or joker exchange does not")
        return self


class Ruling(Strict):
    id: str = Field(pattern=RULING_ID, description="Stable citable id, e.g. MJE-3")
    says: str = Field(description="What the judge reads out; {role} and {fact} are filled in")
    game: Literal["continues", "ends", "replay", "redeal"] = Field(description="What happens to the game")
    dead: list[str] = Field(default_factory=_no_items, description="Roles whose hands are dead ('others' beside them: every other hand too)")
    pay: list[Transfer] = Field(default_factory=_no_items, description="Money transfers")
    points: list[PointAward] = Field(default_factory=_no_items, description="Tournament point awards")
    settle: Settle | None = Field(None, description="Pay the Mah Jongg by the standard schedule")
    owed: str = Field("", description="What is owed, in words, where the ruling leaves the amounts to the table or to payments already made ({role} and {fact} are filled in); shown under Payments")
    tiles: list[str] = Field(default_factory=_no_items, description="What happens to tiles and jokers")
    procedure: list[str] = Field(default_factory=_no_items, description="Steps for the table, in order")
    notes: list[str] = Field(default_factory=_no_items, description="Gaps no source settles, judgement calls, pointers to other rulings")
    other_sources: list[str] = Field(
        default_factory=_no_items, description="What other sources hold where they differ from this ruling (or from each "
        "other): shown apart, after the verdict, under 'Other sources', so no one reads them as part of the ruling")
    cite: list[Annotated[Cite, Field()]] = Field(default_factory=_no_items, description="Sources: 'KEY' or 'KEY: section'")
    then: "Goto | None" = Field(
        None, description="Where the case goes on after this ruling ({goto: situation, bind, set}): the judge is carried "
        "into that situation with every answer kept, and both rulings are printed, this one first; its dead hands stay dead")

    @field_validator("cite", mode="before")
    @classmethod
    def _cites(cls, value: Any) -> Any:
        return _parse_cites(value)


class Goto(GotoKind, Strict):
    goto: str = Field(description="Id of the situation to continue in")
    at: str | None = Field(None, description="Node to start at (default: its start)")
    bind: dict[str, str] = Field(default_factory=_no_entries, description="Role there -> the role here that is the same seat (declarer: caller)")
    dead: list[str] = Field(default_factory=_no_items, description="Roles here whose hands are already dead; the ruling there adds them")
    set: dict[str, str] = Field(default_factory=_no_entries, description="Facts there that this path already settles (declared_on_discard: 'yes')")


Target = Union[str, Goto]


class QuestionNode(QuestionNodeKind, Strict):
    ask: str = Field(pattern=FACT_ID, description="The fact this node asks")
    yes: Target | None = None
    no: Target | None = None
    when: dict[str, Target] | None = Field(None, description="For a choice fact: value -> next node")
    else_: Target | None = Field(None, alias="else", description="For a choice fact: any value not in 'when'")


class RulingNode(RulingNodeKind, Strict):
    ruling: Ruling


class GotoNode(GotoNodeKind, Strict):
    goto: str = Field(description="Id of the situation to continue in")
    at: str | None = None
    bind: dict[str, str] = Field(default_factory=_no_entries, description="Role there -> the role here that is the same seat")
    dead: list[str] = Field(default_factory=_no_items, description="Roles here whose hands are already dead")
    set: dict[str, str] = Field(default_factory=_no_entries, description="Facts there that this path already settles (declared_on_discard: 'yes')")

    def target(self) -> Goto:
        """The same jump as a branch's inline goto. Built without validation: this node is
        valid, so the jump is too, and building Goto's deferred validator costs a ruling."""
        return Goto.model_construct(goto=self.goto, at=self.at, bind=self.bind, dead=self.dead, set=self.set)


def _node_kind(value: Any) -> str | None:
    if isinstance(value, dict):
        for key in ("ask", "ruling", "goto"):
            if key in value:
                return key
        return None
    if isinstance(value, BaseModel):
        return {QuestionNode: "ask", RulingNode: "ruling", GotoNode: "goto"}.get(type(value))
    return None


Node = Annotated[
    Union[
        Annotated[QuestionNode, Tag("ask")],
        Annotated[RulingNode, Tag("ruling")],
        Annotated[GotoNode, Tag("goto")],
    ],
    Discriminator(
        _node_kind,
        custom_error_type="node_kind",
        custom_error_message="a node needs one of 'ask', 'ruling' or 'goto'",
    ),
]


class Situation(Strict):
    id: str = Field(pattern=SITUATION_ID, description="Stable id, used on the command line")
    title: str
    phase: Literal["deal", "charleston", "play", "claiming", "joker", "mahjong", "dead", "end"]
    aliases: list[str] = Field(default_factory=_no_items, description="Words a judge would type to find this")
    summary: str = Field(description="One line: what happened")
    help: str = Field("", description="Reference text: terms and the correct procedure")
    roles: dict[str, RoleDef] = Field(default_factory=_no_entries, description="Seats involved: role -> question")
    facts: dict[str, FactDef] = Field(default_factory=_no_entries, description="Facts used only here")
    start: str = Field(description="Id of the first node")
    nodes: dict[str, Node]

    _roles = field_validator("roles", mode="before")(lambda value: _role_text(value))


class SituationPatch(Strict):
    """An overlay's change to one situation of the base ruleset: replace or add nodes."""

    patch: str = Field(pattern=SITUATION_ID, description="Id of the base situation to change")
    title: str | None = None
    aliases: list[str] | None = None
    summary: str | None = None
    help: str | None = None
    roles: dict[str, RoleDef] = Field(default_factory=_no_entries)
    facts: dict[str, FactDef] = Field(default_factory=_no_entries)
    start: str | None = None
    nodes: dict[str, Node] = Field(default_factory=_no_entries, description="Nodes to replace or add, by id")
    remove_nodes: list[str] = Field(default_factory=_no_items)

    _roles = field_validator("roles", mode="before")(lambda value: _role_text(value))


class Carrier(Strict):
    """What carries one rule of an event's sheet: exactly one of these."""

    situation: str | None = Field(None, description="A situation whose rulings apply the rule")
    ruling: str | None = Field(None, description="A ruling id that states it")
    scoring: str | None = Field(None, description="A scoring key (self_pick_bonus ...) or named penalty that holds its number")
    fact: str | None = Field(None, description="A question whose default is the sheet's number (the director decides)")
    note: str | None = Field(None, description="Why no ruling carries it: it is the League's own rule, or about something no judge rules on")

    @model_validator(mode="after")
    def _one(self) -> "Carrier":
        given = [k for k in ("situation", "ruling", "scoring", "fact", "note") if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError("an entry names exactly one of situation, ruling, scoring, fact or note")
        return self


class CoverageFile(Strict):
    """An event ruleset's coverage map: for each of its own sheets, each section of the sheet and what carries it."""

    sheets: dict[str, dict[str, list[Carrier]]] = Field(
        description="Source key -> the sheet's section (as its `sections:` lists it) -> what carries that rule here")


class FactsFile(Strict):
    facts: dict[str, FactDef]


class Expect(Strict):
    ruling: str = Field(description="Ruling id the scenario must reach")
    before: list[str] | None = Field(None, description="Rulings the case must go on from (a ruling's `then`), in order, before the last")
    dead: list[str] | None = Field(None, description="Seats whose hands are dead")
    game: Literal["continues", "ends", "replay", "redeal"] | None = None
    payments: list[dict[str, Any]] | None = Field(None, description="[{from: seat, to: seat, amount: int}]")
    points: dict[str, int] | None = Field(None, description="seat -> points")
    says: list[str] | None = Field(None, description="Phrases the ruling text must contain")


class HandTiles(Strict):
    tiles: str = Field(description="All 14 tiles, exposures included, e.g. 'FF 2033B 3333C 3333D'")
    exposed: list[str] = Field(default_factory=_no_items, description="Groups exposed before Mah Jongg, e.g. ['3333C']")


class TableTiles(Strict):
    exposed: list[str] = Field(default_factory=_no_items, description="The player's exposures, e.g. ['22J2B']")
    discards: str = Field("", description="Every tile in the discards, e.g. '6D 6D 9B J'")
    exposed_by_others: list[str] = Field(default_factory=_no_items, description="The other players' exposures, jokers included")
    others_jokers: bool = Field(True, description="Jokers in the others' exposures count as ones the player could still redeem")


class Caveat(Strict):
    """Why a published question is not plain training material (`referee quiz` leaves it out unless asked)."""

    kind: Literal["contradicted", "opinion"] = Field(
        description="contradicted: the ruleset rules otherwise than the published answer; opinion: the answer is one writer's view, not a rule")
    note: str = Field(description="What a judge should know, in a sentence: what the source said and what this ruleset rules")


class Answers(Strict):
    """An answers file; a scenario is an answers file with `expect`."""

    title: str | None = None
    story: str | None = None
    source: str | None = Field(None, description="Where the case comes from")
    published: str | None = Field(
        None,
        description="The published rulings question this scenario answers, paraphrased, and where it was "
        "asked and answered (URL, or publication and question); `referee test` counts these",
    )
    caveat: Caveat | None = Field(None, description="The published answer is contradicted by this ruleset, or is one writer's opinion")
    ruleset: str | None = None
    situation: str | None = None
    answers: dict[str, Any] = Field(default_factory=_no_entries, description="fact -> answer")
    seats: dict[str, str] = Field(default_factory=_no_entries, description="role -> seat")
    players: dict[str, str] = Field(default_factory=_no_entries, description="seat (or Bettor, for a fifth player) -> player name")
    card: str | None = Field(None, description="The card `hand` or `table` is checked against: 'practice' or a card file (default: the ruleset's card)")
    hand: HandTiles | None = Field(None, description="The declared hand as tiles: answers the facts marked card: valid, value ...")
    table: TableTiles | None = Field(None, description="What everyone can see: answers the facts marked card: dead or alive")
    expect: Expect | None = None
