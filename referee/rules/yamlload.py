"""A hardened YAML reader that remembers where every value came from.

Why not yaml.safe_load: it silently keeps the last of two duplicate keys, turns
`yes`/`no`/`on`/`off` into booleans (a choice named "no" would vanish), and forgets
line numbers, so a validation error could not name `path:line:col`.
"""
from __future__ import annotations

import operator
import re
from pathlib import Path
from typing import Any

import yaml

from ..errors import LoadError, Place, Problem
from .files import MAX_BYTES, Document, Loc, decode, place_of, read_bytes  # noqa: F401  (re-exported for callers)


try:  # libyaml's parser is several times faster; the composer below is ours either way
    _Base: type = yaml.CSafeLoader  # type: ignore[attr-defined]
except AttributeError:  # pragma: no cover - depends on how PyYAML was built
    _Base = yaml.SafeLoader


class _Resolver(yaml.resolver.Resolver):
    pass


# YAML 1.1 resolves yes/no/on/off to booleans; only true/false are booleans here.
_Resolver.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:bool"]
    for first, resolvers in yaml.resolver.Resolver.yaml_implicit_resolvers.items()
}
_Resolver.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)
# Dates stay strings: a ruleset's effective date is text, and JSON output must not choke on it.
for _first in list(_Resolver.yaml_implicit_resolvers):
    _Resolver.yaml_implicit_resolvers[_first] = [
        (tag, rx)
        for tag, rx in _Resolver.yaml_implicit_resolvers[_first]
        if tag != "tag:yaml.org,2002:timestamp"
    ]


class _Loader(_Base, _Resolver):  # type: ignore[misc,valid-type]
    # The composer calls these two around every node, for path resolvers, of which this loader
    # has none: a C builtin taking the same arguments ignores them at a fraction of a Python
    # method's cost (the two methods were a third of parsing a card).
    descend_resolver = staticmethod(operator.is_)  # (parent, index)
    ascend_resolver = staticmethod(tuple)  # ()

    def resolve(self, kind: type, value: Any, implicit: tuple[bool, bool]) -> str:
        # PyYAML tries every implicit resolver's regex on every plain scalar; the same few
        # hundred words recur in every file, so remember the answer (no path resolvers here).
        if kind is yaml.ScalarNode:
            if not implicit[0]:
                return _STR  # quoted (or tagged '!'): a string, as the base resolver says
            tag = _TAGS.get(value)
            if tag is None:
                tag = super().resolve(kind, value, implicit)
                if len(_TAGS) < 50_000:
                    _TAGS[value] = tag
            return tag
        return super().resolve(kind, value, implicit)  # type: ignore[no-any-return]


_TAGS: dict[str, str] = {}
# (tag, text) -> the number, boolean or null it made: PyYAML's constructors are Python, and a
# file repeats its few values (a card's `value: 25`); each is immutable, so it can be shared.
_SCALARS: dict[tuple[str, str], Any] = {}

_STR = "tag:yaml.org,2002:str"
_PLAIN = {
    _STR,
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
}

# Limits that keep hostile or broken files from hanging the loader or eating memory.
MAX_DEPTH = 50  # rulesets nest about 8 deep
MAX_VALUES = 100_000  # after expanding aliases; a billion-laughs file stops here
_SCAN_ABOVE = 10_000  # characters; shorter texts cannot nest deep enough to exhaust the C stack
MAX_DIGITS = 15  # amounts and counts; beyond this a number is a typo (and JSON readers lose precision)


def _mark(path: str, node: yaml.Node) -> Place:
    return Place(path, node.start_mark.line + 1, node.start_mark.column + 1)


_CONSTRUCTOR = yaml.SafeLoader("")


