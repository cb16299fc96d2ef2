"""The quick-reference sheet: when each ruling applies, in ruling order, in the table's words."""
from __future__ import annotations

import re

import pytest

from referee.handouts import build, phrases, sheets
from referee.rules.loader import load_strict


def _lines(rid: str) -> dict[str, sheets.QuickLine]:
    return {line.ruling: line for g in sheets.quick(load_strict(rid)) for s in g.situations for line in s.lines}


def test_each_ruling_says_when_it_applies_in_a_few_words() -> None:
    lines = _lines("nmjl")
    assert lines["WE-3"].when == "more than one player has picked from the wrong end"
    assert "valid Mah Jongg" in lines["WE-2"].when and lines["WE-1"].when == "otherwise"
    assert lines["TTO-1"].when == "during the deal" and lines["TTO-2"].when == "during play"
    for line in lines.values():
        assert line.when and len(line.when.split()) <= 4 * (phrases.WORDS + 1), line
    md = build("nmjl", "md", sheet="quick")
    assert "| WE-3 | more than one player has picked from the wrong end |" in md
    html = build("nmjl", "html", sheet="quick")
    assert "WE-3</span> · <i>more than one player has picked from the wrong end</i>" in html


def test_rulings_are_listed_in_order() -> None:
    for rid in ("nmjl", "tournament"):
        for g in sheets.quick(load_strict(rid)):
            for s in g.situations:
                ids = [line.ruling for line in s.lines]
                assert ids == sorted(ids, key=sheets._order), (s.id, ids)
                assert all(", " not in i for i in ids)  # one ruling a line: each says when it applies


def test_no_role_or_fact_names_leak_and_one_word_means_no_penalty() -> None:
    for rid in ("nmjl", "amja", "tournament"):
        md = build(rid, "md", sheet="quick")
        html = build(rid, "html", sheet="quick")
        assert "dead seats" not in md and "miscounted seats" not in md, rid
        assert "—" not in md and "—" not in html  # no dash standing for nothing
        assert "no dead hand" not in html
        assert not re.search(r"\b[a-z]+_[a-z_]+\b", md.split("## ", 1)[1]), rid  # no fact ids
    three = _lines("nmjl")["TDH-1"]
    assert three.dead == "three seats that have dead hands"


# --- "when it applies" is grammatical on every leaf of every shipped ruleset -------------------

AUX = r"(?:is|was|were|are|did|does|do|has|have|had|can|could|will|would|should|may|must)"
ADVERB = r"(?:already|still|then|actually|also|now|only|just|really|truly|clearly|fully|since|first|ever)"
SUBJECT = r"(?:they|she|he|it|anyone|someone|everyone|nobody|anybody)"
SAME_PAST = {"put", "set", "let", "cut", "hit", "read", "bet", "quit"}  # 'they put' is as past as 'they racked'


def _questions(rs) -> list[str]:
    asks = [d.ask for d in rs.facts.values()] + [d.ask for s in rs.situations.values() for d in s.facts.values()]
    return [re.split(r" - |; ", re.sub(r"\s*\([^)]*\)", "", a))[0].strip().rstrip("?") for a in asks]


def _base_verbs(questions: list[str]) -> set[str]:
    """Words the rulesets' own questions use as bare verbs: 'did they complete', 'can anyone see'."""
    found = set()
    for q in questions:
        for m in re.finditer(rf"\b(?:did|does|do|can|could|will|would|should|must|may) {SUBJECT}(?: {ADVERB})* ([a-z]+)\b", q, re.I):
            found.add(m.group(1).lower())
    return found - {"not"}


