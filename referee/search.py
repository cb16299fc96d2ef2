"""Find a situation from a few typed words: word order free, small typos forgiven."""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from functools import lru_cache

from .model import Situation

_WORD = re.compile(r"[a-z0-9]+")
_STOP = {"a", "an", "the", "of", "from", "to", "for", "on", "in", "it", "her", "his", "she", "is", "was", "and", "by", "at"}
_WEIGHTS = {"id": 2.5, "title": 3.0, "alias": 3.0, "summary": 1.0}


def words(text: str) -> list[str]:
    return list(_words(text))


@lru_cache(maxsize=8192)
def _words(text: str) -> tuple[str, ...]:
    # "mah jongg", "mahjong", "mahj" and "maj" are one word to a judge
    text = text.lower().replace("mah jongg", "mahjong").replace("mah-jongg", "mahjong").replace("mah jong", "mahjong")
    out = []
    for w in _WORD.findall(text):
        w = {"mahj": "mahjong", "maj": "mahjong", "mahjongg": "mahjong", "mj": "mahjong"}.get(w, w)
        if w not in _STOP:
            out.append(w)
    return tuple(out)


@lru_cache(maxsize=65536)
def _similar(q: str, w: str) -> float:
    if q == w:
        return 1.0
    if len(q) >= 3 and (w.startswith(q) or q.startswith(w) and len(w) >= 4):
        return 0.85
    if len(q) >= 4 and len(w) >= 4 and 2 * min(len(q), len(w)) >= 0.75 * (len(q) + len(w)):
        matcher = difflib.SequenceMatcher(None, q, w)
        # the quick upper bounds skip the costly exact ratio for most pairs of words
        if matcher.quick_ratio() >= 0.75:
            ratio = matcher.ratio()
            if ratio >= 0.75:
                return ratio * 0.8
    return 0.0


@dataclass(frozen=True)
class Hit:
    situation: Situation
    score: float
    matched: str  # the field text that matched best, shown to the judge


def _field_score(query: list[str], text: str) -> float:
    return _field_score_cached(tuple(query), text)


@lru_cache(maxsize=1 << 18)
def _field_score_cached(query: tuple[str, ...], text: str) -> float:
    tokens = _words(text)
    if not tokens or not query:
        return 0.0
    total = sum(max((_similar(q, t) for t in tokens), default=0.0) for q in query)
    covered = total / len(query)  # how much of the query this field explains
    precision = total / max(len(tokens), len(query))  # how much of the field the query explains
    return covered * 0.7 + precision * 0.3


def search(situations: list[Situation], text: str, limit: int = 10) -> list[Hit]:
    query = words(text)
    if not query:
        return []
    phrase = " ".join(query)
    hits = []
    for sit in situations:
        fields = [("id", sit.id.replace("-", " ")), ("title", sit.title), ("summary", sit.summary)]
        fields += [("alias", a) for a in sit.aliases]
        best, matched = 0.0, ""
        for kind, value in fields:
            score = _field_score(query, value) * _WEIGHTS[kind]
            if kind != "summary" and " ".join(words(value)) == phrase:
                score += 10.0  # the judge typed an alias or the title exactly
            if score > best:
                best, matched = score, value
        if best >= 0.9:
            hits.append(Hit(sit, round(best, 3), matched))
    hits.sort(key=lambda h: (-h.score, h.situation.id))
    return hits[:limit]


def exact(situations: list[Situation], text: str) -> Situation | None:
    """The situation whose id, title or alias is exactly what was typed."""
    phrase = " ".join(words(text))
    for sit in situations:
        if text == sit.id or any(" ".join(words(v)) == phrase for v in [sit.title, *sit.aliases, sit.id.replace("-", " ")]):
            return sit
    return None
