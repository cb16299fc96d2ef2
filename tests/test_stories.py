"""Plain stories, told the way a player or judge tells them, must find their situation.

tests/stories.yaml holds three or more stories per nmjl situation. The bar (issue 7): every
story ranks its situation in the top 3, and at least 90% rank it first.
"""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from referee.loader import load_strict
from referee.search import search, words

STORIES = yaml.safe_load((Path(__file__).parent / "stories.yaml").read_text(encoding="utf-8"))
FIRST_SHARE = 0.90


@pytest.fixture(scope="module")
def situations():  # type: ignore[no-untyped-def]
    return list(load_strict("nmjl").situations.values())


def test_every_nmjl_situation_has_three_stories(situations) -> None:  # type: ignore[no-untyped-def]
    ids = {s.id for s in situations}
    unknown = sorted(set(STORIES) - ids)
    assert not unknown, f"stories for situations nmjl does not have: {unknown}"
    short = sorted(sid for sid in ids if len(STORIES.get(sid) or []) < 3)
    assert not short, f"write three stories in tests/stories.yaml for: {short}"


def test_no_story_is_a_title_or_alias(situations) -> None:  # type: ignore[no-untyped-def]
    # a story copied from the aliases would pass by the exact-match bonus and prove nothing
    typed = {tuple(words(p)): s.id for s in situations for p in [s.title, *s.aliases, s.id]}
    copied = [f"{sid}: {story!r}" for sid, stories in STORIES.items() for story in stories
              if tuple(words(story)) in typed]
    assert not copied, "\n".join(copied)


def test_stories_find_their_situation(situations) -> None:  # type: ignore[no-untyped-def]
    total = first = 0
    outside: list[str] = []
    second: list[str] = []
    for sid, stories in STORIES.items():
        for story in stories:
            ranked = [h.situation.id for h in search(situations, story, limit=3)]
            total += 1
            if ranked[:1] == [sid]:
                first += 1
            elif sid in ranked:
                second.append(f"{sid}: {story!r} -> {ranked}")
            else:
                outside.append(f"{sid}: {story!r} -> {ranked}")
    assert not outside, "not in the top 3:\n" + "\n".join(outside)
    assert first / total >= FIRST_SHARE, (
        f"first for {first} of {total} ({first / total:.0%}), below {FIRST_SHARE:.0%}; not first:\n" + "\n".join(second))


@pytest.mark.parametrize("story,want", [
    ("she said white but it was a flower", "misnamed-discard"),
    ("picked a tile from the wrong wall", "wrong-wall"),
    ("called mahj but her hand was wrong", "mahjong-in-error"),
    ("player has 13 tiles", "wrong-tile-count"),
    ("mah jongg in error one player laid out her tiles", "mahjong-in-error"),
])
def test_the_stories_from_the_issue_rank_first(situations, story: str, want: str) -> None:  # type: ignore[no-untyped-def]
    hits = search(situations, story, limit=3)
    assert [h.situation.id for h in hits][:1] == [want], [(h.situation.id, h.score) for h in hits]
