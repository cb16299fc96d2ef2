"""An export from a stranger's laptop cannot harm the log (issue 19).

Each crafted file below is one way a hostile export was seen to do harm. For every one, and
for mutations of a real export, `log import` either refuses the file in one line (exit 1 or 2)
adding nothing, or adds exactly the new rulings it holds; it never writes outside the log,
never changes a ruling already there, and every later command still works.
"""
from __future__ import annotations

import base64
import copy
import json
import os
import sqlite3
import subprocess
import sys
import zlib
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from referee.cli import app
from referee.store import snapshot as snapshots
from referee.store.snapshot import Level, digest

HOUSE = Path(__file__).resolve().parent / "rulesets" / "house"
DEAD = ["picked-wrong-end", "-a", "discard_claimed=no", "-s", "picker=West", "--no-input"]
PAYS = ["picked-wrong-end", "-a", "discard_claimed=yes", "-a", "mahjong_valid=yes", "-s", "picker=West",
        "-s", "winner=East", "-a", "hand_value=25", "--no-input"]


def cli(*args: str | Path) -> Any:
    result = CliRunner().invoke(app, [str(a) for a in args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert "Traceback" not in result.output, result.output
    return result


def records(db: Path) -> list[dict[str, Any]]:
    r = cli("log", "list", "--json", "--db", db)
    assert r.exit_code == 0, r.stderr
    return json.loads(r.stdout)


class Scene:
    """A judge's log with two rulings (one withdrawn), a real export of another judge's log, and
    a folder beside it that nothing may write into."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.db = root / "mine" / "rulings.db"
        self.outside = root / "outside"
        self.outside.mkdir()
        for args in (DEAD + ["--table", "1", "--player", "West=Ruth"], PAYS + ["--table", "2", "--player", "East=Zoë"]):
            assert cli("rule", *args, "--ruleset", HOUSE, "--db", self.db).exit_code == 0
        mine = records(self.db)
        cli("log", "withdraw", mine[1]["id"], "--reason", "misread", "--by", "Ann", "--db", self.db)
        theirs = root / "theirs.db"
        cli("rule", *DEAD, "--ruleset", HOUSE, "--db", theirs, "--table", "9", "--judge", "Bob", "--player", "West=Mae")
        self.export = root / "bob.jsonl"
        assert cli("log", "export", "-o", self.export, "--db", theirs).exit_code == 0
        self.lines = [json.loads(line) for line in self.export.read_text().splitlines()]
        self.before = records(self.db)

    def write(self, lines: list[Any], name: str = "crafted.jsonl") -> Path:
        path = self.root / name
        path.write_text("".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines))
        return path

    def ruling(self, **changes: Any) -> dict[str, Any]:
        return {**copy.deepcopy(self.lines[0]), **changes}

    def files(self) -> set[str]:
        """Every file under the scene except the log's own (the database and its journal)."""
        return {str(p.relative_to(self.root)) for p in self.root.rglob("*")
                if p.is_file() and not p.name.startswith("rulings.db")}

    def still_works(self) -> list[dict[str, Any]]:
        """Every reading command on the log runs and exits cleanly; the judge's rulings are as they were."""
        now = records(self.db)
        by_id = {r["id"]: r for r in now}
        for mine in self.before:
            assert by_id[mine["id"]] == mine  # never changed, never withdrawn by an import
        for args in (["log", "list"], ["log", "players"], ["log", "players", "--json"], ["log", "export", "-f", "csv"],
                     ["log", "export", "-f", "json"]):
            r = cli(*args, "--db", self.db)
            assert r.exit_code == 0, (args, r.output)
        for rec in now:
            r = cli("log", "show", rec["id"], "--db", self.db)
            assert r.exit_code == 0, r.output
        return now


@pytest.fixture
def scene(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Scene:
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)  # a relative path in a crafted file would land here
    return Scene(tmp_path)


def refused(scene: Scene, path: Path, line: int | None = 1, code: int = 1) -> str:
    """The import is refused in one line naming the place; nothing is added or written."""
    files = scene.files()
    r = cli("log", "import", path, "--db", scene.db)
    assert r.exit_code == code, r.output
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    if line is not None:
        assert f"{path.name}:{line}:" in r.stderr, r.stderr
    assert scene.files() == files
    assert scene.still_works() == scene.before
    return r.stderr


def packed(levels: list[dict[str, Any]]) -> bytes:
    return zlib.compress(json.dumps({"levels": levels}).encode())


def stored(levels: list[dict[str, Any]], hash: str | None = None) -> dict[str, Any]:
    """A stored-rules line whose hash is right for its files, so only the names can be refused."""
    if hash is None:
        real = [Level(lv["folder"], {k: base64.b64decode(v) for k, v in lv["files"].items()}) for lv in levels]
        hash = digest(real)[:12]
    return {"kind": "snapshot", "hash": hash, "ruleset_id": "house", "version": "7.1",
            "files": base64.b64encode(packed(levels)).decode()}


def b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


HOUSE_FILES = {"ruleset.yaml": b64((HOUSE / "ruleset.yaml").read_text())}


# ---------------------------------------------------------------------------
# 1. stored rules that name paths outside the replay folder


ESCAPES = [
    [{"folder": "../../mine", "files": HOUSE_FILES}],
    [{"folder": "house", "files": {**HOUSE_FILES, "../rulings.db": b64("boom")}}],
    [{"folder": "house", "files": {**HOUSE_FILES, "situations/../../../x.pth": b64("import os")}}],
    [{"folder": "/tmp", "files": HOUSE_FILES}],
    [{"folder": "house", "files": {**HOUSE_FILES, "/etc/evil.pth": b64("import os")}}],
    [{"folder": "..", "files": HOUSE_FILES}],
    [{"folder": "house", "files": {**HOUSE_FILES, "situations\\..\\..\\x.yaml": b64("x")}}],
    [{"folder": "house", "files": HOUSE_FILES}, {"folder": "house", "files": HOUSE_FILES}],
]


@pytest.mark.parametrize("levels", ESCAPES, ids=range(len(ESCAPES)))
def test_stored_rules_naming_paths_outside_are_refused_on_import(scene: Scene, levels: list[dict[str, Any]]) -> None:
    crafted = scene.write([scene.lines[0], stored(levels)])
    assert "refused" in refused(scene, crafted, line=2)


def test_stored_rules_naming_paths_outside_are_refused_again_on_replay(scene: Scene) -> None:
    """A log that got such a copy some other way (an older referee) still never writes outside."""
    rid = scene.before[0]["id"]
    levels = [{"folder": "house", "files": {**HOUSE_FILES, "../../../../../" + str(scene.outside / "x.pth").lstrip("/"): b64("x")}}]
    conn = sqlite3.connect(scene.db)
    (hash,) = conn.execute("SELECT ruleset_hash FROM rulings WHERE id = ?", (rid,)).fetchone()
    conn.execute("UPDATE snapshots SET files = ? WHERE hash = ?", (packed(levels), hash))
    conn.commit()
    conn.close()
    files = scene.files()
    r = cli("log", "replay", rid, "--db", scene.db)
    assert r.exit_code == 0 and "cannot replay" in r.stdout and "may be restored" in r.stdout, r.output
    assert scene.files() == files


def test_restore_writes_only_inside_its_folder(tmp_path: Path) -> None:
    for levels in ESCAPES:
        snap = ("0" * 12, "house", "1", packed(levels))
        with pytest.raises(snapshots.SnapshotError):
            snapshots.restore(snap, tmp_path / "into")
    assert not any(p.is_file() for p in tmp_path.rglob("*"))


def test_stored_rules_that_do_not_hash_to_their_hash_are_refused(scene: Scene) -> None:
    """Else an import could put its own rules in place of those a ruling here was made under."""
    crafted = scene.write([scene.lines[0], stored([{"folder": "house", "files": HOUSE_FILES}], hash=scene.before[0]["ruleset_hash"])])
    assert "hash" in refused(scene, crafted, line=2)


# ---------------------------------------------------------------------------
# 2. a record that is not a ruling as the log writes one


GARBLED = {
    "players as a list": {"players": ["Ruth"]},
    "a player's name as a number": {"players": {"West": 3}},
    "dead as text": {"dead": "West"},
    "a payment in words": {"payments": [{"from": "West", "to": "East", "amount": "lots", "formula": "x"}]},
    "a payment missing its payee": {"payments": [{"from": "West", "amount": 5, "formula": "x"}]},
    "points as a dict": {"points": {"to": "West"}},
    "a question without its text": {"questions": [{"fact": "x", "answer": "no", "situation": "s"}]},
    "an answer that is an object": {"answers": {"picker": {"seat": "West"}}},
    "a seat that is a number": {"seats": {"picker": 2}},
    "an id that is a path": {"id": "../../../etc/passwd"},
    "a time that is not one": {"recorded_at": "yesterday"},
    "a withdrawal at no time": {"withdrawn_at": "soon"},
    "a ruleset id that is a path": {"ruleset_id": "../../tmp/evil"},
    "an event that is a list": {"event": ["Spring"]},
    "printed as null": {"printed": None},
    "outcome as text": {"outcome": "ruled"},
    "a field from nowhere": {"evil": 1},
}


@pytest.mark.parametrize("change", GARBLED.values(), ids=GARBLED.keys())
def test_a_garbled_ruling_refuses_the_file_naming_its_line(scene: Scene, change: dict[str, Any]) -> None:
    crafted = scene.write([scene.lines[0] | {"id": "01" + "a" * 24}, scene.ruling(**change)])
    refused(scene, crafted, line=2)


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_a_garbled_ruling_in_json_or_csv_names_its_line(scene: Scene, fmt: str) -> None:
    path = scene.root / f"bob.{fmt}"
    cli("log", "export", "-o", path, "--db", scene.root / "theirs.db")
    if fmt == "json":
        doc = json.loads(path.read_text())
        doc["rulings"][0]["players"] = ["Ruth"]
        path.write_text(json.dumps(doc, indent=2))
        line = json.dumps(doc, indent=2).splitlines().index('    {') + 1
    else:
        path.write_text(path.read_text().replace('{""West"": ""Mae""}', '[""Mae""]'))
        line = 2
    refused(scene, path, line=line)


def test_deep_nesting_inside_a_ruling_is_refused(scene: Scene) -> None:
    deep: Any = "x"
    for _ in range(200):
        deep = {"a": deep}
    refused(scene, scene.write([scene.ruling(outcome=deep)]), line=1)


# ---------------------------------------------------------------------------
# 3. an existing id with other content is a conflict, not an edit


def test_an_import_cannot_withdraw_or_rewrite_a_ruling_here(scene: Scene) -> None:
    mine = scene.before[0]
    forged = {**mine, "kind": "ruling", "withdrawn_at": "2026-11-24T10:00:00.000Z", "withdrawn_by": "Mallory",
              "withdrawn_reason": "gone", "dead": [], "printed": "nothing happened", "players": {"West": "Mallory"}}
    fresh = scene.ruling(id="01" + "b" * 24)
    crafted = scene.write([forged, fresh])
    files = scene.files()
    r = cli("log", "import", crafted, "--db", scene.db)
    assert r.exit_code == 1 and mine["id"] in r.stderr and "1 new, 1 in conflict" in r.stdout, r.output
    assert scene.files() == files
    after = scene.still_works()
    assert [x["id"] for x in after if x["id"] not in {m["id"] for m in scene.before}] == [fresh["id"]]


def test_a_withdrawal_of_the_same_ruling_made_elsewhere_is_carried_over(scene: Scene) -> None:
    mine = scene.before[0]
    elsewhere = {**mine, "kind": "ruling", "withdrawn_at": "2026-11-24T10:00:00.000Z", "withdrawn_by": "Ann",
                 "withdrawn_reason": "wrong seat"}
    r = cli("log", "import", scene.write([elsewhere]), "--db", scene.db)
    assert r.exit_code == 0 and "0 new, 1 newly withdrawn" in r.stdout, r.output
    assert [x["withdrawn_by"] for x in records(scene.db) if x["id"] == mine["id"]] == ["Ann"]


def test_one_id_twice_in_a_file_with_different_content_is_a_conflict(scene: Scene) -> None:
    one = scene.ruling(id="01" + "c" * 24)
    two = {**one, "dead": []}
    r = cli("log", "import", scene.write([one, two]), "--db", scene.db)
    assert r.exit_code == 1 and "1 new, 1 in conflict" in r.stdout
    assert [x["dead"] for x in records(scene.db) if x["id"] == one["id"]] == [one["dead"]]


# ---------------------------------------------------------------------------
# 4. a snapshot that unpacks far beyond its size


def test_a_zip_bomb_is_refused_on_import_and_on_replay(scene: Scene) -> None:
    size = snapshots.MAX_UNPACKED + 1024
    bomb = zlib.compress(b'{"levels": [{"folder": "house", "files": {"ruleset.yaml": "' + b"A" * size + b'"}}]}', 9)
    assert len(bomb) < 100_000
    line = {"kind": "snapshot", "hash": "a" * 12, "ruleset_id": "house", "version": "1", "files": base64.b64encode(bomb).decode()}
    assert "MB" in refused(scene, scene.write([scene.lines[0], line]), line=2)
    rid = scene.before[0]["id"]
    conn = sqlite3.connect(scene.db)
    conn.execute("UPDATE snapshots SET files = ?", (bomb,))
    conn.commit()
    conn.close()
    r = cli("log", "replay", rid, "--db", scene.db)
    assert r.exit_code == 0 and "cannot replay" in r.stdout and "MB" in r.stdout, r.output


def test_too_many_files_are_refused(scene: Scene) -> None:
    files = {**HOUSE_FILES, **{f"situations/s{i}.yaml": b64("x") for i in range(snapshots.MAX_FILES + 1)}}
    assert "files" in refused(scene, scene.write([stored([{"folder": "house", "files": files}])]), line=1)


# ---------------------------------------------------------------------------
# 5. malformed files: each one line, exit 1, never a hang


def test_json_nested_100000_deep_is_one_line(scene: Scene) -> None:
    refused(scene, scene.write(['{"a": ' * 100_000 + "1" + "}" * 100_000]), line=1)
    doc = '{"format": "referee-log", "rulings": [' + "[" * 100_000 + "]" * 100_000 + "]}"
    path = scene.root / "deep.json"
    path.write_text(doc)
    refused(scene, path, line=None)


@pytest.mark.parametrize("value", [3, "x", {"a": 1}, None])
def test_snapshots_or_rulings_not_a_list_is_one_line(scene: Scene, value: Any) -> None:
    for key in ("snapshots", "rulings"):
        path = scene.root / "odd.json"
        path.write_text(json.dumps({"format": "referee-log", "rulings": [], "snapshots": [], key: value}))
        assert key in refused(scene, path, line=None)


def test_a_huge_csv_cell_is_one_line(scene: Scene) -> None:
    path = scene.root / "big.csv"
    cli("log", "export", "-o", path, "--db", scene.root / "theirs.db")
    header, row = path.read_text().splitlines()[:2]
    path.write_text(header + "\n" + row.replace("Mae", "M" * (5 * 1024 * 1024)) + "\n")
    refused(scene, path, line=None)


def test_a_long_printed_ruling_in_csv_is_not_refused(scene: Scene) -> None:
    """csv's own cell limit is 128 KB; a long but honest ruling still imports."""
    path = scene.root / "long.csv"
    cli("log", "export", "-o", path, "--db", scene.root / "theirs.db")
    text = path.read_text()
    rec = records(scene.root / "theirs.db")[0]
    path.write_text(text.replace(rec["recorded_at"], rec["recorded_at"], 1).replace("Mae", "Mae" + "e" * 200_000, 1))
    r = cli("log", "import", path, "--db", scene.db)
    assert r.exit_code == 0 and "1 new" in r.stdout, r.output


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs")
def test_importing_a_fifo_does_not_hang(scene: Scene) -> None:
    fifo = scene.root / "pipe.jsonl"
    os.mkfifo(fifo)
    env = {**os.environ, "REFEREE_DB": str(scene.db)}
    p = subprocess.run([sys.executable, "-m", "referee", "log", "import", str(fifo)], capture_output=True, text=True,
                       timeout=60, env=env)
    assert p.returncode in (1, 2) and len(p.stderr.strip().splitlines()) == 1 and "FIFO" in p.stderr, p.stderr
    assert "Traceback" not in p.stderr


def test_not_utf8_names_line_and_column(scene: Scene) -> None:
    path = scene.root / "latin1.jsonl"
    path.write_bytes(scene.export.read_bytes().replace(b"Mae", b"M\xe4e", 1))
    assert "UTF-8" in refused(scene, path, line=1)


def test_importing_a_folder_or_nothing_is_one_line(scene: Scene) -> None:
    refused(scene, scene.root / "outside", line=None, code=2)
    refused(scene, scene.root / "nothing.jsonl", line=None, code=2)


# ---------------------------------------------------------------------------
# a real export still goes in whole


def test_a_real_export_adds_exactly_its_rulings(scene: Scene) -> None:
    r = cli("log", "import", scene.export, "--db", scene.db)
    assert r.exit_code == 0 and "1 new" in r.stdout, r.output
    after = scene.still_works()
    assert len(after) == len(scene.before) + 1
    new = next(x for x in after if x["judge"] == "Bob")
    assert cli("log", "replay", new["id"], "--db", scene.db).exit_code == 0
