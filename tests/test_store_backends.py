"""The rulings log's store, the same tests against both backends: an SQLite file and PostgreSQL.

`log_at` (conftest.py) is a file path, then a postgresql:// URL on a server the test run starts
itself; the PostgreSQL half is skipped, with the reason, where the server binaries are absent.
"""
from __future__ import annotations

import json
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from referee.errors import UsageError
from referee.store import db as store_db
from referee.store.context import DbUrl, db_path, event_file
from referee.store.db import StoreError
from referee.store.record import Ruling, new_id
from referee.store.rulings import Filters, Merged, RulingsLog

HOUSE = Path(__file__).resolve().parent / "rulesets" / "house"
RULING = ["rule", "picked-wrong-end", "-r", str(HOUSE), "-a", "discard_claimed=no", "-s", "picker=West", "--no-input"]


def _ruling(n: int, *, at: str = "2026-03-01T10:00:00.000Z", event: str | None = "Spring Open", **extra) -> Ruling:
    return Ruling(id=new_id(1_770_000_000_000 + n), recorded_at=at, ruleset_id="house", ruleset_version="1",
                  ruleset_hash="339fde170c06", situation="picked-wrong-end", ruled_in="picked-wrong-end",
                  ruling_id="PWE-1", game="continues", event=event, table=str(n % 7),
                  players={"West": f"Player {n % 3}", "East": "Ann"}, dead=["West"],
                  payments=[{"from": "West", "to": "East", "amount": 25, "formula": "hand"}],
                  answers={"picker": "West", "discard_claimed": "no"}, printed=f"ruling {n}", **extra)


