"""Payment and points arithmetic. Integers only; every money settlement sums to zero."""
from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from ..rules.records import BETTOR, GROUPS, SEATS, WALL_BET

if TYPE_CHECKING:
    from ..rules.model import Scoring


class Party(NamedTuple):  # a NamedTuple, not a frozen dataclass: see errors.Place
    """A seat, or a role whose seat is not known yet (then `seat` is None)."""

    role: str
    seat: str | None = None
    name: str | None = None
    open_as: str = ""  # the role's `label:` while its seat is open ('the miscounted player')

    @property
    def label(self) -> str:
        if self.seat is None:
            return self.open_as or GROUPS.get(self.role) or "the " + self.role.replace("_", " ")
        return f"{self.seat} ({self.name})" if self.name else self.seat


class Payment(NamedTuple):
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


class Score(NamedTuple):
    """Tournament points for one seat."""

    party: Party
    points: int | None
    formula: str


class Settlement:
    """A plain class, not a dataclass: see outcome.Outcome."""

    def __init__(self, payments: list[Payment] | None = None, lines: list[str] | None = None) -> None:
        self.payments: list[Payment] = payments if payments is not None else []
        self.lines: list[str] = lines if lines is not None else []
        self.scores: list[Score] = []
        # for `referee pay`, which names each payer once: what applies to every seat (hand value,
        # doublings), and per seat (or Bettor) who she is and why, and her own arithmetic
        self.terms: list[str] = []
        self.who: dict[str, str] = {}
        self.worked: dict[str, str] = {}
        # a house ruleset's customs: what each changed, in the verdict's words, and the scoring keys applied
        self.house: list[str] = []
        self.applied: list[str] = []

    def totals(self) -> dict[str, int]:
        """Net per seat (and the bettor); only for payments whose seats and amounts are known.

        In a points settlement, each seat's points."""
        net = {s: 0 for s in SEATS}
        for p in self.payments:
            if p.amount is not None and p.payer.seat and p.payee.seat:
                net[p.payer.seat] = net.get(p.payer.seat, 0) - p.amount
                net[p.payee.seat] = net.get(p.payee.seat, 0) + p.amount
        for sc in self.scores:
            if sc.party.seat and sc.points is not None:
                net[sc.party.seat] = net.get(sc.party.seat, 0) + sc.points
        return net


def _who(seat: str, name: str | None, *tags: str) -> str:
    """A seat in the worked arithmetic, with its player's name and why it pays what it pays."""
    inner = [t for t in (name, *tags) if t]
    return f"{seat} ({', '.join(inner)})" if inner else seat


TIMES_WORDS = {2: "doubled", 3: "tripled"}


def _times_word(n: int) -> str:
    return TIMES_WORDS.get(n, f"multiplied by {n}")


def _factors(scoring: Scoring, jokerless: bool, singles_and_pairs: bool, dice_doubles: bool, lines: list[str],
             out: "Settlement | None" = None, first_last: bool = False) -> int:
    factor = 1
    if jokerless and not singles_and_pairs:
        factor *= scoring.jokerless_times
        lines.append(f"jokerless: x{scoring.jokerless_times}")
    elif jokerless:
        lines.append("jokerless, but Singles and Pairs is never doubled")
    if dice_doubles:
        if scoring.dice_doubles_times == 1:
            lines.append("double dice: this ruleset does not double for doubles (x1)")
        else:
            factor *= scoring.dice_doubles_times
            lines.append(f"double dice: x{scoring.dice_doubles_times}")
            _said(out, "dice_doubles_times", f"By your table's double-dice rule, every payment is {_times_word(scoring.dice_doubles_times)}.")
    if scoring.stakes_times != 1:
        factor *= scoring.stakes_times
        lines.append(f"{scoring.stakes_name} (your table's rule): x{scoring.stakes_times}")
        _said(out, "stakes_times", f"By your table's rule ({scoring.stakes_name}), every payment is {_times_word(scoring.stakes_times)}.")
    if first_last and scoring.first_last_times != 1:
        factor *= scoring.first_last_times
        lines.append(f"first or last game of the session (your table's rule): x{scoring.first_last_times}")
        _said(out, "first_last_times", f"By your table's first-and-last-game rule, every payment is {_times_word(scoring.first_last_times)}.")
    return factor


def _said(out: "Settlement | None", key: str, sentence: str) -> None:
    if out is not None:
        out.applied.append(key)
        out.house.append(sentence)


HOWS = ("discard", "self-pick", "joker-exchange")
# What judges type for the ways a Mah Jongg is made.
_HOW_WORDS = {"self": "self-pick", "selfpick": "self-pick", "self-drawn": "self-pick", "self-draw": "self-pick",
              "exchange": "joker-exchange", "joker": "joker-exchange", "thrown": "discard", "called": "discard"}


