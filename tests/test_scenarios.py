"""Every shipped scenario passes, and every ruling leaf of every shipped ruleset is reached."""
from __future__ import annotations

import functools
from pathlib import Path

import pytest

from referee.rules.loader import available, load_strict
from referee.ruling.scenarios import leaves, run_file, scenario_files

ROOT = Path(__file__).resolve().parent.parent
FILES = scenario_files([ROOT / "scenarios"])


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT / "scenarios")) for p in FILES])
def test_scenario_passes(path: Path) -> None:
    result, _ = run_file(path)
    assert result.passed, "\n".join(result.failures)


@functools.lru_cache(maxsize=1)
def _reached() -> dict[str, set[str]]:
    reached: dict[str, set[str]] = {}
    for path in FILES:
        result, _ = run_file(path)
        if result.ruling:
            reached.setdefault(result.ruleset, set()).update([result.ruling, *result.through])
    return reached


@pytest.mark.parametrize("ruleset_id", sorted(available()))
def test_every_ruling_leaf_is_reached_by_a_scenario(ruleset_id: str) -> None:
    rs = load_strict(ruleset_id)
    reached = _reached().get(ruleset_id, set())
    missing = sorted(rid for rid in leaves(rs, own_only=True) if rid not in reached)
    assert not missing, f"{ruleset_id}: rulings no scenario reaches: {', '.join(missing)}"
