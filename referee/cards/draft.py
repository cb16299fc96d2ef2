"""A card being typed in, one printed line at a time (`referee card new`).

Each line offered is checked as part of the whole card so far, exactly as `card check` would
check the file (so a repeated id or a card past its bounds is caught too), and is kept only when
it reads cleanly; the text written out is the card file itself, one line of YAML per printed
line, the way the practice card is laid out. Pure: the CLI asks the questions and writes the file.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from ..errors import LoadError, Problem


@dataclass
class Offered:
    """What card check says of one line offered: its problems, or its example hand."""

    problems: list[str]
    warnings: list[str] = field(default_factory=list)
    example: str = ""
    jokers: int = 0
    varies: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


@dataclass
class Draft:
    card: str
    title: str
    values: tuple[int, int] = (25, 75)
    sections: list[tuple[str, list[dict[str, Any]]]] = field(default_factory=list)

    @property
    def lines(self) -> int:
        return sum(len(lines) for _, lines in self.sections)

    def next_id(self, section: str) -> str:
        """A short id for the next line of `section`, as judges call lines: '2468-3' in a family
        named by numbers, 'CR2' (its initials) in one named by words."""
        words = re.findall(r"[A-Za-z0-9]+", section)
        if words and words[0][0].isdigit():
            prefix = words[0] + "-"
        else:
            prefix = "".join(w[0].upper() for w in words[:3] if w[0].isascii()) or "L"
        taken = {str(ln["id"]) for _, lines in self.sections for ln in lines}
        n = 1 + sum(1 for name, lines in self.sections if name == section for _ in lines)
        while f"{prefix}{n}" in taken:
            n += 1
        return f"{prefix}{n}"

    def offer(self, section: str, line: dict[str, Any]) -> Offered:
        """Check `line` as the next line of `section`; keep it when it reads cleanly."""
        trial = Draft(self.card, self.title, self.values, [(name, list(lines)) for name, lines in self.sections])
        trial._add(section, line)
        result = _check(trial.text(), line)
        if result.ok:
            self._add(section, line)
        return result

    def _add(self, section: str, line: dict[str, Any]) -> None:
        if not self.sections or self.sections[-1][0] != section:
            self.sections.append((section, []))
        self.sections[-1][1].append(line)

    def text(self) -> str:
        """The card file."""
        out = ["# Typed in with `referee card new`. Check it with `referee card check FILE --examples` and",
               "# read it back against the printed card; it is yours: the League's card is not to be shared.",
               f"card: {self.card}", f"title: {_quote(self.title)}",
               f"values: {{min: {self.values[0]}, max: {self.values[1]}}}", "sections:"]
        for name, lines in self.sections:
            out.append(f"  - name: {_quote(name)}")
            if re.search(r"singles|pairs", name, re.I):
                out.append("    jokerless_bonus: false")
            out.append("    lines:")
            out += ["      - {" + ", ".join(f"{k}: {_value(v)}" for k, v in ln.items()) + "}" for ln in lines]
        return "\n".join(out) + "\n"


def _quote(text: str) -> str:
    """A YAML double-quoted string (JSON's escapes are YAML's)."""
    return json.dumps(str(text), ensure_ascii=False)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return _quote(value)


def _check(text: str, line: dict[str, Any]) -> Offered:
    from ..rules.yamlload import parse
    from .lint import lint
    from .notation import read_card
    from .printed import example, varies

    try:
        doc = parse(text, "the card")
        card = read_card(doc)
        problems, warnings, raw = lint(card, doc)
    except LoadError as exc:
        return Offered([p.message for p in exc.problems])
    mine = [p for p in problems if _about(p, line)] or problems
    if mine:
        return Offered([p.message for p in mine])
    last = card.lines[-1]
    tiles, jokers, _ = example(raw[-1])
    return Offered([], [p.message.removeprefix("warning: ") for p in warnings if _about(p, line)], tiles, jokers,
                   varies(last))


def _about(p: Problem, line: dict[str, Any]) -> bool:
    return f"line {line['id']}" in p.message or f"'{line['id']}'" in p.message
