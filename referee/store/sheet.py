"""The log as a spreadsheet: one row a ruling, every cell a plain value a spreadsheet can use.

Called by `store.transfer.export` for `referee log export --format csv` (and the head judge's
web export). A sheet is for reading, sorting and summing, not for merging logs: a list or a
mapping becomes readable text ("East; West", "West pays East 100 (4 x 25)"), the money and
the points each seat won or lost are numbers in their own columns, and the full `rule --json`
document is left out. JSONL keeps every field and is what `referee log import` reads back.
"""
from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any, Iterable

from ..rules.model import SEATS
from .record import Ruling

COLUMNS = [
    "id", "recorded_at", "event", "round", "table", "judge",
    "ruleset_id", "ruleset_version", "ruleset_hash", "situation", "ruled_in", "ruling_id", "game",
    "dead", *(f"{s.lower()}_player" for s in SEATS), *(f"{s.lower()}_net" for s in SEATS), "unit",
    *(f"{s.lower()}_points" for s in SEATS),
    "payments", "points", "roles", "answers", "printed",
    "withdrawn_at", "withdrawn_by", "withdrawn_reason", "machine", "ruleset_source",
]


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ", ".join(_text(v) for v in value)
    return str(value)


def _amount(value: Any, signed: bool = False) -> str:
    if not isinstance(value, int):
        return "an amount left open"
    return f"{value:+d}" if signed else str(value)


def _named(seat: str, players: dict[str, str]) -> str:
    return f"{seat} ({players[seat]})" if players.get(seat) else seat


def _nets(r: Ruling) -> dict[str, int | str]:
    """What each seat won (+) or paid (-) in this ruling; a payer left open counts for no seat,
    and a seat with an amount left open says "open" (a spreadsheet's sum skips it)."""
    net: dict[str, int | str] = dict.fromkeys(SEATS, 0)
    for p in r.payments:
        for seat, sign in ((p.get("from"), -1), (p.get("to"), 1)):
            if seat in net:
                amount, now = p.get("amount"), net[seat]
                net[seat] = "open" if now == "open" or not isinstance(amount, int) else int(now) + sign * amount
    return net


def _points(r: Ruling) -> dict[str, int | str]:
    """The points each seat was given (+) or lost (-) in this ruling (a tournament's score
    sheet); "open" where an award's points were left open."""
    got: dict[str, int | str] = dict.fromkeys(SEATS, 0)
    for a in r.points:
        seat, points = a.get("to"), a.get("points")
        if seat in got:
            now = got[seat]
            got[seat] = "open" if now == "open" or not isinstance(points, int) else int(now) + points
    return got


def rules_of(snapshots: Iterable[tuple[str, str, str, bytes]]) -> dict[str, Any]:
    """The rules each snapshot holds, loaded, by hash: the choices' words a ruling was answered
    in. A copy that does not load is left out, and its rulings' answers stay as recorded."""
    from ..errors import RefereeError
    from ..rules.loader import load
    from .snapshot import restore

    loaded: dict[str, Any] = {}
    for snap in snapshots:
        with tempfile.TemporaryDirectory(prefix="referee-sheet-") as tmp:
            try:
                rs, problems = load(restore(snap, Path(tmp)))
            except RefereeError:
                continue
            if rs is not None and not problems:
                loaded[snap[0]] = rs
    return loaded


def answer_words(rs: Any, q: dict[str, Any]) -> str:
    """An answer in the words its question offered: a choice's label, not its stored value
    (`rs` from rules_of; None leaves it as recorded). `log show` says it so too."""
    value = q.get("answer")
    fact = rs.fact(str(q.get("fact")), q.get("situation")) if rs is not None else None
    labels = (fact.choices or {}) if fact is not None else {}
    if isinstance(value, list):
        return ", ".join(labels.get(str(v), _text(v)) for v in value)
    return labels.get(str(value), _text(value)) if value is not None else ""


def row(r: Ruling, rules: dict[str, Any] | None = None) -> dict[str, str | int]:
    """One ruling as the sheet's cells (before they are made safe for a spreadsheet); `rules`
    (from rules_of) gives its answers in words."""
    d = r.as_dict()
    cells: dict[str, str | int] = {name: _text(d.get(name)) for name in COLUMNS if name in d}
    players = r.players
    cells["dead"] = "; ".join(_named(s, players) for s in r.dead)
    for seat in SEATS:
        cells[f"{seat.lower()}_player"] = players.get(seat, "")
    # nobody paid (or scored): empty cells, not a row of zeros that reads as an entry
    nets, awarded = _nets(r) if r.payments else {}, _points(r) if r.points else {}
    for seat in SEATS:
        cells[f"{seat.lower()}_net"] = nets.get(seat, "")
        cells[f"{seat.lower()}_points"] = awarded.get(seat, "")
    cells["unit"] = _text(r.outcome.get("unit")) if isinstance(r.outcome, dict) else ""
    cells["payments"] = "; ".join(
        f"{_named(str(p.get('from')), players)} pays {_named(str(p.get('to')), players)} {_amount(p.get('amount'))}"
        + (f" ({p['formula']})" if p.get("formula") else "") for p in r.payments)
    cells["points"] = "; ".join(f"{_named(str(a.get('to')), players)} {_amount(a.get('points'), signed=True)}" for a in r.points)
    cells["roles"] = "; ".join(f"{role.replace('_', ' ')}: {_text(seat)}" for role, seat in r.seats.items())
    rs = (rules or {}).get(r.ruleset_hash)
    cells["answers"] = "; ".join(f"{q.get('question')} {answer_words(rs, q)}" for q in r.questions)
    return cells
