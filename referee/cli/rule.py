"""`referee rule`: pick a situation, ask its questions, print the ruling."""
from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any, Optional

import typer

from ..errors import LoadError, UsageError
from .tiles import (RULE_CARD_OPT, RULE_DISCARDS_OPT, RULE_EXPOSED_OPT, RULE_HAND_OPT, RULE_OTHERS_OPT, ask_tiles,
                    entered_tiles, known_from_tiles, offer_tiles, refused_by_tiles, rule_tiles)
from .base import _pairs, app, ask, err, examples, guarded, out, print_json, safe
from .show import is_terminal, styled, wrap, wrapped


QUIT = ("q", "quit", "exit")
STORY: list[str | None] = [None]  # the words the situation was found by: they may answer its questions
SHOWN = 3  # matches listed for a story: the right one is in the first three ('list' shows all)


def _pick_situation(rs: Any, words: str | None, no_input: bool, shown_for: list[str] | None = None) -> str:
    """The situation's id. `shown_for`, when given, gets the words whose matches the judge chose
    from (or 'list'), so `back` at the first question can show that list again."""
    again = bool(shown_for)  # back from the first question: the same list, not a shortcut past it
    if again:
        words = shown_for.pop()
    elif words and words in rs.situations:
        return words  # an id: no search, and no situation built but this one
    from ..ruling.answers import is_index
    from ..search.rank import asks_amount, exact, near_tie, search_ruleset

    sits = list(rs.situations.values())
    if words and not again:
        STORY[0] = words
        hit = exact(sits, words)
        if hit:
            return hit.id
        hits = search_ruleset(rs, words, limit=5)
        if no_input or not hits:
            if not hits:
                raise UsageError(f"no situation matches '{words}'; try 'referee list'")
            names = ", ".join(h.situation.id for h in hits)
            raise UsageError(f"'{words}' is not a situation id; matches: {names} (pass the id)")
    elif no_input:
        raise UsageError("name the situation (referee rule SITUATION) when using --no-input; see 'referee list'")
    # At the prompt: 'list' shows every situation, 'back' asks what happened again, 'q' quits.
    while True:
        if not words:
            words = _ask_line("What happened? (e.g. 'wrong wall'; list; q)").strip()
            if not words or words.lower() == "back":
                words = None
                continue
        if words.lower() in QUIT:
            _quit()
        if words in rs.situations:
            return words
        STORY[0] = None if words.lower() == "list" else words  # what the story says answers questions
        close = False
        if words.lower() == "list":
            shown = _list_all(sits)
        else:
            hits = search_ruleset(rs, words, limit=SHOWN)
            if not hits:
                ask.print(f"[yellow]Nothing matches '{safe(words)}'.[/] Try other words, or 'list' to see all.")
                words = None
                continue
            shown = [h.situation for h in hits]
            for i, sit in enumerate(shown, 1):
                _match_line(f"  {i}  ", sit)
            close = near_tie(hits)
            if asks_amount(words):
                wrapped(ask, styled(("amounts alone: try 'referee pay'", "dim")), first="  ")
        listed = words.lower() == "list"
        # Enter takes 1 only when 1 is the clear match: a close second is the judge's to choose
        enter = "" if listed or close else "Enter for 1; "
        which = "Which one? 1 and 2 fit about equally" if close and not listed else "Which one?"
        choice = _ask_line(f"{which} ({enter}or new words, back, list, q)").strip()
        while choice.isdigit() and not is_index(choice, len(shown)) or choice == "" and (close and not listed):
            if choice == "":  # a slip of the finger must not rule a situation the judge did not mean
                ask.print("[yellow]Type 1 or 2[/] (they fit about equally), another number, or new words.")
            else:  # a slip of the finger, not a story
                span = "1" if len(shown) == 1 else f"a number from 1 to {len(shown)}"
                ask.print(f"[yellow]Nothing is numbered {safe(choice)};[/] choose {span}, or type new words.")
            choice = _ask_line(f"Which one? ({enter}or new words, back, list, q)").strip()
        if shown_for is not None and (choice == "" and not listed or is_index(choice, len(shown))):
            shown_for.append(words)
        if choice == "" and not listed:
            return shown[0].id
        if is_index(choice, len(shown)):
            return shown[int(choice) - 1].id
        words = None if choice.lower() in ("", "back") else choice


