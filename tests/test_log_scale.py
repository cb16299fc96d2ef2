"""An organization's log in constant memory (issue 31 §3): `log import` and `log export` of
100,000 rulings stay under 200 MB on either backend, measured with getrusage in the process that
does the work. (Times are bench/store.py's: a test on a shared machine measures memory only.)
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULINGS = 100_000
LIMIT_MB = 200

# Runs the command as `python -m referee` does, then reports the process's peak resident memory.
MEASURED = """
import atexit, resource, runpy, sys
atexit.register(lambda: print(f"maxrss_kb={resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}", file=sys.stderr))
sys.argv = ["referee", *sys.argv[1:]]
runpy.run_module("referee", run_name="__main__")
"""


def _referee(*args: str) -> tuple[subprocess.CompletedProcess[str], float]:
    r = subprocess.run([sys.executable, "-c", MEASURED, *args], capture_output=True, text=True, cwd=ROOT,
                       env={**os.environ, "COLUMNS": "200"}, timeout=1200)
    kb = [int(line.split("=")[1]) for line in r.stderr.splitlines() if line.startswith("maxrss_kb=")]
    assert kb, r.stderr
    return r, kb[-1] / 1024


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
