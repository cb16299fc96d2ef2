"""Semantic lint over a loaded ruleset: everything the schema alone cannot see.

Every problem names the file that introduced it (an overlay's node names the overlay).
"""
from __future__ import annotations

import difflib
import re
from collections import Counter, defaultdict
from pathlib import Path

from ..rules import model as m
from ..ruling.deadtext import dead_claims
from ..ruling.outcome import PLACEHOLDER, SCORING_NUMBERS
from ..errors import Place, Problem
from ..rules.loader import Ruleset
from ..search.rank import words as search_words
from .sheets import check_coverage, check_ruling as check_sheet_numbers, check_sources

Key = tuple[str, str]  # (situation, node)
# A payment amount in words ("pays double", "paid ... the hand value"): true only of money games, so
# a ruleset that scores points must not read it out.
# "Pays the winner like any other loser" is the same: a points game has no losers' payments, only
# the dead hand's score.
MONEY_TEXT = re.compile(r"\b(pay|pays|paid|payment|payments)\b[^.;:]*?\b(doubl\w*|twice|single|four times|the hand value|the value"
                        r"|like any (other )?loser|as a (normal )?loser|the (eventual )?winner|any winner|normally)\b",
                        re.IGNORECASE)


def _target_key(sid: str, target: m.Target, rs: Ruleset) -> Key | None:
    if isinstance(target, m.Goto):
        sit = rs.situations.get(target.goto)
        if sit is None:
            return None
        return (target.goto, target.at or sit.start)
    return (sid, target)


def _edges(rs: Ruleset, sid: str, nid: str, node: object) -> list[tuple[str, m.Target]]:
    if isinstance(node, m.QuestionNode):
        return node.branches()
    if isinstance(node, m.GotoNode):
        return [("goto", m.Goto.model_construct(goto=node.goto, at=node.at))]
    if isinstance(node, m.RulingNode) and node.ruling.then is not None:
        return [("then", node.ruling.then)]  # the case goes on after this ruling
    return []


