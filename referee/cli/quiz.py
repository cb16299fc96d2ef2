"""`referee quiz`: train on the published questions, see a judge's progress, check the keys."""
from __future__ import annotations

import os
from typing import Any, Callable, Optional

import typer

from ..errors import UsageError
from .base import EXIT_FINDING, RULESET_OPT, app, ask, err, examples, guarded, out, safe
from .show import styled, wrapped

PROMPTS = {
    "dead": ("Whose hands are dead?", "seats by number, initial or name, comma-separated; none"),
    "game": ("What happens to the game?", "number or value"),
    "pay": ("Who pays whom how much?", "e.g. 'East pays North 50', comma-separated; none"),
    "points": ("Who scores or loses what?", "e.g. 'North 30, West -25'; none"),
}


@app.command(short_help="Train on published questions: a story, your ruling, marked; --report, --check.",
             epilog=examples("referee quiz", "referee quiz -n 5 \\\n  --topic mahjong --seed 12",
                             "referee quiz --topic wrong-wall \\\n  --judge Ann",
                             "referee quiz --report --judge Ann", "referee quiz --report --all",
                             "referee quiz --check"))
@guarded
def quiz(
    ruleset: Optional[str] = RULESET_OPT,
    topic: Optional[str] = typer.Option(None, "--topic", "-t", metavar="PHASE|SITUATION", help="Only one phase of the game (deal, charleston, play, claiming, joker, mahjong, dead, end) or one situation."),
    count: int = typer.Option(10, "-n", "--questions", metavar="N", help="How many stories to ask."),
    seed: Optional[int] = typer.Option(None, "--seed", metavar="N", help="Draw the same stories in the same order (a group doing one quiz); printed at the start when not given."),
    with_caveats: bool = typer.Option(False, "--with-caveats", help="Also ask stories whose published answer the ruleset contradicts, or that are one writer's opinion, with the caveat shown."),
    judge: Optional[str] = typer.Option(None, "--judge", metavar="NAME", help="Whose progress this is (default: REFEREE_JUDGE, else the event's judge); without one nothing is recorded."),
    db: Optional[str] = typer.Option(None, "--db", metavar="FILE|URL", help="The rulings log's database, where progress is kept (default: REFEREE_DB, else the application folder)."),
    no_log: bool = typer.Option(False, "--no-log", help="Record nothing."),
    report: bool = typer.Option(False, "--report", help="Show a judge's weak situations over time, from their recorded quizzes, instead of asking."),
    every_judge: bool = typer.Option(False, "--all", help="With --report: every judge's (the head judge's view)."),
    check: bool = typer.Option(False, "--check", help="Replay every quiz item and list the answer keys the engine no longer rules; exit 1 if any."),
) -> None:
    """Tell a story from a published rulings question; you rule on it, part by part.

    For each story you answer whose hands are dead, what happens to the game, and who pays
    whom how much (or the points), in the prompts' forms: seats by number (1 East .. 4 North),
    initial or name. Each part is marked; then the ruling is shown as 'referee rule' shows it,
    with its source and the question it came from. At the end: the score per part and per
    phase, and the situations to read again. Only questions with a recorded outcome are asked.
    """
    if check:
        return _check(ruleset)
    name = _judge(judge, db)
    if report:
        return _report(db, name, every_judge)
    if every_judge:
        raise UsageError("--all goes with --report (every judge's progress)")
    from ..quiz.draw import draw, topic_filter
    from ..quiz.items import items
    from .defaults import load_for

    rs = load_for(ruleset)
    pool = topic_filter(rs, topic, items(rs, with_caveats))
    if not pool:
        raise UsageError(f"ruleset {rs.id} has no published question with a recorded outcome to ask"
                         + (" (its caveated ones: --with-caveats)" if items(rs, True) else ""))
    if seed is None:
        seed = int.from_bytes(os.urandom(2), "big")
    chosen = draw(pool, count, seed)
    recorder = None if (no_log or name is None) else _recorder(db, name, rs.id)
    from ..quiz.score import Score

    score = Score()
    more = f" of {len(pool)} available" if len(chosen) < count else ""
    ask.print(styled((f"Quiz · ruleset {rs.id} · {len(chosen)} stories{more} · seed {seed}", "bold"),
                     ("  (--seed " + str(seed) + " asks the same again)", "dim")))
    if recorder is None:
        ask.print(styled(("Not recorded: give --judge NAME to keep your progress." if name is None and not no_log
                          else "Not recorded (--no-log).", "dim")))
    for n, item in enumerate(chosen, 1):
        if not _ask_item(rs, item, n, len(chosen), score, recorder):
            break
    _print_score(rs, score)


