"""What a handout says, gathered from the ruleset, the engine and the scenarios; no markup here.

Every ruling in a handout comes out of `engine.advance` (with seats and hand values left
open, so amounts read "2 x the hand value"), every worked example is a scenario replayed under
the very ruleset being printed, and every amount in the payment tables comes from
`scoring.standard` / `scoring.points`: the paper can never disagree with `referee rule`.
"""
from __future__ import annotations

import os
import pickle
import stat
import weakref
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

from ..rules import model as m
from ..ruling.engine import details
from ..ruling.outcome import Outcome
from ..errors import Place, Problem, RefereeError
from ..rules.loader import Ruleset, data_dir
from ..rules.ruleset import Lazy
from ..ruling.render import GAME_TEXT
from ..ruling.scenarios import Scenario, compare, facts_of, load_file, onward, run
from ..rules.memo import keep

PHASE_TITLES = {
    "deal": "The deal", "charleston": "The Charleston", "play": "Picking and discarding",
    "claiming": "Claiming discards", "joker": "Jokers", "mahjong": "Declaring Mah Jongg",
    "dead": "Dead hands", "end": "Settling the game",
}
GAME_SHORT = {"continues": "play continues", "ends": "game ends", "replay": "replay the game", "redeal": "redeal"}


@dataclass
class Question:
    number: int
    fact: str
    ask: str
    help: str
    choices: dict[str, str]
    short: dict[str, str] = field(default_factory=dict)  # answer -> a few words (the fact's `short:`)


@dataclass
class Row:
    """One path through a situation: the answers, then what happens."""

    answers: list[tuple[int, str]]  # (question number, answer label)
    ruling: str | None  # ruling id, None when the path continues in another situation
    text: str
    dead: list[str]
    money: list[str]  # payments or points, as the engine words them
    game: str
    goto: str | None = None  # situation id play continues in


@dataclass
class Example:
    title: str
    story: str
    source: str
    ruling: str
    text: str
    dead: list[str]
    money: list[str]
    game: str
    borrowed_from: str | None  # the base ruleset whose scenario this is


@dataclass
class Page:
    situation: m.Situation
    questions: list[Question]
    rows: list[Row]
    examples: list[Example]
    cites: list[str]
    svg: str = ""
    html: str = ""  # the booklet's whole section of it (section.py), for HTML only
    # What a handout made of `questions` and `rows` alone, by format: shared by every page with
    # the same reach (page_rows), as the questions and rows are. Never to be changed after.
    made: dict[str, Any] = field(default_factory=dict)


@dataclass
class Phase:
    id: str
    title: str
    pages: list[Page] = field(default_factory=list)


def _label(d: m.FactDef | None, value: Any) -> str:
    if d is not None and d.choices and str(value) in d.choices:
        return f"{value} ({d.choices[str(value)]})"
    return str(value)


def _money(o: Outcome) -> list[str]:
    lines = [p.text for p in o.payments]
    awards = [a for a in o.awards if a.points != 0] or o.awards
    for a in awards:
        who = a.party.label[:1].upper() + a.party.label[1:]
        lines.append(f"{who} scores {a.points:+d} points" if a.points is not None else f"{who} scores {a.formula}")
    if len(awards) < len(o.awards):
        lines.append("Everyone else scores 0")
    return lines


def _party(rs: Ruleset, sid: str, p: Any) -> str:
    """A party as the paper names it. Seats a question names several of ('Which three seats
    have dead hands?') read from that question, not from the fact's id ('the dead seats')."""
    import re

    d = rs.fact(p.role, sid) if p.seat is None else None
    if d is not None and d.type == "seats":
        m = re.match(r"Which (.*?seats) (.*?)\??$", re.sub(r"\s*\([^)]*\)", "", d.ask))
        if m:
            return f"the {m.group(1)} that {m.group(2)}"
    return p.label


# A printed decision table is for reading: past these a situation cannot be printed usefully, and
# a stranger's tree of seven chained ten-way questions (10^7 rows) would exhaust memory first.
MAX_ROWS = 2_000
MAX_QUESTIONS = 200  # also keeps the walks below (and the flowchart's) clear of Python's recursion limit


class Unprintable(RefereeError):
    """A situation too large for a handout: a fault of the ruleset (exit 1), not of the command line."""


def printable(rs: Ruleset, sid: str) -> None:
    """Refuse, in one line, a situation too large for a handout (before any work is spent on it)."""
    sit = rs.situations[sid]
    asked = sum(isinstance(n, m.QuestionNode) for n in sit.nodes.values())
    if asked > MAX_QUESTIONS:
        raise Unprintable(f"situation '{sid}' has {asked:,} questions; a handout prints at most "
                          f"{MAX_QUESTIONS} in one situation: split it with goto")


