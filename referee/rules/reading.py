"""Reading a ruleset from its files: parse, validate against the model, merge overlays.

The slow half of `loader.load`, imported only when the cache has no entry for the files (or the
cache is off): it imports pydantic and builds the model classes, which a cached ruling never
needs. Validation with places (`validate`) lives here too, for the answers files and the lint.
"""
from __future__ import annotations

import difflib
import hashlib
from pathlib import Path
from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from . import model as m
from ..errors import LoadError, Place, Problem, UsageError
from .files import Document, Loc, decode, read_bytes
from .folders import _feed, inputs
from .ruleset import Origin, Ruleset

T = TypeVar("T", bound=BaseModel)

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
# reading a folder


def read(folder: Path, _seen: tuple[Path, ...], load: Callable[..., tuple[Ruleset | None, list[Problem]]]
         ) -> tuple[Ruleset | None, list[Problem]]:
    """The ruleset in `folder` read from its files; `load` loads the ruleset it extends."""
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
        sources=_merge_sources(base.sources if base else {}, meta.sources),
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


def _merge_sources(base: dict[str, m.Source], own: dict[str, m.Source]) -> dict[str, m.Source]:
    """An overlay's entry for a source its base lists adds to it (its `contradicts:` list, a note)
    rather than replacing it: the keys the overlay writes win, the rest stay the base's."""
    out = dict(base)
    for key, source in own.items():
        old = base.get(key)
        out[key] = source if old is None else old.model_copy(update={f: getattr(source, f) for f in source.model_fields_set})
    return out


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
