"""The pure heart of referee: facts in, the next question or the ruling out.

No I/O and no terminal: the interactive prompt, `--answer`, answer files and scenario
replay all call `advance` with the facts known so far. This module walks the tree and decides
which ruling applies and what it still needs; `outcome` builds what that ruling does.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from ..rules import records as k
from ..errors import RefereeError, UsageError
from ..rules.ruleset import Ruleset
from ..rules.memo import keep

if TYPE_CHECKING:  # a ruleset holds models, or records read the same way (`records`)
    from ..rules import model as m
from .outcome import PLACEHOLDER, SCORING_NUMBERS, Carry, Outcome, Step, build_outcome, carry_amounts, fact_in, facts_seen

MAX_STEPS = 500  # far beyond any real tree; guards a cycle the lint would have reported
UNKNOWN = None  # a detail fact the judge chose to leave open: amounts stay symbolic
# Details a ruling can still state while open: "the picker pays 4 x the hand value". A yes/no
# detail (jokerless, Singles and Pairs) cannot be: left open it would be read as "no" and change
# the amounts unseen, so it must be answered.
SYMBOLIC = ("seat", "seats", "number")


class Question(NamedTuple):  # a NamedTuple, not a frozen dataclass: see errors.Place
    fact: str
    definition: m.FactDef
    situation: str
    node: str | None  # None for a detail asked after the ruling is known
    optional: bool = False  # a detail (seat of a role, a hand value) may be left unknown


def branch(node: m.QuestionNode, value: Any) -> m.Target | None:
    key = str(value)
    if key == "yes" and node.yes is not None:
        return node.yes
    if key == "no" and node.no is not None:
        return node.no
    if node.when and key in node.when:
        return node.when[key]
    return node.else_


class Reached:
    """The leaf a walk ended at (a plain class: a dataclass costs its definition's compile)."""

    __slots__ = ("situation", "node", "path", "carry", "ruling")

    def __init__(self, situation: str, node: str, path: list[Step], carry: Carry, ruling: m.Ruling) -> None:
        self.situation, self.node, self.path, self.carry = situation, node, path, carry
        self.ruling = ruling  # the leaf's ruling, as the walk found it


def _node_count(rs: Ruleset) -> int:
    return sum(len(s.nodes) for s in rs.situations.values())


def walk(rs: Ruleset, sid: str, facts: dict[str, Any]) -> Question | Reached:
    """Follow the tree as far as the facts allow: the first unanswered question, or the leaf."""
    situations = rs.situations
    sit = situations.get(sid)
    if sit is None:
        sit = rs.situation(sid)  # says why there is none
    cur, nid = sid, sit.start
    path: list[Step] = []
    carry = Carry()
    copied = False  # a goto's `set` fills in facts for this walk only: copied before the first
    seen = None  # the facts as `cur` sees them, looked up at its first question
    # A walk without a loop visits each node at most once, however long the chain. The node
    # count is taken only for a walk that long: counting builds every situation the cache holds.
    steps, limit = 0, 0
    while steps < MAX_STEPS or steps < (limit := limit or _node_count(rs) + 1):
        steps += 1
        node = sit.nodes.get(nid) if sit is not None else None
        if node is None:
            raise RefereeError(f"ruleset '{rs.id}': '{cur}' has no node '{nid}' (run 'referee check')")
        target: m.Target | None
        if isinstance(node, k.RulingNodeKind):
            if node.ruling.then is None:
                return Reached(cur, nid, path, carry, node.ruling)
            target = carry.passing(cur, nid, node.ruling)  # the case goes on: a goto after a ruling
        elif isinstance(node, k.GotoNodeKind):
            target = node.target()
        else:
            fact = node.ask
            if seen is None:
                seen = facts_seen(rs, cur, sit)
            definition = seen.get(fact)
            if definition is None:
                raise RefereeError(f"ruleset '{rs.id}': fact '{fact}' is not defined (run 'referee check')")
            value = facts.get(fact)
            if value is UNKNOWN:
                return Question(fact, definition, cur, nid)
            path.append(Step(cur, nid, fact, value))
            target = branch(node, value)
            if target is None:
                raise UsageError(f"{fact}: '{value}' leads nowhere in '{cur}' (run 'referee check')")
        if isinstance(target, k.GotoKind):
            carry.follow(target, cur)
            if target.set:
                if not copied:
                    facts, copied = dict(facts), True
                for name, value in target.set.items():
                    facts.setdefault(name, value)
                    carry.settled.setdefault(name, value)
            here = cur
            cur = target.goto
            sit, seen = situations.get(cur), None
            if sit is None:
                raise RefereeError(f"ruleset '{rs.id}': '{here}' goes to unknown situation '{cur}' (run 'referee check')")
            nid = target.at or sit.start
        else:
            nid = target
    raise RefereeError(f"ruleset '{rs.id}': the tree of '{sid}' does not end (run 'referee check')")


_NAMES: dict[int, tuple[m.Ruling, list[str]]] = {}  # id(ruling) -> (ruling, its names); rulings are never changed


def _base_names(ruling: m.Ruling) -> list[str]:
    """Every fact a ruling refers to, in the order a judge meets them."""
    known = _NAMES.get(id(ruling))
    if known is not None and known[0] is ruling:  # the ruling kept alive here, so its id is not reused
        return known[1]
    return keep(_NAMES, id(ruling), (ruling, _names_of(ruling)), 4096)[1]


def _names_of(ruling: m.Ruling) -> list[str]:
    names: list[str] = []
    texts = [ruling.says, ruling.owed, *ruling.tiles, *ruling.procedure, *ruling.notes, *ruling.other_sources]
    for text in texts[:2]:
        names += PLACEHOLDER.findall(text)
    names += ruling.dead
    for t in ruling.pay:
        names += [t.from_, t.to] + ([t.of] if t.of else [])
    if ruling.settle:
        s = ruling.settle
        names += [s.winner] + ([s.discarder] if s.discarder else []) + [s.value]
        if s.how != "joker-exchange":  # the joker she took is in her hand: never jokerless
            names.append("jokerless")
        if s.bettor and s.bettor != k.WALL_BET:
            names.append(s.bettor)
    for a in ruling.points:
        names += [a.to] + ([a.of] if a.of else [])
    for text in texts[2:]:
        names += PLACEHOLDER.findall(text)
    seen: list[str] = []
    for n in names:
        if n not in seen and n not in k.GROUPS and n not in SCORING_NUMBERS:
            seen.append(n)
    return seen


def _role_order(rs: Ruleset, name: str, where: str, sid: str) -> tuple[int, ...]:
    """Roles first, in the order their situation declares them (a role carried over a goto
    from the situation the judge started in comes before the target's own); then the rest
    (hand values ...) in the order the ruling meets them. The same roles are thus always
    asked in the same order, whichever ruling of the situation is reached."""
    sit = rs.situations.get(where)
    if sit is not None and name in sit.roles:
        return (0, 0 if where != sid else 1, list(sit.roles).index(name))
    return (1,)


def _shared_seats_in_order(rs: Ruleset, out: list[tuple[str, m.FactDef]]) -> list[tuple[str, m.FactDef]]:
    """Seats the ruleset's facts files define once for the whole chain (winner, discarder), put in
    the order they are defined there, in the places they hold: an overlay that rewords a ruling
    ("{discarder} pays {winner}") does not reorder the judge's questions."""
    shared = [i for i, (name, d) in enumerate(out) if d.type in ("seat", "seats") and rs.facts.get(name) is d]
    if len(shared) < 2:
        return out
    index = list(rs.facts)
    ordered = sorted((out[i] for i in shared), key=lambda pair: index.index(pair[0]))
    out = list(out)
    for i, pair in zip(shared, ordered):
        out[i] = pair
    return out


def details(
    rs: Ruleset, sid: str, ruling: m.Ruling, facts: dict[str, Any] | None = None, carry: Carry | None = None
) -> list[tuple[str, m.FactDef]]:
    """The facts a ruling needs to name seats and amounts (roles, hand values), by their known names."""
    return list(_kept_details(rs, sid, ruling, facts, carry))


def _kept_details(
    rs: Ruleset, sid: str, ruling: m.Ruling, facts: dict[str, Any] | None, carry: Carry | None
) -> list[tuple[str, m.FactDef]]:
    """`details`, the list kept for the ruleset itself: the caller must not change it."""
    # Worked out once per ruling and way in: a booklet asks again for every path to the ruling, and
    # all it reads of `facts` is whether the hand is jokerless.
    jokerless = facts is not None and facts.get("jokerless") == "yes"
    if carry is None or not (carry.alias or carry.dead):  # most ways in carry nothing
        key: tuple[Any, ...] = (sid, id(ruling), jokerless)
    else:
        key = (sid, id(ruling), jokerless, tuple(carry.alias.items()), tuple(carry.dead))
    kept = rs.kept("details")
    hit = kept.get(key)
    if hit is None or hit[0] is not ruling:  # the ruling is kept with its list, so its id is not reused
        hit = kept[key] = (ruling, _details(rs, sid, ruling, facts, carry or Carry()))
    return hit[1]


def _details(rs: Ruleset, sid: str, ruling: m.Ruling, facts: dict[str, Any] | None, carry: Carry) -> list[tuple[str, m.FactDef]]:
    out: list[tuple[str, m.FactDef]] = []
    order: list[tuple[int, ...]] = []
    seen: set[str] = set()
    for name, where in [carry.source(n, sid) for n in _base_names(ruling)] + carry.dead:
        definition = fact_in(rs, name, where)
        if definition is not None and name not in seen:
            seen.add(name)
            out.append((name, definition))
            order.append(_role_order(rs, name, where, sid))
    out = _shared_seats_in_order(rs, [pair for _, pair in sorted(zip(order, out), key=lambda item: item[0])])
    names: list[str] = []
    if ruling.settle:
        if (facts or {}).get("jokerless") == "yes":
            names.append("singles_and_pairs")  # only then does it change the amounts
        if rs.scoring.kind == "points" and ruling.settle.how == "discard" and rs.scoring.discarder_penalties:
            names.append("winner_exposures")
        if rs.scoring.kind == "money":
            names += house_facts(rs.scoring)
    for name in names:
        definition = fact_in(rs, name, sid)
        if definition is not None and all(name != known for known, _ in out):
            out.append((name, definition))
    return out


def house_facts(sc: m.Scoring) -> list[str]:
    """The facts a house ruleset's money customs read at every Mah Jongg it pays (asked only where
    the ruleset defines them: 'referee house' writes them beside the customs)."""
    wanted = (("dice_doubles", sc.dice_doubles_times > 1), ("first_or_last_game", sc.first_last_times > 1),
              ("bonus_hand", sc.hand_bonus > 0), ("pie_out", sc.pie is not None))
    return [name for name, on in wanted if on]


class _AtLeaf:
    __slots__ = ("reached", "ruling", "facts", "needed")

    def __init__(self, reached: Reached, ruling: m.Ruling, facts: dict[str, Any], needed: list[tuple[str, m.FactDef]]) -> None:
        self.reached, self.ruling = reached, ruling
        self.facts = facts  # with answers carried across a goto's bind and single-seat roles filled in
        self.needed = needed


def _at_leaf(rs: Ruleset, reached: Reached, facts: dict[str, Any]) -> _AtLeaf:
    if reached.carry.settled:  # a fact the path settled (a goto's `set`) is not asked as a detail either
        facts = {**reached.carry.settled, **facts}
    for there, (here, _) in reached.carry.alias.items():
        if here not in facts and facts.get(there) is not None:
            facts = {**facts, here: facts[there]}  # answered under the name the goto's target uses
    needed: list[tuple[str, m.FactDef]]
    if not reached.carry.passed:  # the ruling's own details, as kept: read, never changed, below
        needed = _kept_details(rs, reached.situation, reached.ruling, facts, reached.carry)
    else:
        first: dict[str, m.FactDef] = {}
        for sid, ruling, carry in [*_passed(rs, reached), (reached.situation, reached.ruling, reached.carry)]:
            for name, definition in _kept_details(rs, sid, ruling, facts, carry):
                first.setdefault(name, definition)  # the first ruling's roles are asked first
        needed = list(first.items())
    return _AtLeaf(reached, reached.ruling, _only_seats(needed, facts), needed)


def _passed(rs: Ruleset, reached: Reached) -> list[tuple[str, m.Ruling, Carry]]:
    """The rulings the case went on from, with the carry as it stood at each."""
    out = []
    for sid, nid, carry in reached.carry.passed:
        node = rs.situations[sid].nodes[nid]
        assert isinstance(node, k.RulingNodeKind)
        out.append((sid, node.ruling, carry))
    return out


def advance(rs: Ruleset, sid: str, facts: dict[str, Any], players: dict[str, str] | None = None,
            brief: bool = False) -> Question | Outcome:
    """The next thing to ask, or the finished outcome. `facts` maps fact -> value (None = left open);
    `brief`: an outcome for a handout's table (see `build_outcome`)."""
    reached = walk(rs, sid, facts)
    if isinstance(reached, Question):
        return reached
    leaf = _at_leaf(rs, reached, facts)
    cur, facts = reached.situation, leaf.facts
    clashes = seat_clashes(rs, cur, leaf.ruling, facts, reached.carry, leaf.needed)
    if clashes:
        raise UsageError(clashes[0][1])
    for name, definition in leaf.needed:
        if name not in facts:
            return Question(name, definition, cur, None, optional=definition.type in SYMBOLIC)
    used = _used(leaf.ruling, reached.path, leaf.needed, reached.carry)
    outcome = build_outcome(rs, sid, cur, reached.node, leaf.ruling, reached.path, facts, players or {}, reached.carry, used, brief)
    if reached.carry.passed:
        outcome.before = [
            build_outcome(rs, sid, psid, pnid, ruling, reached.path, facts, players or {}, carry, brief=brief)
            for (psid, pnid, _), (_, ruling, carry) in zip(reached.carry.passed, _passed(rs, reached))
        ]
        carry_amounts(outcome)
    return outcome


def _only_seats(needed: list[tuple[str, m.FactDef]], facts: dict[str, Any]) -> dict[str, Any]:
    """Roles only one seat can play (East's Heavenly Hand), filled in: the judge is never asked."""
    fixed = {name: d.seats[0] for name, d in needed if name not in facts and d.seats and len(d.seats) == 1}
    return {**facts, **fixed} if fixed else facts


_SEAT_TYPES = ("seat", "seats")


def _seats_of(value: Any) -> list[str]:
    if isinstance(value, list):
        return [str(v) for v in value]
    return [str(value)] if value else []


def _label(name: str) -> str:
    return "the " + name.replace("_", " ")


def seat_clashes(
    rs: Ruleset, sid: str, ruling: m.Ruling, facts: dict[str, Any], carry: Carry | None = None,
    needed: list[tuple[str, m.FactDef]] | None = None,
) -> list[tuple[str, str]]:
    """(fact, message) for every seat answer the others contradict, as the fact's own complaint.

    Roles a ruling names are different players unless one lists the other in `may_also_be`; a
    hand carried in as already dead may be named again among the ruling's dead.
    """
    carry = carry or Carry()
    if needed is None:
        needed = _kept_details(rs, sid, ruling, facts, carry)
    if not carry.dead and not any(facts.get(n) for n, d in needed if d.type in _SEAT_TYPES):
        return []  # no seat named (a handout's open case): nothing can clash
    known = [(n, d, _seats_of(facts.get(n))) for n, d in needed if d.type in _SEAT_TYPES]
    carried_dead = {name for name, _ in carry.dead}
    listed_dead = {carry.source(n, sid)[0] for n in ruling.dead}
    out: list[tuple[str, str]] = []
    for name, d, seats in known:
        wrong = [s for s in seats if d.seats and s not in d.seats]
        if wrong:
            out.append((name, f"{name}: only {' or '.join(d.seats or [])} can be {_label(name)} here, not {wrong[0]}"))
    if ruling.settle:  # a hand the case carried in dead (the challenge settled, say) cannot be the one that won
        won = carry.source(ruling.settle.winner, sid)[0]
        dead_seats = {seat for name, _ in carry.dead for seat in _seats_of(facts.get(name))}
        for seat in _seats_of(facts.get(won)):
            if seat in dead_seats:
                out.append((won, f"{won}: {seat}'s hand is already dead, and a dead hand cannot win; name the seat that won"))
    for i, (a, da, sa) in enumerate(known):
        for b, db, sb in known[i + 1:]:
            common = [s for s in sa if s in sb]
            if not common or b in da.may_also_be or a in db.may_also_be:
                continue
            if (a in carried_dead and b in listed_dead) or (b in carried_dead and a in listed_dead):
                continue
            out.append((a, _clash_text(a, da, b, db, common[0])))
            out.append((b, _clash_text(b, db, a, da, common[0])))
    return out


def _clash_text(name: str, definition: m.FactDef, other: str, other_definition: m.FactDef, seat: str) -> str:
    # a group of seats is named as a group: "one of the exposers", never "the exposers"
    them = ("one of " if other_definition.type == "seats" else "") + _label(other)
    if definition.type == "seats":
        return f"{name}: {seat} is {them}; name only other seats"
    return f"{name}: {seat} is already {them}; {_label(name)} is another player"


def check_answer(rs: Ruleset, sid: str, facts: dict[str, Any], name: str) -> None:
    """Refuse the answer just given to `name` if it contradicts the facts so far (UsageError says why).

    Called as each answer comes in, so the judge is asked again for that answer, not a later one.
    """
    reached = walk(rs, sid, facts)
    if isinstance(reached, Question):
        definition = fact_in(rs, name, reached.situation) or fact_in(rs, name, sid)
        allowed = definition.seats if definition else None
        wrong = [s for s in _seats_of(facts.get(name)) if allowed and s not in allowed]
        if wrong and allowed:
            raise UsageError(f"{name}: only {' or '.join(allowed)} can be {_label(name)} here, not {wrong[0]}")
        return
    leaf = _at_leaf(rs, reached, facts)
    for fact, message in seat_clashes(rs, reached.situation, leaf.ruling, leaf.facts, reached.carry, leaf.needed):
        if fact == name:
            raise UsageError(message)


def _used(ruling: m.Ruling, path: list[Step], needed: list[tuple[str, m.FactDef]], carry: Carry) -> list[str]:
    """The facts this outcome read: the path's questions, the ruling's details (`needed`, as the
    leaf found them), and a carried role under the name the goto's target gives it too (it may
    have been answered under either)."""
    used = [s.fact for s in path] + [name for name, _ in needed]
    if carry.alias:
        used += [there for there, (here, _) in carry.alias.items() if here in used]
    if ruling.settle:
        # a house rule's factors, read by the settlement whenever they are answered
        used += ["dice_doubles", "first_or_last_game", "bonus_hand", "pie_out"]
    return list(dict.fromkeys(used))