def unprintable(rs: Ruleset) -> list[Problem]:
    """Each situation no handout can print, at its place: what `referee check` reports, so a
    ruleset that passes check also prints."""
    found = []
    for sid in rs.situations:
        if rs.situations[sid].start not in rs.situations[sid].nodes:
            continue  # lint reports the missing start
        try:
            _paths(rs, sid)
        except Unprintable as exc:
            origin = rs.situation_origin.get(sid)
            place = origin.place("start") if origin is not None else Place(sid)
            found.append(Problem(place, exc.message))
    return found


def _paths(rs: Ruleset, sid: str) -> list[tuple[dict[str, Any], str | m.Goto]]:
    """Every way through one situation's own tree: the answers and the ruling node or goto reached."""
    printable(rs, sid)
    sit = rs.situations[sid]
    out: list[tuple[dict[str, Any], str | m.Goto]] = []

    def go(target: m.Target, answers: dict[str, Any], depth: int) -> None:
        if len(out) >= MAX_ROWS:
            raise Unprintable(f"situation '{sid}' has more than {MAX_ROWS:,} ways through it; a handout's "
                             "decision table cannot print them: split it with goto")
        if isinstance(target, m.Goto) or depth > len(sit.nodes):
            out.append((answers, target))
            return
        node = sit.nodes.get(target)
        if isinstance(node, m.GotoNode):
            out.append((answers, node.target()))
            return
        if not isinstance(node, m.QuestionNode):
            out.append((answers, target))
            return
        if node.ask in answers:  # a fact answered once is never asked again
            from ..ruling.engine import branch

            nxt = branch(node, answers[node.ask])
            if nxt is not None:
                go(nxt, answers, depth + 1)
            return
        for value, nxt in node.branches():
            if value == "else":
                d = rs.fact(node.ask, sid)
                rest = [c for c in (d.choices or {}) if c not in (node.when or {})] if d else []
                if not rest:
                    continue
                value = rest[0]
            go(nxt, {**answers, node.ask: value}, depth + 1)

    go(sit.start, {}, 0)
    return out


def questions(rs: Ruleset, sid: str) -> list[Question]:
    sit = rs.situations[sid]
    out: list[Question] = []
    for nid, node in sit.nodes.items():
        if isinstance(node, m.QuestionNode) and all(q.fact != node.ask for q in out):
            d = rs.fact(node.ask, sid)
            out.append(Question(len(out) + 1, node.ask, d.ask if d else node.ask, d.help if d else "",
                                dict(d.choices or {}) if d else {}, dict(d.short or {}) if d else {}))
    return out


def rows(rs: Ruleset, sid: str, qs: list[Question]) -> list[Row]:
    number = {q.fact: q.number for q in qs}
    out: list[Row] = []
    for answers, target in _paths(rs, sid):
        shown = [(number.get(f, 0), str(v)) for f, v in answers.items()]  # the questions list the choices' labels
        if isinstance(target, m.Goto):
            title = rs.situations[target.goto].title if target.goto in rs.situations else target.goto
            dead = [f"the {role.replace('_', ' ')}" for role in target.dead]
            carried = f" ({', '.join(dead)} already dead)" if dead else ""
            out.append(Row(shown, None, f"Continue as '{title}'{carried}.", dead, [], "", goto=target.goto))
            continue
        node = rs.situations[sid].nodes.get(target)
        if isinstance(node, m.RulingNode):  # leave its seats and amounts open up front: one walk, not one a detail
            answers = {**answers, **{n: None for n, _ in details(rs, sid, node.ruling, answers) if n not in answers}}
        if isinstance(node, m.RulingNode) and node.ruling.then is not None:
            # the case goes on in another situation: this ruling's row, then where it continues
            from ..ruling.outcome import build_outcome

            then = node.ruling.then
            o = build_outcome(rs, sid, sid, target, node.ruling, [], answers, {}, brief=True)
            title = rs.situations[then.goto].title if then.goto in rs.situations else then.goto
            out.append(Row(shown, o.ruling.id, f"{o.text} Then continue as '{title}'.", [p.label for p in o.dead],
                           _money(o), GAME_SHORT[o.game]))
            continue
        try:
            o = run(rs, sid, answers, {}, brief=True)  # the table prints the ruling's sentence, not its notes
        except RefereeError as exc:  # a tree the lint would reject; say so rather than stop the print
            out.append(Row(shown, None, f"(cannot be ruled: {exc})", [], [], ""))
            continue
        out.append(Row(shown, o.ruling.id, o.text, [_party(rs, o.situation, p) for p in o.dead], _money(o), GAME_SHORT[o.game]))
    return out