class _Builder:
    """Turns composed nodes into plain data, refusing what a ruleset never needs."""

    def __init__(self, path: str, places: dict[Loc, Place] | None) -> None:
        self.path = path
        self.places = places
        self.count = 0
        self.stack: list[yaml.Node] = []

    def fail(self, node: yaml.Node, message: str) -> LoadError:
        return LoadError([Problem(_mark(self.path, node), message)])

    def too_many(self, node: yaml.Node) -> LoadError:
        return self.fail(node, f"more than {MAX_VALUES:,} values once aliases are expanded")

    def build(self, node: yaml.Node, loc: Loc, depth: int) -> Any:
        places = self.places
        if places is not None:
            places[loc] = _mark(self.path, node)
        self.count += 1
        if self.count > MAX_VALUES:
            raise self.too_many(node)
        if isinstance(node, yaml.ScalarNode):
            if node.tag == _STR:
                return node.value
            return self.scalar(node)
        if depth >= MAX_DEPTH:
            if any(n is node for n in self.stack):
                raise self.fail(node, "an alias refers to its own anchor")
            raise self.fail(node, f"nested more than {MAX_DEPTH} levels deep")
        self.stack.append(node)
        try:
            if isinstance(node, yaml.SequenceNode):
                if node.tag != "tag:yaml.org,2002:seq":
                    raise self.fail(node, f"tag {node.tag!r} is not allowed here")
                return [self.build(item, loc + (i,), depth + 1) for i, item in enumerate(node.value)]
            if isinstance(node, yaml.MappingNode):
                return self.mapping(node, loc, depth)
            raise self.fail(node, "unsupported YAML node")  # pragma: no cover
        finally:
            self.stack.pop()

    def scalar(self, node: yaml.ScalarNode) -> Any:
        tag = node.tag
        key = (tag, node.value)
        if key in _SCALARS:
            return _SCALARS[key]
        if tag not in _PLAIN:
            raise self.fail(node, f"tag {tag!r} is not allowed here")
        name = tag.rpartition(":")[2]
        if name == "int" and sum(c.isdigit() for c in node.value) > MAX_DIGITS:
            raise self.fail(node, f"number too long (more than {MAX_DIGITS} digits)")
        try:
            value = yaml.SafeLoader.yaml_constructors[tag](_CONSTRUCTOR, node)
        except (ValueError, KeyError, TypeError, OverflowError, yaml.YAMLError):
            shown = node.value if len(node.value) <= 40 else node.value[:40] + "..."
            raise self.fail(node, f"{shown!r} is not a valid {name}") from None
        if len(_SCALARS) < 50_000:
            _SCALARS[key] = value
        return value

    def mapping(self, node: yaml.MappingNode, loc: Loc, depth: int) -> dict[Any, Any]:
        if node.tag != "tag:yaml.org,2002:map":
            raise self.fail(node, f"tag {node.tag!r} is not allowed here")
        out: dict[Any, Any] = {}
        keys: dict[Any, yaml.Node] = {}
        places = self.places
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag == "tag:yaml.org,2002:merge":
                raise self.fail(key_node, "keys must be plain words")
            if key_node.tag == _STR:
                key = key_node.value
            else:
                key = self.scalar(key_node)
                if isinstance(key, (int, float, bool)) or key is None:
                    key = key_node.value  # `1: x` in a choice map means the text "1"
            if key in out:
                raise self.fail(key_node, f"duplicate key {key!r} (first at line {keys[key].start_mark.line + 1})")
            keys[key] = key_node
            if places is None and value_node.__class__ is yaml.ScalarNode and value_node.tag == _STR:
                # build() for the commonest value, without the call (most of a card is these)
                self.count += 1
                if self.count > MAX_VALUES:
                    raise self.too_many(value_node)
                out[key] = value_node.value
                continue
            out[key] = self.build(value_node, loc + (key,), depth + 1)
            if places is not None:
                # Point errors about a value at its key, where the author reads the line.
                places[loc + (key,)] = _mark(self.path, key_node)
        return out


