"""`referee serve` under an event's load, on 127.0.0.1 only (part of the benchmark report, never a test).

  serve ready       from starting `referee serve` to its first answer                       (< 1 s)
  8 judges x 25     rulings over HTTP, every 10th form sent twice, while a `referee rule`
                    process records 50 into the same log: all 250 kept, none twice, integrity ok
  16 readers        question pages fetched at once: the 95th percentile of the answer time  (< 50 ms)

Needs the web extra; skipped with a line saying so without it.
"""
from __future__ import annotations

import html
import http.client
import os
import re
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
PIN, HEAD_PIN = "424242", "777777"
MJE = "others_acted=two&intact_dead_before=no&exposers=South&exposers=West&declared_value=40&declarer=East"
JUDGES, EACH, CLI_RULINGS, READERS, READS = 8, 25, 50, 16, 40


def _start(db: Path, env: dict[str, str]) -> tuple[subprocess.Popen[str], int, float]:
    began = time.perf_counter()
    p = subprocess.Popen([sys.executable, "-m", "referee", "serve", "--event", "Bench", "--host", "127.0.0.1", "--port", "0",
                          "--pin", PIN, "--head-pin", HEAD_PIN, "--no-qr", "--db", str(db)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    port = 0
    for _ in range(40):
        m = re.search(r"127\.0\.0\.1:(\d+)/", p.stdout.readline())  # type: ignore[union-attr]
        if m:
            port = int(m.group(1))
            break
    if not port:
        p.kill()
        raise RuntimeError("serve printed no address: " + p.stderr.read()[-500:])  # type: ignore[union-attr]
    for _ in range(1000):  # bounded: at most about 10 s
        try:
            if _request(port, "GET", "/health")[0] == 200:
                return p, port, time.perf_counter() - began
        except OSError:
            time.sleep(0.01)
    p.kill()
    raise RuntimeError("serve never answered /health")


def _request(port: int, method: str, path: str, form: dict[str, str] | None = None,
             cookie: str = "", source: str = "127.0.0.1") -> tuple[int, dict[str, str], str]:
    """One request from `source` (venueload gives each judge's phone an address of its own)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(source, 0))
    headers = {"Cookie": cookie} if cookie else {}
    body = None
    if form is not None:
        body, headers["Content-Type"] = urlencode(form), "application/x-www-form-urlencoded"
    try:
        conn.request(method, path, body=body, headers=headers)
        r = conn.getresponse()
        headers: dict[str, str] = {}
        for k, v in r.getheaders():  # a sign-in sets two cookies (the session, the device): keep both
            headers[k.lower()] = f"{headers[k.lower()]}\n{v}" if k.lower() in headers else v
        return r.status, headers, r.read().decode()
    finally:
        conn.close()


def _sign_in(port: int, name: str, source: str = "127.0.0.1") -> str:
    status, headers, _ = _request(port, "POST", "/login", {"name": name, "pin": PIN, "next": "/"}, source=source)
    if status != 303:
        raise RuntimeError(f"sign-in answered {status}")
    return "; ".join(c.split(";")[0] for c in headers["set-cookie"].split("\n"))


def _field(page: str, name: str) -> str:
    m = re.search(rf'name="{name}" value="([^"]*)"', page)
    if not m:
        raise RuntimeError(f"no {name} on the ruling page")
    return html.unescape(m.group(1))


def _judge(port: int, n: int, out: list[str], errors: list[str]) -> None:
    try:
        cookie = _sign_in(port, f"Judge {n}")
        for i in range(EACH):
            _, _, page = _request(port, "GET", f"/s/mahjong-in-error?{MJE}", cookie=cookie)
            form = {k: _field(page, k) for k in ("csrf", "rid", "situation", "query")} | {"table": str(n), "round": str(i)}
            for _ in range(2 if i % 10 == 9 else 1):  # every 10th form sent twice
                status, headers, _ = _request(port, "POST", "/rulings", form, cookie)
                if status != 303:
                    raise RuntimeError(f"record answered {status}")
            out.append(headers["location"].rsplit("/", 1)[1])
    except Exception as exc:  # noqa: BLE001  (reported, not raised, from a thread)
        errors.append(f"judge {n}: {exc}")


CLI = """
import sys
from referee.__main__ import run
for i in range({n}):
    sys.argv = ["referee", "rule", "mahjong-in-error", "-a", "others_acted=two", "-a", "intact_dead_before=no", "-a", "exposers=South,West",
                "-a", "declared_value=40", "--seat", "declarer=East", "--no-input", "--again", "--json", "--table", "cli",
                "--event", "Bench", "--judge", "Head", "--db", {db!r}]
    try:
        run()
    except SystemExit as e:
        assert not e.code, e.code
"""


def _reader(port: int, times: list[float]) -> None:
    for _ in range(READS):
        began = time.perf_counter()
        status, _, _ = _request(port, "GET", "/s/mahjong-in-error?others_acted=two")
        times.append(time.perf_counter() - began)
        if status != 200:
            raise RuntimeError(f"question page answered {status}")


def serve_rows(table: Any, env: dict[str, str], quick: bool = False) -> None:
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        print("serve: skipped (the web extra is not installed: pip install -e '.[web]')")
        return
    work = Path(tempfile.mkdtemp(prefix="referee-serve-bench-"))
    try:
        ready = []
        for i in range(1 if quick else 3):  # CI's report is cut off at two minutes
            p, _, took = _start(work / f"ready{i}.db", env)
            ready.append(took)
            p.send_signal(signal.SIGINT)
            p.wait(timeout=10)
        table.add("serve ready to answer", (statistics.median(ready), statistics.median(ready)), "s", 1.0)
        db = work / "load.db"
        p, port, _ = _start(db, env)
        try:
            got: list[str] = []
            errors: list[str] = []
            began = time.perf_counter()
            cli = subprocess.Popen([sys.executable, "-c", CLI.format(n=CLI_RULINGS, db=str(db))], env=env, cwd=ROOT,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            threads = [threading.Thread(target=_judge, args=(port, n, got, errors)) for n in range(1, JUDGES + 1)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(timeout=300)
            if cli.wait(timeout=300) != 0:
                errors.append("cli: " + cli.stderr.read()[-300:])  # type: ignore[union-attr]
            took = time.perf_counter() - began
            with sqlite3.connect(db) as conn:
                rows = conn.execute("SELECT count(*), count(DISTINCT id) FROM rulings").fetchone()
                ok = conn.execute("PRAGMA integrity_check").fetchone()[0]
            want = JUDGES * EACH + CLI_RULINGS
            verdict = "ok" if rows == (want, want) and ok == "ok" and not errors else "MISSED"
            print(f"{JUDGES} judges x {EACH} + CLI {CLI_RULINGS}: {rows[0]} of {want} rows kept, "
                  f"{rows[0] - rows[1]} duplicates, integrity {ok}, {took:.1f} s  {verdict}"
                  + (f" ({errors[0]})" if errors else ""), flush=True)
            times: list[float] = []
            readers = [threading.Thread(target=_reader, args=(port, times)) for _ in range(READERS)]
            for t in readers:
                t.start()
            for t in readers:
                t.join(timeout=300)
            times.sort()
            p95 = times[int(len(times) * 0.95) - 1] if times else float("inf")
            table.add(f"{READERS} readers, question page p50", (statistics.median(times),) * 2, "s", None)
            table.add(f"{READERS} readers, question page p95", (p95, p95), "s", 0.05)
        finally:
            p.send_signal(signal.SIGINT)
            p.wait(timeout=10)
    finally:
        import shutil

        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from table import Table

    serve_rows(Table(), dict(os.environ))
