"""`referee log ...`: the rulings log of an event or a home group (the store does the work)."""
from __future__ import annotations

import contextlib
import json
import os
import sys
from pathlib import Path
from typing import Any, Iterator, Optional

import typer

from ..errors import UsageError
from .base import EXIT_FINDING, app, err, examples, format_for, guarded, out, print_json, safe
from ..safe import clean
from .show import styled, wrapped
from .helpfmt import App

log_app = App(
    no_args_is_help=True,
    help="The rulings log: every ruling recorded by 'referee rule' with --table/--round/--judge or a configured event.",
    epilog="The log is an SQLite file in your application folder; --db or REFEREE_DB points elsewhere, "
           "to another file or to an organization's PostgreSQL database (postgresql://USER@HOST/DBNAME).",
)
app.add_typer(log_app, name="log", short_help="The rulings log: list, show, export and replay rulings.")

DB_OPT = typer.Option(None, "--db", metavar="FILE|URL",
                      help="The log: a file, or postgresql://USER@HOST/DBNAME (default: REFEREE_DB, else rulings.db in the application folder).")
# The filters list, players and export share, so they read and parse the same everywhere.
EVENT_OPT = typer.Option(None, "--event", help="Only this event.")
SINCE_OPT = typer.Option(None, "--since", help="Only from this date or time on: 2026-11-23, 2026-11-23T14:00, today.")


@contextlib.contextmanager
def _open(db: Optional[str], create: bool = False) -> Iterator[Any]:
    """The log, for one command; a write that finds it held by another program says so at
    once, rather than waiting up to 30 s without a word."""
    from ..store.context import db_path
    from ..store.db import BUSY_MS, when_busy
    from ..store.rulings import RulingsLog

    def waiting() -> None:
        err.print(f"referee: waiting for the log… (another program is writing to it; up to {BUSY_MS // 1000} s, "
                  "Ctrl+C stops: nothing is changed, run the command again later)", highlight=False)

    with when_busy(waiting), RulingsLog.open(db_path(db), create) as log:
        yield log


def _filters(event: Optional[str], round_: Optional[str], table: Optional[str], player: Optional[str],
             situation: Optional[str], since: Optional[str]) -> Any:
    from ..store.rulings import Filters, since_utc

    return Filters(event=event, round=round_, table=table, player=player, situation=situation,
                   since=since_utc(since) if since else None)


def _when(iso: str) -> str:
    return iso[:16].replace("T", " ") + "Z"


def _seat_order(seat: str) -> int:
    """East, South, West, North (the order play goes round the table), then a bettor or a role."""
    from ..rules.model import SEATS

    return SEATS.index(seat) if seat in SEATS else len(SEATS)


def _who(r: Any) -> str:
    return ", ".join(f"{seat} {r.players[seat]}" for seat in sorted(r.players, key=_seat_order))


def _named(r: Any, seat: Any) -> str:
    name = r.players.get(seat) if isinstance(seat, str) else None
    return f"{seat} ({name})" if name else str(seat)


def _verdict(r: Any) -> str:
    """Who was dead and who paid (or scored) whom, in seat order: what a director scans for."""
    parts = []
    if r.dead:
        parts.append("dead: " + ", ".join(_named(r, s) for s in sorted(r.dead, key=_seat_order)))
    payees: dict[str, list[Any]] = {}
    for p in r.payments:
        payees.setdefault(p.get("to"), []).append(p)
    for payee, paid in payees.items():
        payers = ", ".join(f"{_named(r, p.get('from'))} {p['amount'] if p.get('amount') is not None else 'open'}"
                           for p in sorted(paid, key=lambda p: _seat_order(p.get("from"))))
        parts.append(f"paid: {payers} → {_named(r, payee)}")
    scored = [p for p in r.points if p.get("points") != 0]
    if scored:
        parts.append("points: " + ", ".join(
            f"{_named(r, p.get('to'))} {p['points']:+d}" if p.get("points") is not None else f"{_named(r, p.get('to'))} open"
            for p in sorted(scored, key=lambda p: _seat_order(p.get("to")))))
    return " · ".join(parts)