def _judge(judge: str | None, db: str | None) -> str | None:
    from ..store.context import ENV, db_path, read_event

    if judge is not None and not judge.strip():
        raise UsageError("--judge is empty; give the judge's name, or leave the option out")
    name = judge or os.environ.get(ENV["judge"], "").strip() or read_event(db_path(db)).judge
    return name.strip() if name else None


def _recorder(db: str | None, judge: str, ruleset: str) -> Callable[..., None]:
    """Keeps each question's marks as it is answered, so stopping half-way loses nothing."""
    import secrets

    from ..store.quiz import QuizLog

    session = secrets.token_hex(8)
    with QuizLog.open(db):  # a log that cannot be written is said before the first story
        pass

    def keep(n: int, item: Any, marks: list[Any]) -> None:
        from ..quiz.marking import said

        with QuizLog.open(db) as log:
            log.record(session, n, judge, ruleset, item.id, item.situation, item.phase,
                       [(m.part, said(m.part, m.given, item), m.right) for m in marks])

    return keep


def _ask_item(rs: Any, item: Any, n: int, total: int, score: Any, recorder: Any) -> bool:
    """Tell one story, take the three answers, mark them, show the ruling; False when she quits."""
    from ..rules.model import SEATS
    from ..quiz.items import PART_TITLES, outcome_of
    from ..quiz.marking import mark, parse_dead, parse_game, parse_pay, said
    from .rule import _ask_line, _print_outcome, _seat_label

    names = item.names
    ask.print()
    from ..handouts.content import PHASE_TITLES

    phase = PHASE_TITLES.get(item.phase, item.phase)
    # the phase only: which situation it is, is part of what the judge must see for herself
    wrapped(ask, styled((f"Story {n} of {total}", "bold reverse"), " ", (f"{phase}", "dim")))
    wrapped(ask, item.story)
    if item.caveat is not None:
        wrapped(ask, styled(("Caveat: ", "bold yellow"), (item.caveat_text, "yellow")))
    if any(names.values()):
        wrapped(ask, styled(("Players: " + ", ".join(_seat_label(s, names) for s in SEATS if s in names), "dim")))
    pay_part = "points" if item.points else "pay"
    parsers = {
        "dead": lambda raw: parse_dead(raw, names),
        "game": parse_game,
        "pay": lambda raw: parse_pay(raw, names, item.points),
    }
    given: dict[str, Any] = {}
    for i, part in enumerate(("dead", "game", "pay"), 1):
        question, hint = PROMPTS[pay_part if part == "pay" else part]
        unit = f" ({rs.scoring.unit})" if part == "pay" and not item.points else ""
        ask.print()
        wrapped(ask, styled((question + unit, "bold")), first=f"{i}. ", style="bold")
        if part == "dead":
            wrapped(ask, styled(("Seats: " + ", ".join(f"{k} {_seat_label(s, names)}" for k, s in enumerate(SEATS, 1)), "dim")), first="   ")
        if part == "game":
            from ..quiz.marking import GAME_CHOICES

            for k, (value, label) in enumerate(GAME_CHOICES.items(), 1):
                wrapped(ask, styled((value, "bold"), ("  " + label, "dim")), first=f"   {k}  ")
        while True:
            raw = _ask_line(f"answer ({hint}; q to stop)").strip()
            if raw.lower() in ("q", "quit", "exit"):
                ask.print("[dim]Stopped.[/]")
                return False
            if not raw:
                continue
            try:
                given[part] = parsers[part](raw)
                break
            except UsageError as exc:
                wrapped(ask, exc.message, style="red")
    marks = mark(item, given["dead"], given["game"], given["pay"])
    score.add(item, marks)
    right = sum(m.right for m in marks)
    verdict = "all right" if right == len(marks) else "wrong" if right == 0 else f"{right} of {len(marks)} right"
    out.print()
    wrapped(out, styled((f"Marked: {verdict}", "bold green" if right == len(marks) else "bold yellow" if right else "bold red")))
    for m in marks:
        title = PART_TITLES[pay_part if m.part == "pay" else m.part]
        if m.right:
            wrapped(out, styled(("right ", "green"), (f"{title}: ", "bold"), said(m.part, m.given, item)), first="  ", rest="        ")
        else:
            wrapped(out, styled(("wrong ", "red"), (f"{title}: ", "bold"), f"you said {said(m.part, m.given, item)}; "
                                f"the ruling: {said(m.part, m.key, item)}"), first="  ", rest="        ")
    if recorder is not None:
        recorder(n, item, marks)
    _print_outcome(outcome_of(item, rs), False, console=out)
    wrapped(out, styled(("Source: ", "bold"), item.source), rest="  ")
    wrapped(out, styled(("Asked: ", "bold"), item.published), rest="  ")
    if n < total:
        try:
            if _ask_line("Enter for the next story, q to stop").strip().lower() in ("q", "quit", "exit"):
                return False
        except UsageError:
            return False
    return True


