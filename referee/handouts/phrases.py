"""An answer in a few words, for the quick-reference sheet's "when it applies".

In order: the fact's own `short:` phrase for that answer (the author's words); a choice's label
of more than one word (also the author's, and written as what is the case); a yes/no question
turned into the statement a 'yes' makes, only where the question's shape makes that safe (a
pronoun subject: "Can they still make ..." -> "they can still make ..."; "Did they complete ..." ->
"they completed ..."); otherwise the question as asked, cut short, with its answer. Never a
question with its auxiliary cut off ("they complete the wrong swap").
"""
from __future__ import annotations

import re

WORDS = 10  # a phrase longer than this is cut: the sheet is a reminder, the booklet has the questions

PRONOUNS = ("she", "he", "they", "it", "anyone", "someone", "everyone", "nobody", "anybody", "everybody", "you")
# auxiliaries that move behind a pronoun subject unchanged: "Was she ..." -> "she was ..."
MOVES = ("is", "was", "are", "were", "has", "have", "had", "can", "could", "will", "would", "should", "may", "must")
ADVERBS = ("already", "still", "then", "actually", "also", "ever", "just", "only", "really", "now", "first", "clearly",
           "truly", "since", "yet", "fully", "properly")
# verbs the rulesets ask about whose past tense is not "-ed"
IRREGULAR_PAST = {
    "begin": "began", "break": "broke", "bring": "brought", "buy": "bought", "call": "called", "catch": "caught",
    "choose": "chose", "come": "came", "deal": "dealt", "do": "did", "draw": "drew", "fall": "fell", "find": "found",
    "get": "got", "give": "gave", "go": "went", "have": "had", "hear": "heard", "hold": "held", "keep": "kept",
    "know": "knew", "lay": "laid", "leave": "left", "let": "let", "lose": "lost", "make": "made", "mean": "meant",
    "pay": "paid", "put": "put", "read": "read", "say": "said", "see": "saw", "sell": "sold", "set": "set",
    "show": "showed", "sit": "sat", "speak": "spoke", "spend": "spent", "stand": "stood", "steal": "stole",
    "take": "took", "tell": "told", "think": "thought", "throw": "threw", "win": "won", "be": "was",
}


def past(verb: str) -> str:
    """'complete' -> 'completed', 'rack' -> 'racked', 'throw' -> 'threw', 'try' -> 'tried'."""
    v = verb.lower()
    if v in IRREGULAR_PAST:
        return IRREGULAR_PAST[v]
    if v.endswith("e"):
        return v + "d"
    if re.search(r"[^aeiou]y$", v):
        return v[:-1] + "ied"
    if re.search(r"(^|[^aeiou])[aeiou][bdgmnpt]$", v) and len(v) <= 4:  # 'drop' -> 'dropped', not 'open'
        return v + v[-1] + "ed"
    return v + "ed"


def present(verb: str) -> str:
    """'hold' -> 'holds', 'touch' -> 'touches' (after 'Does she ...')."""
    v = verb.lower()
    if v in ("have", "do", "be"):
        return {"have": "has", "do": "does", "be": "is"}[v]
    if re.search(r"(s|sh|ch|x|z|o)$", v):
        return v + "es"
    if re.search(r"[^aeiou]y$", v):
        return v[:-1] + "ies"
    return v + "s"


def few(text: str) -> str:
    words = text.split()
    return text if len(words) <= WORDS else " ".join(words[:WORDS]).rstrip(",;") + "…"


def _clause(ask: str) -> str:
    """The question without its asides and explanations: 'Did she X (a note) - that is, Y?' -> 'Did she X'."""
    text = re.sub(r"\s*\([^)]*\)", "", ask)
    text = re.split(r" - |; ", text)[0]
    return text.strip().rstrip("?").strip()


def statement(ask: str) -> str | None:
    """What a 'yes' to this question states, where its shape makes that safe, else None.

    The subject must be a pronoun or begin with a determiner ('the picker', 'her discard'), and
    its end must be plain: a pronoun; before an adverb ('still', 'already') or a participle
    ('racked', 'found') after is/was/has/had; before a verb this module knows after did/does.
    """
    text = LEAD.sub("", _clause(ask))  # 'After the call, did anyone ...': the question is after the comma
    if SECOND_QUESTION.search(text):  # 'Was the hand jokerless, and did she announce it': two questions
        return None
    words = text.split()
    if len(words) < 3:
        return None
    words[0] = words[0].capitalize()
    aux = words[0].lower()
    if aux not in MOVES and aux not in ("did", "does", "do"):
        return None
    end = _subject_end(words, aux)
    if end is None:
        return None
    subject, rest = words[1:end], words[end:]
    if subject[0].lower() in PRONOUNS or subject[0].lower() in DETERMINERS[:-4]:  # East's stays East's
        subject = [subject[0].lower(), *subject[1:]]
    if aux in MOVES:
        return " ".join([*subject, aux, *rest])
    lead = []
    while rest and rest[0].lower() in ADVERBS:
        lead.append(rest.pop(0))
    if not rest or not rest[0].isalpha() or not rest[0].islower():
        return None
    plural = subject[-1].lower() in ("they", "you") or "and" in subject or (
        len(subject) > 1 and subject[-1].endswith("s") and not subject[-1].endswith("ss"))
    change = past if aux == "did" else (lambda v: v) if plural else present
    # 'Did she lay down, show or throw in her tiles' -> 'she laid down, showed or threw in her tiles'
    tail = re.sub(r"(\bor|\band|,) ([a-z]+)\b", lambda m: f"{m.group(1)} {change(m.group(2)) if m.group(2) in VERBS else m.group(2)}",
                  " ".join(rest[1:]))
    return " ".join([*subject, *lead, change(rest[0]), tail]).strip()


