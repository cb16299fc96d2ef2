"""A `referee` command in a process of its own, with its peak resident memory read by getrusage.

Shared by tests/test_log_scale.py and bench/store.py. The command starts through `sh`, which forks
it: Linux carries a process's peak memory across exec, so a child started straight from a large
process (a test worker of 600 MB) would report the parent's peak as its own.
"""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

REPORT = """
import atexit, resource, runpy, sys
atexit.register(lambda: print(f"maxrss_kb={resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}", file=sys.stderr))
sys.argv = ["referee", *sys.argv[1:]]
runpy.run_module("referee", run_name="__main__")
"""


def referee(*args: str, timeout: float = 1200) -> tuple[subprocess.CompletedProcess[str], float, float]:
    """(the finished run, its seconds, its peak MB; NaN when it reported none)."""
    start = time.perf_counter()
    r = subprocess.run(["sh", "-c", '"$@"; exit $?', "sh", sys.executable, "-c", REPORT, *args], capture_output=True,
                       text=True, cwd=ROOT, env={**os.environ, "COLUMNS": "200"}, timeout=timeout)
    took = time.perf_counter() - start
    kb = [int(line.split("=")[1]) for line in r.stderr.splitlines() if line.startswith("maxrss_kb=")]
    return r, took, (kb[-1] / 1024 if kb else float("nan"))
