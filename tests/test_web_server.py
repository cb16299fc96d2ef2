"""`referee serve` as a real server on 127.0.0.1: several judges at once, a CLI writing into the
same log, Ctrl+C with the head judge's page open, and a server killed mid-event."""
from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path
from typing import Iterator

import pytest

from web_helpers import HEAD_PIN, Phone, record_form, start

from referee.store.rulings import RulingsLog

ROOT = Path(__file__).resolve().parent.parent
MJE = "others_acted=two&intact_dead_before=no&exposers=South&exposers=West&declared_value=40&declarer=East"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], str, Path]]:
    db = tmp_path / "rulings.db"
    p, base = start(db)
    try:
        yield p, base, db
    finally:
        if p.poll() is None:
            p.kill()
        p.wait(timeout=10)


def _rule(phone: Phone, table: int, resend: bool) -> str:
    page = phone.get(f"/s/mahjong-in-error?{MJE}")
    form = record_form(page, str(table), "2")
    status, headers, _ = phone.request("POST", "/rulings", form)
    assert status == 303
    if resend:  # the answer was lost on the way back: the phone sends it again
        again, headers2, _ = phone.request("POST", "/rulings", form)
        assert again == 303 and headers2["location"] == headers["location"]
    return headers["location"].rsplit("/", 1)[1]


def test_several_judges_and_the_cli_record_into_one_log_at_once(server) -> None:
    p, base, db = server
    judges, each = 4, 6
    got: dict[str, list[str]] = {}
    errors: list[BaseException] = []

    def judge(n: int) -> None:
        try:
            phone = Phone(base)
            phone.sign_in(f"Judge {n}")
            got[str(n)] = [_rule(phone, n * 100 + i, resend=i % 3 == 0) for i in range(each)]
        except BaseException as exc:  # reported below, in the test's own thread
            errors.append(exc)

    cli = subprocess.Popen(
        [sys.executable, "-c", "import sys\nfrom referee.__main__ import run\n"
         "for i in range(5):\n"
         "    sys.argv = ['referee', 'rule', 'mahjong-in-error', '-a', 'others_acted=two', '-a', 'intact_dead_before=no', '-a', 'exposers=South,West',"
         " '-a', 'declared_value=40', '--seat', 'declarer=East', '--no-input', '--json', '--table', 'cli',"
         " '--event', 'Spring Open', '--judge', 'Head', '--again']\n"
         "    try:\n        run()\n    except SystemExit as e:\n        assert not e.code, e.code\n"],
        env=dict(os.environ, REFEREE_DB=str(db)), cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    threads = [threading.Thread(target=judge, args=(n,)) for n in range(1, judges + 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert cli.wait(timeout=120) == 0, cli.stderr.read()  # type: ignore[union-attr]
    assert not errors, errors[0]
    with RulingsLog.open(db, create=False) as log:
        rows = log.find()
    ids = [r.id for r in rows]
    assert len(ids) == len(set(ids)) == judges * each + 5
    assert {i for ids_ in got.values() for i in ids_} <= set(ids)
    assert sum(r.table == "cli" for r in rows) == 5
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    head = Phone(base)
    head.sign_in("Head", HEAD_PIN)
    assert head.get("/log").count('<tr id="r-') == judges * each + 5


def test_ctrl_c_with_the_live_log_open_stops_the_server(server) -> None:
    import http.client

    p, base, _ = server
    head = Phone(base)
    head.sign_in("Head", HEAD_PIN)
    conn = http.client.HTTPConnection(head.host, head.port, timeout=10)
    conn.request("GET", "/log/stream", headers={"Cookie": "; ".join(f"{k}={v}" for k, v in head.cookies.items())})
    stream = conn.getresponse()
    assert stream.status == 200 and stream.getheader("content-type").startswith("text/event-stream")
    p.send_signal(signal.SIGINT)
    assert p.wait(timeout=5) == 0  # bounded: uvicorn alone would wait for the stream for ever
    err = p.stderr.read()  # type: ignore[union-attr]
    assert "Traceback" not in err and "server stopped" in err
    conn.close()


def test_every_ruling_that_got_its_answer_survives_a_killed_server(server, tmp_path: Path) -> None:
    p, base, db = server
    phone = Phone(base)
    phone.sign_in("Ann")
    answered = [_rule(phone, i, resend=False) for i in range(5)]
    p.send_signal(signal.SIGKILL)
    p.wait(timeout=10)
    with RulingsLog.open(db, create=False) as log:
        kept = {r.id for r in log.find()}
    assert set(answered) <= kept
    again, base2 = start(db)  # the next start reuses the log, and the judge is still signed in
    try:
        phone2 = Phone(base2)
        phone2.cookies = dict(phone.cookies)
        assert "Ann" in phone2.get("/") and "Your last rulings" in phone2.get("/")
    finally:
        again.send_signal(signal.SIGINT)
        again.wait(timeout=10)


def test_a_busy_port_or_no_event_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    import socket

    env = dict(os.environ, REFEREE_DB=str(tmp_path / "rulings.db"))
    env.pop("REFEREE_EVENT", None)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = str(taken.getsockname()[1])
        for args, says in ((["--event", "Open", "--port", port], "cannot listen on 127.0.0.1:" + port),
                           (["--port", "0"], "name the event")):
            p = subprocess.run([sys.executable, "-m", "referee", "serve", "--host", "127.0.0.1", "--no-qr", *args],
                               capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
            assert p.returncode == 2 and says in p.stderr, p.stderr
            assert len(p.stderr.strip().splitlines()) == 1 and "Traceback" not in p.stderr
