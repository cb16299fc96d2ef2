"""Payment and points arithmetic. Integers only; every money settlement sums to zero."""
from __future__ import annotations

from dataclasses import dataclass, field

from .model import GROUPS, SEATS, Scoring


@dataclass(frozen=True)
class Party:
    """A seat, or a role whose seat is not known yet (then `seat` is None)."""

    role: str
    seat: str | None = None
    name: str | None = None

    @property
    def label(self) -> str:
        if self.seat is None:
            return GROUPS.get(self.role) or "the " + self.role.replace("_", " ")
        return f"{self.seat} ({self.name})" if self.name else self.seat


@dataclass(frozen=True)
class Payment:
    payer: Party
    payee: Party
    amount: int | None  # None while a value it depends on is unknown
    formula: str  # "4 x the hand value", "50"
    lines: tuple[str, ...] = ()  # the arithmetic, one step a line

    @property
    def text(self) -> str:
        how = f"{self.amount}" if self.amount is not None else self.formula
        if self.amount is not None and self.formula != str(self.amount):
            how += f" ({self.formula})"
        text = f"{self.payer.label} pays {self.payee.label} {how}"
        return text[:1].upper() + text[1:]


@dataclass
class Settlement:
    payments: list[Payment] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)

    def totals(self) -> dict[str, int]:
        """Net per seat; only for payments whose seats and amounts are known."""
        net = {s: 0 for s in SEATS}
        for p in self.payments:
            if p.amount is not None and p.payer.seat and p.payee.seat:
                net[p.payer.seat] -= p.amount
                net[p.payee.seat] += p.amount
        return net


def standard(
    scoring: Scoring,
    *,
    winner: str,
    how: str,
    value: int,
    discarder: str | None = None,
    jokerless: bool = False,
    singles_and_pairs: bool = False,
    names: dict[str, str] | None = None,
) -> Settlement:
    """The card-back schedule: discarder 2V and others V; self-pick 2V from each; jokerless doubles."""
    names = names or {}
    out = Settlement()
    factor = 1
    out.lines.append(f"hand value: {value}")
    if jokerless and not singles_and_pairs:
        factor = scoring.jokerless_times
        out.lines.append(f"jokerless: x{factor}")
    elif jokerless:
        out.lines.append("jokerless, but Singles and Pairs is never doubled")
    win = Party("winner", winner, names.get(winner))
    for seat in SEATS:
        if seat == winner:
            continue
        if how == "discard":
            times = scoring.discarder_times if seat == discarder else scoring.others_times
            role = "discarder" if seat == discarder else "other"
        else:
            times = scoring.self_pick_times
            role = "other"
        amount = value * times * factor
        formula = f"{times * factor} x {value}"
        out.payments.append(Payment(Party(role, seat, names.get(seat)), win, amount, formula))
        out.lines.append(f"{seat}{' (discarder)' if role == 'discarder' else ''}: {times} x {value}"
                         + (f" x {factor}" if factor != 1 else "") + f" = {amount}")
    out.lines.append(f"{win.label} collects {sum(p.amount or 0 for p in out.payments)}")
    return out
