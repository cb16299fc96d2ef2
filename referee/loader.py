"""Find rulesets on disk, read their files, validate them, and merge overlays.

A ruleset folder holds `ruleset.yaml` (metadata, sources, scoring), an optional
`facts.yaml` (facts shared by its situations) and `situations/*.yaml`. A ruleset that
`extends` another starts from the base's merged result and changes it.
"""
from __future__ import annotations

import difflib
import errno
import gc
import hashlib
import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from . import model as m
from .errors import LoadError, Place, Problem, UsageError
from .files import Document, Loc, decode, read_bytes

T = TypeVar("T", bound=BaseModel)

PACKAGE_DIR = Path(__file__).resolve().parent


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

    def __contains__(self, key: object) -> bool:
        return key in self._packed

    def __iter__(self) -> Iterator[K]:
        return iter(self._packed)

    def __len__(self) -> int:
        return len(self._packed)


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
    # A role's seat fact, built once per role: the engine asks for it on every step of a walk.
    _role_facts: dict[int, tuple[m.RoleDef, m.FactDef]] = field(default_factory=dict, init=False, repr=False, compare=False)

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

    def fact(self, name: str, sid: str | None = None) -> m.FactDef | None:
        """A fact as a situation sees it: its own facts and roles first, then the ruleset's."""
        sit = self.situations.get(sid) if sid else None
        if sit is not None:
            if name in sit.facts:
                return sit.facts[name]
            role = sit.roles.get(name)
            if role is not None:
                known = self._role_facts.get(id(role))
                if known is None or known[0] is not role:  # an id is only reused once its role is gone
                    known = self._role_facts[id(role)] = (role, role.as_fact())
                return known[1]
        return self.facts.get(name)


# ---------------------------------------------------------------------------
# validation with places


def _walk(data: Any, loc: tuple[Any, ...]) -> Loc:
    """Map pydantic's error path onto the data path, dropping union-member labels."""
    out: list[Any] = []
    cur = data
    for seg in loc:
        if isinstance(cur, dict) and seg in cur:
            out.append(seg)
            cur = cur[seg]
        elif isinstance(cur, dict) and seg == "from_" and "from" in cur:
            out.append("from")
            cur = cur["from"]
        elif isinstance(cur, list) and isinstance(seg, int) and seg < len(cur):
            out.append(seg)
            cur = cur[seg]
    return tuple(out)


_KEYS_OF = [
    {(f.alias or name) for name, f in cls.model_fields.items()}
    for cls in (m.RulesetMeta, m.Source, m.Scoring, m.ExposurePenalty, m.FactDef, m.RoleDef, m.Cite, m.Transfer,
                m.PointAward, m.Settle, m.Ruling, m.Goto, m.QuestionNode, m.RulingNode,
                m.GotoNode, m.Situation, m.SituationPatch, m.FactsFile, m.Expect, m.Answers)
]
_ALL_KEYS = sorted(set().union(*_KEYS_OF))


def _candidates(siblings: set[str]) -> list[str]:
    """Keys valid beside `siblings`: a misspelt 'notse' in a ruling means 'notes', not a source's 'note'."""
    known = siblings & set(_ALL_KEYS)
    fits = [keys for keys in _KEYS_OF if known and known <= keys]
    return sorted(set().union(*fits)) if fits else _ALL_KEYS


def _message(err: dict[str, Any], loc: Loc, siblings: set[str] = frozenset()) -> str:  # type: ignore[assignment]
    kind = err["type"]
    last = loc[-1] if loc else ""
    if kind == "extra_forbidden":
        bad = str(err["loc"][-1])
        hint = difflib.get_close_matches(bad, [k for k in _candidates(siblings - {bad}) if k != bad], n=1)  # never itself
        return f"unknown key '{bad}'" + (f"; did you mean '{hint[0]}'?" if hint else "")
    if kind == "missing":
        return f"missing required key '{err['loc'][-1]}'"
    msg = str(err["msg"]).removeprefix("Value error, ")
    where = f"'{last}': " if isinstance(last, str) and last else ""
    return where + msg


def validate(cls: type[T], doc: Document, loc: Loc = ()) -> tuple[T | None, list[Problem]]:
    data = doc.data
    for seg in loc:
        data = data[seg]
    if data is None:
        return None, [Problem(doc.place(loc), f"empty file; expected a {cls.__name__} mapping")]
    if not isinstance(data, dict):
        return None, [Problem(doc.place(loc), f"expected a mapping of keys for a {cls.__name__}")]
    try:
        return cls.model_validate(data), []
    except ValidationError as exc:
        problems = []
        seen: set[tuple[Place, str]] = set()
        for err in exc.errors():
            sub = _walk(data, err["loc"])
            place = doc.place(loc + sub)
            parent: Any = data
            for seg in sub[:-1]:
                parent = parent[seg]
            text = _message(err, sub, {str(k) for k in parent} if isinstance(parent, dict) else set())
            if (place, text) not in seen:
                seen.add((place, text))
                problems.append(Problem(place, text))
        # In file order, as the author reads them, not in the models' field order.
        problems.sort(key=lambda p: (p.place.line, p.place.col))
        return None, problems


