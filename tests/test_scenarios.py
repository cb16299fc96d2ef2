"""Every shipped scenario passes, and every ruling leaf of every shipped ruleset is reached."""
from __future__ import annotations

from pathlib import Path

import pytest

from referee.loader import available, load_strict
from referee.scenarios import leaves, run_file, scenario_files

ROOT = Path(__file__).resolve().parent.parent
FILES = scenario_files([ROOT / "scenarios"])


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT / "scenarios")) for p in FILES])
def test_scenario_passes(path: Path) -> None:
    result, _ = run_file(path)
    assert result.passed, "\n".join(result.failures)
