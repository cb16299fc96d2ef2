"""Finding a card (`practice`, or the path of a card file) and keeping it ready between runs.

A card that checks clean is kept in the cache folder under the digest of its bytes, as plain
data (the YAML's values and the expanded targets: no classes, read back through the cache's
allow-list), so `referee hand verify` does not parse and expand the card each time.
"""
from __future__ import annotations

import hashlib
import pickle
from pathlib import Path
from typing import Any

from ..errors import LoadError, UsageError
from .index import CardIndex
from .notation import Card, read_card

_MEMORY: dict[tuple[str, str], CardIndex] = {}
_SHAPING = ("notation.py", "expand.py", "index.py", "store.py")


def shipped() -> dict[str, Path]:
    """Card id -> file, for the cards that come with referee (the invented practice card)."""
    package = Path(__file__).resolve().parent.parent
    folder = package / "_cards"  # inside the wheel; beside the package in a checkout
    if not folder.is_dir():
        folder = package.parent / "cards"
    if not folder.is_dir():
        return {}
    return {p.stem: p for p in sorted(folder.glob("*.yaml")) if p.stem != "template"}  # a form to copy, not a card


def locate(name: str) -> Path:
    """A shipped card's id, or the path of a card file."""
    text = str(name).strip()
    as_path = Path(text).expanduser()
    if "/" in text or "\\" in text or as_path.suffix.lower() in (".yaml", ".yml") or as_path.is_file():
        if not as_path.is_file():
            raise UsageError(f"card file '{text}': no such file")
        return as_path
    found = shipped()
    if text in found:
        return found[text]
    ids = ", ".join(found) or "none"
    raise UsageError(f"unknown card '{text}'; shipped cards: {ids} (or give the path of a card file)")


def check(path: Path) -> tuple[Card, list[Any], list[Any], list[Any]]:
    """(card, errors, warnings, targets per line) of one card file, for `referee card check`."""
    from ..files import decode, read_bytes
    from ..yamlload import parse
    from .lint import lint

    doc = parse(decode(read_bytes(path), path), str(path))
    card = read_card(doc)
    problems, warnings, raw = lint(card, doc)
    return card, problems, warnings, raw


def load(name: str) -> CardIndex:
    """The card ready for matching; a card with problems is refused, its first problem placed."""
    from ..files import decode, read_bytes

    path = locate(name)
    raw_bytes = read_bytes(path)
    digest = hashlib.sha256(raw_bytes).hexdigest()
    key = (str(path.resolve()), digest)
    if key in _MEMORY:
        return _MEMORY[key]
    text = decode(raw_bytes, path)
    entry = _fetch(path, digest)
    if entry is not None:
        from ..files import Document

        data, state = entry
        card = read_card(Document(str(path), data, None, text))
        if not card.problems:
            idx = CardIndex.from_state(card, state)
            _MEMORY[key] = idx
            return idx
    card, problems, _, raw = check(path)
    if problems:
        raise LoadError(problems)
    idx = CardIndex.build(card, raw)
    from ..yamlload import parse

    _store(path, digest, parse(text, str(path)).data, idx)
    _MEMORY[key] = idx
    return idx


def _stamp() -> str:
    from .. import cache

    here = Path(__file__).resolve().parent
    h = hashlib.sha256(cache.stamp().encode())
    for name in _SHAPING:
        h.update((here / name).read_bytes())
    return h.hexdigest()


def _entry(path: Path) -> Path | None:
    from .. import cache

    where = cache.folder()
    if where is None:
        return None
    return where / "cards" / f"{hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:24]}.card"


def _fetch(path: Path, digest: str) -> tuple[Any, Any] | None:
    from .. import cache

    entry = _entry(path)
    if entry is None:
        return None
    try:
        head, packed = cache._loads(cache.read_entry(entry) or b"")
        if head["stamp"] != _stamp() or head["digest"] != digest or head["sum"] != cache._sum(packed):
            return None
        data, state = cache._loads(packed)
        return data, state
    except Exception:  # missing, corrupt or foreign: only a miss
        return None


def _store(path: Path, digest: str, data: Any, idx: CardIndex) -> None:
    from .. import cache

    entry = _entry(path)
    if entry is None:
        return
    try:
        packed = pickle.dumps((data, idx.state()), protocol=pickle.HIGHEST_PROTOCOL)
        head = {"stamp": _stamp(), "digest": digest, "sum": cache._sum(packed)}
        cache.write_whole(entry, pickle.dumps((head, packed), protocol=pickle.HIGHEST_PROTOCOL))
    except (OSError, pickle.PicklingError):
        pass
