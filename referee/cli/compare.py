"""Comparing rulesets and settling a Mah Jongg: diff, pay."""
from __future__ import annotations

from typing import Any, Optional

import typer

from .. import __version__
from ..errors import UsageError
from .tiles import PAY_CARD_OPT, PAY_EXPOSED_OPT, PAY_HAND_OPT, card_id, hand_json, pay_card_text, pay_from_hand
from .base import RULESET_OPT, _pairs, app, examples, guarded, out, print_json, safe
from .show import styled, wrapped


@app.command("diff", short_help="Every case where two rulesets rule differently.", epilog=examples(
    "referee diff nmjl card-game",
    "referee diff nmjl amja --paths",
    "referee diff tournament \\\n  tournament-crak --json",
    "referee diff nmjl rulesets/my-house"))
@guarded
def diff_(
    a: str = typer.Argument(..., metavar="A", help="First ruleset id or folder."),
    b: str = typer.Argument(..., metavar="B", help="Second ruleset id or folder."),
    every_path: bool = typer.Option(False, "--paths", help="Every differing path under the situation it starts in, with the answers as fact=value."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON document: every path, and each case once."),
) -> None:
    """Every case where two rulesets rule differently: dead hands, game, payments or points, tiles.

    Walks every path of every situation in both rulesets, branching on every answer either one
    asks; seats and hand values get the same fixed values on both sides. Prints the summary,
    then each case once, under the situation whose rulings differ (not under every situation
    that leads there), with the questions and answers that lead to it; then rulings alike in
    outcome but worded or cited differently; last, the inherited rulings that either ruleset's
    own source contradicts (its `contradicts:` list) and what it rules instead.
    """
    from ..diff import diff, report_json, summarize, summary_json
    from ..lint.sheets import contradicted
    from ..rules.loader import load_strict
    from . import diffview

    rs_a, rs_b = load_strict(a), load_strict(b)
    report = diff(rs_a, rs_b)
    found = summarize(report, rs_a, rs_b)
    # what diff cannot show: rulings alike on both sides because one ruleset still inherits a
    # ruling its own source contradicts (or, once patched, what it rules there instead)
    sourced = [(rs, contradicted(rs, rs_a if rs is rs_b and rs_b.meta.extends == rs_a.id else None)) for rs in (rs_a, rs_b)]
    if as_json:
        print_json({"referee_version": __version__, **report_json(report), **summary_json(found, rs_a, rs_b),
                    "contradicted": [_contradicted_json(rs, x) for rs, xs in sourced for x in xs]})
        return
    diffview.summary(found, report, rs_a, rs_b)
    diffview.contradicted_summary(sourced)
    if every_path:
        diffview.paths(report, rs_a, rs_b)
    else:
        diffview.cases(found, rs_a, rs_b)
    diffview.worded(found, rs_a, rs_b)
    diffview.contradicted(sourced)
    out.print()
    wrapped(out, "Seats and hand values are assumed the same on both sides where a ruling needs them "
            "(--json 'assumed'); --paths lists every differing path.", style="dim")


def _contradicted_json(rs: Any, x: Any) -> dict[str, Any]:
    return {"ruleset": rs.id, "base": rs.meta.extends, "source": x.source, "section": x.entry.section,
            "ruling": x.entry.ruling, "situation": x.situation, "says": x.entry.says, "now": x.now,
            "unchanged": x.unchanged, "known": x.known}


def payer_lines(result: Any) -> list[str]:
    """One line a payer, whom she pays how much, and her arithmetic once: 'East (discarder) pays
    North 100 (2 x 25 x 2)'. A payer of two (the winner and a bettor on her) is one line."""
    by_payer: dict[str, list[Any]] = {}
    for p in result.payments:
        by_payer.setdefault(p.payer.seat or p.payer.label, []).append(p)
    lines = []
    for seat, paid in by_payer.items():
        whom = " and ".join(f"{p.payee.label} {p.amount if p.amount is not None else p.formula}" for p in paid)
        worked = result.worked.get(seat) or paid[0].formula
        each = " each" if len(paid) > 1 else ""
        lines.append(f"{result.who.get(seat, paid[0].payer.label)} pays {whom} ({worked}{each})")
    return lines


def _house_flags(rs: Any, first_last: bool, bonus_hand: bool, pie_out: list[str], lost: list[str],
                 pie: int | None = None) -> dict[str, Any]:
    """The house-rule options of `pay`, refused where the ruleset has no such custom (else the
    judge believes a rule was applied that never is). A pie any table may agree before play
    (the League's table-rule ruling TBR-2 honours it): --pie-out always, --lost with a pie amount."""
    from ..ruling.answers import seat, whole

    sc = rs.scoring
    for flag, on, has in (("--first-last", first_last, sc.first_last_times > 1), ("--bonus-hand", bonus_hand, sc.hand_bonus > 0)):
        if on and not has:
            raise UsageError(f"ruleset '{rs.id}' has no such house rule; {flag} needs a ruleset made with it ('referee house list')")
    if lost and sc.pie is None and pie is None:
        raise UsageError(f"ruleset '{rs.id}' sets no pie; --lost needs the pie's amount: add --pie AMOUNT")
    lost_by = {seat(k, "--lost"): whole("--lost", v) for k, v in _pairs(lost, "--lost").items()}
    return {"first_last": first_last, "bonus_hand": bonus_hand, "pie_out": [seat(s, "--pie-out") for s in pie_out], "lost": lost_by}


def _bet(raw: str | None) -> str | None:
    """--bettor: a seat, or 'wall' for a bet on a wall game."""
    from ..ruling.answers import seat
    from ..rules.model import WALL_BET

    if raw is None:
        return None
    if raw.strip().lower() == WALL_BET:
        return WALL_BET
    try:
        return seat(raw, "--bettor")
    except UsageError as exc:
        raise UsageError(f"{exc.message}, or '{WALL_BET}' for a bet on a wall game") from None


@app.command(short_help="Settle a valid Mah Jongg, showing the arithmetic.", epilog=examples(
    "referee pay --winner East \\\n  --how discard --discarder West \\\n  --value 30",
    "referee pay --winner South \\\n  --how self-pick --value 25 \\\n  --jokerless --player South=Ruth",
    "referee pay --winner North \\\n  --how discard --discarder East \\\n  --value 40 --dead West --bettor East",
    "referee pay --winner South \\\n  --how self-pick --value 30 \\\n  --bettor wall --player Bettor=Fiona",
    "referee pay --ruleset tournament \\\n  --winner East --how discard \\\n  --discarder South --value 35 \\\n  --exposures 2",
    "# under a house ruleset:\nreferee pay -r our-table \\\n  --winner North --how discard \\\n  --discarder East --value 25 \\\n  --pie-out South",
    "referee pay \\\n  -r tournament-destination \\\n  --wall-game --dead West \\\n  --penalty peek_penalty=North"))
@guarded
def pay(
    winner: Optional[str] = typer.Option(None, "--winner", "-w", metavar="SEAT", help="Seat that won: East, South, West, North (or E, S, W, N); required unless --wall-game."),
    how: Optional[str] = typer.Option(None, "--how", metavar="HOW", help="discard, self-pick or joker-exchange; required unless --wall-game."),
    discarder: Optional[str] = typer.Option(None, "--discarder", "-d", metavar="SEAT", help="Seat that threw the winning tile (discard wins)."),
    value_text: Optional[str] = typer.Option(None, "--value", "-v", metavar="VALUE", help="Card value of the winning hand (25, 30, 35 ...): a multiple of 5, at least 20; or give --hand."),
    jokerless: bool = typer.Option(False, "--jokerless", help="The hand is jokerless and the winner announced it."),
    singles_and_pairs: bool = typer.Option(False, "--singles-and-pairs", help="A Singles and Pairs hand (never doubled for jokerless)."),
    exposures: Optional[int] = typer.Option(None, "--exposures", min=0, max=4, help="The winner's number of exposures (tournament discarder penalties)."),
    dead: list[str] = typer.Option([], "--dead", metavar="SEAT", help="A seat whose hand is dead; dead hands still pay. Repeatable."),
    bettor: Optional[str] = typer.Option(None, "--bettor", metavar="SEAT|wall", help="Seat a fifth player bet on: the bettor pays or collects exactly like that seat; 'wall' for a bet on a wall game (the bettor then pays like a non-discarder)."),
    doubles: bool = typer.Option(False, "--doubles", help="East's opening roll was doubles (house rule 'double dice', if the ruleset has it)."),
    first_last: bool = typer.Option(False, "--first-last", help="The first or last game of the session (house rule, if the ruleset has it).", rich_help_panel="House rules"),
    bonus_hand: bool = typer.Option(False, "--bonus-hand", help="The winning hand is the table's bonus hand (house rule, if the ruleset has it).", rich_help_panel="House rules"),
    pie_out: list[str] = typer.Option([], "--pie-out", metavar="SEAT", help="A loser who has lost their whole pie: they pay nothing (house rule 'pie'). Repeatable.", rich_help_panel="House rules"),
    lost: list[str] = typer.Option([], "--lost", metavar="SEAT=AMOUNT", help="What a loser has lost so far this session: they pay at most what is left of their pie. Repeatable.", rich_help_panel="House rules"),
    pie: Optional[int] = typer.Option(None, "--pie", min=1, metavar="AMOUNT", help="The pie (loss limit) your table agreed, where the ruleset has none; with --lost.", rich_help_panel="House rules"),
    player: list[str] = typer.Option([], "--player", "-p", metavar="SEAT=NAME", help="A player's name, e.g. East=Ruth (or Bettor=Ann); repeatable."),
    ruleset: Optional[str] = RULESET_OPT,
    hand: Optional[str] = PAY_HAND_OPT,
    exposed: list[str] = PAY_EXPOSED_OPT,
    card: Optional[str] = PAY_CARD_OPT,
    wall_game: bool = typer.Option(False, "--wall-game", help="Points rulesets: nobody won; each live hand scores the wall-game points, each --dead hand the dead points."),
    penalty: list[str] = typer.Option([], "--penalty", metavar="NAME=SEAT", help="Points rulesets: charge a seat one of the event sheet's named penalties (e.g. peek_penalty=West); repeatable."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON document."),
) -> None:
    """Settle a valid Mah Jongg (or a tournament's wall game) by the ruleset's schedule, with the
    event sheet's penalties, showing every step of the arithmetic."""
    from ..ruling.answers import CARD_VALUE, normalize, players_map, seat as to_seat
    from ..ruling.scoring import add_penalties, how_of, points, standard
    from .defaults import load_for

    rs = load_for(ruleset)
    names = players_map(_pairs(player, "--player"), "--player")
    charged = _penalties(rs, penalty)
    if wall_game:
        _print_settlement(rs, _wall_game(rs, winner, how, discarder, value_text, hand, exposures, jokerless, dead, bettor, names, charged),
                          as_json, None, card, {"winner": None, "how": "wall-game", "discarder": None, "value": None}, names)
        return
    if winner is None and how is None and charged and not (discarder or value_text or hand or exposures is not None):
        from ..ruling.scoring import Settlement, add_penalties

        alone = Settlement()  # only the sheet's penalties: a peek, a late seat, points beside the game's
        add_penalties(alone, rs.scoring, charged, names)
        _print_settlement(rs, alone, as_json, None, card, {"winner": None, "how": None, "discarder": None, "value": None}, names)
        return
    if winner is None or how is None:
        raise UsageError("give --winner SEAT and --how HOW for a Mah Jongg, --wall-game, or --penalty NAME=SEAT alone")
    verdict, value_text, singles_and_pairs = pay_from_hand(rs, hand, exposed, card, value_text, jokerless, singles_and_pairs)
    if verdict is not None and exposures is None and rs.scoring.kind == "points":
        exposures = len(verdict.hand.exposures)  # the tiles say how many she exposed
    value = normalize("--value", rs.facts.get("hand_value") or CARD_VALUE, value_text)  # same bounds as the prompt's
    how = how_of(how, "--how")
    win = to_seat(winner, "--winner")
    dis = to_seat(discarder, "--discarder") if discarder else None
    if how == "discard" and dis is None:
        raise UsageError("a discard win needs --discarder SEAT")
    if how != "discard" and dis is not None:
        raise UsageError(f"a {how} win has no discarder; drop --discarder")
    dead_seats = [to_seat(d, "--dead") for d in dead]
    if "Bettor" in names and not bettor:  # else her name is dropped and she seems to owe nothing
        raise UsageError("--player Bettor=... names a bettor; add --bettor SEAT (or wall) for what the bettor bet on")
    sc = rs.scoring
    if sc.kind == "points":
        if bettor:
            raise UsageError(f"ruleset '{rs.id}' scores points; a bettor only plays for money")
        if doubles or first_last or bonus_hand or pie_out or lost or pie:
            raise UsageError(f"ruleset '{rs.id}' scores points; --doubles, --first-last, --bonus-hand, --pie, --pie-out and --lost are money house rules")
        if how == "discard" and sc.discarder_penalties and exposures is None:
            raise UsageError("the discarder's penalty depends on the winner's exposures: add --exposures N")
        result = points(sc, winner=win, how=how, value=value, discarder=dis, exposures=exposures,
                        jokerless=jokerless, singles_and_pairs=singles_and_pairs, names=names, dead=dead_seats)
    else:
        if exposures is not None:  # else the judge believes a penalty was weighed that never is
            raise UsageError(f"ruleset '{rs.id}' pays money; --exposures is for a points ruleset's discarder penalty")
        house = _house_flags(rs, first_last, bonus_hand, pie_out, lost, pie)
        result = standard(sc if pie is None else sc.model_copy(update={"pie": pie}), winner=win, how=how, value=value, discarder=dis, jokerless=jokerless,
                          singles_and_pairs=singles_and_pairs, names=names, dead=dead_seats,
                          dice_doubles=doubles, bettor_on=_bet(bettor), **house)
    if charged:
        add_penalties(result, sc, charged, names)
    _print_settlement(rs, result, as_json, verdict, card, {"winner": win, "how": how, "discarder": dis, "value": value}, names)


def _penalties(rs: Any, raw: list[str]) -> list[tuple[str, str]]:
    """--penalty NAME=SEAT, each a penalty the ruleset's sheet names, charged to a seat."""
    from ..ruling.answers import seat as to_seat

    out = []
    for item in raw:
        name, sep, who = item.partition("=")
        if not sep or not name.strip() or not who.strip():
            raise UsageError(f"--penalty takes NAME=SEAT (e.g. peek_penalty=West), not '{item}'")
        out.append((name.strip(), to_seat(who, "--penalty")))
    if out and rs.scoring.kind != "points":
        raise UsageError(f"ruleset '{rs.id}' pays money; --penalty charges an event sheet's points")
    return out


def _wall_game(rs: Any, winner: Any, how: Any, discarder: Any, value: Any, hand: Any, exposures: Any, jokerless: bool,
               dead: list[str], bettor: Any, names: dict[str, str], charged: list[tuple[str, str]]) -> Any:
    """A tournament wall game, refusing anything that belongs to a Mah Jongg."""
    from ..ruling.answers import seat as to_seat
    from ..ruling.scoring import add_penalties, wall_game as score_wall

    if rs.scoring.kind != "points":
        raise UsageError(f"ruleset '{rs.id}' pays money, and nobody pays in a wall game")
    given = [opt for opt, v in (("--winner", winner), ("--how", how), ("--discarder", discarder), ("--value", value),
                                ("--hand", hand), ("--exposures", exposures), ("--jokerless", jokerless), ("--bettor", bettor)) if v]
    if given:
        raise UsageError(f"a wall game has no winner: drop {', '.join(given)}")
    result = score_wall(rs.scoring, dead=[to_seat(d, "--dead") for d in dead], names=names)
    add_penalties(result, rs.scoring, charged, names)
    return result


def _print_settlement(rs: Any, result: Any, as_json: bool, verdict: Any, card: Any, game: dict[str, Any],
                      names: dict[str, str]) -> None:
    sc = rs.scoring
    totals = result.totals()
    if as_json:
        points: dict[str, int | None] = {}
        for s in result.scores:
            if s.party.seat:
                points[s.party.seat] = None if s.points is None or points.get(s.party.seat, 0) is None else points.get(s.party.seat, 0) + s.points
        print_json({
            "referee_version": __version__,
            "ruleset": rs.id, "kind": sc.kind, "unit": sc.unit,
            **game,
            "lines": result.lines,
            "payments": [{"from": p.payer.seat, "to": p.payee.seat, "amount": p.amount, "formula": p.formula} for p in result.payments],
            "points": points,
            "totals": totals,
            "names": names,
            **({"house": result.house} if result.house else {}),
            **({"card": {"id": card_id(rs, card), **hand_json(verdict)}} if verdict is not None else {}),
        })
        return
    if verdict is not None:
        wrapped(out, pay_card_text(verdict, card_id(rs, card)), rest="  ")
    wrapped(out, styled(("Settlement · " + rs.meta.title, "bold")), rest="  ")
    for line in result.terms:
        wrapped(out, line, first="  ", rest="    ")
    if sc.kind == "points":
        out.print("[bold]Points:[/]")
        for s in result.scores:  # each seat, with why she scores what she scores (a penalty on its own line)
            seat = s.party.seat or ""
            shown = "open" if s.points is None else f"{s.points:+d}" if s.points else "0"
            why = f" ({s.formula.replace('_', ' ')})" if s.party.role == "penalty" else ""
            wrapped(out, f"{result.who.get(seat, s.party.label)}{why} {shown}", first="  ", rest="    ")
    else:
        out.print(f"[bold]Payments ({safe(sc.unit)}):[/]")
        for line in payer_lines(result):
            wrapped(out, line, first="  ", rest="    ")
        for seat, n in totals.items():
            if n > 0:
                wrapped(out, f"{result.who.get(seat, seat)} collects {n}", first="  ", rest="    ")
        if result.house:
            out.print("[bold]Your table's rules:[/]")
            for line in dict.fromkeys(result.house):
                wrapped(out, line, first="  ", rest="    ")
    out.print(f"[dim]ruleset {safe(rs.id)} {safe(rs.label)}[/]")