def _value(v: Any) -> str:
    """An answer as the judge gave it: a seat list comma-joined, one left open as 'open' (not None)."""
    if v is None:
        return "open"
    return ",".join(map(str, v)) if isinstance(v, list) else str(v)


def _where(r: Any) -> str:
    parts = [r.event or "", f"round {r.round}" if r.round else "", f"table {r.table}" if r.table else ""]
    return ", ".join(p for p in parts if p)


@log_app.command("event", short_help="Set the event every ruling is recorded under (and its ruleset).", epilog=examples(
    'referee log event "Spring Open 2026" \\\n  --judge Ann --ruleset tournament',
    "# keep the event, move to round 3:\nreferee log event --round 3",
    "# what rulings are recorded under:\nreferee log event",
    "# stop recording by default:\nreferee log event --clear"))
@guarded
def event_(
    name: Optional[str] = typer.Argument(None, help="The event's name; rulings are recorded under it from now on."),
    judge: Optional[str] = typer.Option(None, "--judge", help="Your name, recorded with every ruling."),
    round_: Optional[str] = typer.Option(None, "--round", help="The current round."),
    table: Optional[str] = typer.Option(None, "--table", help="A fixed table (a home group's one table)."),
    ruleset: Optional[str] = typer.Option(None, "--ruleset", "-r", metavar="RULESET",
                                          help="Ruleset id or folder 'referee rule' uses without -r (e.g. tournament)."),
    card: Optional[str] = typer.Option(None, "--card", metavar="CARD",
                                       help="The card hands are checked against without --card: 'practice' or a card file."),
    clear: bool = typer.Option(False, "--clear", help="Forget the event: 'referee rule' records nothing by default."),
    db: Optional[str] = DB_OPT,
) -> None:
    """Configure the event once: every 'referee rule' afterwards is recorded under it.

    With --ruleset, 'referee rule' rules under that ruleset while the event is set: -r on
    'rule' wins, then an answers file's own ruleset, then this one, then nmjl.

    REFEREE_EVENT, REFEREE_JUDGE, REFEREE_ROUND, REFEREE_TABLE and REFEREE_RULESET override these
    settings; options on 'referee rule' override both. 'referee rule --no-log' records nothing.
    """
    from dataclasses import asdict, replace

    from ..store.context import ENV, EventConfig, db_path, event_file, read_event, write_event

    path = db_path(db)
    config = EventConfig() if clear else read_event(path)
    if ruleset is not None and ruleset.strip():
        ruleset = _ruleset_setting(ruleset.strip())
    if card is not None and card.strip():
        from ..cards import locate

        found = locate(card.strip())  # checked now, not at the first hand; a file kept by its full path
        card = card.strip() if found.stem == card.strip() and "/" not in card else str(found.resolve())
    changes = {k: v for k, v in {"event": name, "judge": judge, "round": round_, "table": table,
                                 "ruleset": ruleset, "card": card}.items() if v is not None}
    if changes or clear:
        config = replace(config, **{k: (v.strip() or None) for k, v in changes.items()})
        write_event(path, config)
    # what 'referee rule' does (store.context.log_context): an event name, saved or in the
    # environment, is what turns recording on; a judge or round alone waits for one
    recording = bool(os.environ.get(ENV["event"]) or config.event)
    if not recording:
        out.print(f"No event configured for {safe(str(path))}; 'referee rule' records only with --table/--round/--judge/--event.")
        if not (config.any() or any(os.environ.get(v) for v in ENV.values())):
            return
        out.print("Kept for when an event is named:")
    else:
        # the log starts here, not at the first ruling: 'log list' then shows an empty log, and
        # a folder the judge may not write is found at set-up rather than at the table
        with _open(db, create=True):
            pass
        kept = event_file(path)  # beside a file; a database's in the application folder, named in full
        out.print(f"Rulings are recorded in {safe(str(path))} (settings in {safe(kept.name if isinstance(path, Path) else str(kept))}):")
    for key, value in asdict(config).items():
        env = os.environ.get(ENV[key])
        shown = f"{env} (from {ENV[key]})" if env else (value or "-")
        out.print(f"  {key:<7} {safe(shown)}")


