"""Finding a card (`practice`, or the path of a card file) and keeping it ready between runs.

A card that checks clean is kept in the cache folder under the digest of its bytes, as plain
data only (the card's lines and the targets' columns: tuples, ints, strings, and each target's
groups and blocks pickled apart; all read back by an unpickler that refuses every class), so
`referee hand verify` neither parses nor expands the card each time, and does not import the
ruleset model to find the cache folder.
"""
from __future__ import annotations

import contextlib
import gc
import hashlib
import itertools
import pickle
import sys
import zlib
from pathlib import Path
from typing import Any, Iterator

from ..errors import LoadError, RefereeError, UsageError
from .index import CardIndex
from .limits import MAX_CARD_BYTES
from .notation import Card, card_from_state, card_state, read_card

_MEMORY: dict[tuple[str, str], CardIndex] = {}
# The modules whose change alters what an entry holds: an entry written by other code is a miss.
_SHAPING = ("tiles.py", "groups.py", "line.py", "limits.py", "notation.py", "expand.py", "packed.py", "index.py", "store.py")
_stamp: str | None = None


def _folder() -> Path | None:
    package = Path(__file__).resolve().parent.parent
    folder = package / "_cards"  # inside the wheel; beside the package in a checkout
    if not folder.is_dir():
        folder = package.parent / "cards"
    return folder if folder.is_dir() else None


def shipped() -> dict[str, Path]:
    """Card id -> file, for the cards that come with referee (the invented practice card)."""
    folder = _folder()
    if folder is None:
        return {}
    return {p.stem: p for p in sorted(folder.glob("*.yaml")) if p.stem != "template"}  # a form to copy, not a card


def template_path() -> Path | None:
    """The card template that ships with referee (`referee card template` prints it)."""
    folder = _folder()
    return folder / "template.yaml" if folder is not None and (folder / "template.yaml").is_file() else None


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


def check(path: Path, raw_bytes: bytes | None = None) -> tuple[Card, list[Any], list[Any], list[Any]]:
    """(card, errors, warnings, targets per line) of one card file, for `referee card check`."""
    from ..rules.files import decode, read_bytes
    from ..rules.yamlload import parse
    from .lint import lint

    with _collector_off():
        doc = parse(decode(read_bytes(path, MAX_CARD_BYTES) if raw_bytes is None else raw_bytes, path), str(path))
        card = read_card(doc)
        problems, warnings, raw = lint(card, doc)
    return card, problems, warnings, raw


