"""What a tournament director reads from the log: offences per player, and the latest rulings
with who was dead and who paid."""
from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from clirun import drain
from test_log import DEAD, PAYS, ROOT, cli, records, rule

PLAIN_MAHJONG = ["valid-mahjong", "-a", "mahjong_valid=yes", "-a", "jokerless=no", "-a", "win_how=discard",
                 "-s", "winner=East", "-s", "discarder=South", "-a", "hand_value=25", "--no-input",
                 "-p", "East=Ann", "-p", "South=Sue", "-p", "West=Ruth", "-p", "North=Nan"]
BETTOR_LOSES = ROOT / "scenarios" / "nmjl" / "fifth-player-bettor" / "bet-on-a-loser-self-pick.yaml"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "log" / "rulings.db"


def players(db: Path) -> dict[str, dict]:
    r = cli("log", "players", "--json", "--db", db)
    assert r.code == 0, r.stderr
    return {p["name"]: p for p in r.json()}


def test_paying_a_valid_mahjong_is_no_offence(db: Path) -> None:
    for _ in range(2):
        rule(db, *PLAIN_MAHJONG, ruleset="nmjl")
    by = players(db)
    assert all(p["against"] == [] and p["repeats"] == {} and p["paid"] == 0 for p in by.values()), by
    assert by["Sue"]["rulings"] == 2  # she is in both rulings, ruled against in neither
    assert "REPEAT" not in cli("log", "players", "--db", db).stdout


def test_a_bettor_who_loses_her_bets_is_not_flagged(db: Path) -> None:
    for _ in range(3):
        r = cli("rule", "--answers", BETTOR_LOSES, "--no-input", "--db", db)
        assert r.code == 0, r.stderr
    fiona = players(db)["Fiona"]
    assert (fiona["rulings"], fiona["against"], fiona["repeats"]) == (3, [], {})


def test_a_penalty_paid_alone_and_a_dead_hand_count_against_her(db: Path) -> None:
    rule(db, *DEAD, "-p", "West=Ruth", "-p", "East=Ann")
    rule(db, *PAYS, "-p", "West=Ruth", "-p", "East=Ann")  # the picker pays for the table
    by = players(db)
    assert (len(by["Ruth"]["against"]), by["Ruth"]["dead"], by["Ruth"]["paid"]) == (2, 1, 100)
    assert by["Ann"]["against"] == []  # she collected


def test_a_false_mahjong_counts_against_the_declarer_alone(db: Path) -> None:
    rule(db, "mahjong-in-error", "-a", "others_acted=two", "-a", "intact_dead_before=no", "-a", "exposers=South,West", "-a", "declared_value=40",
         "-s", "declarer=East", "-p", "East=Ann", "-p", "North=Nan", "-p", "South=Sue", "-p", "West=Ruth", ruleset="nmjl")
    by = players(db)
    assert (len(by["Ann"]["against"]), by["Ann"]["paid"]) == (1, 80)
    assert (by["Sue"]["dead"], by["Sue"]["paid"]) == (1, 0)  # dead for throwing in; she paid nothing
    assert by["Nan"]["against"] == []


def test_players_reads_only_what_a_record_needs(db: Path) -> None:
    """A director's 10,000-ruling log: `log players` decodes who sat where, who was dead and who
    paid, never the answers, questions, printed ruling or (unless it settled a Mah Jongg) the
    whole ruling document. Columns it must not read are made unreadable here."""
    import sqlite3

    from referee.store.rulings import Filters, RulingsLog

    rule(db, *DEAD, "-p", "West=Ruth", "-p", "East=Ann", "--event", "Spring Open")
    rule(db, *PLAIN_MAHJONG, "--event", "Spring Open", ruleset="nmjl")
    conn = sqlite3.connect(db)
    with conn:
        conn.execute("UPDATE rulings SET answers = 'x', seats = 'x', questions = 'x' WHERE 1")
        conn.execute("UPDATE rulings SET outcome = 'x' WHERE ruling_id != 'VMJ-1'")
    conn.close()
    with RulingsLog.open(db) as log:
        by = {p.name: p for p in log.players(Filters(event="Spring Open"))}
        assert [(r.situation, r.event) for r in by["Ruth"].against] == [("picked-wrong-end", "Spring Open")]
        assert by["Ruth"].dead == 1 and by["Sue"].against == [] and by["Sue"].rulings == 1
        assert {p.name for p in log.players(Filters(player="ruth"))} == {"Ruth", "Ann", "Sue", "Nan"}
        assert log.players(Filters(player="Zed")) == []


