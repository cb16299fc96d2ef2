"""Logs, exports and URLs from a stranger fail cleanly, and both backends agree (issue 26 §3).

Each test names the failure it guards against: a traceback, a wrong exit, a message that blames
the wrong thing, a file left half written.
"""
from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from referee.store.rulings import RulingsLog

ROOT = Path(__file__).resolve().parent.parent
HOUSE = ROOT / "tests" / "rulesets" / "house"
DEAD = ["rule", "picked-wrong-end", "-a", "discard_claimed=no", "-s", "picker=West", "--no-input", "--ruleset", str(HOUSE)]


def _one_line(r) -> str:
    assert "Traceback" not in r.output, r.output
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    return lines[0]


@pytest.mark.parametrize("url,shown", [
    ("postgresql://", "postgresql://"),  # an IndexError in store/context.py
    ("postgresql://ann:s3cret@[db/rulings", "postgresql://ann@[db/rulings"),  # ValueError: Invalid IPv6 URL
    ("postgresql://ann:s3cret@db:port/rulings", "postgresql://ann@db:port/rulings"),
])
def test_a_url_that_cannot_be_used_is_one_line_naming_it_without_its_password(cli, monkeypatch, url: str, shown: str) -> None:
    for args in (["log", "list", "--db", url], [*DEAD, "--db", url]):
        r = cli(*args)
        assert r.exit_code != 0
        line = _one_line(r)
        assert shown in line and "s3cret" not in line
    monkeypatch.setenv("REFEREE_DB", url)  # in the environment it reached every command
    r = cli("log", "players")
    assert r.exit_code != 0 and shown in _one_line(r)
    r = cli("log", "event")  # no event set for it: says so, no traceback
    assert "Traceback" not in r.output and shown in r.output


@pytest.fixture
def export(cli, tmp_path: Path) -> Path:
    """A real export: two rulings and their rules, as 'log export' writes them."""
    db = tmp_path / "laptop.db"
    for table in ("4", "5"):
        assert cli(*DEAD, "--table", table, "--player", "West=Ruth", "--db", str(db)).exit_code == 0
    out = tmp_path / "laptop.jsonl"
    assert cli("log", "export", "--db", str(db), "-o", str(out)).exit_code == 0
    return out


def _edited(export: Path, change) -> Path:
    lines = export.read_text().splitlines()
    record = json.loads(lines[1])
    change(record)
    lines[1] = json.dumps(record, allow_nan=True)
    export.write_text("\n".join(lines) + "\n")
    return export


def _answer(value):
    def change(record):
        record["answers"]["hand_value"] = value
    return change


def _award(points):
    def change(record):
        record["points"] = [{"to": "West", "points": points}]
    return change


@pytest.mark.parametrize("change,says", [
    (_answer(math.nan), "nan"),
    (_answer(math.inf), "inf"),
    (_answer(-math.inf), "-inf"),
    (_award(int("9" * 4000)), "beyond any table's reach"),  # 'log players' printed a 40 KB table
    (lambda rec: rec.__setitem__("judge", "Ann\x00Bea"), "NUL"),  # SQLite stored it; PostgreSQL refused the file
    (lambda rec: rec["players"].__setitem__("West", "Ruth\ud800"), "lone surrogate"),
    (lambda rec: rec.__setitem__("kind", "verdict"), "newer referee"),  # was imported as a ruling, exit 0
    (lambda rec: rec.__setitem__("judge", "Ann" * 1000), "at most 200 characters"),  # PostgreSQL's index refused it
])
def test_import_refuses_what_no_log_can_hold_naming_the_line(cli, log_at: str, export: Path, change, says: str) -> None:
    _edited(export, change)
    r = cli("log", "import", str(export), "--db", log_at)
    assert r.exit_code == 1
    line = _one_line(r)
    assert f"{export}:2" in line and says in line, line
    with RulingsLog.open(log_at) as log:
        assert log.find() == []  # the good line before it was not added either


def test_an_export_is_strict_json_even_of_a_number_an_older_import_let_in(cli, tmp_path: Path, export: Path) -> None:
    db = tmp_path / "old.db"
    assert cli("log", "import", str(export), "--db", str(db)).exit_code == 0
    with RulingsLog.open(db) as log:  # as an older referee's import stored it
        log.db.execute("UPDATE rulings SET payments = ? WHERE table_no = '4'",
                       ['[{"amount": NaN, "formula": null, "from": "West", "to": "East"}]'])

    def strict(constant: str) -> None:
        raise ValueError(f"not strict JSON: {constant}")

    for fmt in ("jsonl", "json"):
        out = tmp_path / f"again.{fmt}"
        r = cli("log", "export", "--db", str(db), "-o", str(out))
        assert r.exit_code == 0 and "written as null" in r.stderr
        text = out.read_text()
        if fmt == "jsonl":
            [json.loads(line, parse_constant=strict) for line in text.splitlines()]
        else:
            json.loads(text, parse_constant=strict)