def _ruleset_setting(name: str) -> str:
    """A ruleset checked now, not at the first ruling; a folder kept as an absolute path, so
    'referee rule' finds it from any working folder."""
    from ..rules.loader import load_strict

    load_strict(name)
    folder = Path(name).expanduser()
    return str(folder.resolve()) if folder.is_dir() else name


LAST_ON_A_TERMINAL = 20  # a screenful: the rulings a director is asking about are the latest


@log_app.command("list", short_help="The rulings: who was dead and who paid, newest last.", epilog=examples(
    'referee log list \\\n  --event "Spring Open 2026" --round 3',
    "referee log list --last 50",
    "referee log list --player Ruth",
    "referee log list --since today --json"))
@guarded
def list_(
    event: Optional[str] = EVENT_OPT,
    round_: Optional[str] = typer.Option(None, "--round", help="Only this round."),
    table: Optional[str] = typer.Option(None, "--table", help="Only this table."),
    player: Optional[str] = typer.Option(None, "--player", help="Only rulings naming this player (any seat)."),
    situation: Optional[str] = typer.Option(None, "--situation", help="Only this situation id."),
    since: Optional[str] = SINCE_OPT,
    last: Optional[int] = typer.Option(None, "--last", "-n", metavar="N", min=0,
                                       help=f"Only the newest N (0: all). Default: {LAST_ON_A_TERMINAL} at a terminal, else all."),
    limit: Optional[int] = typer.Option(None, "--limit", metavar="N", min=1, help="A page of N rulings, oldest first (with --offset)."),
    offset: int = typer.Option(0, "--offset", metavar="N", min=0, help="With --limit: skip the first N rulings (the pages before)."),
    as_json: bool = typer.Option(False, "--json", help="Print the rulings as JSON."),
    db: Optional[str] = DB_OPT,
) -> None:
    """The recorded rulings, oldest first: who was dead and who paid, the players in seat order;
    withdrawn ones are marked. At a terminal only the newest 20 are shown unless --last says;
    --limit and --offset page through a long event."""
    from .show import is_terminal

    if offset and limit is None:
        raise UsageError("--offset goes with --limit: e.g. --limit 100 --offset 200")
    if limit is not None and last is not None:
        raise UsageError("--last or --limit, not both: --last is the newest N, --limit a page from --offset")
    if last is None and limit is None and not as_json and is_terminal(sys.stdout):
        last = LAST_ON_A_TERMINAL
    filters = _filters(event, round_, table, player, situation, since)
    found, total = _found(db, filters, last or None, limit, offset)
    if as_json:
        print_json([r.as_dict() for r in found])
        return
    if not found:
        out.print("No rulings recorded" + (" that match." if any((event, round_, table, player, situation, since)) else " yet.")
                  if not offset else f"No rulings past the first {offset} ({total} match).")
        return
    say = _lines(is_terminal(sys.stdout))
    for r in found:
        line = styled((r.id[-8:], "bold"), f"  {_when(r.recorded_at)}  {r.ruling_id} {r.situation}",
                      (f"  {_where(r)}" if _where(r) else "", "dim"), (" WITHDRAWN" if r.withdrawn else "", "red"))
        say(line, "", " " * 10)  # continuation lines hang under the time, clear of the id
        for text in (_verdict(r), f"players: {_who(r)}" if r.players else ""):
            if text:
                say(text, " " * 10, None)
    if limit is not None:
        more = f"; '--offset {offset + len(found)}' for the next" if offset + len(found) < total else ""
        shown = f"rulings {offset + 1}-{offset + len(found)} of {total}{more}"
    elif total > len(found):
        shown = f"the newest {len(found)} of {total} rulings ('--last 0' for all)"
    else:
        shown = f"{len(found)} ruling{'s' if len(found) != 1 else ''}"
    say(styled((f"{shown}; 'referee log show ID' for one in full", "dim")), "", None)


