"""What each ruling holds against each named player: one row per seat with a name, written with
the ruling, so `log players` is a GROUP BY in the database instead of decoding every ruling's JSON
in Python (4.3 s at 100,000 rulings before; issue 31).

Called by `rulings` (on every insert, and to read the totals) and by the schema's migration that
fills the table for a log written before it existed (`db.FILLS`). Imports nothing of the store.
"""
from __future__ import annotations

import json
from typing import Any, Callable

# The table and its index; `db.MIGRATIONS` runs it (PostgreSQL's dialect sorts `ruling` as bytes).
SCHEMA = """
    CREATE TABLE charges (
        ruling TEXT NOT NULL,
        seat TEXT NOT NULL,
        player_key TEXT NOT NULL, player TEXT NOT NULL,
        is_dead INTEGER NOT NULL, paid INTEGER NOT NULL, paid_open INTEGER NOT NULL,
        points_lost INTEGER NOT NULL, points_open INTEGER NOT NULL, charged INTEGER NOT NULL,
        PRIMARY KEY (ruling, seat)
    )
"""
# No index on the player: the totals read every row anyway, and a name may be longer than
# PostgreSQL can index (2,704 bytes).
COLUMNS = ["ruling", "seat", "player_key", "player", "is_dead", "paid", "paid_open", "points_lost", "points_open", "charged"]
INSERT = f"INSERT INTO charges ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))}) ON CONFLICT DO NOTHING"


def key(name: str) -> str:
    """A player as the log counts her: her name without surrounding spaces, ignoring case."""
    return name.strip().casefold()


def against(settled: bool, dead: list[str], payments: list[dict[str, Any]], points: list[dict[str, Any]],
            seat: str) -> tuple[bool, list[dict[str, Any]], list[int], int]:
    """What a ruling holds against one seat: (dead, penalty payments, points lost, penalties left open).

    Settling a Mah Jongg is no offence: paying a valid Mah Jongg by the schedule (the discarder's
    double, a bettor's share, a tournament discarder's points) is how the game is scored. So is a
    payment several players share, such as a Heavenly Hand. What is held against her is a dead
    hand, a payment she alone makes (a penalty, a fine, a lost challenge) and points she loses
    outside a settlement.
    """
    if settled:  # paid by the standard schedule: ordinary scoring
        return seat in dead, [], [], 0
    payers = {p.get("from") for p in payments}
    paid = [p for p in payments if p.get("from") == seat] if payers == {seat} else []
    lost = [p["points"] for p in points if p.get("to") == seat and (p.get("points") or 0) < 0]
    # the engine lists the winner's score first; a later award left open is a penalty still to be counted
    owed = sum(1 for p in points[1:] if p.get("to") == seat and p.get("points") is None)
    return seat in dead, paid, lost, owed


def rows(rid: str, players: dict[str, str], dead: list[str], payments: list[dict[str, Any]],
         points: list[dict[str, Any]], settled: bool) -> list[list[Any]]:
    """The charges rows of one ruling: every named seat, charged or not (a player's count of
    rulings that name her comes from the same rows)."""
    out = []
    for seat, name in players.items():
        if not isinstance(name, str) or not name.strip():
            continue
        is_dead, paid, lost, owed = against(settled, dead, payments, points, seat)
        known = sum(int(p["amount"]) for p in paid if isinstance(p.get("amount"), (int, float)) and p["amount"] == p["amount"])
        left_open = sum(1 for p in paid if p.get("amount") is None)
        charged = bool(is_dead or paid or lost or owed)
        out.append([rid, seat, key(name), name.strip(), int(is_dead), known, left_open, -sum(lost), owed, int(charged)])
    return out


def settled(outcome: dict[str, Any]) -> bool:
    """Whether a ruling settled a Mah Jongg by the standard schedule (its document's `settlement`)."""
    return isinstance(outcome, dict) and bool(outcome.get("settlement"))


def fill(run: Callable[..., Any], many: Callable[..., Any], batch: int = 2000) -> None:
    """Write the charges of every ruling already in the log (the migration that adds the table):
    a batch at a time by id, so a large log is never held whole."""
    last = ""
    while True:
        page = run("SELECT id, players, dead, payments, points, outcome FROM rulings WHERE id > ? ORDER BY id LIMIT ?",
                   (last, batch)).fetchall()
        if not page:
            return
        written: list[list[Any]] = []
        for rid, *stored in page:
            try:
                players, dead, payments, points, outcome = (json.loads(v) for v in stored)
            except ValueError:  # a damaged record counts for nobody rather than stopping the upgrade
                continue
            if isinstance(players, dict) and isinstance(dead, list) and isinstance(payments, list) and isinstance(points, list):
                written += rows(rid, players, dead, payments, points, settled(outcome))
        if written:
            many(INSERT, written)
        last = page[-1][0]