def how_of(raw: str, what: str = "how") -> str:
    """How a Mah Jongg was made, from the words a judge types ('self' is a self-pick)."""
    from ..errors import UsageError

    key = raw.strip().lower()
    how = _HOW_WORDS.get(key, raw)
    if how not in HOWS:
        raise UsageError(f"{what} must be discard, self-pick or joker-exchange, not '{raw}'")
    return how


def _check_seats(winner: str, how: str, discarder: str | None, dead: tuple[str, ...] | list[str]) -> None:
    from ..errors import UsageError

    if how not in HOWS:
        raise UsageError(f"how must be discard, self-pick or joker-exchange, not '{how}'")
    if how == "discard" and not discarder:
        raise UsageError("a discard win needs the discarder's seat")
    if how != "discard" and discarder:
        raise UsageError(f"a {how} win has no discarder")
    if discarder and discarder == winner:
        raise UsageError(f"the winner and the discarder are both {winner}; a winner cannot win on their own discard")
    if winner in dead:
        raise UsageError(f"{winner} cannot both win and be dead")
    if discarder and discarder in dead:
        raise UsageError(f"{discarder} is dead, and a dead hand does not discard")
    if len(set(dead)) >= 3:  # the third dead hand ends the game; no Mah Jongg can follow it
        raise UsageError("three hands are dead, so the game is replayed and nobody pays; see 'referee rule three-dead-hands'")


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
    dead: tuple[str, ...] | list[str] = (),
    dice_doubles: bool = False,
    bettor_on: str | None = None,
    first_last: bool = False,
    bonus_hand: bool = False,
    pie_out: tuple[str, ...] | list[str] = (),
    lost: dict[str, int] | None = None,
) -> Settlement:
    """The card-back schedule: discarder 2V and others V; self-pick (and joker exchange) 2V
    from each; jokerless doubles except Singles and Pairs. Dead hands pay like any loser.
    A bettor (a fifth player) pays or collects exactly what the seat she bet on does; one who bet
    on a wall game (`bettor_on="wall"`) pays like a loser who did not throw the winning tile.

    A house ruleset's money customs: its stakes and first-and-last-game multipliers, a bonus hand
    (a flat amount more from each loser, never multiplied), and its pie: a loser in `pie_out` has
    lost her whole pie and pays nothing; one who has `lost` part of it pays at most what is left."""
    _check_seats(winner, how, discarder, dead)
    names = names or {}
    out = Settlement()
    out.lines.append(f"hand value: {value}")
    self_pick = how == "self-pick" or (how == "joker-exchange" and scoring.joker_exchange_as_self_pick)
    if how == "joker-exchange":
        out.lines.append("won by a joker exchange: paid like a self-pick" if self_pick
                         else "won by a joker exchange: paid like a discard win with no discarder")
    jokerless = _jokerless(how, jokerless, out.lines)
    factor = _factors(scoring, jokerless, singles_and_pairs, dice_doubles, out.lines, out, first_last)
    bonus = scoring.hand_bonus if bonus_hand else 0
    if bonus:
        hand = scoring.hand_bonus_name or "the table's bonus hand"
        out.lines.append(f"bonus hand ({hand}, your table's rule): +{bonus} from each loser, not multiplied")
        _said(out, "hand_bonus", f"By your table's bonus-hand rule ({hand}), each loser pays {bonus} more.")
    out.terms = list(out.lines)
    win = Party("winner", winner, names.get(winner))
    out.who[winner] = _who(winner, names.get(winner))
    for seat in SEATS:
        if seat == winner:
            continue
        if self_pick:
            times, role = scoring.self_pick_times, "other"
        elif seat == discarder:
            times, role = scoring.discarder_times, "discarder"
        else:
            times, role = scoring.others_times, "other"
        amount = value * times * factor + bonus
        formula = f"{times * factor} x {value}" + (f" + {bonus}" if bonus else "")
        tags = [t for t, on in (("discarder", role == "discarder"), ("dead, pays like any loser", seat in dead)) if on]
        out.who[seat] = _who(seat, names.get(seat), *tags)
        out.worked[seat] = f"{times} x {value}" + (f" x {factor}" if factor != 1 else "") + (f" + {bonus}" if bonus else "")
        owes = amount
        amount, why = _pie(scoring, seat, Party(role, seat, names.get(seat)).label, amount, pie_out, lost, out)
        if why:
            out.worked[seat] += f" = {owes}, but {why}: {amount}"
            formula = f"{formula} = {owes}, but {why}"
        out.payments.append(Payment(Party(role, seat, names.get(seat)), win, amount, formula))
        out.lines.append(f"{out.who[seat]}: {out.worked[seat]}" + ("" if why else f" = {amount}"))
    if bettor_on == WALL_BET:
        bet = Party("bettor", BETTOR, names.get(BETTOR))
        times = scoring.self_pick_times if self_pick else scoring.others_times
        wall_bet = Payment(bet, win, value * times * factor, f"{times * factor} x {value}")
        out.payments.append(wall_bet)
        out.who[BETTOR] = _who(BETTOR, bet.name, 'bet on a wall game')
        out.worked[BETTOR] = f"{times} x {value}" + (f" x {factor}" if factor != 1 else "") + ", like a player who did not discard"
        out.lines.append(f"{out.who[BETTOR]} pays like a player who did not discard: {wall_bet.amount}")
    elif bettor_on:
        if bettor_on not in SEATS:
            from ..errors import UsageError

            raise UsageError(f"the bettor must bet on a seat ({', '.join(SEATS)}) or on a wall game, not '{bettor_on}'")
        bet = Party("bettor", BETTOR, names.get(BETTOR))
        bettor = _who(BETTOR, bet.name, f"bet on {bettor_on}")
        like = _who(bettor_on, names.get(bettor_on))
        out.who[BETTOR] = bettor
        out.worked[BETTOR] = f"{out.worked.get(bettor_on, '')}, like {like}".lstrip(", ")
        extra = []
        for p in out.payments:
            if p.payer.seat == bettor_on:
                extra.append(Payment(bet, p.payee, p.amount, p.formula))
                out.lines.append(f"{bettor} pays like {like}: {p.amount}")
            elif p.payee.seat == bettor_on:
                extra.append(Payment(p.payer, bet, p.amount, p.formula))
                out.lines.append(f"{bettor} collects like {like} from {p.payer.label}: {p.amount}")
        out.payments.extend(extra)
    out.lines.append(f"{win.label} collects {sum(p.amount or 0 for p in out.payments if p.payee.seat == winner)}")
    return out


