"""An event's own published sheet, held against the ruleset that rules by it.

Four checks the lint (`checks.lint`) runs on every ruleset:

- a ruling that states a scoring number (through `settle`, `points` or a `{placeholder}`) and cites
  a sheet whose `numbers:` give a different one is a contradiction: the judge would read out one
  figure over a source that prints another (a Crak ruling charging 30 while citing a sheet that
  charges 25);
- a ruleset that names its own sheet (`sheet:`) cites no other event's sheet: where its own is
  silent, a note says so and the ruling rests on the League-style base;
- such a ruleset's `coverage.yaml` maps every section of its sheet to what carries that rule;
- a ruleset whose own source rules otherwise than an inherited ruling (its `contradicts:` list)
  does not inherit that ruling as it stands, and every source it lists has a title.

Pure: reads the ruleset and its coverage file, never the terminal. Imports only the rules layer.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Any

from ..rules import model as m
from ..errors import LoadError, Place, Problem, UsageError
from ..rules.loader import Ruleset, validate
from ..ruling.outcome import PLACEHOLDER, SCORING_NUMBERS

_CARRIER_KINDS = ("situation", "ruling", "scoring", "fact", "note")


def stated_numbers(rs: Ruleset, r: m.Ruling) -> dict[str, Any]:
    """The scoring numbers a ruling states under this ruleset, by the key that sets each."""
    sc = rs.scoring
    out: dict[str, Any] = {}
    if sc.kind != "points":
        return out
    if r.settle:
        out["winner_times"] = sc.winner_times
        if r.settle.how != "joker-exchange":
            out["jokerless_bonus"] = sc.jokerless_bonus
        if r.settle.how == "self-pick" or (r.settle.how == "joker-exchange" and sc.joker_exchange_as_self_pick):
            out["self_pick_bonus"] = sc.self_pick_bonus
        if r.settle.how == "discard" and sc.discarder_penalties:
            out["discarder_penalties"] = _ladder(sc.discarder_penalties)
    names = [a.of for a in r.points if a.of]
    for text in [r.says, r.owed, *r.tiles, *r.procedure, *r.notes]:
        names += PLACEHOLDER.findall(text)
    for name in names:
        if name in sc.penalties:
            out[f"penalties.{name}"] = sc.penalties[name]
        elif name in SCORING_NUMBERS and name != "lowest_hand":
            out[name] = sc.number(name)
    return out


def _ladder(entries: list[m.ExposurePenalty]) -> tuple[tuple[int, int], ...]:
    return tuple(sorted((e.exposures, e.points) for e in entries))


def sheet_number(numbers: m.SheetNumbers, key: str) -> Any:
    """What a sheet says for one key of `stated_numbers`; None where it says nothing."""
    if key.startswith("penalties."):
        return numbers.penalties.get(key.split(".", 1)[1])
    value = getattr(numbers, key, None)
    return _ladder(value) if key == "discarder_penalties" and value is not None else value


def _say(key: str, value: Any) -> str:
    if key == "discarder_penalties":
        return ", ".join(f"{pts:+d} from {n} exposure{'s' if n != 1 else ''}" for n, pts in value)
    return f"{value:+d}" if isinstance(value, int) and key != "winner_times" else str(value)


def check_ruling(rs: Ruleset, r: m.Ruling, at) -> list[Problem]:  # type: ignore[no-untyped-def]
    """The ruling's numbers against the sheets it cites, and (under an event) no other event's sheet."""
    out: list[Problem] = []
    stated = stated_numbers(rs, r)
    own = set(rs.meta.sheet)
    for i, c in enumerate(r.cite):
        source = rs.sources.get(c.source)
        if source is None:
            continue
        if own and source.event and c.source not in own:
            out.append(Problem(at("cite", i), f"ruling {r.id} cites {c.source}, another event's sheet; this ruleset's own is "
                               f"{', '.join(rs.meta.sheet)}: recite it in ruleset.yaml (recite: [{{from: {c.source}, to: ...}}]), "
                               "or say in a note that the sheet is silent there"))
        if source.numbers is None:
            continue
        for key, value in stated.items():
            given = sheet_number(source.numbers, key)
            if given is not None and given != value:
                name = key.split(".", 1)[-1].replace("_", " ")
                out.append(Problem(at("cite", i), f"ruling {r.id} states the {name} as {_say(key, value)} under "
                                   f"'{rs.id}', but cites {c.source}, whose sheet gives {_say(key, given)}"))
    return out


def check_coverage(rs: Ruleset) -> list[Problem]:
    """Every section of the ruleset's own sheets has an entry in its coverage map, and each entry names
    something the ruleset holds."""
    if not rs.meta.sheet:
        return []
    path = rs.folder / "coverage.yaml"
    where = rs.meta_origin.place("sheet") if rs.meta_origin else Place(str(rs.folder / "ruleset.yaml"))
    if not path.is_file():
        return [Problem(where, f"ruleset '{rs.id}' names its sheet ({', '.join(rs.meta.sheet)}) but has no coverage.yaml "
                        "mapping each of its sections to the situation, ruling or note that carries it")]
    from ..rules.files import decode, read_bytes
    from ..rules.yamlload import parse

    try:
        doc = parse(decode(read_bytes(path), path), str(path))
    except LoadError as exc:
        return list(exc.problems)
    cov, problems = validate(m.CoverageFile, doc)
    if cov is None:
        return problems
    for key in rs.meta.sheet:
        source = rs.sources.get(key)
        if source is None:
            problems.append(Problem(where, f"sheet names unknown source '{key}'"))
            continue
        if not source.sections:
            problems.append(Problem(where, f"sheet {key} lists no sections: list the sheet's rules under its sources "
                                    "entry so coverage.yaml can map each one"))
            continue
        rules = cov.sheets.get(key)
        if rules is None:
            problems.append(Problem(doc.place(("sheets",)), f"coverage.yaml has no entry for sheet {key}"))
            continue
        for section in source.sections:
            if not rules.get(section):
                problems.append(Problem(doc.place(("sheets", key)), f"{key}: the sheet's rule '{section}' has no entry "
                                        "(name the situation, ruling, scoring key or note that carries it)"))
        for section in rules:
            if section not in source.sections:
                hint = difflib.get_close_matches(section, source.sections, n=1)
                also = f"; did you mean '{hint[0]}'?" if hint else ""
                problems.append(Problem(doc.place(("sheets", key, section)), f"'{section}' is not a section of {key}{also}"))
    for key, rules in cov.sheets.items():
        if key not in rs.meta.sheet:
            problems.append(Problem(doc.place(("sheets", key)), f"'{key}' is not one of this ruleset's sheets ({', '.join(rs.meta.sheet)})"))
            continue
        for section, carriers in rules.items():
            for i, c in enumerate(carriers):
                missing = _missing(rs, c)
                if missing:
                    problems.append(Problem(doc.place(("sheets", key, section, i)), missing))
    return problems


def _ruling_ids(rs: Ruleset) -> set[str]:
    return {node.ruling.id for sit in rs.situations.values() for node in sit.nodes.values() if isinstance(node, m.RulingNode)}


def _missing(rs: Ruleset, c: m.Carrier) -> str:
    """What is wrong with one entry: it names a situation, ruling, scoring key or fact the ruleset lacks."""
    if c.situation is not None and c.situation not in rs.situations:
        return f"'{c.situation}' is not a situation of '{rs.id}'"
    if c.ruling is not None and c.ruling not in _ruling_ids(rs):
        return f"'{c.ruling}' is not a ruling of '{rs.id}'"
    if c.scoring is not None and c.scoring not in m.Scoring.model_fields and c.scoring not in rs.scoring.penalties:
        return f"'{c.scoring}' is not a scoring key or penalty of '{rs.id}'"
    if c.fact is not None:
        fact = rs.facts.get(c.fact) or next((s.facts[c.fact] for s in rs.situations.values() if c.fact in s.facts), None)
        if fact is None:
            return f"'{c.fact}' is not a fact of '{rs.id}'"
        if fact.default is None:
            return f"fact '{c.fact}' gives no default: a number the director decides carries the sheet's number as its default"
    if c.note is not None and not c.note.strip():
        return "an empty note carries nothing"
    return ""


def coverage_rows(rs: Ruleset) -> list[tuple[str, str, list[str]]]:
    """(sheet, section, carriers in words) for every mapped rule; empty where there is no map."""
    path = rs.folder / "coverage.yaml"
    if not rs.meta.sheet or not path.is_file():
        return []
    from ..rules.files import decode, read_bytes
    from ..rules.yamlload import parse

    cov, _ = validate(m.CoverageFile, parse(decode(read_bytes(path), path), str(path)))
    if cov is None:
        return []
    rows = []
    for key, rules in cov.sheets.items():
        for section, carriers in rules.items():
            rows.append((key, section, [f"{k}: {getattr(c, k)}" for c in carriers for k in _CARRIER_KINDS if getattr(c, k) is not None]))
    return rows


@dataclass(frozen=True)
class Contradicted:
    """One `contradicts:` entry of a ruleset's own source, and what the ruleset rules there now."""

    source: str
    index: int
    entry: m.Contradiction
    situation: str | None  # where the base rules it; None where the base holds no such ruling
    title: str
    now: str | None  # the ruling this ruleset gives there instead; None where the node is gone
    unchanged: bool  # the ruleset still rules the base's ruling, word for word

    @property
    def known(self) -> bool:
        return self.situation is not None


