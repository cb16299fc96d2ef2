"""Answers files and recorded scenarios: replay them through the engine and compare."""
from __future__ import annotations

import difflib
import os
import stat
from collections import Counter
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from ..rules import records as k
from .answers import example, normalize, players_map
from .engine import Question, advance
from .outcome import Outcome, fact_in, facts_seen
from ..errors import LoadError, MissingAnswer, Problem, RefereeError, UsageError
from ..rules.files import Document
from ..rules.loader import data_dir, load_strict
from ..rules.ruleset import Ruleset
from ..rules.memo import keep

if TYPE_CHECKING:  # an answers file from the cache is records, read the same way (`records`)
    from ..rules import model as m


def onward(rs: Ruleset, sid: str) -> tuple[str, ...]:
    """`sid`, then every situation a case begun there can go on into (by a goto or a ruling's
    `then`), nearest first; one that is named but missing is listed too."""
    kept = rs.kept("onward")  # a booklet asks for each situation's hundreds of times over
    found = kept.get(sid)
    if found is None:
        found = kept[sid] = _onward(rs, sid)
    return found


def _onward(rs: Ruleset, sid: str) -> tuple[str, ...]:
    order, seen = [], set()
    todo = [sid]
    for here in todo:  # breadth first: the nearest situation that defines a fact is the one that asks it
        if here in seen:
            continue
        seen.add(here)
        order.append(here)
        sit = rs.situations.get(here)
        if sit is not None:
            todo += _next(sit)
    return tuple(order)


# The situations a situation's own nodes go on into, in node order, found once per situation:
# a booklet asks for the reach of every page of twelve rulesets, most of them sharing their
# situations. Keyed by the situation itself (kept alive here, so its id is not reused): a loaded
# situation is never changed.
_NEXT: dict[int, tuple[m.Situation, list[str]]] = {}


def _next(sit: m.Situation) -> list[str]:
    known = _NEXT.get(id(sit))
    if known is None or known[0] is not sit:
        out: list[str] = []
        for node in sit.nodes.values():
            if isinstance(node, k.QuestionNodeKind):
                out += [t.goto for _, t in node.branches() if isinstance(t, k.GotoKind)]
            elif isinstance(node, k.GotoNodeKind):
                out.append(node.goto)
            elif isinstance(node, k.RulingNodeKind) and node.ruling.then is not None:
                out.append(node.ruling.then.goto)
        known = keep(_NEXT, id(sit), (sit, out), 8192)
    return known[1]


def situation_fact_names(rs: Ruleset, sid: str) -> set[str]:
    """Every fact and role a situation can be answered with: its own, the questions on its tree, the
    numbers its rulings count with, and the same for each situation it goes on into."""
    names: set[str] = set()
    for there in onward(rs, sid):
        sit = rs.situations.get(there)
        if sit is None:
            continue
        names |= set(sit.facts) | set(sit.roles)
        for node in sit.nodes.values():
            if isinstance(node, k.QuestionNodeKind):
                names.add(node.ask)
            elif isinstance(node, k.RulingNodeKind):
                r = node.ruling
                names |= {x.of for x in [*r.pay, *r.points] if x.of} | ({r.settle.value} if r.settle else set())
    return names


def fact_for(rs: Ruleset, sid: str, name: str, what: str = "fact") -> m.FactDef:
    """The definition of a fact named on the command line or in a file, or a clear error;
    `what` is "role" where a seat was given (--seat, a file's `seats:`), so the error says role."""
    definition = fact_in(rs, name, sid)
    if definition is None:
        # a fact of a situation this one goes on into, as that situation defines it (the nearest
        # one, where two do); one of an unrelated situation is unknown here, not "a wrong value"
        # by that other situation's rules, even where it has the same id
        for there in onward(rs, sid):
            sit = rs.situations.get(there)
            if sit is not None and (name in sit.facts or name in sit.roles):
                found = rs.fact(name, there)
                assert found is not None
                return found
        if what == "role":
            raise UsageError(_unknown_role(rs, sid, name))
        hint = difflib.get_close_matches(name, situation_fact_names(rs, sid), n=1)
        also = f"; did you mean '{hint[0]}'?" if hint else f"; see 'referee show {sid}'"
        raise UsageError(f"unknown fact '{name}' for situation '{sid}'{also}")
    return definition


