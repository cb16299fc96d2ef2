"""Find rulesets on disk, read their files, validate them, and merge overlays.

A ruleset folder holds `ruleset.yaml` (metadata, sources, scoring), an optional
`facts.yaml` (facts shared by its situations) and `situations/*.yaml`. A ruleset that
`extends` another starts from the base's merged result and changes it.

A load is answered from the cache when the files are unchanged; only a miss imports `reading`
(the parser, pydantic and the models).
"""
from __future__ import annotations

import gc
import os
from pathlib import Path
from typing import Any

from ..errors import LoadError, Place, Problem
from .folders import PACKAGE_DIR, _feed, available, content_digest, data_dir, inputs, locate, search_dirs  # noqa: F401 (callers find rulesets here)
from .ruleset import Lazy, Origin, Ruleset  # noqa: F401 (and the loaded ruleset's types)

# ---------------------------------------------------------------------------
# loading


def load(name: str | Path, _seen: tuple[Path, ...] = (), near: Path | None = None,
         plain: bool = False) -> tuple[Ruleset | None, list[Problem]]:
    """Load and merge a ruleset; returns every problem found rather than stopping at the first.

    A ruleset that loads without problems is kept (in this process and in the user's cache
    folder) under the digest of all its files, so the next load with the same files skips
    parsing and validation. `plain`: a ruleset from the cache may hold records (`records`) in
    place of the models, for a caller that only reads it (a ruling); otherwise it holds models.
    """
    from . import cache

    folder = locate(str(name), near).resolve()
    if folder in _seen:
        chain = " -> ".join(p.name for p in (*_seen, folder))
        return None, [Problem(Place(str(folder / "ruleset.yaml"), 1, 1), f"'extends' makes a cycle: {chain}")]
    rs = cache.fetch(folder, plain)
    if rs is not None:
        return rs, []
    enabled = gc.isenabled()
    gc.disable()  # parsing makes many objects and no cycles; collecting meanwhile doubled the time at 5,000 situations
    try:
        rs, problems = _load(folder, _seen)
    finally:
        if enabled:
            gc.enable()
    if rs is not None and not problems:
        cache.store(rs)
    return rs, problems


def _load(folder: Path, _seen: tuple[Path, ...]) -> tuple[Ruleset | None, list[Problem]]:
    from .reading import read

    return read(folder, _seen, load)


def __getattr__(name: str) -> Any:
    if name == "validate":  # validation with places lives with the models it builds
        from .reading import validate

        return validate
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_CACHE: dict[tuple[str, str, bool], Ruleset] = {}


def load_strict(name: str | Path, plain: bool = False) -> Ruleset:
    """Load for use (not for checking): any problem in the files is an error. `plain`: as for `load`."""
    key = (str(name), os.environ.get("REFEREE_RULESETS", ""), plain)
    if key not in _CACHE:
        rs, problems = load(name, plain=plain)
        if problems or rs is None:
            raise LoadError(problems or [Problem(Place(str(name)), "could not load ruleset")])
        _CACHE[key] = rs
    return _CACHE[key]
