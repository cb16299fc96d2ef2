"""The judge's corpus: how a judge tells each situation, and how well the search finds it.

Stories, questions and published questions told in the asker's words, each tied to the
situation it is about and the ruleset it is told under. `referee test --search` and the suite
rank every phrasing as `referee search -r RULESET` does and hold the tuned corpus to its bar
(FIRST_BAR, TOP3_BAR) and the held-back tenth, which the ranking was never
adjusted to, to the floor its first measurement set.

Files (YAML; read from the wheel's _corpus folder, else the checkout's tests/ folder):
- stories.yaml: nmjl situation -> its phrasings;
- event_stories.yaml, stories-heldback.yaml: ruleset -> situation -> its phrasings.
A situation's phrasings are a list of stories, or a mapping with `stories:`, `questions:` and
`published:` (a scenario's path under scenarios/, without .yaml -> the question as its asker put
it; the ruleset and situation are the scenario's). The held-back file keeps its published
questions under a top-level `published:` mapping.

Called by cli/author.py (`referee test --search`) and the tests; imports the rules loader and
the search only, never cli/ or web/.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from ..errors import UsageError
from ..rules.folders import PACKAGE_DIR

# The tuned corpus: its situation first for this share of phrasings, and in the top 3 for this
# share; held exactly where the ranking stands today (682 and 702 of 702), so a change that costs
# a phrasing its place shows. Issue 24 asks 97% and 100% (681 and 702).
FIRST_BAR = 682 / 702
TOP3_BAR = 702 / 702
# The held-back set's floor: exactly where it stands today, 86 of 109 first (78.9%) and 105 in the
# top 3 (96.3%); its first measurement, before any tuning, was 77 and 100. A new situation or word
# that costs the unseen phrasings a single place fails the suite before a judge meets it.
HELDBACK_FIRST_FLOOR = 86 / 109
HELDBACK_TOP3_FLOOR = 105 / 109

CORPUS_FILES = ("stories.yaml", "event_stories.yaml")
HELDBACK_FILE = "stories-heldback.yaml"
KINDS = ("stories", "questions", "published")


@dataclass(frozen=True)
class Phrasing:
    text: str
    ruleset: str  # ranked among this ruleset's situations
    situation: str  # ... where it should come first
    kind: str  # story, question or published
    where: str  # path:line:col in its file
    scenario: str = ""  # a published question's scenario (its path under scenarios/)


@dataclass(frozen=True)
class Ranked:
    phrasing: Phrasing
    ranked: tuple[str, ...]  # the search's top 3, best first

    @property
    def first(self) -> bool:
        return self.ranked[:1] == (self.phrasing.situation,)

    @property
    def top3(self) -> bool:
        return self.phrasing.situation in self.ranked


@dataclass(frozen=True)
class Measure:
    name: str
    files: tuple[str, ...]
    results: tuple[Ranked, ...]
    first_bar: float
    top3_bar: float

    @property
    def first(self) -> int:
        return sum(r.first for r in self.results)

    @property
    def top3(self) -> int:
        return sum(r.top3 for r in self.results)

    def share(self, n: int) -> float:
        return n / len(self.results) if self.results else 0.0

    @property
    def misses(self) -> list[Ranked]:
        """Every phrasing whose situation is not first, the ones outside the top 3 first."""
        return sorted((r for r in self.results if not r.first), key=lambda r: r.top3)

    @property
    def passed(self) -> bool:
        return bool(self.results) and self.share(self.first) >= self.first_bar and self.share(self.top3) >= self.top3_bar


def corpus_dir() -> Path:
    """The folder holding the corpus files: inside the wheel, else the checkout's tests/."""
    packaged = PACKAGE_DIR / "_corpus"
    return packaged if packaged.is_dir() else PACKAGE_DIR.parent / "tests"


def _texts(value: Any, doc: Any, loc: tuple[Any, ...]) -> list[tuple[str, str]]:
    """(text, place) for a list of phrasings (or one)."""
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list):
        raise UsageError("expected a list of phrasings", doc.place(loc))
    out = []
    for n, text in enumerate(items):
        if not isinstance(text, str) or not text.strip():
            raise UsageError("a phrasing must be non-empty text", doc.place((*loc, n)))
        out.append((" ".join(text.split()), str(doc.place((*loc, n)))))
    return out


