"""`referee pay` takes an event's scoring whole (issue 23): every amount a points ruling states,
as its scenarios reach it, comes out of `pay` given the same game.

For each scenario under a points ruleset whose ruling scores a Mah Jongg (`settle`), a wall game
(the wall-game points) or a named penalty of the event's sheet, the same game is put to `pay`
(--winner/--how/--value/--exposures/--jokerless, --wall-game, --penalty NAME=SEAT, --dead) and
every seat's points must match the ruling's.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from referee.cli import app
from referee.rules.loader import data_dir, load_strict
from referee.ruling.scenarios import replay, scenario_files

from clirun import Run

RULESETS = data_dir("rulesets")
POINTS = sorted(p.name for p in RULESETS.iterdir() if (p / "ruleset.yaml").is_file()
                and load_strict(p.name).scoring.kind == "points")


def _cases() -> list[Path]:
    out = []
    for path in scenario_files([data_dir("scenarios") / name for name in POINTS if (data_dir("scenarios") / name).is_dir()]):
        out.append(path)
    return out


def _pay_args(rs: Any, o: Any) -> list[str] | None:
    """The `pay` command for what this outcome scores, or None when it scores nothing `pay` settles."""
    r = o.ruling
    penalties = [a for a in r.points if a.of and a.of in rs.scoring.penalties]
    wall = [a for a in r.points if a.of == "wall_game_points"]
    if not (r.settle or penalties or wall):
        return None
    if any(a.points is not None or (a.of and a.of not in rs.scoring.penalties and a.of != "wall_game_points") for a in r.points):
        return None  # a fixed or director's figure beside the schedule: not a schedule `pay` knows
    args = ["pay", "-r", rs.id, "--json"]
    facts = o.facts
    if r.settle:
        s = r.settle
        # the seats as the outcome bound them (a chained ruling names its winner through the first one's roles)
        role_seat = {a.party.role: a.party.seat for a in o.awards if a.party.role in ("winner", "discarder")}
        args += ["--winner", role_seat["winner"], "--how", s.how, "--value", str(facts[s.value])]
        if s.discarder:
            args += ["--discarder", role_seat["discarder"]]
            if rs.scoring.discarder_penalties:
                args += ["--exposures", str(facts["winner_exposures"])]
        if facts.get("jokerless") == "yes" and s.how != "joker-exchange":
            args.append("--jokerless")
        if facts.get("singles_and_pairs") == "yes":
            args.append("--singles-and-pairs")
    if wall:
        args.append("--wall-game")
    for a in penalties:
        for party in [aw.party for aw in o.awards if aw.formula and aw.points == rs.scoring.penalties[a.of]]:
            if party.seat:
                args += ["--penalty", f"{a.of}={party.seat}"]
    for d in o.dead:
        if d.seat and not (r.settle and d.seat in (o.facts.get(r.settle.winner), o.facts.get(r.settle.discarder or ""))):
            args += ["--dead", d.seat]
    return args


def _totals(o: Any) -> dict[str, int]:
    out = {s: 0 for s in ("East", "South", "West", "North")}
    for a in o.awards:
        if a.party.seat and a.points is not None:
            out[a.party.seat] += a.points
    return out


@pytest.mark.parametrize("path", _cases(), ids=lambda p: str(p.relative_to(data_dir("scenarios"))))
def test_pay_reproduces_the_ruling(path: Path) -> None:
    sc, rs, o = replay(path)
    args = _pay_args(rs, o)
    if args is None:
        pytest.skip(f"{o.ruling.id} scores no Mah Jongg, wall game or sheet penalty")
    got = Run(CliRunner().invoke(app, args))
    assert got.code == 0, (args, got.stdout, got.stderr)
    totals = got.json()["totals"]
    assert {k: totals.get(k, 0) for k in ("East", "South", "West", "North")} == _totals(o), args


def test_some_event_rulings_are_checked() -> None:
    checked = [p for p in _cases() if _pay_args(*replay(p)[1:]) is not None]
    assert len(checked) >= 15, len(checked)
