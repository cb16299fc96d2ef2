"""Export the log (csv, json, jsonl) and read exports back, so judges' logs can be merged.

JSON and JSONL carry every field of every ruling and the stored rules too (for replay); they
are what `read_export` reads back, to the same rulings field for field, so JSONL is how logs
travel and merge. JSON is written ASCII-only: a name's control or bidi characters travel as
escapes, never raw.

CSV is for spreadsheets (sheet.py lays out its columns): plain values, no JSON, so it leaves
out what a spreadsheet cannot use and is refused by `read_export` in one line that names JSONL.
Its cells are made safe: no cell starts as a formula and no control or bidi character goes out
raw (see `_guard`).

An export is read as untrusted input: `read_export` refuses a file whose records are not
exactly what the log writes (validate.py) or whose stored rules name paths outside their
folder or unpack too big (snapshot.py), naming the line, and returns nothing from it.
"""
from __future__ import annotations

import base64
import csv
import io
import json
import re
from pathlib import Path
from typing import Any

from ..errors import LoadError, Place, Problem, UsageError
from ..safe import _UNSAFE, _visible
from .record import FIELDS, Ruling
from .snapshot import Snapshot

FORMATS = ("csv", "json", "jsonl")
FORMAT_TAG = "referee-log"
_REQUIRED = ["id", "recorded_at", "ruleset_id", "ruleset_version", "ruleset_hash", "situation", "ruled_in", "ruling_id", "game"]


# A spreadsheet runs a cell that starts with one of these as a formula (OWASP "CSV injection").
_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def _guard(cell: str) -> str:
    """A cell a spreadsheet shows as text. One that starts like a formula (or with a quote) or holds
    a control or bidi character is written as a quote, then the text with backslashes doubled and
    those characters as visible escapes (`\\x1b`, `\\u202e`), as a terminal shows them. The quote
    marks the cell as escaped; any other cell is left as it is."""
    if not cell.startswith(_FORMULA) and not cell.startswith("'") and not _UNSAFE.search(cell):
        return cell
    return "'" + _UNSAFE.sub(_visible, cell.replace("\\", "\\\\"))


def _snap_json(s: Snapshot) -> dict[str, str]:
    return {"hash": s[0], "ruleset_id": s[1], "version": s[2], "files": base64.b64encode(s[3]).decode()}


def export(rulings: list[Ruling], snapshots: list[Snapshot], fmt: str) -> str:
    if fmt == "json":
        doc = {"format": FORMAT_TAG, "rulings": [r.as_dict() for r in rulings], "snapshots": [_snap_json(s) for s in snapshots]}
        return json.dumps(doc, indent=2) + "\n"
    if fmt == "jsonl":
        lines = [json.dumps({"kind": "ruling", **r.as_dict()}) for r in rulings]
        lines += [json.dumps({"kind": "snapshot", **_snap_json(s)}) for s in snapshots]
        return "".join(line + "\n" for line in lines)
    if fmt == "csv":
        from .sheet import COLUMNS, row, rules_of

        rules = rules_of(snapshots)  # not exported: they give the answers their words
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(COLUMNS)
        for r in rulings:
            cells = row(r, rules)
            # a number is never a formula: -100 stays a number the spreadsheet can sum
            writer.writerow([c if isinstance(c, int) else _guard(c) for c in (cells[name] for name in COLUMNS)])
        return buf.getvalue()
    raise UsageError(f"unknown export format '{fmt}'; choose one of {', '.join(FORMATS)}")


MAX_FILE = 512 * 1024 * 1024  # bytes; an event's export with its rules is a few MB


def _ruling(data: Any, place: Place) -> Ruling:
    """A ruling exactly as the log writes one (validate.problem), or the file is refused here."""
    from .validate import problem

    if not isinstance(data, dict):
        raise LoadError([Problem(place, "expected a ruling (a JSON object)")])
    missing = [k for k in _REQUIRED if not data.get(k)]
    if missing:
        raise LoadError([Problem(place, f"not a recorded ruling: missing {', '.join(missing)}")])
    unknown = sorted(set(data) - set(FIELDS) - {"kind"})
    if unknown:
        raise LoadError([Problem(place, f"unknown field(s) {', '.join(unknown)}; written by a newer referee?")])
    values = {k: v for k, v in data.items() if k in FIELDS}
    why = problem(values)
    if why is not None:
        raise LoadError([Problem(place, f"not a ruling as the log writes one: {why}")])
    return Ruling(**values)


def _snapshot(data: Any, place: Place) -> Snapshot:
    """Stored rules, checked now (names, size, hash) so replay never meets a crafted copy unseen."""
    from .snapshot import SnapshotError, verify

    try:
        snap = (data["hash"], data["ruleset_id"], data["version"], base64.b64decode(data["files"], validate=True))
    except KeyError as exc:
        raise LoadError([Problem(place, f"not a stored ruleset (no {exc})")]) from None
    except (TypeError, ValueError) as exc:
        raise LoadError([Problem(place, f"not a stored ruleset ({exc})")]) from None
    if not all(isinstance(v, str) for v in snap[:3]):
        raise LoadError([Problem(place, "not a stored ruleset (hash, ruleset_id and version must be text)")])
    try:
        verify(snap)
    except SnapshotError as exc:
        raise LoadError([Problem(place, f"stored rules {str(snap[0])[:16]!r} refused: the copy {exc.message}")]) from None
    return snap