# Rulesets that extend one another print most situations word for word alike: the twelve shipped
# ones replayed some 4,400 cases for 800 pages, over a fifth of them a case another ruleset had
# just replayed. A page's rows and an example's outcome are kept under the situation's reach (below)
# and shared by every ruleset with the same reach, so a case is replayed once per way it is ruled.
Reach = tuple[object, ...]
Seen = tuple[int, int, int, int]  # a file or folder as it was when read: mtime, ctime, size, inode
_REACH: dict[int, tuple[weakref.ref[Ruleset], bytes, dict[str, Reach]]] = {}
_PAGES: dict[Reach, tuple[list[Question], list[Row], dict[str, Any]]] = {}
_CASES: dict[tuple[Path, Seen, Reach], Outcome | None] = {}
KEEP = 8192  # entries of each before they are dropped: a long `serve` prints many rulesets over its life


def _written(rs: Ruleset, sid: str) -> bytes:
    """A situation as written, in the ruleset cache's packed form (packed here when it was not cached)."""
    if isinstance(rs.situations, Lazy):
        return rs.situations.packed(sid)
    # packed as the cache packs it (not as pickle.dumps would): a ruleset read afresh must share
    # pages with one that the cache gave back, so the same situation must give the same bytes
    from ..rules.cache import pack_value

    return pack_value(rs.situations[sid])


def reach(rs: Ruleset, sid: str) -> Reach:
    """All a case begun in `sid` is ruled and printed from: each situation it can go on into, as
    written, and the ruleset's facts and scoring. The engine reads nothing else of a ruleset (its
    id only in an error), so two rulesets with the same reach rule every case begun there alike
    and print the same page for it."""
    known = _REACH.get(id(rs))
    if known is None or known[0]() is not rs:  # an id is reused only once its ruleset is gone
        whole = pickle.dumps((dict(rs.facts), rs.scoring), pickle.HIGHEST_PROTOCOL)
        known = keep(_REACH, id(rs), (weakref.ref(rs), whole, {}), KEEP)
    _, whole, reached = known
    if sid not in reached:
        # `sid` too: two situations that go on into each other reach the same ones
        reached[sid] = (whole, sid, *((there, _written(rs, there) if there in rs.situations else None)
                                      for there in sorted(onward(rs, sid))))
    return reached[sid]


def page_rows(rs: Ruleset, sid: str) -> tuple[list[Question], list[Row], dict[str, Any]]:
    """A page's questions and decision table, shared by the rulesets that reach the same; with
    a memo (`Page.made`) of what a handout makes of them, shared with them."""
    key = reach(rs, sid)
    kept = _PAGES.get(key)
    if kept is None:
        qs = questions(rs, sid)
        kept = (qs, rows(rs, sid, qs), {})
        if all(r.ruling is not None or r.goto is not None for r in kept[1]):  # a row that cannot be ruled names the ruleset
            keep(_PAGES, key, kept, KEEP)
    return list(kept[0]), list(kept[1]), kept[2]


def _case(rs: Ruleset, sc: Scenario) -> Outcome | None:
    """A scenario replayed under `rs` as a worked example of it, or None where it is not one: it
    cannot be read or ruled here, or this ruleset rules it differently."""
    try:
        facts, players = facts_of(rs, sc)
        o = run(rs, sc.situation, facts, players, brief=True)
    except RefereeError:
        return None
    assert sc.data.expect is not None
    return None if compare(o, sc.data.expect) else o


def _shared_case(rs: Ruleset, sc: Scenario, seen: Seen) -> Outcome | None:
    """`_case`, shared by the rulesets that reach the same from the scenario's situation. Only
    where its answers all read within that reach: a fact found in some other situation, or a
    hand read through the ruleset's card, is read afresh under each ruleset."""
    sid = sc.situation
    if sc.data.hand is not None or sc.data.table is not None or any(
            rs.fact(name, sid) is None for name in (*sc.data.answers, *sc.data.seats)):
        return _case(rs, sc)
    key = (sc.path, seen, reach(rs, sid))
    if key not in _CASES:
        keep(_CASES, key, _case(rs, sc), KEEP)
    return _CASES[key]


# What a file was when it was read: a running `serve` prints the booklet again on request, and must
# print a scenario added, edited or removed since (the folder of the situation changes, not the
# ruleset's, when a file is added; an edit in place changes neither folder).
_SCENARIOS: dict[Path, tuple[Seen, Scenario]] = {}
_LISTED: dict[Path, tuple[Seen, list[Path]]] = {}


def _seen(st: os.stat_result) -> Seen:
    return (st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino)