def _unknown_role(rs: Ruleset, sid: str, name: str) -> str:
    roles = list(rs.situations[sid].roles)
    hint = difflib.get_close_matches(name, roles, n=1) or difflib.get_close_matches(name, situation_fact_names(rs, sid), n=1)
    if hint:
        also = f"; did you mean '{hint[0]}'?"
    elif roles:
        also = f"; its roles are {', '.join(roles)}"
    else:
        also = f"; it names no roles (see 'referee show {sid}')"
    return f"unknown role '{name}' for situation '{sid}'{also}"


def normalize_all(rs: Ruleset, sid: str, raw: dict[str, Any]) -> dict[str, Any]:
    return {name: normalize(name, fact_for(rs, sid, name), value) for name, value in raw.items()}


def run(rs: Ruleset, sid: str, facts: dict[str, Any], players: dict[str, str], brief: bool = False) -> Outcome:
    """Replay without prompting: a missing decision fact is an error, missing details stay open.
    `brief`: only what a handout's table prints (see `outcome.build_outcome`)."""
    known = dict(facts)
    while True:
        step = advance(rs, sid, known, players, brief)
        if isinstance(step, Outcome):
            return step
        assert isinstance(step, Question)
        if step.definition.default is not None:  # the event sheet's own number, where the director decides
            known[step.fact] = step.definition.default
            continue
        if not step.optional:
            raise MissingAnswer(step.fact, step.definition.ask, example(step.definition))
        known[step.fact] = None


class Scenario:
    """An answers or scenario file, read (a plain class, not a dataclass: see outcome.Outcome)."""

    def __init__(self, path: Path, doc: Document, data: m.Answers, ruleset: str, situation: str, tiles: Any = None) -> None:
        self.path, self.doc, self.data, self.ruleset, self.situation = path, doc, data, ruleset, situation
        self.tiles = tiles  # cards.answer.FromTiles, when the file gives `hand:` or `table:`


def ruleset_for(path: Path, data: m.Answers, fallback: str = "nmjl", real: str | None = None) -> str:
    """The file's `ruleset:` key, else the scenarios folder it sits in, else `fallback`.
    `real` is the file's resolved path, where the caller has it already."""
    if data.ruleset:
        return data.ruleset
    inside = (real or _realpath(path)).split(_scenarios_root(), 1)
    return inside[1].split(os.sep, 1)[0] if len(inside) == 2 and not inside[0] else fallback


@lru_cache(maxsize=1)
def _scenarios_root() -> str:
    """The shipped scenarios folder, resolved once (a booklet places some 400 files under it),
    with a separator after it."""
    return os.path.join(os.path.realpath(data_dir("scenarios")), "")


@lru_cache(maxsize=1)
def _scenarios_given() -> str:
    """The shipped scenarios folder as the handouts list it (unresolved), with a separator after it."""
    return os.path.join(str(data_dir("scenarios")), "")


def _realpath(path: Path) -> str:
    """`os.path.realpath(path)`; see `_placed`."""
    return _placed(path)[0]


