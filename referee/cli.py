"""The command-line skin: parse, call the core, render, map errors to exit codes.

This is the only module that imports typer. Heavy imports (jinja2 and the like) belong
inside the commands that need them, so `referee rule` starts fast.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Callable, NoReturn, Optional

import typer
from rich.console import Console
from rich.markup import escape

from .errors import LoadError, RefereeError, UsageError

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    rich_markup_mode="rich",
    help="Rulings for American Mah Jongg (NMJL-style): find the situation, answer a few questions, read the ruling.",
    epilog="Start with [bold]referee rule[/bold] and type what happened, e.g. 'wrong wall' or 'false mahj'.",
)
out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)

EXIT_OK, EXIT_FINDING, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


def fail(exc: RefereeError) -> NoReturn:
    if isinstance(exc, LoadError) and len(exc.problems) > 1:
        more = len(exc.problems) - 1
        err.print(f"referee: {escape(str(exc.problems[0]))} (and {more} more; run 'referee check')")
    else:
        err.print(f"referee: {escape(str(exc))}")
    raise typer.Exit(exc.exit_code)


def guarded(fn: Callable[..., Any]) -> Callable[..., Any]:
    """One place that turns expected errors into a line and an exit code."""
    import functools

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except RefereeError as exc:
            fail(exc)
        except KeyboardInterrupt:
            err.print("\nreferee: interrupted")
            raise typer.Exit(EXIT_INTERRUPTED) from None

    return wrapper


def _pairs(items: list[str], flag: str) -> dict[str, str]:
    result = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"{flag} expects NAME=VALUE, got '{item}'")
        result[key.strip()] = value.strip()
    return result


# ---------------------------------------------------------------------------
# rule


RULESET_OPT = typer.Option("nmjl", "--ruleset", "-r", help="Ruleset id, or the path of a ruleset folder.")


def _pick_situation(rs: Any, words: str | None, no_input: bool) -> str:
    from .search import exact, search

    sits = list(rs.situations.values())
    if words:
        if words in rs.situations:
            return words
        hit = exact(sits, words)
        if hit:
            return hit.id
        hits = search(sits, words, limit=5)
        if no_input or not hits:
            if not hits:
                raise UsageError(f"no situation matches '{words}'; try 'referee list'")
            names = ", ".join(h.situation.id for h in hits)
            raise UsageError(f"'{words}' is not a situation id; matches: {names} (pass the id)")
    elif no_input:
        raise UsageError("name the situation (referee rule SITUATION) when using --no-input; see 'referee list'")
    while True:
        if not words:
            words = _ask_line("What happened? (a few words, e.g. 'wrong wall', 'false mahj')")
            if not words.strip():
                words = None
                continue
        if words in rs.situations:
            return words
        hits = search(sits, words, limit=5)
        if not hits:
            out.print(f"[yellow]Nothing matches '{escape(words)}'.[/] Try other words, or 'list' to see all.")
            words = None
            continue
        out.print()
        for i, h in enumerate(hits, 1):
            out.print(f"  [bold]{i}[/]  {escape(h.situation.title)}  [dim]({h.situation.id})[/]")
        choice = _ask_line("Which one? (number, Enter for 1, or new words)").strip()
        if choice == "":
            return hits[0].situation.id
        if choice.isdigit() and 1 <= int(choice) <= len(hits):
            return hits[int(choice) - 1].situation.id
        if choice == "list":
            for s in sits:
                out.print(f"  {s.id}  [dim]{escape(s.title)}[/]")
            words = None
            continue
        words = choice


def _ask_line(prompt: str) -> str:
    try:
        return out.input(f"[bold cyan]?[/] {escape(prompt)} ")
    except EOFError:
        raise UsageError("no more input (standard input closed); use --answer or --no-input") from None


BACK = object()


def _prompt(q: Any, number: int, situation_help: str) -> Any:
    from .answers import normalize
    from .model import SEATS

    d = q.definition
    out.print()
    optional = " [dim](Enter to leave open)[/]" if q.optional else ""
    out.print(f"[bold]{number}. {escape(d.ask)}[/]{optional}")
    options: list[tuple[str, str]] = []
    if d.type == "choice":
        options = list((d.choices or {}).items())
    elif d.type == "seat":
        options = [(s, "") for s in SEATS]
    elif d.type == "yesno":
        options = [("yes", ""), ("no", "")]
    for i, (value, label) in enumerate(options, 1):
        out.print(f"   [bold]{i}[/]  {escape(value)}" + (f"  [dim]{escape(label)}[/]" if label else ""))
    hint = {"seats": "seats, comma-separated", "number": "a number"}.get(d.type, "number or value")
    while True:
        raw = _ask_line(f"answer ({hint}; ? for help, back to revise)").strip()
        if raw == "?":
            out.print(escape(_help_for(q, situation_help)))
            continue
        if raw.lower() == "back":
            return BACK
        if raw == "":
            if q.optional:
                return None
            continue
        try:
            if options and raw.isdigit() and 1 <= int(raw) <= len(options) and d.type != "choice":
                raw = options[int(raw) - 1][0]
            return normalize(q.fact, d, raw)
        except UsageError as exc:
            out.print(f"[red]{escape(exc.message)}[/]")


def _help_for(q: Any, situation_help: str) -> str:
    """The question's own help; else the situation's reference text, so '?' always says something."""
    if q.definition.help:
        return q.definition.help
    if q.definition.type == "seat":
        return "Answer with the seat: East, South, West or North (or E, S, W, N, or the number shown)."
    return situation_help or "No more help for this question."


def _resolve(rs: Any, sid: str, facts: dict[str, Any], players: dict[str, str], no_input: bool) -> Any:
    from .engine import Outcome, advance
    from .scenarios import run

    if no_input:
        return run(rs, sid, facts, players)  # the same replay the scenarios use
    asked: list[str] = []
    while True:
        try:
            step = advance(rs, sid, facts, players)
        except UsageError as exc:  # e.g. two roles given one seat: ask the last answer again
            if not asked:
                raise
            out.print(f"[red]{escape(exc.message)}[/]")
            facts.pop(asked.pop(), None)
            continue
        if isinstance(step, Outcome):
            return step
        answer = _prompt(step, len(asked) + 1, rs.situations[step.situation].help)
        if answer is BACK:
            if not asked:
                out.print("[dim]Nothing to go back to.[/]")
                continue
            facts.pop(asked.pop(), None)
            continue
        facts[step.fact] = answer
        asked.append(step.fact)


def _print_outcome(o: Any) -> None:
    from .render import outcome_lines

    rs = o.ruleset
    title = rs.situations[o.situation].title
    if o.situation != o.start:
        title += f" (reached from: {rs.situations[o.start].title})"
    out.print()
    out.print(f"[bold reverse] Ruling {o.ruling.id} [/] [bold]{escape(title)}[/]")
    for title, lines in outcome_lines(o):
        if title:
            out.print(f"[bold]{escape(title)}:[/]")
            for line in lines:
                out.print(f"  {escape(line)}")
        else:
            for line in lines:
                out.print(f"[bold green]{escape(line)}[/]")
    out.print(f"[dim]ruleset {rs.id} {rs.meta.version} ({rs.hash})[/]")


@app.command(epilog="""Examples:\n
  referee rule                                   # type what happened, pick, answer\n
  referee rule wrong-end --seat picker=West\n
  referee rule misnamed-discard --answer misnamed_claimed_for=mahjong --answer mahjong_with=named --seat misnamer=South --seat caller=North --answer hand_value=25 --no-input --json\n
  referee rule --answers scenarios/nmjl/mahjong-in-error/two-threw-in.yaml""")
@guarded
def rule(
    situation: Optional[str] = typer.Argument(None, help="Situation id, or words to search for."),
    ruleset: Optional[str] = typer.Option(None, "--ruleset", "-r", help="Ruleset id or folder (default: the answers file's, else nmjl)."),
    answer: list[str] = typer.Option([], "--answer", "-a", help="FACT=VALUE; repeatable."),
    answers: Optional[Path] = typer.Option(None, "--answers", help="YAML answers file (a scenario file works)."),
    seat: list[str] = typer.Option([], "--seat", "-s", help="ROLE=SEAT, e.g. picker=West; repeatable."),
    player: list[str] = typer.Option([], "--player", "-p", help="SEAT=NAME, e.g. East=Ruth; repeatable."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON document instead of text."),
    no_input: bool = typer.Option(False, "--no-input", help="Never prompt: a missing answer exits 2 and names it."),
) -> None:
    """Find a situation, answer its questions, and print the ruling.

    Answers come from --answers FILE, then --answer/--seat (which win); anything still
    missing is asked at the prompt, or is an error under --no-input.
    """
    from .answers import normalize
    from .loader import load_strict
    from .scenarios import fact_for, facts_of, load_file, players_map

    file_facts: dict[str, Any] = {}
    players: dict[str, str] = {}
    sc = load_file(answers) if answers is not None else None
    if sc is not None:
        situation = situation or sc.situation
        ruleset = ruleset or sc.ruleset
    rs = load_strict(ruleset or "nmjl")
    sid = _pick_situation(rs, situation, no_input)
    if sc is not None:
        sc.situation = sid
        file_facts, players = facts_of(rs, sc)
    facts = dict(file_facts)
    for name, value in {**_pairs(answer, "--answer"), **_pairs(seat, "--seat")}.items():
        facts[name] = normalize(name, fact_for(rs, sid, name), value)
    players.update(players_map(_pairs(player, "--player")))
    outcome = _resolve(rs, sid, facts, players, no_input)
    if as_json:
        from .render import outcome_json

        out.print_json(json.dumps(outcome_json(outcome)))
    else:
        _print_outcome(outcome)


# ---------------------------------------------------------------------------
# finding situations


@app.command(epilog="Examples:\n\n  referee search wrong wall\n\n  referee search drew from the back")
@guarded
def search(
    words: list[str] = typer.Argument(..., help="What happened, in a few words."),
    ruleset: str = RULESET_OPT,
    limit: int = typer.Option(8, "--limit", "-n", help="How many matches to show."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Situations ranked by how well their title, aliases and summary match WORDS."""
    from .loader import load_strict
    from .search import search as find

    rs = load_strict(ruleset)
    hits = find(list(rs.situations.values()), " ".join(words), limit=limit)
    if as_json:
        out.print_json(json.dumps([{"id": h.situation.id, "title": h.situation.title, "score": h.score, "matched": h.matched} for h in hits]))
        return
    if not hits:
        err.print(f"referee: no situation matches '{' '.join(words)}'; try 'referee list'")
        raise typer.Exit(EXIT_FINDING)
    for h in hits:
        out.print(f"[bold]{h.situation.id}[/]  {escape(h.situation.title)}  [dim]{escape(h.situation.summary)}[/]")


