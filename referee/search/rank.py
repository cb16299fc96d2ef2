"""Find a situation from what a judge says happened, in her own words.

Ranking is BM25F: each situation is a document with fields (title, id, aliases, summary, the
reference help, its own questions, its phase), weighted by how much a match there says. A term
found in few situations counts for more than one found everywhere ("wall" less than "served"),
and a long field does not win just by holding more words. Word pairs from the title, aliases and
summary are terms too, so "wrong wall" beats "wrong end ... of the wall"; and a situation one
of whose aliases the story mostly says gets a bonus. Words go through `searchwords` (slang, word
forms), and a word the index does not know is matched to the words the situations use one or
two typos away. A title, alias or id typed exactly always ranks first.

The index is built once per list of situations (cached on the situation objects) and a query
costs what its distinct terms cost: each term is one dictionary look-up and a walk of its
postings, and only the first `searchwords.MAX_CHARS` characters and `MAX_TERMS` terms are read.
"""
from __future__ import annotations

import heapq
import math
import re
from bisect import bisect_left
from collections import Counter, OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Sequence

from .words import RELATED, pieces, runs, tokens

if TYPE_CHECKING:  # a situation is a model, or its record read the same way
    from ..rules.model import Situation

MAX_TERMS = 64  # distinct query terms considered; more words than this never come from a judge
K1 = 1.2  # how fast more mentions of a term stop adding (BM25's usual value)
ALIAS_BONUS = 0.5  # a situation whose one alias the story mostly says scores up to this much more
ALIAS_TOP = 30  # ... looked at for the best-scoring situations only, so the cost stays bounded
EXACT_BONUS = 1000.0  # the judge typed a title, alias or id: that situation comes first
TITLE_BONUS = 0.3  # words typed side by side, side by side in the title: "joker exchange" is that case
TITLE_WORDS = 3  # ... when at most this many terms were typed
NEAR_TIE = 0.9  # a second match scoring this close to the first: the judge chooses, Enter does not
PREMISE_FACTOR = 0.5  # a narrower case (three at the table, a table rule...) the story never set up
PREMISE_STATED = 1.5  # ... and one the story did: "only three of us" makes it the three-handed case
AMOUNT_FACTOR = 1.25  # a question about amounts, for a situation that is about paying
PREMISE_WORDS = 0.6  # ... where the words that state it count this much, so they do not choose between two such cases
AMOUNT_FLOOR = 0.8  # the best of them is at least listed under the first match, however few words it shared
ROUTE_YIELD = 0.5  # an index situation yields to a case it sends to that scores at least this share of it

# field -> (weight, length normalisation b)
FIELDS: dict[str, tuple[float, float]] = {
    "title": (3.0, 0.5),
    "id": (1.5, 0.3),
    "alias": (2.0, 0.5),
    "summary": (1.5, 0.6),
    "help": (0.5, 0.75),
    "questions": (0.4, 0.75),
    "phase": (0.8, 0.0),
}
_PAIRED = {"title", "alias", "summary"}  # fields whose word pairs are terms too, and shown as matched
_EXACT = {"title", "alias", "id"}  # fields a judge may type exactly
PAIR_WEIGHT = 0.5  # a word pair typed adds to its words' own evidence, at this much


@dataclass(frozen=True)
class Hit:
    situation: Situation
    score: float
    matched: str  # the title, alias or summary that shares the most with what was typed
    words: tuple[str, ...] = ()  # the typed words that matched this situation


