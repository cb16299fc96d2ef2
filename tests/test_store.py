"""The store's core, without the command line: when to log, ids, times."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from referee.errors import UsageError
from referee.store.context import DbUrl, EventConfig, app_dir, db_path, event_file, log_context, write_event
from referee.store.record import new_id
from referee.store.rulings import since_utc


def test_nothing_is_logged_unless_asked(tmp_path: Path, monkeypatch) -> None:
    db = tmp_path / "r.db"
    monkeypatch.setenv("REFEREE_DB", str(db))
    assert log_context() is None
    assert log_context(table="3") == log_context(table="3") is not None
    assert log_context(table="3", no_log=True) is None
    assert log_context(db=db).db == db  # naming the log asks for logging too
    monkeypatch.setenv("REFEREE_EVENT", "Club")
    assert log_context().event == "Club"
    assert log_context(no_log=True) is None


def test_configured_event_and_precedence(tmp_path: Path, monkeypatch) -> None:
    db = tmp_path / "r.db"
    monkeypatch.setenv("REFEREE_DB", str(db))
    write_event(db, EventConfig(event="Open", judge="Ann", round="1"))
    ctx = log_context()
    assert (ctx.event, ctx.judge, ctx.round, ctx.table) == ("Open", "Ann", "1", None)
    monkeypatch.setenv("REFEREE_ROUND", "2")
    assert log_context().round == "2"
    assert log_context(round="3").round == "3"
    write_event(db, None)
    monkeypatch.delenv("REFEREE_ROUND")
    assert log_context() is None


def test_a_broken_event_file_is_one_clear_error(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    (tmp_path / "r.db.event.json").write_text("{not json")
    with pytest.raises(UsageError, match="not a referee event file"):
        log_context(db=db)


def test_default_log_is_in_the_application_folder(monkeypatch) -> None:
    monkeypatch.delenv("REFEREE_DB")
    assert db_path() == app_dir() / "rulings.db"
    assert app_dir().name == "referee"


@pytest.mark.skipif(sys.platform == "darwin", reason="macOS has no XDG folder to redirect")
def test_no_test_writes_into_the_developers_application_folder() -> None:
    # A PostgreSQL log's event settings live in app_dir()/events: the fixtures must move it.
    assert not app_dir().is_relative_to(Path.home() / ".local" / "share")
    assert event_file(DbUrl.parse("postgresql://u@h/db")).is_relative_to(app_dir())


def test_ids_sort_by_time_and_do_not_clash() -> None:
    ids = [new_id(now_ms=1_700_000_000_000 + i) for i in range(50)]
    assert ids == sorted(ids) and all(len(i) == 26 for i in ids)
    same_ms = {new_id(now_ms=1) for _ in range(2000)}
    assert len(same_ms) == 2000


def test_since_reads_dates_times_and_today() -> None:
    assert since_utc("2026-11-23T14:00Z") == "2026-11-23T14:00:00.000Z"
    assert since_utc("2026-11-23T14:00+02:00") == "2026-11-23T12:00:00.000Z"
    assert since_utc("today").endswith("Z")
    with pytest.raises(UsageError):
        since_utc("last week")


def test_an_older_log_is_migrated_when_opened(tmp_path: Path, monkeypatch) -> None:
    import sqlite3

    from referee.store import db as store_db
    from referee.store.record import Ruling, utc_now
    from referee.store.rulings import RulingsLog

    path = tmp_path / "r.db"
    r = Ruling(id=new_id(), recorded_at=utc_now(), ruleset_id="x", ruleset_version="1", ruleset_hash="abc",
               situation="s", ruled_in="s", ruling_id="R-1", game="ends")
    with RulingsLog.open(path) as log:
        log.add(r)
    later = [*store_db.MIGRATIONS, "ALTER TABLE rulings ADD COLUMN venue TEXT"]
    monkeypatch.setattr(store_db, "MIGRATIONS", later)
    monkeypatch.setattr(store_db, "SCHEMA_VERSION", len(later))
    with RulingsLog.open(path) as log:
        assert [x.id for x in log.find()] == [r.id]
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == len(later)
    assert "venue" in [row[1] for row in conn.execute("PRAGMA table_info(rulings)")]
    conn.close()


@pytest.mark.parametrize("text", ['"Spring Open"\n', "[1, 2]\n", "3\n", "null\n", '{"event": {"name": "x"}}\n', "[" * 100_000])
def test_an_event_file_of_valid_json_but_no_settings_is_one_line_even_for_no_log(tmp_path: Path, text: str, monkeypatch) -> None:
    from typer.testing import CliRunner

    from referee.cli import app

    db = tmp_path / "r.db"
    monkeypatch.setenv("REFEREE_DB", str(db))
    (tmp_path / "r.db.event.json").write_text(text)
    with pytest.raises(UsageError, match="r.db.event.json.*log event --clear"):
        log_context(db=db)
    r = CliRunner().invoke(app, ["rule", "picked-wrong-end", "-a", "discard_claimed=no", "-s", "picker=West",
                                 "--no-input", "--no-log", "--ruleset", str(Path(__file__).parent / "rulesets" / "house")])
    assert r.exit_code == 2 and r.exception is None or isinstance(r.exception, SystemExit), r.exception
    assert r.stderr.count("\n") == 1 and "log event --clear" in r.stderr
    assert CliRunner().invoke(app, ["log", "event", "--clear"]).exit_code == 0  # and the way out works
    assert log_context() is None


@pytest.mark.parametrize("when", ["9999-12-31T23:59:59-01:00", "0001-01-01T00:00+01:00", "0001-01-01"])
def test_since_at_the_ends_of_the_calendar_is_one_line(when: str) -> None:
    try:
        assert since_utc(when).endswith("Z")  # where the local zone allows it, a time
    except UsageError as exc:
        assert "--since" in str(exc)


@pytest.mark.parametrize("option", ["table", "round", "judge", "event"])
def test_an_empty_table_or_round_is_refused_not_quietly_unlogged(tmp_path: Path, option: str) -> None:
    with pytest.raises(UsageError, match=f"--{option} is empty"):
        log_context(db=tmp_path / "r.db", **{option: "  "})