def _print_score(rs: Any, score: Any) -> None:
    from ..quiz.items import PART_TITLES

    if not score.asked:
        out.print("[dim]No story answered.[/]")
        return
    out.print()
    wrapped(out, styled((f"Score: {score.fully_right()} of {len(score.asked)} stories fully right", "bold")))
    points = all(item.points for item, _ in score.asked)
    for part, right, asked in score.by_part():
        title = PART_TITLES["points" if part == "pay" and points else part]
        wrapped(out, f"{title:<12} {right} of {asked}", first="  ")
    wrapped(out, styled(("By phase of the game (parts right):", "bold")))
    for phase, right, asked in score.by_phase():
        wrapped(out, f"{phase:<12} {right} of {asked}", first="  ")
    again = score.read_again()
    if again:
        wrapped(out, styled(("Read again:", "bold")))
        for sid in again:
            wrapped(out, styled((rs.situations[sid].title, ""), (f"  referee show {sid}", "dim")), first="  ")


def _report(db: str | None, name: str | None, every: bool) -> None:
    from ..quiz.progress import judges, trends
    from ..store.db import StoreError
    from ..store.quiz import QuizLog

    if name is None and not every:
        raise UsageError("whose progress? give --judge NAME (or REFEREE_JUDGE), or --all for every judge")
    try:
        with QuizLog.open(db, create=False) as log:
            rows = log.answers(None if every else name)
            where = log.where
    except StoreError as exc:
        if "no rulings log" in exc.message:
            raise UsageError(f"no quiz recorded yet: {exc.message.split(';')[0]}") from None
        raise
    if not rows:
        who = "any judge" if every else name
        out.print(f"No quiz answers recorded for {safe(who)} in {safe(where)}.")
        return
    if every:
        out.print(f"[bold]Every judge's quizzes[/] in {safe(where)}")
        for j in judges(rows):
            share = round(100 * j.right / j.parts) if j.parts else 0
            weak = ", ".join(j.weak[:4]) + (f" (+{len(j.weak) - 4} more)" if len(j.weak) > 4 else "") if j.weak else "none"
            wrapped(out, styled((j.judge, "bold"), f"  {j.sessions} quiz{'zes' if j.sessions != 1 else ''}, {j.questions} "
                                f"stories, {share}% of parts right, last {j.last[:10]}; weak: {weak}"), first="  ", rest="    ")
        out.print("[dim]referee quiz --report --judge NAME shows one judge's situations over time.[/]")
        return
    sittings = len({r.session for r in rows})
    out.print(f"[bold]{safe(rows[-1].judge)}[/]'s quizzes: {sittings} sitting{'s' if sittings != 1 else ''}, "
              f"{len({(r.session, r.n) for r in rows})} stories, {sum(r.right for r in rows)} of {len(rows)} parts right")
    out.print("[dim]Each story, oldest first: + all right, ~ partly, - wrong.[/]")
    for t in trends(rows):
        wrapped(out, styled(("weak " if t.weak else "     ", "red"), (t.situation, "bold"),
                            f"  {t.marks}  {t.right} of {t.parts} parts, last {t.last[:10]}"), first="  ", rest="       ")


def _check(ruleset: str | None) -> None:
    from ..rules.loader import available, load_strict
    from ..quiz.items import check, items

    names = [ruleset] if ruleset else list(available())
    bad_total = checked = 0
    for rid in names:
        rs = load_strict(rid)
        checked += len(items(rs, with_caveats=True))
        for item, diffs in check(rs):
            bad_total += 1
            out.print(f"[red]KEY[/] {safe(rs.id)}: {safe(item.id)} ({safe(item.ruling)})")
            for d in diffs:
                out.print(f"     {safe(d)}")
    out.print(f"{checked} quiz item{'s' if checked != 1 else ''} checked, "
              f"{bad_total} key{'s' if bad_total != 1 else ''} the engine no longer rules")
    if bad_total:
        raise typer.Exit(EXIT_FINDING)