def lint(rs: Ruleset) -> list[Problem]:
    problems: list[Problem] = []

    def node_place(sid: str, nid: str, *sub: object) -> Place:
        origin = rs.node_origin.get((sid, nid)) or rs.situation_origin[sid]
        return origin.place(*sub) if (sid, nid) in rs.node_origin else origin.place("nodes")

    def sit_place(sid: str, *sub: object) -> Place:
        patched = rs.field_origin.get((sid, str(sub[0]))) if sub else None
        if patched is not None:  # an overlay's patch changed this key: name the overlay
            return patched.place(*sub[1:])
        return rs.situation_origin[sid].place(*sub)

    graph: dict[Key, list[Key]] = defaultdict(list)
    ruling_ids: dict[str, Place] = {}
    alias_owner: dict[str, str] = {}

    problems += _check_recite(rs)
    for name, fact in rs.facts.items():
        problems += _check_fact(name, fact, lambda *sub: rs.fact_origin[name].place(*sub) if name in rs.fact_origin else Place(str(rs.folder)))
    for sid, sit in rs.situations.items():
        for name, fact in sit.facts.items():
            problems += _check_fact(name, fact, lambda *sub: sit_place(sid, "facts", name, *sub))
        if sit.start not in sit.nodes:
            problems.append(Problem(sit_place(sid, "start"), f"start node '{sit.start}' does not exist"))
        for alias in [sit.title, *sit.aliases]:
            key = " ".join(search_words(alias))  # as search sees it: 'mahj' is 'mah jongg', 'by'/'on' are ignored
            other = alias_owner.setdefault(key, sid)
            if other != sid:
                problems.append(Problem(sit_place(sid, "aliases"), f"alias '{alias}' is also used by situation '{other}'"))
        problems += _check_may_also_be(rs, sid, sit_place)
        for nid, node in sit.nodes.items():
            for label, target in _edges(rs, sid, nid, node):
                where = node_place(sid, nid, "ruling", "then") if label == "then" else node_place(sid, nid, label)
                if isinstance(node, m.QuestionNode) and label not in ("yes", "no", "else"):
                    where = node_place(sid, nid, "when", label)
                if isinstance(target, m.Goto):
                    if target.goto not in rs.situations:
                        problems.append(Problem(where, f"goto names unknown situation '{target.goto}'"))
                        continue
                    problems += _check_carry(rs, sid, target, where)
                    if target.at and target.at not in rs.situations[target.goto].nodes:
                        problems.append(Problem(where, f"goto names unknown node '{target.at}' in '{target.goto}'"))
                        continue
                elif target not in sit.nodes:
                    hint = difflib.get_close_matches(target, sit.nodes, n=1)
                    also = f"; did you mean '{hint[0]}'?" if hint else ""
                    problems.append(Problem(where, f"'{target}' is not a node of '{sid}'{also}"))
                    continue
                key = _target_key(sid, target, rs)
                if key:
                    graph[(sid, nid)].append(key)
            if isinstance(node, m.QuestionNode):
                problems += _check_question(rs, sid, nid, node, node_place)
            elif isinstance(node, m.RulingNode):
                problems += _check_ruling(rs, sid, nid, node.ruling, node_place)
                problems += check_sheet_numbers(rs, node.ruling, lambda *sub: node_place(sid, nid, "ruling", *sub))
                problems += _check_dead_text(rs, sid, node.ruling, lambda *sub: node_place(sid, nid, "ruling", *sub))
                first = ruling_ids.setdefault(node.ruling.id, node_place(sid, nid, "ruling", "id"))
                if first != node_place(sid, nid, "ruling", "id"):
                    problems.append(Problem(node_place(sid, nid, "ruling", "id"), f"ruling id '{node.ruling.id}' is also used at {first}"))

    # reachability within each situation (a node reached only by another situation's goto counts)
    reached: set[Key] = set()
    for sid, sit in rs.situations.items():
        stack = [(sid, sit.start)]
        while stack:
            key = stack.pop()
            if key in reached:
                continue
            reached.add(key)
            stack.extend(graph.get(key, []))
    for sid, sit in rs.situations.items():
        for nid in sit.nodes:
            if (sid, nid) not in reached:
                problems.append(Problem(node_place(sid, nid), f"node '{nid}' of '{sid}' is never reached"))

    problems += check_coverage(rs)
    problems += check_sources(rs)
    problems += _lost_binds(rs, node_place)
    cyclic = _cycles(graph, node_place)
    problems += cyclic
    if not cyclic:
        for sid in rs.situations:
            if rs.situations[sid].start not in rs.situations[sid].nodes:
                continue
            for ruling_id, depth in question_depths(rs, sid).items():
                if depth > MAX_QUESTIONS:
                    problems.append(Problem(rs.situation_origin[sid].place("start"),
                                            f"ruling {ruling_id} takes {depth} questions from the start of '{sid}' (at most {MAX_QUESTIONS})"))
    return sorted(set(problems), key=lambda p: (p.place.path, p.place.line, p.place.col, p.message))


def _check_carry(rs: Ruleset, sid: str, goto: m.Goto, where: Place) -> list[Problem]:
    """A goto's bind and dead name roles that exist on each side."""
    out = []
    for there, here in goto.bind.items():
        fact = rs.fact(there, goto.goto)
        if fact is None or fact.type != "seat":
            out.append(Problem(where, f"bind: '{there}' is not a seat role of '{goto.goto}'"))
        known = rs.fact(here, sid)
        if known is None or known.type != "seat":
            out.append(Problem(where, f"bind: '{here}' is not a seat role of '{sid}'"))
    for fact_name, value in goto.set.items():
        fact = rs.fact(fact_name, goto.goto)
        if fact is None or fact.type not in ("yesno", "choice"):
            out.append(Problem(where, f"set: '{fact_name}' is not a yes/no or choice fact of '{goto.goto}'"))
        elif fact.type == "yesno" and value not in ("yes", "no") or fact.choices and value not in fact.choices:
            out.append(Problem(where, f"set: '{value}' is not an answer to '{fact_name}'"))
    for role in goto.dead:
        known = rs.fact(role, sid)
        if role in m.GROUPS:  # the engine expands groups only among the ruling's own dead
            out.append(Problem(where, f"dead: '{role}' goes in the ruling's dead, not a goto's (it names no seat to hand on)"))
        elif known is None or known.type not in ("seat", "seats"):
            out.append(Problem(where, f"dead: '{role}' is not a seat role of '{sid}'"))
    return out


def _jumps(node: object) -> dict[str, m.Goto]:
    """A node's branches that continue in another situation, by branch label."""
    if isinstance(node, m.GotoNode):
        return {"goto": node.target()}
    if isinstance(node, m.QuestionNode):
        return {label: t for label, t in node.branches() if isinstance(t, m.Goto)}
    return {}


