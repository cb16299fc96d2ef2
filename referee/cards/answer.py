"""Answering a ruling's questions with tiles: the seam between the card and the rules engine.

A fact marked `card:` in a ruleset (mahjong_valid: valid, hand_value: value, unw_every_hand:
dead ...) is answered from the declared hand or the table instead of by the judge, and the
ruling then says what on the card it rests on. Called by `rule` (--hand, --discards ...) and by
answers files and scenarios (`hand:`, `table:`); the engine itself never sees a tile.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from ..errors import UsageError
from .dead import DeadVerdict, judge, read_table
from .index import CardIndex
from .verify import Verdict, block_text, read_hand, verify


@dataclass
class FromTiles:
    card: CardIndex
    verdict: Verdict | None = None  # the declared hand, checked
    dead: DeadVerdict | None = None  # the table, judged
    answered: tuple[str, ...] = ()  # the facts `fill` answered
    claims: dict[str, dict[str, str]] = field(default_factory=dict)  # choice facts that claim what the card says

    def value_of(self, kind: str) -> Any:
        """The answer tiles give for a fact of this `card:` kind, or None when they do not say."""
        v, d = self.verdict, self.dead
        if v is not None and kind in ("valid", "invalid"):
            return "yes" if bool(v.made) == (kind == "valid") else "no"
        if v is not None and v.best is not None and kind == "value":
            return v.value()
        if v is not None and v.best is not None and kind == "singles-and-pairs":
            return "no" if v.best.line.jokerless_bonus else "yes"
        if v is not None and kind == "jokerless" and not v.hand.jokerless:
            return "no"  # a joker in the hand settles it; a hand without one still needs her announcement
        if v is not None and kind == "joker-misplaced" and (v.made or v.hand.jokerless):
            return "no"  # a line's jokers are all in groups; a hand that makes none is the judge's to read
        if d is not None and kind in ("dead", "alive"):
            return "yes" if d.dead == (kind == "dead") else "no"
        return None

    def fill(self, definitions: Iterable[tuple[str, Any]], given: dict[str, Any]) -> dict[str, str]:
        """The facts the tiles answer, {name: value}; an answer given that the tiles contradict is
        refused, be it to a fact the card answers or a choice that claims what the card would say
        (`card_claims`: "the challenger was right" claims her hand was dead)."""
        found: dict[str, Any] = {}
        for name, definition in definitions:
            kind = getattr(definition, "card", None)
            value = self.value_of(kind) if kind else None
            claims = getattr(definition, "card_claims", None)
            if claims:
                self.claims.setdefault(name, claims)
                refused = self.refuses(definition, given.get(name))
                if refused:
                    raise UsageError(f"{name}={given[name]} {refused}")
            if value is None or name in found:
                continue
            if given.get(name) is not None and given[name] != value:
                raise UsageError(f"{name}={given[name]} contradicts the tiles: {self.summary()}")
            found[name] = value
        self.answered = tuple(found)
        return found

    def refuses(self, definition: Any, answer: Any) -> str | None:
        """Why the tiles refuse this answer to a choice that claims what the card says, or None."""
        kind = (getattr(definition, "card_claims", None) or {}).get(answer)
        if kind is None or self.value_of(kind) != "no":
            return None
        return f"contradicts the tiles, which say {_OPPOSITE[kind]}: {self.summary()}"

    def attach(self, outcome: Any) -> None:
        """Put the card's word on an outcome that read a fact the tiles answered or bore out."""
        read = [n for n in self.answered if n in outcome.used]
        borne = [n for n, claims in self.claims.items() if n in outcome.used and outcome.facts.get(n) in claims
                 and self.value_of(claims[outcome.facts[n]]) == "yes"]
        if read or borne:
            outcome.evidence = self.evidence()
            outcome.card = {**self.json(), "answered": {n: outcome.facts.get(n) for n in read}}
            if borne:
                outcome.card["confirmed"] = {n: outcome.facts.get(n) for n in borne}

    def summary(self) -> str:
        """One sentence: what the card says about these tiles."""
        return " ".join(self.evidence())

    def evidence(self) -> list[str]:
        """The lines the ruling rests on, for the judge to read out."""
        cid = self.card.card.id
        out = []
        v = self.verdict
        if v is not None:
            shown = f" (exposed: {', '.join(e.text for e in v.hand.exposures)})" if v.hand.exposures else ""
            if v.best is not None:
                ln = v.best.line
                also = [m.line.id for m in v.made[1:]]
                out.append(f"On card {cid}, {v.hand.text}{shown} makes line {ln.id} ({ln.section}, "
                           f"{'concealed' if ln.concealed else 'exposed'}, {ln.value})"
                           + (f"; also {', '.join(also)}" if also else "") + ".")
            else:
                out.append(f"On card {cid}, {v.hand.text}{shown} makes no line.")
                for near in v.nearest[:1]:
                    out.append(f"Nearest, {near.line.id} ({near.line.value}): " + "; ".join(near.reasons) + ".")
        d = self.dead
        if d is not None:
            shown = ", ".join(e.text for e in d.table.exposures) or "none"
            if d.dead:
                out.append(f"On card {cid}, with the exposures shown ({shown}) no line can still be made from the tiles not yet out.")
                for kill in d.nearest[:1]:
                    lead = f"Nearest, {kill.target.line.id} ({kill.target.line.value}): " if kill.target else ""
                    out.append(lead + "; ".join(kill.reasons) + ".")
            else:
                first = d.open[0]
                n = len(d.open)
                out.append(f"On card {cid}, with the exposures shown ({shown}) {n} line{'s' if n != 1 else ''} can still be made, "
                           f"e.g. {first.target.line.id} ({first.target.line.value}), still to gather {' '.join(first.still)}.")
        return out

    def json(self) -> dict[str, Any]:
        from .report import dead_json, hand_json  # the same documents `hand verify|dead --json` print

        doc: dict[str, Any] = {"id": self.card.card.id}
        if self.verdict is not None:
            doc["hand"] = hand_json(self.verdict)
        if self.dead is not None:
            doc["table"] = dead_json(self.dead)
        return doc


