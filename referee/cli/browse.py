"""Finding situations: search, list, show, rulesets."""
from __future__ import annotations

import os
import sys
from typing import Optional

import typer

from ..errors import LoadError, UsageError
from ..safe import clean, controls
from .base import EXIT_FINDING, RULESET_OPT, app, err, examples, guarded, out, print_json, safe
from .show import is_terminal, styled, width, wrapped


@app.command(short_help="Situations that match a story told in your own words.", epilog=examples("referee search wrong wall", "referee search drew from the back", "referee search -r amja false mahj", "referee search --json \\\n  she said white but it was a flower"))
@guarded
def search(
    words: list[str] = typer.Argument(..., metavar="WORDS", help="What happened, in a few words."),
    ruleset: Optional[str] = RULESET_OPT,
    limit: int = typer.Option(8, "--limit", "-n", help="How many matches to show (at least 1)."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Situations ranked by how well they match WORDS: a story in a judge's own words works.

    Table slang counts ('mahj', 'threw in', 'pushed out'), word forms and small typos are
    forgiven. --json adds, for each match, the title or alias that matched best ("matched")
    and the typed words found in the situation ("words").
    """
    from ..search.rank import asks_amount, near_tie, search_ruleset
    from .defaults import load_for

    if limit < 1:  # else every story would be 'no situation matches'
        raise UsageError(f"--limit: {limit} shows nothing; give 1 or more")
    rs = load_for(ruleset)
    hits = search_ruleset(rs, " ".join(words), limit=limit)
    if as_json:
        close = near_tie(hits)
        print_json([{"id": h.situation.id, "title": h.situation.title, "score": h.score,
                     "matched": h.matched, "words": list(h.words), "near_tie": close and n < 2}
                    for n, h in enumerate(hits)])
        if not hits:  # the same exit code as the text form: scripts test it, not the output
            raise typer.Exit(EXIT_FINDING)
        return
    if not hits:
        err.print(f"referee: no situation matches '{safe(' '.join(words))}'; try 'referee list'")
        raise typer.Exit(EXIT_FINDING)
    close = near_tie(hits)
    for n, h in enumerate(hits):  # the summary on lines of its own: without colour it ran on from the title
        if n == 1 and close:  # the first is no clear winner: say so before the judge reads on
            out.print(styled(("or did you mean:", "bold yellow")))
        wrapped(out, styled((h.situation.id, "bold"), "  " + h.situation.title), rest="      ")
        wrapped(out, styled((h.situation.summary, "dim")), first="    ", rest="    ")
    if asks_amount(" ".join(words)):
        out.print(styled(("Amounts alone: 'referee pay' works them out (referee pay --help).", "dim")))


@app.command("list", epilog=examples("referee list", "referee list --phase mahjong", "referee list -r card-game --json"))
@guarded
def list_(
    ruleset: Optional[str] = RULESET_OPT,
    phase: Optional[str] = typer.Option(None, metavar="PHASE", help="Only this phase: deal, charleston, play, claiming, joker, mahjong, dead, end."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """The situations of a ruleset, by phase of the game."""
    from ..rules.model import PHASES
    from .defaults import load_for

    if phase is not None:
        phase = phase.strip().lower()  # 'Mahjong' as the handout's heading prints it is the same phase
    rs = load_for(ruleset)
    if phase and phase not in PHASES:
        raise UsageError(f"unknown phase '{phase}'; choose one of {', '.join(PHASES)}")
    sits = sorted(rs.situations.values(), key=lambda s: (PHASES.index(s.phase), s.id))
    sits = [s for s in sits if not phase or s.phase == phase]
    if as_json:
        print_json([{"id": s.id, "title": s.title, "phase": s.phase, "summary": s.summary} for s in sits])
        return
    current = None
    for s in sits:
        if s.phase != current:
            if current is not None:
                out.print()  # a blank line between phases, none before the first: `list | head -1` is a phase
            current = s.phase
            out.print(f"[bold]{safe(current)}[/]")
        if width() >= 60:  # room for a column of titles
            wrapped(out, s.title, first=f"  {clean(s.id):<28} ")
        else:
            out.print(f"  {safe(s.id)}")
            wrapped(out, s.title, first="      ", style="dim")


@app.command(short_help="One situation's decision tree, with the facts -a takes.",
             epilog=examples("referee show wrong-end", "referee show mahjong-in-error --facts", "referee show wrong-end --json",
                             "referee show mahjong-in-error \\\n  --format mermaid"))
@guarded
def show(
    words: list[str] = typer.Argument(..., metavar="SITUATION", help="Situation id, or words as for 'rule' (quotes not needed)."),
    ruleset: Optional[str] = RULESET_OPT,
    fmt: str = typer.Option("text", "--format", "-f", metavar="FORMAT", help="text, mermaid or dot."),
    facts: bool = typer.Option(False, "--facts", help="List every fact: its question, the values -a takes, when it is asked."),
    as_json: bool = typer.Option(False, "--json", help="The facts as JSON (what a script needs to answer them)."),
) -> None:
    """One situation's decision tree: each question with the fact -a answers it by
    ("tile_racked="), its answers as -a takes them in the order the prompt numbers them, and
    each ruling. --facts lists the facts alone; --json gives them to a script."""
    from ..ruling.render import fact_table, tree_graph, tree_lines
    from .defaults import load_for

    rs = load_for(ruleset)
    situation = _situation_for(rs, " ".join(words))
    if as_json:
        print_json({"situation": situation, "ruleset": rs.id, "facts": fact_table(rs, situation)})
    elif facts:
        for f in fact_table(rs, situation):
            wrapped(out, styled((f["fact"], "bold"), f"  {f['question']}"), rest="    ")
            takes = ", ".join(f["values"]) if f["values"] else f["type"]
            if f["type"] == "seats":
                takes = "several of " + takes + ", comma-separated"
            wrapped(out, f"takes: {takes}", first="    ", rest="      ")
            wrapped(out, styled(("asked at: " + ", ".join(f["asked"]), "dim")), first="    ", rest="      ")
    elif fmt == "text":
        for line in tree_lines(rs, situation):
            indent = len(line) - len(line.lstrip(" "))
            wrapped(out, line.lstrip(" "), first=" " * indent, rest=" " * (indent + 4))
    elif fmt in ("mermaid", "dot"):
        from ..lint.cache import lint

        problems = lint(rs)  # a graph is drawn from a tree the lint passed (cached: a big ruleset lints for seconds)
        if problems:
            raise LoadError(problems)
        print(controls(tree_graph(rs, situation, fmt)))
    else:
        raise UsageError(f"unknown format '{fmt}'; choose text, mermaid or dot")


def _situation_for(rs: object, words: str) -> str:
    """The situation `show` means: an id, a title or alias typed exactly, else the clear best
    match of a search (said on standard error); near-tied matches are named, not guessed."""
    import difflib

    from ..search.rank import exact, near_tie, search_ruleset

    sits = list(rs.situations.values())  # type: ignore[attr-defined]
    if words in rs.situations:  # type: ignore[attr-defined]
        return words
    hit = exact(sits, words)
    if hit is not None:
        return hit.id
    one = words.strip()
    if " " not in one and ("-" in one or difflib.get_close_matches(one, list(rs.situations), n=1)):  # type: ignore[attr-defined]
        return rs.situation(one).id  # type: ignore[attr-defined]  # an id mistyped: 'did you mean' it
    hits = search_ruleset(rs, words, limit=3)
    if not hits:
        raise UsageError(f"no situation matches '{words}'; try 'referee list'")
    if near_tie(hits):
        names = ", ".join(h.situation.id for h in hits)
        raise UsageError(f"'{words}' matches several situations about as well: {names} (pass the id)")
    err.print(f"[dim]showing {safe(hits[0].situation.id)}, the best match for '{safe(words)}'[/]")
    return hits[0].situation.id


@app.command(short_help="The rulesets referee can find.", epilog=examples("referee rulesets", "REFEREE_RULESETS=~/rules \\\n  referee rulesets --json"))
@guarded
def rulesets(as_json: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """The rulesets referee can find (shipped, and folders named in REFEREE_RULESETS)."""
    from ..rules.cache import same_files
    from ..rules.loader import available, load

    rows = []
    with same_files():  # one listing: nmjl's files are hashed once, not once for each overlay
        loaded = {rid: (folder, *load(folder, plain=True)) for rid, folder in available().items()}  # read only: records will do
    for rid, (folder, rs, problems) in loaded.items():
        rows.append({
            "id": rid,
            "title": rs.meta.title if rs else "(does not load; run referee check)",
            "version": rs.meta.version if rs else "",
            "hash": rs.hash if rs else "",
            "extends": rs.meta.extends if rs else None,
            "situations": len(rs.situations) if rs else 0,
            "scoring": rs.scoring.kind if rs else "",
            "sheet": list(rs.meta.sheet) if rs else [],  # an event's own published rules
            "folder": str(folder),
            "problems": len(problems),
        })
    if as_json:
        print_json(rows)
        return
    # Piped or captured, the listing has no styles to show: plain lines, without importing rich
    # (a fifth of the command's start-up, for the bold and dim of a terminal).
    plain = not is_terminal(sys.stdout) and not os.environ.get("FORCE_COLOR")
    for r in rows:
        ext = f" extends {r['extends']}" if r["extends"] else ""
        if r["sheet"]:
            ext += f"; its own sheet: {', '.join(r['sheet'])}"
        if r["problems"]:
            n = r["problems"]
            ext += f"; {n} problem{'s' if n != 1 else ''}, see 'referee check {r['folder']}'"
        version = f"{r['version']} ({r['hash']})" if r["hash"] else r["version"]
        if plain:
            sys.stdout.write(f"{clean(r['id'])} {clean(version)}  {clean(r['title'])}  "
                             f"({r['situations']} situations, {clean(r['scoring'])}{clean(ext)})\n")
        else:
            out.print(f"[bold]{safe(r['id'])}[/] {safe(version)}  {safe(r['title'])}  [dim]({r['situations']} situations, {safe(r['scoring'])}{safe(ext)})[/]")