LEAD = re.compile(r"^[^,]*, (?=(is|was|were|are|did|does|do|has|had|can|could)\b)", re.I)
SECOND_QUESTION = re.compile(r"[,;]\s*(and|or)\s+(is|was|were|are|did|does|do|has|had|can|could)\b", re.I)
DETERMINERS = ("the", "her", "his", "their", "a", "an", "this", "that", "your", "every", "any", "another", "more", "each", "both",
               "all", "those", "these", "east's", "south's", "west's", "north's")
SEATS = ("east", "south", "west", "north")
STATES = ("valid", "invalid", "dead", "alive", "active", "down", "complete", "open", "live", "legal", "jokerless",
          "concealed", "exposed", "correct", "right", "wrong", "over", "finished", "true", "false")
MODALS = ("can", "could", "will", "would", "should", "may", "must")


def _subject_end(words: list[str], aux: str) -> int | None:
    """Where the subject after the auxiliary ends (the index of the next word), or None."""
    first = words[1].lower()
    if first in PRONOUNS or first in SEATS:
        return 2
    if first not in DETERMINERS:
        return None
    end = None
    for i in range(3, len(words)):
        w = words[i].lower().strip(",")
        if w in ADVERBS:
            end = i
        elif aux in ("did", "does", "do") or aux in MODALS:
            end = i if w in VERBS or w in ("be", "have") else None
        elif w in PARTICIPLES or w.endswith("ed"):
            end = i
        if end is not None:
            break
    if end is None and aux in ("is", "was", "are", "were") and words[-1].lower() in STATES:
        end = len(words) - 1  # 'Is the Mah Jongg valid': the last word is what it is
    if end is None or any(w.lower() in PRONOUNS or w.lower() in ("that", "who", "which") for w in words[2:end]):
        return None  # 'the tile she meant to take': a clause inside the subject hides where it ends
    return end


REGULAR_VERBS = {"rack", "discard", "expose", "claim", "call", "pick", "touch", "declare", "announce", "complete",
                 "exchange", "swap", "return", "pass", "reach", "name", "redeem", "accept", "agree", "object", "play",
                 "form", "fit", "count", "rule", "notice", "move", "miss", "want", "need", "turn", "use", "end"}
VERBS = REGULAR_VERBS | set(IRREGULAR_PAST)
PARTICIPLES = (set(IRREGULAR_PAST.values()) - {"left"}) | {"shown", "seen", "taken", "thrown", "given", "begun", "done", "gone", "drawn",
                                              "known", "fallen", "broken", "chosen", "spoken", "stolen", "been", "dealt"}


def question(ask: str, answer: str) -> str:
    """The question as asked, cut short, and its answer: always grammatical, if longer."""
    text = _clause(ask)
    return f"{few(text)}? {answer}"


def phrase(ask: str, choices: dict[str, str], short: dict[str, str], value: str) -> str:
    """One answer as the quick sheet says it."""
    if value in short:
        return short[value]
    if choices:
        label = choice_label(choices.get(value, value))
        if len(label.split()) > 1:
            return few(label)
        said = statement(ask) if label.lower() == "yes" else None
        return few(said) if said else question(ask, label.lower() if label.lower() in ("yes", "no") else label)
    if value == "yes":
        said = statement(ask)
        if said is not None:
            return few(said)
    return question(ask, value)


def choice_label(label: str) -> str:
    """A choice's label as a condition: its first clause, lower-cased unless it begins with a name."""
    label = re.sub(r"^(Yes|No) - ", "", label)  # 'No - every hand died otherwise': the part after says it
    text = re.split(r" - | \(|; |, with |, before |, after ", label)[0].strip().rstrip(".")
    first = text.split(" ", 1)[0]
    if first in ("Mah", "East", "South", "West", "North", "AMJA", "NMJL", "League") or (first.isupper() and len(first) > 1):
        return text
    return text[:1].lower() + text[1:]