def _placed(path: Path) -> tuple[str, tuple[str, str] | None]:
    """The file's real path, and for a file of the shipped scenarios the shelf it is kept on (its
    ruleset's scenarios folder, and its name there: `rules.shelf`).

    The real path is `os.path.realpath`'s. For a file under the shipped scenarios folder, whose own
    real path is known (`_scenarios_root`), only the parts below it are looked at: where none is a
    link, the file's real path is that folder's and the rest. A booklet resolves some 400 files,
    and realpath looks at every part of every path."""
    text = os.fspath(path)
    given = _scenarios_given()
    if text.startswith(given):
        rest = text[len(given):]
        parts = rest.split(os.sep)
        if "" not in parts and "." not in parts and ".." not in parts and not (os.altsep and os.altsep in rest):
            shelf = (given + parts[0], rest[len(parts[0]) + 1:]) if len(parts) > 1 else None
            here = given[:-1]
            try:
                for part in parts:
                    here = f"{here}{os.sep}{part}"
                    if stat.S_ISLNK(os.lstat(here).st_mode):
                        break
                else:
                    return _scenarios_root() + rest, shelf
            except OSError:  # gone meanwhile: realpath says what it says of a missing file
                pass
            return os.path.realpath(text), shelf
    return os.path.realpath(text), None


# Keys that say a file is part of a ruleset, not answers: one line instead of a dozen unknown keys.
_NOT_ANSWERS = (
    ({"nodes"}, "a situation file"),
    ({"start"}, "a situation file"),
    ({"patch"}, "an overlay's patch file"),
    ({"version"}, "a ruleset.yaml"),
    ({"facts"}, "a facts file"),
)


def _places_later(text: str, path: str, places: dict) -> None:
    """A cached file's places, found only when a problem must name one: the YAML reader is
    imported then, never on the warm path."""
    from ..rules.yamlload import note_places

    note_places(text, path, places)


def load_file(path: Path, fallback: str = "nmjl") -> Scenario:
    """A scenario or answers file, its data as records (`records.Answers`, read like the model);
    `fallback` is its ruleset when the file names none."""
    from ..rules import cache, shelf
    from ..rules.files import Document, decode, read_bytes

    raw = read_bytes(path)
    text = decode(raw, path)
    real, shelved = _placed(path)  # once: the cache's key and the ruleset folder both need it
    # A shipped scenario is kept with the rest of its folder (read in one go), any other file alone.
    data = shelf.fetch(*shelved, raw) if shelved else cache.fetch_file(path, raw, real)
    if data is not None:  # validated before, byte for byte: no YAML parser, no validator to build
        doc = Document(str(path), None, None, text, _places_later)
    else:
        from ..rules.yamlload import parse

        doc = parse(text, str(path))
        if isinstance(doc.data, dict) and "situation" not in doc.data:
            for keys, what in _NOT_ANSWERS:
                if keys & set(doc.data):
                    raise LoadError([Problem(doc.place(()), f"this is {what}, not a scenario or answers file "
                                             "(ruleset files belong in a folder with its ruleset.yaml)")])
        from ..rules import model as m
        from ..rules.reading import validate

        model, problems = validate(m.Answers, doc)
        if model is None:
            raise LoadError(problems)
        data = k.of(model)  # as the cache gives it back: one shape, however the file was read
        if shelved:
            shelf.put(*shelved, raw, data)
        else:
            cache.store_file(path, raw, data, real)
    if not data.situation:
        raise LoadError([Problem(doc.place(()), "missing required key 'situation'")])
    return Scenario(path, doc, data, ruleset_for(path, data, fallback, real), data.situation)


def facts_of(rs: Ruleset, sc: Scenario, card: str | None = None,
             event_card: Callable[[], str | None] | None = None) -> tuple[dict[str, Any], dict[str, str]]:
    """Facts and players from a file, with errors placed at the offending line. The file's `hand:`
    and `table:` are read against `card` (--card), else the file's card:, else `event_card()`
    (the event's, for `rule --answers`), else the ruleset's."""
    facts: dict[str, Any] = {}
    sit = rs.situations.get(sc.situation)
    seen = facts_seen(rs, sc.situation, sit) if sit is not None else {}  # fact_for's first look, made once
    for section, items, what in (("answers", sc.data.answers, "fact"), ("seats", sc.data.seats, "role")):
        for name, value in items.items():
            try:
                definition = seen.get(name)
                if definition is None:
                    definition = fact_for(rs, sc.situation, name, what)
                facts[name] = normalize(name, definition, value)
            except UsageError as exc:
                raise LoadError([Problem(sc.doc.place((section, name)), exc.message)]) from None
    if sc.data.hand is not None or sc.data.table is not None:
        facts.update(_from_tiles(rs, sc, facts, card, event_card))
    players: dict[str, str] = {}
    for key, name in sc.data.players.items():
        try:
            players.update(players_map({key: name}))
        except UsageError as exc:
            raise LoadError([Problem(sc.doc.place(("players", key)), exc.message)]) from None
    return facts, players


