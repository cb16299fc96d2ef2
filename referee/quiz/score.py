"""A session's tally: right answers per part and per phase, and the situations to read again."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..rules.model import PHASES
from .items import PARTS, Item
from .marking import Marked


@dataclass
class Score:
    asked: list[tuple[Item, list[Marked]]] = field(default_factory=list)

    def add(self, item: Item, marks: list[Marked]) -> None:
        self.asked.append((item, marks))

    def by_part(self) -> list[tuple[str, int, int]]:
        """(part, right, asked) for each part, in the order they are asked."""
        return [(part, sum(m.right for _, ms in self.asked for m in ms if m.part == part),
                 sum(1 for _, ms in self.asked for m in ms if m.part == part)) for part in PARTS]

    def by_phase(self) -> list[tuple[str, int, int]]:
        """(phase, parts right, parts asked), phases in the game's order."""
        tally: dict[str, list[int]] = {}
        for item, marks in self.asked:
            t = tally.setdefault(item.phase, [0, 0])
            t[0] += sum(m.right for m in marks)
            t[1] += len(marks)
        return [(p, *tally[p]) for p in sorted(tally, key=lambda p: PHASES.index(p) if p in PHASES else 99)]  # type: ignore[misc]

    def fully_right(self) -> int:
        return sum(all(m.right for m in ms) for _, ms in self.asked)

    def read_again(self) -> list[str]:
        """The situations of every question with a part wrong, once each, in the order asked."""
        return list(dict.fromkeys(item.situation for item, ms in self.asked if not all(m.right for m in ms)))