def _published(value: Any, doc: Any, loc: tuple[Any, ...], situation: str | None) -> list[Phrasing]:
    if not isinstance(value, dict):
        raise UsageError("published: expected scenario: question", doc.place(loc))
    out = []
    for key, text in value.items():
        parts = str(key).split("/")
        if len(parts) != 3 or not all(parts):
            raise UsageError(f"'{key}' is not RULESET/SITUATION/SCENARIO", doc.place((*loc, key)))
        if situation is not None and parts[1] != situation:
            raise UsageError(f"'{key}' is a scenario of {parts[1]}, listed under {situation}", doc.place((*loc, key)))
        for told, where in _texts(text, doc, (*loc, key)):
            out.append(Phrasing(told, parts[0], parts[1], "published", where, str(key)))
    return out


def _situation(ruleset: str, sid: str, entry: Any, doc: Any, loc: tuple[Any, ...]) -> list[Phrasing]:
    if isinstance(entry, (list, str)):  # a plain list is stories
        return [Phrasing(t, ruleset, sid, "story", w) for t, w in _texts(entry, doc, loc)]
    if not isinstance(entry, dict):
        raise UsageError(f"{sid}: expected a list of stories, or stories:, questions:, published:", doc.place(loc))
    out = []
    for kind, value in entry.items():
        if kind not in KINDS:
            raise UsageError(f"unknown key '{kind}'; use {', '.join(KINDS)}", doc.place((*loc, kind)))
        if kind == "published":
            out += _published(value, doc, (*loc, kind), sid)
        else:
            out += [Phrasing(t, ruleset, sid, "story" if kind == "stories" else "question", w) for t, w in _texts(value, doc, (*loc, kind))]
    return out


def read(path: Path, ruleset: str | None = None) -> list[Phrasing]:
    """The phrasings of one corpus file. `ruleset` given: the file maps situations (of that
    ruleset) to phrasings; else it maps rulesets to situations. Bad layout: one UsageError
    naming path:line:col."""
    from ..rules.yamlload import read as read_yaml

    doc = read_yaml(path)
    data = doc.data
    if not isinstance(data, dict):
        raise UsageError("expected a mapping", doc.place(()))
    out: list[Phrasing] = []
    for key, value in data.items():
        if ruleset is not None:
            out += _situation(ruleset, str(key), value, doc, (key,))
        elif key == "published":
            out += _published(value, doc, (key,), None)
        elif isinstance(value, dict):
            for sid, entry in value.items():
                out += _situation(str(key), str(sid), entry, doc, (key, sid))
        else:
            raise UsageError(f"{key}: expected situation: phrasings", doc.place((key,)))
    return out


def corpus(folder: Path | None = None) -> list[Phrasing]:
    """The tuned corpus: tests/stories.yaml (nmjl) and tests/event_stories.yaml."""
    folder = folder or corpus_dir()
    return read(folder / CORPUS_FILES[0], "nmjl") + read(folder / CORPUS_FILES[1])


def heldback(folder: Path | None = None) -> list[Phrasing]:
    return read((folder or corpus_dir()) / HELDBACK_FILE)


def rank(phrasings: Iterable[Phrasing], situations: Callable[[str], Sequence[Any]],
         given: Callable[[str], frozenset[str]] = lambda rid: frozenset()) -> list[Ranked]:
    """Each phrasing ranked among its ruleset's situations, as `referee search -r` ranks them
    (`given`: the premises each ruleset holds, as `rank.given_by` reads them).
    A phrasing told for a situation its ruleset does not have is an error, not a miss."""
    from .rank import search

    out = []
    for p in phrasings:
        sits = situations(p.ruleset)
        if not any(s.id == p.situation for s in sits):
            raise UsageError(f"{p.ruleset} has no situation '{p.situation}'", None)
        out.append(Ranked(p, tuple(h.situation.id for h in search(sits, p.text, limit=3, given=given(p.ruleset)))))
    return out


def measure(folder: Path | None = None, situations: Callable[[str], Sequence[Any]] | None = None) -> tuple[Measure, Measure]:
    """The tuned corpus and the held-back set, each ranked and held to its bar."""
    given: Callable[[str], frozenset[str]] = lambda rid: frozenset()
    if situations is None:
        from functools import lru_cache

        from ..rules.loader import load_strict
        from .rank import given_by

        situations = lru_cache(maxsize=None)(lambda rid: list(load_strict(rid).situations.values()))
        given = lru_cache(maxsize=None)(lambda rid: given_by(load_strict(rid)))
    folder = folder or corpus_dir()
    tuned = Measure("judge's corpus", CORPUS_FILES, tuple(rank(corpus(folder), situations, given)), FIRST_BAR, TOP3_BAR)
    held = Measure("held back (never tuned to)", (HELDBACK_FILE,), tuple(rank(heldback(folder), situations, given)),
                   HELDBACK_FIRST_FLOOR, HELDBACK_TOP3_FLOOR)
    return tuned, held
