"""What a ruling does to the table: roles filled in with seats and names, the dead hands, the
payments or points (by the ruling's own transfers or the standard schedule), and the text.

The engine walks the tree and decides which ruling applies; this module only builds the
outcome of that ruling from the facts. Pure, like the engine.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, NamedTuple

from ..rules import records as k
from ..errors import UsageError
from ..rules.records import SCORING_NUMBERS  # noqa: F401 (lowest_hand, wall_game_points ...: numbers a ruling may name in `of:` or `{...}`)
from ..rules.ruleset import Ruleset
from .scoring import Party, Payment, points as score_points, standard
from ..rules.memo import keep

PLACEHOLDER = re.compile(r"\{([a-z][a-z0-9_]*)\}")

if TYPE_CHECKING:  # a ruleset holds models, or records read the same way (`records`)
    from ..rules import model as m


class Step(NamedTuple):  # a NamedTuple, not a frozen dataclass: see errors.Place
    situation: str
    node: str
    fact: str
    answer: Any


class Award(NamedTuple):
    party: Party
    points: int | None
    formula: str


class Outcome:
    """The ruling as it falls at this table. A plain class, not a dataclass: a dataclass compiles its
    methods from source as it is defined, and a ruling pays for that before it says a word."""

    def __init__(self, ruleset: Ruleset, start: str, situation: str, node: str, ruling: m.Ruling, path: list[Step],
                 facts: dict[str, Any], text: str, dead: list[Party], payments: list[Payment], awards: list[Award],
                 tiles: list[str], procedure: list[str], notes: list[str], settle_lines: list[str] | None = None,
                 other_sources: list[str] | None = None, owed: str = "", used: list[str] | None = None,
                 before: list[Outcome] | None = None, evidence: list[str] | None = None,
                 card: dict[str, Any] | None = None, house: list[str] | None = None,
                 house_keys: list[str] | None = None, told: dict[str, Any] | None = None) -> None:
        self.ruleset, self.start, self.situation, self.node, self.ruling = ruleset, start, situation, node, ruling
        self.path, self.facts, self.text, self.dead, self.payments = path, facts, text, dead, payments
        self.awards, self.tiles, self.procedure, self.notes = awards, tiles, procedure, notes
        self.settle_lines = settle_lines if settle_lines is not None else []
        self.other_sources = other_sources if other_sources is not None else []  # what other sources hold: shown apart, after the verdict
        self.owed = owed  # what is owed in words, where nothing is computed
        self.used = used if used is not None else []  # every fact the path or the ruling reads, answered or open
        self.before = before if before is not None else []  # rulings the case went on from (`then`), first first
        self.evidence = evidence if evidence is not None else []  # what the card said of the tiles this ruling was answered with
        self.card = card  # the tiles and the card's result, as data (cards.report)
        self.house = house if house is not None else []  # what the table's money customs changed, said in the verdict
        self.house_keys = house_keys if house_keys is not None else []  # the scoring keys of those customs that acted
        self.told = told if told is not None else {}  # answers read from the judge's story, not asked

    def __repr__(self) -> str:
        return f"Outcome(ruling={self.ruling.id!r}, situation={self.situation!r}, facts={self.facts!r})"

    @property
    def game(self) -> str:
        return self.ruling.game


class Carry:
    """What a goto hands on: roles that are the same seat under another name, hands already dead."""

    __slots__ = ("alias", "dead", "passed", "settled")

    def __init__(self, alias: dict[str, tuple[str, str]] | None = None, dead: list[tuple[str, str]] | None = None,
                 passed: list[tuple[str, str, Carry]] | None = None, settled: dict[str, Any] | None = None) -> None:
        self.alias = alias if alias is not None else {}  # role there -> (role, its situation)
        self.dead = dead if dead is not None else []
        # rulings passed on the way (a ruling with `then`): (situation, node, the carry as it stood there)
        self.passed = passed if passed is not None else []
        self.settled = settled if settled is not None else {}  # facts a goto's `set` settled on the way

    def passing(self, sid: str, nid: str, ruling: m.Ruling) -> m.Goto:
        """Note a ruling the case goes on from; its dead hands stay dead in the next situation."""
        assert ruling.then is not None
        self.passed.append((sid, nid, Carry(dict(self.alias), list(self.dead))))
        for role in ruling.dead:
            entry = self.source(role, sid)
            if role not in k.GROUPS and entry not in self.dead:
                self.dead.append(entry)
        return ruling.then

    def source(self, name: str, sid: str) -> tuple[str, str]:
        return self.alias.get(name, (name, sid))

    def follow(self, goto: m.Goto | m.GotoNode, here: str) -> None:
        for there, known in goto.bind.items():
            self.alias[there] = self.source(known, here)
        for role in goto.dead:
            entry = self.source(role, here)
            if entry not in self.dead:
                self.dead.append(entry)


def fact_in(rs: Ruleset, name: str, sid: str | None) -> m.FactDef | None:
    """`rs.fact(name, sid)`: the same definition, looked up in one map."""
    sit = rs.situations.get(sid) if sid else None
    return rs.facts.get(name) if sit is None else facts_seen(rs, sid, sit).get(name)  # type: ignore[arg-type]


def facts_seen(rs: Ruleset, sid: str, sit: m.Situation) -> dict[str, m.FactDef]:
    """Every fact as situation `sid` (that is, `sit`) sees it, by name: what `rs.fact(name, sid)`
    gives for each. Built once per situation of a ruleset: the engine asks for a fact on every
    step of a walk and every placeholder of a text. A loaded ruleset's facts are never changed;
    the situation is kept with its map, so a situation put in its place is seen afresh."""
    kept = rs.kept("facts seen")
    known = kept.get(sid)
    if known is None or known[0] is not sit:
        known = kept[sid] = (sit, {**rs.facts, **_own_facts(rs, sid, sit)})
    return known[1]


# A situation's own facts and its roles as seat facts, by name, built once per situation: the
# rulesets that carry a situation alike share it (and rs.fact finds these in the situation alone).
_OWN: dict[int, tuple[m.Situation, dict[str, m.FactDef]]] = {}


def _own_facts(rs: Ruleset, sid: str, sit: m.Situation) -> dict[str, m.FactDef]:
    known = _OWN.get(id(sit))
    if known is None or known[0] is not sit:  # the situation is kept with its map, so its id is not reused
        roles = {n: rs.fact(n, sid) for n, role in sit.roles.items() if role is not None and n not in sit.facts}
        known = keep(_OWN, id(sit), (sit, {**roles, **sit.facts}), 8192)
    return known[1]


_NUMBERS = frozenset(SCORING_NUMBERS)  # asked of every placeholder and amount


class _Binder:
    """Roles and facts as the ruling text and the payments need them."""

    def __init__(self, rs: Ruleset, sid: str, facts: dict[str, Any], players: dict[str, str], carry: Carry | None = None) -> None:
        self.rs, self.sid, self.facts, self.players = rs, sid, facts, players
        self.carry = carry or Carry()
        self.sit = rs.situations.get(sid)  # where most roles are found: looked up once
        self.seen: dict[str, m.FactDef] | None = None  # the facts as `sid` sees them, at the first asked

    def fact(self, name: str, where: str) -> m.FactDef | None:
        """`rs.fact(name, where)`."""
        if where != self.sid or self.sit is None:
            return fact_in(self.rs, name, where)
        if self.seen is None:
            self.seen = facts_seen(self.rs, where, self.sit)
        return self.seen.get(name)

    def parties(self, role: str) -> list[Party]:
        role, where = self.carry.source(role, self.sid)
        value = self.facts.get(role)
        if isinstance(value, list):
            return [Party(role, s, self.players.get(s)) for s in value]
        sit = self.sit if where == self.sid else self.rs.situations.get(where)
        defined = sit.roles.get(role) if sit is not None else None
        open_as = defined.label if defined is not None else ""  # 'the miscounted player', not 'the miscounted'
        return [Party(role, value, self.players.get(value) if value else None, open_as)]

    def seat_count(self, role: str) -> int:
        """How many seats a role stands for: a seats fact asked for exactly n seats is n, any other 1."""
        name, where = self.carry.source(role, self.sid)
        d = self.fact(name, where)
        return d.min if d is not None and d.type == "seats" and d.min is not None and d.min == d.max else 1

    def number(self, name: str) -> int | None:
        if name in _NUMBERS or name in self.rs.scoring.penalties:
            return self.rs.scoring.number(name)
        value = self.facts.get(name)
        return value if isinstance(value, int) else None

    def fill(self, text: str) -> str:
        parts = _template(text)
        if parts is None:
            out = text
        else:
            out = "".join([part if type(part) is str else self._word(*part) for part in parts])
        # the pattern below needs "...)'s": most texts are spared the regex
        return _POSSESSIVE_AFTER_NAME.sub(r"\1's (\2's)", out) if ")'s" in out else out

    def _word(self, name: str, capital: bool) -> str:
        """What a placeholder reads as, capitalized at the start of a sentence."""
        scoring = self.rs.scoring
        if name in _NUMBERS or name in scoring.penalties:
            word = str(scoring.number(name))
        else:
            name, where = self.carry.source(name, self.sid)
            definition = self.fact(name, where)
            if definition is not None and definition.type in ("seat", "seats"):
                word = " and ".join([p.label for p in self.parties(name)])  # an open role by its label
            else:
                value = self.facts.get(name)
                word = "the " + name.replace("_", " ") if value is None else str(value)
        return word[:1].upper() + word[1:] if capital else word


# A text's placeholders, found once per text (a booklet fills the same sentences thousands of
# times): its literal pieces and, between them, (placeholder, at a sentence start) pairs. None
# for a text with no placeholder. Keyed by the text itself, so nothing can go stale.
_TEMPLATES: dict[str, list[str | tuple[str, bool]] | None] = {}


def _template(text: str) -> list[str | tuple[str, bool]] | None:
    try:
        return _TEMPLATES[text]
    except KeyError:
        pass
    parts: list[str | tuple[str, bool]] | None = None
    if "{" in text:
        parts, at = [], 0
        for match in PLACEHOLDER.finditer(text):
            before = text[: match.start()].rstrip()
            parts += [text[at: match.start()], (match.group(1), not before or before[-1] in ".!?")]
            at = match.end()
        parts.append(text[at:])
        if len(parts) == 1:
            parts = None
    return keep(_TEMPLATES, text, parts, 16384)


# "{caller}'s hand" with a name given reads "North's (Ann's) hand", not "North (Ann)'s hand".
_POSSESSIVE_AFTER_NAME = re.compile(r"\b(East|South|West|North|Bettor) \(([^()]+)\)'s\b")


def _formula(times: int, of: str | None, amount: int | None) -> str:
    if amount is not None:
        return str(amount)
    what = "the lowest hand on the card" if of == "lowest_hand" else "the " + str(of).replace("_", " ")
    if of in SCORING_NUMBERS and of != "lowest_hand":
        what = f"the ruleset's {str(of).replace('_', ' ')}"
    return what if times == 1 else f"{times} x {what}"


def _expand(group: str, other: list[Party], dead: set[str | None], b: _Binder,
            dead_parties: list[Party] | None = None) -> list[Party]:
    """'others' / 'active' as seats, relative to the party on the other side of the payment."""
    anchor = [p.seat for p in other]
    if group == "active" and (None in dead or any(s is None for s in anchor)):
        return [_open_active(other, dead_parties or [], b)]  # who is still active depends on a seat left open
    if any(s is None for s in anchor):
        return [Party(group)]
    skip = set(anchor) | (dead if group == "active" else set())
    return [Party(group, s, b.players.get(s)) for s in k.SEATS if s not in skip]


def _open_active(other: list[Party], dead: list[Party], b: _Binder) -> Party:
    """The active players while seats are open: 'the active player' when the roles already account
    for three seats ('each active player' was read aloud when one was left). A role that is a
    fixed number of seats ('the two exposers') counts as that many."""
    roles = {p.role for p in dead} | {p.role for p in other}
    return Party("active", open_as="the active player" if sum(map(b.seat_count, roles)) == len(k.SEATS) - 1 else "")


def build_outcome(
    rs: Ruleset, start: str, sid: str, nid: str, ruling: m.Ruling, path: list[Step],
    facts: dict[str, Any], players: dict[str, str], carry: Carry | None = None, used: list[str] | None = None,
    brief: bool = False,
) -> Outcome:
    """What the ruling does. `brief` leaves out the words a handout's tables never print (tiles,
    procedure, notes, what is owed, other sources): the ruling's sentence, the dead hands, the
    amounts and the game are the same either way."""
    carry = carry or Carry()
    b = _Binder(rs, sid, facts, players, carry)
    dead: list[Party] = []
    named = [role for role in [*ruling.dead, *(name for name, _ in carry.dead)] if role not in k.GROUPS] \
        if carry.dead else [role for role in ruling.dead if role not in k.GROUPS]
    for role in named:
        for p in b.parties(role):
            if p.seat is None or all(p.seat != d.seat for d in dead):
                dead.append(p)
    if "others" in ruling.dead:  # every hand but the ones named: seats once those are known
        dead += _expand("others", dead, set(), b) if dead else [Party("others")]
    dead_seats: set[str | None] = {p.seat for p in dead}
    payments: list[Payment] = []
    for t in ruling.pay:
        payers = b.parties(t.from_) if t.from_ not in k.GROUPS else None
        payees = b.parties(t.to) if t.to not in k.GROUPS else None
        if payers is None:
            payers = _expand(t.from_, payees or [], dead_seats, b, dead)
        if payees is None:
            payees = _expand(t.to, payers, dead_seats, b, dead)
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
    house_said: list[str] = []  # what a house ruleset's money customs changed, in the verdict's words
    awards: list[Award] = []
    if ruling.settle and rs.scoring.kind == "points":
        awards += _settle_points(rs, ruling.settle, b, settle_lines, dead_seats)
    elif ruling.settle:
        payments += _settle(rs, ruling.settle, b, settle_lines, dead_seats, house_said)
    for a in ruling.points:
        targets = b.parties(a.to) if a.to not in k.GROUPS else _expand(a.to, [], dead_seats, b)
        base = b.number(a.of) if a.of else a.points
        value = base * a.times if base is not None else None
        for party in targets:
            awards.append(Award(party, value, _formula(a.times, a.of, a.points) if value is None else str(value)))
    notes = [] if brief else [b.fill(t) for t in ruling.notes] + _too_few_live(ruling, dead, carry, b)
    return Outcome(
        ruleset=rs, start=start, situation=sid, node=nid, ruling=ruling, path=path, facts=dict(facts),
        text=b.fill(ruling.says) + _doubled(rs, settle_lines), dead=dead, payments=payments, awards=awards,
        tiles=[] if brief else [b.fill(t) for t in ruling.tiles], procedure=[] if brief else [b.fill(t) for t in ruling.procedure],
        notes=notes, settle_lines=settle_lines, owed="" if brief else b.fill(ruling.owed), used=used or [],
        other_sources=[] if brief else [b.fill(t) for t in ruling.other_sources],
        house=[t for t in house_said if not t.startswith("key:")] if house_said else [],
        house_keys=list(dict.fromkeys(t[4:] for t in house_said if t.startswith("key:"))) if house_said else [],
    )


def _doubled(rs: Ruleset, settle_lines: list[str]) -> str:
    """The sentence must agree with the arithmetic under it: a ruling that says 'twice the hand
    value' over '4 x 25' was read aloud wrong, so a jokerless multiplier is said in words too."""
    if not settle_lines or not any(line.startswith("jokerless: x") for line in settle_lines):
        return ""
    n = rs.scoring.jokerless_times
    return " The hand is jokerless, so every payment is " + ("doubled." if n == 2 else f"multiplied by {n}.")