def _tables(where: str) -> list[tuple]:
    """The database's tables and row counts, read around the log (to see it was left untouched)."""
    if isinstance(db_path(where), DbUrl):
        import psycopg

        with psycopg.connect(where) as conn:
            names = [r[0] for r in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1")]
            return [(n, conn.execute(f'SELECT count(*) FROM "{n}"').fetchone()[0]) for n in names]
    conn = sqlite3.connect(where)
    try:
        names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY 1")]
        return [(n, conn.execute(f'SELECT count(*) FROM "{n}"').fetchone()[0]) for n in names] + [
            ("user_version", conn.execute("PRAGMA user_version").fetchone()[0])]
    finally:
        conn.close()


def _foreign(where: str) -> None:
    """Make `where` another program's database."""
    if isinstance(db_path(where), DbUrl):
        import psycopg

        with psycopg.connect(where, autocommit=True) as conn:
            conn.execute("CREATE TABLE players (name TEXT)")
            conn.execute("INSERT INTO players VALUES ('Ruth')")
        return
    conn = sqlite3.connect(where)
    conn.execute("CREATE TABLE players (name TEXT)")
    conn.execute("INSERT INTO players VALUES ('Ruth')")
    conn.commit()
    conn.close()


def test_add_find_get_withdraw_on_either_backend(log_at: str) -> None:
    rulings = [_ruling(n) for n in range(5)]
    with RulingsLog.open(log_at) as log:
        for r in rulings:
            log.add(r, (r.ruleset_hash, "house", "1", b"\x00\xffpacked"))
        assert [r.id for r in log.find()] == sorted(r.id for r in rulings)
        assert log.find()[2] == rulings[2]  # every field, JSON ones too, back as they went in
        assert log.get(rulings[3].id[-8:]) == rulings[3]
        assert log.snapshot("339fde170c06") == ("339fde170c06", "house", "1", b"\x00\xffpacked") and len(log.snapshots()) == 1
        assert [r.id for r in log.find(Filters(table="2"))] == [rulings[2].id]
        assert [r.id for r in log.find(Filters(player="player 1"))] == [rulings[1].id, rulings[4].id]
        gone = log.withdraw(rulings[0].id[-8:], "Ann", "wrong seat")
        assert gone.withdrawn and gone.withdrawn_by == "Ann"
        with pytest.raises(UsageError, match="already withdrawn"):
            log.withdraw(rulings[0].id, "Ann", "again")
        with pytest.raises(StoreError, match="no ruling"):
            log.get("zzzzzzzz")
    with RulingsLog.open(log_at) as log:  # and it is all there after closing
        assert len(log.find()) == 5 and log.get(rulings[0].id).withdrawn


def test_merge_is_idempotent_and_carries_withdrawals(log_at: str) -> None:
    rulings = [_ruling(n) for n in range(4)]
    with RulingsLog.open(log_at) as log:
        assert (log.merge(rulings).added, log.merge(rulings).added) == (4, 0)  # importing twice adds nothing
        later = Ruling(**{**rulings[1].as_dict(), "withdrawn_at": "2026-03-02T00:00:00.000Z",
                          "withdrawn_by": "Bob", "withdrawn_reason": "misheard"})
        assert log.merge([later]).withdrawn == 1
        assert log.merge([later]) == Merged()
        assert log.merge([Ruling(**{**rulings[2].as_dict(), "printed": "rewritten"})]).conflicts == [rulings[2].id]
        assert len(log.find()) == 4 and log.get(later.id).withdrawn_by == "Bob"


def test_players_since_counts_across_every_event(log_at: str) -> None:
    early = [_ruling(n, at="2025-12-20T10:00:00.000Z", event="Winter Club") for n in range(3)]
    spring = [_ruling(n, at="2026-02-01T10:00:00.000Z", event="Spring Open") for n in range(3, 6)]
    league = [_ruling(n, at="2026-04-01T10:00:00.000Z", event="League") for n in range(6, 9)]
    with RulingsLog.open(log_at) as log:
        log.merge(early + spring + league)
        table = {p.name: p for p in log.players(Filters(since="2026-01-01"))}
        every = {p.name: p for p in log.players()}
    # Player n % 3 sat West, dead and paying, in each ruling; since 2026 only spring and league count
    assert {name: len(p.against) for name, p in table.items()} == {"Player 0": 2, "Player 1": 2, "Player 2": 2, "Ann": 0}
    assert {r.event for r in table["Player 0"].against} == {"Spring Open", "League"}
    assert table["Player 0"].repeats == {"picked-wrong-end": 2} and table["Player 0"].paid == 50
    assert len(every["Player 0"].against) == 3 and every["Ann"].rulings == 9


def test_a_foreign_database_is_refused_and_untouched(log_at: str) -> None:
    _foreign(log_at)
    before = _tables(log_at)
    for create in (True, False):
        with pytest.raises(StoreError, match="not touching it") as caught:
            RulingsLog.open(log_at, create=create)
        assert "\n" not in str(caught.value)
    assert _tables(log_at) == before


def test_a_newer_log_is_refused_and_untouched(log_at: str, monkeypatch) -> None:
    from referee.store import postgres

    with RulingsLog.open(log_at) as log:
        log.add(_ruling(1))
    later = [*store_db.MIGRATIONS, "ALTER TABLE rulings ADD COLUMN venue TEXT"]
    with monkeypatch.context() as m:  # a newer referee opens it first
        for module in (store_db, postgres):
            m.setattr(module, "MIGRATIONS", later)
            m.setattr(module, "SCHEMA_VERSION", len(later))
        with RulingsLog.open(log_at) as log:
            assert len(log.find()) == 1
    before = _tables(log_at)
    with pytest.raises(StoreError, match="newer referee"):
        RulingsLog.open(log_at)
    assert _tables(log_at) == before


def test_an_older_log_is_upgraded_by_log_migrate(log_at: str, monkeypatch, cli) -> None:
    from referee.store import postgres

    now = store_db.SCHEMA_VERSION
    assert cli("log", "migrate", "--db", log_at).output.endswith(f"created the rulings log (schema {now}).\n")
    with RulingsLog.open(log_at) as log:
        log.add(_ruling(1))
    later = [*store_db.MIGRATIONS, "ALTER TABLE rulings ADD COLUMN venue TEXT"]
    for module in (store_db, postgres):
        monkeypatch.setattr(module, "MIGRATIONS", later)
        monkeypatch.setattr(module, "SCHEMA_VERSION", len(later))
    r = cli("log", "migrate", "--db", log_at)
    assert r.exit_code == 0 and f"upgraded the rulings log from schema {now} to {now + 1}" in r.output
    assert f"up to date (schema {now + 1})" in cli("log", "migrate", "--db", log_at).output
    with RulingsLog.open(log_at) as log:
        assert len(log.find()) == 1
        assert log.db.execute("SELECT count(venue) FROM rulings").fetchone()[0] == 0


def test_reading_an_empty_place_does_not_create_a_log(log_at: str, cli) -> None:
    r = cli("log", "list", "--db", log_at)
    assert r.exit_code == 1 and "no rulings log" in r.output and len(r.output.strip().splitlines()) == 1
    if isinstance(db_path(log_at), DbUrl):
        assert _tables(log_at) == []
    else:
        assert not Path(log_at).exists()


def test_every_log_command_works_on_either_backend(log_at: str, cli, monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("REFEREE_DB", log_at)  # the environment, as --db below
    r = cli("log", "event", "Club Night", "--judge", "Ann")
    assert r.exit_code == 0 and "Club Night" in r.output
    assert cli(*RULING, "-p", "West=Ruth").exit_code == 0  # recorded under the event, no --db needed
    r = cli(*RULING, "-p", "West=Ruth", "--table", "4", "--db", log_at)
    assert r.exit_code == 0
    found = json.loads(cli("log", "list", "--json", "--db", log_at).output)
    assert [(x["event"], x["judge"], x["table"]) for x in found] == [("Club Night", "Ann", None), ("Club Night", "Ann", "4")]
    first = found[0]["id"]
    assert "Ruth" in cli("log", "show", first[-8:]).output
    assert "REPEAT" in cli("log", "players", "--since", "2026-01-01").output
    assert cli("log", "replay", first[-8:]).exit_code == 0
    assert cli("log", "withdraw", first[-8:], "--reason", "wrong table").exit_code == 0
    out = tmp_path / "out.jsonl"
    assert cli("log", "export", "--with-origin", "-o", str(out)).exit_code == 0  # as recorded here
    r = cli("log", "import", str(out))
    assert r.exit_code == 0 and "2 rulings, 0 new" in r.output
    saved = event_file(db_path(log_at))
    assert saved.is_file() and "Club Night" in saved.read_text()
    assert cli("log", "event", "--clear").exit_code == 0 and not saved.exists()


def test_export_is_the_same_file_from_either_backend(pg_url: str, tmp_path: Path, cli) -> None:
    lite = str(tmp_path / "head-table.db")
    for n in range(3):
        assert cli(*RULING, "-p", f"West=Player {n}", "--table", str(n), "--db", lite).exit_code == 0
    assert cli("log", "withdraw", "--db", lite, json.loads(cli("log", "list", "--json", "--db", lite).output)[1]["id"],
               "--reason", "misheard", "--by", "Ann").exit_code == 0
    for fmt in ("jsonl", "json"):
        a, b, c = (tmp_path / f"{name}.{fmt}" for name in ("lite", "pg", "back"))
        assert cli("log", "export", "--db", lite, "-o", str(a)).exit_code == 0
        assert cli("log", "import", str(a), "--db", pg_url).exit_code == 0
        assert cli("log", "export", "--db", pg_url, "-o", str(b)).exit_code == 0
        assert a.read_bytes() == b.read_bytes(), fmt
        again = str(tmp_path / f"again-{fmt}.db")  # and back into a file, still the same
        assert cli("log", "import", str(b), "--db", again).exit_code == 0
        assert cli("log", "export", "--db", again, "-o", str(c)).exit_code == 0
        assert c.read_bytes() == a.read_bytes(), fmt
    assert "3 rulings, 0 new" in cli("log", "import", str(tmp_path / "lite.jsonl"), "--db", pg_url).output
    sheets = [cli("log", "export", "-f", "csv", "--db", where).output for where in (lite, pg_url)]
    assert sheets[0] == sheets[1] and sheets[0].count("\n") >= 4  # the spreadsheet too, row for row


def test_two_first_openers_create_the_postgres_tables_once(pg_url: str) -> None:
    from concurrent.futures import ThreadPoolExecutor

    def first(n: int) -> int:
        with RulingsLog.open(pg_url) as log:
            log.add(_ruling(n))
        return n

    with ThreadPoolExecutor(4) as pool:
        assert sorted(pool.map(first, range(4))) == [0, 1, 2, 3]
    assert ("rulings", 4) in _tables(pg_url)


def test_a_url_never_prints_its_password() -> None:
    url = db_path("postgresql://ann:s3cret-horse@db.club.org:5433/log?sslmode=require&password=s3cret-horse")
    assert isinstance(url, DbUrl)
    shown = f"{url} {url!r} {[url]}"
    assert "s3cret" not in shown and "ann@db.club.org:5433/log" in shown and "sslmode=require" in shown
    assert "s3cret-horse" in url.conninfo  # what the driver is given
    assert "s3cret" not in str(event_file(url))
    assert db_path("postgres://ann@/log?host=/run/postgresql").shown == "postgres://ann@/log?host=/run/postgresql"


@pytest.fixture
def judge(pg_server, pg_url: str) -> tuple[str, str]:
    """A role that must give a password (over TCP), owning the test's database: (dbname, password)."""
    dbname = pg_url.split("/")[3].split("?")[0]
    password = "Pw-" + new_id()[-10:]
    pg_server.sql(f"CREATE ROLE judge_{dbname} LOGIN PASSWORD '{password}'")
    pg_server.sql(f"ALTER DATABASE {dbname} OWNER TO judge_{dbname}")
    pg_server.sql(f"ALTER SCHEMA public OWNER TO judge_{dbname}", dbname)
    return dbname, password


def test_passwords_come_from_the_url_pgpassword_or_pgpass_and_are_never_shown(
        pg_server, judge, cli, monkeypatch, tmp_path: Path) -> None:
    dbname, password = judge
    user = f"judge_{dbname}"
    with_password = pg_server.tcp_url(dbname, user, password)
    without = pg_server.tcp_url(dbname, user)
    monkeypatch.setenv("PGPASSFILE", str(tmp_path / "none"))
    monkeypatch.delenv("PGPASSWORD", raising=False)
    r = cli("log", "event", "League", "--judge", "Ann", "--db", with_password)
    assert r.exit_code == 0 and password not in r.output
    r = cli(*RULING, "-p", "West=Ruth", "--db", with_password)
    assert r.exit_code == 0, r.output
    outputs = [r.output]
    r = cli("log", "list", "--db", without)  # no password anywhere: refused, in one line, by the server
    assert r.exit_code == 1 and len(r.output.strip().splitlines()) == 1 and "cannot connect" in r.output
    monkeypatch.setenv("PGPASSWORD", password)
    r = cli("log", "list", "--db", without)
    assert r.exit_code == 0 and "1 ruling" in r.output
    monkeypatch.delenv("PGPASSWORD")
    pgpass = tmp_path / "pgpass"
    pgpass.write_text(f"127.0.0.1:{pg_server.port}:{dbname}:{user}:{password}\n")
    pgpass.chmod(0o600)
    monkeypatch.setenv("PGPASSFILE", str(pgpass))  # what libpq reads instead of ~/.pgpass
    for args in (["log", "list"], ["log", "players"], ["log", "export"], ["log", "migrate"], ["log", "event"]):
        r = cli(*args, "--db", without)
        assert r.exit_code == 0, r.output
        outputs.append(r.output)
    wrong = pg_server.tcp_url(dbname, user, "not-" + password)
    r = cli("log", "list", "--db", wrong)
    assert r.exit_code == 1 and len(r.output.strip().splitlines()) == 1 and "password" in r.output
    outputs.append(r.output)
    assert not any(password in text for text in outputs)
    stored = pg_server.sql("SELECT string_agg(r::text, ' ') FROM rulings r", dbname)[0][0]
    assert password not in stored and password not in event_file(db_path(without)).read_text()


def test_no_server_is_one_line_before_any_question(cli, tmp_path: Path) -> None:
    import socket

    export = tmp_path / "ann.jsonl"
    export.write_text(json.dumps({"kind": "ruling", **_ruling(1).as_dict()}) + "\n")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nothing listens here once it is closed
    url = f"postgresql://ann:hunter2-secret@127.0.0.1:{port}/log"
    for args in (RULING, ["log", "list"], ["log", "import", str(export)], ["log", "migrate"]):
        r = cli(*args, "--db", url)
        assert r.exit_code == 1, r.output
        assert r.output.count("\n") == 1 and "cannot connect" in r.output and "hunter2" not in r.output
    assert "cannot connect" in cli(*RULING, "--db", url).output  # and not a ruling printed above it


def test_a_connection_lost_before_the_commit_records_nothing(pg_server, pg_url: str) -> None:
    with RulingsLog.open(pg_url) as log:
        pg_server.sql(f"SELECT pg_terminate_backend({log.db.conn.info.backend_pid})")
        with pytest.raises(StoreError, match="connection .* failed.*nothing was recorded") as caught:
            log.add(_ruling(1))
        assert "\n" not in str(caught.value)
    with RulingsLog.open(pg_url) as log:
        assert log.find() == []


def test_a_connection_lost_in_the_commit_says_the_server_may_have_it(pg_server, pg_url: str, monkeypatch) -> None:
    from referee.store.backend import Unconfirmed

    with RulingsLog.open(pg_url) as log:
        conn = log.db.conn
        plain = conn.execute

        def execute(sql, *args, **kwargs):  # the connection drops just as COMMIT is sent
            if sql == "COMMIT":
                pg_server.sql(f"SELECT pg_terminate_backend({conn.info.backend_pid})")
            return plain(sql, *args, **kwargs)

        monkeypatch.setattr(conn, "execute", execute)
        with pytest.raises(Unconfirmed, match="may or may not have recorded it") as caught:
            log.add(_ruling(1))
        assert "\n" not in str(caught.value)
    with RulingsLog.open(pg_url) as log:
        assert log.find() == []  # here the server rolled it back: never half a ruling


def test_an_import_in_batches_adds_each_ruling_once_and_reports_conflicts(log_at: str) -> None:
    rulings = [_ruling(n) for n in range(1203)]
    changed = Ruling(**{**rulings[700].as_dict(), "printed": "rewritten"})
    with RulingsLog.open(log_at) as log:
        log.add(rulings[5])
        merged = log.merge([*rulings, rulings[9], changed])
        assert (merged.added, merged.conflicts) == (1202, [rulings[700].id])
        assert log.count() == 1203 and log.merge(rulings) == Merged()


def test_a_file_log_never_imports_the_postgres_driver(tmp_path: Path) -> None:
    import subprocess
    import sys

    code = f"""
import sys
from typer.testing import CliRunner
from referee.cli import app
r = CliRunner().invoke(app, {RULING + ["--db", str(tmp_path / "r.db")]!r})
assert r.exit_code == 0, r.output
r = CliRunner().invoke(app, ["log", "list", "--db", {str(tmp_path / "r.db")!r}])
assert r.exit_code == 0 and "1 ruling" in r.output, r.output
print("psycopg" in sys.modules)
"""
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stdout.split()[-1] == "False"


def test_without_the_driver_a_url_says_which_extra_to_install(cli, monkeypatch) -> None:
    from referee.store import postgres

    monkeypatch.setattr(postgres, "psycopg", None)  # as where referee[postgres] is not installed
    r = cli("log", "list", "--db", "postgresql://ann:pw@127.0.0.1/log")
    assert r.exit_code == 1 and r.output.count("\n") == 1 and "referee[postgres]" in r.output


def _players(log: RulingsLog, **filters) -> dict[str, tuple]:
    return {p.name: (p.rulings, p.charged, p.dead, p.paid, p.repeats) for p in log.players(Filters(**filters))}


def test_players_are_added_up_by_the_database_on_either_backend(log_at: str) -> None:
    """`log players` sums the charges written with each ruling: the rulings' own JSON is never
    decoded (made unreadable here), a withdrawn ruling stops counting, an import counts too."""
    made = [_ruling(n, event="Open" if n < 4 else "Cup") for n in range(6)]
    with RulingsLog.open(log_at) as log:
        for r in made:
            log.add(r)
        log.merge([replace(_ruling(10, event="Open"), players={"North": "ann "}, dead=[], payments=[])])  # her name, another spelling
        log.db.execute("UPDATE rulings SET players = 'x', dead = 'x', payments = 'x', points = 'x', outcome = 'x', answers = 'x'")
        assert _players(log) == {"Ann": (7, 0, 0, 0, {}), "Player 0": (2, 2, 2, 50, {"picked-wrong-end": 2}),
                                 "Player 1": (2, 2, 2, 50, {"picked-wrong-end": 2}), "Player 2": (2, 2, 2, 50, {"picked-wrong-end": 2})}
        assert _players(log, event="Cup") == {"Ann": (2, 0, 0, 0, {}), "Player 1": (1, 1, 1, 25, {}), "Player 2": (1, 1, 1, 25, {})}
        assert set(_players(log, player="PLAYER 0")) == {"Ann", "Player 0"}  # the rulings naming her, and who else sat in them
        log.db.execute("UPDATE rulings SET withdrawn_at = '2026-03-02T10:00:00.000Z' WHERE id = ?", (made[0].id,))
        assert _players(log, event="Open")["Player 0"] == (1, 1, 1, 25, {})
        [p0] = [p for p in log.players(Filters(event="Open")) if p.name == "Player 0"]
        assert [e.id for e in p0.against] == [made[3].id] and p0.against[0].situation == "picked-wrong-end"
        assert [p.against for p in log.players(entries=False)] == [[]] * 4  # counts only, when the list is not wanted


def test_an_older_log_gets_its_players_charges_when_opened(log_at: str, monkeypatch) -> None:
    from referee.store import postgres
    from referee.store.rulings import _INSERT, _numbered

    with monkeypatch.context() as m:  # a log written before the charges table
        for module in (store_db, postgres):
            m.setattr(module, "MIGRATIONS", module.MIGRATIONS[:2])
            m.setattr(module, "SCHEMA_VERSION", 2)
        with RulingsLog.open(log_at) as log:
            for n in range(5):
                log.db.execute(_INSERT, _numbered(_ruling(n), n + 1))
            log.db.execute(_INSERT, _numbered(replace(_ruling(9), players={"West": "Dot"}, payments=[], dead=[]), 6))
    with RulingsLog.open(log_at) as log:
        assert _players(log) == {"Ann": (5, 0, 0, 0, {}), "Player 0": (2, 2, 2, 50, {"picked-wrong-end": 2}),
                                 "Player 1": (2, 2, 2, 50, {"picked-wrong-end": 2}), "Player 2": (1, 1, 1, 25, {}),
                                 "Dot": (1, 0, 0, 0, {})}