# ---------------------------------------------------------------------------
# log list


def test_list_rows_say_who_was_dead_and_who_paid_in_seat_order(db: Path) -> None:
    rule(db, "mahjong-in-error", "-a", "others_acted=two", "-a", "intact_dead_before=no", "-a", "exposers=West,South", "-a", "declared_value=40",
         "-s", "declarer=East", "-p", "North=Nan", "-p", "West=Ruth", "-p", "East=Ann", "-p", "South=Sue", ruleset="nmjl")
    rule(db, *PLAIN_MAHJONG, ruleset="nmjl")
    text = " ".join(cli("log", "list", "--db", db).stdout.split(" " * 10))  # continuation lines joined
    first, second = text.replace("\n ", " ").split("VMJ-1")
    assert "dead: East (Ann), South (Sue), West (Ruth)" in first
    assert "East (Ann) 80 → North (Nan)" in first
    assert "players: East Ann, South Sue, West Ruth, North Nan" in first  # E S W N, not the order typed
    assert "South (Sue) 50, West (Ruth) 25, North (Nan) 25 → East (Ann)" in second
    assert "dead" not in second


def test_list_last_n_shows_the_newest_and_says_how_many_there_are(db: Path) -> None:
    for table in "123":
        rule(db, *DEAD, "--table", table)
    assert [r["table"] for r in records(db, "--last", "2")] == ["2", "3"]
    assert [r["table"] for r in records(db, "--last", "0")] == ["1", "2", "3"]
    text = cli("log", "list", "--last", "1", "--db", db).stdout
    assert "table 3" in text and "table 2" not in text
    assert "1 of 3" in text


def test_list_at_a_terminal_shows_the_newest_screenful_by_default(db: Path) -> None:
    for table in range(25):
        rule(db, *DEAD, "--table", str(table))
    main, child = pty.openpty()
    env = {**os.environ, "COLUMNS": "100", "REFEREE_NO_CACHE": "1"}
    p = subprocess.run([sys.executable, "-m", "referee", "log", "list", "--db", str(db)], stdout=child,
                       stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, env=env, timeout=120)
    os.close(child)
    text = drain(main)
    assert p.returncode == 0, p.stderr
    assert "table 24" in text and "table 4 " not in text and "table 5" in text  # the newest 20
    assert "20 of 25" in text
    piped = cli("log", "list", "--db", db).stdout  # not a terminal: everything
    assert "table 0 " in piped or "table 0\n" in piped


