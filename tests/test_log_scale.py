"""An organization's log in constant memory (issue 31 §3): `log import` and `log export` of
100,000 rulings stay under 200 MB on either backend, measured with getrusage in the process that
does the work. (Times are bench/store.py's: a test on a shared machine measures memory only.)
"""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from measured import referee

pytestmark = pytest.mark.slow  # 100,000 rulings on each backend: minutes; `pytest -m slow` (CI) runs it

RULINGS = 100_000
LIMIT_MB = 200

def _referee(*args: str) -> tuple[subprocess.CompletedProcess[str], float]:
    r, _, mb = referee(*args)
    assert mb == mb, r.stderr  # a run that reported no memory failed before it began
    return r, mb


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """100,000 rulings in 20 events, as 'log export --format jsonl' writes them."""
    from referee.store.record import new_id

    path = tmp_path_factory.mktemp("scale") / "org.jsonl"
    seats = ["East", "South", "West", "North"]
    with path.open("w", encoding="utf-8") as out:
        for n in range(RULINGS):
            seat = seats[n % 4]
            players = dict(sorted((s, f"Player {(n * 7 + i * 13) % 400}") for i, s in enumerate(seats)))  # stored sorted
            record = {
                "kind": "ruling", "id": new_id(1_770_000_000_000 + n),
                "recorded_at": f"2026-{1 + n % 12:02d}-{1 + n % 28:02d}T{n % 24:02d}:{n % 60:02d}:00.000Z",
                "ruleset_id": "house", "ruleset_version": "1", "ruleset_hash": "339fde170c06",
                "situation": "picked-wrong-end", "ruled_in": "picked-wrong-end", "ruling_id": "PWE-1", "game": "continues",
                "event": f"Open {n % 20}", "round": str(n % 7), "table": str(n % 40), "judge": f"Judge {n % 30}",
                "machine": None, "ruleset_source": None,
                "answers": {"discard_claimed": "no", "picker": seat}, "seats": {"picker": seat}, "players": players,
                "questions": [{"answer": "no", "fact": "discard_claimed", "question": "Was the discard claimed?",
                               "situation": "picked-wrong-end"}],
                "dead": [seat], "payments": [{"amount": 25, "formula": "hand", "from": seat, "to": seats[(n + 1) % 4]}],
                "points": [], "outcome": {"ruling": "PWE-1", "situation": "picked-wrong-end"},
                "printed": f"Ruling PWE-1 at table {n % 40}: {players[seat]} picked from the wrong end; her hand is dead.",
                "withdrawn_at": None, "withdrawn_by": None, "withdrawn_reason": None,
            }
            out.write(json.dumps(record) + "\n")
    return path


def test_import_and_export_of_100000_rulings_stay_under_200_mb(log_at: str, generated: Path, tmp_path: Path) -> None:
    r, mb = _referee("log", "import", str(generated), "--db", log_at)
    assert r.returncode == 0, r.stderr
    assert f"{RULINGS} rulings, {RULINGS} new" in r.stdout
    assert mb < LIMIT_MB, f"import peaked at {mb:.0f} MB"
    out = tmp_path / "again.jsonl"
    r, mb = _referee("log", "export", "--db", log_at, "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert mb < LIMIT_MB, f"export peaked at {mb:.0f} MB"
    with out.open(encoding="utf-8") as fh:
        kinds = [json.loads(line)["kind"] for line in fh]
    assert kinds.count("ruling") == RULINGS
    with generated.open(encoding="utf-8") as a, out.open(encoding="utf-8") as b:
        assert sorted(a) == sorted(b)  # every ruling back, field for field (the log sorts by time)