def _list_all(sits: list[Any]) -> list[Any]:
    """Every situation, numbered, by phase of the game; returns them in the numbered order."""
    from ..rules.records import PHASES

    ordered = sorted(sits, key=lambda s: (PHASES.index(s.phase), s.title.lower()))
    phase = None
    for i, sit in enumerate(ordered, 1):
        if sit.phase != phase:
            phase = sit.phase
            ask.print(f"[bold]{safe(phase)}[/]")
        _match_line(f"  {i:>2}  ", sit)
    return ordered


def _match_line(first: str, sit: Any) -> None:
    """A situation offered by number: its id beside the title, for 'referee rule ID' later, only
    where it fits on the title's last line (at 40 columns an id of its own line costs a story's
    worth of lines, and the number is what the judge types)."""
    title = wrap(ask, sit.title, first=first, rest=" " * len(first))
    with_id = styled(sit.title, ("  (" + sit.id + ")", "dim"))
    if len(wrap(ask, with_id, first=first, rest=" " * len(first))) > len(title):
        with_id = styled(sit.title)
    wrapped(ask, with_id, first=first, rest=" " * len(first))


def _quit() -> None:
    ask.print("[dim]No ruling.[/]")
    raise typer.Exit(0)  # the judge chose to stop: not an error


PROMPTED = [0]  # how many times the judge was asked something in this run


def _ask_line(prompt: str) -> str:
    PROMPTED[0] += 1
    lines = wrap(ask, prompt, first="? ", rest="  ")
    lines[0].stylize("bold cyan", 0, 1)  # the question mark
    *before, last = lines
    for line in before:
        ask.print(line, soft_wrap=True)
    try:
        return ask.input(last + " ")
    except EOFError:
        ask.print()  # end the prompt's line: the error is a line of its own, not an answer
        if is_terminal(sys.stdin):  # Ctrl-D from the judge: --answer advice is for scripts, not her
            raise UsageError("input ended (Ctrl-D); nothing was ruled") from None
        raise UsageError("no more input (standard input closed); use --answer or --no-input") from None


BACK = object()


def _seat_label(seat: str, players: dict[str, str]) -> str:
    return f"{seat} ({players[seat]})" if players.get(seat) else seat


HINTED = [False]  # the hint on '?', 'back' and 'q' is said once per ruling, not at every question


def _options(d: Any) -> list[str]:
    """The values the prompt numbers, in the order it numbers them (and `show` lists them)."""
    from ..rules.records import SEATS

    if d.type == "choice":
        return list(d.choices or {})
    if d.type in ("seat", "seats"):
        return list(SEATS)
    if d.type == "yesno":
        return ["yes", "no"]
    return []


def accepts(d: Any) -> str:
    """What a question takes, in a few words: said when an answer is refused or missing."""
    from ..ruling.answers import COUNTS, is_count

    if d.type == "number":
        return "a number"
    if d.type == "seats":
        return "the seats, e.g. 2,3 or s w" + (", or none" if d.min == 0 else "")
    if d.type == "seat":
        return "1-4, E/S/W/N or a name"
    if d.type == "yesno":
        return "1-2, yes or no"
    if is_count(d):  # the count itself: `2` is two players, never the second line
        counted = sorted(COUNTS[v] for v in d.choices if v in COUNTS)
        others = [v for v in d.choices if v not in COUNTS]
        return f"the count, {counted[0]}-{counted[-1]}" + (f", or {'/'.join(others)}" if others else "")
    return f"1-{len(d.choices)} or the value"


def _asking(d: Any, players: dict[str, str]) -> str:
    """The prompt itself: short values (seats, yes/no) are offered on it, so a question takes two
    lines, not six; longer choices are listed above it and it says what it takes."""
    if d.type in ("seat", "seats", "yesno"):
        shown = [_seat_label(v, players) if d.type != "yesno" else v for v in _options(d)]
        offered = "  ".join(f"{i} {v}" for i, v in enumerate(shown, 1))
        if d.type == "seats":
            offered += " (several: 2,3 or s w; none)" if d.min == 0 else " (several: 2,3 or s w)"
        return offered
    return accepts(d)


