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
import errno
import io
import json
import math
import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence, TextIO

from ..errors import LoadError, Place, Problem, UsageError
from ..safe import _UNSAFE, _visible
from .record import FIELDS, JSON_FIELDS, Ruling
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
    """The export of rulings already read, as one string (the head judge's download)."""
    from .rulings import _row

    buf = io.StringIO()
    dump((_row(r) for r in rulings), snapshots, fmt, buf)
    return buf.getvalue()


_ORIGIN_AT = [FIELDS.index(f) for f in ("machine", "ruleset_source")]
_JSON_AT = {FIELDS.index(f) for f in JSON_FIELDS}


def dump(rows: Iterable[Sequence[Any]], snapshots: list[Snapshot], fmt: str, out: TextIO,
         with_origin: bool = True) -> Dumped:
    """Write the export of stored rows (`RulingsLog.rows`) to `out` one ruling at a time, in
    constant memory. Only strict JSON is written: a number JSON cannot carry (NaN, Infinity,
    stored by an older referee's import) goes out as null, and the ruling is named in `repaired`."""
    if fmt not in FORMATS:
        raise UsageError(f"unknown export format '{fmt}'; choose one of {', '.join(FORMATS)}")
    done = Dumped()
    if not with_origin:
        rows = (_without_origin(row) for row in rows)
    if fmt == "jsonl":
        for row in rows:
            out.write(_jsonl_ruling(row, done) + "\n")
            done.rulings += 1
        for snap in snapshots:
            out.write(json.dumps({"kind": "snapshot", **_snap_json(snap)}) + "\n")
    elif fmt == "json":
        out.write(f'{{\n  "format": {json.dumps(FORMAT_TAG)},\n  "rulings": [')
        for row in rows:
            out.write(("," if done.rulings else "") + "\n" + _indented(_strict(_as_dict(row), row[0], done)))
            done.rulings += 1
        out.write("\n  ]" if done.rulings else "]")
        out.write(',\n  "snapshots": [')
        for i, snap in enumerate(snapshots):
            out.write(("," if i else "") + "\n" + _indented(json.dumps(_snap_json(snap), indent=2)))
        out.write("\n  ]\n}\n" if snapshots else "]\n}\n")
    else:
        from .rulings import _ruling
        from .sheet import COLUMNS, row as cells_of, rules_of

        rules = rules_of(snapshots)  # not exported: they give the answers their words
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(COLUMNS)
        for row in rows:
            cells = cells_of(_ruling(row), rules)
            # a number is never a formula: -100 stays a number the spreadsheet can sum
            writer.writerow([c if isinstance(c, int) else _guard(c) for c in (cells[name] for name in COLUMNS)])
            done.rulings += 1
    return done


@dataclass
class Dumped:
    rulings: int = 0
    repaired: list[str] = field(default_factory=list)  # rulings whose NaN or Infinity went out as null


def _without_origin(row: Sequence[Any]) -> list[Any]:
    row = list(row)
    for i in _ORIGIN_AT:
        row[i] = None
    return row


def _as_dict(row: Sequence[Any]) -> dict[str, Any]:
    return {f: (json.loads(v) if i in _JSON_AT else v) for i, (f, v) in enumerate(zip(FIELDS, row))}


_QUOTE = json.encoder.encode_basestring_ascii  # what json.dumps does to a str, without its per-call cost
_KEYS = [f'"{f}": ' for f in FIELDS]
_JSON_LIST = sorted(_JSON_AT)


def _jsonl_ruling(row: Sequence[Any], done: Dumped) -> str:
    """One JSONL line, the stored JSON text spliced in as it is: stored with sorted keys and the
    default separators, it is byte for byte what decoding and encoding it again would give, at
    a fraction of the cost (an export of 100,000 rulings is bound by this)."""
    for i in _JSON_LIST:
        if "NaN" in row[i] or "Infinity" in row[i]:  # rare (an older import): decode to be sure
            return _strict({"kind": "ruling", **_as_dict(row)}, row[0], done, indent=None)
    parts = [key + (v if i in _JSON_AT else "null" if v is None else _QUOTE(v)) for i, (key, v) in enumerate(zip(_KEYS, row))]
    return '{"kind": "ruling", ' + ", ".join(parts) + "}"


def _strict(data: dict[str, Any], rid: str, done: Dumped, indent: int | None = 2) -> str:
    try:
        return json.dumps(data, indent=indent, allow_nan=False)
    except ValueError:  # NaN or Infinity, which strict JSON parsers refuse
        done.repaired.append(rid)
        return json.dumps(_finite(data), indent=indent, allow_nan=False)


def _finite(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_finite(v) for v in value]
    return value


def _indented(text: str) -> str:
    return "\n".join("    " + line for line in text.split("\n"))


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
    from .validate import unstorable

    for name, value in zip(("hash", "ruleset_id", "version"), snap[:3]):
        why = unstorable(value)
        if why:
            raise LoadError([Problem(place, f"stored rules' {name} holds {why}, which a log cannot store")])
    try:
        verify(snap)
    except SnapshotError as exc:
        raise LoadError([Problem(place, f"stored rules {str(snap[0])[:16]!r} refused: the copy {exc.message}")]) from None
    return snap