def _rulings(rs: Ruleset) -> dict[str, tuple[str, str, m.Ruling]]:
    return {node.ruling.id: (sid, nid, node.ruling) for sid, sit in rs.situations.items()
            for nid, node in sit.nodes.items() if isinstance(node, m.RulingNode)}


def base_of(rs: Ruleset) -> Ruleset | None:
    """The ruleset this one extends, as loaded for it (None for a base, or one that does not load)."""
    if not rs.meta.extends:
        return None
    from ..rules.loader import load

    try:
        base, _ = load(rs.meta.extends, near=rs.folder)
    except (LoadError, UsageError):
        return None
    return base


def contradicted(rs: Ruleset, base: Ruleset | None = None) -> list[Contradicted]:
    """Each base ruling that one of this ruleset's own sources contradicts (its ruleset.yaml's
    `sources: KEY: contradicts:`), with what the ruleset now rules in its place. Entries a base
    declared were settled there; the base of a ruleset with none is not loaded."""
    entries = [(key, i, c) for key, source in rs.meta.sources.items() for i, c in enumerate(source.contradicts)]
    if not entries:
        return []
    base = base if base is not None else base_of(rs)
    theirs = _rulings(base) if base is not None else {}
    mine = _rulings(rs)
    out = []
    for key, i, c in entries:
        found = theirs.get(c.ruling)
        if found is None:
            out.append(Contradicted(key, i, c, None, "", None, False))
            continue
        sid, nid, ruling = found
        sit = rs.situations.get(sid)
        node = sit.nodes.get(nid) if sit is not None else None
        now = node.ruling.id if isinstance(node, m.RulingNode) else None
        held = mine.get(c.ruling)
        out.append(Contradicted(key, i, c, sid, base.situations[sid].title if base else sid, now,
                                held is not None and held[2] == ruling))
    return out


