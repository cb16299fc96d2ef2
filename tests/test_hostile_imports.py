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
import shutil
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


def test_a_garbled_ruling_in_json_names_its_line(scene: Scene) -> None:
    path = scene.root / "bob.json"
    cli("log", "export", "-o", path, "--db", scene.root / "theirs.db")
    doc = json.loads(path.read_text())
    doc["rulings"][0]["players"] = ["Ruth"]
    path.write_text(json.dumps(doc, indent=2))
    refused(scene, path, line=json.dumps(doc, indent=2).splitlines().index('    {') + 1)


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


def test_a_spreadsheet_csv_is_refused_in_one_line(scene: Scene) -> None:
    """A CSV is for reading (no answers, no rules): it adds nothing, whatever its cells hold."""
    path = scene.root / "bob.csv"
    cli("log", "export", "-o", path, "--db", scene.root / "theirs.db")
    header, row = path.read_text().splitlines()[:2]
    for text in (path.read_text(), header + "\n" + row.replace("Mae", "M" * (5 * 1024 * 1024)) + "\n"):
        path.write_text(text)
        assert "JSONL" in refused(scene, path, line=1)


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


# ---------------------------------------------------------------------------
# fuzzed mutations of a real export


from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

FUZZ = settings(max_examples=30, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture])
HOSTILE_TEXT = st.sampled_from(["../../x", "/etc/passwd", "..", "", " ", "\x1b[2J", "Ruth\u202e", "=1+1", "a" * 300,
                                "situations/../../x.yaml", "C:\\x", "0" * 26, "2026-13-45T99:99Z", "NaN"])
ODD = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(allow_nan=True), HOSTILE_TEXT,
                st.text(max_size=20), st.lists(st.integers(), max_size=3), st.dictionaries(HOSTILE_TEXT, st.integers(), max_size=2))


def key_paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix] if prefix else []
    if isinstance(data, dict):
        for k, v in data.items():
            found += key_paths(v, prefix + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            found += key_paths(v, prefix + (i,))
    return found


def _set(doc: Any, path: tuple[Any, ...], value: Any, delete: bool) -> None:
    for key in path[:-1]:
        doc = doc[key]
    if delete:
        del doc[path[-1]]
    else:
        doc[path[-1]] = value


@st.composite
def mutated_line(draw: st.DrawFn, line: dict[str, Any]) -> Any:
    doc = copy.deepcopy(line)
    try:
        levels = json.loads(zlib.decompress(base64.b64decode(doc["files"])))["levels"]
    except Exception:  # not stored rules, or no longer whole ones
        levels = None
    if doc.get("kind") == "snapshot" and levels and draw(st.booleans()):  # inside the packed rules, hash kept honest
        if draw(st.booleans()):  # a folder or file renamed
            level = draw(st.sampled_from(levels))
            if draw(st.booleans()):
                level["folder"] = draw(HOSTILE_TEXT)
            else:
                name = draw(st.sampled_from(sorted(level["files"])))
                level["files"][draw(HOSTILE_TEXT)] = level["files"].pop(name)
        else:
            where = draw(st.sampled_from(key_paths(levels)))
            _set(levels, where, draw(ODD), delete=False)
        try:
            real = [Level(lv["folder"], {k: base64.b64decode(v) for k, v in lv["files"].items()}) for lv in levels]
            doc["hash"] = digest(real)[:12]
        except Exception:  # the mutation broke the shape: the hash cannot be made honest, fine
            pass
        doc["files"] = base64.b64encode(packed(levels)).decode()
        return doc
    for _ in range(draw(st.integers(1, 3))):
        paths = key_paths(doc)
        if not paths:
            break
        where = draw(st.sampled_from(paths))
        _set(doc, where, draw(ODD), delete=draw(st.booleans()) and isinstance(where[-1], str))
    return doc


@st.composite
def mutated_export(draw: st.DrawFn, lines: list[dict[str, Any]], mine: list[str]) -> list[Any]:
    out: list[Any] = [copy.deepcopy(line) for line in lines]
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(out) - 1))
        how = draw(st.sampled_from(["field", "field", "field", "truncate", "duplicate", "steal id"]))
        if how == "field" and isinstance(out[i], dict):
            out[i] = draw(mutated_line(out[i]))
        elif how == "truncate":
            text = out[i] if isinstance(out[i], str) else json.dumps(out[i])
            out[i] = text[: draw(st.integers(0, len(text)))]
        elif how == "duplicate":
            out.insert(i, copy.deepcopy(out[i]))
        elif isinstance(out[i], dict) and out[i].get("kind") == "ruling":
            out[i]["id"] = draw(st.sampled_from(mine))  # another judge's ruling under one of my ids
    return out


_TEMPLATE: dict[str, Path] = {}


@FUZZ
@given(data=st.data())
def test_mutated_exports_never_harm_the_log(tmp_path_factory: pytest.TempPathFactory, data: st.DataObject) -> None:
    if "root" not in _TEMPLATE:
        _TEMPLATE["root"] = tmp_path_factory.mktemp("template")
        Scene(_TEMPLATE["root"])
    root = tmp_path_factory.mktemp("fuzz")
    shutil.copytree(_TEMPLATE["root"], root, dirs_exist_ok=True)
    (root / "work").mkdir(exist_ok=True)
    scene = Scene.__new__(Scene)
    scene.root, scene.db, scene.outside = root, root / "mine" / "rulings.db", root / "outside"
    scene.export = root / "bob.jsonl"
    scene.lines = [json.loads(line) for line in scene.export.read_text().splitlines()]
    scene.before = records(scene.db)
    lines = data.draw(mutated_export(scene.lines, [r["id"] for r in scene.before]))
    crafted = scene.write(lines)
    files = scene.files()
    here = os.getcwd()
    os.chdir(root / "work")  # a relative path in a crafted file would land here
    try:
        _import_and_check(scene, crafted, files, lines)
    finally:
        os.chdir(here)


def _import_and_check(scene: Scene, crafted: Path, files: set[str], lines: list[Any]) -> None:
    r = cli("log", "import", crafted, "--db", scene.db)
    assert r.exit_code in (0, 1, 2), r.output
    assert scene.files() == files  # nothing written outside the log
    after = scene.still_works()  # no ruling here changed; every reading command runs
    added = [x for x in after if x["id"] not in {m["id"] for m in scene.before}]
    if r.exit_code == 0:  # every ruling of the file is in the log now, and nothing else
        sent = {line["id"] for line in lines if isinstance(line, dict) and line.get("kind") != "snapshot"}
        assert {x["id"] for x in added} == sent - {m["id"] for m in scene.before}
    elif "in conflict" not in r.stdout:  # refused: one line, nothing added
        assert len(r.stderr.strip().splitlines()) == 1 and not added, r.output
    for new in added:
        replayed = cli("log", "replay", new["id"], "--db", scene.db)
        assert replayed.exit_code in (0, 1), replayed.output
    assert scene.files() == files


def test_a_log_exported_without_its_origin_imports_back_into_itself_without_conflict(scene: Scene) -> None:
    own = scene.root / "own.jsonl"
    assert cli("log", "export", "-o", own, "--db", scene.db).exit_code == 0
    r = cli("log", "import", own, "--db", scene.db)
    assert r.exit_code == 0 and "0 new" in r.stdout and "conflict" not in r.stdout, r.output
    assert scene.still_works() == scene.before