def _prompt(q: Any, number: int, situation_help: str, players: dict[str, str], show: bool = True) -> Any:
    """The judge's answer to one question; `show=False` asks again without reprinting it."""
    from ..ruling.answers import NOBODY, is_count, is_index, normalize

    d = q.definition
    options = _options(d)
    count = is_count(d)
    if show:
        optional = ("  (Enter to leave open)", "dim") if q.optional else ""
        if d.default is not None:
            optional = (f"  (Enter for {d.default}, the event sheet's number)", "dim")
        wrapped(ask, styled((d.ask, "bold"), optional), first=f"{number}. ", style="bold")
        if d.type == "choice":
            for i, (value, label) in enumerate((d.choices or {}).items(), 1):
                # counts are shown without numbers: the count typed is the answer
                wrapped(ask, styled((value, "bold"), ("  " + label, "dim")), first="   " if count else f"   {i}  ",
                        rest="     " if count else "      ")
    takes = accepts(d)
    asking = _asking(d, players)
    if d.card:  # on the prompt, not a line of its own; '?' says what it does
        asking += ", or tiles"
    while True:
        if HINTED[0]:
            raw = _ask_line(f"{asking}:").strip()
        else:
            HINTED[0] = True
            raw = _ask_line(f"{asking} (? explains, back revises, q quits):").strip()
        if raw == "?":
            wrapped(ask, _help_for(q, situation_help), first="  ")
            if d.card:
                wrapped(ask, styled(("Type tiles to answer from the card: the hand is checked against it.", "dim")),
                        first="  ")
            continue
        if d.card and raw.lower() == "tiles":
            answer = ask_tiles(d, _ask_line, lambda text, style: wrapped(ask, text, first="  ", rest="    ", style=style),
                               q.fact)
            if answer is not None:
                return answer
            continue
        if raw.lower() in QUIT:
            _quit()
        if raw.lower() == "back":
            return BACK
        if raw == "":
            if d.default is not None:
                return d.default
            if q.optional and d.type == "seats" and not HINTED_OPEN.get(q.fact):
                HINTED_OPEN[q.fact] = True  # "done" with no seat ticked: open on purpose, or a slip?
                ask.print("[yellow]No seat named:[/] type the seats, or Enter again to leave it open.")
                continue
            if q.optional:
                return None
            wrapped(ask, styled((f"An answer is needed: {takes}; ? explains.", "yellow")))
            continue
        try:
            if d.type == "seats" and " ".join(raw.split()).lower() in NOBODY:
                return normalize(q.fact, d, raw)  # [] where the question may name none
            if d.type in ("seat", "seats"):
                return normalize(q.fact, d, _seats_of(raw, players, q.fact))
            if options and not count and is_index(raw, len(options)):
                raw = options[int(raw) - 1]
            return normalize(q.fact, d, raw)
        except UsageError as exc:
            wrapped(ask, _refused(raw, exc.message, q, takes), style="red")


HINTED_OPEN: dict[str, bool] = {}  # seats questions at which Enter was pressed once already


def _seats_of(raw: str, players: dict[str, str], fact: str) -> list[str]:
    from ..ruling.answers import seats_typed

    return seats_typed(raw, players, what=fact)


def _refused(raw: str, message: str, q: Any, takes: str) -> str:
    """One line: what was wrong and what the question takes, not every choice again."""
    wrong_word = "not one of the choices" in message or "not a seat" in message or "yes/no" in message
    if wrong_word and q.definition.type != "seats":
        return f"'{raw}' is not an answer here: {takes}; ? explains."
    return _in_words(message, q)


def _in_words(message: str, q: Any) -> str:
    """An answer's error as the judge reads it, under the question it answers: without the
    fact's id ('declared_value: ...' was meaningless at the table), in one sentence."""
    prefix = f"{q.fact}: "
    rest = message[len(prefix):] if message.startswith(prefix) else message
    if rest.startswith(f"{q.fact}="):  # 'fact=value contradicts ...': the answer as it was typed
        value, _, tail = rest[len(q.fact) + 1:].partition(" ")
        rest = f"the answer '{value}' {tail}"
    return f"{rest[:1].upper()}{rest[1:]}" + ("" if rest.endswith(".") else ".")


