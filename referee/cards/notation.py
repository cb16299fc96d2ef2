"""Reading a card file: the YAML layout of a card and its lines, every problem at path:line:col.

A line is written once, the way the printed card reads it (`groups`, read by `groups`), with
the settings that say what its letters and numbers may be: `suits`, `shift`, `vars`,
`constraints`, `dragons`, `winds`. Every problem found is kept on the card, not raised, so
`card check` can list them all; what a line may cost is bounded here (`limits`), before any
line is expanded. The full grammar is in cards/template.yaml.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from ..errors import LoadError, Place, Problem
from ..safe import controls
from .groups import SUIT_VARS, TILE_LETTERS, Block, read_forms, sizes, split_forms
from .limits import MAX_CARD_WAYS, MAX_GROUPS_CHARS, MAX_LINE_ERRORS, MAX_LINE_WAYS, MAX_LINES, ways
from .line import Line

__all__ = ["Block", "Card", "SUIT_VARS", "TILE_LETTERS", "read_card"]

DOMAINS = {"any": tuple(range(1, 10)), "even": (2, 4, 6, 8), "odd": (1, 3, 5, 7, 9)}
SUIT_MODES = ("distinct", "one-or-distinct", "any")
SUIT_COUNTS = ("1", "2", "3", "1 or 2", "1 or 3", "2 or 3")  # as printed: "Any 1 or 3 Suits"
PICKS = ("any", "different")  # how the bare D (Z) groups of a line may pick their dragons (winds)
_DEPENDENT = re.compile(r"^([A-Z])\s*([+-])\s*([1-8])$")
_CONSTRAINT = re.compile(r"^(?:same-parity\s+([A-Z])\s+([A-Z])|([A-Z])\s*(<|!=|==)\s*([A-Z]))$")
_SAYS = re.compile(r"any|like|only", re.I)  # a note without these words sets nothing
_SAID = ("suits", "shift", "dragons", "winds")  # the settings a line may leave to their default
_LINE_KEYS = {"id", "groups", "value", "concealed", "note", "display", "shift", "vars", "constraints", "suits", "distinct_vars",
              "dragons", "winds"}
_SECTION_KEYS = {"name", "jokerless_bonus", "lines"}
_CARD_KEYS = {"card", "title", "values", "sections"}


@dataclass
class Card:
    id: str
    title: str
    path: str
    lines: list[Line]
    sections: list[str]
    values: tuple[int, int] = (0, 10_000)
    problems: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)

    def line(self, lid: str) -> Line | None:
        return next((ln for ln in self.lines if ln.id == lid), None)


def card_state(card: Card) -> tuple[Any, ...]:
    """A clean card as plain data (tuples, lists, dicts, strings, ints) for the cache."""
    lines = [(ln.id, ln.section, ln.value, ln.concealed, ln.jokerless_bonus, ln.groups,
              [[tuple(map(tuple, tok)) for tok in form] for form in ln.forms],
              ln.note, ln.display, ln.shift, ln.vars, ln.constraints, ln.suits, ln.distinct_vars, ln.dragons, ln.winds,
              ln.runs, ln.said, ln.loc)
             for ln in card.lines]
    return card.id, card.title, card.sections, card.values, lines


def card_from_state(state: tuple[Any, ...], path: str) -> Card:
    """The card `card_state` wrote, as read from `path`."""
    cid, title, sections, values, rows = state
    block = partial(tuple.__new__, Block)  # Block._make without its Python-level call
    lines = [Line(lid, section, value, concealed, bonus, groups,
                  [[tuple(map(block, tok)) for tok in form] for form in forms],
                  note, display, shift, vars_, constraints, suits, distinct, dragons, winds, runs, said, loc)
             for (lid, section, value, concealed, bonus, groups, forms, note, display, shift, vars_, constraints,
                  suits, distinct, dragons, winds, runs, said, loc) in rows]
    return Card(cid, title, path, lines, sections, values)


class _Reader:
    def __init__(self, doc: Any) -> None:
        self.doc = doc
        self.problems: list[Problem] = []
        self.warnings: list[Problem] = []

    def place(self, loc: tuple[Any, ...], offset: int | None = None) -> Place:
        """Where `loc` is; with `offset`, that character of its text value (the groups string)."""
        p = self.doc.place(loc)
        if offset is None or not p.line:
            return p
        value = _get(self.doc.data, loc)
        rows = self.doc.text.splitlines()
        row = rows[p.line - 1] if p.line <= len(rows) else ""
        at = row.find(value, p.col - 1) if isinstance(value, str) else -1
        if at < 0:
            return p
        return Place(p.path, p.line, at + 1 + offset)

    def error(self, loc: tuple[Any, ...], message: str, offset: int | None = None) -> None:
        self.problems.append(Problem(self.place(loc, offset), message))

    def warn(self, loc: tuple[Any, ...], message: str) -> None:
        self.warnings.append(Problem(self.place(loc), "warning: " + message))


def _get(data: Any, loc: tuple[Any, ...]) -> Any:
    for key in loc:
        try:
            data = data[key]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def read_card(doc: Any) -> Card:
    """A card from a parsed YAML document; problems and warnings are kept on the card, not raised."""
    r = _Reader(doc)
    data = doc.data
    if not isinstance(data, dict):
        raise LoadError([Problem(r.place(()), "a card file is a mapping with 'card', 'title' and 'sections'")])
    for key in data:
        if key not in _CARD_KEYS:
            r.error((key,), f"unknown key '{key}' (a card has {', '.join(sorted(_CARD_KEYS))})")
    cid = data.get("card")
    if not isinstance(cid, str) or not re.match(r"^[a-z0-9][a-z0-9-]*$", cid):
        r.error(("card",), "'card' is the card's id: lower-case letters, digits and '-'")
        cid = "?"
    values = _values(r, data.get("values"))
    card = Card(cid, str(data.get("title") or cid), doc.path, [], [], values)
    sections = data.get("sections")
    if not isinstance(sections, list) or not sections:
        r.error(("sections",), "'sections' is a list of sections, each with a name and lines")
        sections = []
    seen: dict[str, tuple[Any, ...]] = {}
    blocks: dict[str, Any] = {}  # each block text read once a card (groups.read_forms)
    budget = MAX_CARD_WAYS
    count = 0
    for i, sec in enumerate(sections):
        loc = ("sections", i)
        if not isinstance(sec, dict):
            r.error(loc, "a section is a mapping with 'name' and 'lines'")
            continue
        for key in sec:
            if key not in _SECTION_KEYS:
                r.error((*loc, key), f"unknown key '{key}' in a section (name, jokerless_bonus, lines)")
        name = str(sec.get("name", f"section {i + 1}"))
        card.sections.append(name)
        bonus = sec.get("jokerless_bonus", True)
        if not isinstance(bonus, bool):
            r.error((*loc, "jokerless_bonus"), "jokerless_bonus is true or false")
            bonus = True
        lines = sec.get("lines")
        if not isinstance(lines, list) or not lines:
            r.error((*loc, "lines"), "a section needs 'lines', a list of card lines")
            continue
        if count + len(lines) > MAX_LINES:  # refused before reading the rest: a huge card costs no more
            r.error((*loc, "lines", max(0, MAX_LINES - count)),
                    f"a card holds at most {MAX_LINES} lines (a printed card has about 60); this is line {MAX_LINES + 1}")
            break
        count += len(lines)
        for j, raw in enumerate(lines):
            line = _line(r, (*loc, "lines", j), raw, name, bonus, values, blocks)
            if line is None:
                continue
            if line.id in seen:
                r.error((*loc, "lines", j, "id"), f"line id '{line.id}' is used twice (first at {r.place(seen[line.id])})")
                continue
            seen[line.id] = (*loc, "lines", j, "id")  # its place is found only if it is needed
            if budget < 0:
                line.broken = True  # past the card's bound: refused once, at the line that crossed it
            elif not line.broken:
                budget -= line.cost
                if budget < 0:
                    r.error((*line.loc, "groups"), f"line {line.id}: the card's lines up to here take more than "
                            f"{MAX_CARD_WAYS:,} ways to make them, the most a card may take; this line and those "
                            "after it are not expanded")
                    line.broken = True
            card.lines.append(line)
    text = doc.text
    if not text or "\\" in text or controls(text) != text:  # else no value holds one: only an escape could make it
        _text_fields(r, data)
    card.problems, card.warnings = r.problems, r.warnings
    return card


def _text_fields(r: _Reader, data: dict[str, Any]) -> None:
    """A control or bidi character in any text of the card (a stranger's file) is shown escaped
    wherever the card is printed, and named here so the author can take it out."""
    fields: list[tuple[tuple[Any, ...], Any]] = [(("title",), data.get("title")), (("card",), data.get("card"))]
    for i, sec in enumerate(data.get("sections") or []):
        if not isinstance(sec, dict):
            continue
        fields.append((("sections", i, "name"), sec.get("name")))
        for j, raw in enumerate(sec.get("lines") or [] if isinstance(sec.get("lines"), list) else []):
            if isinstance(raw, dict):
                loc = ("sections", i, "lines", j)
                fields += [((*loc, key), raw.get(key)) for key in ("id", "note", "display")]
                groups = raw.get("groups")
                fields += [((*loc, "groups", k), g) for k, g in enumerate(groups)] if isinstance(groups, list) else [
                    ((*loc, "groups"), groups)]
        if len(fields) > 4 * MAX_LINES:
            break
    for loc, value in fields:
        if isinstance(value, str) and controls(value) != value:
            bad = next(ch for ch in value if controls(ch) != ch)
            r.warn(loc, f"'{loc[-1] if isinstance(loc[-1], str) else loc[-2]}' holds a control or "
                   f"right-to-left character ({controls(bad)}), which could repaint a terminal or reverse the text "
                   "around it; it is shown escaped, and should be taken out")


def _values(r: _Reader, raw: Any) -> tuple[int, int]:
    if raw is None:
        return (0, 10_000)
    if not isinstance(raw, dict) or set(raw) - {"min", "max"} or not all(
            isinstance(raw.get(k), int) and not isinstance(raw.get(k), bool) for k in ("min", "max")):
        r.error(("values",), "values is {min: N, max: N}, the lowest and highest line values on the card")
        return (0, 10_000)
    return (raw["min"], raw["max"])


def _line(r: _Reader, loc: tuple[Any, ...], raw: Any, section: str, bonus: bool, values: tuple[int, int],
          blocks: dict[str, Any]) -> Line | None:
    if not isinstance(raw, dict):
        r.error(loc, "a line is a mapping: {id: ..., groups: \"...\", value: N}")
        return None
    if not _LINE_KEYS.issuperset(raw):
        for key in raw:
            if key not in _LINE_KEYS:
                r.error((*loc, key), f"unknown key '{key}' in a line ({', '.join(sorted(_LINE_KEYS))})")
    lid = raw.get("id")
    if not isinstance(lid, (str, int)) or isinstance(lid, bool) or not str(lid).strip():
        r.error((*loc, "id") if "id" in raw else loc, "a line needs an 'id' (as 'Y1'), used in messages and answers")
        return None
    lid = str(lid)
    value = raw.get("value")
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        r.error((*loc, "value") if "value" in raw else loc, f"line {lid}: 'value' is the card value, a whole number such as 25")
        value = 0
    elif not values[0] <= value <= values[1]:
        r.error((*loc, "value"), f"line {lid}: value {value} is outside the card's range {values[0]}-{values[1]}")
    concealed = raw.get("concealed", False)
    if not isinstance(concealed, bool):
        r.error((*loc, "concealed"), f"line {lid}: concealed is true (C on the card) or false (X)")
        concealed = False
    texts = _groups(r, loc, lid, raw)
    if texts is None:
        return None
    before = len(r.problems)
    reports = [(text, _report(r, where, lid, offset)) for text, where, offset in texts]
    forms, looks = read_forms(reports, lid, blocks)
    shown = texts[0][0] if len(texts) == 1 else " || ".join([text for text, _, _ in texts])
    display = raw.get("display")
    line = Line(lid, section, value, concealed, bonus, shown, forms, str(raw.get("note") or ""),
                str(display) if display else " -or- ".join(looks), loc=loc)
    digits: list[int] = []
    used: set[str] = set()
    letters: set[str] = set()
    for tok in line.tokens:  # one walk for the numbers, variables and suit letters the line prints
        for b in tok:
            for kind, number_or_name, suit in b.atoms:
                if suit is not None:
                    letters.add(suit)
                if kind == "num":
                    digits.append(number_or_name)
                elif kind == "var":
                    used.add(number_or_name)
    line.letters = sorted(letters)  # what Line.letters would find, without walking the atoms again
    raw = _with_note(r, loc, lid, raw, digits, len(line.letters))
    line.said = tuple(filter(raw.__contains__, _SAID))
    line.suits = _suits(r, loc, lid, raw.get("suits", "distinct"), len(line.letters))
    line.dragons = _picks(r, loc, lid, raw, "dragons")
    line.winds = _picks(r, loc, lid, raw, "winds")
    dv = raw.get("distinct_vars", True)
    line.distinct_vars = dv if isinstance(dv, bool) else True
    if not isinstance(dv, bool):
        r.error((*loc, "distinct_vars"), f"line {lid}: distinct_vars is true or false")
    line.vars = _vars(r, loc, lid, raw.get("vars") or {}, used)
    if line.vars:
        line.runs = tuple(sorted(n for n, d in raw["vars"].items() if d == "run" and n in line.vars))
    if line.runs and not digits:
        r.error((*loc, "vars"), f"line {lid}: '{line.runs[0]}: run' is any number of the line's run, but the line prints "
                "no numbers")
    line.constraints = _constraints(r, loc, lid, raw.get("constraints") or [], set(line.vars))
    line.shift = _shift(r, loc, lid, raw.get("shift"), set(digits))
    for form, (_, report) in zip(forms, reports):
        if form:
            sizes(report, lid, form, 0)
    line.broken = len(r.problems) > before or not all(forms)
    cost = line.cost = 0 if line.broken else ways(line)
    if cost > MAX_LINE_WAYS:
        r.error((*loc, "groups"), f"line {lid}: this line stands for {cost:,} ways to make it (its alternatives, "
                f"suits, shifts and variables multiplied); a line may take at most {MAX_LINE_WAYS:,}: split it into "
                "lines, or write a number that may be anything as a variable (X: any)")
        line.broken = True
    if len(r.problems) - before > MAX_LINE_ERRORS:
        extra = len(r.problems) - before - MAX_LINE_ERRORS
        del r.problems[before + MAX_LINE_ERRORS:]
        r.error((*loc, "groups"), f"line {lid}: {extra} more problem{'s' if extra != 1 else ''} not shown")
    return line


def _groups(r: _Reader, loc: tuple[Any, ...], lid: str, raw: dict[str, Any]) -> list[tuple[str, tuple[Any, ...], int]] | None:
    """(text, loc, offset) of each form: a list of forms, or one string with `||` between them."""
    groups = raw.get("groups")
    where = (*loc, "groups")
    items = groups if isinstance(groups, list) and groups else [groups]
    if not all(isinstance(g, str) and g.strip() for g in items):
        r.error(where if "groups" in raw else loc, f"line {lid}: 'groups' is the line as printed, e.g. \"FF 2033a 3333b "
                "3333c\", or a list of such forms for a line printed with -or-")
        return None
    if sum(map(len, items)) > MAX_GROUPS_CHARS:
        r.error(where, f"line {lid}: 'groups' is {sum(map(len, items)):,} characters; a line's groups are at most "
                f"{MAX_GROUPS_CHARS}")
        return None
    if isinstance(groups, list):
        return [(text, (*where, i), offset) for i, g in enumerate(items) for text, offset in split_forms(g)]
    return [(text, where, offset) for text, offset in split_forms(groups)]


def _report(r: _Reader, where: tuple[Any, ...], lid: str, offset: int):  # noqa: ANN202
    def report(message: str, at: int) -> None:
        r.error(where, message, offset + at)
    return report


def _with_note(r: _Reader, loc: tuple[Any, ...], lid: str, raw: dict[str, Any], digits: list[int],
               letters: int) -> dict[str, Any]:
    """The line's settings with those its printed note says ("Any 3 Consec. Nos." is shift: any);
    a setting written out must agree with the note."""
    note = raw.get("note")
    if not isinstance(note, str) or not _SAYS.search(note):
        return raw
    from .printed import note_settings  # its patterns are compiled only for a card read afresh, never from the cache

    found, problems = note_settings(note, digits)
    for problem in problems:
        r.error((*loc, "note"), f"line {lid}: {problem}")
    out = dict(raw)
    for key, (value, phrase) in found.items():
        if key not in raw:
            out[key] = value
        elif _normal(raw[key]) != _normal(value) and not (key == "suits" and _same_counts(raw[key], value, letters)):
            r.error((*loc, key), f"line {lid}: the note '{phrase}' says {key}: {_normal(value)}, but the line says "
                    f"{key}: {_normal(raw[key])}; keep one")
    return out


def _same_counts(written: Any, said: str, letters: int) -> bool:
    """suits: one-or-distinct on a line of two letters is the note's 'Any 1 or 2 Suits'."""
    probe = Line("", "", 0, False, True, "", [[(Block((("num", 1, c),), False, "", 0),) for c in "abc"[:letters]]])
    probe.suits = str(written)
    counts = probe.suit_counts
    probe.suits = said
    return counts == probe.suit_counts


def _normal(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(map(str, value)) + "]"
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return str(value)


def _suits(r: _Reader, loc: tuple[Any, ...], lid: str, raw: Any, letters: int) -> str:
    if isinstance(raw, list) and raw and all(isinstance(n, int) and not isinstance(n, bool) for n in raw):
        raw = " or ".join(map(str, sorted(set(raw))))
    elif isinstance(raw, int) and not isinstance(raw, bool):
        raw = str(raw)
    if raw not in SUIT_MODES and raw not in SUIT_COUNTS:
        r.error((*loc, "suits"), f"line {lid}: suits is one of {', '.join(SUIT_MODES)}, or a count as printed: "
                f"{', '.join(SUIT_COUNTS)}")
        return "distinct"
    raw = str(raw)
    if raw[0].isdigit():
        most = max(int(c) for c in raw.split(" or "))
        if most > max(letters, 1):
            r.error((*loc, "suits"), f"line {lid}: suits {raw}, but the line has {letters} suit letter"
                    f"{'s' if letters != 1 else ''} ({', '.join('abc'[:letters]) or 'none'}); give each suit of the "
                    "printed card its own letter")
            return "distinct"
    return raw


def _picks(r: _Reader, loc: tuple[Any, ...], lid: str, raw: dict[str, Any], key: str) -> str:
    value = raw.get(key, "any")
    if value not in PICKS:
        r.error((*loc, key), f"line {lid}: {key} is any (each bare {'D' if key == 'dragons' else 'Z'} group picks its own, "
                "the same one twice included) or different (each a different one)")
        return "any"
    return str(value)


def _vars(r: _Reader, loc: tuple[Any, ...], lid: str, raw: Any, used: set[str]) -> dict[str, Any]:
    if not isinstance(raw, dict):
        r.error((*loc, "vars"), f"line {lid}: vars maps a number variable to its numbers, e.g. {{X: odd}}")
        return {}
    out: dict[str, Any] = {}
    for name, dom in raw.items():
        where = (*loc, "vars", name)
        if not (isinstance(name, str) and len(name) == 1 and name.isupper() and name not in TILE_LETTERS):
            r.error(where, f"line {lid}: variable '{name}' must be one capital letter other than {' '.join(sorted(TILE_LETTERS))}")
            continue
        if isinstance(dom, str) and dom in DOMAINS:
            out[name] = DOMAINS[dom]
        elif dom == "run":  # any number of the line's run; narrowed for each shift when expanded
            out[name] = DOMAINS["any"]
        elif isinstance(dom, list) and dom and all(isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= 9 for n in dom):
            out[name] = tuple(dom)
        elif isinstance(dom, str) and _DEPENDENT.match(dom.strip()):
            m = _DEPENDENT.match(dom.strip())
            assert m
            base, sign, n = m.group(1), m.group(2), int(m.group(3))
            if base not in raw or not isinstance(raw[base], (str, list)) or isinstance(raw[base], str) and _DEPENDENT.match(raw[base]):
                r.error(where, f"line {lid}: '{dom}' must depend on a free variable of this line")
                continue
            out[name] = (base, n if sign == "+" else -n)
        else:
            r.error(where, f"line {lid}: '{dom}' is not a domain: any, even, odd, run (any number of the line's run), "
                    "a list such as [3, 6, 9], or 'X+1'")
            continue
        if name not in used:
            r.warn(where, f"line {lid}: variable {name} is declared but not used in the groups")
    for name in sorted(used - set(raw)):
        r.error((*loc, "groups"), f"line {lid}: variable {name} is used but not declared under vars")
    return out


def _constraints(r: _Reader, loc: tuple[Any, ...], lid: str, raw: Any, names: set[str]) -> list[tuple[str, str, str]]:
    if not isinstance(raw, list):
        r.error((*loc, "constraints"), f"line {lid}: constraints is a list, e.g. [\"same-parity X Y\"]")
        return []
    out = []
    for i, text in enumerate(raw):
        m = _CONSTRAINT.match(str(text).strip())
        if not m:
            r.error((*loc, "constraints", i), f"line {lid}: '{text}' is not a constraint: same-parity X Y, X < Y, X != Y or X == Y")
            continue
        a, op, b = (m.group(1), "same-parity", m.group(2)) if m.group(1) else (m.group(3), m.group(4), m.group(5))
        for v in (a, b):
            if v not in names:
                r.error((*loc, "constraints", i), f"line {lid}: constraint '{text}' names {v}, which is not a variable of this line")
        out.append((a, op, b))
    return out


def _shift(r: _Reader, loc: tuple[Any, ...], lid: str, raw: Any, digits: set[int]) -> tuple[int, ...]:
    if raw is None:
        return (0,)
    lo, hi = (min(digits), max(digits)) if digits else (1, 9)
    fits = [k for k in range(-8, 9) if 1 <= lo + k and hi + k <= 9]
    if raw == "any":
        return tuple(fits)
    if raw == "even":
        return tuple(k for k in fits if k % 2 == 0)
    if isinstance(raw, list) and raw and all(isinstance(k, int) and not isinstance(k, bool) for k in raw):
        bad = [k for k in raw if k not in fits]
        if bad:
            r.error((*loc, "shift"), f"line {lid}: shift {bad[0]} moves a number of this line outside 1-9 (numbers never wrap)")
        return tuple(k for k in raw if k in fits)
    r.error((*loc, "shift"), f"line {lid}: shift is any, even, or a list of steps such as [0, 3]")
    return (0,)