_OPPOSITE = {"dead": "the hand was not dead", "alive": "the hand was dead",
             "valid": "the hand makes no line", "invalid": "the hand makes a line"}  # what a 'no' to the claim means


def from_tiles(card: CardIndex, hand: str | None = None, exposed: list[str] | None = None,
               table: dict[str, Any] | None = None) -> FromTiles:
    """Check the declared hand (`hand`, `exposed`) and/or judge the table (exposed, discards, exposed_by_others)."""
    result = FromTiles(card)
    if hand is not None:
        result.verdict = verify(card, read_hand(hand, exposed or []))
    if table is not None:
        t = read_table(table.get("exposed") or [], table.get("discards") or "", table.get("exposed_by_others") or [],
                       table.get("others_jokers", True))
        result.dead = judge(card, t)
    return result


def card_facts(rs: Any) -> list[tuple[str, Any]]:
    """Every fact of a ruleset the card can answer: shared facts, then each situation's own."""
    found = [(n, d) for n, d in rs.facts.items() if d.card or d.card_claims]
    for sit in rs.situations.values():
        found += [(n, d) for n, d in sit.facts.items() if d.card or d.card_claims]
    return found


def card_of(rs: Any, name: str | None) -> CardIndex:
    """`name` (an id or a path), else the ruleset's `card:` (inherited), else a clear error."""
    from pathlib import Path

    from .store import load

    if name:
        return load(name)
    first = rs
    while rs is not None:
        if rs.meta.card:
            text = rs.meta.card
            if "/" in text or text.endswith((".yaml", ".yml")):
                path = Path(text)
                text = str(path if path.is_absolute() else Path(rs.folder) / path)
            return load(text)
        if not rs.meta.extends:
            break
        from ..rules.loader import load_strict

        rs = load_strict(rs.meta.extends)
    raise UsageError(f"no card: add --card practice (the invented practice card) or --card PATH (your own card "
                     f"file), set card: in ruleset '{first.id}', or set the event's with 'referee log event --card'")


__all__ = ["FromTiles", "block_text", "card_facts", "card_of", "from_tiles"]