def _help_for(q: Any, situation_help: str) -> str:
    """The question's own help; else the situation's reference text, so '?' always says something."""
    if q.definition.help:
        return q.definition.help
    if q.definition.type == "seat":
        return "Answer with the seat: East, South, West or North (or E, S, W, N, or the number shown)."
    return situation_help or "No more help for this question."


def _resolve(rs: Any, sid: str, facts: dict[str, Any], players: dict[str, str], no_input: bool,
             may_leave: bool = False) -> Any:
    """The outcome; or BACK when `may_leave` and the judge goes back from the first question."""
    from ..ruling.engine import advance, check_answer
    from ..ruling.outcome import Outcome
    from ..ruling.scenarios import run

    if no_input:
        return run(rs, sid, facts, players)  # the same replay the scenarios use
    from ..ruling.told import answer as from_story, shown

    asked: list[str] = []
    told: dict[str, Any] = {}  # answered from the story, and said so; 'back' takes one back
    declined: set[str] = set()  # ... and then it is asked, never read from the story again
    refused_at: str | None = None  # a refused answer asks again in one line, not the whole question
    HINTED[0] = False
    HINTED_OPEN.clear()
    while True:
        step = advance(rs, sid, facts, players)  # a clash here comes from answers given up front
        if isinstance(step, Outcome):
            step.told = {name: value for name, value in told.items() if name in step.used}
            return step
        known = known_from_tiles(step)  # tiles entered at an earlier question settle this one too
        if known is not None and step.fact not in facts:
            facts[step.fact] = known
            continue
        said = None if step.fact in declined else from_story(STORY[0], step.fact, step.definition)
        if said is not None:
            try:
                check_answer(rs, sid, {**facts, step.fact: said}, step.fact)
            except UsageError:  # the story's reading clashes with an answer: ask instead
                said = None
        if said is not None:
            facts[step.fact] = told[step.fact] = said
            asked.append(step.fact)
            wrapped(ask, styled(("you said: ", "dim"), shown(step.fact, step.definition, said), (".  'back' to change", "dim")),
                    first="  ")
            continue
        number = sum(1 for name in asked if name not in told) + 1
        answer = _prompt(step, number, rs.situations[step.situation].help, players, show=refused_at != step.fact)
        refused_at = None
        if answer is BACK:
            if not asked and may_leave:
                return BACK  # to the situation choice
            if not asked:
                ask.print("[dim]Nothing to go back to.[/]")
                continue
            last = asked.pop()
            facts.pop(last, None)
            if told.pop(last, None) is not None:
                declined.add(last)  # the story was read wrong: ask it
            continue
        try:  # e.g. two roles on one seat: refuse this answer and ask this question again
            check_answer(rs, sid, {**facts, step.fact: answer}, step.fact)
            refused = refused_by_tiles(step, answer)  # "the challenger was right", but the tiles say not
            if refused:
                raise UsageError(refused)
        except UsageError as exc:
            wrapped(ask, _in_words(exc.message, step), style="red")
            refused_at = step.fact
            continue
        facts[step.fact] = answer
        asked.append(step.fact)


def _print_outcome(o: Any, full: bool, console: Any = None, more: str = "") -> None:
    """The verdict (ruling, dead hands, game, payments, tiles, steps) and the rule keys in one
    line; `full` adds the arithmetic, notes, other sources and citations. `more`: how to ask
    for them, said in the last line when they are not shown."""
    from ..ruling.render import details, earlier_lines, more_text, rule_keys, verdict_lines

    console = console or out
    rs = o.ruleset
    for before in o.before:  # the case went on from these rulings: each printed first, then the last
        console.print()
        title = rs.situations[before.situation].title
        wrapped(console, styled((f" Ruling {before.ruling.id} ", "bold reverse"), " ", (title, "bold")), rest="  ")
        _print_sections(console, earlier_lines(before, full))
        wrapped(console, styled((f"Then, as '{rs.situations[o.situation].title}':", "bold")))
    title = rs.situations[o.situation].title
    if o.situation != o.start and not o.before:
        title += f" (reached from: {rs.situations[o.start].title})"
    console.print()
    wrapped(console, styled((f" Ruling {o.ruling.id} ", "bold reverse"), " ", (title, "bold")), rest="  ")
    _print_sections(console, verdict_lines(o))
    if full:
        _print_sections(console, details(o))
    elif rule_keys(o):  # a house rule may cite nothing: no empty heading
        wrapped(console, styled(("Rule:", "bold"), " " + ", ".join(rule_keys(o))), rest="  ")
    footer = f"ruleset {rs.id} {rs.label}"
    told = more_text(o)
    if not full and more and told:
        footer += f" · {more} for {told}"
    wrapped(console, styled((footer, "dim")), rest="  ")