def _pie(scoring: Scoring, seat: str, label: str, amount: int, pie_out: tuple[str, ...] | list[str], lost: dict[str, int] | None,
         out: Settlement) -> tuple[int, str]:
    """What a loser pays under the table's pie (loss limit), and why, when the pie cuts it."""
    if seat in pie_out:  # under a house ruleset's pie, or a pie the table agreed (table-rule)
        of = f" of {scoring.pie}" if scoring.pie is not None else ""
        out.applied.append("pie")
        out.house.append(f"By your table's pie rule, {label} pays nothing more: their whole pie{of} is lost.")
        return 0, f"their pie{of} is lost (pie rule)"
    if scoring.pie is None:
        return amount, ""
    left = scoring.pie - (lost or {}).get(seat, 0)
    if (lost or {}).get(seat) is not None and left < amount:
        left = max(left, 0)
        out.applied.append("pie")
        name = label
        out.house.append(f"By your table's pie rule, {name} pays only the {left} left of their pie of {scoring.pie}."
                         if left else f"By your table's pie rule, {name} pays nothing more: their whole pie of {scoring.pie} is lost.")
        return left, f"only {left} of their pie of {scoring.pie} is left (pie rule)"
    return amount, ""


def _jokerless(how: str, jokerless: bool, lines: list[str]) -> bool:
    """Jokerless means no joker among the 14 tiles at Mah Jongg (ML-221, MMJE 2024 p. 23 #4); the
    joker a winner just took in an exchange is among them, so such a win is never jokerless."""
    if how == "joker-exchange" and jokerless:
        lines.append("jokerless claimed, but a win by joker exchange holds the joker just taken: not jokerless")
        return False
    return jokerless


def discarder_penalty(scoring: Scoring, exposures: int) -> int:
    """Points the discarder scores when the winner had this many exposures (0 when no entry applies)."""
    best = None
    for entry in scoring.discarder_penalties:
        if entry.exposures <= exposures and (best is None or entry.exposures > best.exposures):
            best = entry
    return best.points if best else 0


