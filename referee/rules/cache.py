"""Validated rulesets kept between runs, so a ruling does not parse and validate YAML each time.

An entry holds one ruleset that loaded without a single problem, keyed by the digest of every
file of it and of the rulesets it extends. It is used only when the files hash to the same
digest, each `extends` still names the same folder, the entry was written by this very
code (referee version and the source of the modules that shape the pickled data), and its body
still hashes to the sum written beside it; anything else, including a corrupt file, is a miss
and the ruleset is loaded and validated afresh.
Entries are pickles read back through an allow-list (`_DataOnly`): they can rebuild the
model's own classes, their records (`records`) and paths and nothing else, so even a planted
entry runs no code. An entry holds the ruleset twice, as models and as records, each with its own
sum: a ruling asks for the records (`plain`), so it neither imports pydantic's model machinery nor
builds the model classes; everything else (the lint, the handouts, an overlay's base) gets models.

Entries live in the user's cache folder (`REFEREE_CACHE_DIR`, else `$XDG_CACHE_HOME/referee`,
else `~/.cache/referee`), never in the repository; `REFEREE_NO_CACHE=1` turns the disk cache off.
Within one process every ruleset is also remembered, so overlays share one copy of their base.
Answers files (`rule --answers`) are kept the same way, by path and the digest of their bytes.

Several installations (two checkouts, an installed referee beside a checkout, an organizer trying a
new version beside the event's) may share one cache folder. Each entry's name starts with its
installation's mark (the folder its code is in) and holds the code's stamp, so two versions never
overwrite each other's entry for the same ruleset, and each installation evicts only its own least
used entries: one installation's rulings never miss because another one ran. Another
installation's entries are removed only when unused for STALE_DAYS (a checkout since deleted).
"""
from __future__ import annotations

import gc
import hashlib
import io
import os
import pickle
import sys
from pathlib import Path
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from .. import __version__
from .cachefiles import _not_foreign, folder, make_private, owned_alone, read_entry, write_whole  # noqa: F401 (kept here for callers)
from ..errors import RefereeError
from . import records
from .folders import content_digest, locate
from .ruleset import Lazy, Origin, Ruleset
from .memo import keep

_ORIGINS = ("fact_origin", "situation_origin", "node_origin", "field_origin")
_SHAPING = ("model.py", "records.py", "loader.py", "reading.py", "yamlload.py", "files.py", "cache.py", "ruleset.py",
            "folders.py", "shelf.py")  # modules whose change alters an entry

_MEMORY: dict[tuple[Path, str, bool], Ruleset] = {}
_stamp: str | None = None


def stamp() -> str:
    """Which code wrote an entry: an entry from other code is never read back."""
    global _stamp
    if _stamp is None:
        h = hashlib.sha256(f"{__version__}\0{sys.version}\0".encode())
        h.update(_pydantic_version())
        here = Path(__file__).resolve().parent
        for name in _SHAPING:
            h.update((here / name).read_bytes())
        _stamp = h.hexdigest()
    return _stamp


def _pydantic_version() -> bytes:
    """pydantic's version file as it is on disk: which pydantic validated an entry, without
    importing pydantic (a quarter of a cached ruling's start-up) only to ask."""
    from importlib.util import find_spec

    spec = find_spec("pydantic")
    if spec is None or not spec.submodule_search_locations:
        return b"no pydantic"
    try:
        return (Path(next(iter(spec.submodule_search_locations))) / "version.py").read_bytes()
    except OSError:
        return b"no pydantic version"


def _memory_key(ruleset_folder: Path) -> tuple[Path, str]:
    # REFEREE_RULESETS decides which folder an `extends` names, so it is part of every key.
    return ruleset_folder, os.environ.get("REFEREE_RULESETS", "")


def _held(ruleset_folder: Path, plain: bool) -> tuple[Path, str, bool]:
    """The key of this process's copy: as models, or as records (`plain`)."""
    return (*_memory_key(ruleset_folder), plain)


_install: str | None = None