# A narrower premise a situation is written for, read from its id and title ("Three-handed game,
# false Mah Jongg"), and the words that set it up in a story. Such a situation ranks first only
# when the story states its premise: the commonest dispute, told at a table of four, is never
# ruled as its three-handed variant. Situations added later get theirs from their own names.
PREMISES: dict[str, tuple[re.Pattern[str], re.Pattern[str]]] = {
    "short-handed": (
        re.compile(r"\b(three|two)[- ]handed|\bthree[- ]player|short[- ]handed"),
        re.compile(r"\b(three|two|3|2)[- ]?(handed|hander|player game|person game|some)\b|short[- ]?handed|"
                   r"\b(only|just) (the )?(three|two|3|2)( of us| of them| players| people| playing| at the table)|"
                   r"\bthere (are|were) (only |just )?(three|two|3|2) of us|\b(no|missing|without|lost|our) (a |the )?fourth\b|"
                   r"\bplay(ing|ed)? with (just |only )?(three|two|3|2)\b|\b(three|two|3|2) (people|players) play|"
                   r"\bdummy\b|\bbob\b|\bthree players\b")),
    "table-rule": (
        re.compile(r"\btable[- ]rule|\bhouse[- ]rule"),
        re.compile(r"\b(table|house|our|own|group'?s?|club'?s?) rules?\b|\bagree[sd]?\b|\bpie\b|\bpurse\b|loss limit|"
                   r"\bmade up\b|\binvent|\bnobody (told|warned|mentioned)|\b(never|not) (told|warned)\b|\bguests?\b|\bold card\b|last year'?s card|not on (the|this year'?s) card|\bnobody agreed|"
                   r"\bout of money\b|\bno more money\b|\bbroke\b")),
    "tournament": (
        re.compile(r"\btournament"),
        re.compile(r"\btournament|\bevent\b|\bdirector\b|\bclock\b|\btime (was )?called|\bscore ?(sheet|card)|"
                   r"\bround\b|\btimer?\b")),
    # a case about what went unsaid (a jokerless hand not announced) is not the case itself
    "unannounced": (
        re.compile(r"jokerless[- ]not[- ]announced"),
        re.compile(r"\b(did ?n[o']?t|never|forgot( to)?|without|not) (say|said|saying|announc\w*|claim\w*|mention\w*|tell|told|declar\w*|call\w*)\b|"
                   r"\bunannounced|\bnot announced|\bafter (we|they|everyone|everybody|all) (had )?paid|\balready paid|\bpaid (her|him|them) (single|normal|the normal|the regular)")),
    # an exposure made after a pick from the wall: only when the story has the wall or the pick
    "wall-pick": (
        re.compile(r"after[- ]wall[- ]pick|after picking from the wall"),
        re.compile(r"\bwall|\b(drew|draw|draws|drawn|drawing|pick|picks|picked|picking|pulled|self[- ]?pick\w*)\b")),
    # a case whose id names a joker (a misnamed joker, a joker exchange) when the story has a joker,
    # or the exchange that takes one, in it: "called the tile by its name but it was another" is a
    # misnamed tile, not a misnamed joker
    "joker": (
        re.compile(r"^[a-z-]*\bjoker\b[a-z-]* "),
        re.compile(r"\bjo?k(e)?rs?\b|\bredeem|\bredemption|\bexchang|\bswap|\btrad(e|ed|es|ing)\b")),
    "online": (
        re.compile(r"\bonline|\bon[- ]line|\bvirtual"),
        re.compile(r"\bonline|\bon[- ]line|\bapp\b|\bsite\b|\bwebsite|\binternet|\bzoom\b|\bcomputer|\bscreen|"
                   r"\bclick|\bdisconnect|\bconnection|\bbrowser|\bvirtual|\bautomatic")),
}
# Premises whose words are common at any table (a wall, a pick, a joker): stating one only lifts
# the penalty, it does not make the case first.
ONLY_WHEN_STATED = frozenset(("wall-pick", "joker"))
# A claim for Mah Jongg against another claim (its title says so) is not the case when the story
# gives the calls another purpose and has no win in it: "both called it for a pung" is two
# exposure claims; nor when a win was on a tile from the wall ("one on her own pick"). With neither
# purpose said ("two players called the same discard") the judge chooses.
_MAHJONG_CLAIM = re.compile(r"\bclaims? (a|the same) discard\b.*\bfor mah jongg", re.I)
_FOR_EXPOSURE = re.compile(r"\b(pung|pungs|pong|kong|kongs|kang|quint|quints|sextet|sextets|expos\w*)\b")
_SELF_PICK = re.compile(r"\bself[- ]?(pick|drawn?|drew)\w*|\bown (pick|draw)\b|\bfrom the wall\b")
_WIN = re.compile(r"\bmah[\s-]*j|\bmj\b|\bmaj\b|\bwin|\bwon\b|\bwinner|\bdeclar|\b(go|goes|went|going|gone) out\b")
# "how much", "how many points", "what does she pay / lose / owe": a question about amounts
_AMOUNT = re.compile(r"\bhow (much|many (points|cents|dollars|chips))|\bwhat (do|does|did|should|would|will) "
                     r"(she|he|they|i|we|you|each|everyone|everybody|the [a-z]+|[a-z]+) (\w+ )?(pay|owe|lose|get|collect|win)s?\b|"
                     r"\bpoints?\b|\bpayout|\bbonus|\bwhat('s| is| gets?) added\b|\bwho scores\b|\bwhat (do|does|did) (\w+ ){1,3}score\b|\bpayments?\b|\bwho pays\b|\bwhat('s| is) (owed|the payout)|\bdouble\b|\bcents?\b")