def _deeper_than_max(text: str, path: str) -> Place | None:
    """Where the first collection nested deeper than MAX_DEPTH starts, found without recursing."""
    loader = _Loader(text)
    depth = 0
    try:
        while (event := loader.get_event()) is not None:
            kind = type(event)
            if kind is yaml.MappingStartEvent or kind is yaml.SequenceStartEvent:
                depth += 1
                if depth > MAX_DEPTH:
                    return _mark(path, event)
            elif kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
                depth -= 1
        return None
    finally:
        loader.dispose()


def _too_deep(text: str, path: str) -> Place | None:
    try:
        return _deeper_than_max(text, path)
    except yaml.MarkedYAMLError as exc:
        if _refused_as_too_deep(exc):
            return _deep_place(text, path, exc)
        raise  # an ordinary syntax error, reported by _compose with its place (not parsed twice)


def _refused_as_too_deep(exc: yaml.MarkedYAMLError) -> bool:
    # libyaml 0.2.6 (bundled from PyYAML 6.0.4) refuses deep nesting itself, reading tokens
    # ahead of the events we count; its limit is far above ours, so the text is too deep for us
    # as well, and the message and place should be ours whichever PyYAML is installed.
    return "nesting depth" in str(exc.problem or "")


def _deep_place(text: str, path: str, exc: yaml.MarkedYAMLError) -> Place:
    """Where the text first nests deeper than MAX_DEPTH, counted in the part before the
    parser's refusal (cut there, its read-ahead stops short of the limit)."""
    mark = exc.problem_mark
    if mark is not None and 0 < mark.index < len(text):
        try:
            if (place := _deeper_than_max(text[: mark.index], path)) is not None:
                return place
        except yaml.YAMLError:
            pass
    return Place(path, mark.line + 1, mark.column + 1) if mark else Place(path)


def _compose(text: str, path: str) -> yaml.Node | None:
    loader = _Loader(text)
    try:
        # libyaml's composer recurses in C once per level of nesting and crashes the process
        # somewhere past 20,000 levels; a text this short cannot nest that deep.
        if len(text) > _SCAN_ABOVE and (deep := _too_deep(text, path)) is not None:
            raise LoadError([Problem(deep, f"nested more than {MAX_DEPTH} levels deep")])
        return loader.get_single_node()
    except yaml.MarkedYAMLError as exc:
        if _refused_as_too_deep(exc):
            place = _deep_place(text, path, exc)
            raise LoadError([Problem(place, f"nested more than {MAX_DEPTH} levels deep")]) from None
        mark = exc.problem_mark or exc.context_mark
        place = Place(path, mark.line + 1, mark.column + 1) if mark else Place(path)
        raise LoadError([Problem(place, f"invalid YAML: {exc.problem or exc.context}")]) from None
    except yaml.reader.ReaderError as exc:
        # A character YAML refuses (a raw control byte): PyYAML gives only an offset, and its
        # message would print the character itself; name the place and show the code instead.
        line, col = place_of(text, exc.position)
        raise LoadError([Problem(Place(path, line, col),
                                 f"a control character (U+{exc.character:04X}) is not allowed in YAML")]) from None
    except yaml.YAMLError as exc:
        raise LoadError([Problem(Place(path), f"invalid YAML: {exc}")]) from None
    except RecursionError:  # libyaml's composer recurses once per level of nesting
        raise LoadError([Problem(Place(path), f"nested more than {MAX_DEPTH} levels deep")]) from None
    finally:
        loader.dispose()


def note_places(text: str, path: str, places: dict[Loc, Place]) -> None:
    """Fill `places` with where each value of `text` sits (parsed again, only when a problem needs it)."""
    node = _compose(text, path)
    if node is not None:
        _Builder(path, places).build(node, (), 0)


def parse(text: str, path: str) -> Document:
    """Parse one YAML document; every failure is a LoadError naming path:line:col."""
    node = _compose(text, path)
    if node is None:
        return Document(path, None, {(): Place(path, 1, 1)}, text, note_places)
    return Document(path, _Builder(path, None).build(node, (), 0), None, text, note_places)


def read(path: Path | str) -> Document:
    return parse(decode(read_bytes(path), path), str(path))
