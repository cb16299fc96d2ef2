"""The catalogue of table customs (customs/*.yaml) and a table's choice among them."""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import UsageError

CUSTOMS_DIR = Path(__file__).resolve().parent / "customs"
MARK = "<N>"  # the table's number, wherever a fragment needs it
ID = re.compile(r"^[a-z][a-z0-9-]*$")


@dataclass(frozen=True)
class Number:
    ask: str
    default: int
    min: int
    max: int


@dataclass(frozen=True)
class Custom:
    id: str
    rule: str  # "pie" -> "by your table's pie rule"
    title: str
    describe: str
    says: str  # the sheet's sentence, <N> for the number
    cite: str
    number: Number | None = None
    also_cite: tuple[str, ...] = ()
    conflicts: frozenset[str] = frozenset()
    scoring: dict[str, Any] = field(default_factory=dict)
    facts: dict[str, Any] = field(default_factory=dict)
    situations: dict[str, Any] = field(default_factory=dict)  # file stem -> a situation or a patch document
    sources: dict[str, Any] = field(default_factory=dict)  # sources its citations need beyond nmjl's
    scenarios: tuple[dict[str, Any], ...] = ()

    @property
    def source_key(self) -> str:
        return self.cite.split(":", 1)[0].strip()

    def sentence(self, n: int | None) -> str:
        return fill(self.says, n)

    def filled(self, part: str, n: int | None) -> Any:
        """One part of the fragment (scoring, facts, situations, scenarios) with the table's number in it."""
        return fill(getattr(self, part), n)

    def rulings(self) -> list[str]:
        """The ids of the rulings its situation files write."""
        found: list[str] = []

        def walk(x: Any) -> None:
            if isinstance(x, dict):
                if isinstance(x.get("ruling"), dict) and "id" in x["ruling"]:
                    found.append(x["ruling"]["id"])
                for v in x.values():
                    walk(v)
            elif isinstance(x, list):
                for v in x:
                    walk(v)

        walk(self.situations)
        return found

    def check_number(self, raw: Any) -> int | None:
        """The table's number for this custom, checked against its bounds; its default when not given."""
        if self.number is None:
            if raw not in (None, True, ""):
                raise UsageError(f"custom '{self.id}' takes no number (got '{raw}'); write --custom {self.id}")
            return None
        if raw in (None, True, ""):
            return self.number.default
        try:
            n = int(str(raw).strip())
        except ValueError:
            raise UsageError(f"custom '{self.id}' needs a whole number ({self.number.ask}), not '{raw}'") from None
        if not self.number.min <= n <= self.number.max:
            raise UsageError(f"custom '{self.id}': {n} is outside {self.number.min} to {self.number.max} ({self.number.ask})")
        return n


def fill(value: Any, n: int | None) -> Any:
    """`value` with <N> replaced by the number: a string that is only <N> becomes the number itself."""
    if isinstance(value, str):
        if value == MARK:
            return n
        return value.replace(MARK, str(n)) if MARK in value else value
    if isinstance(value, dict):
        return {fill(k, n): fill(v, n) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [fill(v, n) for v in value]
    return value


def _read(path: Path) -> Custom:
    from ..rules.yamlload import read

    data = read(path).data  # the rules' own YAML reading: 'yes:' stays a key, not True
    number = data.get("number")
    return Custom(
        id=data["id"], rule=data["rule"], title=data["title"], describe=data["describe"], says=data["says"],
        cite=data["cite"], number=Number(**number) if number else None, also_cite=tuple(data.get("also_cite", ())),
        conflicts=frozenset(data.get("conflicts", ())), scoring=data.get("scoring", {}), facts=data.get("facts", {}),
        situations=data.get("situations", {}), sources=data.get("sources", {}), scenarios=tuple(data.get("scenarios", ())),
    )


# The order the wizard asks in: money first (what a table argues over most), then play.
ORDER = ("pie", "dice-doubles", "double-card", "add-a-zero", "first-last-double", "bonus-hand", "exchange-pays-single",
         "hot-wall", "cold-wall", "no-death-challenge", "pick-ahead", "blanks", "short-charleston", "mush", "kitty")


@functools.lru_cache(maxsize=1)
def catalogue() -> dict[str, Custom]:
    """Every custom, id -> Custom, in the wizard's order (those ORDER does not name last, by id)."""
    found = {c.id: c for c in map(_read, sorted(CUSTOMS_DIR.glob("*.yaml")))}
    rank = {cid: i for i, cid in enumerate(ORDER)}
    ordered = sorted(found, key=lambda cid: (rank.get(cid, len(ORDER)), cid))
    # a conflict is mutual even where only one file names it
    conflicts = {cid: set(found[cid].conflicts) for cid in found}
    for cid in found:
        for other in found[cid].conflicts:
            conflicts.setdefault(other, set()).add(cid)
    from dataclasses import replace

    return {cid: replace(found[cid], conflicts=frozenset(conflicts[cid])) for cid in ordered}


def parse_custom(raw: str) -> tuple[str, str | None]:
    """--custom pie=100 -> ('pie', '100'); --custom dice-doubles -> ('dice-doubles', None)."""
    key, sep, value = raw.partition("=")
    return key.strip().lower(), (value.strip() if sep else None)


def choose(cat: dict[str, Custom], wanted: dict[str, Any]) -> dict[str, int | None]:
    """The table's customs, id -> number, in catalogue order; one clear error for an unknown id,
    a bad number, or two customs that cannot be played together."""
    import difflib

    for cid in wanted:
        if cid not in cat:
            hint = difflib.get_close_matches(cid, cat, n=1)
            also = f"; did you mean '{hint[0]}'?" if hint else "; see 'referee house list'"
            raise UsageError(f"unknown custom '{cid}'{also}")
    chosen = {cid: cat[cid].check_number(wanted[cid]) for cid in cat if cid in wanted}
    for cid in chosen:
        clash = sorted(c for c in cat[cid].conflicts if c in chosen)
        if clash:
            raise UsageError(f"custom '{cid}' cannot be played with '{clash[0]}' ({cat[cid].title} / {cat[clash[0]].title}); choose one")
    return chosen
