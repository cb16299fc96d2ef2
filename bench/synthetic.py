"""Generate a synthetic ruleset of N situations for the benchmark (never committed: written to a temp folder).

Each situation is the same small tree (two questions, a goto to the previous situation, three
rulings), so the per-situation cost of loading should not depend on N.
"""
from __future__ import annotations

from pathlib import Path

RULESET = """\
id: {rid}
title: Synthetic ruleset of {n} situations
version: "1"
scoring:
  kind: money
  unit: cents
sources:
  SYN:
    title: Synthetic source
"""

FACTS = """\
facts:
  hand_value:
    type: number
    ask: What is the value of the hand?
    min: 0
    max: 1000
  mahjong_valid:
    type: yesno
    ask: Is the Mah Jongg valid?
"""

SITUATION = """\
id: {sid}
title: Synthetic situation {i}
phase: play
aliases:
  - synthetic case {i}
  - made up mistake number {i}
summary: A made-up situation {i} for timing the loader, with words like wall, discard and exposure.
roles:
  picker: Which seat made mistake {i}?
facts:
  several_{i}:
    type: yesno
    ask: Did more than one player make mistake {i}?
  how_{i}:
    type: choice
    ask: How was it noticed?
    choices:
      early: before the next discard
      late: after the next discard
start: several
nodes:
  several:
    ask: several_{i}
    yes: restart
    no: how
  how:
    ask: how_{i}
    when:
      early: dead
      late: {late}
    else: pays
  restart:
    ruling:
      id: SYN-{i}a
      says: Throw the hands in and redeal.
      game: redeal
      cite: ["SYN: part {i}"]
  dead:
    ruling:
      id: SYN-{i}b
      says: "{{picker}}'s hand is dead."
      game: continues
      dead: [picker]
      notes: [A note about case {i}.]
      cite: [SYN]
  pays:
    ruling:
      id: SYN-{i}c
      says: "{{picker}} pays 2 x the lowest hand to each other player."
      game: continues
      pay:
        - {{from: picker, to: others, times: 2, of: lowest_hand}}
      cite: ["SYN: part {i}"]
"""


def sid_of(i: int) -> str:
    return f"syn-{i:05d}"


def write(folder: Path, n: int, rid: str = "synthetic") -> Path:
    """Write ruleset `rid` with `n` situations under `folder`; returns the ruleset folder."""
    root = folder / rid
    (root / "situations").mkdir(parents=True, exist_ok=True)
    (root / "ruleset.yaml").write_text(RULESET.format(rid=rid, n=n), encoding="utf-8")
    (root / "facts.yaml").write_text(FACTS, encoding="utf-8")
    for i in range(n):
        late = f"{{goto: {sid_of(i - 1)}, at: dead, bind: {{picker: picker}}}}" if i else "dead"
        text = SITUATION.format(sid=sid_of(i), i=i, late=late)
        (root / "situations" / f"{sid_of(i)}.yaml").write_text(text, encoding="utf-8")
    return root