def _from_tiles(rs: Ruleset, sc: Scenario, facts: dict[str, Any], card: str | None = None,
                event_card: Callable[[], str | None] | None = None) -> dict[str, Any]:
    """The facts a file's `hand:` or `table:` answers through the card; a problem is placed in the file."""
    from ..cards.answer import card_facts, card_of, from_tiles

    name = sc.data.card
    if name and ("/" in name or name.endswith((".yaml", ".yml"))) and not Path(name).is_absolute():
        name = str(sc.path.parent / name)  # a card file is read from beside the answers file
    # A card named outside the file (--card; the event's when the file names none) is not the
    # file's to answer for: its problem is said as it is, not placed in the file.
    outside = card or (None if name else event_card() if event_card else None)
    chosen = card_of(rs, outside) if outside else None
    hand, table = sc.data.hand, sc.data.table
    where: tuple[str, ...] = ("card",) if sc.data.card else ("hand",) if hand is not None else ("table",)
    try:
        chosen = chosen or card_of(rs, name)
        where = ("hand",) if hand is not None else ("table",)
        sc.tiles = from_tiles(chosen, hand.tiles if hand else None, list(hand.exposed) if hand else None,
                              k.as_dict(table) if table is not None else None)
        return sc.tiles.fill(card_facts(rs), facts)
    except UsageError as exc:
        raise LoadError([Problem(sc.doc.place(where), exc.message)]) from None


class Result:
    """A scenario replayed (a plain class, not a dataclass: see outcome.Outcome)."""

    def __init__(self, scenario: Path, ruleset: str, ruling: str | None, failures: list[str] | None = None,
                 loaded: Ruleset | None = None, situation: str | None = None, published: bool = False,
                 through: list[str] | None = None) -> None:
        self.scenario, self.ruleset, self.ruling = scenario, ruleset, ruling
        self.failures = failures if failures is not None else []
        self.loaded = loaded  # the ruleset replayed against, for leaf coverage
        self.situation = situation
        self.published = published  # the file answers a published rulings question (its `published:` key)
        self.through = through if through is not None else []  # rulings the case went on from (`then`): reached too

    @property
    def passed(self) -> bool:
        return not self.failures


def compare(o: Outcome, expect: m.Expect) -> list[str]:
    out = []
    if o.ruling.id != expect.ruling:
        out.append(f"ruling: expected {expect.ruling}, got {o.ruling.id}")
    if expect.before is not None and [b.ruling.id for b in o.before] != expect.before:
        out.append(f"before: expected {expect.before}, got {[b.ruling.id for b in o.before]}")
    if expect.dead is not None:
        got = sorted(p.seat or p.label for p in o.dead)
        want = sorted(str(s) for s in expect.dead)
        if got != want:
            out.append(f"dead: expected {want}, got {got}")
    if expect.game is not None and o.game != expect.game:
        out.append(f"game: expected {expect.game}, got {o.game}")
    if expect.payments is not None:
        got_p = Counter((p.payer.seat or p.payer.label, p.payee.seat or p.payee.label, p.amount) for p in o.payments)
        want_p = Counter((str(p.get("from")), str(p.get("to")), p.get("amount")) for p in expect.payments)
        if got_p != want_p:
            fmt = lambda c: sorted(f"{a}->{b} {n}" for (a, b, n), k in c.items() for _ in range(k))  # noqa: E731
            out.append(f"payments: expected {fmt(want_p)}, got {fmt(got_p)}")
    if expect.points is not None:
        got_pts: dict[str, int] = {}
        for a in o.awards:
            key = a.party.seat or a.party.label
            got_pts[key] = got_pts.get(key, 0) + (a.points or 0)
        if {k: v for k, v in got_pts.items() if v} != {k: v for k, v in expect.points.items() if v}:
            out.append(f"points: expected {expect.points}, got {got_pts}")
    for phrase in expect.says or []:
        if phrase.lower() not in o.text.lower():
            out.append(f"says: ruling text lacks {phrase!r}")
    return out