def _check_file(path: Path) -> None:
    """Only a regular file is read (a FIFO or /dev/zero never ends), and a loop is called a loop."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise UsageError(f"{path}: cannot import: no such file" + (" (a symlink to nothing)" if path.is_symlink() else "")) from None
    except OSError as exc:
        why = "a symlink loop" if exc.errno == errno.ELOOP else exc.strerror
        raise UsageError(f"{path}: cannot import: {why}") from None
    if not stat.S_ISREG(st.st_mode):
        what = "a folder" if stat.S_ISDIR(st.st_mode) else "not a regular file (a FIFO, device or socket)"
        raise UsageError(f"{path}: cannot import: {what}")


def _read(path: Path) -> str:
    """The file's text, whole (a JSON document), only so big."""
    _check_file(path)
    try:
        with path.open("rb") as fh:
            raw = fh.read(MAX_FILE + 1)
    except OSError as exc:
        raise UsageError(f"{path}: cannot read ({exc.strerror})") from None
    if len(raw) > MAX_FILE:
        raise LoadError([Problem(Place(str(path)), f"larger than {MAX_FILE // (1024 * 1024)} MB; not a referee log export "
                                                   "(export large logs as jsonl, which is read a line at a time)")])
    return _decoded(raw, path, 1)


def _decoded(raw: bytes, path: Path, first_line: int) -> str:
    try:
        return raw.decode("utf-8-sig" if first_line == 1 else "utf-8")
    except UnicodeDecodeError as exc:
        line = first_line + raw[: exc.start].count(b"\n")
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise LoadError([Problem(Place(str(path), line, col), "not a referee log export (not UTF-8 text)")]) from None


MAX_LINE = 64 * 1024 * 1024  # one JSONL record; the largest real one (its stored rules) is well under 1 MB


class Export:
    """An export read twice, a line at a time, so an import of 100,000 rulings holds a batch,
    never the file. `check()` reads and checks every record before the log is touched (naming
    the line of the first bad one) and keeps the stored rules it holds; `rulings()` then reads
    the rulings again for the import's transaction, without checking them a second time, so a
    shared SQLite log is held for the insert only. A file that changed in between (its digest
    differs) raises LoadError at the end, and the transaction adds nothing."""

    def __init__(self, path: Path) -> None:
        _check_file(path)
        self.path = path
        self.snapshots: list[Snapshot] = []
        self.count = 0
        self._digest: str | None = None
        self._whole: list[Ruling] | None = None
        try:
            with path.open("rb") as fh:
                first = fh.readline(MAX_LINE + 1)
        except OSError as exc:
            raise UsageError(f"{path}: cannot read ({exc.strerror})") from None
        if not _one_record(first):  # a JSON document (or not an export at all): read whole
            self._whole, self.snapshots = read_export(path)
            self.count = len(self._whole)

    def check(self) -> None:
        if self._whole is not None:
            return
        self.count, self._digest = 0, None
        for _ in self._read(checked=True):
            self.count += 1

    def rulings(self) -> Iterator[Ruling]:
        if self._whole is not None:
            yield from self._whole
            return
        if self._digest is None:
            self.check()
        yield from self._read(checked=False)

    def _read(self, checked: bool) -> Iterator[Ruling]:
        import hashlib

        digest = hashlib.sha256()
        try:
            with self.path.open("rb") as fh:
                for n, raw in enumerate(iter(lambda: fh.readline(MAX_LINE + 1), b""), 1):
                    digest.update(raw)
                    if len(raw) > MAX_LINE:
                        raise LoadError([Problem(Place(str(self.path), n, 1), f"a line longer than {MAX_LINE // (1024 * 1024)} MB; not a ruling")])
                    if checked:
                        item = _record(self.path, _decoded(raw, self.path, n), n, self.snapshots)
                    else:
                        item = _trusted(raw)
                    if item is not None:
                        yield item
        except OSError as exc:
            raise UsageError(f"{self.path}: cannot read ({exc.strerror})") from None
        if checked:
            self._digest = digest.hexdigest()
        elif digest.hexdigest() != self._digest:
            raise LoadError([Problem(Place(str(self.path)), "changed while it was being imported; nothing was added")])


def _trusted(raw: bytes) -> Ruling | None:
    """A line `check` has passed already: a ruling, or None for stored rules and blank lines."""
    if not raw.strip():
        return None
    data = json.loads(raw.decode("utf-8-sig"))
    if data.get("kind", "ruling") != "ruling":
        return None
    return Ruling(**{k: v for k, v in data.items() if k in FIELDS})


def _one_record(first: bytes) -> bool:
    """Whether an export's first line is a whole JSONL record (not a JSON document's '{')."""
    try:
        data = json.loads(first.decode("utf-8-sig"))
    except (ValueError, RecursionError):
        return False
    return isinstance(data, dict) and data.get("format") != FORMAT_TAG


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
    rulings: list[Ruling] = []
    snaps: list[Snapshot] = []
    for n, line in enumerate(text.split("\n"), 1):
        item = _record(path, line, n, snaps)
        if item is not None:
            rulings.append(item)
    return rulings, snaps


def _record(path: Path, line: str, n: int, snaps: list[Snapshot]) -> Ruling | None:
    """One JSONL line: a ruling (returned), stored rules (added to `snaps`), or nothing (blank)."""
    if not line.strip():
        return None
    place = Place(str(path), n, 1)
    try:
        data = json.loads(line)
    except ValueError as exc:
        raise LoadError([Problem(place, f"not a JSON line ({getattr(exc, 'msg', exc)})")]) from None
    except RecursionError:
        raise LoadError([Problem(place, "nests too deep to be a ruling")]) from None
    kind = data.get("kind", "ruling") if isinstance(data, dict) else "ruling"
    if kind not in ("ruling", "snapshot"):
        shown = json.dumps(kind, ensure_ascii=True)[:40]
        raise LoadError([Problem(place, f"unknown kind of record {shown}; written by a newer referee?")])
    if kind == "snapshot":
        if set(data) - {"kind", "hash", "ruleset_id", "version", "files"}:
            raise LoadError([Problem(place, "unknown field(s) in stored rules; written by a newer referee?")])
        snaps.append(_snapshot(data, place))
        return None
    return _ruling(data, place)