def _print_sections(console: Any, sections: list[tuple[str, list[str]]]) -> None:
    for title, lines in sections:
        if not title:
            for line in lines:
                wrapped(console, line, style="bold green")
            continue
        if len(lines) == 1 and not re.match(r"\d+\. ", lines[0]):  # one item: on the heading's line
            wrapped(console, styled((title + ":", "bold"), " " + lines[0]), rest="  ")
            continue
        console.print(styled((title + ":", "bold")))
        for line in lines:
            number = re.match(r"\d+\. ", line)  # an item's further lines hang: a step under its text
            wrapped(console, line, first="  ", rest="  " + " " * (number.end() if number else 2))


def _full_text(o: Any) -> str:
    """The whole ruling for the log, whatever was shown on the screen, at no screen's width."""
    from ..ruling.render import ruling_text

    return ruling_text(o)


def _offer_more(o: Any) -> None:
    """At the prompt, after the verdict: Enter finishes, 'more' shows the notes and citations."""
    from ..ruling.render import details, more_text

    told = more_text(o)
    if not told:
        return
    try:
        choice = _ask_line(f"Enter to finish, or 'more' for {told}").strip().lower()
    except UsageError:  # input ended: the ruling stands as shown
        return
    if choice in ("more", "m", "full"):
        _print_sections(out, details(o))


@app.command(epilog=examples(
    "referee rule",
    "referee rule wrong end -p East=Ruth",
    "referee rule wrong-end \\\n  --seat picker=West",
    "referee rule misnamed-discard \\\n  -a misnamed_claimed_for=mahjong \\\n  -a mahjong_with=named \\\n"
    "  -s misnamer=South -s caller=North \\\n  -a hand_value=25 --no-input --json",
    "referee rule --answers my-case.yaml",
    "referee rule fifth-player-bettor \\\n  -p Bettor=Fiona -p West=Ruth",
    "# recorded in the rulings log:\nreferee rule wrong-end \\\n  --seat picker=West -p West=Ruth \\\n  --table 12 --round 3 --judge Ann",
    "# under the event's ruleset:\nreferee log event Open -r tournament\nreferee rule wrong-end --table 12"))
