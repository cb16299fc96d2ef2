"""Locks and permissions (issue 19 item 6): a busy log says so at once and never lets the judge
believe a ruling was recorded when it was not; a log the judge may not write can still be read."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from referee.cli import app
from referee.store import db as store_db

HOUSE = Path(__file__).resolve().parent / "rulesets" / "house"
DEAD = ["rule", "picked-wrong-end", "-a", "discard_claimed=no", "-s", "picker=West", "--no-input", "--ruleset", str(HOUSE)]

HOLDER = """
import sqlite3, sys, time
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
time.sleep(float(sys.argv[2]))
conn.execute("ROLLBACK")
"""


def invoke(*args: str | Path) -> Any:
    r = CliRunner().invoke(app, [str(a) for a in args])
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    assert "Traceback" not in r.output
    return r


def count(db: Path) -> int:
    return len(json.loads(invoke("log", "list", "--json", "--db", db).stdout))


def hold(db: Path, seconds: float) -> subprocess.Popen[str]:
    p = subprocess.Popen([sys.executable, "-c", HOLDER, str(db), str(seconds)], stdout=subprocess.PIPE, text=True)
    assert p.stdout is not None and p.stdout.readline().strip() == "locked"
    return p


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "rulings.db"
    assert invoke(*DEAD, "--db", path).exit_code == 0  # a log with one ruling, in WAL mode
    return path


def test_a_log_held_busy_past_the_wait_says_so_at_once_and_that_nothing_was_recorded(db: Path, monkeypatch) -> None:
    monkeypatch.setattr(store_db, "BUSY_MS", 1500)
    holder = hold(db, 30)
    try:
        started = time.monotonic()
        r = invoke(*DEAD, "--table", "4", "--db", db)
        took = time.monotonic() - started
    finally:
        holder.kill()
        holder.wait()
    assert r.exit_code == 1, r.output
    lines = r.stderr.strip().splitlines()
    assert "busy" in lines[0] and "retrying" in lines[0], r.stderr
    assert "NOT recorded" in lines[-1] and "logged" not in r.stderr, r.stderr
    assert "Ruling" in r.stdout  # the ruling was shown; the last line says it is not in the log
    assert took < 20
    assert count(db) == 1


def test_a_log_busy_for_a_moment_records_after_saying_it_waits(db: Path) -> None:
    holder = hold(db, 1.5)
    try:
        r = invoke(*DEAD, "--table", "4", "--db", db)
    finally:
        holder.wait()
    assert r.exit_code == 0, r.output
    assert "busy" in r.stderr and "logged" in r.stderr.strip().splitlines()[-1]
    assert count(db) == 2


def test_reading_while_another_process_writes_does_not_wait(db: Path) -> None:
    holder = hold(db, 30)
    try:
        started = time.monotonic()
        assert count(db) == 1
        assert time.monotonic() - started < 10
    finally:
        holder.kill()
        holder.wait()


def _read_only(folder: Path) -> list[str]:
    """A command prefix that runs with `folder` not writable: chmod for a normal user; for root
    (whom chmod does not stop) a read-only bind mount in a private mount namespace."""
    if os.geteuid() != 0:
        folder.chmod(0o555)
        return []
    unshare = shutil.which("unshare")
    probe = [unshare or "unshare", "-m", "sh", "-c", f'mount --bind "{folder}" "{folder}" && mount -o remount,bind,ro "{folder}" && true']
    if unshare is None or subprocess.run(probe, capture_output=True).returncode != 0:
        pytest.skip("running as root without mount namespaces: cannot make a folder read-only")
    return [unshare, "-m", "sh", "-c", f'mount --bind "{folder}" "{folder}" && mount -o remount,bind,ro "{folder}" && exec "$@"', "sh"]


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
def test_a_log_in_a_folder_the_judge_cannot_write_is_read_and_the_cause_named(tmp_path: Path) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    db = folder / "rulings.db"
    assert invoke(*DEAD, "--db", db, "--player", "West=Ruth").exit_code == 0
    prefix = _read_only(folder)
    env = {**os.environ, "REFEREE_DB": str(db)}

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*prefix, sys.executable, "-m", "referee", *args], capture_output=True, text=True, env=env, timeout=120)

    try:
        for args in (["log", "list"], ["log", "players"], ["log", "export", "-f", "csv"]):
            r = run(*args)
            assert r.returncode == 0 and "Traceback" not in r.stderr, (args, r.stderr)
        assert "Ruth" in run("log", "list", "--json").stdout
        rid = json.loads(run("log", "list", "--json").stdout)[0]["id"]
        assert run("log", "show", rid).returncode == 0
        wrote = run(*DEAD[:1], *DEAD[1:], "--table", "2")
        assert wrote.returncode == 1 and "damaged" not in wrote.stderr
        assert len(wrote.stderr.strip().splitlines()) == 1 and "cannot record" in wrote.stderr
        assert ("read-only" in wrote.stderr or "may not write" in wrote.stderr) and str(folder) in wrote.stderr
        withdraw = run("log", "withdraw", rid, "--reason", "x", "--by", "Ann")
        assert withdraw.returncode == 1 and "damaged" not in withdraw.stderr and "read-only" in withdraw.stderr
    finally:
        folder.chmod(0o755)
    assert count(db) == 1


PROBE = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], timeout=0, isolation_level=None)
try:
    print(conn.execute("PRAGMA journal_mode = DELETE").fetchone()[0])
except sqlite3.OperationalError as exc:
    print("refused:", exc)
"""


def test_a_second_thread_opening_the_log_keeps_the_first_threads_locks(db: Path) -> None:
    """On POSIX, closing any descriptor of a file drops this process's locks on it, SQLite's
    included. A thread that opens the log (reading its first bytes to check it) while another is
    mid-transaction must not leave the file to other processes: here one that would switch it out
    of WAL mode under the open transaction."""
    import threading

    from referee.store.rulings import RulingsLog

    assert invoke(*DEAD, "--db", db).exit_code == 0
    in_transaction, probed = threading.Event(), threading.Event()
    second_done = threading.Event()

    def first() -> None:
        with RulingsLog.open(db) as log, log.db.transaction() as conn:
            conn.execute("UPDATE rulings SET judge = 'Ann'")
            in_transaction.set()
            probed.wait(30)

    def second() -> None:
        with RulingsLog.open(db) as log:
            log.snapshots()  # opened, once the first thread has let go of the file
        second_done.set()

    a = threading.Thread(target=first)
    a.start()
    assert in_transaction.wait(30)
    b = threading.Thread(target=second)
    b.start()
    b.join(0.5)  # the store makes it wait for the first thread; unguarded, it is done by now
    probe = subprocess.run([sys.executable, "-c", PROBE, str(db)], capture_output=True, text=True, timeout=60)
    probed.set()
    a.join(30)
    b.join(30)
    assert second_done.is_set()
    assert probe.stdout.startswith("refused:"), probe.stdout + probe.stderr
    assert json.loads(invoke("log", "list", "--json", "--db", db).stdout)[0]["judge"] == "Ann"
    import sqlite3

    with sqlite3.connect(db) as check:
        assert check.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert check.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