def _problems(piece: str, questions: list[str], base: set[str]) -> list[str]:
    """What is wrong with one condition: a placeholder, a name lower-cased, a bare verb after
    'they' ('they complete' for 'did they complete'), or a question with its auxiliary cut off ('count be put right')."""
    out = []
    if "{" in piece or "}" in piece or re.search(r"\b[a-z]+_[a-z_]+\b", piece):
        out.append("a placeholder or fact id")
    if re.match(r"(mah jongg|east's|south's|west's|north's)\b", piece, re.I) and piece[0].islower():
        out.append("a name lower-cased")
    m = re.search(rf"\b({SUBJECT})(?: {ADVERB})* ([a-z]+)\b", piece)
    # after 'they' a bare verb is the present ('they agree their hand is dead'); a 'did they'
    # question with its auxiliary cut off is caught below, as a question cut short
    if m and ((m.group(2) in base and m.group(2) not in SAME_PAST and m.group(1) != "they") or m.group(2).endswith("ing")):
        out.append(f"a bare verb after its subject: {m.group(0)!r}")
    said = piece.rstrip("…").lower().split()
    for q in questions:
        cut = re.match(rf"^(?:[^,]*, )?({AUX}) (.*)$", q, re.I)
        if not cut or cut.group(1).lower() == "do":  # 'Do all their exposures fit' less 'do' is still English
            continue
        rest = re.sub(r"^the ", "", cut.group(2).lower()).split()
        if cut.group(1).lower() == "did" and len(rest) > 1 and rest[1] in SAME_PAST:
            continue  # 'Did they put it right' -> 'they put it right'
        n = min(8, len(rest))
        if n >= 2 and said[:n] == rest[:n]:
            out.append(f"a question with its auxiliary cut off: {q!r}")
    return out


def test_every_when_phrase_of_every_shipped_ruleset_is_grammatical() -> None:
    from referee.rules.loader import available

    bad = []
    for rid in available():
        rs = load_strict(rid)
        questions = _questions(rs)
        base = _base_verbs(questions)
        assert "complete" in base  # the rule sees the verbs it looks for ("Did they complete ...?")
        for g in sheets.quick(rs):
            for s in g.situations:
                for line in s.lines:
                    for piece in re.split(r"; | / ", line.when):
                        bad += [f"{rid} {line.ruling}: {piece!r}: {p}" for p in _problems(piece, questions, base)]
    assert not bad, "\n".join(bad[:40])


def test_the_grammar_rule_catches_what_the_old_sheet_printed() -> None:
    rs = load_strict("nmjl")
    questions = _questions(rs)
    base = _base_verbs(questions)
    for old in ("she complete the wrong swap and rack the tile she…", "they complete the wrong swap and rack the tile they…",
                "count be put right for certain, with every tile going…",
                "player actually see the face of a tile they were…", "they declaring Mah Jongg with the picked tile",
                "picker then discard, and was that discard claimed for Mah…", "mah Jongg"):
        assert _problems(old, questions, base), old
    for good in ("they completed the wrong swap and racked the tile they…", "the count can be put right for certain",
                 "the player actually saw the face of a tile they…", "they were declaring Mah Jongg with the picked tile"):
        assert not _problems(good, questions, base), good


def test_a_fact_s_short_phrase_is_what_the_sheet_says() -> None:
    lines = _lines("nmjl")
    assert lines["MJE-1"].when == "nobody else acted before the check"  # others_acted: short: nothing
    assert lines["JOR-3"].when.startswith("they completed the wrong swap")  # 'Did they complete ...?' as a statement
    assert "jokerless, and announced" in lines["JLR-2"].when


def test_a_short_phrase_for_an_answer_the_question_lacks_is_refused(tmp_path) -> None:
    from referee.rules.model import FactDef

    with pytest.raises(ValueError, match="'maybe' is not an answer"):
        FactDef(type="yesno", ask="Was it down?", short={"maybe": "it might be down"})
    with pytest.raises(ValueError, match="only for yesno and choice"):
        FactDef(type="number", ask="How much?", short={"yes": "a lot"})
    assert FactDef(type="choice", ask="Which?", choices={"a": "A one", "b": "B one"}, short={"a": "the first"}).short
