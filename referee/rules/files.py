"""Reading a file safely: regular files only, with a size cap, decoded as UTF-8.

Kept apart from the YAML parser so that a warm start (the cache checks every file's bytes)
does not import PyYAML.
"""
from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import Any, Callable

from ..errors import LoadError, Place, Problem

Loc = tuple[Any, ...]
FindPlaces = Callable[[str, str, "dict[Loc, Place]"], None]  # (text, path, places to fill)

MAX_BYTES = 1_000_000  # a situation file is a few kB


def read_bytes(path: Path | str, limit: int = 0) -> bytes:
    """A regular file's bytes, refusing what is not one (a folder, a FIFO, a device) or is bigger
    than `limit`."""
    limit = limit or MAX_BYTES
    p = str(path)
    try:
        st = os.stat(p)
    except FileNotFoundError:
        gone = " (a symlink to nothing)" if os.path.islink(p) else ""
        raise LoadError([Problem(Place(p), f"no such file{gone}")]) from None
    except OSError as exc:
        why = "a symlink loop" if exc.errno == errno.ELOOP else exc.strerror
        raise LoadError([Problem(Place(p), f"cannot read: {why}")]) from None
    if stat.S_ISDIR(st.st_mode):
        raise LoadError([Problem(Place(p), "is a folder, not a YAML file")])
    if not stat.S_ISREG(st.st_mode):
        raise LoadError([Problem(Place(p), "not a regular file (a device, FIFO or socket)")])
    if st.st_size > limit:
        raise LoadError([Problem(Place(p), f"file too large ({st.st_size:,} bytes; at most {limit:,})")])
    try:
        with open(p, "rb", buffering=0) as f:
            raw = f.read(st.st_size + 1)  # not limit + 1: that allocates a megabyte per file
            if len(raw) > st.st_size:  # grew since the stat
                raw += f.read(limit + 1 - len(raw))
    except OSError as exc:
        raise LoadError([Problem(Place(p), f"cannot read: {exc.strerror}")]) from None
    if len(raw) > limit:
        raise LoadError([Problem(Place(p), f"file too large (more than {limit:,} bytes)")])
    return raw


def decode(raw: bytes, path: Path | str) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start].decode("utf-8", "replace")
        line, col = place_of(before, len(before))
        raise LoadError([Problem(Place(str(path), line, col),
                                 f"not UTF-8 text (byte {exc.start}: 0x{raw[exc.start]:02x}); save the file as UTF-8")]) from None


def place_of(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of a character offset in text."""
    line = text.count("\n", 0, offset)
    return line + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1


class Document:
    """Plain data from one YAML file plus the place of every mapping key and value.

    Places are found only when first asked for (a file that loads cleanly rarely needs
    them): `find_places` parses the text again, this time noting where each value sits. It is
    handed in by whoever made the document (the YAML reader, or a cache hit that skipped it), so
    this module, read on every warm start, never imports the parser.
    """

    def __init__(self, path: str, data: Any, places: dict[Loc, Place] | None = None, text: str = "",
                 find_places: FindPlaces | None = None) -> None:
        self.path = path
        self.data = data
        self._places = places
        self.text = text
        self._find_places = find_places

    @property
    def places(self) -> dict[Loc, Place]:
        if self._places is None:
            places: dict[Loc, Place] = {}
            if self.text and self._find_places is not None:
                self._find_places(self.text, self.path, places)
            self._places = places
        return self._places

    def place(self, loc: Loc) -> Place:
        """The place of `loc`, or of its nearest ancestor that has one."""
        places = self.places
        loc = tuple(loc)
        while loc:
            if loc in places:
                return places[loc]
            loc = loc[:-1]
        return places.get((), Place(self.path, 1, 1))