def _lost_binds(rs: Ruleset, node_place) -> list[Problem]:  # type: ignore[no-untyped-def]
    """An overlay that rewrites a node whose goto the base bound (`bind: {declarer: winner}`)
    and leaves the bind out: the seat is asked again there, and the overlay differs from its
    base where it meant to change nothing. Found by comparing each rewritten node with the base's."""
    from ..rules.loader import load

    if not rs.meta.extends:
        return []
    try:
        base, _ = load(rs.meta.extends, near=rs.folder)
    except Exception:  # noqa: BLE001  (a base that does not load is reported on its own)
        return []
    if base is None:
        return []
    out = []
    for (sid, nid), origin in rs.node_origin.items():
        was_at = base.node_origin.get((sid, nid))
        if was_at is not None and was_at.path == origin.path or sid not in base.situations or sid not in rs.situations:
            continue  # not rewritten here
        old, new = base.situations[sid].nodes.get(nid), rs.situations[sid].nodes.get(nid)
        if old is None or new is None:
            continue
        now = _jumps(new)
        for label, was in _jumps(old).items():
            jump = now.get(label)
            if jump is None or jump.goto != was.goto:
                continue
            lost = {there: here for there, here in was.bind.items() if there not in jump.bind}
            if lost:
                binds = ", ".join(f"{k}: {v}" for k, v in lost.items())
                who = " and the ".join(lost)
                out.append(Problem(node_place(sid, nid, *([label] if label in ("yes", "no", "else", "goto") else ["when", label])),
                                   f"goto {was.goto} drops the bind {base.id} gives it here, so the {who} is asked again "
                                   f"there: add bind: {{{binds}}}"))
    return out


MAX_QUESTIONS = 7


def question_depths(rs: Ruleset, sid: str) -> dict[str, int]:
    """Ruling id -> the most decision questions any path from the situation's start asks to reach it.

    Paths follow gotos as a judge does: a fact answered before a goto (or settled by its `set`)
    is not asked again. Rather than walking every path (exponential on a chain of questions
    whose answers meet again), each node is solved once per set of known facts that can still
    matter below it: only facts asked at two places, or set by a goto, can be skipped later, so
    on an ordinary tree each node is solved once and the walk is linear.
    """
    State = tuple[Key, frozenset[str]]
    steps: dict[Key, list[tuple[Key, frozenset[str]]]] = {}  # node -> (next node, facts the goto sets)
    asks: dict[Key, str] = {}
    leaf: dict[Key, str] = {}
    todo = [(sid, rs.situations[sid].start)]
    while todo:
        key = todo.pop()
        if key in steps:
            continue
        cur, nid = key
        sit = rs.situations.get(cur)
        node = sit.nodes.get(nid) if sit else None
        out: list[tuple[Key, frozenset[str]]] = []
        if isinstance(node, m.RulingNode):
            # a ruling's `then` is not followed: the judge has a ruling in hand, and the questions
            # after it are counted from the next situation's own start
            leaf[key] = node.ruling.id
        elif isinstance(node, (m.GotoNode, m.QuestionNode)):
            if isinstance(node, m.GotoNode):
                targets: list[m.Target] = [m.Goto.model_construct(goto=node.goto, at=node.at, set=node.set)]
            else:
                asks[key] = node.ask
                targets = [t for _, t in node.branches()]
            for t in targets:
                if isinstance(t, m.Goto):
                    there = rs.situations.get(t.goto)
                    if there is not None:
                        out.append(((t.goto, t.at or there.start), frozenset(t.set)))
                else:
                    out.append(((cur, t), frozenset()))
        steps[key] = out
        todo.extend(k for k, _ in out)

    asked_at = Counter(asks.values())
    settled = {f for nexts in steps.values() for _, fs in nexts for f in fs}
    matters = frozenset(f for f, n in asked_at.items() if n > 1 or f in settled)

    # Most questions still to come per ruling, from (node, facts known that matter); iterative
    # post-order so a long chain cannot hit the recursion limit.
    solved: dict[State, dict[str, int]] = {}
    busy: set[State] = set()  # on the current path: a loop (reported by _cycles) adds nothing
    root: State = ((sid, rs.situations[sid].start), frozenset())
    stack: list[tuple[State, bool]] = [(root, False)]
    while stack:
        state, ready = stack.pop()
        if state in solved:
            continue
        key, known = state
        fact = asks.get(key)
        inc = 0 if fact is None or fact in known else 1
        after = known if fact is None else known | ({fact} & matters)
        nexts = [((k, after | (fs & matters)), 0 if fact is None else inc) for k, fs in steps.get(key, [])]
        if not ready:
            busy.add(state)
            stack.append((state, True))
            stack.extend((s, False) for s, _ in nexts if s not in solved and s not in busy)
            continue
        busy.discard(state)
        best: dict[str, int] = {leaf[key]: 0} if key in leaf else {}
        for s, add in nexts:
            for ruling_id, depth in solved.get(s, {}).items():
                if depth + add > best.get(ruling_id, -1):
                    best[ruling_id] = depth + add
        solved[state] = best
    return solved[root]