# ---------------------------------------------------------------------------
# loading


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


def load(name: str | Path, _seen: tuple[Path, ...] = (), near: Path | None = None) -> tuple[Ruleset | None, list[Problem]]:
    """Load and merge a ruleset; returns every problem found rather than stopping at the first.

    A ruleset that loads without problems is kept (in this process and in the user's cache
    folder) under the digest of all its files, so the next load with the same files skips
    parsing and validation.
    """
    from . import cache

    folder = locate(str(name), near).resolve()
    if folder in _seen:
        chain = " -> ".join(p.name for p in (*_seen, folder))
        return None, [Problem(Place(str(folder / "ruleset.yaml"), 1, 1), f"'extends' makes a cycle: {chain}")]
    rs = cache.fetch(folder)
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
    problems: list[Problem] = []
    raw: dict[Path, bytes] = {}
    meta_doc = _read(folder / "ruleset.yaml", problems, raw)
    if meta_doc is None:
        return None, problems
    meta, errs = validate(m.RulesetMeta, meta_doc)
    problems += errs
    if meta is None:
        return None, problems

    base: Ruleset | None = None
    if meta.extends:
        try:
            base, base_problems = load(meta.extends, (*_seen, folder), near=folder)
        except UsageError as exc:
            return None, problems + [Problem(meta_doc.place(("extends",)), exc.message)]
        problems += base_problems
        if base is None:
            return None, problems
    files, bad = inputs(folder)
    if bad is not None:
        problems.append(bad)
    facts_path = folder / "facts.yaml"

    rs = Ruleset(
        meta=meta,
        scoring=_merge_scoring(base.scoring if base else None, meta.scoring),
        sources={**(base.sources if base else {}), **meta.sources},
        facts=dict(base.facts) if base else {},
        situations=dict(base.situations) if base else {},
        folder=folder,
        chain=[*(base.chain if base else []), meta.id],
        links=[*(base.links if base else []), (str(folder), meta.extends)],
        fact_origin=dict(base.fact_origin) if base else {},
        situation_origin=dict(base.situation_origin) if base else {},
        node_origin=dict(base.node_origin) if base else {},
        field_origin=dict(base.field_origin) if base else {},
        meta_origin=Origin(meta_doc, ()),
    )
    situations: dict[str, m.Situation] = rs.situations  # type: ignore[assignment]

    for sid in meta.remove:
        if sid not in situations:
            problems.append(Problem(meta_doc.place(("remove",)), f"'remove' names unknown situation '{sid}'"))
        situations.pop(sid, None)

    if "facts.yaml" in files:
        doc = _read(facts_path, problems, raw)
        if doc is not None:
            ff, errs = validate(m.FactsFile, doc)
            problems += errs
            if ff:
                for name, fact in ff.facts.items():
                    rs.facts[name] = fact
                    rs.fact_origin[name] = Origin(doc, ("facts", name))

    if "coverage.yaml" in files:  # hashed, so the lint of a changed map is not answered from its cache
        try:
            raw[folder / "coverage.yaml"] = read_bytes(folder / "coverage.yaml")
        except LoadError as exc:
            problems.extend(exc.problems)

    for rel in files:
        if not rel.startswith("situations/"):
            continue
        path = folder / rel
        doc = _read(path, problems, raw)
        if doc is None:
            continue
        if isinstance(doc.data, dict) and "patch" in doc.data:
            _apply_patch(rs, doc, problems)
            continue
        sit, errs = validate(m.Situation, doc)
        problems += errs
        if sit is None:
            continue
        if sit.id in situations and Path(rs.situation_origin[sit.id].path).resolve().is_relative_to(folder):
            first = rs.situation_origin[sit.id].place()
            problems.append(Problem(doc.place(("id",)), f"situation id '{sit.id}' is also used at {first}"))
            continue
        if path.stem != sit.id:
            problems.append(Problem(doc.place(("id",)), f"situation id '{sit.id}' should match its file name '{path.stem}'"))
        replaced = situations.get(sit.id)
        if replaced is not None:  # an overlay's whole situation: forget where the base's parts came from
            for key in _PATCHABLE:
                rs.field_origin.pop((sit.id, key), None)
            for nid in replaced.nodes:
                rs.node_origin.pop((sit.id, nid), None)
        situations[sit.id] = sit
        rs.situation_origin[sit.id] = Origin(doc, ())
        for nid in sit.nodes:
            rs.node_origin[(sit.id, nid)] = Origin(doc, ("nodes", nid))

    if meta.recite:
        _recite(situations, meta.recite, meta.sheet)

    h = hashlib.sha256(base.digest.encode() if base else b"")
    for rel in files:
        _feed(h, rel, raw.get(folder / rel, b""))
    rs.digest = h.hexdigest()
    rs.hash = rs.digest[:12]
    return rs, problems


