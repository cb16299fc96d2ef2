"""Speed report for referee: ratios against a baseline timed in the same run (a report, never a test).

Every figure is the median over RUNS interleaved runs of a ratio (or a time) measured within one
run, so a machine busy with other work slows both sides of each ratio alike:

  ruling       `referee rule --answers FILE --json --no-input` / a one-command typer program  (<= 1.0)
  ruling -a    the same answers typed: `referee rule SITUATION -a FACT=VALUE -s ROLE=SEAT ...`  (<= 1.0)
  help         `referee --help` / the same typer program                                      (<= 1.0)
  rulesets     `referee rulesets` (every shipped ruleset) / the ruling                         (<= 1.2)
  load N cold  load (parse + validate) of a generated ruleset of N situations, no cache  (1,000: < 1 s)
  load N warm  the same load from the cache in a fresh process state                     (1,000: < 0.1 s)
  flat cold/warm  cost per situation at the largest N / at the smallest N               (<= 1.2)
  search       `search` over 1,000 situations, 1-word query                             (< 50 ms)
  search 8/1   an 8-word query / a 1-word query                                          (<= 8: linear)
  serve        `referee serve`: ready to answer (< 1 s); 8 judges x 25 rulings over HTTP and a CLI
               writing 50 at once, all kept once; 16 readers' question pages, p95 (< 50 ms); see serveload.py
  asked        questions a judge answers to reach a ruling, median over the judge's corpus's published
               questions: every question, and those left once the story's own words answered theirs
               (a count, not a time; see asked.py)
  venue        30 judges against logs of 100 and 5,000 rulings: Record p95 (< 150 ms; 5,000/100 <= 1.5x);
               a judge's page and Record with 1,000 idle and 300 dripping sockets held (< 200 ms; not in
               --quick); see venueload.py

Each figure is shown as wall time and as CPU time; the verdict uses CPU time, which other work
on a shared machine disturbs least. Commands run in fresh processes with bytecode caching on (as an installed referee runs; the
environment's PYTHONDONTWRITEBYTECODE is dropped for them) and the ruleset cache in a temporary
folder, warmed once. Generated rulesets are written to a temporary folder and deleted.

Usage:
    python bench/benchmark.py                 # 11 runs; sizes 100, 1000, 5000 (a few minutes)
    python bench/benchmark.py --quick         # sizes 100 and 1000 (what CI runs, under 2 minutes)
    python bench/benchmark.py --runs 21 --answers scenarios/nmjl/mahjong-in-error/two-threw-in.yaml

Always exits 0: the figures are for reading (and for the README's table), not a gate.
"""
from __future__ import annotations

import argparse
import datetime
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

import synthetic  # noqa: E402
from table import Sample, Table  # noqa: E402,F401 (cards.py and the load scripts print their rows the same way)

MINIMAL_TYPER = """\
import typer

app = typer.Typer()


@app.command()
def main(name: str = typer.Option("world", help="Who to greet.")) -> None:
    print(f"hello {name}")


app()
"""


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = " load %.1f %.1f %.1f" % os.getloadavg() if hasattr(os, "getloadavg") else ""
    return f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, Python {platform.python_version()};{load}"


def default_answers() -> Path:
    files = sorted((ROOT / "scenarios" / "nmjl").rglob("*.yaml")) or sorted((ROOT / "scenarios").rglob("*.yaml"))
    if not files:
        sys.exit("no scenario files found under scenarios/; pass --answers FILE")
    return files[0]


def run_once(cmd: list[str], env: dict[str, str]) -> Sample:
    start = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=ROOT)
    err = p.stderr.read() if p.stderr else b""
    _, status, usage = os.wait4(p.pid, 0)
    took = time.perf_counter() - start
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {p.returncode}: {err.decode()[-500:]}")
    return took, usage.ru_utime + usage.ru_stime


def typed(answers: Path) -> list[str]:
    """The answers file's situation and answers as a judge types them (-r, -a, -s, -p)."""
    import yaml

    data = yaml.safe_load(answers.read_text(encoding="utf-8"))
    words = [data["situation"]] + (["-r", data["ruleset"]] if data.get("ruleset") else [])
    for flag, key in (("-a", "answers"), ("-s", "seats"), ("-p", "players")):
        for name, value in (data.get(key) or {}).items():
            value = ",".join(map(str, value)) if isinstance(value, list) else value
            words += [flag, f"{name}={'yes' if value is True else 'no' if value is False else value}"]
    return words