def check_sources(rs: Ruleset) -> list[Problem]:
    """Every source has a title (an overlay's entry may add to its base's, not stand alone), and a
    ruling the ruleset's own source contradicts is not inherited as it stands: each entry of a
    `contradicts:` list names a base ruling, and the ruleset rules otherwise there (a patch)."""

    def at(*path: object) -> Place:
        return rs.meta_origin.place(*path) if rs.meta_origin else Place(str(rs.folder / "ruleset.yaml"))

    out = [Problem(at("sources", key), f"source '{key}' has no title: give one, or add to a source the base ruleset lists")
           for key in rs.meta.sources if not rs.sources[key].title.strip()]
    found = contradicted(rs)
    if not found:
        return out
    base = rs.meta.extends
    for x in found:
        entry = ("sources", x.source, "contradicts", x.index)
        source = rs.sources[x.source]
        if source.sections and x.entry.section not in source.sections:
            hint = difflib.get_close_matches(x.entry.section, source.sections, n=1)
            also = f"; did you mean '{hint[0]}'?" if hint else ""
            out.append(Problem(at(*entry, "section"), f"'{x.entry.section}' is not a section of {x.source}{also}"))
        if not base:
            out.append(Problem(at(*entry, "ruling"), f"'{rs.id}' extends no ruleset, so {x.source} can contradict no inherited ruling"))
        elif not x.known:
            out.append(Problem(at(*entry, "ruling"), f"'{x.entry.ruling}' is not a ruling of '{base}', the ruleset '{rs.id}' extends"))
        elif x.unchanged:
            out.append(Problem(at(*entry, "ruling"), f"ruling {x.entry.ruling} ({x.situation}) is inherited from '{base}' unchanged, "
                               f"but {x.source} ({x.entry.section}) rules otherwise: {x.entry.says} Patch it in "
                               f"situations/{x.situation}.yaml with a ruling of this ruleset's own"))
    return out