def carry_amounts(o: Outcome) -> None:
    """The payments and points of the rulings the case went on from, put into the last one, each
    marked with the ruling that set it: the last ruling's amounts are the whole settlement, so the
    judge never adds up two rulings (a challenge's 50 cents on top of the Mah Jongg's payments)."""
    if not o.before:
        return
    carried = [_marked(p, b.ruling.id) for b in o.before for p in b.payments]
    awards = [Award(a.party, a.points, _mark(a.formula, a.points, b.ruling.id)) for b in o.before for a in b.awards]
    o.payments = carried + o.payments
    o.awards = awards + o.awards


def _mark(formula: str, amount: int | None, ruling_id: str) -> str:
    return ruling_id if amount is not None and formula == str(amount) else f"{formula}, {ruling_id}"


def _marked(p: Payment, ruling_id: str) -> Payment:
    return Payment(p.payer, p.payee, p.amount, _mark(p.formula, p.amount, ruling_id), p.lines)


def _and(seats: list[str]) -> str:
    return seats[0] if len(seats) == 1 else ", ".join(seats[:-1]) + " and " + seats[-1]


def _too_few_live(ruling: m.Ruling, dead: list[Party], carry: Carry, b: _Binder) -> list[str]:
    """A note when a hand carried in dead (a bad pick whose discard was falsely claimed, say) and this
    ruling's own deaths leave fewer than two live hands: its text was written for a table whose
    other hands were live, and no source covers the combination."""
    seats = [p.seat for p in dead if p.seat]
    if not carry.dead or ruling.game == "replay" or len(seats) < 3 or len(seats) < len(dead):
        return []
    before = sorted({p.seat for role, where in carry.dead for p in b.parties(role) if p.seat}, key=k.SEATS.index)
    live = [s for s in k.SEATS if s not in seats]
    left = f"only {live[0]} is left live" if live else "no hand is left live"
    return [f"{_and(seats)} are dead ({_and(before)} already before this ruling), so {left}. "
            "The ruling above is written for a table whose other hands are live, and no source covers "
            "this combination; the nearest rule is the League's for three dead hands (a replay): "
            "see 'referee rule three-dead-hands'."]


