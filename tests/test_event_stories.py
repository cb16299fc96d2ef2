"""Adding the events' and online play's own situations (issue 23) steals no first place from the
League's own phrasings.

Their stories and questions live in tests/event_stories.yaml, part of the judge's corpus that
tests/test_stories.py measures (`referee test --search`); here only the League's phrasings are
ranked again under each ruleset that keeps their situations.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from referee.rules.folders import available
from referee.rules.loader import load_strict
from referee.search.rank import search
from referee.search.corpus import corpus

HERE = Path(__file__).parent
LEAGUE = [p for p in corpus(HERE) if p.ruleset == "nmjl" and p.kind != "published"]


# the events' and online play's rulesets (each names its sheet); the Card Game's "Death Penalty"
# is that game's own word for any dead hand, a rival a judge of that game expects
EVENTS = sorted(rid for rid in available() if load_strict(rid).meta.sheet or rid == "tournament")


@pytest.mark.parametrize("rid", EVENTS)
def test_no_league_story_loses_first_place(rid: str) -> None:
    """A League phrasing that ranks its situation first under nmjl still does under this ruleset,
    wherever the ruleset keeps that situation: the new situations steal nothing."""
    nmjl = list(load_strict("nmjl").situations.values())
    here = list(load_strict(rid).situations.values())
    kept = {s.id for s in here}
    lost = []
    for p in LEAGUE:
        if p.situation not in kept or [h.situation.id for h in search(nmjl, p.text, limit=1)] != [p.situation]:
            continue
        now = [h.situation.id for h in search(here, p.text, limit=1)]
        if now != [p.situation] and now and now[0] not in {s.id for s in nmjl}:
            lost.append(f"{p.situation}: {p.text!r} -> {now}")
    assert not lost, "\n".join(lost)
