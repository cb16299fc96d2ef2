"""The pure heart of referee: facts in, the next question or the ruling out.

No I/O and no terminal: the interactive prompt, `--answer`, answer files and scenario
replay all call `advance` with the facts known so far.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from . import model as m
from .errors import RefereeError, UsageError
from .loader import Ruleset
from .scoring import Party, Payment, standard

PLACEHOLDER = re.compile(r"\{([a-z][a-z0-9_]*)\}")
MAX_STEPS = 500  # far beyond any real tree; guards a cycle the lint would have reported
UNKNOWN = None  # a detail fact the judge chose to leave open: amounts stay symbolic


@dataclass(frozen=True)
class Question:
    fact: str
    definition: m.FactDef
    situation: str
    node: str | None  # None for a detail asked after the ruling is known
    optional: bool = False  # a detail (seat of a role, a hand value) may be left unknown


@dataclass(frozen=True)
class Step:
    situation: str
    node: str
    fact: str
    answer: Any


@dataclass(frozen=True)
class Award:
    party: Party
    points: int | None
    formula: str


@dataclass
class Outcome:
    ruleset: Ruleset
    start: str
    situation: str
    node: str
    ruling: m.Ruling
    path: list[Step]
    facts: dict[str, Any]
    text: str
    dead: list[Party]
    payments: list[Payment]
    awards: list[Award]
    tiles: list[str]
    procedure: list[str]
    notes: list[str]
    settle_lines: list[str] = field(default_factory=list)

    @property
    def game(self) -> str:
        return self.ruling.game


def branch(node: m.QuestionNode, value: Any) -> m.Target | None:
    key = str(value)
    if key == "yes" and node.yes is not None:
        return node.yes
    if key == "no" and node.no is not None:
        return node.no
    if node.when and key in node.when:
        return node.when[key]
    return node.else_


def walk(rs: Ruleset, sid: str, facts: dict[str, Any]) -> Question | tuple[str, str, list[Step]]:
    """Follow the tree as far as the facts allow: the first unanswered question, or the leaf."""
    rs.situation(sid)
    cur, nid = sid, rs.situations[sid].start
    path: list[Step] = []
    for _ in range(MAX_STEPS):
        sit = rs.situations.get(cur)
        if sit is None or nid not in sit.nodes:
            raise RefereeError(f"ruleset '{rs.id}': '{cur}' has no node '{nid}' (run 'referee check')")
        node = sit.nodes[nid]
        target: m.Target | None
        if isinstance(node, m.RulingNode):
            return cur, nid, path
        if isinstance(node, m.GotoNode):
            target = m.Goto(goto=node.goto, at=node.at)
        else:
            fact = node.ask
            definition = rs.fact(fact, cur)
            if definition is None:
                raise RefereeError(f"ruleset '{rs.id}': fact '{fact}' is not defined (run 'referee check')")
            if facts.get(fact) is UNKNOWN:
                return Question(fact, definition, cur, nid)
            path.append(Step(cur, nid, fact, facts[fact]))
            target = branch(node, facts[fact])
            if target is None:
                raise UsageError(f"{fact}: '{facts[fact]}' leads nowhere in '{cur}' (run 'referee check')")
        if isinstance(target, m.Goto):
            cur = target.goto
            if cur not in rs.situations:
                raise RefereeError(f"ruleset '{rs.id}': goto to unknown situation '{cur}' (run 'referee check')")
            nid = target.at or rs.situations[cur].start
        else:
            nid = target
    raise RefereeError(f"ruleset '{rs.id}': the tree of '{sid}' does not end (run 'referee check')")


def _base_names(ruling: m.Ruling) -> list[str]:
    """Every fact a ruling refers to, in the order a judge meets them."""
    names: list[str] = []
    texts = [ruling.says, *ruling.tiles, *ruling.procedure, *ruling.notes]
    for text in texts[:1]:
        names += PLACEHOLDER.findall(text)
    names += ruling.dead
    for t in ruling.pay:
        names += [t.from_, t.to] + ([t.of] if t.of else [])
    if ruling.settle:
        s = ruling.settle
        names += [s.winner] + ([s.discarder] if s.discarder else []) + [s.value, "jokerless"]
    for a in ruling.points:
        names += [a.to] + ([a.of] if a.of else [])
    for text in texts[1:]:
        names += PLACEHOLDER.findall(text)
    seen: list[str] = []
    for n in names:
        if n not in seen and n not in m.GROUPS and n != "lowest_hand":
            seen.append(n)
    return seen


def details(rs: Ruleset, sid: str, ruling: m.Ruling) -> list[tuple[str, m.FactDef]]:
    """The facts a ruling needs to name seats and amounts (roles, hand values)."""
    out = []
    for name in _base_names(ruling):
        definition = rs.fact(name, sid)
        if definition is not None:
            out.append((name, definition))
    return out


def advance(rs: Ruleset, sid: str, facts: dict[str, Any], players: dict[str, str] | None = None) -> Question | Outcome:
    """The next thing to ask, or the finished outcome. `facts` maps fact -> value (None = left open)."""
    reached = walk(rs, sid, facts)
    if isinstance(reached, Question):
        return reached
    cur, nid, path = reached
    node = rs.situations[cur].nodes[nid]
    assert isinstance(node, m.RulingNode)
    for name, definition in details(rs, cur, node.ruling):
        if name not in facts:
            return Question(name, definition, cur, None, optional=True)
    return build_outcome(rs, sid, cur, nid, node.ruling, path, facts, players or {})


class _Binder:
    """Roles and facts as the ruling text and the payments need them."""

    def __init__(self, rs: Ruleset, sid: str, facts: dict[str, Any], players: dict[str, str]) -> None:
        self.rs, self.sid, self.facts, self.players = rs, sid, facts, players

    def parties(self, role: str) -> list[Party]:
        value = self.facts.get(role)
        if isinstance(value, list):
            return [Party(role, s, self.players.get(s)) for s in value]
        return [Party(role, value, self.players.get(value) if value else None)]

    def number(self, name: str) -> int | None:
        if name == "lowest_hand":
            return self.rs.scoring.lowest_hand
        value = self.facts.get(name)
        return value if isinstance(value, int) else None

    def fill(self, text: str) -> str:
        def one(match: re.Match[str]) -> str:
            name = match.group(1)
            if name == "lowest_hand":
                return str(self.rs.scoring.lowest_hand)
            definition = self.rs.fact(name, self.sid)
            value = self.facts.get(name)
            if definition is not None and definition.type in ("seat", "seats"):
                return " and ".join(p.label for p in self.parties(name))
            if value is None:
                return "the " + name.replace("_", " ")
            return str(value)

        def at_sentence_start(match: re.Match[str]) -> str:
            word = one(match)
            before = text[: match.start()].rstrip()
            return word[:1].upper() + word[1:] if not before or before[-1] in ".!?:" else word

        return PLACEHOLDER.sub(at_sentence_start, text)


def _formula(times: int, of: str | None, amount: int | None) -> str:
    if amount is not None:
        return str(amount)
    what = "the lowest hand on the card" if of == "lowest_hand" else "the " + str(of).replace("_", " ")
    return what if times == 1 else f"{times} x {what}"


def _expand(group: str, other: list[Party], dead: set[str], b: _Binder) -> list[Party]:
    """'others' / 'active' as seats, relative to the party on the other side of the payment."""
    anchor = [p.seat for p in other]
    if any(s is None for s in anchor):
        return [Party(group)]
    skip = set(anchor) | (dead if group == "active" else set())
    return [Party(group, s, b.players.get(s)) for s in m.SEATS if s not in skip]


def build_outcome(
    rs: Ruleset, start: str, sid: str, nid: str, ruling: m.Ruling, path: list[Step],
    facts: dict[str, Any], players: dict[str, str],
) -> Outcome:
    b = _Binder(rs, sid, facts, players)
    dead = [p for role in ruling.dead for p in b.parties(role)]
    dead_seats = {p.seat for p in dead if p.seat}
    payments: list[Payment] = []
    for t in ruling.pay:
        payers = b.parties(t.from_) if t.from_ not in m.GROUPS else None
        payees = b.parties(t.to) if t.to not in m.GROUPS else None
        if payers is None:
            payers = _expand(t.from_, payees or [], dead_seats, b)
        if payees is None:
            payees = _expand(t.to, payers, dead_seats, b)
        base = b.number(t.of) if t.of else t.amount
        amount = base * t.times if base is not None else None
        formula = _formula(t.times, t.of, t.amount)
        if amount is not None and t.of:
            formula = f"{t.times} x {base}" if t.times != 1 else str(base)
        for payer in payers:
            for payee in payees:
                if payer.seat and payer.seat == payee.seat:
                    raise UsageError(
                        f"{payer.role} and {payee.role} are both {payer.seat}; one seat cannot pay itself"
                    )
                payments.append(Payment(payer, payee, amount, formula))
    settle_lines: list[str] = []
    if ruling.settle:
        payments += _settle(rs, ruling.settle, b, settle_lines)
    awards: list[Award] = []
    for a in ruling.points:
        targets = b.parties(a.to) if a.to not in m.GROUPS else _expand(a.to, [], dead_seats, b)
        base = b.number(a.of) if a.of else a.points
        value = base * a.times if base is not None else None
        for party in targets:
            awards.append(Award(party, value, _formula(a.times, a.of, a.points) if value is None else str(value)))
    return Outcome(
        ruleset=rs, start=start, situation=sid, node=nid, ruling=ruling, path=path, facts=dict(facts),
        text=b.fill(ruling.says), dead=dead, payments=payments, awards=awards,
        tiles=[b.fill(t) for t in ruling.tiles], procedure=[b.fill(t) for t in ruling.procedure],
        notes=[b.fill(t) for t in ruling.notes], settle_lines=settle_lines,
    )


def _settle(rs: Ruleset, s: m.Settle, b: _Binder, lines: list[str]) -> list[Payment]:
    winner = b.parties(s.winner)[0]
    discarder = b.parties(s.discarder)[0] if s.discarder else None
    value = b.number(s.value)
    jokerless = b.facts.get("jokerless") == "yes"
    singles = b.facts.get("singles_and_pairs") == "yes"
    if winner.seat and (discarder is None or discarder.seat) and value is not None:
        if discarder and discarder.seat == winner.seat:
            raise UsageError(f"{s.winner} and {s.discarder} are both {winner.seat}; a winner cannot discard to herself")
        result = standard(rs.scoring, winner=winner.seat, how=s.how, value=value,
                          discarder=discarder.seat if discarder else None,
                          jokerless=jokerless, singles_and_pairs=singles, names=b.players)
        lines.extend(result.lines)
        return [Payment(p.payer, p.payee, p.amount, p.formula) for p in result.payments]
    sc = rs.scoring
    factor = sc.jokerless_times if jokerless and not singles else 1
    v = "the hand value" if value is None else str(value)

    def times(n: int) -> str:
        return f"{n * factor} x {v}" if value is None else str(n * factor * value)

    if s.how == "discard":
        assert discarder is not None
        return [
            Payment(discarder, winner, None, times(sc.discarder_times)),
            Payment(Party("others"), winner, None, times(sc.others_times) + " (each other player)"),
        ]
    return [Payment(Party("others"), winner, None, times(sc.self_pick_times))]