def _cycles(graph: dict[Key, list[Key]], node_place) -> list[Problem]:  # type: ignore[no-untyped-def]
    white, grey, black = 0, 1, 2
    color: dict[Key, int] = defaultdict(int)
    out: list[Problem] = []
    for root in list(graph):
        if color[root] != white:
            continue
        stack: list[tuple[Key, int]] = [(root, 0)]
        trail: list[Key] = []
        while stack:
            key, i = stack.pop()
            if i == 0:
                color[key] = grey
                trail.append(key)
            nexts = graph.get(key, [])
            if i < len(nexts):
                stack.append((key, i + 1))
                nxt = nexts[i]
                if color[nxt] == grey:
                    loop = trail[trail.index(nxt):] + [nxt]
                    text = " -> ".join(f"{s}.{n}" for s, n in loop)
                    out.append(Problem(node_place(*key), f"the tree loops: {text}"))
                elif color[nxt] == white:
                    stack.append((nxt, 0))
            else:
                color[key] = black
                trail.pop()
    return out


def _check_question(rs: Ruleset, sid: str, nid: str, node: m.QuestionNode, node_place) -> list[Problem]:  # type: ignore[no-untyped-def]
    out: list[Problem] = []
    fact = rs.fact(node.ask, sid)
    here = node_place(sid, nid, "ask")
    if fact is None:
        return [Problem(here, f"fact '{node.ask}' is not defined (add it to facts.yaml or the situation's facts)")]
    if fact.type in ("seat", "seats", "number"):
        return [Problem(here, f"fact '{node.ask}' is a {fact.type}; a question can only branch on yes/no or a choice")]
    branches = node.branches()
    if fact.type == "yesno":
        if node.when or node.else_ is not None:
            out.append(Problem(here, f"'{node.ask}' is yes/no: branch with 'yes' and 'no', not 'when'/'else'"))
        for side in ("yes", "no"):
            if getattr(node, side) is None:
                out.append(Problem(here, f"question '{node.ask}' has no '{side}' answer"))
    else:
        assert fact.choices is not None
        if node.yes is not None or node.no is not None:
            out.append(Problem(here, f"'{node.ask}' is a choice: branch with 'when', not 'yes'/'no'"))
        for value in node.when or {}:
            if value not in fact.choices:
                out.append(Problem(node_place(sid, nid, "when", value), f"'{value}' is not a choice of '{node.ask}' ({', '.join(fact.choices)})"))
        missing = [c for c in fact.choices if c not in (node.when or {})]
        if missing and node.else_ is None:
            out.append(Problem(here, f"question '{node.ask}' has no answer for: {', '.join(missing)} (add them to 'when' or add 'else')"))
        if len(branches) < 2:
            out.append(Problem(here, f"question '{node.ask}' has fewer than two answers"))
    return out


def _check_fact(name: str, fact: m.FactDef, at) -> list[Problem]:  # type: ignore[no-untyped-def]
    """A number no answer can satisfy: the judge would be asked a question with no valid answer."""
    if fact.min is not None and fact.max is not None and fact.min > fact.max:
        return [Problem(at("min"), f"fact '{name}' has min {fact.min} above its max {fact.max}: no answer fits")]
    return []


