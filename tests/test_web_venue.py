"""`referee serve` at a real venue, through Starlette's TestClient: stable ruling numbers, pages
that ask the log only for what they show, a health check that never reads the log."""
from __future__ import annotations

from pathlib import Path

import pytest

from web_helpers import client, record_form, sign_in

from referee.store.rulings import RulingsLog

MJE = "others_acted=two&intact_dead_before=no&exposers=South&exposers=West&declared_value=40&declarer=East"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "rulings.db"


def _record(c, table: str = "12", query: str = MJE) -> str:
    page = c.get(f"/s/mahjong-in-error?{query}")
    r = c.post("/rulings", data=record_form(page.text, table), follow_redirects=False)
    assert r.status_code == 303, r.text[:300]
    return r.headers["location"]


def test_a_recorded_ruling_keeps_its_own_number(db: Path) -> None:
    ann, bea = client(db), client(db)
    sign_in(ann, "Ann")
    sign_in(bea, "Bea")
    first = _record(ann)
    second = _record(bea)
    assert "Recorded ✓ #1 " in ann.get(first).text and "Recorded ✓ #2 " in bea.get(second).text
    for _ in range(3):
        _record(bea)
    assert "Recorded ✓ #1 " in ann.get(first).text  # the event's count later is not its number


def test_health_answers_without_reading_the_log(db: Path) -> None:
    c = client(db)
    sign_in(c)
    _record(c)
    db.unlink()  # no log to read: health still answers, and says nothing of the rulings
    for suffix in ("-wal", "-shm"):
        Path(str(db) + suffix).unlink(missing_ok=True)
    r = client(db.with_name("other.db")).get("/health")
    assert r.status_code == 200 and r.text == "ok"


def test_home_and_ruling_pages_show_the_judges_and_the_tables_last_five(db: Path) -> None:
    ann, bea = client(db), client(db)
    sign_in(ann, "Ann")
    sign_in(bea, "Bea")
    mine = [_record(ann, table=str(7 if i % 2 else 8)) for i in range(7)]
    _record(bea, table="7")
    home = ann.get("/").text
    shown = [rid.rsplit("/", 1)[1] for rid in mine if f'href="{rid}"' in home]
    assert shown == [rid.rsplit("/", 1)[1] for rid in mine[-5:]]
    with RulingsLog.open(db, create=False) as log:
        at_7 = [r.id for r in log.find() if r.table == "7"]
    page = bea.get(f"/s/mahjong-in-error?{MJE}").text  # her table is remembered from her last Record
    earlier = page.split("Earlier at table 7", 1)[1]
    assert [rid for rid in at_7 if rid in earlier] == at_7[-5:]
