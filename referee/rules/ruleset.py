"""A loaded ruleset: its merged parts, and where each part was written.

Built by the loader from the files, or by the cache from an entry; neither needs the other.
"""
from __future__ import annotations

import difflib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from ..errors import LoadError, Place, UsageError
from .files import Document, Loc
from .memo import keep

if TYPE_CHECKING:  # a ruleset from the cache may hold records (`records`) in place of the models
    from . import model as m


class Origin:
    """Where a node or a situation was written, so a problem names the right file.

    An origin from the on-disk cache knows only the path; the file is read again (once per
    load, shared through `docs`) the first time a problem needs a line and column.
    """

    __slots__ = ("path", "loc", "_doc", "_docs")

    def __init__(self, doc: Document | str, loc: Loc, docs: dict[str, Document] | None = None) -> None:
        self.path = doc if isinstance(doc, str) else doc.path
        self.loc = loc
        self._doc = None if isinstance(doc, str) else doc
        self._docs = docs

    @property
    def doc(self) -> Document:
        if self._doc is None:
            from .yamlload import read

            docs = self._docs if self._docs is not None else {}
            if self.path not in docs:
                try:
                    docs[self.path] = read(self.path)
                except LoadError:  # changed since it was cached: the file is the best we can name
                    docs[self.path] = Document(self.path, None, {})
            self._doc = docs[self.path]
        return self._doc

    def place(self, *sub: Any) -> Place:
        return self.doc.place(self.loc + tuple(sub))


K = TypeVar("K")
V = TypeVar("V")


class Lazy(Mapping[K, V]):
    """A read-only mapping whose values are built from their packed form on first use.

    The cache hands out situations and origins this way: a ruling needs two or three of them.
    """

    def __init__(self, packed: dict[K, Any], build: Callable[[Any], V]) -> None:
        self._packed = packed
        self._build = build
        self._built: dict[K, V] = {}

    def __getitem__(self, key: K) -> V:
        try:
            return self._built[key]
        except KeyError:
            built = self._built[key] = self._build(self._packed[key])
            return built

    def get(self, key: K, default: Any = None) -> Any:
        # Mapping's own get goes through __getitem__ and a KeyError; the engine asks on every step
        try:
            return self._built[key]
        except KeyError:
            return self[key] if key in self._packed else default

    def __contains__(self, key: object) -> bool:
        return key in self._packed

    def packed(self, key: K) -> Any:
        """A value as packed, without building it: equal packed forms build equal values, so a
        reader can tell two rulesets' situations alike without unpacking either."""
        return self._packed[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._packed)

    def __len__(self) -> int:
        return len(self._packed)


# A role's seat fact, built once per role: the engine asks for it on every step of a walk. Kept
# for the process, not the ruleset: rulesets loaded together share the situations (and so the
# roles) they carry alike, and building the fact is most of the cost of asking for it.
_ROLE_FACTS: dict[int, tuple[m.RoleDef, m.FactDef]] = {}


@dataclass
class Ruleset:
    meta: m.RulesetMeta
    scoring: m.Scoring
    sources: dict[str, m.Source]
    facts: dict[str, m.FactDef]
    situations: Mapping[str, m.Situation]  # a dict while loading; `Lazy` from the cache
    folder: Path
    chain: list[str]
    hash: str = ""  # the first 12 characters of `digest`, shown with every ruling
    digest: str = ""  # sha256 over every file of the chain, base first: the cache's key
    links: list[tuple[str, str | None]] = field(default_factory=list)  # (folder, its 'extends'), base first
    # The *_origin maps are dicts while loading and read-only `Lazy` maps from the cache.
    fact_origin: dict[str, Origin] = field(default_factory=dict)
    situation_origin: dict[str, Origin] = field(default_factory=dict)
    node_origin: dict[tuple[str, str], Origin] = field(default_factory=dict)
    field_origin: dict[tuple[str, str], Origin] = field(default_factory=dict)  # (situation, key) a patch changed
    meta_origin: Origin | None = None
    _kept: dict[str, dict[Any, Any]] = field(default_factory=dict, init=False, repr=False, compare=False)

    @property
    def id(self) -> str:
        return self.meta.id

    @property
    def label(self) -> str:
        """The version as printed everywhere: the author's version and the content hash, since
        two folders may both say 2026.1 and rule differently."""
        return f"{self.meta.version} ({self.hash})"

    def situation(self, sid: str) -> m.Situation:
        if sid in self.situations:
            return self.situations[sid]
        hint = difflib.get_close_matches(sid, self.situations, n=1)
        also = f"; did you mean '{hint[0]}'?" if hint else "; try 'referee search WORDS'"
        raise UsageError(f"unknown situation '{sid}' in ruleset '{self.id}'{also}")

    def kept(self, what: str) -> dict[Any, Any]:
        """A memo of what the ruling code works out from this ruleset alone (the situations a case
        goes on into, a ruling's details), kept as long as the ruleset: a loaded ruleset's
        situations and facts are never changed, so nothing in it goes stale. Not for use while
        the ruleset is being read (its situations are still being patched then)."""
        found = self._kept.get(what)
        if found is None:
            found = self._kept[what] = {}
        return found

    def fact(self, name: str, sid: str | None = None) -> m.FactDef | None:
        """A fact as a situation sees it: its own facts and roles first, then the ruleset's."""
        sit = self.situations.get(sid) if sid else None
        if sit is not None:
            if name in sit.facts:
                return sit.facts[name]
            role = sit.roles.get(name)
            if role is not None:
                known = _ROLE_FACTS.get(id(role))
                if known is None or known[0] is not role:  # the role is kept with it, so its id is not reused
                    known = keep(_ROLE_FACTS, id(role), (role, role.as_fact()), 8192)
                return known[1]
        return self.facts.get(name)
