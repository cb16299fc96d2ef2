"""What the judges' pages ask of the log, on both backends: a ruling's own number within its
event, the ruling key that makes Record idempotent, the last few rulings of a judge or a table,
each answered by an index (so a page at ruling 5,000 costs what it costs at ruling 5)."""
from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from referee.store import db as store_db
from referee.store.context import DbUrl, db_path
from referee.store.record import Ruling, new_id
from referee.store.rulings import Filters, RulingsLog


def _ruling(n: int, *, event: str | None = "Spring Open", table: str = "1", judge: str = "Ann", **extra) -> Ruling:
    return Ruling(id=new_id(1_770_000_000_000 + n), recorded_at=f"2026-03-01T10:{n // 60:02d}:{n % 60:02d}.000Z",
                  ruleset_id="house", ruleset_version="1", ruleset_hash="339fde170c06", situation="picked-wrong-end",
                  ruled_in="picked-wrong-end", ruling_id="PWE-1", game="continues", event=event, table=table,
                  judge=judge, printed=f"ruling {n}", **extra)


def test_each_ruling_keeps_its_own_number_within_its_event(log_at: str) -> None:
    with RulingsLog.open(log_at) as log:
        for n in range(1, 6):
            log.add(_ruling(n, event="Open" if n % 2 else "Cup"))
        log.add(_ruling(9, event=None))
        rows = log.find()
        log.withdraw(rows[0].id, "Head", "wrong table")
        log.add(_ruling(10, event="Open"))
        numbers = [(r.event, r.number) for r in log.find()]
        assert numbers == [("Open", 1), ("Cup", 1), ("Open", 2), ("Cup", 2), ("Open", 3), (None, 1), ("Open", 4)]
        assert log.last_number("Open") == 4 and log.last_number("Cup") == 2 and log.last_number("Nope") == 0
        first = log.ruling(rows[0].id)
        assert first is not None and first.number == 1 and first.withdrawn  # a withdrawal keeps the number