def points(
    scoring: Scoring,
    *,
    winner: str,
    how: str,
    value: int | None,
    discarder: str | None = None,
    exposures: int | None = None,
    jokerless: bool = False,
    singles_and_pairs: bool = False,
    names: dict[str, str] | None = None,
    dead: tuple[str, ...] | list[str] = (),
) -> Settlement:
    """Tournament scoring: the winner scores the card value plus bonuses; the discarder of the
    winning tile loses points by the winner's number of exposures; everyone else scores 0
    (dead hands score the ruleset's dead_points). Unknown numbers stay as formulas."""
    _check_seats(winner, how, discarder, dead)
    names = names or {}
    out = Settlement()
    self_pick = how == "self-pick" or (how == "joker-exchange" and scoring.joker_exchange_as_self_pick)
    parts: list[str] = []
    total: int | None = None
    if value is not None:
        total = value * scoring.winner_times
        out.lines.append(f"hand value: {value}" + (f" x {scoring.winner_times}" if scoring.winner_times != 1 else ""))
        parts.append(str(total))
    else:
        parts.append("the hand value" if scoring.winner_times == 1 else f"{scoring.winner_times} x the hand value")
    if how == "joker-exchange":
        out.lines.append("won by a joker exchange: scored like a self-pick" if self_pick
                         else "won by a joker exchange: no self-pick bonus")
    jokerless = _jokerless(how, jokerless, out.lines)
    bonus = 0
    if self_pick and scoring.self_pick_bonus:
        bonus += scoring.self_pick_bonus
        out.lines.append(f"self-picked: {scoring.self_pick_bonus:+d}")
    if jokerless and not singles_and_pairs and scoring.jokerless_bonus:
        bonus += scoring.jokerless_bonus
        out.lines.append(f"jokerless: {scoring.jokerless_bonus:+d}")
    elif jokerless and singles_and_pairs:
        out.lines.append("jokerless, but Singles and Pairs gets no jokerless bonus")
    if bonus:
        parts.append(f"{bonus:+d}")
    if total is not None:
        total += bonus
    formula = str(total) if total is not None else " ".join(parts)
    out.terms = list(out.lines)
    out.scores.append(Score(Party("winner", winner, names.get(winner)), total, formula))
    out.who[winner] = _who(winner, names.get(winner), 'winner')
    out.lines.append(f"{out.who[winner]}: {formula}")
    for seat in SEATS:
        if seat == winner:
            continue
        party = Party("discarder" if seat == discarder else "other", seat, names.get(seat))
        if seat == discarder and scoring.discarder_penalties:
            if exposures is None:
                out.scores.append(Score(party, None, "the discarder's penalty by the winner's exposures"))
                out.lines.append(f"{_who(seat, party.name, 'discarder')}: penalty by the winner's number of exposures (not given)")
                continue
            pen = discarder_penalty(scoring, exposures)
            out.scores.append(Score(party, pen, str(pen)))
            had = f"winner had {exposures} exposure{'s' if exposures != 1 else ''}"
            out.who[seat] = _who(seat, party.name, 'discarder', had)
            out.lines.append(f"{out.who[seat]}: {pen:+d}" if pen else f"{out.who[seat]}: 0")
        elif seat in dead:
            out.scores.append(Score(Party("dead", seat, names.get(seat)), scoring.dead_points, str(scoring.dead_points)))
            out.who[seat] = _who(seat, names.get(seat), 'dead')
            out.lines.append(f"{out.who[seat]}: {scoring.dead_points}")
        else:
            out.scores.append(Score(party, 0, "0"))
            out.who[seat] = _who(seat, party.name, *(['discarder'] if seat == discarder else []))
            out.lines.append(f"{out.who[seat]}: 0")
    return out


def wall_game(scoring: Scoring, *, dead: tuple[str, ...] | list[str] = (), names: dict[str, str] | None = None) -> Settlement:
    """A tournament wall game: every live hand scores the wall-game points, a dead hand the dead points."""
    names = names or {}
    out = Settlement()
    out.lines.append(f"wall game: each live hand {scoring.wall_game_points:+d}, a dead hand {scoring.dead_points}")
    out.terms = list(out.lines)
    for seat in SEATS:
        is_dead = seat in dead
        pts = scoring.dead_points if is_dead else scoring.wall_game_points
        out.scores.append(Score(Party("dead" if is_dead else "active", seat, names.get(seat)), pts, str(pts)))
        out.who[seat] = _who(seat, names.get(seat), *(["dead"] if is_dead else []))
        out.lines.append(f"{out.who[seat]}: {pts:+d}" if pts else f"{out.who[seat]}: 0")
    return out


def add_penalties(out: Settlement, scoring: Scoring, penalties: list[tuple[str, str]], names: dict[str, str] | None = None) -> None:
    """Charge each (penalty name, seat) the points the ruleset's sheet names for it, beside the game's own."""
    from ..errors import UsageError

    names = names or {}
    for name, seat in penalties:
        if name not in scoring.penalties:
            have = ", ".join(sorted(scoring.penalties)) or "none"
            raise UsageError(f"--penalty: this ruleset names no penalty '{name}' (it names: {have})")
        pts = scoring.penalties[name]
        out.scores.append(Score(Party("penalty", seat, names.get(seat)), pts, name))
        line = f"{_who(seat, names.get(seat))}: {name.replace('_', ' ')} {pts:+d}"
        out.lines.append(line)
        out.terms.append(line)