def _check_ruling(rs: Ruleset, sid: str, nid: str, r: m.Ruling, node_place) -> list[Problem]:  # type: ignore[no-untyped-def]
    out: list[Problem] = []

    def at(*sub: object) -> Place:
        return node_place(sid, nid, "ruling", *sub)

    if not r.says.strip():  # the judge would read out nothing
        out.append(Problem(at("says"), f"ruling {r.id} says nothing; 'says' is what the judge reads out"))

    def need(name: str, kinds: tuple[str, ...], where: Place, what: str, groups: bool = False) -> None:
        if groups and name in m.GROUPS:
            return
        if (name in SCORING_NUMBERS or name in rs.scoring.penalties) and "number" in kinds:
            return
        fact = rs.fact(name, sid)
        if fact is None:
            out.append(Problem(where, f"{what} '{name}' is not a role or fact of '{sid}'"))
        elif fact.type not in kinds:
            out.append(Problem(where, f"{what} '{name}' is a {fact.type}, not a {' or '.join(kinds)}"))

    if not r.cite:
        out.append(Problem(at("id"), _no_cite(rs, sid, nid, r)))
    for i, c in enumerate(r.cite):
        if c.source not in rs.sources:
            out.append(Problem(at("cite", i), f"ruling '{r.id}' cites unknown source '{c.source}'"))
        else:
            missing = _unknown_sections(rs.sources[c.source], c.section)
            if missing:
                hint = difflib.get_close_matches(missing, rs.sources[c.source].sections, n=1, cutoff=0.5)
                also = f"; did you mean '{hint[0]}'?" if hint else ""
                out.append(Problem(at("cite", i), f"ruling '{r.id}' cites '{missing}', which is not a section of {c.source}{also}"))
    for i, text in enumerate([r.says, r.owed, *r.tiles, *r.procedure, *r.notes, *r.other_sources]):
        for name in PLACEHOLDER.findall(text):
            if name not in SCORING_NUMBERS and name not in rs.scoring.penalties and rs.fact(name, sid) is None:
                out.append(Problem(at("says"), f"'{{{name}}}' in the text is not a role or fact of '{sid}'"))
    for i, role in enumerate(r.dead):
        if role in r.dead[:i]:  # a hand whose seat is left open would be read out as dead twice
            out.append(Problem(at("dead", i), f"dead: '{role}' is listed twice"))
        elif role == "active":
            out.append(Problem(at("dead", i), "dead: 'active' names the players still in the game; "
                               "use 'others' for every hand but the ones listed"))
        elif role == "others" and not [n for n in r.dead if n not in m.GROUPS]:
            out.append(Problem(at("dead", i), "dead: 'others' needs a role beside it (every hand but whose?)"))
        else:
            need(role, ("seat", "seats"), at("dead", i), "dead", groups=True)
    money = rs.scoring.kind == "money"
    for i, t in enumerate(r.pay):
        need(t.from_, ("seat",), at("pay", i, "from"), "payer", groups=True)
        need(t.to, ("seat", "seats"), at("pay", i, "to"), "payee", groups=True)
        if t.of:
            need(t.of, ("number",), at("pay", i, "of"), "'of'")
        if t.from_ == t.to:
            out.append(Problem(at("pay", i), f"'{t.from_}' cannot pay itself: the payment cannot balance"))
        if t.from_ in m.GROUPS and t.to in m.GROUPS:
            out.append(Problem(at("pay", i), "a payment from a group to a group names nobody: name a role on one side"))
    if r.pay and not money:
        out.append(Problem(at("pay"), f"ruleset '{rs.id}' scores points: use 'points', not 'pay'"))
    if not money:
        for key, text in [("says", r.says), ("owed", r.owed), *(("tiles", t) for t in r.tiles), *(("procedure", t) for t in r.procedure)]:
            said = MONEY_TEXT.search(" ".join(text.split()))
            if said:
                out.append(Problem(at(key), f"ruling {r.id} says '{said.group(0)}', but ruleset '{rs.id}' scores points: "
                                   "its text must say what the points say (re-rule it in this ruleset)"))
    for i, a in enumerate(r.points):
        need(a.to, ("seat", "seats"), at("points", i, "to"), "points for", groups=True)
        if a.of:
            need(a.of, ("number",), at("points", i, "of"), "'of'")
    if r.settle:
        need(r.settle.winner, ("seat",), at("settle", "winner"), "winner")
        if r.settle.discarder:
            need(r.settle.discarder, ("seat",), at("settle", "discarder"), "discarder")
        if r.settle.bettor and r.settle.bettor != m.WALL_BET:
            need(r.settle.bettor, ("seat",), at("settle", "bettor"), "bettor")
        need(r.settle.value, ("number",), at("settle", "value"), "value")
    return out


