"""Reading a card file: the YAML layout and the `groups` notation, with every problem at path:line:col.

A line is written once, the way the printed card reads: `FF 2033a 3333b 3333c`. A block of one
atom repeated is one group (jokers allowed from 3 tiles up, unless it ends in `!`); a block of
different atoms (`2033a`, `NEWS`) is singles shown together and never takes a joker. `a b c` are
suits bound to different suits, `D` a dragon (of a suit when it has a letter, any dragon when
bare), `0` the soap, `Z` any wind, `F` a flower, capitals other than tile letters number variables.
`|` separates alternatives for one group. The full grammar is in cards/template.yaml.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from ..errors import LoadError, Place, Problem
from .tiles import EAST, FLOWER, GREEN, NORTH, RED, SOUTH, WEST, short

SUIT_VARS = "abc"
TILE_LETTERS = set("FNEWSDRGZJ")
DOMAINS = {"any": tuple(range(1, 10)), "even": (2, 4, 6, 8), "odd": (1, 3, 5, 7, 9)}
SUIT_MODES = ("distinct", "one-or-distinct", "any")
_FIXED = {"R": RED, "G": GREEN, "N": NORTH, "E": EAST, "W": WEST, "S": SOUTH, "F": FLOWER}
_DEPENDENT = re.compile(r"^([A-Z])\s*([+-])\s*([1-8])$")
_CONSTRAINT = re.compile(r"^(?:same-parity\s+([A-Z])\s+([A-Z])|([A-Z])\s*(<|!=|==)\s*([A-Z]))$")
_LINE_KEYS = {"id", "groups", "value", "concealed", "note", "display", "shift", "vars", "constraints", "suits", "distinct_vars"}
_SECTION_KEYS = {"name", "jokerless_bonus", "lines"}
_CARD_KEYS = {"card", "title", "values", "sections"}

# An atom: ("num", n, suit) a printed digit; ("var", X, suit); ("tile", t, None) a fixed tile;
# ("dragon", None, suit) a suit's dragon; ("anydragon", None, None); ("anywind", None, None).
Atom = tuple[str, Any, "str | None"]


@dataclass(frozen=True)
class Block:
    atoms: tuple[Atom, ...]
    bang: bool
    text: str
    col: int  # character offset in the groups string

    @cached_property
    def uniform(self) -> bool:
        """One atom repeated: one group (else singles shown together)."""
        return all(a == self.atoms[0] for a in self.atoms)


@dataclass
class Line:
    id: str
    section: str
    value: int
    concealed: bool
    jokerless_bonus: bool
    groups: str
    tokens: list[tuple[Block, ...]]
    note: str = ""
    display: str = ""
    shift: tuple[int, ...] = (0,)
    vars: dict[str, tuple[int, ...] | tuple[str, int]] = field(default_factory=dict)
    constraints: list[tuple[str, str, str]] = field(default_factory=list)
    suits: str = "distinct"
    distinct_vars: bool = True
    loc: tuple[Any, ...] = ()  # where the line sits in the file, for Document.place
    broken: bool = False  # reading it found a problem: it is not expanded

    @property
    def mark(self) -> str:
        return "C" if self.concealed else "X"


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
              [[(b.atoms, b.bang, b.text, b.col) for b in tok] for tok in ln.tokens],
              ln.note, ln.display, ln.shift, ln.vars, ln.constraints, ln.suits, ln.distinct_vars, ln.loc)
             for ln in card.lines]
    return card.id, card.title, card.sections, card.values, lines


def card_from_state(state: tuple[Any, ...], path: str) -> Card:
    """The card `card_state` wrote, as read from `path`."""
    cid, title, sections, values, rows = state
    lines = [Line(lid, section, value, concealed, bonus, groups, [tuple(Block(*b) for b in tok) for tok in tokens],
                  note, display, shift, vars_, constraints, suits, distinct, loc)
             for (lid, section, value, concealed, bonus, groups, tokens, note, display, shift, vars_, constraints,
                  suits, distinct, loc) in rows]
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
        for j, raw in enumerate(lines):
            line = _line(r, (*loc, "lines", j), raw, name, bonus, values)
            if line is None:
                continue
            if line.id in seen:
                r.error((*loc, "lines", j, "id"), f"line id '{line.id}' is used twice (first at {r.place(seen[line.id])})")
                continue
            seen[line.id] = (*loc, "lines", j, "id")  # its place is found only if it is needed
            card.lines.append(line)
    card.problems, card.warnings = r.problems, r.warnings
    return card


def _values(r: _Reader, raw: Any) -> tuple[int, int]:
    if raw is None:
        return (0, 10_000)
    if not isinstance(raw, dict) or set(raw) - {"min", "max"} or not all(
            isinstance(raw.get(k), int) and not isinstance(raw.get(k), bool) for k in ("min", "max")):
        r.error(("values",), "values is {min: N, max: N}, the lowest and highest line values on the card")
        return (0, 10_000)
    return (raw["min"], raw["max"])


def _line(r: _Reader, loc: tuple[Any, ...], raw: Any, section: str, bonus: bool, values: tuple[int, int]) -> Line | None:
    if not isinstance(raw, dict):
        r.error(loc, "a line is a mapping: {id: ..., groups: \"...\", value: N}")
        return None
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
    groups = raw.get("groups")
    if not isinstance(groups, str) or not groups.strip():
        r.error((*loc, "groups") if "groups" in raw else loc, f"line {lid}: 'groups' is the line as printed, e.g. \"FF 2033a 3333b 3333c\"")
        return None
    before = len(r.problems)
    tokens = _tokens(r, (*loc, "groups"), lid, groups)
    line = Line(lid, section, value, concealed, bonus, groups, tokens, str(raw.get("note") or ""),
                str(raw.get("display") or ""), loc=loc)
    line.suits = _suits(r, loc, lid, raw.get("suits", "distinct"))
    dv = raw.get("distinct_vars", True)
    line.distinct_vars = dv if isinstance(dv, bool) else True
    if not isinstance(dv, bool):
        r.error((*loc, "distinct_vars"), f"line {lid}: distinct_vars is true or false")
    used = {a[1] for tok in tokens for b in tok for a in b.atoms if a[0] == "var"}
    line.vars = _vars(r, loc, lid, raw.get("vars") or {}, used)
    line.constraints = _constraints(r, loc, lid, raw.get("constraints") or [], set(line.vars))
    digits = {a[1] for tok in tokens for b in tok for a in b.atoms if a[0] == "num"}
    line.shift = _shift(r, loc, lid, raw.get("shift"), digits)
    if len(r.problems) == before:
        _sizes(r, (*loc, "groups"), lid, tokens)
    line.broken = len(r.problems) > before
    return line


def _tokens(r: _Reader, loc: tuple[Any, ...], lid: str, text: str) -> list[tuple[Block, ...]]:
    tokens: list[tuple[Block, ...]] = []
    pos = 0
    for part in text.split(" "):
        if part:
            blocks = []
            at = pos
            for alt in part.split("|"):
                block = _block(r, loc, lid, alt, at)
                if block is not None:
                    blocks.append(block)
                at += len(alt) + 1
            if len(blocks) == len(part.split("|")):
                tokens.append(tuple(blocks))
        pos += len(part) + 1
    return tokens


def _block(r: _Reader, loc: tuple[Any, ...], lid: str, text: str, col: int) -> Block | None:
    bang = text.endswith("!")
    body = text[:-1] if bang else text
    if not body:
        r.error(loc, f"line {lid}: an empty group at '{text or '|'}'", col)
        return None
    atoms: list[list[Any]] = []
    pending: list[int] = []  # atoms waiting for a suit letter
    for i, ch in enumerate(body):
        if ch in SUIT_VARS:
            if not pending:
                r.error(loc, f"line {lid}: suit letter '{ch}' in '{text}' follows nothing that takes a suit", col + i)
                return None
            for k in pending:
                kind = atoms[k][0]
                if kind in ("num", "var", "dragon"):
                    atoms[k][2] = ch
                elif kind != "soap":  # the soap has no suit, even printed in a suit's colour
                    r.error(loc, f"line {lid}: '{_letter(atoms[k])}' in '{text}' takes no suit letter", col + i)
                    return None
            pending = []
        elif ch.isdigit() and ch != "0":
            atoms.append(["num", int(ch), None])
            pending.append(len(atoms) - 1)
        elif ch == "0":
            atoms.append(["soap", None, None])
            pending.append(len(atoms) - 1)
        elif ch == "D":
            atoms.append(["dragon", None, None])
            pending.append(len(atoms) - 1)
        elif ch in "RGNEWSF":
            atoms.append(["tile", _FIXED[ch], None])
            pending.append(len(atoms) - 1)
        elif ch == "Z":
            atoms.append(["anywind", None, None])
            pending.append(len(atoms) - 1)
        elif ch.isupper() and ch.isascii() and ch not in TILE_LETTERS:
            atoms.append(["var", ch, None])
            pending.append(len(atoms) - 1)
        else:
            hint = " (J is a joker: a card line names tiles, never jokers)" if ch == "J" else ""
            r.error(loc, f"line {lid}: '{ch}' in '{text}' is not a tile of the card notation{hint}", col + i)
            return None
    for a in atoms:
        if a[0] in ("num", "var") and a[2] is None:
            r.error(loc, f"line {lid}: the number '{_letter(a)}' in '{text}' needs a suit letter (a, b or c)", col)
            return None
        if a[0] == "dragon" and a[2] is None:
            a[0] = "anydragon"
    return Block(tuple((a[0], a[1], a[2]) for a in atoms), bang, text, col)


def _letter(atom: list[Any]) -> str:
    kind, value = atom[0], atom[1]
    if kind == "tile":
        return short(value)
    return {"num": str(value), "var": str(value), "soap": "0", "dragon": "D", "anywind": "Z"}.get(kind, "?")


def _suits(r: _Reader, loc: tuple[Any, ...], lid: str, raw: Any) -> str:
    if raw not in SUIT_MODES:
        r.error((*loc, "suits"), f"line {lid}: suits is one of {', '.join(SUIT_MODES)}")
        return "distinct"
    return str(raw)


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
            r.error(where, f"line {lid}: '{dom}' is not a domain: any, even, odd, a list such as [3, 6, 9], or 'X+1'")
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


def _sizes(r: _Reader, loc: tuple[Any, ...], lid: str, tokens: list[tuple[Block, ...]]) -> None:
    for tok in tokens:
        if len({len(b.atoms) for b in tok}) > 1:
            r.error(loc, f"line {lid}: the alternatives '{'|'.join(b.text for b in tok)}' differ in size", tok[0].col)
            return
    total = sum(len(tok[0].atoms) for tok in tokens)
    if total != 14:
        r.error(loc, f"line {lid}: the groups hold {total} tiles; a hand is 14")