def installation() -> str:
    """This installation's mark, the start of every entry name it writes: the folder its code is in."""
    global _install
    if _install is None:
        _install = hashlib.sha256(str(Path(__file__).resolve().parent.parent).encode()).hexdigest()[:8]
    return _install


def _named(key: str, suffix: str, code: str | None = None) -> str:
    """An entry's file name: this installation's mark, then the key and the code's stamp hashed
    (another version of referee, reading the same folder, keeps an entry of its own)."""
    digest = hashlib.sha256(f"{key}\0{code or stamp()}".encode()).hexdigest()[:24]
    return f"{installation()}-{digest}{suffix}"


def _entry_path(where: Path, ruleset_folder: Path) -> Path:
    return where / _named("\0".join(map(str, _memory_key(ruleset_folder))), ".ruleset")


class same_files:
    """`with same_files():` each folder's files are hashed once inside the block, for a command
    that loads many rulesets at one moment (`referee rulesets`: every overlay of nmjl would hash
    nmjl's files again). Outside such a block every load hashes every file, as it must."""

    def __enter__(self) -> None:
        _DIGESTS.append({})

    def __exit__(self, *exc: object) -> None:
        _DIGESTS.pop()


_DIGESTS: list[dict[tuple[Path, str], str | None]] = []


def _digest(here: Path, seen: str) -> str | None:
    if not _DIGESTS:
        return content_digest(here, seen)
    known = _DIGESTS[-1]
    if (here, seen) not in known:
        known[(here, seen)] = content_digest(here, seen)
    return known[(here, seen)]


def _current(links: list[tuple[str, str | None]], digest: str) -> bool:
    """Do the files on disk still hash to `digest`, with every `extends` naming the same folder?"""
    seen = ""
    for i, (path, extends) in enumerate(links):
        here = Path(path)
        if extends is not None:
            try:
                if locate(extends, near=here).resolve() != Path(links[i - 1][0]):
                    return False
            except RefereeError:
                return False
        got = _digest(here, seen)
        if got is None:
            return False
        seen = got
    return seen == digest


def fetch(ruleset_folder: Path, plain: bool = False) -> Ruleset | None:
    """The validated ruleset for this folder if its files are unchanged, else None. `plain`: its
    parts as records (`records`), read without the model classes; else as models."""
    known = _MEMORY.get(_held(ruleset_folder, plain))
    if known is not None and _current(known.links, known.digest):
        return known
    where = folder()
    if where is None:
        return None
    entry = _entry_path(where, ruleset_folder)
    blob = read_entry(entry)
    if blob is None:
        return None
    try:
        head, packed, recorded = _loads(blob)
        body, sum_key = (recorded, "records_sum") if plain else (packed, "sum")
        if head["stamp"] != stamp() or head[sum_key] != _sum(body) or head["key"] != list(_memory_key(ruleset_folder)):
            return None  # the key: an entry copied from another folder's ruleset is no entry for this one
        if not _current(head["links"], head["digest"]):
            return None
        rs = _unpack(body, entry, plain)
    except Exception:  # a corrupt or foreign entry is only a miss; it is rewritten after the load
        return None
    _MEMORY[_held(ruleset_folder, plain)] = rs
    _used(entry)
    return rs


def store(rs: Ruleset) -> None:
    """Remember a ruleset that loaded without problems; a cache that cannot be written is skipped."""
    _MEMORY[_held(rs.folder, False)] = rs
    where = folder()
    if where is None:
        return
    entry = _entry_path(where, rs.folder)
    if entry.is_dir() and not entry.is_symlink():
        # a folder in the way stays there (it is not ours to remove); say so, once per run
        if entry not in _BLOCKED:
            _BLOCKED.add(entry)
            sys.stderr.write(f"referee: {entry}: not a cache entry (a folder or other file is in the way); "
                             "the ruleset is read afresh each time until it is removed\n")
        return
    try:
        packed, recorded = _pack(rs), _pack(rs, as_records=True)
        head = {"stamp": stamp(), "key": list(_memory_key(rs.folder)), "links": rs.links, "digest": rs.digest,
                "sum": _sum(packed), "records_sum": _sum(recorded)}
        write_whole(entry, pickle.dumps((head, packed, recorded), protocol=pickle.HIGHEST_PROTOCOL))
        _evict(where, ".ruleset", MAX_RULESETS)
    except (OSError, pickle.PicklingError, TypeError):  # TypeError: a model without its record
        pass