def test_an_empty_log_is_an_empty_list(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REFEREE_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("HOME", str(tmp_path))
    r = cli("log", "list", "--json")
    assert (r.code, r.json()) == (0, [])
    r = cli("log", "list")
    assert r.code == 0 and "No rulings recorded yet" in r.stdout
    assert not (tmp_path / "data" / "referee" / "rulings.db").exists()  # listing makes no log


# ---------------------------------------------------------------------------
# recording into a big log


def _read_bytes() -> int:
    for line in Path("/proc/self/io").read_text().splitlines():
        if line.startswith("rchar:"):
            return int(line.split()[1])
    raise AssertionError("no rchar in /proc/self/io")


@pytest.mark.skipif(not Path("/proc/self/io").is_file(), reason="counts bytes read through Linux's /proc/self/io")
def test_checking_the_log_before_a_ruling_does_not_read_the_whole_file(tmp_path: Path) -> None:
    from referee.store.record import Ruling, new_id
    from referee.store.rulings import RulingsLog, check

    db = tmp_path / "big.db"
    text = "The picker's hand is dead; she pays the winner four times the hand value. " * 40
    rulings = [Ruling(id=new_id(1_700_000_000_000 + i), recorded_at=f"2026-11-{1 + i // 1000:02d}T10:00:{i % 60:02d}.{i % 1000:03d}Z",
                      ruleset_id="nmjl", ruleset_version="1", ruleset_hash="0" * 12, situation="picked-wrong-end",
                      ruled_in="picked-wrong-end", ruling_id="WE-1", game="continues", table=str(i % 40),
                      dead=["West"], printed=text, outcome={"text": text}) for i in range(3000)]
    with RulingsLog.open(db) as log:
        log.merge(rulings)
        log.db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    size = db.stat().st_size
    assert size > 5_000_000
    before = _read_bytes()
    check(db)
    read = _read_bytes() - before
    assert read < size / 20, (read, size)  # a handful of pages, not the file


# ---------------------------------------------------------------------------
# what the log keeps and what leaves it


def test_the_log_keeps_the_ruling_not_the_screens_line_breaks(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from referee.cli import app

    kept = []
    for columns in ("40", "200"):
        db = tmp_path / f"{columns}.db"
        r = CliRunner().invoke(app, ["rule", "mahjong-in-error", "-a", "others_acted=two", "-a", "intact_dead_before=no", "-a", "exposers=South,West",
                                     "-a", "declared_value=40", "-s", "declarer=East", "--no-input", "--db", str(db)],
                               env={"COLUMNS": columns})
        assert r.exit_code == 0, r.output
        [rec] = records(db)
        kept.append(rec["printed"])
    assert kept[0] == kept[1]  # the same ruling, whatever screen it was given on
    ruling = records(db)[0]["outcome"]["ruling"]["text"]
    assert ruling in kept[0].splitlines()  # the ruling's words on one line, not broken at 40 columns


def test_an_export_carries_no_host_name_or_local_path_unless_asked(db: Path, tmp_path: Path) -> None:
    import platform

    rule(db, *DEAD, "--table", "1", "-p", "West=Ruth")
    [rec] = records(db)
    assert rec["machine"] and rec["ruleset_source"].startswith("/")  # kept in the local log
    for fmt in ("csv", "json", "jsonl"):
        text = cli("log", "export", "-f", fmt, "--db", db).stdout
        assert rec["ruleset_source"] not in text and str(ROOT) not in text, fmt
        if len(platform.node()) > 3:
            assert platform.node() not in text, fmt
        asked = cli("log", "export", "-f", fmt, "--with-origin", "--db", db).stdout
        assert rec["ruleset_source"] in asked.replace("\\\\", "\\")


def test_an_export_without_its_origin_imports_back_as_the_same_rulings(db: Path, tmp_path: Path) -> None:
    rule(db, *DEAD, "--table", "1")
    out = tmp_path / "ann.jsonl"
    assert cli("log", "export", "-o", out, "--db", db).code == 0
    r = cli("log", "import", out, "--db", db)
    assert r.code == 0 and "1 ruling, 0 new" in r.stdout and "conflict" not in r.stdout + r.stderr


def test_show_gives_a_choice_in_its_words(db: Path) -> None:
    rule(db, "mahjong-in-error", "-a", "others_acted=two", "-a", "intact_dead_before=no", "-a", "exposers=South,West", "-a", "declared_value=40",
         "-s", "declarer=East", ruleset="nmjl")
    [rec] = records(db)
    shown = " ".join(cli("log", "show", rec["id"], "--db", db).stdout.split())
    assert "before the hand was checked? Two other players exposed tiles or threw in their hands (the wall is intact)" in shown
    assert "intact already dead before the false call? no" in shown
    assert rec["questions"][0]["answer"] == "two"  # the record keeps the value; --json shows it as stored