@contextlib.contextmanager
def _collector_off() -> Iterator[None]:
    """Reading, expanding or unpacking a card makes many small tuples and no cycles: a collection
    meanwhile only costs time (a tenth of a cold load)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def load(name: str) -> CardIndex:
    """The card ready for matching; a card with problems is refused, its first problem placed."""
    from ..rules.files import read_bytes

    path = locate(name)
    raw_bytes = read_bytes(path, MAX_CARD_BYTES)
    digest = hashlib.sha256(raw_bytes).hexdigest()
    where = str(path.resolve())
    key = (where, digest)
    idx = _MEMORY.get(key)
    if idx is None:
        idx = _fetch(path, where, digest)
    if idx is None:
        card, problems, _, raw = check(path, raw_bytes)
        if problems:
            raise LoadError(problems, f"referee card check {path}")
        idx = CardIndex.build(card, raw)
        _store(where, digest, idx)
    _MEMORY[key] = idx
    return idx


def _code_stamp() -> str:
    """Which code wrote an entry: referee's version, Python's, and the modules in _SHAPING."""
    global _stamp
    if _stamp is None:
        from .. import __version__

        here = Path(__file__).resolve().parent
        h = hashlib.sha256(f"{__version__}\0{sys.version}".encode())
        for name in _SHAPING:
            h.update((here / name).read_bytes())
        _stamp = h.hexdigest()
    return _stamp


def _entry(where: str) -> Path | None:
    """The entry of the card file at `where` (its resolved path)."""
    from ..rules.cachefiles import folder

    cache = folder()
    if cache is None:
        return None
    return cache / "cards" / f"{hashlib.sha256(where.encode()).hexdigest()[:24]}.card"


def _sum(packed: bytes) -> int:
    """That the entry came back whole: a torn or damaged file is a miss. A CRC, not a digest: it
    seals nothing (whoever could write the entry could write its sum; read_entry keeps entries of
    other users out), and a SHA-256 of the entry was a fifth of a warm load."""
    return zlib.crc32(packed)


class _Pickled:
    """A column of the index (each target's groups, or its blocks) kept as one small pickle per
    target, unpickled when a search first makes that Target: a verify reaches a few dozen of
    the card's targets, and unpickling every one of them was half of a warm load. The pickles
    lie end to end in one bytes (`ends`: where each ends, 4 bytes apiece), so the load itself
    makes two objects, not one a target."""

    __slots__ = ("data", "ends", "entry")

    def __init__(self, data: bytes, ends: bytes, entry: Path) -> None:
        self.data, self.ends, self.entry = data, ends, entry

    @staticmethod
    def packed(column: list[Any]) -> tuple[bytes, bytes]:
        """(data, ends) of a column, for the entry."""
        blobs = [pickle.dumps(value, pickle.HIGHEST_PROTOCOL) for value in column]
        return b"".join(blobs), b"".join(end.to_bytes(4, "little") for end in itertools.accumulate(map(len, blobs)))

    def __len__(self) -> int:
        return len(self.ends) // 4

    def __getitem__(self, number: int) -> Any:
        from ..rules.cachefiles import loads_plain

        at = 4 * number
        start = int.from_bytes(self.ends[at - 4:at], "little") if number else 0
        try:
            return loads_plain(self.data[start:int.from_bytes(self.ends[at:at + 4], "little")])
        except Exception:
            # The entry's sum held, so this pickle was written as it is (by hand, or by a tool that
            # names a class): it was never run. Drop the entry so the next run rebuilds it, and
            # say so in one line rather than fail mid-search.
            with contextlib.suppress(OSError):
                self.entry.unlink()
            raise RefereeError(f"the card's cache entry {self.entry} held something other than plain data and "
                               "was removed; run the command again") from None


def _fetch(path: Path, where: str, digest: str) -> CardIndex | None:
    from ..rules.cachefiles import loads_plain, read_entry

    entry = _entry(where)
    if entry is None:
        return None
    try:
        head, packed = loads_plain(read_entry(entry) or b"")
        if head["stamp"] != _code_stamp() or head["digest"] != digest or head["sum"] != _sum(packed):
            return None
        with _collector_off():
            card, (line_of, groups, blocks, bindings, L, U), rest = loads_plain(packed)
            columns = (line_of, _Pickled(*groups, entry), _Pickled(*blocks, entry), bindings, L, U)
            return CardIndex.from_state(card_from_state(card, str(path)), (columns, rest))
    except Exception:  # missing, corrupt or foreign: only a miss, and rewritten after the load
        return None


def _store(where: str, digest: str, idx: CardIndex) -> None:
    from ..rules.cachefiles import write_whole

    entry = _entry(where)
    if entry is None:
        return
    try:
        (line_of, groups, blocks, bindings, L, U), rest = idx.state()
        protocol = pickle.HIGHEST_PROTOCOL
        columns = (line_of, _Pickled.packed(groups), _Pickled.packed(blocks), bindings, L, U)
        packed = pickle.dumps((card_state(idx.card), columns, rest), protocol=protocol)
        head = {"stamp": _code_stamp(), "digest": digest, "sum": _sum(packed)}
        write_whole(entry, pickle.dumps((head, packed), protocol=protocol))
    except (OSError, pickle.PicklingError):
        pass
