"""Scenario files kept a folder to an entry: the shipped scenarios of one ruleset, read back at once.

A booklet reads some 400 scenario files, `referee test` some 700. Kept one entry a file (as
`cache.fetch_file` keeps an answers file), each cost its own entry name, open, read and two
unpicklings; a shelf holds every file of one folder and is read once per process.

A shelf's item is a file's exact bytes, its records (`records.Answers`, as `cache` packs them)
and the sum of those records: it is used only for a file whose bytes are those bytes now, and
only while the records still hash to their sum, so a changed file is never served stale and a
damaged item is only a miss. The entry is read only as the other entries are (a plain file of
this user's alone, written by this very code: `cache.stamp`), through `loads_plain`, which names
no class; the records inside are read through the cache's allow-list. A damaged entry is removed,
another user's is not read (and is replaced when the shelf is next written): either is only a
miss, as a damaged answers entry is. Nothing is kept while the cache is off (`REFEREE_NO_CACHE=1`).

Files validated afresh are added to this process's copy and written with the shelf, every
`WRITE_EVERY` files and when the process ends (a booklet from an empty cache would otherwise
rewrite a growing shelf once a file). Called by `ruling.scenarios.load_file` only.
"""
from __future__ import annotations

import atexit
import hashlib
import os
import pickle
from pathlib import Path
from typing import Any

from . import records
from .cache import _evict, _loads, _named, _used, stamp
from .cachefiles import folder, loads_plain, read_entry, write_whole

WRITE_EVERY = 64  # files validated afresh between writes of a shelf
MAX_SHELVES = 64  # kept per installation, the least used go first (one per scenarios folder read)
Item = tuple[bytes, bytes, bytes]  # the file's bytes, the sum of its records, its records pickled


class _Shelf:
    __slots__ = ("entry", "key", "items", "added")

    def __init__(self, entry: str, key: str, items: dict[str, Item]) -> None:
        self.entry, self.key, self.items, self.added = entry, key, items, 0


_SHELVES: dict[tuple[Path, str], _Shelf] = {}


def _entry(where: Path, key: str) -> str:
    return os.path.join(where, "shelves", _named(key, ".shelf"))


def _shelf(key: str) -> _Shelf | None:
    """This process's copy of the shelf for folder `key`, read from disk the first time."""
    where = folder()
    if where is None:
        return None
    found = _SHELVES.get((where, key))
    if found is None:
        entry = _entry(where, key)
        found = _SHELVES[(where, key)] = _Shelf(entry, key, _read(entry, key))
        _used(Path(entry))
    return found


def _read(entry: str, key: str) -> dict[str, Item]:
    blob = read_entry(entry)
    if blob is None:
        return {}
    try:
        head, items = loads_plain(blob)
        if head["stamp"] != stamp() or head["key"] != key:
            return {}  # another version's, or another folder's copied here: rewritten when we write
        if not isinstance(items, dict):
            raise ValueError("not a shelf")
        return items
    except Exception:  # damaged: removed, so that no later run reads it again before it is rewritten
        try:
            os.unlink(entry)
        except OSError:
            pass
        return {}


def _sum(packed: bytes) -> bytes:
    # Pickle has no checksum of its own: a byte changed inside a ruling's text would read cleanly.
    return hashlib.sha256(packed).digest()


def fetch(key: str, name: str, raw: bytes) -> Any | None:
    """The records of file `name` of folder `key`, validated before when its bytes were exactly
    `raw`; else None."""
    shelf = _shelf(key)
    if shelf is None:
        return None
    item = shelf.items.get(name)
    if item is None:
        return None
    try:
        kept, summed, packed = item
        if kept != raw:
            return None
        if _sum(packed) != summed:
            raise ValueError("damaged")
        return _loads(packed)
    except Exception:  # damaged: dropped, and replaced once the file is validated again
        shelf.items.pop(name, None)
        return None


def put(key: str, name: str, raw: bytes, data: Any) -> None:
    """Keep a file's validated data (a model or its records) under its bytes; written with the shelf."""
    shelf = _shelf(key)
    if shelf is None:
        return
    try:
        packed = pickle.dumps(records.of(data), protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError):  # TypeError: a model without its record
        return
    shelf.items[name] = (raw, _sum(packed), packed)
    shelf.added += 1
    if not _PENDING:
        _at_exit()
    _PENDING[shelf.entry] = shelf
    if shelf.added >= WRITE_EVERY:
        _write(shelf)


_PENDING: dict[str, _Shelf] = {}  # shelves with files added since they were written
_REGISTERED: list[bool] = []


def _at_exit() -> None:
    if not _REGISTERED:
        _REGISTERED.append(True)
        atexit.register(write_all)


def _write(shelf: _Shelf) -> None:
    """Write a shelf whole; skipped when it cannot be written."""
    _PENDING.pop(shelf.entry, None)
    shelf.added = 0
    try:
        # a copy: `serve` may add a file from another thread meanwhile
        blob = pickle.dumps(({"stamp": stamp(), "key": shelf.key}, dict(shelf.items)), protocol=pickle.HIGHEST_PROTOCOL)
        write_whole(Path(shelf.entry), blob)
        _evict(Path(shelf.entry).parent, ".shelf", MAX_SHELVES)
    except OSError:
        pass


def write_all() -> None:
    """Write every shelf with files added since it was last written: run when the process ends,
    and then only where the cache folder's own folder is still there (a test's temporary folder,
    gone by then, is not made again)."""
    for shelf in list(_PENDING.values()):
        if os.path.isdir(os.path.dirname(os.path.dirname(os.path.dirname(shelf.entry)))):
            _write(shelf)
        else:
            _PENDING.pop(shelf.entry, None)