# a situation about paying says so in its title, or (under an event's points) in its summary
_PAYING = re.compile(r"\bpa(y|ys|id|ying)\b", re.I)
_SCORING = re.compile(r"\bscores?\b.*\bpoints\b|\bpoints\b.*\bscores?\b", re.I)


def _routes(sit: Situation) -> list[str]:
    """The situations an index situation's first question sends to, every answer elsewhere; [] for a case."""
    node = sit.nodes.get(sit.start) if getattr(sit, "nodes", None) else None
    branches = list((getattr(node, "when", None) or {}).values())
    gotos = [getattr(b, "goto", None) for b in branches]
    return list(dict.fromkeys(g for g in gotos if g)) if branches and all(gotos) else []


def premise_of(sit: Situation) -> str | None:
    """The narrower premise a situation is written for, as its id or title says it; None for most."""
    named = f"{sit.id} {sit.title}".lower()
    return next((p for p, (own, _) in PREMISES.items() if own.search(named)), None)


def ruleset_premises(ruleset_id: str, title: str) -> frozenset[str]:
    """The premises a whole ruleset is written for, as its id or title says it: in the online
    ruleset every case is online play, at a tournament every case is the event's, so a story told
    there need not say so for the case written for it to rank first."""
    named = f"{ruleset_id} {title}".lower()
    return frozenset(p for p, (own, _) in PREMISES.items() if p not in ONLY_WHEN_STATED and own.search(named))


def given_by(rs: Any) -> frozenset[str]:
    """`ruleset_premises` of a loaded ruleset (models or records)."""
    return ruleset_premises(rs.meta.id, rs.meta.title)


def stated_premises(text: str) -> set[str]:
    """The premises a story states: "only three of us", "our table rule", "in the tournament"."""
    said = text.lower()
    return {p for p, (_, story) in PREMISES.items() if story.search(said)}


def no_mahjong_claim_on_a_discard(text: str) -> bool:
    """Whether the story rules out a claim of one discard for Mah Jongg: it gives the call an
    exposure as purpose and has no win in it, or the win was made on a tile from the wall."""
    said = text.lower()
    return bool(_FOR_EXPOSURE.search(said)) and not _WIN.search(said) or bool(_SELF_PICK.search(said))


def asks_amount(text: str) -> bool:
    """Whether the judge asks about amounts ("how many points does the discarder lose"): the
    payment situations answer, and `referee pay` works the amounts out directly."""
    return bool(_AMOUNT.search(text.lower()))


def _pairs_of(seq: Sequence[str]) -> Iterable[str]:
    for a, b in zip(seq, seq[1:]):
        if a != b:
            yield f"{min(a, b)} {max(a, b)}"  # unordered: "end wrong" is "wrong end"


def _fields(sit: Situation) -> dict[str, list[str]]:
    questions = [r.ask for r in sit.roles.values()]
    for f in sit.facts.values():
        questions.append(f.ask)
        questions.extend((f.choices or {}).values())
    return {
        "title": [sit.title],
        "id": [sit.id.replace("-", " ")],
        "alias": list(sit.aliases),
        "summary": [sit.summary],
        "help": [sit.help],
        "questions": questions,
        "phase": [sit.phase],
    }


def _side_by_side(seq: list[frozenset[str]]) -> frozenset[tuple[str, str]]:
    return frozenset((a, b) for x, y in zip(seq, seq[1:]) for a in x for b in y)


def near_tie(hits: Sequence["Hit"]) -> bool:
    """Whether the second match is about as good as the first: the judge should choose."""
    return len(hits) > 1 and hits[0].score < EXACT_BONUS and hits[1].score >= NEAR_TIE * hits[0].score


def _deletes(word: str) -> set[str]:
    return {word[:i] + word[i + 1:] for i in range(len(word))}


