"""`referee pay` as a page: winner, how, discarder, value, jokerless, bettor -> the settlement."""
from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from ..ruling.answers import CARD_VALUE, normalize, players_map, seat as to_seat
from ..errors import UsageError
from ..rules.model import SEATS, WALL_BET, FactDef
from ..ruling.scoring import Settlement, how_of, points, standard
from .state import web

HOWS = ("discard", "self-pick", "joker-exchange")
EXPOSURES = FactDef.model_construct(type="number", ask="The winner's exposures", min=0, max=4)


def settle(rs: Any, q: dict[str, str]) -> Settlement:
    """The same checks and arithmetic as `referee pay`; a UsageError says what to fix."""
    value = normalize("value", rs.facts.get("hand_value") or CARD_VALUE, q.get("value", ""))
    how = how_of(q.get("how", ""), "how")
    win = to_seat(q.get("winner", ""), "winner")
    dis = to_seat(q["discarder"], "discarder") if q.get("discarder") else None
    if how == "discard" and dis is None:
        raise UsageError("a discard win needs the discarder's seat")
    if how != "discard" and dis is not None:
        raise UsageError(f"a {how} win has no discarder; leave the discarder empty")
    names = players_map({s: q[f"player_{s}"] for s in SEATS if q.get(f"player_{s}", "").strip()}, "player")
    jokerless, singles = q.get("jokerless") == "yes", q.get("singles_and_pairs") == "yes"
    sc = rs.scoring
    if sc.kind == "points":
        exposures = None
        if q.get("exposures", "").strip():
            exposures = normalize("exposures", EXPOSURES, q["exposures"])
        if how == "discard" and sc.discarder_penalties and exposures is None:
            raise UsageError("the discarder's penalty depends on the winner's exposures: give them (0 to 4)")
        return points(sc, winner=win, how=how, value=value, discarder=dis, exposures=exposures,
                      jokerless=jokerless, singles_and_pairs=singles, names=names, dead=[])
    bettor = q.get("bettor", "").strip()
    bet_on = WALL_BET if bettor.lower() == WALL_BET else (to_seat(bettor, "bettor") if bettor else None)
    return standard(sc, winner=win, how=how, value=value, discarder=dis, jokerless=jokerless,
                    singles_and_pairs=singles, names=names, dead=[], dice_doubles=False, bettor_on=bet_on)


def page(request: Request) -> Response:
    w = web(request)
    rs = w.ruleset()
    q = {k: v[:40] for k, v in request.query_params.items()}
    result, error = None, None
    if q.get("winner"):
        try:
            result = settle(rs, q)
        except UsageError as exc:
            error = exc.message
    return w.page(request, "pay.html", 400 if error else 200, q=q, result=result, error=error, seats=SEATS,
                  hows=HOWS, points=rs.scoring.kind == "points", unit=rs.scoring.unit,
                  totals=result.totals() if result else {})