@app.command("list")
@guarded
def list_(
    ruleset: str = RULESET_OPT,
    phase: Optional[str] = typer.Option(None, help="Only this phase: deal, charleston, play, claiming, joker, mahjong, dead, end."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """The situations of a ruleset, by phase of the game."""
    from .loader import load_strict
    from .model import PHASES

    rs = load_strict(ruleset)
    if phase and phase not in PHASES:
        raise UsageError(f"unknown phase '{phase}'; choose one of {', '.join(PHASES)}")
    sits = sorted(rs.situations.values(), key=lambda s: (PHASES.index(s.phase), s.id))
    sits = [s for s in sits if not phase or s.phase == phase]
    if as_json:
        out.print_json(json.dumps([{"id": s.id, "title": s.title, "phase": s.phase, "summary": s.summary} for s in sits]))
        return
    current = None
    for s in sits:
        if s.phase != current:
            current = s.phase
            out.print(f"\n[bold]{current}[/]")
        out.print(f"  {s.id:<28} {escape(s.title)}")


@app.command(epilog="Examples:\n\n  referee show wrong-end\n\n  referee show mahjong-in-error --format mermaid")
@guarded
def show(
    situation: str = typer.Argument(..., help="Situation id."),
    ruleset: str = RULESET_OPT,
    fmt: str = typer.Option("text", "--format", "-f", help="text, mermaid or dot."),
) -> None:
    """One situation's decision tree."""
    from .loader import load_strict
    from .render import tree_graph, tree_lines

    rs = load_strict(ruleset)
    if fmt == "text":
        for line in tree_lines(rs, situation):
            out.print(escape(line))
    elif fmt in ("mermaid", "dot"):
        print(tree_graph(rs, situation, fmt))
    else:
        raise UsageError(f"unknown format '{fmt}'; choose text, mermaid or dot")


@app.command()
@guarded
def rulesets(as_json: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """The rulesets referee can find (shipped, and folders named in REFEREE_RULESETS)."""
    from .loader import available, load

    rows = []
    for rid, folder in available().items():
        rs, problems = load(folder)
        rows.append({
            "id": rid,
            "title": rs.meta.title if rs else "(does not load; run referee check)",
            "version": rs.meta.version if rs else "",
            "extends": rs.meta.extends if rs else None,
            "situations": len(rs.situations) if rs else 0,
            "scoring": rs.scoring.kind if rs else "",
            "folder": str(folder),
        })
    if as_json:
        out.print_json(json.dumps(rows))
        return
    for r in rows:
        ext = f" extends {r['extends']}" if r["extends"] else ""
        out.print(f"[bold]{r['id']}[/] {r['version']}  {escape(r['title'])}  [dim]({r['situations']} situations, {r['scoring']}{ext})[/]")


# ---------------------------------------------------------------------------
# authors' tools


def _ruleset_folder(p: Path) -> Path | None:
    """The ruleset folder a path belongs to: the folder itself, or a file inside it."""
    for candidate in [p, *p.parents][:3]:
        if candidate.is_dir() and (candidate / "ruleset.yaml").is_file():
            return candidate
    return None


@app.command(epilog="Examples:\n\n  referee check\n\n  referee check rulesets/my-house\n\n  referee check scenarios/nmjl")
@guarded
def check(paths: list[Path] = typer.Argument(None, help="Ruleset folders, ruleset ids, scenario files or folders. Default: everything shipped.")) -> None:
    """Validate and lint rulesets and scenarios; prints path:line:col: message for each problem."""
    from .checks import lint
    from .loader import available, load
    from .scenarios import default_paths, replay, scenario_files

    problems = []
    targets: list[str] = []
    scen: list[Path] = []
    if not paths:
        targets = list(available())
        scen = scenario_files([p for p in default_paths() if p.exists()])
    for p in paths or []:
        folder = _ruleset_folder(p)
        if folder is not None:
            targets.append(str(folder))
        elif p.is_dir() and any((c / "ruleset.yaml").is_file() for c in p.iterdir()):
            targets += [str(c) for c in sorted(p.iterdir()) if (c / "ruleset.yaml").is_file()]
        elif not p.exists() and "/" not in str(p) and not p.suffix:
            targets.append(str(p))  # a ruleset id
        else:
            scen += scenario_files([p])
    for t in targets:
        rs, found = load(t)
        problems += found
        if rs is not None:
            problems += lint(rs)
    for f in scen:
        try:
            replay(f)
        except LoadError as exc:
            problems += exc.problems
    problems = list(dict.fromkeys(problems))  # a base file's problem is found once per overlay
    for pr in problems:
        out.print(escape(str(pr)))
    if problems:
        err.print(f"{len(problems)} problem{'s' if len(problems) != 1 else ''} found")
        raise typer.Exit(EXIT_FINDING)
    err.print(f"ok: {len(targets)} ruleset{'s' if len(targets) != 1 else ''}, {len(scen)} scenario file{'s' if len(scen) != 1 else ''} checked")


@app.command("test", epilog="Examples:\n\n  referee test\n\n  referee test scenarios/nmjl/wrong-end")
@guarded
def test_(
    paths: list[Path] = typer.Argument(None, help="Scenario files or folders. Default: all shipped scenarios."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="List passing scenarios too."),
    coverage: Optional[bool] = typer.Option(None, "--coverage/--no-coverage", help="Fail when a ruling leaf is reached by no scenario (default: on when no PATHS are given)."),
) -> None:
    """Replay scenario files; report pass/fail and the ruling leaves no scenario reaches."""
    from .scenarios import default_paths, leaves, run_file, scenario_files

    files = scenario_files(list(paths) if paths else default_paths())
    if coverage is None:
        coverage = not paths
    reached: dict[Path, tuple[Any, set[str]]] = {}  # ruleset folder -> (ruleset, rulings reached)
    passed = failed = 0
    for f in files:
        result, _ = run_file(f)
        if result.ruling and result.loaded is not None:
            reached.setdefault(result.loaded.folder, (result.loaded, set()))[1].add(result.ruling)
        if result.passed:
            passed += 1
            if verbose:
                out.print(f"[green]PASS[/] {escape(str(f))} ({result.ruling})")
        else:
            failed += 1
            out.print(f"[red]FAIL[/] {escape(str(f))}")
            for line in result.failures:
                out.print(f"     {escape(line)}")
    out.print(f"{passed} passed, {failed} failed")
    uncovered = []
    for folder in sorted(reached):
        rs, hit = reached[folder]
        for ruling_id, (sid, nid) in sorted(leaves(rs, own_only=True).items()):
            if ruling_id not in hit:
                uncovered.append(f"{rs.id}: {ruling_id} ({sid}.{nid}) is reached by no scenario")
    for line in uncovered:
        out.print(escape(line))
    if failed or (coverage and uncovered):
        raise typer.Exit(EXIT_FINDING)


@app.command(epilog="Examples:\n\n  referee schema situation\n\n  referee schema --write")
@guarded
def schema(
    kind: str = typer.Argument("situation", help="situation, ruleset, facts, patch or scenario."),
    write: bool = typer.Option(False, "--write", help="Write every schema into the package's schema folder."),
) -> None:
    """Print the JSON Schema of a file kind, for editors' autocompletion."""
    from . import schema as sch

    if write:
        for p in sch.write_all():
            err.print(f"wrote {p}")
        return
    if kind not in sch.KINDS:
        raise UsageError(f"unknown schema '{kind}'; choose one of {', '.join(sch.KINDS)}")
    sys.stdout.write(sch.text(kind))


# ---------------------------------------------------------------------------
# comparing rulesets and settling a Mah Jongg


@app.command("diff", epilog="""Examples:\n
  referee diff nmjl card-game\n
  referee diff tournament tournament-crak --json\n
  referee diff nmjl rulesets/my-house""")
@guarded
def diff_(
    a: str = typer.Argument(..., help="First ruleset id or folder."),
    b: str = typer.Argument(..., help="Second ruleset id or folder."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON document."),
) -> None:
    """Every case where two rulesets rule differently: dead hands, game, payments or points, tiles.

    Walks every path of every situation in both rulesets, branching on every answer either one
    asks; seats and hand values get the same fixed values on both sides.
    """
    from .diff import describe, diff, report_json
    from .loader import load_strict

    rs_a, rs_b = load_strict(a), load_strict(b)
    report = diff(rs_a, rs_b)
    if as_json:
        out.print_json(json.dumps(report_json(report)))
        return
    width = max(len(rs_a.id), len(rs_b.id))
    for s in report.differing:
        out.print()
        out.rule(f"[bold]{escape(s.id)}[/] · {escape(s.title)} [dim]({len(s.differences)} of {s.paths} paths differ)[/]", align="left")
        for d in s.differences:
            answers = ", ".join(f"{k}={v}" for k, v in d.answers.items()) or "(no questions)"
            out.print(f"  [bold]{escape(answers)}[/]  [dim]differs: {', '.join(d.differs)}[/]")
            out.print(f"    {rs_a.id:<{width}}  {escape(describe(d.a, rs_a.scoring.unit))}")
            out.print(f"    {rs_b.id:<{width}}  {escape(describe(d.b, rs_b.scoring.unit))}")
            if "tiles" in d.differs:
                for rid, side in ((rs_a.id, d.a), (rs_b.id, d.b)):
                    for t in side.tiles:
                        out.print(f"      [dim]{rid} tiles: {escape(t)}[/]")
    if report.only_in_a or report.only_in_b:
        out.print()
    if report.only_in_a:
        out.print(f"[bold]only in {rs_a.id}:[/] {', '.join(report.only_in_a)}")
    if report.only_in_b:
        out.print(f"[bold]only in {rs_b.id}:[/] {', '.join(report.only_in_b)}")
    n = sum(len(s.differences) for s in report.differing)
    out.print(f"\n{n} differing path{'s' if n != 1 else ''} in {len(report.differing)} situation{'s' if len(report.differing) != 1 else ''}; "
              f"{report.paths} paths compared; seats and values assumed where a ruling needs them (see --json 'assumed').")


@app.command(epilog="""Examples:\n
  referee pay --winner East --how discard --discarder West --value 30\n
  referee pay --winner South --how self-pick --value 25 --jokerless --player South=Ruth\n
  referee pay --winner North --how discard --discarder East --value 40 --dead West --bettor East\n
  referee pay --ruleset tournament --winner East --how discard --discarder South --value 35 --exposures 2""")
@guarded
def pay(
    winner: str = typer.Option(..., "--winner", "-w", help="Seat that won: East, South, West, North (or E, S, W, N)."),
    how: str = typer.Option(..., "--how", help="discard, self-pick or joker-exchange."),
    discarder: Optional[str] = typer.Option(None, "--discarder", "-d", help="Seat that threw the winning tile (discard wins)."),
    value: int = typer.Option(..., "--value", "-v", min=0, help="Card value of the winning hand (25, 30, 35 ...)."),
    jokerless: bool = typer.Option(False, "--jokerless", help="The hand is jokerless and the winner announced it."),
    singles_and_pairs: bool = typer.Option(False, "--singles-and-pairs", help="A Singles and Pairs hand (never doubled for jokerless)."),
    exposures: Optional[int] = typer.Option(None, "--exposures", min=0, max=4, help="The winner's number of exposures (tournament discarder penalties)."),
    dead: list[str] = typer.Option([], "--dead", help="A seat whose hand is dead; dead hands still pay. Repeatable."),
    bettor: Optional[str] = typer.Option(None, "--bettor", help="Seat a fifth player bet on: she pays or collects exactly like that seat."),
    doubles: bool = typer.Option(False, "--doubles", help="East's opening roll was doubles (house rule 'double dice', if the ruleset has it)."),
    player: list[str] = typer.Option([], "--player", "-p", help="SEAT=NAME (or Bettor=NAME); repeatable."),
    ruleset: str = RULESET_OPT,
    as_json: bool = typer.Option(False, "--json", help="Print one JSON document."),
) -> None:
    """Settle a valid Mah Jongg by the ruleset's schedule, showing every step of the arithmetic."""
    from .answers import seat as to_seat
    from .loader import load_strict
    from .scoring import BETTOR, points, standard

    rs = load_strict(ruleset)
    if how not in ("discard", "self-pick", "joker-exchange"):
        raise UsageError(f"--how must be discard, self-pick or joker-exchange, not '{how}'")
    win = to_seat(winner, "--winner")
    dis = to_seat(discarder, "--discarder") if discarder else None
    if how == "discard" and dis is None:
        raise UsageError("a discard win needs --discarder SEAT")
    if how != "discard" and dis is not None:
        raise UsageError(f"a {how} win has no discarder; drop --discarder")
    dead_seats = [to_seat(d, "--dead") for d in dead]
    names: dict[str, str] = {}
    for key, name in _pairs(player, "--player").items():
        names[BETTOR if key.lower() == "bettor" else to_seat(key, "--player")] = name
    sc = rs.scoring
    if sc.kind == "points":
        if bettor:
            raise UsageError(f"ruleset '{rs.id}' scores points; a bettor only plays for money")
        if doubles:
            raise UsageError(f"ruleset '{rs.id}' scores points; --doubles is a money house rule")
        if how == "discard" and sc.discarder_penalties and exposures is None:
            raise UsageError("the discarder's penalty depends on the winner's exposures: add --exposures N")
        result = points(sc, winner=win, how=how, value=value, discarder=dis, exposures=exposures,
                        jokerless=jokerless, singles_and_pairs=singles_and_pairs, names=names, dead=dead_seats)
    else:
        result = standard(sc, winner=win, how=how, value=value, discarder=dis, jokerless=jokerless,
                          singles_and_pairs=singles_and_pairs, names=names, dead=dead_seats,
                          dice_doubles=doubles, bettor_on=to_seat(bettor, "--bettor") if bettor else None)
    totals = result.totals()
    if as_json:
        out.print_json(json.dumps({
            "ruleset": rs.id, "kind": sc.kind, "unit": sc.unit,
            "winner": win, "how": how, "discarder": dis, "value": value,
            "lines": result.lines,
            "payments": [{"from": p.payer.seat, "to": p.payee.seat, "amount": p.amount, "formula": p.formula} for p in result.payments],
            "points": {s.party.seat: s.points for s in result.scores},
            "totals": totals,
            "names": names,
        }))
        return
    label = lambda s: f"{s} ({names[s]})" if s in names else s  # noqa: E731
    out.rule(f"[bold]Settlement[/] · {escape(rs.meta.title)}", align="left")
    for line in result.lines:
        out.print(f"  {escape(line)}")
    if result.payments:
        out.print(f"[bold]Payments ({escape(sc.unit)}):[/]")
        for p in result.payments:
            out.print(f"  {escape(p.text)}")
    out.print(f"[bold]Totals ({escape(sc.unit)}):[/]")
    for s, n in totals.items():
        out.print(f"  {escape(label(s)):<16} {n:+d}")
    out.print(f"[dim]ruleset {rs.id} {rs.meta.version} ({rs.hash})[/]")


def main() -> None:
    try:
        app(prog_name="referee")
    except KeyboardInterrupt:
        err.print("\nreferee: interrupted")
        sys.exit(EXIT_INTERRUPTED)