def _no_cite(rs: Ruleset, sid: str, nid: str, r: m.Ruling) -> str:
    """What to write when a ruling cites nothing. A group's own rule rests on no book, so its
    author needs to be told the rules themselves are the source, and how to say so."""
    origin = rs.node_origin.get((sid, nid)) or rs.situation_origin.get(sid)
    own = origin is not None and rs.meta.extends is not None and Path(origin.path).resolve().is_relative_to(rs.folder)
    if not own:
        return f"ruling '{r.id}' cites no source"
    key = next((k for k, src in rs.sources.items() if k not in _base_sources(rs)), None)
    if key:
        return f"ruling '{r.id}' cites no source: a house rule cites your own rules, e.g. cite: \"{key}: {r.id}\""
    return (f"ruling '{r.id}' cites no source: a house rule cites your own rules; add to ruleset.yaml "
            f"sources: {{HOUSE: {{title: \"{rs.meta.title}\"}}}} and here cite: \"HOUSE: {r.id}\"")


def _base_sources(rs: Ruleset) -> set[str]:
    from ..rules.loader import load

    try:
        base, _ = load(rs.meta.extends or "", near=rs.folder)
    except Exception:  # noqa: BLE001  (a base that does not load is reported on its own)
        return set()
    return set(base.sources) if base else set()


def _check_dead_text(rs: Ruleset, sid: str, r: m.Ruling, at) -> list[Problem]:  # type: ignore[no-untyped-def]
    """A ruling whose text says a hand is dead lists that hand in `dead`, or the Dead hands line says none."""
    out: list[Problem] = []
    claims = dead_claims(r.says)
    for claim in claims:
        for name in claim.names:
            fact = rs.fact(name, sid)
            if fact is not None and fact.type in ("seat", "seats") and name not in r.dead:
                out.append(Problem(at("dead" if r.dead else "says"), f"ruling '{r.id}' says {{{name}}} is dead; add '{name}' to 'dead'"))
    if claims and not r.dead and not out:
        out.append(Problem(at("says"), f"ruling '{r.id}' says a hand is dead (\"{claims[0].clause}\") but 'dead' names nobody"))
    return out


def _check_may_also_be(rs: Ruleset, sid: str, sit_place) -> list[Problem]:  # type: ignore[no-untyped-def]
    """`may_also_be` names seat roles or seat facts the situation knows (a typo would silently refuse a real case)."""
    sit = rs.situations[sid]
    out: list[Problem] = []
    for section, defs in (("roles", sit.roles), ("facts", sit.facts)):
        for name, d in defs.items():
            for other in d.may_also_be:
                fact = rs.fact(other, sid)
                if fact is None or fact.type not in ("seat", "seats"):
                    out.append(Problem(sit_place(sid, section, name, "may_also_be"),
                                       f"may_also_be: '{other}' is not a seat role or seats fact of '{sid}'"))
    return out


def _check_recite(rs: Ruleset) -> list[Problem]:
    """Each `recite` entry names sources the ruleset has, and sections they list."""
    out: list[Problem] = []
    for i, rc in enumerate(rs.meta.recite):
        where = rs.meta_origin.place("recite", i) if rs.meta_origin else Place(str(rs.folder), 1, 1)
        key, _, section = rc.from_.partition(":")
        for c in [m.Cite(source=key.strip(), section=section.strip()), *rc.to]:
            if c.source not in rs.sources:
                out.append(Problem(where, f"recite names unknown source '{c.source}'"))
            elif missing := _unknown_sections(rs.sources[c.source], c.section):
                out.append(Problem(where, f"recite names '{missing}', which is not a section of {c.source}"))
    return out


def unlisted_sections(rs: Ruleset) -> dict[str, set[str]]:
    """Source key -> the sections rulings cite from it, for each cited source that lists no
    `sections:` (its citations cannot be checked: a single column or letter, or a guide whose
    headings nobody has listed yet)."""
    out: dict[str, set[str]] = {}
    for sit in rs.situations.values():
        for node in sit.nodes.values():
            if isinstance(node, m.RulingNode):
                for c in node.ruling.cite:
                    source = rs.sources.get(c.source)
                    if c.section and source is not None and not source.sections:
                        out.setdefault(c.source, set()).add(c.section)
    return out


def _unknown_sections(source: m.Source, section: str) -> str:
    """The first part of a cited section ('A; B', each maybe followed by '(what it says)') that is
    none of the headings the source lists; '' when all are, or when it lists none."""
    if not source.sections or not section:
        return ""
    known = [h.casefold() for h in source.sections]
    for part in (p.strip() for p in section.split(";")):
        bare = part.casefold()
        if not any(bare == h or bare.startswith(h + " (") for h in known):
            return part
    return ""
