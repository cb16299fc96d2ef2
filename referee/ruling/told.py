"""What the judge's story already says: a question answered from her own words, where they are
unambiguous ("two of us threw in", "I called it for mahjong", "East has 15 tiles", "she announced
jokerless"; a bare "jokerless" leaves the announcement, and so the question, open).

Called by the prompt (cli/rule.py) for each question as it comes, with the words the situation
was found by; the answer is shown as read ("you said: ..."), can be taken back, and is marked
"from the story" in the ruling's path. A reader answers only a question it knows by its fact
(or by what a seat question asks), and only when the story says one thing: two readings, or a
"not" before the words, leave the question to be asked. Pure: imports only the model and
`answers`; never the search, the engine's callers, cli/ or web/.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Callable

from ..errors import UsageError
from .answers import normalize

if TYPE_CHECKING:
    from ..rules.model import FactDef

_SEAT = r"(east|south|west|north)"
_NOT = re.compile(r"\b(not|never|no one|nobody|didn'?t|did not|wasn'?t|isn'?t|hasn'?t|hadn'?t)\b[^.;,]{0,25}$")
_COUNT = {"one": "one", "1": "one", "a": "one", "two": "two", "2": "two", "both": "two", "three": "three", "3": "three",
          "all three": "three", "all": "three"}
_TILE_COUNTS = r"(\d{1,2}|eleven|twelve|thirteen|fourteen|fifteen|sixteen)"


def _found(story: str, pattern: str) -> list[re.Match[str]]:
    """Matches not preceded, in the same clause, by a 'not'."""
    return [m for m in re.finditer(pattern, story) if not _NOT.search(story[max(0, m.start() - 40):m.start()])]


def _one(values: list[str]) -> str | None:
    """The value the story says, if it says exactly one."""
    distinct = set(values)
    return distinct.pop() if len(distinct) == 1 else None


def _claimed_for(story: str, d: FactDef) -> str | None:
    said = [("mahjong" if m.group(3).startswith("m") else "exposure")
            for m in _found(story, r"\b(call|calls|called|calling|claim|claims|claimed|claiming|took|wanted)\b[^.;]{0,30}?"
                                   r"\bfor (a |an |her |the )?(mahjong|mah jongg|mahj|mj|maj|pung|kong|quint|exposure)")]
    return _one([v for v in said if v in (d.choices or {})])


def _others_acted(story: str, d: FactDef) -> str | None:
    acted = r"(threw|thrown|throw|tossed|exposed|laid|dumped|showed|turned|put down|racked)"
    said = [_COUNT[m.group(1)] for m in _found(
        story, rf"\b(one|a|two|both|three|all three|all|[123])( of us| of them| more| other players?| others| players?| people)?"
               rf"( also| then| had| have| already)* {acted}\b")]
    if re.search(r"\b(wall|walls)\b[^.;]{0,20}\b(broke|broken|knocked|pushed|scattered|destroyed|disturbed)|"
                 r"\b(broke|knocked|pushed|scattered|destroyed|disturbed)\b[^.;]{0,20}\bwall", story):
        said.append("wall")
    if _found(story, r"\b(nobody|no one) (else )?(moved|did anything|threw|exposed|acted)"):
        said.append("nothing")
    return _one(said)


def _seat_with_tiles(story: str, d: FactDef) -> str | None:
    return _one([m.group(1).title() for m in _found(
        story, rf"\b{_SEAT} (has|had|have|holds|held|is holding|was holding|ended up with|only has|only had) "
               rf"(only |just )?{_TILE_COUNTS} tiles")])


def _seat_did(verbs: str) -> Callable[[str, FactDef], str | None]:
    def read(story: str, d: FactDef) -> str | None:
        return _one([m.group(1).title() for m in _found(story, rf"\b{_SEAT} ({verbs})\b")])
    return read


def _discarder(story: str, d: FactDef) -> str | None:
    said = [m.group(1).title() for m in _found(story, rf"\b{_SEAT} (discarded|threw (the|a|her|his) (?!hand)\w+)")]
    said += [m.group(1).title() for m in _found(story, rf"\b(?:off|on|from) {_SEAT}'?s? discard")]
    return _one(said)


def _jokerless(story: str, d: FactDef) -> str | None:
    """The question asks two things: was the hand jokerless, and did the winner announce it (an
    unannounced jokerless hand is paid single). 'A jokerless hand' says only the first, so only
    words that say it was announced answer it; anything less is asked."""
    if re.search(r"\b(not|never|didn'?t|did not|forgot|without) (to )?(announc|say|said|call|declar)", story):
        return None  # jokerless, but unannounced: the question asks both, so it stays a question
    announced = (r"\b(announced|announces|announcing|called|calls|said|says|declared|declares) (it )?(as |was )?"
                 r"(a )?jokerless\b|\bjokerless\b[^.;]{0,30}\b(announced|declared|called|said) (it|so)\b")
    return "yes" if _found(story, announced) else None


def _win_how(story: str, d: FactDef) -> str | None:
    said = []
    if _found(story, r"\bself[- ]?pick|\bself[- ]?drawn?\b|\b(picked|drew|pulled) (it|her winning tile|the winning tile|"
                     r"the tile|her tile)? ?(from|off) the wall"):
        said.append("self-pick")
    if _found(story, r"\b(won|win|wins|mahj\w*|went out|declared) (off|on|with|from) (a|the|my|her|his|your|"
                     r"east'?s|south'?s|west'?s|north'?s) discard|\bclaimed the discard for mah|\bthe discarder\b"):
        said.append("discard")
    return _one([v for v in said if v in (d.choices or {})])


def _hand_value(story: str, d: FactDef) -> str | None:
    return _one([m.group(1) for m in _found(
        story, r"\b(\d{2,3}) ?(cent|cents|c|¢|point|points)?[- ](hand|mahj\w*)|\bhand (?:was |is )?worth (\d{2,3})")
        if m.group(1)])


# fact name -> reader; seat questions are also known by what they ask (the role's own name varies)
_BY_NAME: dict[str, Callable[[str, FactDef], str | None]] = {
    "others_acted": _others_acted,
    "jokerless": _jokerless,
    "win_how": _win_how,
    "jlr_how": _win_how,
    "hand_value": _hand_value,
    "declarer": _seat_did(r"called mah|called mj|declared|said mah|yelled mah|went mah|claimed mah"),
    "winner": _seat_did(r"won|went out|wins"),
    "discarder": _discarder,
}
_BY_ASK: list[tuple[re.Pattern[str], Callable[[str, FactDef], str | None]]] = [
    (re.compile(r"wrong number of tiles", re.I), _seat_with_tiles),
]


def _reader(fact: str, d: FactDef) -> Callable[[str, FactDef], str | None] | None:
    if fact in _BY_NAME:
        return _BY_NAME[fact]
    if d.type == "choice" and re.search(r"(claimed|called|call)_for$", fact):
        return _claimed_for
    if d.type == "seat":
        return next((read for asks, read in _BY_ASK if asks.search(d.ask)), None)
    return None


def answer(story: str | None, fact: str, d: FactDef) -> Any:
    """The answer the story gives to this question, as the fact's value; None when it gives none
    or more than one."""
    if not story:
        return None
    read = _reader(fact, d)
    if read is None:
        return None
    said = read(" ".join(story.lower().replace("\u2019", "'").split()), d)
    if said is None:
        return None
    try:
        return normalize(fact, d, said)
    except UsageError:  # a reading this question cannot take (a count its choices lack)
        return None


def shown(fact: str, d: FactDef, value: Any) -> str:
    """The answer in the question's words, for "you said: ..."."""
    if d.type == "choice":
        return (d.choices or {}).get(value, str(value))
    if d.type == "yesno":
        if d.short and value in d.short:  # the ruleset's own few words for this answer
            return d.short[value]
        return f"{d.ask.rstrip('?')}: {value}"
    if d.type == "seats":
        value = ", ".join(value)
    return f"{d.ask.rstrip('?')} {value}"
