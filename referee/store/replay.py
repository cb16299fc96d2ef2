"""Replay a recorded ruling: the recorded answers under the recorded rules and under today's."""
from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import MissingAnswer, RefereeError
from .record import Ruling, verdict
from .rulings import RulingsLog
from .snapshot import restore


@dataclass
class Run:
    """One replay: under which rules, and what they ruled (or why they could not)."""

    label: str  # "recorded rules" / "today's files"
    ruleset: str  # "nmjl 2026.1 (339fde170c06)"
    verdict: dict[str, Any] | None = None
    problem: str | None = None

    def differs_from(self, recorded: dict[str, Any]) -> list[str]:
        if self.verdict is None:
            return []
        return [k for k in ("ruling", "game", "dead", "payments", "points") if self.verdict.get(k) != recorded.get(k)]


@dataclass
class Replay:
    ruling: Ruling
    recorded: dict[str, Any]
    runs: list[Run]

    @property
    def differs(self) -> bool:
        """True when some version of the rules now rules differently on the recorded answers."""
        return any(run.differs_from(self.recorded) for run in self.runs)

    @property
    def incomplete(self) -> bool:
        return any(run.verdict is None for run in self.runs)


def recorded_verdict(r: Ruling) -> dict[str, Any]:
    return {"ruling": r.ruling_id, "game": r.game, "dead": r.dead, "payments": r.payments, "points": r.points}


def _run(rs: Any, r: Ruling, label: str) -> Run:
    from ..ruling.scenarios import run

    name = f"{rs.id} {rs.meta.version} ({rs.hash})"
    try:
        outcome = run(rs, r.situation, dict(r.answers), dict(r.players))
    except MissingAnswer as exc:
        return Run(label, name, problem=f"these rules ask '{exc.fact}', which was not asked when the ruling was made")
    except RefereeError as exc:
        return Run(label, name, problem=exc.message)
    return Run(label, name, verdict(outcome))


def _load(name: str | Path) -> Any:
    """Read the files now (no cache: 'today's files' means what is on disk at this moment)."""
    from ..errors import LoadError, Place, Problem
    from ..rules.loader import load

    rs, problems = load(name)
    if problems or rs is None:
        raise LoadError(problems or [Problem(Place(str(name)), "could not load ruleset")])
    return rs


def replay(log: RulingsLog, r: Ruling) -> Replay:
    """Re-run `r` under the rules it was recorded with (from the log's snapshot) and today's files."""
    recorded = recorded_verdict(r)
    runs: list[Run] = []
    snap = log.snapshot(r.ruleset_hash)
    as_recorded = f"{r.ruleset_id} {r.ruleset_version} ({r.ruleset_hash})"
    if snap is None:
        runs.append(Run("recorded rules", as_recorded, problem="this log holds no copy of those rules"))
    else:
        with tempfile.TemporaryDirectory(prefix="referee-replay-") as tmp:
            try:
                rs = _load(restore(snap, Path(tmp)))
            except RefereeError as exc:
                runs.append(Run("recorded rules", as_recorded, problem=f"the stored rules do not load: {exc}"))
            else:
                run = _run(rs, r, "recorded rules")
                if rs.hash != r.ruleset_hash:  # e.g. a base found in the current folder, not the copy
                    run.problem = f"the stored rules reload as {rs.hash}, not {r.ruleset_hash}"
                runs.append(run)
    today = r.ruleset_source if r.ruleset_source and (Path(r.ruleset_source) / "ruleset.yaml").is_file() else r.ruleset_id
    try:
        rs_now = _load(today)
    except RefereeError as exc:
        runs.append(Run("today's files", today, problem=str(exc).splitlines()[0]))
    else:
        runs.append(_run(rs_now, r, "today's files"))
    return Replay(r, recorded, runs)