def _distance(a: str, b: str, limit: int) -> int:
    """Edit distance with transpositions (optimal string alignment), cut off above `limit`."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        if min(cur) > limit:
            return limit + 1
        prev2, prev = prev, cur
    return prev[-1]


@dataclass
class Index:
    situations: tuple[Situation, ...]
    postings: dict[str, list[tuple[int, float]]] = field(default_factory=dict)
    exact: dict[tuple[str, ...], int | None] = field(default_factory=dict)  # None: more than one
    shown: list[list[tuple[str, frozenset[str]]]] = field(default_factory=list)
    terms: list[frozenset[str]] = field(default_factory=list)  # each situation's own terms
    spellings: dict[str, tuple[str, ...]] = field(default_factory=dict)  # a word the situations use -> its terms
    sorted_spellings: list[str] = field(default_factory=list)
    near: dict[str, set[str]] = field(default_factory=dict)  # a spelling, and each with a letter left out
    idf: dict[str, float] = field(default_factory=dict)
    order: list[int] = field(default_factory=list)  # each situation's place by id, to break ties
    title_pairs: list[frozenset[tuple[str, str]]] = field(default_factory=list)  # terms side by side in the title
    premises: list[str | None] = field(default_factory=list)  # each situation's narrower premise, if any
    paying: list[int] = field(default_factory=list)  # the situations about paying
    mahjong_claims: list[int] = field(default_factory=list)  # a claim for Mah Jongg against another claim
    routes: dict[int, list[int]] = field(default_factory=dict)  # an index situation -> the ones its first question sends to

    @classmethod
    def build(cls, situations: Sequence[Situation]) -> "Index":
        idx = cls(tuple(situations))
        docs: list[dict[str, tuple[Counter[str], int]]] = []
        seen: set[tuple[str, str]] = set()  # (word, term) as the situations use them
        for i, sit in enumerate(idx.situations):
            doc: dict[str, tuple[Counter[str], int]] = {}
            shown: list[tuple[str, frozenset[str]]] = []
            for name, texts in _fields(sit).items():
                counts: Counter[str] = Counter()
                for text in texts:
                    typed = pieces(text)
                    seq = [t for _, _, t, _ in typed]
                    seen.update((w, t) for _, w, t, _ in typed)
                    counts.update(seq)
                    if name in _PAIRED:
                        counts.update(_pairs_of([t for _, _, t, added in typed if not added]))
                        shown.append((text, frozenset(seq)))
                    if name in _EXACT:
                        key = tokens(text)
                        if key:
                            idx.exact[key] = i if idx.exact.get(key, i) == i else None
                doc[name] = (counts, sum(counts.values()))
            docs.append(doc)
            idx.title_pairs.append(_side_by_side(runs(sit.title)))
            idx.premises.append(premise_of(sit))
            if _PAYING.search(sit.title) or _SCORING.search(sit.summary):
                idx.paying.append(i)
            if _MAHJONG_CLAIM.search(sit.title):
                idx.mahjong_claims.append(i)
            idx.terms.append(frozenset(t for counts, _ in doc.values() for t in counts))
            idx.shown.append(shown)
        avg = {name: (sum(d[name][1] for d in docs) / len(docs)) or 1.0 for name in FIELDS} if docs else {}
        weighted: dict[str, list[tuple[int, float]]] = {}
        for i, doc in enumerate(docs):
            tf: dict[str, float] = {}
            for name, (counts, length) in doc.items():
                weight, b = FIELDS[name]
                w = weight / (1.0 - b + b * length / avg[name])
                for term, c in counts.items():
                    tf[term] = tf.get(term, 0.0) + c * w
            for term, value in tf.items():
                weighted.setdefault(term, []).append((i, value))
        n = len(docs)
        where = {sit.id: i for i, sit in enumerate(idx.situations)}
        for i, sit in enumerate(idx.situations):
            targets = _routes(sit)
            if targets:
                idx.routes[i] = [where[t] for t in targets if t in where]
        by_id = sorted(range(n), key=lambda i: idx.situations[i].id)
        idx.order = [0] * n
        for place, i in enumerate(by_id):
            idx.order[i] = place
        for term, post in weighted.items():
            idf = math.log(1.0 + (n - len(post) + 0.5) / (len(post) + 0.5))
            idx.postings[term] = [(i, idf * v * (K1 + 1.0) / (v + K1)) for i, v in post]
            idx.idf[term] = idf
        for word, term in sorted(seen):
            idx.spellings[word] = (*idx.spellings.get(word, ()), term)
        idx.sorted_spellings = sorted(idx.spellings)
        for word in idx.sorted_spellings:
            if len(word) >= 3 and word.isalpha():  # numbers are not misspelt
                for key in {word} | _deletes(word):
                    idx.near.setdefault(key, set()).add(word)
        return idx

    def _spelled(self, word: str) -> list[tuple[str, float]]:
        """Terms of the known words a typo away from an unknown word, with how much each counts."""
        if len(word) < 3 or len(word) > 30:
            return []
        cands = set(self.near.get(word, ())).union(*(self.near.get(d, ()) for d in _deletes(word)))
        limit = 1 if len(word) <= 5 else 2
        found: list[tuple[str, float]] = []
        for c in cands:
            d = _distance(word, c, limit)
            # a slip of the finger keeps the first letter ("mother" is no typo of "other");
            # a short word: letters swapped, or one left out ("wal" for wall), never one changed
            if d <= limit and c[0] == word[0] and (len(word) > 3 or sorted(word) == sorted(c) or word in _deletes(c)):
                found.append((c, 0.8 if d == 1 else 0.6))
        if not found and len(word) >= 4:  # a word typed only in part: "disc" for discard
            at = bisect_left(self.sorted_spellings, word)
            found = [(c, 0.6) for c in self.sorted_spellings[at:at + 3] if c.startswith(word)]
        found.sort(key=lambda x: (-x[1], x[0]))
        return [(t, weight) for c, weight in found[:3] for t in self.spellings[c]]

    def _query(self, text: str) -> tuple[dict[str, float], list[tuple[str, set[str]]]]:
        """The query's terms with their weights, and what each typed piece put into it."""
        query: dict[str, float] = {}
        produced: list[tuple[str, set[str]]] = []
        said: list[str] = []  # the terms in the order typed, for word pairs
        for typed, word, term, added in pieces(text):
            found: set[str] = set()
            # a phrase's own term the situations never use ("is she dead") still points at its relatives
            if term in self.postings or term in RELATED and typed != word:
                if term in self.postings:
                    query[term] = 1.0
                    found.add(term)
                else:
                    query.setdefault(term, 0.0)
                for other, weight in RELATED.get(term, ()):
                    if other in self.postings and query.get(other, 0.0) < weight:
                        query[other] = weight
                        found.add(other)
            elif term not in query:
                query[term] = 0.0  # remembered, so a repeated unknown word is looked at once
                spelled = self._spelled(word)
                for known, weight in spelled:
                    if query.get(known, 0.0) < weight:
                        query[known] = weight
                        found.add(known)
                if spelled:  # the word meant, for the word pairs: "wrong wal" is "wrong wall"
                    term = spelled[0][0]
            if not added:
                said.append(term)
            produced.append((typed, found))
            if len(query) >= MAX_TERMS:
                break
        for pair in _pairs_of(said):
            if pair in self.postings:
                query.setdefault(pair, PAIR_WEIGHT)
        return query, produced

    def _alias_bonus(self, i: int, asked: dict[str, float]) -> float:
        """How much of the situation's best-covered title, alias or summary the query says (0 to 1),
        each word counted by its rarity: a story that says most of one alias is about that case."""
        best = 0.0
        for _, own in self.shown[i]:
            total = sum(self.idf.get(t, 0.0) for t in own)
            if total:
                best = max(best, sum(self.idf.get(t, 0.0) * asked.get(t, 0.0) for t in own) / total)
        return best

    def _scores(self, query: dict[str, float]) -> dict[int, float]:
        scores: dict[int, float] = {}
        for term, weight in query.items():
            if weight:
                for i, value in self.postings.get(term, ()):
                    scores[i] = scores.get(i, 0.0) + weight * value
        return scores

    def search(self, text: str, limit: int = 10, given: frozenset[str] = frozenset()) -> list[Hit]:
        """`given`: the premises the ruleset itself holds (`ruleset_premises`); a case written for
        one is not set back for a story that does not state it, nor lifted as if it did."""
        query, produced = self._query(text)
        scores = self._scores(query)
        if not scores:
            return []
        stated = stated_premises(text)
        beyond: dict[int, float] | None = None  # what the story says besides stating its premise
        for i in scores:
            if self.premises[i] is not None:  # the case for that premise, when the story sets it up
                if self.premises[i] not in stated:
                    if self.premises[i] not in given:
                        scores[i] *= PREMISE_FACTOR
                elif self.premises[i] not in ONLY_WHEN_STATED:
                    if beyond is None:
                        rest = text.lower()
                        for p in stated - ONLY_WHEN_STATED:
                            rest = PREMISES[p][1].sub(" ", rest)
                        beyond = self._scores(self._query(rest)[0])
                    # "in the app, when can i swap a joker": the premise says where, the rest what
                    # happened; a case the rest says nothing of is not what happened ("online" alone
                    # is every online case)
                    if beyond.get(i, 0.0) > 0.0:
                        scores[i] = (beyond[i] + PREMISE_WORDS * (scores[i] - beyond[i])) * PREMISE_STATED
                    else:
                        scores[i] *= PREMISE_STATED if not beyond else PREMISE_FACTOR
        if self.mahjong_claims and no_mahjong_claim_on_a_discard(text):
            for i in self.mahjong_claims:
                if i in scores:
                    scores[i] *= PREMISE_FACTOR
        if asks_amount(text) and self.paying:
            for i in self.paying:
                if i in scores:
                    scores[i] *= AMOUNT_FACTOR
            top = max(scores.values())
            # the general case ("Paying a valid Mah Jongg") when no payment situation shares a word
            best = max(self.paying, key=lambda i: (scores.get(i, 0.0), self.situations[i].title.lower().startswith("pay")))
            scores[best] = max(scores.get(best, 0.0), AMOUNT_FLOOR * top)
        # an index situation ("which error stopped the game?") yields to the case it sends to when
        # the story names that case about as well: the judge gets the rule, not a menu of rules
        for r, targets in self.routes.items():
            named = max((scores.get(j, 0.0) for j in targets), default=0.0)
            if r in scores and named >= ROUTE_YIELD * scores[r]:
                scores[r] = min(scores[r], 0.99 * named)
        asked = {t: w for t, w in query.items() if w and " " not in t}
        # a few words naming the case ("joker exchange"), not a story, where a title's phrase decides
        typed_pairs = _side_by_side(runs(text)) if 1 < len(asked) <= TITLE_WORDS else frozenset()
        for i in heapq.nlargest(ALIAS_TOP, scores, key=scores.__getitem__):
            scores[i] *= 1.0 + ALIAS_BONUS * self._alias_bonus(i, asked) ** 0.5
            if typed_pairs & self.title_pairs[i]:
                scores[i] *= 1.0 + TITLE_BONUS
        exact = self.exact.get(tokens(text))
        if exact is not None:
            scores[exact] = scores.get(exact, 0.0) + EXACT_BONUS
        # best first, ties by id; only `limit` are ranked, so a common word costs no full sort
        best = heapq.nlargest(limit, [(s, -self.order[i], i) for i, s in scores.items()])
        floor = 0.2 * best[0][0] if best else 0.0  # far below the best match is noise, not a choice
        ranked = [i for s, _, i in best if s >= floor]
        hits = []
        for i in ranked:
            matched = max(self.shown[i], key=lambda s: (len(s[1] & asked.keys()), -len(s[1])))[0]
            words = tuple(dict.fromkeys(w for typed, found in produced if found & self.terms[i] for w in typed.split()))
            hits.append(Hit(self.situations[i], round(scores[i], 3), matched, words))
        return hits