MAX_RULESETS = 64  # ruleset entries kept (each replay's copy of old rules adds one); the least used go first
_BLOCKED: set[Path] = set()


def _used(entry: Path) -> None:
    """Mark an entry as just used, so eviction takes the least recently used ones."""
    try:
        os.utime(entry)
    except OSError:
        pass


STALE_DAYS = 30  # another installation's entries unused this long are removed (its checkout is likely gone)


def _evict(where: Path, suffix: str, keep: int) -> None:
    """Keep this installation's `keep` most recently used entries; another installation's only
    when it used them within STALE_DAYS."""
    import time

    ours, stale = [], time.time() - STALE_DAYS * 86400
    mine = installation() + "-"
    for path in where.glob(f"*{suffix}"):
        try:
            used = path.lstat().st_mtime
        except OSError:
            continue
        if path.name.startswith(mine):
            ours.append((used, path))
        elif used < stale:
            _remove(path)
    for _, old in sorted(ours)[:-keep]:
        _remove(old)


def _remove(entry: Path) -> None:
    if entry.is_file() and not entry.is_symlink():
        entry.unlink(missing_ok=True)


# Validated answers files kept; the oldest go first. Well above the shipped scenarios (over 500):
# at 256 a booklet, which reads every scenario, evicted on every write and validated afresh.
MAX_FILES = 4096
EVICT_EVERY = 64  # writes between scans of the folder: one scan a write was quadratic in a booklet
_FILE_WRITES = [0]


def _file_entry(where: Path, path: Path, real: str | None) -> str:
    # a string, not a Path: a booklet asks for some 400 of these, and pathlib's joins cost more than the read
    return os.path.join(where, "files", _named(real or str(path.resolve()), ".answers"))


def fetch_file(path: Path, raw: bytes, real: str | None = None) -> Any | None:
    """An answers or scenario file whose bytes are exactly `raw`, validated before, as records
    (`records.Answers`: read like the model), or None. `real`: its resolved path, if known."""
    where = folder()
    if where is None:
        return None
    try:
        head, packed = _loads(read_entry(_file_entry(where, path, real)) or b"")
        if head["stamp"] != stamp() or head["digest"] != hashlib.sha256(raw).hexdigest() or head["sum"] != _sum(packed):
            return None
        return _loads(packed)
    except Exception:  # missing, corrupt or foreign: only a miss
        return None


def store_file(path: Path, raw: bytes, data: Any, real: str | None = None) -> None:
    """Remember a file's validated data (a model or its records) under the digest of its bytes;
    skipped when unwritable."""
    where = folder()
    if where is None:
        return
    try:
        packed = pickle.dumps(records.of(data), protocol=pickle.HIGHEST_PROTOCOL)
        head = {"stamp": stamp(), "digest": hashlib.sha256(raw).hexdigest(), "sum": _sum(packed)}
        write_whole(Path(_file_entry(where, path, real)), pickle.dumps((head, packed), protocol=pickle.HIGHEST_PROTOCOL))
        _FILE_WRITES[0] += 1
        if _FILE_WRITES[0] % EVICT_EVERY == 1:  # the first write of a run, then every 64th
            _evict(where / "files", ".answers", MAX_FILES)
    except (OSError, pickle.PicklingError, TypeError):  # TypeError: a model without its record
        pass


def _sum(packed: bytes) -> str:
    """The digest of an entry's body. Pickle has no checksum of its own: a byte changed on disk
    inside a ruling's text would unpickle cleanly and be read out at the table as the ruling."""
    return hashlib.sha256(packed).hexdigest()


