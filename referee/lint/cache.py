"""The lint's findings kept between runs, so `referee check` of an unchanged ruleset is quick.

Called by `referee check` (cli/author.py) and `show --format mermaid|dot` (cli/browse.py)
instead of `checks.lint`. An entry holds the problems
the lint found in one ruleset folder, keyed like the ruleset cache (rules/cache.py): the digest of
every file of the ruleset and its bases, the folders they were read from, and the source of
the code that lints (every module of the packages it reaches, so a changed check is never
answered from an old entry). Anything else, a corrupt entry included, is a miss and the lint
runs afresh. A 5,000-situation ruleset lints in about 8 s and loads from the cache in 0.4 s,
so without this entry the second check would cost nearly what the first did.
"""
from __future__ import annotations

import hashlib
import os
import pickle
from pathlib import Path

from ..rules import cache
from ..errors import Place, Problem
from ..rules.loader import Ruleset

MAX_ENTRIES = 64  # one per ruleset folder checked; the least recently used go first
_stamp: str | None = None


def _code_stamp() -> str:
    """The ruleset cache's stamp and the source of every module the lint can reach (the rules,
    the ruling's words, search, the card): a new check in any of them must run."""
    global _stamp
    if _stamp is None:
        h = hashlib.sha256(cache.stamp().encode())
        core = Path(__file__).resolve().parent.parent
        for path in sorted(p for d in ("rules", "ruling", "search", "lint", "cards") for p in (core / d).glob("*.py")):
            h.update(path.name.encode() + b"\0" + path.read_bytes())
        _stamp = h.hexdigest()
    return _stamp


def _entry(where: Path, rs: Ruleset) -> Path:
    return where / "lint" / cache._named("\0".join(map(str, cache._memory_key(rs.folder))), ".lint", _code_stamp())


def _key(rs: Ruleset) -> list[object]:
    # the folders too: a problem names its file, and the same files elsewhere are other places;
    # and the working folder, since a message that names another place ("also used at ...")
    # writes it relative to where check ran
    return [rs.digest, [list(link) for link in rs.links], list(map(str, cache._memory_key(rs.folder))), os.getcwd()]


def lint(rs: Ruleset) -> list[Problem]:
    """`checks.lint(rs)`, from the cache when this very ruleset and code were linted before."""
    from . import checks

    where = cache.folder()
    if where is None or not rs.digest:
        return checks.lint(rs)
    entry = _entry(where, rs)
    try:
        head, packed = cache._loads(cache.read_entry(entry) or b"")
        if head["stamp"] == _code_stamp() and head["key"] == _key(rs) and head["sum"] == cache._sum(packed):
            found = [Problem(Place(path, line, col), message) for path, line, col, message in cache._loads(packed)]
            cache._used(entry)
            return found
    except Exception:  # missing, corrupt or foreign: only a miss
        pass
    problems = checks.lint(rs)
    try:
        packed = pickle.dumps([(p.place.path, p.place.line, p.place.col, p.message) for p in problems],
                              protocol=pickle.HIGHEST_PROTOCOL)
        head = {"stamp": _code_stamp(), "key": _key(rs), "sum": cache._sum(packed)}
        cache.write_whole(entry, pickle.dumps((head, packed), protocol=pickle.HIGHEST_PROTOCOL))
        cache._evict(entry.parent, ".lint", MAX_ENTRIES)  # this installation's only
    except (OSError, pickle.PicklingError):
        pass  # a cache that cannot be written only costs the next check its time
    return problems