def _recite(situations: dict[str, m.Situation], rules: list[m.Recite], sheet: list[str] | None = None) -> None:
    """Re-point every ruling's citations by the overlay's `recite` list (its own and inherited ones).
    `sheet`: the event's own sheets, whose citation means its rules speak (else the recited-to sources)."""
    for sid, sit in list(situations.items()):
        nodes = dict(sit.nodes)
        for nid, node in sit.nodes.items():
            if isinstance(node, m.RulingNode):
                ruling = _recited(node.ruling, rules, sheet)
                if ruling is not node.ruling:
                    nodes[nid] = m.RulingNode(ruling=ruling)
        if nodes != sit.nodes:
            situations[sid] = sit.model_copy(update={"nodes": nodes})


def _recited(r: m.Ruling, rules: list[m.Recite], sheet: list[str] | None = None) -> m.Ruling:
    cites: list[m.Cite] = []
    notes: list[str] = []
    hit = False
    for c in r.cite:
        rule = next((x for x in rules if x.matches(c)), None)
        hit = hit or rule is not None
        for new in [c] if rule is None else rule.to:
            if new not in cites:
                cites.append(new)
        if rule is not None and rule.note and rule.note not in notes:
            notes.append(rule.note)
    if not hit:
        return r
    # a note says the overlay's own rules are silent: not so where the ruling cites them anyway
    own = set(sheet or ()) or {c.source for x in rules for c in x.to}
    if any(c.source in own for c in cites):
        notes = []
    return r.model_copy(update={"cite": cites, "notes": [*r.notes, *(n for n in notes if n not in r.notes)]})


# Fields a patch may replace; their origin moves to the patch file.
_PATCHABLE = ("title", "aliases", "summary", "help", "start")


def _merge_scoring(base: m.Scoring | None, own: m.Scoring | None) -> m.Scoring:
    """An overlay's scoring changes only the keys it writes; the rest is inherited."""
    if own is None:
        return base or m.Scoring()
    if base is None:
        return own
    changed = {k: getattr(own, k) for k in own.model_fields_set}
    if "penalties" in changed:  # an overlay names its own penalties beside its base's
        changed["penalties"] = {**base.penalties, **own.penalties}
    return base.model_copy(update=changed)


def _apply_patch(rs: Ruleset, doc: Document, problems: list[Problem]) -> None:
    patch, errs = validate(m.SituationPatch, doc)
    problems += errs
    if patch is None:
        return
    if patch.patch not in rs.situations:
        hint = difflib.get_close_matches(patch.patch, rs.situations, n=1)
        problems.append(
            Problem(doc.place(("patch",)), f"'patch' names unknown situation '{patch.patch}'"
                    + (f"; did you mean '{hint[0]}'?" if hint else ""))
        )
        return
    sit = rs.situations[patch.patch]
    nodes = dict(sit.nodes)
    for nid in patch.remove_nodes:
        if nid not in nodes:
            problems.append(Problem(doc.place(("remove_nodes",)), f"'remove_nodes' names unknown node '{nid}'"))
        nodes.pop(nid, None)
        rs.node_origin.pop((sit.id, nid), None)
    nodes.update(patch.nodes)
    for nid in patch.nodes:
        rs.node_origin[(sit.id, nid)] = Origin(doc, ("nodes", nid))
    changes: dict[str, Any] = {"nodes": nodes, "roles": {**sit.roles, **patch.roles}, "facts": {**sit.facts, **patch.facts}}
    for key in _PATCHABLE:
        if getattr(patch, key) is not None:
            changes[key] = getattr(patch, key)
            rs.field_origin[(sit.id, key)] = Origin(doc, (key,))
    rs.situations[sit.id] = sit.model_copy(update=changes)


def _read(path: Path, problems: list[Problem], raw: dict[Path, bytes]) -> Document | None:
    from .yamlload import parse

    try:
        data = read_bytes(path)
        doc = parse(decode(data, path), str(path))
    except LoadError as exc:
        problems.extend(exc.problems)
        return None
    raw[path] = data
    return doc


_CACHE: dict[tuple[str, str], Ruleset] = {}


def load_strict(name: str | Path) -> Ruleset:
    """Load for use (not for checking): any problem in the files is an error."""
    key = (str(name), os.environ.get("REFEREE_RULESETS", ""))
    if key not in _CACHE:
        rs, problems = load(name)
        if problems or rs is None:
            raise LoadError(problems or [Problem(Place(str(name)), "could not load ruleset")])
        _CACHE[key] = rs
    return _CACHE[key]