def commands(work: Path, answers: Path) -> tuple[dict[str, list[str]], dict[str, str]]:
    typer_file = work / "minimal_typer.py"
    typer_file.write_text(MINIMAL_TYPER, encoding="utf-8")
    py = sys.executable
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("REFEREE_NO_CACHE", None)
    env["REFEREE_CACHE_DIR"] = str(work / "cache")
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return {
        "typer": [py, str(typer_file), "--name", "judge"],
        "rule": [py, "-m", "referee", "rule", "--answers", str(answers), "--json", "--no-input"],
        "rule -a": [py, "-m", "referee", "rule", *typed(answers), "--json", "--no-input"],
        "help": [py, "-m", "referee", "--help"],
        "rulesets": [py, "-m", "referee", "rulesets"],
    }, env


def time_in_process(fn: Callable[[], object]) -> Sample:
    start, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - start, time.process_time() - cpu


def median(samples: list[Sample]) -> Sample:
    return statistics.median(w for w, _ in samples), statistics.median(c for _, c in samples)


def median_ratio(tops: list[Sample], bottoms: list[Sample], scale: float = 1.0) -> Sample:
    """The median of ratios taken within each run, wall and CPU."""
    return (
        statistics.median(t[0] / b[0] * scale for t, b in zip(tops, bottoms)),
        statistics.median(t[1] / b[1] * scale for t, b in zip(tops, bottoms)),
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=11, help="interleaved runs per figure (at least 11 for the README)")
    ap.add_argument("--quick", action="store_true", help="sizes 100 and 1000 only (CI)")
    ap.add_argument("--sizes", type=int, nargs="*", default=None, help="situations per generated ruleset")
    ap.add_argument("--answers", type=Path, default=None, help="answers or scenario file for the ruling")
    args = ap.parse_args()
    sizes = args.sizes or ([100, 1000] if args.quick else [100, 1000, 5000])
    answers = (args.answers or default_answers()).resolve()
    print(f"referee benchmark, {datetime.date.today().isoformat()}, {args.runs} interleaved runs")
    print(f"machine: {machine()}")
    print(f"ruling: referee rule --answers {answers.relative_to(ROOT) if answers.is_relative_to(ROOT) else answers} --json --no-input")
    print(f"ruling -a: referee rule {' '.join(typed(answers))} --json --no-input")
    print()

    from asked import report as asked_report  # a few seconds, so ahead of the timings CI may cut off

    print("\n".join(asked_report()))
    print()

    work = Path(tempfile.mkdtemp(prefix="referee-bench-"))
    print("(warming up: bytecode, the ruleset cache, generated rulesets)", flush=True)
    table = Table()
    try:
        cmds, env = commands(work, answers)
        for cmd in cmds.values():  # write bytecode and the ruleset cache once
            run_once(cmd, env)
        wall: dict[str, list[Sample]] = {k: [] for k in cmds}
        for i in range(args.runs):
            order = list(cmds)
            order = order[i % len(order):] + order[: i % len(order)]  # no command always runs first
            for name in order:
                wall[name].append(run_once(cmds[name], env))
        table.add("typer program (baseline)", median(wall["typer"]), "s", None)
        table.add("ruling / typer program", median_ratio(wall["rule"], wall["typer"]), "x", 1.0)
        table.add("ruling -a / typer program", median_ratio(wall["rule -a"], wall["typer"]), "x", 1.0)
        table.add("referee --help / typer program", median_ratio(wall["help"], wall["typer"]), "x", 1.0)
        table.add("referee rulesets / ruling", median_ratio(wall["rulesets"], wall["rule"]), "x", 1.2)

        # 30 judges against 100 and 5,000 rulings, early: CI cuts the report off at two minutes, and
        # on a busy machine the rows after the ruleset loads never came
        from venueload import venue_rows

        venue_rows(table, env, quick=args.quick)
        load_rows(table, work, sizes, args.runs)
        handout_rows(table, env, min(args.runs, 5))
        from serveload import serve_rows  # `referee serve` under an event's load (the web extra)

        serve_rows(table, env, quick=args.quick)
    except RuntimeError as exc:
        print(f"benchmark could not run: {exc}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


def load_rows(table: Table, work: Path, sizes: list[int], runs: int) -> None:
    os.environ["REFEREE_CACHE_DIR"] = str(work / "cache")
    os.environ.pop("REFEREE_NO_CACHE", None)
    from referee.rules import cache, loader

    folders = {n: synthetic.write(work / "rulesets", n, f"synthetic-{n}").resolve() for n in sizes}
    loader.load("nmjl")  # imports and pydantic validators built once, outside the timings

    def forget() -> None:
        # A new process remembers nothing. Done outside the timings: freeing the last run's
        # ruleset is not part of loading this one (and cost the warm 1,000 half its time).
        cache._MEMORY.clear()

    def load(folder: Path, cold: bool) -> None:
        if cold:
            os.environ["REFEREE_NO_CACHE"] = "1"
        try:
            rs, problems = loader.load(folder)
        finally:
            os.environ.pop("REFEREE_NO_CACHE", None)
        assert rs is not None and not problems, problems[:3]

    for folder in folders.values():
        forget()
        load(folder, cold=False)  # writes the cache entry the warm runs read
    times: dict[tuple[int, str], list[Sample]] = {(n, k): [] for n in sizes for k in ("cold", "warm")}
    for _ in range(runs):
        for n, folder in folders.items():
            for kind in ("cold", "warm"):
                forget()
                times[(n, kind)].append(time_in_process(lambda: load(folder, kind == "cold")))
    for kind, limit in (("cold", 1.0), ("warm", 0.1)):
        for n in sizes:
            table.add(f"load {n:,} situations, {kind}", median(times[(n, kind)]), "s", limit if n == 1000 else None)
        lo, hi = min(sizes), max(sizes)
        if lo != hi:
            flat = median_ratio(times[(hi, kind)], times[(lo, kind)], scale=lo / hi)
            table.add(f"  per situation, {hi:,} / {lo:,}, {kind}", flat, "x", 1.2)

    search_rows(table, folders.get(1000) or folders[max(sizes)], runs)


def search_rows(table: Table, folder: Path, runs: int) -> None:
    from referee.rules import loader
    from referee.search import rank as module
    from referee.search.rank import search

    def fresh() -> None:  # a judge's query is new to the process; memoised scores would flatter it
        for value in vars(module).values():
            getattr(value, "cache_clear", lambda: None)()

    rs, _ = loader.load(folder)
    assert rs is not None
    sits = list(rs.situations.values())
    words = "made up mistake wall discard exposure synthetic case".split()
    one, eight = words[0], " ".join(words[:8])
    t1: list[Sample] = []
    t8: list[Sample] = []
    for _ in range(runs):
        fresh()
        t1.append(time_in_process(lambda: search(sits, one)))
        fresh()
        t8.append(time_in_process(lambda: search(sits, eight)))
    table.add(f"search {len(sits):,} situations, 1 word", median(t1), "s", 0.05)
    table.add(f"search {len(sits):,} situations, 8 words", median(t8), "s", None)
    table.add("  8 words / 1 word", median_ratio(t8, t1), "x", 8)


HANDOUTS = """
import sys, time
from referee.handouts import build
from referee.rules.loader import available, load_strict
rulesets = [load_strict(rid) for rid in available()]  # loading is measured above; this times the handouts
start, cpu = time.perf_counter(), time.process_time()
for rs in rulesets:
    build(rs, "html")
print(time.perf_counter() - start, time.process_time() - cpu)
"""


def handout_rows(table: Table, env: dict[str, str], runs: int) -> None:
    """Every shipped ruleset's HTML booklet, each run in a new process (no layouts remembered)."""
    samples: list[Sample] = []
    for _ in range(runs):
        p = subprocess.run([sys.executable, "-c", HANDOUTS], capture_output=True, text=True, env=env, cwd=ROOT)
        if p.returncode != 0:
            raise RuntimeError(f"handouts exited {p.returncode}: {p.stderr[-500:]}")
        wall, cpu = (float(x) for x in p.stdout.split()[-2:])
        samples.append((wall, cpu))
    table.add("booklets of every shipped ruleset", median(samples), "s", 1.0)


if __name__ == "__main__":
    sys.exit(main())
