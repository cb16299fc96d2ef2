"""Where a ruleset lives and what it is made of: a ruleset id to its folder, a folder to the
files it is read from, and the digest of those files.

Read by the loader and by the cache (which checks an entry's files still hash the same without
parsing them); imports nothing of referee's but its errors and the safe file reader.
"""
from __future__ import annotations

import difflib
import errno
import hashlib
import os
from collections.abc import Iterable
from pathlib import Path

from ..errors import LoadError, Place, Problem, UsageError
from .files import read_bytes

PACKAGE_DIR = Path(__file__).resolve().parent.parent  # referee/: beside it, rulesets/ and scenarios/ in a checkout


def data_dir(name: str) -> Path:
    """`rulesets` or `scenarios`: inside the wheel, else beside the package in a checkout."""
    packaged = PACKAGE_DIR / f"_{name}"
    if packaged.is_dir():
        return packaged
    return PACKAGE_DIR.parent / name


def search_dirs() -> list[Path]:
    extra = [Path(p) for p in os.environ.get("REFEREE_RULESETS", "").split(os.pathsep) if p]
    return [*extra, data_dir("rulesets")]


def available() -> dict[str, Path]:
    """Ruleset id -> folder, first found wins (so REFEREE_RULESETS can shadow a shipped one)."""
    found: dict[str, Path] = {}
    for base in search_dirs():
        if base.is_dir():
            for folder in sorted(base.iterdir()):
                if (folder / "ruleset.yaml").is_file():
                    found.setdefault(folder.name, folder)
    return found


def locate(name: str, near: Path | None = None) -> Path:
    """A ruleset id or a path to a ruleset folder (or its ruleset.yaml)."""
    as_path = Path(name)
    if as_path.name == "ruleset.yaml":
        as_path = as_path.parent
    if (as_path / "ruleset.yaml").is_file():
        return as_path
    if near is not None and (near.parent / name / "ruleset.yaml").is_file():
        return near.parent / name
    known = available()
    if name in known:
        return known[name]
    if as_path.is_dir():  # a folder was meant: say what is missing, not that the id is unknown
        raise UsageError(f"{name}: not a ruleset folder (no ruleset.yaml in it)")
    hint = difflib.get_close_matches(name, known, n=1) or _ids_containing(name, known)
    also = f"; did you mean '{hint[0]}'?" if hint else f"; known: {', '.join(known) or 'none'}"
    raise UsageError(f"unknown ruleset '{name}'{also}")


def _ids_containing(name: str, known: Iterable[str]) -> list[str]:
    """The one id that has `name` as a whole part ('mahjcon' -> 'tournament-mahjcon', 'house' ->
    'house-example'): a judge types the word she remembers, which is too short for a close match."""
    word = name.strip().lower().replace("_", "-")
    hits = [k for k in known if word and word in k.split("-")]
    return hits if len(hits) == 1 else []


def inputs(folder: Path) -> tuple[list[str], Problem | None]:
    """The files a ruleset folder is made of, relative to it, in the order they are read and hashed."""
    files = ["ruleset.yaml"]
    if os.path.lexists(folder / "facts.yaml"):
        files.append("facts.yaml")
    if os.path.lexists(folder / "coverage.yaml"):  # an event's map of its sheet: read by the lint, kept with the rules
        files.append("coverage.yaml")
    sit_dir = folder / "situations"
    try:
        names = os.listdir(sit_dir)
    except FileNotFoundError:
        if not os.path.islink(sit_dir):
            return files, None
        return files, Problem(Place(str(sit_dir)), "situations folder is a symlink to nothing")
    except NotADirectoryError:
        return files, Problem(Place(str(sit_dir)), "'situations' is a file; it must be a folder of situation files")
    except OSError as exc:
        why = "a symlink loop" if exc.errno == errno.ELOOP else exc.strerror
        return files, Problem(Place(str(sit_dir)), f"situations folder is {why}")
    # As glob("*.yaml") would pick them: hidden files (an editor's .x.yaml.swp) are not situations.
    return files + [f"situations/{n}" for n in sorted(names) if n.endswith(".yaml") and not n.startswith(".")], None


def _feed(h: "hashlib._Hash", rel: str, data: bytes) -> None:
    h.update(rel.encode())
    h.update(b"\0")
    h.update(data)
    h.update(b"\0")


def content_digest(folder: Path, base_digest: str) -> str | None:
    """The digest `load` would give this folder's files, without parsing them; None if one cannot be read."""
    files, bad = inputs(folder)
    if bad is not None:
        return None
    h = hashlib.sha256(base_digest.encode())
    for rel in files:
        try:
            _feed(h, rel, read_bytes(os.path.join(folder, rel)))
        except LoadError:
            return None
    return h.hexdigest()
