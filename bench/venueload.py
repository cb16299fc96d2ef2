"""`referee serve` at a venue's scale, on 127.0.0.1 only (part of the benchmark report, never a test).

  30 judges at N     30 judges rule and record at once against a log already holding N rulings of
                     the event (100, then 5,000), each reading a ruling out for about a second
                     before tapping Record: Record (the form, then the "Recorded ✓" page it leads
                     to) p95 at 5,000 (< 150 ms), and that p95 over the p95 at 100 (<= 1.5x)
  flood              1,000 idle and 300 dripping sockets held from 127.0.0.2 while one judge on
                     127.0.0.1 rules: question page and Record p95 (< 200 ms); not in --quick

Needs the web extra; skipped with a line saying so without it.
"""
from __future__ import annotations

import random
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from serveload import MJE, _field, _request, _sign_in, _start

ROOT = Path(__file__).resolve().parent.parent
JUDGES = 30
READING_S = 1.0  # a judge reads the ruling out at the table before she records it
SIZES = (100, 5000)


def _seed(db: Path, n: int, env: dict[str, str]) -> None:
    """A log holding `n` rulings of the event: one recorded as `referee rule` records it, copied."""
    import subprocess

    from referee.store.record import new_id
    from referee.store.rulings import RulingsLog

    subprocess.run([sys.executable, "-m", "referee", "rule", "mahjong-in-error", "-a", "others_acted=two", "-a",
                    "intact_dead_before=no", "-a", "exposers=South,West", "-a", "declared_value=40", "--seat",
                    "declarer=East", "--no-input", "--json", "--event", "Bench", "--table", "1", "--judge", "Judge 1",
                    "--db", str(db)], env=env, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    with RulingsLog.open(db) as log:
        model = log.find()[0]
        copies = []
        start = int(time.time() * 1000) - n * 60_000
        for i in range(n - 1):
            r = type(model)(**{**model.as_dict(), "id": new_id(start + i * 60_000), "table": str(i % 40 + 1),
                               "judge": f"Judge {i % JUDGES + 1}", "recorded_at": model.recorded_at})
            copies.append(r)
        log.merge(copies)


def _judge(port: int, n: int, each: int, times: list[float], errors: list[str]) -> None:
    phone = f"127.0.1.{n}"
    try:
        cookie = _sign_in(port, f"Judge {n}", phone)
        for i in range(each):
            _, _, page = _request(port, "GET", f"/s/mahjong-in-error?{MJE}", cookie=cookie, source=phone)
            form = {k: _field(page, k) for k in ("csrf", "rid", "situation", "query")} | {"table": str(n), "round": str(i)}
            time.sleep(READING_S * random.uniform(0.5, 1.5))
            began = time.perf_counter()
            status, headers, _ = _request(port, "POST", "/rulings", form, cookie, phone)
            if status != 303:
                raise RuntimeError(f"record answered {status}")
            status, _, _ = _request(port, "GET", headers["location"], cookie=cookie, source=phone)
            times.append(time.perf_counter() - began)
            if status != 200:
                raise RuntimeError(f"the recorded page answered {status}")
    except Exception as exc:  # noqa: BLE001  (reported, not raised, from a thread)
        errors.append(f"judge {n}: {exc}")


def _p95(times: list[float]) -> float:
    times = sorted(times)
    return times[max(0, int(len(times) * 0.95) - 1)] if times else float("inf")


def judges_rows(table: Any, env: dict[str, str], work: Path, quick: bool) -> None:
    each = 3 if quick else 8
    p95s = []
    for size in SIZES:
        db = work / f"venue{size}.db"
        _seed(db, size, env)
        p, port, _ = _start(db, env)
        try:
            _request(port, "GET", f"/s/mahjong-in-error?{MJE}")  # templates compiled, rules loaded: as by the event's first page
            times: list[float] = []
            errors: list[str] = []
            threads = [threading.Thread(target=_judge, args=(port, n, each, times, errors)) for n in range(1, JUDGES + 1)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(timeout=300)
        finally:
            p.terminate()
            p.wait(timeout=10)
        if errors:
            print(f"{JUDGES} judges at {size}: MISSED ({errors[0]})", flush=True)
            return
        p95s.append(_p95(times))
        table.add(f"{JUDGES} judges at {size:,}, Record p95", (p95s[-1],) * 2, "s", 0.15 if size == SIZES[-1] else None)
    table.add(f"Record p95, {SIZES[-1]:,} / {SIZES[0]:,} rulings", (p95s[1] / p95s[0],) * 2, "x", 1.5)


def flood_rows(table: Any, env: dict[str, str], work: Path) -> None:
    sys.path.insert(0, str(ROOT / "tests"))
    from flood import Flood

    p, port, _ = _start(work / "flood.db", env)
    try:
        cookie = _sign_in(port, "Ann")
        pages: list[float] = []
        records: list[float] = []
        with Flood(port, idle=1000, drip=300, seconds=60) as flood:
            for i in range(30):
                began = time.perf_counter()
                status, _, page = _request(port, "GET", f"/s/mahjong-in-error?{MJE}", cookie=cookie)
                pages.append(time.perf_counter() - began)
                form = {k: _field(page, k) for k in ("csrf", "rid", "situation", "query")} | {"table": "5", "round": str(i)}
                began = time.perf_counter()
                status, _, _ = _request(port, "POST", "/rulings", form, cookie)
                records.append(time.perf_counter() - began)
                if status != 303:
                    raise RuntimeError(f"record answered {status} under the flood")
            held = len(flood.idle), len(flood.drip)
        table.add(f"flood {held[0]} idle + {held[1]} drip, page p95", (_p95(pages),) * 2, "s", 0.2)
        table.add(f"flood {held[0]} idle + {held[1]} drip, Record p95", (_p95(records),) * 2, "s", 0.2)
    finally:
        p.terminate()
        p.wait(timeout=10)


def venue_rows(table: Any, env: dict[str, str], quick: bool = False) -> None:
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        print("venue: skipped (the web extra is not installed: pip install -e '.[web]')")
        return
    import shutil

    work = Path(tempfile.mkdtemp(prefix="referee-venue-bench-"))
    try:
        judges_rows(table, env, work, quick)
        if quick:  # CI's report is cut off at two minutes: the flood is the full run's (and tests/test_web_flood.py's)
            print("flood: in the full run (python bench/venueload.py)", flush=True)
        else:
            flood_rows(table, env, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    import os

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    sys.path.insert(0, str(ROOT))
    from table import Table

    venue_rows(Table(), dict(os.environ), quick="--quick" in sys.argv)  # --quick: as CI runs it, without the flood