@guarded
def rule(
    words: Optional[list[str]] = typer.Argument(None, metavar="SITUATION", help="Situation id, or words to search for (quotes not needed)."),
    ruleset: Optional[str] = typer.Option(None, "--ruleset", "-r", metavar="RULESET", help="Ruleset id or folder (default: the answers file's, else the event's, else nmjl)."),
    answer: list[str] = typer.Option([], "--answer", "-a", metavar="FACT=VALUE", help="An answer, e.g. hand_value=25; repeatable."),
    answers: Optional[Path] = typer.Option(None, "--answers", help="YAML answers file (a scenario file works)."),
    seat: list[str] = typer.Option([], "--seat", "-s", metavar="ROLE=SEAT", help="A role's seat, e.g. picker=West; repeatable."),
    player: list[str] = typer.Option([], "--player", "-p", metavar="SEAT=NAME", help="A player's name, e.g. East=Ruth, or Bettor=NAME for a fifth player; repeatable."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON document instead of text."),
    no_input: bool = typer.Option(False, "--no-input", help="Never prompt: a missing answer exits 2 and names it."),
    table: Optional[str] = typer.Option(None, "--table", help="Table number; records the ruling in the log.", rich_help_panel="Rulings log"),
    round_: Optional[str] = typer.Option(None, "--round", help="Round; records the ruling in the log.", rich_help_panel="Rulings log"),
    judge: Optional[str] = typer.Option(None, "--judge", help="Judge's name; records the ruling in the log.", rich_help_panel="Rulings log"),
    event: Optional[str] = typer.Option(None, "--event", help="Event name (default: REFEREE_EVENT or 'referee log event').", rich_help_panel="Rulings log"),
    db: Optional[str] = typer.Option(None, "--db", metavar="FILE|URL", help="Log file or postgresql:// URL (default: REFEREE_DB, else the application folder).", rich_help_panel="Rulings log"),
    no_log: bool = typer.Option(False, "--no-log", help="Record nothing, even with an event configured (practice).", rich_help_panel="Rulings log"),
    again: bool = typer.Option(False, "--again", help="Record it even if the same ruling was recorded at this table and round in the last 10 minutes (else asked; refused under --no-input).", rich_help_panel="Rulings log"),
    full: bool = typer.Option(False, "--full", help="Print the notes, other sources and citations after the verdict."),
    card: Optional[str] = RULE_CARD_OPT,
    hand: Optional[str] = RULE_HAND_OPT,
    exposed: list[str] = RULE_EXPOSED_OPT,
    discards: Optional[str] = RULE_DISCARDS_OPT,
    exposed_by_others: list[str] = RULE_OTHERS_OPT,
) -> None:
    """Find a situation, answer its questions, and print the ruling.

    Answers come from --answers FILE, then --answer/--seat (which win); anything still
    missing is asked at the prompt, or is an error under --no-input. An --answer/--seat the
    ruling never reads is named on standard error (a slip, such as exposers for exposer).

    The ruling is recorded in the rulings log, as printed, when --table, --round, --judge,
    --event or --db is given or an event is configured (REFEREE_EVENT, 'referee log event');
    --no-log records nothing. Without any of these the log is not opened at all.
    """
    from ..store.context import db_path, event_card, log_context, read_event
    from .defaults import check_default, differs, event_default

    situation = " ".join(words) if words else None  # `referee rule wrong end` as typed, no quotes
    saved = read_event(db_path(db))  # one read of the event file for both the log and the ruleset
    log_to = log_context(db, event, round_, table, judge, no_log, saved=saved)
    default, where = event_default(saved)  # -r, then the answers file's, then the event's, then nmjl
    if log_to is not None:
        from ..store.rulings import check

        check(log_to.db)
    from ..ruling.answers import normalize
    from ..rules.loader import load_strict
    from ..ruling.scenarios import blame, fact_for, facts_of, load_file, players_map, ruleset_of

    file_facts: dict[str, Any] = {}
    players: dict[str, str] = {}
    sc = load_file(answers, default or "nmjl") if answers is not None else None
    if default and ruleset is None and (sc is None or not sc.data.ruleset and sc.ruleset == default):
        check_default(default, where)
    if sc is not None and situation is None:
        rs = ruleset_of(sc, ruleset, plain=True)  # a wrong ruleset or situation in the file is placed in the file
        situation = sc.situation
    else:
        rs = load_strict(ruleset or (sc.ruleset if sc else default or "nmjl"), plain=True)  # read only: records will do
    if default and (ruleset is not None or (sc is not None and sc.ruleset != default)):
        other = differs(rs, default, where)
        if other:  # a recorded ruling is made under the event's rules; practice may differ
            chosen = f"-r {ruleset} is" if ruleset is not None else f"{answers} is {sc.ruleset if sc else rs.id}'s answers file,"
            if log_to is not None:
                raise UsageError(f"{chosen} not the rules of {where} ({other}): "
                                 f"rule under -r {other}, or add --no-log for a practice ruling")
            err.print(f"referee: note: practice ruling under {safe(rs.id)}, not {safe(other)} as set by {safe(where)}")
    # 'back' at the first question returns to the situation choice, unless answers were given
    # for this situation up front (they would not fit another)
    may_leave = not no_input and sc is None and not answer and not seat and situation not in rs.situations
    shown_for: list[str] = []  # the words whose list of matches the judge chose from, for 'back'
    while True:
        sid = _pick_situation(rs, situation, no_input, shown_for if may_leave else None)
        if sc is not None:
            sc.situation = sid
            file_facts, players = facts_of(rs, sc, card, event_card)  # --card, the file's, the event's card
        facts = dict(file_facts)
        given = {name: (value, "fact") for name, value in _pairs(answer, "--answer").items()}
        given |= {name: (value, "role") for name, value in _pairs(seat, "--seat").items()}
        for name, (value, what) in given.items():
            facts[name] = normalize(name, fact_for(rs, sid, name, what), value)
        players.update(players_map(_pairs(player, "--player"), "--player"))
        tiles = rule_tiles(rs, sc, card, hand, exposed, discards, exposed_by_others, facts)  # the card's answers
        offer_tiles(rs, card, tiles)
        try:
            outcome = _resolve(rs, sid, facts, players, no_input, may_leave)
        except UsageError as exc:
            clash = exc.message.split(": ", 1)[0]
            if sc is None or clash not in file_facts or facts.get(clash) != file_facts[clash]:
                raise
            raise LoadError([blame(sc, exc)]) from None  # the file's answers contradict each other: say where
        if outcome is not BACK:
            break
        situation = None
    tiles = entered_tiles()  # given up front, or entered at a prompt
    if tiles is not None:
        tiles.attach(outcome)
    from ..ruling.render import outcome_json

    # Only what was typed on the command line: an answers file (a scenario) holds answers for
    # other branches by design, and its extra facts are no slip of the judge's.
    unused = {name: facts[name] for name in given if name not in outcome.used}
    document = outcome_json(outcome)
    if unused:
        document["unused"] = unused
    # at a terminal where the judge answered questions, 'more' is offered after the verdict
    offer = not (as_json or full or no_input) and PROMPTED[0] > 0 and is_terminal(sys.stdin) and is_terminal(sys.stdout)
    try:  # shown before it is recorded: a busy log must not keep the judge from reading it
        if as_json:
            print_json(document)
        else:
            _print_outcome(outcome, full, more="" if offer else "--full")
    except (BrokenPipeError, SystemExit) as exc:  # the reader went away (`| head`, a dropped ssh session)
        # rich turns a closed pipe into SystemExit(1) with the BrokenPipeError as its context
        gone = isinstance(exc, BrokenPipeError) or isinstance(exc.__context__, BrokenPipeError)
        if gone and log_to is not None:  # the ruling is made: keep it in the log all the same
            _record(log_to, outcome, players, as_json, document, ask=False, again=again)
        raise
    for name, (value, _) in given.items():
        if name in unused:
            err.print(f"referee: note: {safe(name)}={safe(value)} was not used by this ruling{_asks_for(name, outcome)}")
    if log_to is not None:
        err.print(_record(log_to, outcome, players, as_json, document,
                          ask=not no_input and is_terminal(sys.stdin), again=again))
    if offer:
        _offer_more(outcome)


def _asks_for(name: str, outcome: Any) -> str:
    """' (it asks for exposer)' when a fact the ruling left open is a close name: a likely slip."""
    import difflib

    left_open = [n for n in outcome.used if outcome.facts.get(n) is None]
    hint = difflib.get_close_matches(name, left_open, n=1)
    return f" (it asks for {hint[0]})" if hint else ""


def _record(log_to: Any, outcome: Any, players: dict[str, str], as_json: bool, document: dict[str, Any],
            ask: bool = False, again: bool = False) -> str:
    """Record the ruling; the line that says where, to print once the ruling itself is out.

    The same ruling just recorded at this table and round (a re-run after a lost 'logged' line) is
    recorded again only with --again, or when the judge says so at the prompt."""
    from ..safe import dumps
    from ..store.db import BUSY_MS, when_busy
    from ..store.repeat import already, described
    from ..store.rulings import record

    before = None if again else already(log_to, outcome, players)
    if before is not None:
        if not ask:
            raise UsageError(f"this ruling was {described(before)} (table {before.table}, round {before.round or '-'}); "
                             "not recorded again: add --again to record it a second time")
        if not typer.confirm(f"This ruling was {described(before)}: record again?", default=False, err=True):
            return f"[dim]not recorded again ({described(before)})[/]"

    printed = dumps(document) if as_json else _full_text(outcome)  # the log keeps the notes and citations too
    with when_busy(lambda: err.print(f"referee: the rulings log is busy (another referee is writing); waiting for the log… "
                                     f"retrying for up to {BUSY_MS // 1000} s (Ctrl+C stops: the ruling above is then not "
                                     "recorded; the same command records it later)", highlight=False)):
        r = record(log_to, outcome, players, printed, document)
    where = ", ".join(x for x in (r.event, r.round and f"round {r.round}", r.table and f"table {r.table}") if x)
    return f"[dim]logged {r.id[-8:]}" + (f" ({safe(where)})" if where else "") + f" in {safe(log_to.db)}[/]"