_CACHE: OrderedDict[tuple[int, ...], Index] = OrderedDict()


def index(situations: Sequence[Situation]) -> Index:
    """The index of these situations, built on first use and kept while they are in use."""
    key = tuple(id(s) for s in situations)
    idx = _CACHE.get(key)
    if idx is None or any(a is not b for a, b in zip(idx.situations, situations)):
        idx = Index.build(situations)
        _CACHE[key] = idx
        while len(_CACHE) > 8:
            _CACHE.popitem(last=False)
    _CACHE.move_to_end(key)
    return idx


def words(text: str) -> list[str]:
    """The words of `text` as an exact match sees them (two aliases with the same words collide)."""
    return list(tokens(text))


def search(situations: Sequence[Situation], text: str, limit: int = 10, given: frozenset[str] = frozenset()) -> list[Hit]:
    """Situations ranked by how well they match `text`, best first; [] when nothing does.
    `given`: the premises of the ruleset they come from (`given_by`)."""
    return index(situations).search(text, limit, given)


def search_ruleset(rs: Any, text: str, limit: int = 10) -> list[Hit]:
    """`search` among a loaded ruleset's situations, with the premises the ruleset holds: what
    every command and page that finds a situation for a judge calls."""
    return search(list(rs.situations.values()), text, limit, given_by(rs))


def exact(situations: Sequence[Situation], text: str) -> Situation | None:
    """The situation whose id, title or alias is exactly what was typed."""
    for sit in situations:
        if text == sit.id:
            return sit
    idx = index(situations)
    i = idx.exact.get(tokens(text))
    return None if i is None else idx.situations[i]