def _scenario(path: Path) -> tuple[Scenario, Seen]:
    """A scenario file, read again only once it has changed; with what it was when read."""
    try:
        now = _seen(os.stat(path))
    except OSError:
        return load_file(path), (0, 0, 0, 0)  # gone since it was listed: load_file says so in one line
    kept = _SCENARIOS.get(path)
    if kept is None or kept[0] != now:
        kept = keep(_SCENARIOS, path, (now, load_file(path)), KEEP)
    return kept[1], kept[0]


def _listed(folder: Path, now: Seen, pick: Callable[[Path], list[Path]]) -> list[Path]:
    kept = _LISTED.get(folder)
    if kept is None or kept[0] != now:
        kept = keep(_LISTED, folder, (now, pick(folder)), KEEP)
    return kept[1]


@lru_cache(maxsize=1)
def _scenario_root() -> Path:
    return data_dir("scenarios")


def _scenario_files(ruleset_id: str) -> dict[str, list[Path]]:
    """Situation id -> its scenario files, for one ruleset's scenario folder, as they are now (each
    folder listed again only once it has changed)."""
    folder = _scenario_root() / ruleset_id
    try:
        st = folder.stat()
    except OSError:
        return {}
    if not stat.S_ISDIR(st.st_mode):
        return {}
    index: dict[str, list[Path]] = {}
    for sub in _listed(folder, _seen(st), lambda f: sorted(f.iterdir())):
        try:
            st = os.stat(sub)
        except OSError:
            continue
        if stat.S_ISDIR(st.st_mode):
            index[sub.name] = _listed(sub, _seen(st), lambda f: sorted(f.glob("*.yaml")))
    return index


def examples(rs: Ruleset, sid: str, limit: int = 3, listed: dict[str, dict[str, list[Path]]] | None = None) -> list[Example]:
    """The ruleset's own scenarios for a situation; where it has none, its bases' scenarios that
    still come out the same way under it (replayed here, not assumed). `listed` is each ruleset
    of the chain's scenario files, for a caller that reads many situations (listed here if not given)."""
    listed = listed if listed is not None else {owner: _scenario_files(owner) for owner in rs.chain}
    for owner in reversed(rs.chain):
        files = listed[owner].get(sid, [])
        if not files:
            continue
        found: list[Example] = []
        for path in files:
            try:
                sc, seen = _scenario(path)
            except RefereeError:
                continue
            if sc.situation != sid or sc.data.expect is None:
                continue
            o = _shared_case(rs, sc, seen)
            if o is None:
                continue
            found.append(Example(sc.data.title or path.stem, " ".join((sc.data.story or "").split()), sc.data.source or "",
                                 o.ruling.id, o.text, [p.label for p in o.dead], _money(o), GAME_SHORT[o.game],
                                 owner if owner != rs.id else None))
            if len(found) >= limit:
                break
        if found:
            return found
    return []


def cites(rs: Ruleset, sid: str) -> list[str]:
    out: list[str] = []
    for node in rs.situations[sid].nodes.values():
        if isinstance(node, m.RulingNode):
            for c in node.ruling.cite:
                text = str(c)
                if text not in out:
                    out.append(text)
    return out


def phases(rs: Ruleset, with_examples: bool = True) -> list[Phase]:
    out = {p: Phase(p, PHASE_TITLES[p]) for p in m.PHASES}
    listed = {owner: _scenario_files(owner) for owner in rs.chain}
    for sid in sorted(rs.situations, key=lambda s: (m.PHASES.index(rs.situations[s].phase), rs.situations[s].title.lower())):
        sit = rs.situations[sid]
        qs, table, made = page_rows(rs, sid)
        out[sit.phase].pages.append(Page(sit, qs, table, examples(rs, sid, listed=listed) if with_examples else [],
                                         cites(rs, sid), made=made))
    return [p for p in out.values() if p.pages]


def glossary(rs: Ruleset) -> list[tuple[str, str]]:
    """Terms a reader meets in the booklet: the game states, then each question's explanation."""
    out = [(f"game {state}", text) for state, text in GAME_TEXT.items()]
    rules = rs.situations.get("dead-hand-rules")
    out.append(("dead hand", " ".join(rules.help.split()) if rules and rules.help
                else "A hand that can no longer win; each ruling says what it must still do."))
    seen: set[str] = set()
    pool = [(name, d) for name, d in rs.facts.items()]
    for sit in rs.situations.values():
        pool += list(sit.facts.items())
    for name, d in sorted(pool, key=lambda x: x[1].ask.lower()):
        if d.help and d.ask not in seen:
            seen.add(d.ask)
            out.append((d.ask, " ".join(d.help.split())))
    return out


def bibliography(rs: Ruleset) -> list[tuple[str, m.Source]]:
    return sorted(rs.sources.items())