def _read(path: Path) -> str:
    """The file's text; only a regular file, and only so big (a FIFO or /dev/zero never ends)."""
    try:
        if not path.is_file():
            what = "a folder" if path.is_dir() else "not a regular file (a FIFO, device or socket)" if path.exists() else "no such file"
            raise UsageError(f"{path}: cannot import: {what}")
        with path.open("rb") as fh:
            raw = fh.read(MAX_FILE + 1)
    except OSError as exc:
        raise UsageError(f"{path}: cannot read ({exc.strerror})") from None
    if len(raw) > MAX_FILE:
        raise LoadError([Problem(Place(str(path)), f"larger than {MAX_FILE // (1024 * 1024)} MB; not a referee log export")])
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise LoadError([Problem(Place(str(path), line, col), "not a referee log export (not UTF-8 text)")]) from None


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def _json_places(path: Path, text: str, key: str) -> list[Place]:
    """Where each item of the document's `key` list starts, for a message naming its line."""
    decoder = json.JSONDecoder()
    m = re.search(rf'"{key}"\s*:\s*\[', text)
    places: list[Place] = []
    pos = m.end() if m else len(text)
    while m:
        while pos < len(text) and text[pos] in " \t\r\n,":
            pos += 1
        if pos >= len(text) or text[pos] == "]":
            break
        places.append(Place(str(path), _line_of(text, pos), pos - text.rfind("\n", 0, pos)))
        try:
            pos = decoder.raw_decode(text, pos)[1]
        except (ValueError, RecursionError):
            break
    return places


def read_export(path: Path) -> tuple[list[Ruling], list[Snapshot]]:
    """Rulings and stored rules from an export in any format (told apart by content).

    Everything is checked before anything is returned: one bad record refuses the whole file,
    in one line naming its place.
    """
    text = _read(path)
    start = text.lstrip()[:1]
    if start == "{":
        try:
            doc = json.loads(text)
        except RecursionError:
            raise LoadError([Problem(Place(str(path), 1, 1), "nests too deep to be a referee log export")]) from None
        except ValueError:
            return _jsonl(path, text)
        if isinstance(doc, dict) and doc.get("format") == FORMAT_TAG:
            return _json(path, text, doc)
        return _jsonl(path, text)
    if text.startswith("id,"):
        raise LoadError([Problem(Place(str(path), 1, 1), "a CSV export is a spreadsheet and cannot be imported (it leaves out "
                                 "the recorded answers and rules); import the JSONL export: 'referee log export -o FILE.jsonl'")])
    raise LoadError([Problem(Place(str(path), 1, 1), "not a referee log export (expected json or jsonl from 'referee log export')")])


def _json(path: Path, text: str, doc: dict[str, Any]) -> tuple[list[Ruling], list[Snapshot]]:
    found: dict[str, list[Any]] = {}
    for key in ("rulings", "snapshots"):
        items = doc.get(key, [])
        if not isinstance(items, list):
            raise LoadError([Problem(Place(str(path)), f"'{key}' should be a list, not {type(items).__name__}")])
        found[key] = items
    unknown = sorted(set(doc) - {"format", "rulings", "snapshots"})
    if unknown:
        raise LoadError([Problem(Place(str(path)), f"unknown field(s) {', '.join(map(str, unknown))}; written by a newer referee?")])

    def each(key: str, read: Any) -> list[Any]:
        out = []
        for i, item in enumerate(found[key]):
            try:
                out.append(read(item, Place(str(path))))
            except LoadError as exc:  # now find the line: only a refused file pays for it
                places = _json_places(path, text, key)
                place = places[i] if i < len(places) else Place(str(path))
                raise LoadError([Problem(place, exc.problems[0].message)]) from None
        return out

    return each("rulings", _ruling), each("snapshots", _snapshot)


def _jsonl(path: Path, text: str) -> tuple[list[Ruling], list[Snapshot]]:
    rulings, snaps = [], []
    for n, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        place = Place(str(path), n, 1)
        try:
            data = json.loads(line)
        except ValueError as exc:
            raise LoadError([Problem(place, f"not a JSON line ({getattr(exc, 'msg', exc)})")]) from None
        except RecursionError:
            raise LoadError([Problem(place, "nests too deep to be a ruling")]) from None
        if isinstance(data, dict) and data.get("kind") == "snapshot":
            if set(data) - {"kind", "hash", "ruleset_id", "version", "files"}:
                raise LoadError([Problem(place, "unknown field(s) in stored rules; written by a newer referee?")])
            snaps.append(_snapshot(data, place))
        else:
            rulings.append(_ruling(data, place))
    return rulings, snaps


def write(text: str, target: Path | None, out: Any) -> None:
    """To a file (atomically: a failed export leaves no half file) or to `out` (stdout)."""
    if target is None:
        out.write(text)
        return
    tmp = target.with_name(target.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(target)
