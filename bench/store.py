"""The rulings log's two backends side by side: an SQLite file and PostgreSQL (a report, never a test).

  record 1,000        1,000 rulings recorded one at a time, each as `referee rule` records one:
                      open the log, check it, store the ruling (and its rules the first time), close
  load N              N rulings merged in one transaction (in process)
  log export N        `log export --format jsonl -o FILE` of all N: time, rulings/s, peak memory
  log import N        `log import` of that file into an empty log, then the same file again
  log list            `log list --event E --limit 100` of an event of 5,000, and all of it to a file
  log players N       `log players` over every event, as a command and in process (and --since)
  head judge's log    the first page of the 5,000-ruling event's log page (serve's /log): bytes, time
  Recorded page       one ruling's "Recorded" page (serve's /rulings/ID) in that event: time

The two pages are asked of `referee serve`'s app in process (starlette's test client, no
network), after one request each to warm it; a page's time is the median of five. What runs in
process also shows its CPU time ("cpu"), which other programs on a busy machine do not inflate.

Commands run as `python -m referee` in a process of their own, whose peak resident memory is
read with getrusage. PostgreSQL is a throwaway server started from Debian's `postgresql` package
in a temporary folder (tests/pgserver.py), over its unix socket; where no server can be started
the PostgreSQL column says why. Times are wall clock, one run each, on a machine that may be busy.

Usage:
    python bench/store.py                  # 1,000 recorded, 100,000 exported and imported (some minutes)
    python bench/store.py --rulings 10000  # quicker

Always exits 0: the figures are for reading (and for the README), not a gate.
"""
from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import measured  # noqa: E402
import pgserver  # noqa: E402

from referee.rules.loader import load_strict  # noqa: E402
from referee.ruling.render import outcome_json  # noqa: E402
from referee.ruling.scenarios import run  # noqa: E402
from referee.store.context import LogContext, db_path  # noqa: E402
from referee.store.record import Ruling, new_id  # noqa: E402
from referee.store.rulings import Filters, RulingsLog, check, record  # noqa: E402

HOUSE = ROOT / "tests" / "rulesets" / "house"
EVENT, EVENT_SIZE = "Spring Open", 5_000
NAMES = [f"Player {n}" for n in range(400)]
SEATS = ["East", "South", "West", "North"]


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def both(fn: Callable[[], object]) -> str:
    """Wall clock and this process's CPU time (all its threads): on a busy machine the wall clock
    counts the other programs' turns too, the CPU time only this one's work."""
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return f"{time.perf_counter() - wall:.2f} s ({time.process_time() - cpu:.2f} cpu)"


def record_many(where: str, count: int) -> float:
    rs = load_strict(str(HOUSE))
    o = run(rs, "picked-wrong-end", {"discard_claimed": "no", "picker": "West"}, {})
    document = outcome_json(o)
    ctx = LogContext(db=db_path(where), event="Bench Open", table="1")

    def go() -> None:
        for n in range(count):
            check(ctx.db)
            record(ctx, o, {"West": NAMES[n % len(NAMES)]}, f"ruling {n}", document)

    return timed(go)


def synthetic(count: int) -> list[Ruling]:
    """Rulings over a year of club nights: four named players each, one of them dead and paying."""
    rulings = []
    for n in range(count):
        day = 1 + n * 364 // count
        at = f"2026-{1 + (day - 1) // 31 % 12:02d}-{1 + (day - 1) % 28:02d}T19:{n % 60:02d}:00.000Z"
        seat = SEATS[n % 4]
        players = {s: NAMES[(n * 7 + i * 13) % len(NAMES)] for i, s in enumerate(SEATS)}
        rulings.append(Ruling(
            id=new_id(1_770_000_000_000 + n), recorded_at=at, ruleset_id="house", ruleset_version="1",
            ruleset_hash="339fde170c06", situation="picked-wrong-end", ruled_in="picked-wrong-end",
            ruling_id="PWE-1", game="continues", event=f"Club night {day}", table=str(n % 12), players=players,
            dead=[seat], payments=[{"from": seat, "to": SEATS[(n + 1) % 4], "amount": 25, "formula": "hand"}],
            answers={"picker": seat, "discard_claimed": "no"}, printed=f"ruling {n}"))
    return rulings


def command(*args: str) -> tuple[float, float, float]:
    """(seconds, peak MB, CPU seconds) of one `referee ...` run in a process of its own
    (tests/measured.py); a failure is printed and reads as nothing measured. The CPU time is the
    command's own (its children's rusage), never a PostgreSQL server's."""
    import resource

    def used() -> float:
        ru = resource.getrusage(resource.RUSAGE_CHILDREN)
        return ru.ru_utime + ru.ru_stime

    before = used()
    r, took, mb = measured.referee(*args)
    if r.returncode != 0:
        print(f"referee {' '.join(args[:2])} failed: {r.stderr.strip()[-300:]}")
        return float("nan"), float("nan"), float("nan")
    return took, mb, used() - before