def _settle_parties(s: m.Settle, b: _Binder) -> tuple[Party, Party | None]:
    winner = b.parties(s.winner)[0]
    discarder = b.parties(s.discarder)[0] if s.discarder else None
    if discarder and discarder.seat and discarder.seat == winner.seat:
        raise UsageError(f"{s.winner} and {s.discarder} are both {winner.seat}; a winner cannot win on their own discard")
    return winner, discarder


def _seats(value: Any) -> list[str]:
    """A seats answer as a list ('East, West', a list, or nothing)."""
    if not value:
        return []
    if isinstance(value, str):
        return [p.strip() for p in value.split(",") if p.strip()]
    return [str(v) for v in value]


def _settle(rs: Ruleset, s: m.Settle, b: _Binder, lines: list[str], dead: set[str | None] | None = None,
            said: list[str] | None = None) -> list[Payment]:
    """A money Mah Jongg by the ruleset's standard schedule (the same code as `referee pay`)."""
    winner, discarder = _settle_parties(s, b)
    value = b.number(s.value)
    jokerless = b.facts.get("jokerless") == "yes"
    singles = b.facts.get("singles_and_pairs") == "yes"
    doubles = b.facts.get("dice_doubles") == "yes"
    house = {"first_last": b.facts.get("first_or_last_game") == "yes", "bonus_hand": b.facts.get("bonus_hand") == "yes",
             "pie_out": [*_seats(b.facts.get("pie_out")),
                         *(p.seat for role in s.exempt for p in b.parties(role)[:1] if p.seat)]}
    dead_losers = sorted(d for d in (dead or set()) if d and d not in (winner.seat, discarder.seat if discarder else None))
    bet_on = s.bettor if s.bettor in (None, k.WALL_BET) else b.parties(s.bettor)[0].seat
    if winner.seat and (discarder is None or discarder.seat) and value is not None and (s.bettor is None or bet_on):
        result = standard(rs.scoring, winner=winner.seat, how=s.how, value=value,
                          discarder=discarder.seat if discarder else None,
                          jokerless=jokerless, singles_and_pairs=singles, names=b.players,
                          dead=dead_losers, dice_doubles=doubles, bettor_on=bet_on, **house)
        lines.extend(result.lines)
        if said is not None:
            said.extend(result.house)
            said.extend("key:" + k for k in result.applied)  # split off again below: which scoring keys acted
        return [Payment(p.payer, p.payee, p.amount, p.formula) for p in result.payments]
    sc = rs.scoring
    jokerless = jokerless and s.how != "joker-exchange"  # the joker she took is in her hand
    factor = sc.jokerless_times if jokerless and not singles else 1
    if factor != 1:
        lines.append(f"jokerless: x{sc.jokerless_times}")
    if doubles:
        factor *= sc.dice_doubles_times
    v = "the hand value" if value is None else str(value)
    if s.bettor == k.WALL_BET:
        lines.append("The bettor, who bet on a wall game, pays the winner what a player who did not discard pays.")
    elif s.bettor:
        lines.append(b.fill("The bettor pays or collects exactly what {" + s.bettor + "} pays or collects."))

    def times(n: int) -> str:
        return f"{n * factor} x {v}" if value is None else str(n * factor * value)

    if s.how == "discard":
        assert discarder is not None
        return [
            Payment(discarder, winner, None, times(sc.discarder_times)),
            Payment(Party("others"), winner, None, times(sc.others_times)),  # the payer already says "each other player"
        ]
    return [Payment(Party("others"), winner, None, times(sc.self_pick_times))]