def test_a_symlink_loop_is_called_a_loop(cli, tmp_path: Path) -> None:
    loop = tmp_path / "loop.jsonl"
    loop.symlink_to(loop)
    r = cli("log", "import", str(loop))
    assert r.exit_code != 0 and "symlink loop" in _one_line(r)


def _limited(args: list[str], limit: int, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The command with files limited to `limit` bytes: a write past it fails (EFBIG) as on a full disk."""
    import resource

    def cap() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a failed write, not a killed process
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.run([sys.executable, "-m", "referee", *args], capture_output=True, text=True, cwd=ROOT,
                          preexec_fn=cap, env={**os.environ, "COLUMNS": "200"}, timeout=120)


def _many(db: Path, count: int) -> None:
    """`count` rulings in the log, copies of the first with ids and tables of their own."""
    from dataclasses import replace

    from referee.store.record import new_id

    with RulingsLog.open(db) as log:
        first = log.find()[0]
        log.merge([replace(first, id=new_id(), table=str(n)) for n in range(count)])


@pytest.mark.parametrize("what", ["export", "event", "handout"])
def test_a_full_disk_keeps_the_good_file_and_leaves_no_temporary_one(cli, tmp_path: Path, export: Path, what: str) -> None:
    db = tmp_path / "laptop.db"
    good = "the good file\n"
    if what == "export":  # past the log's own 32 KB index file, which reading it needs
        _many(db, 100)
        target, args, limit = tmp_path / "out.jsonl", ["log", "export", "--db", str(db), "-o", str(tmp_path / "out.jsonl")], 100_000
    elif what == "event":
        target, args, limit = Path(f"{db}.event.json"), ["log", "event", "x" * 300, "--db", str(db)], 100
        good = '{"event": "Old"}\n'
    else:
        target, args, limit = tmp_path / "booklet.html", ["handout", "-r", str(HOUSE), "-o", str(tmp_path / "booklet.html")], 20_000
    target.write_text(good)
    r = _limited(args, limit, tmp_path)
    assert r.returncode == 1, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and f"cannot write {target}" in lines[0], r.stderr
    assert target.read_text() == good
    assert not [p for p in target.parent.iterdir() if p.name.endswith(".tmp")]


def test_the_same_ruling_again_at_the_same_table_asks_first(cli, tmp_path: Path) -> None:
    db = str(tmp_path / "rulings.db")
    first = cli(*DEAD, "--table", "4", "--round", "2", "--db", db)
    assert first.exit_code == 0
    again = cli(*DEAD, "--table", "4", "--round", "2", "--db", db)
    assert again.exit_code == 2
    line = _one_line(again)
    assert "already recorded at" in line and "as #1" in line and "--again" in line
    assert "Ruling" in again.stdout  # the ruling is still shown
    assert cli(*DEAD, "--table", "5", "--round", "2", "--db", db).exit_code == 0  # another table is another ruling
    assert cli(*DEAD, "--table", "4", "--round", "2", "--db", db, "--again").exit_code == 0
    with RulingsLog.open(db) as log:
        assert [r.table for r in log.find()] == ["4", "5", "4"]


def test_replay_never_loads_a_folder_a_snapshot_names_but_does_not_hold(cli, tmp_path: Path, export: Path) -> None:
    import base64
    import zlib

    from referee.store.snapshot import SnapshotError, unpack, verify

    lines = export.read_text().splitlines()
    snap = json.loads(lines[-1])
    assert snap["kind"] == "snapshot"
    doc = json.loads(zlib.decompress(base64.b64decode(snap["files"])))
    level = doc["levels"][0]
    ruleset = base64.b64decode(level["files"]["ruleset.yaml"]).decode()
    level["files"]["ruleset.yaml"] = base64.b64encode((f"extends: {tmp_path / 'elsewhere'}\n" + ruleset).encode()).decode()
    blob = zlib.compress(json.dumps(doc).encode())
    with pytest.raises(SnapshotError, match="does not hold"):
        unpack(blob)
    with pytest.raises(SnapshotError, match="does not hold"):
        verify((snap["hash"], snap["ruleset_id"], snap["version"], blob))


def test_a_role_that_may_not_write_is_one_line_and_told_before_the_questions(cli, pg_server, pg_url: str, export: Path) -> None:
    assert cli("log", "migrate", "--db", pg_url).exit_code == 0
    dbname = pg_url.split("/")[3].split("?")[0]
    pg_server.sql("DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'reader') THEN CREATE ROLE reader LOGIN; END IF; END $$")
    pg_server.sql("GRANT SELECT ON ALL TABLES IN SCHEMA public TO reader", dbname)
    reader = pg_server.url(dbname, user="reader")
    r = cli("log", "import", str(export), "--db", reader)
    assert r.exit_code == 1
    line = _one_line(r)  # was two: psycopg's "pipeline aborted" after the real reason
    assert "permission denied" in line and "pipeline" not in line.lower()
    asked = cli(*DEAD[:-3], *DEAD[-2:], "--table", "4", "--db", reader, input="no\n")  # at the prompt, before any question
    assert asked.exit_code == 1
    line = _one_line(asked)
    assert "may not add to the 'rulings' table" in line and "NOT recorded" not in line
    assert "Ruling" not in asked.stdout  # refused before the ruling, not after it


def _every_text() -> list[str]:
    """Every character a log can store (all of Unicode but NUL and the surrogates), in runs of 2,048."""
    chars = [chr(c) for c in range(1, 0x110000) if not 0xD800 <= c <= 0xDFFF]
    return [*("".join(chars[i:i + 2048]) for i in range(0, len(chars), 2048)),
            "\r\n\u2028\u2029\ufeff\u202e\x1b[2J\x7f\x85\x9b", "'=cmd|' /C calc'!A0", "\\\"\\u0000\""]


@pytest.mark.slow  # PostgreSQL at scale
def test_a_file_log_holding_every_storable_text_moves_into_postgresql_whole(cli, pg_url: str, tmp_path: Path) -> None:
    from referee.store.record import FIELDS, new_id

    texts = _every_text()
    source = tmp_path / "every.jsonl"
    with source.open("w", encoding="utf-8") as out:
        for n, text in enumerate(texts):
            record = {f: None for f in FIELDS} | {
                "id": new_id(1_770_000_000_000 + n), "recorded_at": f"2026-03-01T10:{n // 60 % 60:02d}:{n % 60:02d}.000Z",
                "ruleset_id": "house", "ruleset_version": text[:50], "ruleset_hash": "339fde170c06",
                "situation": "picked-wrong-end", "ruled_in": "picked-wrong-end", "ruling_id": text[-20:], "game": "continues",
                "event": text[:200], "round": text[:40], "table": text[3:43], "judge": text[-200:], "machine": text[:64],
                "ruleset_source": text, "answers": {"note": text, "value": n}, "seats": {"picker": "West"},
                "players": {"West": text}, "questions": [{"answer": text[:9], "fact": "note", "question": text, "situation": "x"}],
                "dead": ["West"], "payments": [{"amount": 25, "formula": text, "from": "West", "to": "East"}],
                "points": [], "outcome": {"text": text}, "printed": text}
            out.write(json.dumps({"kind": "ruling", **record}) + "\n")
    laptop = tmp_path / "laptop.db"
    assert cli("log", "import", str(source), "--db", str(laptop)).exit_code == 0
    moved = tmp_path / "moved.jsonl"
    assert cli("log", "export", "--db", str(laptop), "--with-origin", "-o", str(moved)).exit_code == 0
    r = cli("log", "import", str(moved), "--db", pg_url)
    assert r.exit_code == 0 and f"{len(texts)} rulings, {len(texts)} new" in r.stdout, r.output
    back = tmp_path / "back.jsonl"
    assert cli("log", "export", "--db", pg_url, "--with-origin", "-o", str(back)).exit_code == 0
    assert back.read_bytes() == moved.read_bytes()  # nothing lost, nothing changed, on the way in or out
    assert sorted(moved.read_text(encoding="utf-8").splitlines()) == sorted(source.read_text(encoding="utf-8").splitlines())


def test_an_export_changed_between_its_check_and_its_import_adds_nothing(export: Path) -> None:
    """The import checks every line first (the log not yet held), then reads the file again to
    insert: a file swapped in between is caught by its digest, not inserted unchecked."""
    from referee.errors import LoadError
    from referee.store.transfer import Export

    read = Export(export)
    read.check()
    assert read.count == 2
    lines = export.read_text().splitlines()
    export.write_text("\n".join([lines[0].replace('"Ruth"', '"Bea"'), *lines[1:]]) + "\n")
    with pytest.raises(LoadError, match="changed while it was being imported"):
        list(read.rulings())