def _lines(terminal: bool) -> Any:
    """How list prints a line, first and later lines indented: through rich at a terminal (colour,
    the terminal's width); to a file or pipe as plain text wrapped by textwrap, which at 5,000
    rulings is a tenth of rich's time (80% of 'log list' was spent laying text out)."""
    if terminal:
        return lambda text, first, rest: wrapped(out, text, first=first, rest=rest)
    import textwrap

    from .show import width

    room = max(width(sys.stdout) - 10, 12)
    write = sys.stdout.write

    def say(text: Any, first: str, rest: Optional[str]) -> None:
        rest = " " * len(first) if rest is None else rest
        plain = text.plain if hasattr(text, "plain") else clean(text)  # control and bidi characters made visible
        lines = textwrap.wrap(plain, room, break_on_hyphens=False) or [""]
        write("".join((first if i == 0 else rest) + line + "\n" for i, line in enumerate(lines)))

    return say


def _found(db: Optional[Path], filters: Any, last: Optional[int], limit: Optional[int] = None,
           offset: int = 0) -> tuple[list[Any], int]:
    """The rulings to list and how many match in all. The default log not made yet is an empty
    log (no ruling recorded yet); a --db or REFEREE_DB that does not exist is still an error,
    since a mistyped name should not look like an empty event."""
    from ..store.context import ENV_DB

    if db is None and not os.environ.get(ENV_DB):
        from ..store.context import db_path

        if not db_path().exists():
            return [], 0
    with _open(db) as log:
        if limit is not None:
            return log.page(filters, limit, offset), log.count(filters)
        found = log.find(filters, last)
        return found, (log.count(filters) if last else len(found))


@log_app.command("show", short_help="One ruling in full, as it was printed.", epilog=examples(
    "referee log show 7f3k9q2a",
    "referee log show 01jd3k7f3k9q2a --json"))
@guarded
def show(
    ruling: str = typer.Argument(..., help="The ruling's id, or its last (or first) characters as 'log list' shows."),
    as_json: bool = typer.Option(False, "--json", help="Print the whole record as JSON."),
    db: Optional[str] = DB_OPT,
) -> None:
    """One ruling in full: when, where, who, the questions and answers, and the ruling as it was printed."""
    with _open(db) as log:
        r = log.get(ruling)
        snap = log.snapshot(r.ruleset_hash) if not as_json and r.questions else None
    if as_json:
        print_json(r.as_dict())
        return
    from ..store.sheet import answer_words, rules_of

    rs = rules_of([snap]).get(r.ruleset_hash) if snap else None  # the choices' words as asked then
    wrapped(out, styled((f"Ruling {r.id}", "bold"), f"  {r.ruling_id} ({r.situation})"), rest="  ")
    if r.withdrawn:
        wrapped(out, styled(("WITHDRAWN", "bold red"), f" {_when(r.withdrawn_at)} by {r.withdrawn_by or 'unknown'}: {r.withdrawn_reason or ''}"), rest="  ")
    wrapped(out, f"recorded {_when(r.recorded_at)}" + (f" by {r.judge}" if r.judge else "") + (f" on {r.machine}" if r.machine else ""), rest="  ")
    if _where(r):
        wrapped(out, _where(r), rest="  ")
    if r.players:
        wrapped(out, f"players: {_who(r)}", rest="  ")
    wrapped(out, f"ruleset {r.ruleset_id} {r.ruleset_version} ({r.ruleset_hash})", rest="  ")
    if r.questions:
        out.print("[bold]Questions:[/]")
        for i, q in enumerate(r.questions, 1):
            wrapped(out, styled(f"{q['question']} ", (answer_words(rs, q), "bold")), first=f"  {i}. ")
    if r.seats:
        wrapped(out, styled(("Seats:", "bold"), " " + ", ".join(f"{k}={_value(v)}" for k, v in r.seats.items())), rest="  ")
    asked = {q.get("fact") for q in r.questions}
    others = {k: v for k, v in r.answers.items() if k not in asked and k not in r.seats}
    if others:  # hand and declared values are asked after the tree, so they are no question
        wrapped(out, styled(("Other answers:", "bold"), " " + ", ".join(f"{k}={_value(v)}" for k, v in others.items())), rest="  ")
    out.print("[bold]As printed:[/]")
    for line in r.printed.rstrip().splitlines():  # printed at the judge's width; re-wrapped to this one
        indent = len(line) - len(line.lstrip(" "))
        wrapped(out, line.lstrip(" "), first=" " * indent, rest=" " * (indent + 2))


