"""Worked payment (or points) tables for hand values 25 to 75, from `referee.ruling.scoring` itself.

The seats are fixed (North wins, East discards) only to ask the scoring code; the tables show
roles, and every amount is the one `referee pay` prints for the same hand.
"""
from __future__ import annotations

import pickle
from dataclasses import dataclass

from ..rules.model import Scoring
from ..ruling.scoring import discarder_penalty, points, standard
from ..rules.memo import keep

VALUES = tuple(range(25, 80, 5))
WINNER, DISCARDER = "North", "East"


@dataclass
class Table:
    title: str
    note: str
    header: list[str]
    rows: list[list[str]]


def _money(scoring: Scoring, value: int, how: str, jokerless: bool) -> tuple[int, int, int]:
    """(discarder pays, each other pays, winner collects); self-pick: every loser pays the middle."""
    s = standard(scoring, winner=WINNER, how=how, discarder=DISCARDER if how == "discard" else None,
                 value=value, jokerless=jokerless)
    paid = {p.payer.seat: p.amount or 0 for p in s.payments}
    collected = s.totals()[WINNER]
    return paid.get(DISCARDER, 0), paid.get("South", 0), collected


def money_tables(scoring: Scoring) -> list[Table]:
    unit = scoring.unit
    out = []
    for jokerless in (False, True):
        rows = []
        for v in VALUES:
            d, o, total = _money(scoring, v, "discard", jokerless)
            _, each, total_self = _money(scoring, v, "self-pick", jokerless)
            rows.append([str(v), str(d), str(o), str(total), str(each), str(total_self)])
        out.append(Table(
            f"Paying a Mah Jongg{', jokerless (announced)' if jokerless else ''}",
            f"Amounts in {unit}. "
            + (f"Jokerless multiplies every payment by {scoring.jokerless_times}, except Singles and Pairs hands. "
               if jokerless else "")
            + ("A joker-exchange win is paid like a self-pick." if scoring.joker_exchange_as_self_pick
               else "A joker-exchange win is paid like a discard win with no discarder."),
            ["hand value", "discard win: discarder pays", "each other player pays", "winner collects",
             "self-pick: each player pays", "winner collects"],
            rows,
        ))
    return out


def points_tables(scoring: Scoring) -> list[Table]:
    rows = []
    for v in VALUES:
        cells = [str(v)]
        for how, jokerless in (("discard", False), ("self-pick", False), ("discard", True), ("self-pick", True)):
            s = points(scoring, winner=WINNER, how=how, discarder=DISCARDER if how == "discard" else None,
                       value=v, exposures=0 if how == "discard" else None, jokerless=jokerless)
            cells.append(str(s.totals()[WINNER]))
        rows.append(cells)
    tables = [Table(
        "Points for the winner",
        "The winner's score; the other players score 0 unless a ruling says otherwise. "
        + ("A joker-exchange win scores like a self-pick." if scoring.joker_exchange_as_self_pick
           else "A joker-exchange win scores like a discard win, without the self-pick bonus."),
        ["hand value", "on a discard", "self-picked", "jokerless, on a discard", "jokerless, self-picked"],
        rows,
    )]
    if scoring.discarder_penalties:
        top = max(e.exposures for e in scoring.discarder_penalties)
        tables.append(Table(
            "The discarder of the winning tile",
            "Points the discarder scores, by how many exposures the winner had.",
            ["winner's exposures", "discarder scores"],
            [[f"{n}{'+' if n == top else ''}", f"{discarder_penalty(scoring, n):+d}"] for n in range(top + 1)],
        ))
    return tables


# Rulesets that extend one another mostly score alike (the twelve shipped ones have five
# scorings): the tables are worked out once for each scoring, kept by its pickled bytes.
_MADE: dict[bytes, list[Table]] = {}


def tables(scoring: Scoring) -> list[Table]:
    key = pickle.dumps(scoring, pickle.HIGHEST_PROTOCOL)
    made = _MADE.get(key)
    if made is None:
        made = keep(_MADE, key, points_tables(scoring) if scoring.kind == "points" else money_tables(scoring), 256)
    return [Table(t.title, t.note, list(t.header), [list(r) for r in t.rows]) for t in made]  # the caller's own
