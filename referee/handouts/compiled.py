"""Compiled templates kept beside the ruleset cache (compiling them costs a booklet about a
tenth of its time).

A compiled template is Python code, run as it is read, so unlike a ruleset entry it cannot be
read back through an allow-list. It is trusted only as far as the folder is: an entry is read
only from a folder and a file that this user owns and nobody else may write, and only when its
bytes still hash to the sum written before them (a damaged disk is a compile, not a crash).
Anything else, like a cache that cannot be read or written, only costs a compile.
"""
from __future__ import annotations

import hashlib
import io
import os
import stat
from pathlib import Path

import jinja2

_SUM = hashlib.sha256().digest_size


def _ours(st: os.stat_result) -> bool:
    # Where owners cannot be told apart (no getuid, as on Windows) nothing is trusted: a compile each time.
    from ..rules.cache import owned_alone

    return owned_alone(st) is True


def kept_in(where: Path) -> TemplateCache | None:
    """A cache in `where`, made if need be; None when the folder cannot be made or is not ours alone."""
    from ..rules.cache import make_private

    try:
        make_private(where)
        st = os.lstat(where)
    except OSError:
        return None
    return TemplateCache(where) if stat.S_ISDIR(st.st_mode) and _ours(st) else None


class TemplateCache(jinja2.BytecodeCache):
    def __init__(self, where: Path) -> None:
        self.where = where

    def _entry(self, bucket: jinja2.bccache.Bucket) -> Path:
        return self.where / f"{bucket.key}.compiled"

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        from ..rules.cache import read_entry

        try:
            blob = read_entry(self._entry(bucket), trusted=_ours)
            if blob is None:
                return
            code = blob[_SUM:]
            if blob[:_SUM] == hashlib.sha256(code).digest():
                bucket.load_bytecode(io.BytesIO(code))
        except Exception:  # missing, unreadable or foreign: compile afresh
            bucket.reset()

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        from ..rules.cache import write_whole

        code = bucket.bytecode_to_string()
        try:
            write_whole(self._entry(bucket), hashlib.sha256(code).digest() + code)
        except OSError:
            pass
