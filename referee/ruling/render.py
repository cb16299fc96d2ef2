"""Outcomes as plain text lines and as the JSON document of `rule --json`. No terminal here."""
from __future__ import annotations

import re
from typing import Any

from .. import __version__
from .outcome import Outcome
from ..rules.loader import Ruleset
from .scoring import Party

GAME_TEXT = {
    "continues": "Play continues.",
    "ends": "The game ends; the next game is dealt by the next East.",
    "replay": "The game is replayed: reshuffle, rebuild the walls, same East, Charleston again.",
    "redeal": "The hand is thrown in and the same dealer deals again.",
}


def describe(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(map(str, value))
    return "left open" if value is None else str(value)


def party_json(p: Party) -> dict[str, Any]:
    """A seat as data: `seat` is null while the role is left open (or names a group)."""
    return {"seat": p.seat, "role": p.role, "name": p.name}


def outcome_json(o: Outcome) -> dict[str, Any]:
    rs = o.ruleset
    doc = _ruling_json(o)
    if o.before:  # the rulings the case went on from, first first; the document's own ruling is the last
        doc["before"] = [
            {key: value for key, value in _ruling_json(b).items() if key not in ("referee_version", "ruleset", "path", "facts")}
            | {"situation": {"id": b.situation, "title": rs.situations[b.situation].title}}
            for b in o.before
        ]
    return doc


def _ruling_json(o: Outcome) -> dict[str, Any]:
    rs = o.ruleset
    return {
        "referee_version": __version__,
        "ruleset": {"id": rs.id, "version": rs.meta.version, "hash": rs.hash},
        "situation": {"id": o.start, "title": rs.situations[o.start].title, "ruled_in": o.situation},
        "path": [
            {"fact": s.fact, "question": (rs.fact(s.fact, s.situation).ask if rs.fact(s.fact, s.situation) else ""),
             "answer": s.answer, "situation": s.situation} | ({"from": "story"} if s.fact in o.told else {})
            for s in o.path
        ],
        "facts": o.facts,
        **({"from_story": sorted(o.told)} if o.told else {}),  # answered from the story, not asked
        "ruling": {
            "id": o.ruling.id,
            "text": o.text,
            "cite": [{"source": c.source, "section": c.section, "url": rs.sources[c.source].url if c.source in rs.sources else None}
                     for c in o.ruling.cite],
        },
        "dead": [party_json(p) for p in o.dead],
        "game": o.game,
        "payments": [
            {"from": party_json(p.payer), "to": party_json(p.payee), "amount": p.amount,
             "formula": p.formula, "text": p.text}
            for p in o.payments
        ],
        "points": [{"to": party_json(a.party), "points": a.points, "formula": a.formula} for a in o.awards],
        "unit": rs.scoring.unit,
        "settlement": o.settle_lines,
        "owed": o.owed,
        "tiles": o.tiles,
        "procedure": o.procedure,
        "notes": o.notes,
        "other_sources": o.other_sources,
        **({"house": o.house} if o.house else {}),
        **({"customs": [u.id for u in customs_applied(o)]} if o.ruleset.meta.customs else {}),
        **({"card": o.card} if o.card is not None else {}),
    }


def cite_text(rs: Ruleset, o: Outcome) -> list[str]:
    lines = []
    for c in o.ruling.cite:
        source = rs.sources.get(c.source)
        title = f" ({source.title})" if source else ""
        lines.append(f"{c}{title}")
    return lines


def earlier_lines(o: Outcome, full: bool = False) -> list[tuple[str, list[str]]]:
    """A ruling the case went on from (`then`): what it says, whose hands it kills, what happens
    to the tiles and the steps; with `full`, its notes and citations too. The game and the
    payments are the last ruling's."""
    sections: list[tuple[str, list[str]]] = [("", [o.text])]
    if o.dead:
        sections.append(("Dead hands", [", ".join(p.label for p in o.dead)]))
    if o.tiles:
        sections.append(("Tiles and jokers", o.tiles))
    if o.procedure:
        sections.append(("Procedure", [f"{i}. {s}" for i, s in enumerate(o.procedure, 1)]))
    if full:
        sections += details(o)
    else:
        sections.append(("Rule", [", ".join(rule_keys(o))]))
    return sections


def verdict_lines(o: Outcome) -> list[tuple[str, list[str]]]:
    """What the judge reads out, in order: the ruling, who is dead, what happens to the game, who
    pays whom how much (or scores), then the tiles and the steps to take. No notes, no citations:
    they follow on request (`details`), so the verdict stays on one screen of a phone."""
    rs = o.ruleset
    sections: list[tuple[str, list[str]]] = [("", [o.text])]
    if o.evidence:  # answered from tiles: the card line (or the reason) the ruling rests on
        sections.append(("Card", o.evidence))
    sections.append(("Dead hands", [", ".join(p.label for p in o.dead)] if o.dead else ["none"]))
    sections.append(("Game", [GAME_TEXT[o.game]]))
    if o.payments:
        sections.append((f"Payments ({rs.scoring.unit})", [p.text for p in o.payments]))
    elif o.owed:
        sections.append(("Points" if rs.scoring.kind == "points" else "Payments", [o.owed]))
    elif o.game != "continues" and not o.awards:
        # only a ruling that decides there is nothing to pay gets here (tests/test_leaf_texts.py)
        sections.append(("Points", ["nobody scores by this ruling"]) if rs.scoring.kind == "points"
                        else ("Payments", ["nobody pays"]))
    if o.awards:
        sections.append(("Points", [f"{a.party.label}: {a.formula}" for a in o.awards]))
    if o.house:
        sections.append(("Your table's rules", list(dict.fromkeys(o.house))))
    if o.tiles:
        sections.append(("Tiles and jokers", o.tiles))
    if o.procedure:
        sections.append(("Procedure", [f"{i}. {s}" for i, s in enumerate(o.procedure, 1)]))
    return sections


def customs_applied(o: Outcome) -> list[Any]:
    """The table customs (a house ruleset's `customs:`) that made this ruling what it is: those
    whose rulings it is, and those whose money rules acted in its payments."""
    rulings = {o.ruling.id, *(b.ruling.id for b in o.before)}
    return [u for u in o.ruleset.meta.customs
            if rulings & set(u.rulings) or set(u.scoring) & set(o.house_keys)]


def customs_text(o: Outcome) -> list[str]:
    lines = []
    for u in customs_applied(o):
        key = u.cite.split(":", 1)[0].strip()
        source = o.ruleset.sources.get(key)
        lines.append(f"{u.says} (your table's custom '{u.id}'; source: {u.cite}" + (f", {source.title}" if source else "") + ")")
    return lines


def rule_keys(o: Outcome) -> list[str]:
    """The sources the ruling rests on, each key once, in the order cited: the verdict's one line."""
    return list(dict.fromkeys(c.source for c in o.ruling.cite))


def split_notes(o: Outcome) -> tuple[list[str], list[str]]:
    """(the ruling's own notes, what other sources hold), as the ruleset files them: a note that
    reports another source's rule is written under the ruling's `other_sources:`, so it is shown
    apart, after the verdict, and never read as part of the ruling."""
    return o.notes, o.other_sources


def details(o: Outcome) -> list[tuple[str, list[str]]]:
    """What `--full` adds after the verdict: the arithmetic, notes, other sources, citations."""
    sections: list[tuple[str, list[str]]] = []
    if o.settle_lines:
        sections.append(("Arithmetic", o.settle_lines))
    own, others = split_notes(o)
    if own:
        sections.append(("Notes", own))
    if others:
        sections.append(("Other sources", others))
    if o.ruling.cite:  # a house rule may cite nothing (check says how to); no empty heading
        sections.append(("Rule", cite_text(o.ruleset, o)))
    customs = customs_text(o)
    if customs:
        sections.append(("House custom" if len(customs) == 1 else "House customs", customs))
    return sections


def more_text(o: Outcome) -> str:
    """What `details` holds, counted: '2 notes and 3 citations'."""
    parts = []
    if o.settle_lines:
        parts.append("the arithmetic")
    n = len(o.notes) + len(o.other_sources)
    if n:
        parts.append(f"{n} note{'s' if n != 1 else ''}")
    n = len(o.ruling.cite)
    if n:
        parts.append(f"{n} citation{'s' if n != 1 else ''}")
    return ", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + (parts[-1] if parts else "")


def outcome_lines(o: Outcome) -> list[tuple[str, list[str]]]:
    """Every section of a ruling for the terminal, in the order a judge reads them out."""
    return verdict_lines(o) + details(o)


def ruling_text(o: Outcome) -> str:
    """The whole ruling as plain text, one line a paragraph or item and never wrapped: what the
    log keeps, so `log show` wraps it to whatever screen reads it later."""
    from ..safe import clean

    rs = o.ruleset
    title = rs.situations[o.situation].title
    if o.situation != o.start:
        title += f" (reached from: {rs.situations[o.start].title})"
    lines = [f"Ruling {o.ruling.id}  {title}"]
    for heading, items in outcome_lines(o):
        if not heading:
            lines += items
        elif len(items) == 1 and not re.match(r"\d+\. ", items[0]):
            lines.append(f"{heading}: {items[0]}")
        else:
            lines += [f"{heading}:", *(f"  {item}" for item in items)]
    lines.append(f"ruleset {rs.id} {rs.label}")
    return "".join(clean(line) + "\n" for line in lines)


GAME_WORDS = {"continues": "play continues", "ends": "the game ends", "replay": "the game is replayed",
              "redeal": "the hand is redealt"}


def _in_words(rs: Ruleset, sid: str, text: str) -> str:
    """A ruling's text as read with every seat open: '{declarer}' is 'the declarer'."""
    from .outcome import _Binder

    return _Binder(rs, sid, {}, {}).fill(text) if "{" in text else text


def _who_words(rs: Ruleset, sid: str, role: str) -> str:
    """A role as the rulings name it while its seat is open: 'the picker', 'each other player'."""
    from ..rules.records import GROUPS

    if role in GROUPS:
        return "every other hand"
    defined = rs.situations[sid].roles.get(role) if sid in rs.situations else None
    return defined.label if defined is not None and defined.label else "the " + role.replace("_", " ")


def _answer_words(fact: Any, value: str) -> str:
    """A branch's answer as `-a` takes it, with the choice's own words: a script written from
    `show` passes exactly the value it reads."""
    if value == "else":
        return "any other answer"
    if fact is not None and fact.choices and value in fact.choices:
        return f"{value} ({fact.choices[value]})"
    return value


def _prompt_order(fact: Any, branches: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
    """A question's branches in the order the prompt offers its answers (choices as defined,
    yes before no), the catch-all last."""
    order = list(fact.choices) if fact is not None and fact.choices else ["yes", "no"]
    return sorted(branches, key=lambda b: order.index(b[0]) if b[0] in order else len(order))


def _goto_words(rs: Ruleset, goto: str) -> str:
    there = rs.situations.get(goto)
    return f"go on in '{there.title}' ({goto})" if there is not None else f"go on in {goto}"


def tree_lines(rs: Ruleset, sid: str) -> list[str]:
    """A situation's tree as indented text, in words: each question as asked, each answer as
    chosen as `-a` takes it, in the prompt's order, each ruling in full with its seats open ('the
    declarer'). A question names its fact as `-a` does ("tile_racked="); a node's id closes its
    line in brackets ("[node racked]"), for an overlay's `patch:`. A question or ruling two
    branches share is printed once and pointed back to."""
    from ..rules import records as k

    sit = rs.situation(sid)
    out = [f"{sit.id}: {sit.title}", f"  {sit.summary}", ""]
    seen: set[str] = set()
    # an explicit stack, not recursion: a chain of a thousand questions must still print
    todo: list[tuple[str, str, str] | str] = [(sit.start, "  ", "")]  # a node to print, or a finished line
    while todo:
        item = todo.pop()
        if isinstance(item, str):
            out.append(item)
            continue
        nid, pad, label = item
        prefix, inner = pad + (f"{label}: " if label else ""), pad  # inner: where its answers go
        if len(label) > 20:  # a long answer on a line of its own, what follows under it
            out.append(f"{pad}{label}:")
            prefix = inner = pad + "  "
        n = sit.nodes.get(nid)
        if n is None:
            out.append(f"{prefix}?? missing node '{nid}'")
            continue
        if isinstance(n, k.GotoNodeKind):
            out.append(f"{prefix}{_goto_words(rs, n.goto)}  [node {nid}]")
            continue
        if nid in seen:  # printed once in full; here pointed back to
            if isinstance(n, k.RulingNodeKind):
                out.append(f"{prefix}{n.ruling.id}, as above  [node {nid}]")
            else:
                fact = rs.fact(n.ask, sid)
                out.append(f"{prefix}? {fact.ask if fact else n.ask} (as above)  {n.ask}=  [node {nid}]")
            continue
        seen.add(nid)
        if isinstance(n, k.RulingNodeKind):
            r = n.ruling
            dead = f" · dead: {', '.join(_who_words(rs, sid, d) for d in r.dead)}" if r.dead else ""
            says = " ".join(_in_words(rs, sid, r.says).split())
            out.append(f"{prefix}{r.id} · {GAME_WORDS.get(r.game, r.game)}{dead} · {says}  [node {nid}]")
            if r.then is not None and r.then.goto == sid and r.then.at:  # the case goes on here: its questions under it
                todo.append((r.then.at, inner + "  ", "then"))
            elif r.then is not None:
                out.append(f"{inner}  then: {_goto_words(rs, r.then.goto)}")
            continue
        fact = rs.fact(n.ask, sid)
        out.append(f"{prefix}? {fact.ask if fact else n.ask}  {n.ask}=  [node {nid}]")
        later: list[tuple[str, str, str] | str] = []
        for value, target in _prompt_order(fact, list(n.branches())):
            words = _answer_words(fact, value)
            if isinstance(target, k.GotoKind):
                later.append(f"{inner}  {words}: {_goto_words(rs, target.goto)}")
            else:
                later.append((target, inner + "  ", words))
        todo.extend(reversed(later))
    return out


def fact_table(rs: Ruleset, sid: str) -> list[dict[str, Any]]:
    """Every fact a script can answer for this situation (and those it goes on into), in the
    order they are met: its question, the values `-a` takes (in the prompt's order), and when
    it is asked: at a question of the tree, or at a ruling to name a seat or an amount."""
    from ..rules import records as k
    from .answers import example
    from .engine import details as needs

    found: dict[str, dict[str, Any]] = {}

    def note(name: str, where: str, when: str) -> None:
        d = rs.fact(name, where)
        if d is None:
            return
        entry = found.get(name)
        if entry is None:
            values = (list(d.choices or {}) if d.type == "choice" else ["yes", "no"] if d.type == "yesno"
                      else ["East", "South", "West", "North"] if d.type in ("seat", "seats") else [])
            entry = found[name] = {"fact": name, "question": d.ask, "type": d.type, "values": values,
                                   "example": example(d), "situation": where, "asked": []}
            if d.type == "choice":
                entry["labels"] = dict(d.choices or {})
            if d.type in ("seats", "number"):
                entry |= {k: v for k, v in (("min", d.min), ("max", d.max), ("multiple_of", d.multiple_of)) if v is not None}
        if when not in entry["asked"]:
            entry["asked"].append(when)

    todo, seen = [sid], set()
    while todo:
        here = todo.pop(0)
        sit = rs.situations.get(here)
        if sit is None or here in seen:
            continue
        seen.add(here)
        for nid, node in sit.nodes.items():
            if isinstance(node, k.QuestionNodeKind):
                note(node.ask, here, f"question {here}/{nid}")
                todo += [t.goto for _, t in node.branches() if isinstance(t, k.GotoKind)]
            elif isinstance(node, k.GotoNodeKind):
                todo.append(node.goto)
            elif isinstance(node, k.RulingNodeKind):
                always = {name for name, _ in needs(rs, here, node.ruling)}
                for name, _ in needs(rs, here, node.ruling, {"jokerless": "yes"}):  # some only then
                    note(name, here, f"ruling {node.ruling.id}" + ("" if name in always else " (when jokerless=yes)"))
                if node.ruling.then and isinstance(node.ruling.then, k.GotoKind):
                    todo.append(node.ruling.then.goto)
    return list(found.values())


def dot_text(text: str) -> str:
    """Text safe inside a DOT double-quoted string: a trailing backslash cannot eat the quote."""
    flat = " ".join(str(text).split())  # no line breaks or control characters in a label
    return "".join(c for c in flat if c.isprintable()).replace("\\", "\\\\").replace('"', '\\"')


# `$` as well: Mermaid renders a label's `$$...$$` as KaTeX mathematics.
_MERMAID_ENTITIES = {c: f"#{ord(c)};" for c in '"#&<>|`[]{}()$'}


def mermaid_text(text: str) -> str:
    """Text safe as a Mermaid label: quotes, pipes, brackets and markup become entity codes."""
    flat = " ".join(str(text).split())
    return "".join(_MERMAID_ENTITIES.get(c, c) for c in flat if c.isprintable())


def tree_graph(rs: Ruleset, sid: str, fmt: str) -> str:
    """Mermaid or Graphviz dot text of a situation's tree.

    Every name and label from the ruleset is escaped; node ids are ours (n0, g0), never the
    ruleset's, so nothing an author writes can close a string or start a statement.
    """
    from ..rules import records as k

    sit = rs.situation(sid)
    mermaid = fmt == "mermaid"
    esc = mermaid_text if mermaid else dot_text
    ids = {nid: f"n{i}" for i, nid in enumerate(sit.nodes)}
    gotos: dict[str, str] = {}
    lines: list[str] = []

    def box(gid: str, label: str, kind: str) -> None:
        if mermaid:
            shape = {"question": ('{"', '"}'), "goto": ('(["', '"])')}.get(kind, ('["', '"]'))
            lines.append(f"  {gid}{shape[0]}{esc(label)}{shape[1]}")
        else:
            shape = {"question": "diamond", "goto": "oval"}.get(kind, "box")
            lines.append(f'  {gid} [shape={shape}, label="{esc(label)}"];')

    def edge(a: str, b: str, label: str) -> None:
        lines.append(f"  {a} -->|{esc(label)}| {b}" if mermaid else f'  {a} -> {b} [label="{esc(label)}"];')

    for nid, n in sit.nodes.items():
        if isinstance(n, k.RulingNodeKind):
            label = f"{n.ruling.id}: game {n.ruling.game}" + (f", dead {', '.join(n.ruling.dead)}" if n.ruling.dead else "")
            box(ids[nid], label, "ruling")
        elif isinstance(n, k.GotoNodeKind):
            box(ids[nid], f"goto {n.goto}", "ruling")
        else:
            fact = rs.fact(n.ask, sid)
            box(ids[nid], fact.ask if fact else n.ask, "question")
    for nid, n in sit.nodes.items():
        if not isinstance(n, k.QuestionNodeKind):
            continue
        for value, target in n.branches():
            if isinstance(target, k.GotoKind):
                if target.goto not in gotos:
                    gotos[target.goto] = f"g{len(gotos)}"
                    box(gotos[target.goto], f"goto {target.goto}", "goto")
                edge(ids[nid], gotos[target.goto], value)
            elif target in ids:
                edge(ids[nid], ids[target], value)
    if mermaid:
        return "flowchart TD\n" + "\n".join(lines)
    return f'digraph "{esc(sit.id)}" {{\n' + "\n".join(lines) + "\n}"