def test_numbers_never_repeat_when_judges_record_at_once(log_at: str) -> None:
    with RulingsLog.open(log_at) as log:
        log.add(_ruling(0))
    errors: list[BaseException] = []

    def judge(k: int) -> None:
        try:
            for i in range(8):
                with RulingsLog.open(log_at) as log:
                    log.add(_ruling(100 + k * 10 + i))
        except BaseException as exc:  # reported in the test's thread
            errors.append(exc)

    threads = [threading.Thread(target=judge, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not errors, errors[0]
    with RulingsLog.open(log_at) as log:
        assert sorted(r.number for r in log.find()) == list(range(1, 34))


def test_an_import_numbers_what_it_adds_after_what_is_here(log_at: str, tmp_path: Path) -> None:
    other = tmp_path / "laptop.db"
    with RulingsLog.open(other) as laptop:
        for n in (3, 1, 2):
            laptop.add(_ruling(n))
        theirs = laptop.find()
    with RulingsLog.open(log_at) as log:
        log.add(_ruling(50))
        log.merge(theirs)
        got = {r.printed: r.number for r in log.find()}
        assert got == {"ruling 50": 1, "ruling 1": 2, "ruling 2": 3, "ruling 3": 4}  # in the time they were made
        assert log.merge(theirs).added == 0 and log.last_number("Spring Open") == 4


def test_the_ruling_key_finds_a_ruling_and_records_it_once(log_at: str) -> None:
    r = _ruling(1)
    with RulingsLog.open(log_at) as log:
        assert log.ruling(r.id) is None
        log.merge([r])
        log.merge([r])
        again = log.ruling(r.id)
        assert again is not None and again.number == 1 and log.count() == 1
        assert log.ruling(r.id[:-1] + ("0" if r.id[-1] != "0" else "1")) is None  # the whole key, never a part


def test_the_last_few_of_a_judge_or_a_table_and_who_recorded_them(log_at: str) -> None:
    with RulingsLog.open(log_at) as log:
        for n in range(1, 31):
            log.add(_ruling(n, table=str(n % 3), judge=("Ann", "Bea")[n % 2], sign_in=f"s{n % 2}"))
        log.add(_ruling(99, event="Cup", table="1", judge="Ann"))
        anns = log.find(Filters(event="Spring Open", judge="Ann"), last=5)
        assert [r.printed for r in anns] == [f"ruling {n}" for n in (22, 24, 26, 28, 30)]
        assert {r.sign_in for r in anns} == {"s0"}
        table = log.find(Filters(event="Spring Open", table="1"), last=5)
        assert [r.printed for r in table] == [f"ruling {n}" for n in (16, 19, 22, 25, 28)]
        done = log.withdraw(anns[0].id, "Head", "mistaken", sign_in="s-head")
        assert done.withdrawn_sign_in == "s-head" and "sign_in" not in done.as_dict()  # kept by the log, not exported


PAGE_QUERIES = [
    ("judge", Filters(event="E", judge="Ann"), "rulings_judge"),
    ("table", Filters(event="E", table="7"), "rulings_table"),
]


@pytest.mark.parametrize("what,filters,index", PAGE_QUERIES, ids=[q[0] for q in PAGE_QUERIES])
def test_what_a_page_shows_is_read_by_an_index(tmp_path: Path, what: str, filters: Filters, index: str) -> None:
    db = tmp_path / "rulings.db"
    with RulingsLog.open(db) as log:
        log.add(_ruling(1))
        where, args = filters.where()
        plan = " ".join(str(row) for row in log.db.execute(
            f"EXPLAIN QUERY PLAN SELECT id FROM rulings{where} ORDER BY recorded_at DESC LIMIT 5", args).fetchall())
        assert f"USING INDEX {index}" in plan and "TEMP B-TREE" not in plan, plan  # no sort of the event's rows
        plan = " ".join(str(row) for row in log.db.execute(
            "EXPLAIN QUERY PLAN SELECT max(number) FROM rulings WHERE event = ?", ["E"]).fetchall())
        assert "rulings_number" in plan, plan


def test_the_indexes_exist_on_either_backend(log_at: str) -> None:
    with RulingsLog.open(log_at):
        pass
    if isinstance(db_path(log_at), DbUrl):
        import psycopg

        with psycopg.connect(log_at) as conn:
            names = {r[0] for r in conn.execute("SELECT indexname FROM pg_indexes WHERE tablename = 'rulings'")}
    else:
        with sqlite3.connect(log_at) as conn:
            names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    assert {"rulings_number", "rulings_judge", "rulings_table"} <= names


def test_an_older_log_gets_numbers_in_the_order_its_rulings_were_made(tmp_path: Path, monkeypatch) -> None:
    db = tmp_path / "old.db"
    with monkeypatch.context() as m:  # a log written by the referee before rulings had numbers
        m.setattr(store_db, "MIGRATIONS", store_db.MIGRATIONS[:1])
        m.setattr(store_db, "SCHEMA_VERSION", 1)
        conn = store_db.connect(db)
        cols = [r[1] for r in conn.execute("PRAGMA table_info(rulings)")]
        assert "number" not in cols
        from referee.store.rulings import COLUMNS, _row

        for n, event in ((3, "Open"), (1, "Open"), (2, "Cup"), (4, "Open"), (5, None)):
            conn.execute(f"INSERT INTO rulings ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))})",
                         _row(_ruling(n, event=event)))
        conn.close()
    with RulingsLog.open(db) as log:
        got = {r.printed: (r.event, r.number) for r in log.find()}
        assert got == {"ruling 1": ("Open", 1), "ruling 2": ("Cup", 1), "ruling 3": ("Open", 2),
                       "ruling 4": ("Open", 3), "ruling 5": (None, 1)}
        log.add(_ruling(6, event="Open"))
        assert log.last_number("Open") == 4


def test_sign_ins_bind_a_name_to_its_first_device_on_either_backend(log_at: str) -> None:
    from referee.store import signins

    with RulingsLog.open(log_at) as log:
        first = signins.sign_in(log, "Open", "Carol", "judge", "phone-1", "10.0.0.5", "Safari")
        again = signins.sign_in(log, "Open", "  CAROL ", "judge", "phone-1", "10.0.0.5", "Safari")
        other = signins.sign_in(log, "Open", "carol", "judge", "phone-2", "10.0.0.9", "Chrome")
        elsewhere = signins.sign_in(log, "Cup", "Carol", "judge", "phone-2", None, None)  # another event: her name is free
        assert first.live and again.live and not other.live and elsewhere.live
        assert other.judge == "Carol" and again.approved_by == "same device"
        assert not signins.approve(log, "Cup", other.id, "Head")  # not from another event's page
        assert signins.approve(log, "Open", other.id, "Head") and not signins.approve(log, "Open", other.id, "Head")
        assert signins.get(log, other.id).live
        assert signins.end(log, "Open", "Head", keep=first.id) == 2
        assert [s.id for s in signins.listed(log, "Open")] == [first.id]

