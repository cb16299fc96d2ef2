"""A hardened YAML reader that remembers where every value came from.

Why not yaml.safe_load: it silently keeps the last of two duplicate keys, turns
`yes`/`no`/`on`/`off` into booleans (a choice named "no" would vanish), and forgets
line numbers, so a validation error could not name `path:line:col`.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from .errors import LoadError, Place, Problem

Loc = tuple[Any, ...]

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
    pass


_PLAIN = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
}


class Document:
    """Plain data from one YAML file plus the place of every mapping key and value."""

    def __init__(self, path: str, data: Any, places: dict[Loc, Place]) -> None:
        self.path = path
        self.data = data
        self.places = places

    def place(self, loc: Loc) -> Place:
        """The place of `loc`, or of its nearest ancestor that has one."""
        loc = tuple(loc)
        while loc:
            if loc in self.places:
                return self.places[loc]
            loc = loc[:-1]
        return self.places.get((), Place(self.path, 1, 1))


def _mark(path: str, node: yaml.Node) -> Place:
    return Place(path, node.start_mark.line + 1, node.start_mark.column + 1)


def _build(node: yaml.Node, path: str, loc: Loc, places: dict[Loc, Place]) -> Any:
    places[loc] = _mark(path, node)
    if isinstance(node, yaml.ScalarNode):
        if node.tag not in _PLAIN:
            raise LoadError([Problem(_mark(path, node), f"tag {node.tag!r} is not allowed here")])
        return yaml.SafeLoader.yaml_constructors[node.tag](_CONSTRUCTOR, node)
    if isinstance(node, yaml.SequenceNode):
        if node.tag != "tag:yaml.org,2002:seq":
            raise LoadError([Problem(_mark(path, node), f"tag {node.tag!r} is not allowed here")])
        return [_build(item, path, loc + (i,), places) for i, item in enumerate(node.value)]
    if isinstance(node, yaml.MappingNode):
        if node.tag != "tag:yaml.org,2002:map":
            raise LoadError([Problem(_mark(path, node), f"tag {node.tag!r} is not allowed here")])
        out: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag == "tag:yaml.org,2002:merge":
                raise LoadError([Problem(_mark(path, key_node), "keys must be plain words")])
            key = _build(key_node, path, loc, {})
            if isinstance(key, (int, float, bool)) or key is None:
                key = key_node.value  # `1: x` in a choice map means the text "1"
            if key in out:
                raise LoadError(
                    [Problem(_mark(path, key_node), f"duplicate key {key!r} (first at line {places[loc + (key,)].line})")]
                )
            out[key] = _build(value_node, path, loc + (key,), places)
            # Point errors about a value at its key, where the author reads the line.
            places[loc + (key,)] = _mark(path, key_node)
        return out
    raise LoadError([Problem(_mark(path, node), "unsupported YAML node")])  # pragma: no cover


_CONSTRUCTOR = yaml.SafeLoader("")


def parse(text: str, path: str) -> Document:
    """Parse one YAML document; every failure is a LoadError naming path:line:col."""
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        place = Place(path, mark.line + 1, mark.column + 1) if mark else Place(path)
        raise LoadError([Problem(place, f"invalid YAML: {exc.problem or exc.context}")]) from None
    except yaml.YAMLError as exc:
        raise LoadError([Problem(Place(path), f"invalid YAML: {exc}")]) from None
    finally:
        loader.dispose()
    places: dict[Loc, Place] = {}
    if node is None:
        return Document(path, None, {(): Place(path, 1, 1)})
    return Document(path, _build(node, path, (), places), places)


def read(path: Path | str) -> Document:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise LoadError([Problem(Place(str(path)), "no such file")]) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise LoadError([Problem(Place(str(path)), f"cannot read: {exc}")]) from None
    return parse(text, str(path))