# What an entry may name: the ruleset's own model classes, their records and paths. Pickle can
# otherwise call any importable function while it reads; with this list an entry can only rebuild
# data, so a planted or damaged file in the cache folder is a miss, never code run.
_PATHS = {"PosixPath", "WindowsPath", "PurePosixPath", "PureWindowsPath"}


class _DataOnly(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if module == "pathlib" and name in _PATHS:
            return super().find_class(module, name)
        if module == __name__ and name == "_model":
            return _rebuild()
        if module == "referee.rules.records" and name in records.KINDS:
            return records.KINDS[name]
        if module == "referee.rules.model":
            from . import model

            found = getattr(model, name, None)
            if isinstance(found, type) and issubclass(found, model.Strict):
                return found
        raise pickle.UnpicklingError(f"a cache entry may not name {module}.{name}")


def _loads(blob: bytes) -> Any:
    return _DataOnly(io.BytesIO(blob)).load()


def _model(cls: type, fields: dict[str, Any], given: list[str]) -> Any:
    """A model as `_Packer` wrote it: its fields and the names it was given, set as pydantic's own
    `__setstate__` sets them. One call instead of the two of `Strict.__setstate__` and pydantic's
    (with a state dict to build for them): a booklet unpickles some 8,000 models. An entry names
    this function; `_DataOnly` hands out `_rebuild()`, the same with its slots looked up once."""
    return _rebuild()(cls, fields, given)


_REBUILD: list[Callable[[type, dict[str, Any], list[str]], Any]] = []


def _rebuild() -> Callable[[type, dict[str, Any], list[str]], Any]:
    if not _REBUILD:
        from pydantic import BaseModel  # only once a model is read, so pydantic is loaded already

        # The slots' own setters: a third cheaper than object.__setattr__ by name (a frozen
        # model's __setattr__ refuses), and each refuses an object that is not a model.
        slots = [BaseModel.__dict__[name].__set__ for name in
                 ("__dict__", "__pydantic_fields_set__", "__pydantic_extra__", "__pydantic_private__")]

        def build(cls: type, fields: dict[str, Any], given: list[str], _new: Any = object.__new__,
                  put_dict: Any = slots[0], put_given: Any = slots[1], put_extra: Any = slots[2],
                  put_private: Any = slots[3]) -> Any:
            obj = _new(cls)
            try:
                put_dict(obj, fields)
            except TypeError:  # the allow-list also admits records and paths
                raise pickle.UnpicklingError(f"{cls.__name__} is not a model") from None
            put_given(obj, set(given))
            put_extra(obj, None)
            put_private(obj, None)
            return obj

        _REBUILD.append(build)
    return _REBUILD[0]


class _Packer(pickle.Pickler):
    """Pickles a model for `_model` to rebuild: only one with no extra fields and no private
    attributes, which is every model of the rules (extra='forbid'); any other as pickle would."""

    def reducer_override(self, obj: Any) -> Any:
        if getattr(obj, "__pydantic_fields_set__", None) is not None and not isinstance(obj, type) \
                and obj.__pydantic_extra__ is None and obj.__pydantic_private__ is None:
            # sorted: the bytes must follow the content (see `model.Strict.__getstate__`)
            return _model, (type(obj), obj.__dict__, sorted(obj.__pydantic_fields_set__))
        return NotImplemented


def pack_value(value: Any) -> bytes:
    """A value's bytes as the cache writes them: equal content, equal bytes (the handouts share a
    page between rulesets by the bytes of the situations it reaches, cached or read afresh)."""
    out = io.BytesIO()
    _Packer(out, pickle.HIGHEST_PROTOCOL).dump(value)
    return out.getvalue()


def _pack(rs: Ruleset, as_records: bool = False) -> bytes:
    parts = records.of if as_records else (lambda value: value)
    state: dict[str, Any] = {k: parts(getattr(rs, k)) for k, f in rs.__dataclass_fields__.items() if f.init}
    state["folder"] = str(rs.folder)  # a path unpickles slowly (pathlib parses it again)
    state["situations"] = {sid: pack_value(parts(s)) for sid, s in rs.situations.items()}
    if as_records:  # a ruling reads the two or three sources it cites; `rulesets` reads none
        state["sources"] = {key: pack_value(parts(s)) for key, s in rs.sources.items()}
    for name in _ORIGINS:
        origins = {key: (o.path, o.loc) for key, o in getattr(rs, name).items()}
        state[name] = pickle.dumps(origins, protocol=pickle.HIGHEST_PROTOCOL)
    state["meta_origin"] = (rs.meta_origin.path, rs.meta_origin.loc) if rs.meta_origin else None
    return pack_value(state)


def _unpacker(entry: Path) -> Callable[[bytes], Any]:
    """Unpack a part of an entry on first use. The whole entry was written at once, so a part
    that will not unpack means someone else wrote the file: remove it and say so in one line."""

    def build(blob: bytes) -> Any:
        try:
            return _loads(blob)
        except Exception:
            try:
                entry.unlink(missing_ok=True)
            except OSError:  # left in place it would be read again on every run
                raise RefereeError(f"{entry}: a damaged ruleset cache entry that cannot be removed; "
                                   "delete it, or set REFEREE_NO_CACHE=1") from None
            raise RefereeError(f"{entry}: a damaged ruleset cache entry (now removed); run the command again") from None

    return build


# Situations unpacked, by their packed bytes: an overlay carries most of its base's situations
# unchanged, and the twelve shipped rulesets hold some 800 situations of which about 450 differ.
# Equal bytes unpack to equal situations, which nothing changes once loaded, so rulesets loaded in
# one process share them. Within the process only: each process unpacks its own.
_SITUATIONS: dict[bytes, Any] = {}
KEEP_SITUATIONS = 4096


def _shared_situation(blob: bytes, unpack: Callable[[bytes], Any]) -> Any:
    found = _SITUATIONS.get(blob)
    if found is None:
        found = keep(_SITUATIONS, blob, unpack(blob), KEEP_SITUATIONS)
    return found


def _unpack(packed: bytes, entry: Path, plain: bool = False) -> Ruleset:
    enabled = gc.isenabled()
    gc.disable()  # unpickling builds many objects and no cycles; collecting meanwhile only costs time
    try:
        state = _loads(packed)
    finally:
        if enabled:
            gc.enable()
    docs: dict[str, Any] = {}
    unpack = _unpacker(entry)
    state["situations"] = Lazy(state["situations"], lambda blob: _shared_situation(blob, unpack))
    state["folder"] = Path(state["folder"])
    if plain:
        state["sources"] = Lazy(state["sources"], unpack)
    for name in _ORIGINS:
        state[name] = _Later(state[name], unpack, docs)
    if state["meta_origin"] is not None:
        state["meta_origin"] = Origin(*state["meta_origin"], docs)
    return Ruleset(**state)


class _Later(Mapping[Any, Origin]):
    """An origin map kept as one pickle until it is first read. Origins only place a problem in
    a file (check, show); unpacking tens of thousands of them would cost every ruling."""

    def __init__(self, blob: bytes, unpack: Callable[[bytes], Any], docs: dict[str, Any]) -> None:
        self._blob, self._unpack, self._docs = blob, unpack, docs
        self._map: Lazy[Any, Origin] | None = None

    def _opened(self) -> Lazy[Any, Origin]:
        if self._map is None:
            docs = self._docs
            self._map = Lazy(self._unpack(self._blob), lambda packed: Origin(*packed, docs))
        return self._map

    def __getitem__(self, key: Any) -> Origin:
        return self._opened()[key]

    def __contains__(self, key: object) -> bool:
        return key in self._opened()

    def __iter__(self) -> Iterator[Any]:
        return iter(self._opened())

    def __len__(self) -> int:
        return len(self._opened())