def pages(where: str, rid: str) -> tuple[int, tuple[float, float], tuple[float, float]]:
    """(bytes of the head judge's log page, its (wall, cpu) seconds, the Recorded page's): the
    median of five requests each, to `referee serve`'s own app for the 5,000-ruling event."""
    import statistics

    from starlette.testclient import TestClient

    from referee.web import Settings, create_app

    app = create_app(Settings(db=db_path(where), ruleset="nmjl", pin="424242", head_pin="777777", event=EVENT,
                              round="1", key=b"bench-key-" * 4))
    with TestClient(app, base_url="http://127.0.0.1") as c:
        assert c.post("/login", data={"name": "Head", "pin": "777777", "next": "/"}, follow_redirects=False).status_code == 303

        def median(path: str) -> tuple[tuple[float, float], int]:
            sizes, times, cpus = [], [], []
            for _ in range(6):  # the first warms the app (templates, the ruleset): not counted
                start, cpu = time.perf_counter(), time.process_time()
                r = c.get(path)
                times.append(time.perf_counter() - start)
                cpus.append(time.process_time() - cpu)
                assert r.status_code == 200, (path, r.status_code, r.text[:200])
                sizes.append(len(r.content))
            return (statistics.median(times[1:]), statistics.median(cpus[1:])), sizes[-1]

        log_s, size = median("/log")
        recorded_s, _ = median(f"/rulings/{rid}")
    return size, log_s, recorded_s


def measure(where: str, recorded: int, rulings: list[Ruling], folder: Path) -> dict[str, str]:
    figures = {f"record {recorded:,}": f"{record_many(where, recorded):.2f} s"}
    figures[f"  per ruling"] = f"{float(figures[f'record {recorded:,}'].split()[0]) / recorded * 1000:.1f} ms"
    big = where + "-big" if not where.startswith("postgresql") else where.replace("/bench?", "/bench_big?")
    again = where + "-again" if not where.startswith("postgresql") else where.replace("/bench?", "/bench_again?")
    with RulingsLog.open(big) as log:
        figures[f"load {len(rulings):,}"] = f"{timed(lambda: log.merge(rulings)):.2f} s"
    n = len(rulings)
    exported = folder / f"export-{abs(hash(where))}.jsonl"
    took, mb, cpu = command("log", "export", "--db", big, "-o", str(exported))
    figures[f"log export {n:,}"] = f"{took:.1f} s ({cpu:.1f} cpu)"
    figures["  rulings/s, peak MB"] = f"{n / took:,.0f}/s {mb:.0f} MB"
    took, mb, cpu = command("log", "import", str(exported), "--db", again)
    figures[f"log import {n:,}"] = f"{took:.1f} s ({cpu:.1f} cpu) {mb:.0f} MB"
    took_again, mb, cpu_again = command("log", "import", str(exported), "--db", again)
    figures["  the same file again"] = f"{took_again:.1f} s ({cpu_again:.1f} cpu) {mb:.0f} MB"
    figures["  again / first"] = f"{took_again / took:.2f}x ({cpu_again / cpu:.2f}x cpu)"
    took, _, cpu = command("log", "list", "--db", big, "--event", EVENT, "--limit", "100")
    figures[f"log list, 100 of a {EVENT_SIZE:,} event"] = f"{took:.2f} s ({cpu:.2f} cpu)"
    took, _, cpu = command("log", "list", "--db", big, "--event", EVENT, "--last", "0")
    figures[f"  all {EVENT_SIZE:,}, to a file"] = f"{took:.2f} s ({cpu:.2f} cpu)"
    took, _, cpu = command("log", "players", "--db", big)
    figures[f"log players {n:,}"] = f"{took:.2f} s ({cpu:.2f} cpu)"
    with RulingsLog.open(big) as log:
        figures[f"  {EVENT_SIZE:,} event, page of 100 (in process)"] = both(lambda: log.page(Filters(event=EVENT), 100, 2_000))
        figures[f"players {n:,} (in process)"] = both(lambda: log.players(entries=False))
        figures["  --since (newest half)"] = both(lambda: log.players(Filters(since='2026-07-01'), entries=False))
        rid = log.page(Filters(event=EVENT), 1, min(EVENT_SIZE, n) // 2)[0].id
    size, log_s, recorded_s = pages(big, rid)
    figures[f"head judge's log page ({EVENT_SIZE:,} event)"] = f"{size / 1024:.0f} KB {log_s[0] * 1000:.0f} ms ({log_s[1] * 1000:.0f} cpu)"
    figures["Recorded page"] = f"{recorded_s[0] * 1000:.1f} ms ({recorded_s[1] * 1000:.1f} cpu)"
    return figures


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--recorded", type=int, default=1000, help="rulings recorded one by one (default 1000)")
    ap.add_argument("--rulings", type=int, default=100_000, help="rulings 'log players' reads (default 100000)")
    args = ap.parse_args()
    rulings = synthetic(args.rulings)
    for r in rulings[:EVENT_SIZE]:  # one event as big as a long weekend's, for 'log list'
        r.event = EVENT
    columns: dict[str, dict[str, str]] = {}
    with tempfile.TemporaryDirectory(prefix="referee-bench-store-") as tmp:
        columns["SQLite file"] = measure(str(Path(tmp) / "bench.db"), args.recorded, rulings, Path(tmp))
        why = pgserver.unavailable()
        if why:
            columns["PostgreSQL"] = {key: "-" for key in columns["SQLite file"]}
            print(f"PostgreSQL not measured: {why}")
        else:
            server = pgserver.start()
            try:
                for name in ("bench", "bench_big", "bench_again"):
                    server.sql(f"CREATE DATABASE {name}")
                columns["PostgreSQL"] = measure(server.url("bench"), args.recorded, rulings, Path(tmp))
                version = server.sql("SHOW server_version")[0][0]
            finally:
                server.stop()
            print(f"PostgreSQL {version}, unix socket, fsync off (a throwaway server)")
    print(f"{platform.processor() or platform.machine()}, Python {platform.python_version()}, "
          f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())} at the end")
    print(f"{'':<40}" + "".join(f"{name:>28}" for name in columns))
    for key in columns["SQLite file"]:
        print(f"{key:<40}" + "".join(f"{col[key]:>28}" for col in columns.values()))


if __name__ == "__main__":
    main()