@log_app.command("players", short_help="Per player: rulings against them, dead hands, penalties.", epilog=examples(
    'referee log players \\\n  --event "Spring Open 2026"',
    "referee log players --json"))
@guarded
def players(
    event: Optional[str] = EVENT_OPT,
    since: Optional[str] = SINCE_OPT,
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
    db: Optional[str] = DB_OPT,
) -> None:
    """Per player: rulings against them, dead hands, penalties paid, points lost.

    A ruling is against a player when it makes their hand dead, or they alone pay (a penalty, a
    fine, a lost challenge), or they lose points outside a settlement. Paying a valid Mah Jongg,
    or losing a bet on one, is no offence and is not counted. A penalty whose amount was left
    open is shown as '+N open' beside the known total.

    A player ruled against twice for the same situation is a repeat offence and is marked.
    Withdrawn rulings do not count.
    """
    with _open(db) as log:
        table = log.players(_filters(event, None, None, None, None, since), entries=as_json)  # the ids only in JSON
    if as_json:
        print_json([{"name": p.name, "rulings": p.rulings, "against": [r.id for r in p.against], "dead": p.dead,
                                    "paid": p.paid, "paid_open": p.paid_open, "points_lost": p.points_lost,
                                    "points_open": p.points_open,
                                    "repeats": p.repeats} for p in table])
        return
    if not table:
        out.print("No named players in the log; name them with 'referee rule --player East=NAME'.")
        return
    width = max(len(p.name) for p in table)
    out.print(f"[bold]{'player':<{width}}  against  dead  penalties paid  points lost[/]")
    for p in table:
        paid = str(p.paid) + (f" +{p.paid_open} open" if p.paid_open else "")
        lost = str(p.points_lost) + (f" +{p.points_open} open" if p.points_open else "")
        line = f"{safe(p.name):<{width}}  {p.charged:>7}  {p.dead:>4}  {paid:>14}  {lost:>11}"
        if p.repeats:
            again = ", ".join(f"{sid} x{n}" for sid, n in p.repeats.items())
            line = f"[bold red]{line}  REPEAT: {safe(again)}[/]"
        out.print(line)


@log_app.command("withdraw", epilog=examples(
    'referee log withdraw 7f3k9q2a \\\n  --reason "wrong seat named" --by Ann'))
@guarded
def withdraw(
    ruling: str = typer.Argument(..., help="The ruling's id (or its last characters)."),
    reason: str = typer.Option(..., "--reason", help="Why the ruling was a mistake."),
    by: Optional[str] = typer.Option(None, "--by", help="Who withdraws it (default: the judge from REFEREE_JUDGE or 'log event')."),
    db: Optional[str] = DB_OPT,
) -> None:
    """Mark a mistaken ruling withdrawn. It stays in the log, with who withdrew it, when and why."""
    from ..store.context import db_path, read_event

    who = (by or os.environ.get("REFEREE_JUDGE") or read_event(db_path(db)).judge or "").strip()
    if not who:  # a withdrawal nobody answers for would undo a ruling without a trace of who did it
        raise UsageError("say who withdraws the ruling: --by NAME (or set REFEREE_JUDGE, or 'referee log event --judge NAME')")
    with _open(db) as log:
        r = log.withdraw(ruling, who, reason)
    out.print(f"Withdrawn: {r.id} ({safe(r.ruling_id)}, {safe(r.situation)}) by {safe(r.withdrawn_by or who)}: {safe(r.withdrawn_reason or '')}")


