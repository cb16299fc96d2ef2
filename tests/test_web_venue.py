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


def _walk_by_forms(c, sid: str = "mahjong-in-error") -> tuple[str, str, str]:
    """From the situation's first page, tap the first answer of each question, as a phone does."""
    import re
    from urllib.parse import urlencode

    from web_helpers import field

    page = c.get(f"/s/{sid}").text
    first = field(page, "rid")
    url = ""
    for _ in range(20):
        if 'class="ruling"' in page:
            return url, page, first
        form = re.search(r'<form method="get" action="/s/[^"]+" class="question">(.*?)</form>', page, re.S).group(1)
        pairs = re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form)
        m = re.search(r'<button class="answer" name="([^"]+)" value="([^"]*)"', form)
        if m is None:  # a number or seats: the form's own empty value (seats) or a number
            number = re.search(r'type="number" inputmode="numeric" name="([^"]+)"', form)
            pairs.append((number.group(1), "40") if number else ("exposers", "South"))
        else:
            pairs.append(m.groups())
        url = f"/s/{sid}?{urlencode(pairs)}"
        page = c.get(url).text
    raise AssertionError("no ruling")


def test_a_walk_carries_one_ruling_id_from_its_first_question_to_record(db: Path) -> None:
    import re

    from web_helpers import field

    c = client(db)
    sign_in(c)
    url, page, rid = _walk_by_forms(c)
    assert f"rid={rid}" in url and field(page, "rid") == rid
    assert all(f"rid={rid}" in link for link in re.findall(r'href="(/s/mahjong-in-error\?[^"]*)"', page))  # Back and every answer
    assert c.get("/s/mahjong-in-error").text.count(rid) == 0  # Start over: a new ruling, a new id


def test_back_after_record_shows_the_record_and_records_nothing_twice(db: Path) -> None:
    from web_helpers import field

    c = client(db, tz=__import__("zoneinfo").ZoneInfo("America/New_York"))
    sign_in(c)
    url, page, _ = _walk_by_forms(c)
    form = record_form(page, "31")
    done = c.post("/rulings", data=form, follow_redirects=False).headers["location"]
    again = c.get(url).text  # the browser's Back: the ruling page as it was, asked afresh
    with RulingsLog.open(db, create=False) as log:
        r = log.find()[0]
    from datetime import datetime
    from zoneinfo import ZoneInfo

    local = datetime.fromisoformat(r.recorded_at.replace("Z", "+00:00")).astimezone(ZoneInfo("America/New_York")).strftime("%H:%M")
    assert f"Recorded ✓ #1 at {local}, table 31" in again and f'href="{done}"' in again
    assert 'id="record"' not in again  # nothing to record: it is
    assert c.post("/rulings", data=form, follow_redirects=False).headers["location"] == done  # a stale form: the same record
    assert f"· {local}</p>" in c.get(done).text  # the record's page shows the venue's clock too
    with RulingsLog.open(db, create=False) as log:
        assert log.count() == 1


def test_a_changed_answer_after_record_records_a_second_ruling_not_the_first_again(db: Path) -> None:
    from web_helpers import field

    c = client(db)
    sign_in(c)
    url, page, _ = _walk_by_forms(c)
    rid = field(page, "rid")
    c.post("/rulings", data=record_form(page, "4"), follow_redirects=False)
    assert url.endswith("&declarer=East")
    changed = c.get(url[:-len("East")] + "South").text
    assert "Recorded ✓ #1" in changed and "The answers have changed since" in changed
    new = field(changed, "rid")
    assert new != rid
    second = c.post("/rulings", data=record_form(changed, "4"), follow_redirects=False).headers["location"]
    assert second.endswith(new)
    with RulingsLog.open(db, create=False) as log:
        assert sorted(r.answers["declarer"] for r in log.find()) == ["East", "South"]
