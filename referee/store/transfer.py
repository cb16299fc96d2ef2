"""Export the log (csv, json, jsonl) and read exports back, so judges' logs can be merged.

JSON is written ASCII-only: a name's control or bidi characters travel as escapes, never raw.

JSON and JSONL carry the stored rules too (for replay); CSV is for spreadsheets and carries
the rulings only. Every format reads back to the same rulings, field for field.
"""
from __future__ import annotations

import base64
import csv
import io
import json
from pathlib import Path
from typing import Any

from ..errors import LoadError, Place, Problem, UsageError
from .record import FIELDS, JSON_FIELDS, Ruling
from .snapshot import Snapshot

FORMATS = ("csv", "json", "jsonl")
FORMAT_TAG = "referee-log"
_REQUIRED = ["id", "recorded_at", "ruleset_id", "ruleset_version", "ruleset_hash", "situation", "ruled_in", "ruling_id", "game"]


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
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(FIELDS)
        for r in rulings:
            d = r.as_dict()
            writer.writerow([json.dumps(d[f], ensure_ascii=False) if f in JSON_FIELDS else ("" if d[f] is None else d[f]) for f in FIELDS])
        return buf.getvalue()
    raise UsageError(f"unknown export format '{fmt}'; choose one of {', '.join(FORMATS)}")


def _ruling(data: Any, place: Place) -> Ruling:
    if not isinstance(data, dict):
        raise LoadError([Problem(place, "expected a ruling (a JSON object)")])
    missing = [k for k in _REQUIRED if not data.get(k)]
    if missing:
        raise LoadError([Problem(place, f"not a recorded ruling: missing {', '.join(missing)}")])
    unknown = sorted(set(data) - set(FIELDS) - {"kind"})
    if unknown:
        raise LoadError([Problem(place, f"unknown field(s) {', '.join(unknown)}; written by a newer referee?")])
    values = {k: v for k, v in data.items() if k in FIELDS}
    for k in JSON_FIELDS:
        if k in values and not isinstance(values[k], (dict, list)):
            raise LoadError([Problem(place, f"field '{k}' should be a JSON object or list")])
    return Ruling(**values)


def _snapshot(data: Any, place: Place) -> Snapshot:
    try:
        return (str(data["hash"]), str(data["ruleset_id"]), str(data["version"]), base64.b64decode(data["files"], validate=True))
    except (KeyError, TypeError, ValueError) as exc:
        raise LoadError([Problem(place, f"not a stored ruleset ({exc})")]) from None


def read_export(path: Path) -> tuple[list[Ruling], list[Snapshot]]:
    """Rulings and stored rules from an export in any format (told apart by content)."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise UsageError(f"{path}: cannot read ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise LoadError([Problem(Place(str(path)), "not a referee log export (not text)")]) from None
    start = text.lstrip()[:1]
    if start == "{":
        try:
            doc = json.loads(text)
        except ValueError:
            return _jsonl(path, text)
        if isinstance(doc, dict) and doc.get("format") == FORMAT_TAG:
            place = Place(str(path))
            return ([_ruling(d, place) for d in doc.get("rulings", [])],
                    [_snapshot(s, place) for s in doc.get("snapshots", [])])
        return _jsonl(path, text)
    if text.startswith("id,"):
        return _csv(path, text), []
    raise LoadError([Problem(Place(str(path), 1, 1), "not a referee log export (expected csv, json or jsonl from 'referee log export')")])


def _jsonl(path: Path, text: str) -> tuple[list[Ruling], list[Snapshot]]:
    rulings, snaps = [], []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        place = Place(str(path), n, 1)
        try:
            data = json.loads(line)
        except ValueError as exc:
            raise LoadError([Problem(place, f"not a JSON line ({exc.msg})")]) from None
        if isinstance(data, dict) and data.get("kind") == "snapshot":
            snaps.append(_snapshot(data, place))
        else:
            rulings.append(_ruling(data, place))
    return rulings, snaps


def _csv(path: Path, text: str) -> list[Ruling]:
    reader = csv.reader(io.StringIO(text))
    header = next(reader)
    rulings = []
    for row in reader:
        place = Place(str(path), reader.line_num, 1)
        if len(row) != len(header):
            raise LoadError([Problem(place, f"expected {len(header)} columns, found {len(row)}")])
        data: dict[str, Any] = {}
        for name, cell in zip(header, row):
            if name in JSON_FIELDS:
                try:
                    data[name] = json.loads(cell)
                except ValueError:
                    raise LoadError([Problem(place, f"column '{name}' is not JSON")]) from None
            else:
                data[name] = cell if cell != "" else None
        rulings.append(_ruling(data, place))
    return rulings


def write(text: str, target: Path | None, out: Any) -> None:
    """To a file (atomically: a failed export leaves no half file) or to `out` (stdout)."""
    if target is None:
        out.write(text)
        return
    tmp = target.with_name(target.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(target)