def _settle_points(rs: Ruleset, s: m.Settle, b: _Binder, lines: list[str], dead: set[str | None]) -> list[Award]:
    """A Mah Jongg in a points ruleset: the winner's score, the discarder's penalty (same code as `referee pay`)."""
    winner, discarder = _settle_parties(s, b)
    value = b.number(s.value)
    exposures = b.number("winner_exposures")
    jokerless = b.facts.get("jokerless") == "yes"
    singles = b.facts.get("singles_and_pairs") == "yes"
    if winner.seat and (discarder is None or discarder.seat):
        result = score_points(rs.scoring, winner=winner.seat, how=s.how, value=value,
                              discarder=discarder.seat if discarder else None, exposures=exposures,
                              jokerless=jokerless, singles_and_pairs=singles, names=b.players,
                              dead=sorted(d for d in dead if d and d not in (winner.seat, discarder.seat if discarder else None)))
        lines.extend(result.lines)
        return [Award(sc.party, sc.points, sc.formula) for sc in result.scores]
    # seats not known: say it in words
    sc = rs.scoring
    self_pick = s.how == "self-pick" or (s.how == "joker-exchange" and sc.joker_exchange_as_self_pick)
    bonus = (sc.self_pick_bonus if self_pick else 0) + (sc.jokerless_bonus if jokerless and not singles else 0)
    base = "the hand value" if value is None else str(value * sc.winner_times)
    if value is not None and sc.winner_times == 1:
        base = str(value)
    formula = (str(value * sc.winner_times + bonus) if value is not None else base + (f" {bonus:+d}" if bonus else ""))
    out = [Award(winner, value * sc.winner_times + bonus if value is not None else None, formula)]
    if discarder is not None and sc.discarder_penalties:
        from .scoring import discarder_penalty

        pen = discarder_penalty(sc, exposures) if exposures is not None else None
        out.append(Award(discarder, pen, str(pen) if pen is not None else "the discarder's penalty by the winner's exposures"))
    return out
