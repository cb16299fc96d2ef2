"""Which stories a session asks: spread over the phases and situations, repeatable with a seed."""
from __future__ import annotations

import random

from ..errors import UsageError
from ..rules.loader import Ruleset
from ..rules.model import PHASES
from .items import Item


def topic_filter(rs: Ruleset, topic: str | None, pool: list[Item]) -> list[Item]:
    """The items of one phase of the game or one situation; the whole pool without a topic."""
    if not topic:
        return pool
    t = topic.strip().lower()
    if t in PHASES:
        return [i for i in pool if i.phase == t]
    if t in rs.situations:
        chosen = [i for i in pool if i.situation == t]
        if not chosen:
            raise UsageError(f"--topic {topic}: no published question with a recorded outcome is about this "
                             "situation yet; try its phase, " + rs.situations[t].phase)
        return chosen
    asked = sorted({i.situation for i in pool})
    raise UsageError(f"--topic {topic}: not a phase ({', '.join(PHASES)}) nor a situation with quiz "
                     f"questions ({', '.join(asked[:6])}{', ...' if len(asked) > 6 else ''})")


def draw(pool: list[Item], n: int, seed: int) -> list[Item]:
    """`n` items, each phase in turn and a new situation each time while any is left unasked, so
    ten questions are not six about one situation; the same seed draws the same stories."""
    if n < 1:
        raise UsageError(f"-n {n}: ask at least one question")
    rng = random.Random(seed)
    by_situation: dict[str, list[Item]] = {}
    for it in sorted(pool, key=lambda i: i.id):
        by_situation.setdefault(it.situation, []).append(it)
    for group in by_situation.values():
        rng.shuffle(group)
    by_phase: dict[str, list[str]] = {}
    for sid in sorted(by_situation):
        by_phase.setdefault(by_situation[sid][0].phase, []).append(sid)
    for sids in by_phase.values():
        rng.shuffle(sids)
    phases = sorted(by_phase, key=lambda p: PHASES.index(p) if p in PHASES else len(PHASES))
    rng.shuffle(phases)
    chosen: list[Item] = []
    while len(chosen) < n and any(by_situation.values()):
        for phase in phases:  # a round: one situation of each phase, each situation once
            for sid in list(by_phase[phase]):
                if by_situation[sid]:
                    chosen.append(by_situation[sid].pop())
                    by_phase[phase].remove(sid)
                    by_phase[phase].append(sid)  # to the back: its next item waits for the others
                    break
            if len(chosen) == n:
                break
    return chosen