def ruleset_of(sc: Scenario, name: str | None = None, plain: bool = False) -> Ruleset:
    """The ruleset a file names (or `name`, given on the command line), its situation checked too;
    an unknown id is an error placed in the file. `plain`: as for `loader.load`."""
    try:
        rs = load_strict(name or sc.ruleset, plain=plain)
    except UsageError as exc:
        if name:
            raise
        raise LoadError([Problem(sc.doc.place(("ruleset",)), exc.message)]) from None
    if sc.situation not in rs.situations:
        try:
            rs.situation(sc.situation)
        except UsageError as exc:
            raise LoadError([Problem(sc.doc.place(("situation",)), exc.message)]) from None
    return rs


def blame(sc: Scenario, exc: RefereeError) -> Problem:
    """A problem running a file, placed at the answer it names ('picker: South is already the
    winner' at `seats: picker`), else at `answers`."""
    for section, items in (("seats", sc.data.seats), ("answers", sc.data.answers)):
        for name in items:
            if exc.message.startswith(f"{name}: "):
                return Problem(sc.doc.place((section, name)), exc.message)
    return Problem(sc.doc.place(("answers",)), exc.message)


def replay(path: Path) -> tuple[Scenario, Ruleset, Outcome]:
    """Load a scenario or answers file and run it; every failure is a LoadError placed in the file."""
    sc = load_file(path)
    rs = ruleset_of(sc)
    facts, players = facts_of(rs, sc)
    try:
        outcome = run(rs, sc.situation, facts, players)
    except RefereeError as exc:
        raise LoadError([blame(sc, exc)]) from None
    if sc.tiles is not None:
        sc.tiles.attach(outcome)
    return sc, rs, outcome


def run_file(path: Path) -> tuple[Result, Outcome | None]:
    try:
        sc, rs, outcome = replay(path)
    except LoadError as exc:
        return Result(path, "?", None, [str(exc)]), None
    if sc.data.expect is None:
        failures = [f"{path}: no 'expect' section; this is an answers file, not a scenario"]
    else:
        failures = compare(outcome, sc.data.expect)
    return Result(path, rs.id, outcome.ruling.id, failures, rs, sc.situation, bool(sc.data.published),
                  [b.ruling.id for b in outcome.before]), outcome


def scenario_files(paths: list[Path]) -> list[Path]:
    out: list[Path] = []
    for p in paths:
        if p.is_dir():
            out += sorted(q for q in p.rglob("*.yaml"))
        elif p.exists():
            out.append(p)
        else:
            raise UsageError(f"{p}: no such file or folder")
    return out


def leaves(rs: Ruleset, own_only: bool = False) -> dict[str, tuple[str, str]]:
    """Ruling id -> (situation, node); with own_only, just the leaves this ruleset's folder wrote."""
    out = {}
    for sid, sit in rs.situations.items():
        for nid, node in sit.nodes.items():
            if isinstance(node, k.RulingNodeKind):
                origin = rs.node_origin.get((sid, nid))
                if own_only and origin is not None and not Path(origin.path).resolve().is_relative_to(rs.folder):
                    continue
                out[node.ruling.id] = (sid, nid)
    return out


def default_paths() -> list[Path]:
    return [data_dir("scenarios")]
