"""The cache folder and its files, for every kind of entry (rulesets, answers files, cards,
compiled handout templates): where it is, reading an entry safely, writing one whole.

Kept apart from `cache` (the ruleset entries) so a caller that stores plain data, such as the
card store behind `referee hand verify`, does not import the ruleset model to find the folder.
Entries of plain data (tuples, lists, dicts, ints, strings) are read back with `loads_plain`,
which refuses any class: a planted entry can hold no code.
"""
from __future__ import annotations

import io
import os
import pickle
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any
from .memo import keep


def folder() -> Path | None:
    """Where entries are written, or None when the cache is off."""
    env = os.environ
    if env.get("REFEREE_NO_CACHE"):
        return None
    # Asked once per file a booklet reads: the answer is kept for the settings it came from, and
    # the settings are read afresh on every call (a test, or a caller, may change them).
    said = (env.get("REFEREE_CACHE_DIR"), env.get("XDG_CACHE_HOME"), env.get("HOME"))
    found = _FOLDERS.get(said)
    if found is None:
        explicit, xdg, _ = said
        if explicit:
            found = Path(explicit)
        else:
            found = Path(xdg or os.path.join(os.path.expanduser("~"), ".cache")) / "referee"
        keep(_FOLDERS, said, found, 64)
    return found


_FOLDERS: dict[tuple[str | None, str | None, str | None], Path] = {}


def owned_alone(st: os.stat_result) -> bool | None:
    """Does this user own the file, with nobody else allowed to write it? None where owners
    cannot be told apart (no getuid, as on Windows)."""
    uid = getattr(os, "getuid", None)
    if uid is None:
        return None
    return st.st_uid == uid() and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _not_foreign(st: os.stat_result) -> bool:
    # The allow-list keeps code out of an entry, but not data of the wrong shape: an entry another
    # user could have written is not read (where owners cannot be told apart, the folder's rights decide).
    return owned_alone(st) is not False


def make_private(where: Path) -> None:
    """Make `where` and any missing folder above it readable by this user alone (mkdir's mode
    reaches only the last folder it makes)."""
    missing = []
    while not where.exists():
        missing.append(where)
        if where.parent == where:
            break
        where = where.parent
    for path in reversed(missing):
        path.mkdir(mode=0o700, exist_ok=True)


def read_entry(path: Path | str, trusted: Callable[[os.stat_result], bool] = _not_foreign) -> bytes | None:
    """An entry's bytes; None when it is missing, unreadable, not a plain file (a FIFO planted in
    its place would block the read for ever) or not `trusted`."""
    try:
        flags = os.O_RDONLY | getattr(os, "O_BINARY", 0)  # O_BINARY: Windows would translate line ends
        fd = os.open(path, flags | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or not trusted(st):  # a folder, a FIFO, another user's file
            return None
        # os.read, not a file object: a booklet reads hundreds of entries, and a buffered reader
        # cost more than the read. Read to the end, as f.read() did (a short read, a file grown).
        parts = []
        while got := os.read(fd, st.st_size + 1 if not parts else 1 << 20):
            parts.append(got)
        return parts[0] if len(parts) == 1 else b"".join(parts)
    except OSError:
        return None
    finally:
        os.close(fd)


def write_whole(target: Path, blob: bytes) -> None:
    """Write `blob` to `target` so a reader sees the old content or the new, never half."""
    make_private(target.parent)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(blob)
        os.replace(tmp, target)
    except BaseException:
        os.unlink(tmp)
        raise


class _PlainOnly(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        raise pickle.UnpicklingError(f"a plain-data cache entry may not name {module}.{name}")


def loads_plain(blob: bytes) -> Any:
    """Plain data from a pickle that names no class (anything else raises UnpicklingError)."""
    return _PlainOnly(io.BytesIO(blob)).load()
