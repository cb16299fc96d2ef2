"""How many questions a judge answers to reach a ruling, over the judge's corpus (issue 24, §3).

Each published question of the corpus (tests/stories.yaml, event_stories.yaml and the held-back
file) is told in the asker's words and tied to its scenario, whose answers say how the judge
would answer. Its ruling is reached as `referee rule` reaches it: one question after another
(`engine.advance`), each answered from the scenario, a detail it leaves open left open. Counted
twice: every question asked ("before"), and the questions left once the story's own words have
answered what they unambiguously say (`told.answer`, the prompt's reader: "after"). A reading
that contradicts the scenario's answer is counted as a question still asked, and reported.

    python bench/asked.py           # the report alone (a few seconds)

benchmark.py prints the same rows. A report, never a test: it always exits 0.
"""
from __future__ import annotations

import importlib
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def story_reader() -> Callable[[str, str, Any], Any] | None:
    """The prompt's reader of the story (`answer(story, fact, definition)`), wherever this build
    keeps it; None in a build without one (every question is then asked)."""
    for name in ("referee.told", "referee.ruling.told", "referee.search.told"):
        try:
            return importlib.import_module(name).answer  # type: ignore[no-any-return]
        except (ImportError, AttributeError):
            continue
    return None


@dataclass(frozen=True)
class Count:
    scenario: str
    asked: int  # every question of the walk
    left: int  # ... less those the story answered as the scenario does
    misread: int  # story readings the scenario contradicts


def count(rs: Any, situation: str, facts: dict[str, Any], players: dict[str, str], story: str,
          read: Callable[[str, str, Any], Any] | None) -> tuple[int, int, int]:
    """(questions asked, questions left after the story's answers, misreadings) for one walk."""
    from referee.ruling.engine import Question, advance

    known: dict[str, Any] = {}
    asked = left = misread = 0
    while True:
        step = advance(rs, situation, known, players)
        if not isinstance(step, Question):
            return asked, left, misread
        if step.fact in known:  # a decision the scenario leaves open: `referee test` reports it
            raise RuntimeError(f"{situation}: no answer for '{step.fact}'")
        value = facts.get(step.fact, step.definition.default)  # left open when neither says
        said = read(story, step.fact, step.definition) if read else None
        asked += 1
        if said is None or said != value:
            left += 1
            misread += said is not None
        known[step.fact] = value


def counts(read: Callable[[str, str, Any], Any] | None = None) -> list[Count]:
    from referee.rules.folders import data_dir
    from referee.ruling.scenarios import facts_of, load_file, ruleset_of
    from referee.search.corpus import corpus, heldback

    out = []
    for p in corpus() + heldback():
        if p.kind != "published":
            continue
        sc = load_file(data_dir("scenarios") / f"{p.scenario}.yaml")
        rs = ruleset_of(sc)
        facts, players = facts_of(rs, sc)
        asked, left, misread = count(rs, sc.situation, facts, players, p.text, read)
        out.append(Count(p.scenario, asked, left, misread))
    return out


def report() -> list[str]:
    read = story_reader()
    found = counts(read)
    if not found:
        return ["questions asked: the corpus has no published questions"]
    before = statistics.median(c.asked for c in found)
    after = statistics.median(c.left for c in found)
    lines = [f"questions asked to a ruling, median (mean) over the corpus's {len(found)} published questions:",
             f"  every question (no story read)       {before:g} ({statistics.mean(c.asked for c in found):.2f})"]
    if read is None:
        lines.append("  after the story's own answers        (this build reads no answers from the story)")
    else:
        answered = sum(c.asked - c.left for c in found)
        lines.append(f"  after the story's own answers        {after:g} ({statistics.mean(c.left for c in found):.2f}); {answered} answers read from the stories, "
                     f"{sum(c.misread for c in found)} contradicting the scenario")
    return lines


if __name__ == "__main__":
    print("\n".join(report()))