@log_app.command("export", short_help="The rulings: jsonl or json (every field, to import), or csv (a spreadsheet).", epilog=examples(
    "referee log export --format csv \\\n  > rulings.csv",
    "referee log export --format jsonl \\\n  --output ann-laptop.jsonl",
    'referee log export --format json \\\n  --event "Spring Open 2026" \\\n  -o spring.json'))
@guarded
def export(
    fmt: Optional[str] = typer.Option(None, "--format", "-f", help="jsonl or json (every field and the rules: what 'log import' reads), or csv (a spreadsheet of plain values; not importable). Default: from -o's extension, else jsonl."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write to this file instead of standard output."),
    event: Optional[str] = EVENT_OPT,
    since: Optional[str] = SINCE_OPT,
    with_origin: bool = typer.Option(False, "--with-origin", help="Also export this machine's name and the folder each ruleset was read from (left out by default)."),
    db: Optional[str] = DB_OPT,
) -> None:
    """The recorded rulings: every field as JSONL or JSON for 'referee log import' on another
    machine, or a CSV of plain values for a spreadsheet (which cannot be imported).

    The machine's host name and the local folder the rules were read from stay behind unless
    --with-origin asks for them: an export is handed to other people.
    """
    from ..store.transfer import FORMATS, dump

    fmt = format_for(fmt, output, {f".{f}": f for f in FORMATS}, "jsonl")
    if fmt not in FORMATS:
        raise UsageError(f"--format: '{fmt}' is not one of {', '.join(FORMATS)}")
    filters = _filters(event, None, None, None, None, since)
    with _open(db) as log:
        hashes = log.hashes(filters)
        snaps = [s for s in log.snapshots() if s[0] in hashes]  # a CSV reads them for the answers' words
        if output is None:
            done = dump(log.rows(filters), snaps, fmt, sys.stdout, with_origin)
        else:
            from ..writing import replacing

            with replacing(output) as fh:  # streamed, and whole or not at all: a full disk keeps the old file
                done = dump(log.rows(filters), snaps, fmt, fh, with_origin)
    if done.repaired:
        err.print(f"referee: note: {len(done.repaired)} ruling(s) held NaN or Infinity (from an older import), "
                  f"written as null: {', '.join(done.repaired[:5])}", highlight=False)
    if output is not None:
        err.print(f"{done.rulings} ruling{'s' if done.rulings != 1 else ''} written to {safe(str(output))}")


@log_app.command("import", epilog=examples(
    "referee log import ann-laptop.jsonl \\\n  bob-laptop.jsonl",
    "referee log import rulings.jsonl \\\n  --db head-table.db"))
@guarded
def import_(
    files: list[Path] = typer.Argument(..., help="Exports from 'referee log export' (jsonl or json; told apart by content). A csv export is a spreadsheet and is refused."),
    db: Optional[str] = DB_OPT,
) -> None:
    """Merge other judges' exported logs into this one.

    Ids are unique across machines, so importing the same file twice adds nothing; a
    withdrawal made elsewhere is carried over. Every file is read and checked before any is added:
    a file with one record that is not a ruling as the log writes one adds nothing.
    A ruling whose id is here already but whose record differs is a conflict: it is named, the
    ruling here is left as it is, and the import exits 1.
    """
    from ..store.transfer import Export

    exports = [Export(f) for f in files]  # every file found and opened before anything is written
    for export in exports:  # and every record checked, before the log is held for the insert
        export.check()
    conflicts = 0
    said: list[tuple[Any, str]] = []  # (console, line), printed once the import is committed
    with _open(db, create=True) as log, log.merging() as merge:  # all the files, or none of them
        for f, export in zip(files, exports):
            merged = merge(export.rulings(), export.snapshots)  # read again, a line at a time
            n = export.count
            extra = f", {merged.withdrawn} newly withdrawn" if merged.withdrawn else ""
            if merged.conflicts:
                extra += f", {len(merged.conflicts)} in conflict"
            said.append((out, f"{safe(str(f))}: {n} ruling{'s' if n != 1 else ''}, {merged.added} new{extra}"))
            for rid in merged.conflicts:
                said.append((err, f"referee: {safe(str(f))}: ruling {rid} differs from the one in this log with that id; "
                                   "kept this log's, not applied"))
            conflicts += len(merged.conflicts)
    for console, line in said:  # once committed: a file refused later would have undone these
        console.print(line)
    if conflicts:
        raise typer.Exit(EXIT_FINDING)


@log_app.command("replay", short_help="Re-run a ruling under its recorded rules and today's.", epilog=examples(
    "referee log replay 7f3k9q2a"))
@guarded
def replay(
    ruling: str = typer.Argument(..., help="The ruling's id (or its last characters)."),
    db: Optional[str] = DB_OPT,
) -> None:
    """Re-run a ruling's recorded answers under the rules it was made with and under today's files.

    Exits 1 when a replay rules differently from the record, else 0. Rules that cannot be
    replayed (an import whose file left out the rules holds no copy of them; today's rules ask a new question)
    are named.
    """
    from ..store.replay import replay as run

    with _open(db) as log:
        result = run(log, log.get(ruling))
    r = result.ruling
    out.print(f"[bold]Ruling {r.id}[/]: recorded {safe(r.ruling_id)} ({safe(r.situation)}) under {safe(r.ruleset_id)} {safe(r.ruleset_version)} ({r.ruleset_hash})")
    for run_ in result.runs:
        if run_.problem and run_.verdict is None:
            out.print(f"  {run_.label}, {safe(run_.ruleset)}: [yellow]cannot replay: {safe(run_.problem)}[/]")
            continue
        assert run_.verdict is not None
        diff = run_.differs_from(result.recorded)
        state = "[green]same ruling[/]" if not diff else f"[bold red]differs ({', '.join(diff)})[/]"
        out.print(f"  {run_.label}, {safe(run_.ruleset)}: {safe(run_.verdict['ruling'])}: {state}")
        if run_.problem:
            out.print(f"    [yellow]{safe(run_.problem)}[/]")
        if diff:
            for key in diff:
                out.print(f"    {key}: recorded {safe(json.dumps(result.recorded[key]))}, now {safe(json.dumps(run_.verdict[key]))}")
    if result.differs:
        out.print("[bold]The ruling would now differ.[/]")
        raise typer.Exit(EXIT_FINDING)
    if result.incomplete:
        out.print("No replay differs, but not every version could be replayed (see above).")
        return
    out.print("The ruling would be the same today.")


@log_app.command("migrate", short_help="Create or upgrade the log's tables (a new PostgreSQL database, a new referee).", epilog=examples(
    "referee log migrate --db \\\n  postgresql://ann@db.club.org/log",
    "referee log migrate --db head-table.db"))
@guarded
def migrate(db: Optional[str] = DB_OPT) -> None:
    """Create the log's tables in an empty database, or upgrade an older log to this referee's schema.

    A database that holds another program's tables, or a log written by a newer referee, is
    refused and left as it was. A file log is also created and upgraded by any command that
    writes to it; a PostgreSQL database is usually prepared once, by its administrator.
    """
    from ..store.connect import migrate as run
    from ..store.context import db_path

    where = db_path(db)
    before, now = run(where)
    if before == now:
        out.print(f"{safe(str(where))}: the rulings log is up to date (schema {now}).")
    elif before == 0:
        out.print(f"{safe(str(where))}: created the rulings log (schema {now}).")
    else:
        out.print(f"{safe(str(where))}: upgraded the rulings log from schema {before} to {now}.")
