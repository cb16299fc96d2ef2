"""A log server that goes away mid-event misleads no judge (issue 31 §1).

A PostgreSQL server of this module's own (tests/pgserver.py), stopped and started again under
the judges' pages: a ruling that was recorded is never "not found", a ruling page never fails
for want of its table's history, Record asks for a retry and records once when retried, and
`serve`'s terminal gets one line when the log goes and one when it is back.
"""
from __future__ import annotations

import threading
import time

import pytest

from starlette.testclient import TestClient
from conftest import started_pg
from web_helpers import BASE, HEAD_PIN, record_form, settings, sign_in

from referee.web import create_app

from referee.store.context import db_path
from referee.store.rulings import RulingsLog

pytestmark = pytest.mark.slow  # a PostgreSQL server stopped and restarted: `python -m pytest -m slow` (CI) runs it

MJE = "/s/mahjong-in-error?others_acted=two&intact_dead_before=no&exposers=South&exposers=West&declared_value=40&declarer=East"


@pytest.fixture(scope="module")
def own_server():
    """A server these tests may stop: never the one the rest of the run shares."""
    server = started_pg()
    yield server
    server.stop()


@pytest.fixture
def pg_log(own_server):
    name = f"outage_{time.monotonic_ns()}"
    own_server.sql(f"CREATE DATABASE {name}")
    return own_server, own_server.url(name)


def test_a_stopped_log_says_try_again_never_not_found(pg_log) -> None:
    server, url = pg_log
    lines: list[str] = []
    app = create_app(settings(db_path(url), notify=lines.append))  # one serve, one terminal
    c = TestClient(app, base_url=BASE)
    sign_in(c, "Ann")
    first = c.post("/rulings", data=record_form(c.get(MJE).text), follow_redirects=False)
    assert first.status_code == 303
    recorded = first.headers["location"]
    second_form = record_form(c.get(MJE + "&player_North=Ruth").text)
    head = TestClient(app, base_url=BASE)
    sign_in(head, "Head", HEAD_PIN)  # a sign-in is kept in the log: made while it answers
    assert head.get("/log").status_code == 200
    assert c.get(MJE).status_code == 200  # each sign-in read once while the log answers
    server.halt()
    try:
        gone = c.get(recorded)
        assert gone.status_code == 503 and gone.headers["retry-after"]
        assert "may already be recorded" in gone.text and "No such ruling" not in gone.text
        page = c.get(MJE)  # her next ruling: the table's history is the only part that needs the log
        assert page.status_code == 200 and 'class="ruling"' in page.text
        assert "cannot be shown just now" in page.text
        assert c.get("/").status_code == 200
        refused = c.post("/rulings", data=second_form, follow_redirects=False)
        assert refused.status_code == 503 and "Try again in a moment" in refused.text
        assert "referee log list" not in refused.text and "ruling above" not in refused.text
        assert f'name="rid" value="{second_form["rid"]}"' in refused.text  # a retry keeps the ruling's id
        assert head.get("/log").status_code == 503
        assert len([x for x in lines if "cannot be reached" in x]) == 1, lines  # one line per outage
        assert lines and url.split("?")[0] in lines[0] and "***" not in lines[0]
    finally:
        server.resume()
    assert c.get(recorded).status_code == 200
    again = c.post("/rulings", data=second_form, follow_redirects=False)
    again_twice = c.post("/rulings", data=second_form, follow_redirects=False)
    assert again.status_code == again_twice.status_code == 303
    assert [x for x in lines if "reachable again" in x] and len(lines) == 2, lines
    with RulingsLog.open(url, create=False) as log:
        assert len(log.find()) == 2


def test_a_restart_under_judges_loses_nothing_and_misleads_no_one(pg_log) -> None:
    """Judges record, read their ruling back and open the next while the server restarts."""
    server, url = pg_log
    lines: list[str] = []
    app = create_app(settings(db_path(url), notify=lines.append))
    statuses: dict[str, list[int]] = {"ruling": [], "record": [], "recorded": []}
    acknowledged: list[str] = []
    errors: list[str] = []
    stop = threading.Event()
    lock = threading.Lock()

    phones = {}
    for n in range(1, 7):  # signed in while the log answers: a sign-in is kept in the log
        phones[n] = TestClient(app, base_url=BASE)
        sign_in(phones[n], f"Judge {n}")
        assert phones[n].get(MJE).status_code == 200

    def judge(n: int) -> None:
        try:
            c = phones[n]
            while not stop.is_set():
                page = c.get(MJE)
                form = record_form(page.text, table=str(n)) if page.status_code == 200 else None
                sent = c.post("/rulings", data=form, follow_redirects=False) if form else None
                with lock:
                    statuses["ruling"].append(page.status_code)
                    if sent is not None:
                        statuses["record"].append(sent.status_code)
                if sent is not None and sent.status_code == 303:
                    with lock:
                        acknowledged.append(sent.headers["location"].rsplit("/", 1)[1])
                    shown = c.get(sent.headers["location"])
                    with lock:
                        statuses["recorded"].append(shown.status_code)
                        if shown.status_code == 404:
                            errors.append(shown.text)
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(repr(exc))

    threads = [threading.Thread(target=judge, args=(n,)) for n in range(1, 7)]
    for t in threads:
        t.start()
    time.sleep(1.5)
    server.halt()
    time.sleep(0.6)
    server.resume()
    time.sleep(1.5)
    stop.set()
    for t in threads:
        t.join(60)
    assert not errors, errors[:3]
    assert set(statuses["ruling"]) == {200}, statuses["ruling"]  # never a ruling page error
    assert 404 not in statuses["recorded"] and set(statuses["recorded"]) <= {200, 503}
    assert set(statuses["record"]) <= {303, 503} and 503 in statuses["record"] + statuses["recorded"]
    with RulingsLog.open(url, create=False) as log:
        stored = {r.id for r in log.find()}
    assert set(acknowledged) <= stored and len(acknowledged) == len(set(acknowledged))
    assert sum("cannot be reached" in x for x in lines) == sum("reachable again" in x for x in lines) >= 1, lines
