"""A situation walked from a URL: the query string holds the answers so far, in the order given.

Pure (no web framework here): the engine is asked for the next question exactly as the
terminal prompt asks it, each answer is normalized and checked as it is read, and the result
is either the next question (with the earlier answers, each a link that revises it) or the
outcome. Answering is a GET, so back, reload and a shared link all land on the same page.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from ..ruling.answers import normalize, players_map
from ..ruling.engine import Question, advance, check_answer
from ..errors import UsageError
from ..rules.loader import Ruleset
from ..rules.model import BETTOR, SEATS
from ..ruling.outcome import Outcome
from ..ruling.render import details, verdict_lines

PLAYER = "player_"  # player_East=Ruth: the names shown on seat buttons and in the ruling
MAX_NAME = 40
RID = "rid"  # the ruling's id, issued at the walk's first question and carried to its Record
RULING_ID = re.compile(r"[0-9a-hjkmnp-tv-z]{26}")  # a ULID as store.record.new_id writes it


@dataclass
class Answered:
    fact: str
    question: str
    shown: str  # the answer as the judge reads it (seat names, choice labels)
    revise: str  # the query that asks this question again, with the answers before it


@dataclass
class Option:
    value: str
    label: str
    note: str = ""


@dataclass
class Walk:
    sid: str
    answered: list[Answered] = field(default_factory=list)
    players: dict[str, str] = field(default_factory=dict)
    question: Question | None = None
    options: list[Option] = field(default_factory=list)  # buttons for yes/no, choice and seat questions
    outcome: Outcome | None = None
    error: str | None = None  # an answer refused: shown above the question it belongs to
    query: str = ""  # every answer read so far, and the names: the state of this page
    hidden: list[tuple[str, str]] = field(default_factory=list)  # the same as form fields, with the ruling id
    rid: str | None = None  # from the query; None on a walk's first page (the page issues one)


def seat_label(seat: str, players: dict[str, str]) -> str:
    return f"{seat} ({players[seat]})" if players.get(seat) else seat


def _pairs(facts: list[tuple[str, Any]], players: dict[str, str]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for name, value in facts:
        if isinstance(value, list):
            out += [(name, str(v)) for v in value] or [(name, "")]
        else:
            out.append((name, "" if value is None else str(value)))
    return out + [(PLAYER + seat, name) for seat, name in players.items()]


def _shown(q: Question, value: Any, players: dict[str, str]) -> str:
    d = q.definition
    if value is None:
        return "left open"
    if d.type == "choice":
        return (d.choices or {}).get(str(value), str(value))
    if d.type in ("seat", "seats"):
        seats = value if isinstance(value, list) else [value]
        return ", ".join(seat_label(s, players) for s in seats)
    return str(value)


def options(q: Question, players: dict[str, str]) -> list[Option]:
    d = q.definition
    if d.type == "yesno":
        return [Option("yes", "Yes"), Option("no", "No")]
    if d.type == "choice":
        return [Option(value, label or value) for value, label in (d.choices or {}).items()]
    if d.type == "seat":
        seats = d.seats or list(SEATS)
        return [Option(s, seat_label(s, players)) for s in seats]
    return []


def read_players(params: list[tuple[str, str]]) -> dict[str, str]:
    raw = {k[len(PLAYER):]: " ".join(v.split())[:MAX_NAME] for k, v in params if k.startswith(PLAYER) and v.strip()}
    return players_map(raw, "player")


NONE_TICKED = "-"  # sent by a seats question's Done with no box ticked: a slip, or open on purpose?


def _value(q: Question, values: list[str]) -> Any:
    """One answer from the query: checkboxes come as several values, 'leave open' as an empty one."""
    given = [v for v in values if v.strip() and v != NONE_TICKED]
    if not given:
        if q.definition.default is not None:  # the event sheet's own number, left as it is
            return q.definition.default
        if q.definition.type == "seats" and NONE_TICKED in values:  # Done, nothing ticked: never silently open
            raise UsageError("Tick the seats, or leave open." if q.optional else f"{q.fact}: tick at least one seat")
        if q.optional:
            return None
        if q.definition.type == "seats":
            raise UsageError(f"{q.fact}: tick at least one seat")
        raise UsageError(f"{q.fact}: an answer is needed; {_choices(q)}")
    if q.definition.type == "seats":
        return normalize(q.fact, q.definition, ",".join(given))
    if len(given) > 1:
        raise UsageError(f"{q.fact}: one answer, not {len(given)}")
    return normalize(q.fact, q.definition, given[0])


def _choices(q: Question) -> str:
    d = q.definition
    if d.type == "yesno":
        return "answer yes or no"
    if d.type == "choice":
        return "choose one of: " + "; ".join(f"{v} ({label})" for v, label in (d.choices or {}).items())
    if d.type in ("seat", "seats"):
        return "choose from " + ", ".join(d.seats or SEATS)
    return "give a number"


def walk(rs: Ruleset, sid: str, params: list[tuple[str, str]], rid: str | None = None) -> Walk:
    """The page for this query: the next question, or the outcome. A refused answer sets `error`
    and asks its question again (`UsageError` is never raised for what a judge typed).

    The ruling id in the query (`rid`) is kept, else `rid` (a new one) is: every link and form
    of the page carries it, so Back, a reload and Record all name the same ruling."""
    players = read_players(params)
    raw: dict[str, list[str]] = {}
    for name, value in params:
        if name == RID:
            rid = value if RULING_ID.fullmatch(value) else rid
        elif not name.startswith(PLAYER):
            raw.setdefault(name, []).append(value[:200])
    facts: dict[str, Any] = {}
    done: list[tuple[Question, Any]] = []
    w = Walk(sid, players=players, rid=rid)
    keep = [(RID, rid)] if rid else []
    for _ in range(len(raw) + 2):  # one answer per loop; the bound only guards a tree that loops
        step = advance(rs, sid, facts, players)
        if isinstance(step, Outcome):
            w.outcome = step
            break
        w.question = step
        if step.fact not in raw:
            break
        try:
            value = _value(step, raw[step.fact])
            check_answer(rs, sid, {**facts, step.fact: value}, step.fact)
        except UsageError as exc:
            w.error = exc.message
            break
        facts[step.fact] = value
        done.append((step, value))
    if w.outcome is not None:
        w.question = None
    for i, (q, value) in enumerate(done):
        before = [(d.fact, v) for d, v in done[:i]]
        w.answered.append(Answered(q.fact, q.definition.ask, _shown(q, value, players), urlencode(keep + _pairs(before, players))))
    answers = _pairs([(q.fact, v) for q, v in done], players)
    w.hidden = keep + answers
    w.query = urlencode(answers)
    if w.question is not None:
        w.options = options(w.question, players)
    return w


def printed(o: Outcome) -> str:
    """The whole ruling as plain text, laid out as `referee rule --full` prints it: what the log keeps."""
    rs = o.ruleset
    title = rs.situations[o.situation].title
    if o.situation != o.start:
        title += f" (reached from: {rs.situations[o.start].title})"
    lines = [f"Ruling {o.ruling.id}  {title}"]
    for heading, body in verdict_lines(o) + details(o):
        if not heading:
            lines += body
        elif len(body) == 1 and not re.match(r"\d+\. ", body[0]):  # one item: on the heading's line
            lines.append(f"{heading}: {body[0]}")
        else:
            lines += [heading + ":"] + ["  " + line for line in body]
    lines.append(f"ruleset {rs.id} {rs.meta.version} ({rs.hash})")
    return "\n".join(lines)


def seats_with_bettor(players: dict[str, str]) -> list[str]:
    return list(SEATS) + ([BETTOR] if BETTOR in players else [])


def sections(o: Any) -> list[tuple[str, list[str]]]:
    """The verdict's sections below the sentence and the dead hands (shown as badges)."""
    return [(title, lines) for title, lines in verdict_lines(o) if title not in ("", "Dead hands")]
