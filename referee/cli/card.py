"""`referee card check|show` and `referee hand verify|dead`: the card, and the judge's two calls."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

import typer

from .. import __version__
from ..errors import UsageError
from .base import EXIT_FINDING, app, examples, guarded, out, print_json, safe
from .helpfmt import App
from .show import clean, styled, wrapped

card_app = App(no_args_is_help=True, help="A year's card as a YAML file: lint it, print it.",
               epilog="Only the invented practice card ships (id 'practice'); type your own with "
                      "'referee card new FILE', or start from 'referee card template > my-card.yaml'.")
hand_app = App(no_args_is_help=True, help="Check a declared Mah Jongg against the card, or whether a player is dead.",
               epilog="Tiles: digits then a suit (2033B, 55C, 666D), 0 soap, R G dragons, N E W S, F flower, J joker.")
app.add_typer(card_app, name="card", short_help="A year's card: check a card file, show a card.")
app.add_typer(hand_app, name="hand", short_help="Is that Mah Jongg? Is the hand dead? Judged against the card.")

CARD_OPT = typer.Option(None, "--card", "-c", metavar="CARD",
                        help="'practice' (the invented card that ships), or the path of a card file; "
                             "default: the card: of the ruleset or event.")
EXPOSED_OPT = typer.Option([], "--exposed", "-x", metavar="GROUP",
                           help="A group exposed before Mah Jongg, e.g. 555C or 55JC; repeatable.")
SUIT_STYLE = {"a": "green", "b": "red", "c": "blue"}


def choose_card(name: str | None, ruleset: str | None = None) -> Any:
    """The card index for --card, else the event's card, else the card: of the ruleset (-r, else the
    event's), else a clear error."""
    from ..cards import load
    from .tiles import default_card

    name = default_card(name)
    if name:
        return load(name)
    from ..cards.answer import card_of
    from .defaults import load_for

    return card_of(load_for(ruleset), None)


@card_app.command("check", epilog=examples("referee card check my-card.yaml", "referee card check \\\n  my-card.yaml --examples", "referee card check practice"))
@guarded
def check(
    files: list[Path] = typer.Argument(..., metavar="FILE...", help="Card files to lint (or a shipped card's id, as practice)."),
    show_examples: bool = typer.Option(False, "--examples", help="Print one hand for every line, to read the card back against the "
                                       "printed one (marked where the set cannot make it without jokers)."),
) -> None:
    """Lint card files: path:line:col for each problem (exit 1); warnings for wordings a judge could misread.

    A card may hold 500 lines and 20,000 ways to make them (one line 5,000), in a file of at
    most 256 kB: far above any printed card, and what keeps a shared card file from hanging
    a judge. The last line says what this card costs."""
    from ..cards.store import check as check_card
    from ..errors import LoadError

    bad = 0
    for path in files:
        if not path.exists() and len(path.parts) == 1 and path.suffix.lower() not in (".yaml", ".yml"):
            from ..cards.store import locate

            path = locate(str(path))  # a shipped card's id, as --card takes it (an unknown one: one line, exit 2)
        try:
            card, problems, warnings, raw = check_card(path)
        except LoadError as exc:
            for p in exc.problems:
                out.print(safe(str(p)), soft_wrap=True)
            bad += len(exc.problems)
            continue
        for p in problems + warnings:
            out.print(safe(str(p)), soft_wrap=True)
        bad += len(problems)
        if show_examples:
            from ..cards.printed import example

            for line, found in zip(card.lines, raw):
                if found:
                    tiles, jokers, binding = example(found)
                    need = f"  [yellow]needs {jokers} joker{'s' if jokers != 1 else ''}[/]" if jokers else ""
                    out.print(f"  {safe(line.id):<4} {safe(tiles)}{need}  [dim]{safe(binding)}[/]", soft_wrap=True)
        if not problems:
            from ..cards.limits import MAX_CARD_WAYS, MAX_LINE_WAYS, ways

            n = sum(len(r) for r in raw)
            cost = [(ways(line), line.id) for line in card.lines]
            most = max(cost, default=(0, ""))
            out.print(f"[dim]{safe(str(path))}: {len(card.lines)} lines, {n} hands, "
                      f"{len(warnings)} warning{'s' if len(warnings) != 1 else ''}; "
                      f"cost {sum(c for c, _ in cost):,} of the {MAX_CARD_WAYS:,} ways a card may take"
                      + (f" (the most, line {safe(most[1])}: {most[0]:,} of {MAX_LINE_WAYS:,})" if most[1] else "") + "[/]")
    if bad:
        raise typer.Exit(EXIT_FINDING)


def _look(line: Any) -> Any:
    """A line the way the printed card shows it: suits as colours (their letters kept when there
    is no colour), decorations from `display`, forms joined by -or-."""
    from rich.text import Text

    colour = out.get().color_system is not None
    text = Text()
    for f, form in enumerate(line.forms):
        if f:
            text.append(" -or- ", style="dim")
        for i, tok in enumerate(form):
            if i:
                text.append(" ")
            for j, block in enumerate(tok):
                if j:
                    text.append(" or ", style="dim")
                for ch in block.text:
                    if ch in SUIT_STYLE:
                        if not colour:
                            text.append(ch, style="dim")
                        continue
                    suit = _suit_after(block.text, block.text.index(ch)) if ch != "0" else None
                    text.append(clean(ch), style=SUIT_STYLE.get(suit or "", ""))
    return text


def _suit_after(block: str, at: int) -> str | None:
    for ch in block[at:]:
        if ch in SUIT_STYLE:
            return ch
    return None


@card_app.command("show", epilog=examples("referee card show practice", "referee card show my-card.yaml --json"))
@guarded
def show(
    card: Optional[str] = typer.Argument(None, metavar="CARD", help="'practice' or a card file (default: the ruleset's card:)."),
    ruleset: Optional[str] = typer.Option(None, "--ruleset", "-r", metavar="RULESET", help="Take the card from this ruleset's card:."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON document."),
) -> None:
    """Print a card as the printed card reads: family by family, each line with X or C and its value."""
    from ..cards.printed import varies

    idx = choose_card(card, ruleset)
    c = idx.card
    if as_json:
        print_json({"referee_version": __version__, "card": c.id, "title": c.title, "lines": [
            {"id": ln.id, "section": ln.section, "groups": ln.groups, "display": ln.display or None, "value": ln.value,
             "concealed": ln.concealed, "note": ln.note or None, "varies": varies(ln),
             "hands": sum(1 for _ in idx.each(idx.by_line.get(ln.id, 0)))} for ln in c.lines]})
        return
    out.print(f"[bold]{safe(c.title)}[/]  [dim]({safe(c.id)}; colours are suits: any three different suits, not fixed ones)[/]")
    section = None
    for ln in c.lines:
        if ln.section != section:
            section = ln.section
            out.print()
            out.print(f"[bold reverse] {safe(section)} [/]")
        look = _look(ln)
        if ln.display:
            look.append_text(styled((f"   ({ln.display})", "dim")))
        head = styled((f"{ln.id:<4}", "dim"), " ", (f"{ln.mark} {ln.value:>3}", "bold"), "  ")
        head.append_text(look)
        if ln.note:
            head.append_text(styled((f"  {ln.note}", "italic dim")))
        wrapped(out, head, first="  ", rest="             ")
        how = varies(ln)
        if how:
            wrapped(out, "varies: " + "; ".join(how), first="             ", style="dim")


def print_verdict(verdict: Any, card: Any) -> None:
    from ..cards.tiles import name
    from ..cards.verify import block_text

    hand = verdict.hand
    shown = f" (exposed: {', '.join(e.text for e in hand.exposures)})" if hand.exposures else ""
    if verdict.made:
        n = len(verdict.made)
        wrapped(out, styled(("Mah Jongg", "bold green"), f": {hand.text}{shown} makes {n} line{'s' if n != 1 else ''} "
                            f"of card {card.id}"), rest="  ")
    else:
        wrapped(out, styled(("Not Mah Jongg", "bold red"), f": {hand.text}{shown} makes no line of card {card.id}"), rest="  ")
    for i, m in enumerate(verdict.made):
        ln = m.line
        best = ("  best", "bold") if i == 0 else ""
        wrapped(out, styled((f"{ln.id}", "bold"), f"  {ln.section}  {ln.printed}  ",
                            (f"{'concealed (C)' if ln.concealed else 'exposed (X)'} {ln.value}", "bold"), best),
                first="  ", rest="      ")
        wrapped(out, f"as {' '.join(block_text(t) for t, _ in m.target.blocks)}" + (f", read with {m.target.binding}" if m.target.binding else ""),
                first="      ", rest="        ", style="dim")
        places = [f"{k} joker{'s' if k != 1 else ''} as {name(t, k)}" for t, k in m.jokers_as]
        places += [f"{e.jokers} in exposure {e.text}" for e in hand.exposures if e.jokers]
        if places:
            wrapped(out, "jokers: " + "; ".join(places), first="      ", rest="        ")
    if verdict.made:
        value = verdict.value()
        extra = ""
        if hand.jokerless:
            extra = (", jokerless: paid double if the winner announced it" if verdict.doubled()
                     else ", jokerless, but this family is never doubled")
        wrapped(out, styled(("Value: ", "bold"), f"{value} ({verdict.best.line.id}){extra}"))
        return
    if verdict.nearest:
        out.print(styled(("Nearest lines:", "bold")))
    for near in verdict.nearest:
        ln = near.line
        off = f"{near.distance} tile{'s' if near.distance != 1 else ''} off"
        wrapped(out, styled((ln.id, "bold"), f"  {ln.section}  {ln.printed}  {ln.mark} {ln.value}  ", (off, "dim")),
                first="  ", rest="      ")
        if near.target.binding:
            wrapped(out, f"as {' '.join(block_text(t) for t, _ in near.target.blocks)}, read with {near.target.binding}",
                    first="      ", rest="        ", style="dim")
        for reason in near.reasons:
            wrapped(out, reason, first="    - ", rest="      ")


@hand_app.command("verify", epilog=examples(
    'referee hand verify \\\n  FF 2033B 3333C 3333D \\\n  --exposed 3333C --card practice',
    'referee hand verify \\\n  "FF 2033B 33J3C 3333D" \\\n  -x 33J3C -c my-card.yaml --json',
    'referee hand verify \\\n  --batch hands.jsonl \\\n  -c my-card.yaml'))
@guarded
def verify_(
    hand_words: Optional[list[str]] = typer.Argument(None, metavar="HAND", help="All 14 tiles, exposures included, e.g. FF 2033B 3333C 3333D (quotes not needed)."),
    exposed: list[str] = EXPOSED_OPT,
    card: Optional[str] = CARD_OPT,
    ruleset: Optional[str] = typer.Option(None, "--ruleset", "-r", metavar="RULESET", help="Take the card from this ruleset's card:."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON document."),
    batch: Optional[str] = typer.Option(None, "--batch", metavar="FILE", help="JSON lines of hands ({\"hand\": ..., \"exposed\": [...]}), - for standard input; one verdict a line."),
) -> None:
    """Which card lines a declared hand makes (value, exposed or concealed, where each joker
    stands); a hand that makes none gets the nearest lines and why each fails, and exit 1 (a
    finding). --batch FILE (or -) reads one JSON object a line, {"hand": "...", "exposed": [...]},
    and writes one verdict a line: an event's winning hands checked at once."""
    from ..cards.verify import read_hand, verify

    if batch is not None:
        if hand_words or exposed:
            raise UsageError("--batch reads the hands from the file; give no HAND or --exposed with it")
        _verify_batch(batch, choose_card(card, ruleset))
        return
    if not hand_words:
        raise UsageError("give the hand (e.g. referee hand verify FF 2033B 3333C 3333D), or --batch FILE")
    the_hand = read_hand(" ".join(hand_words), exposed)  # a typing slip is refused before the card is read
    idx = choose_card(card, ruleset)
    verdict = verify(idx, the_hand)
    if as_json:
        from ..cards.report import hand_json

        print_json({"referee_version": __version__, "card": idx.card.id, **hand_json(verdict)})
    else:
        print_verdict(verdict, idx.card)
    if verdict.best is None:  # "Not Mah Jongg" is a finding, as the README's exit codes say
        raise typer.Exit(EXIT_FINDING)


def _verify_batch(source: str, idx: Any) -> None:
    """One verdict a line for each hand a line; a bad line gets its error in its own line
    (with its line number), and the run goes on: one typo must not hide a whole event's hands."""
    import json
    import sys

    from ..cards.report import hand_json
    from ..cards.verify import read_hand, verify

    stream = sys.stdin if source == "-" else open(source, encoding="utf-8")  # noqa: SIM115 (closed below)
    found = False
    try:
        for number, line in enumerate(stream, 1):
            if not line.strip():
                continue
            try:
                item = json.loads(line)
                if not isinstance(item, dict) or not isinstance(item.get("hand"), str):
                    raise UsageError('each line is a JSON object with "hand": "TILES" (and "exposed": [...])')
                exposed = item.get("exposed") or []
                if not isinstance(exposed, list) or not all(isinstance(x, str) for x in exposed):
                    raise UsageError('"exposed" is a list of groups, e.g. ["3333C"]')
                verdict = verify(idx, read_hand(item["hand"], exposed))
                doc = {"line": number, **({"id": item["id"]} if "id" in item else {}), **hand_json(verdict)}
                found = found or verdict.best is None
            except json.JSONDecodeError as exc:
                found = True
                doc = {"line": number, "error": f"not a JSON object: {exc.msg}"}
            except UsageError as exc:
                found = True
                doc = {"line": number, "error": exc.message}
            sys.stdout.write(json.dumps(doc, separators=(",", ":")) + "\n")  # ASCII: no terminal control survives
    finally:
        if stream is not sys.stdin:
            stream.close()
    sys.stdout.flush()
    if found:
        raise typer.Exit(EXIT_FINDING)


def print_dead(verdict: Any, card: Any, limit: int = 5) -> None:
    from ..cards.verify import block_text

    table = verdict.table
    shown = ", ".join(e.text for e in table.exposures) or "none"
    if verdict.dead:
        wrapped(out, styled(("Dead", "bold red"), f": with exposures {shown}, no line of card {card.id} can still be made "
                            "from the tiles not yet out."), rest="  ")
        for i, kill in enumerate(verdict.nearest):
            if kill.target is None:
                wrapped(out, kill.reasons[0], first="  ", rest="    ")
                continue
            ln = kill.target.line
            label = "Nearest" if i == 0 else "Next"
            wrapped(out, styled((f"{label}: {ln.id}", "bold"), f"  {ln.section}  {ln.printed}  {ln.mark} {ln.value}"),
                    first="  ", rest="      ")
            for reason in kill.reasons:
                wrapped(out, reason, first="    - ", rest="      ")
        return
    n = len(verdict.open)
    wrapped(out, styled(("Not dead", "bold green"), f": with exposures {shown}, {n} line{'s' if n != 1 else ''} of card "
                        f"{card.id} can still be made."), rest="  ")
    for o in verdict.open[:limit]:
        ln = o.target.line
        wrapped(out, styled((ln.id, "bold"), f"  {ln.section}  {ln.printed}  {ln.mark} {ln.value}"), first="  ", rest="      ")
        wrapped(out, f"as {' '.join(block_text(t) for t, _ in o.target.blocks)}" + (f", read with {o.target.binding}" if o.target.binding else ""),
                first="      ", rest="        ", style="dim")
        wrapped(out, "still to gather: " + " ".join(o.still) + (f" (at least {o.jokers_needed} joker{'s' if o.jokers_needed != 1 else ''})" if o.jokers_needed else ""),
                first="      ", rest="        ")
        if o.hot:
            wrapped(out, "hot tiles: " + "; ".join(o.hot), first="      ", rest="        ")
    if n > limit:
        wrapped(out, f"... and {n - limit} more (--all lists them)", style="dim")
    wrapped(out, f"Jokers the player could still get: {table.jokers}.", style="dim")


@hand_app.command("dead", epilog=examples(
    'referee hand dead \\\n  -x 22J2B -x 44JJC \\\n  --discards "6D 6D 6D" \\\n  --card practice',
    'referee hand dead -x NNN \\\n  --discards "6D 6D 9B" \\\n  --exposed-by-others "555C 2JJ2B" \\\n  --card practice --json'))
@guarded
def dead_(
    exposed: list[str] = typer.Option([], "--exposed", "-x", metavar="GROUP", help="The player's exposures, e.g. 555C or 55JC; repeatable."),
    discards: str = typer.Option("", "--discards", "-d", metavar="TILES", help="Every tile in the discards, e.g. \"6D 6D 9B J\"."),
    others: list[str] = typer.Option([], "--exposed-by-others", "-o", metavar="TILES", help="The other players' exposures, jokers included; repeatable."),
    count_jokers: bool = typer.Option(True, "--others-jokers/--no-others-jokers",
                                      help="Count the jokers in others' exposures as ones the player could still redeem (default) or not."),
    card: Optional[str] = CARD_OPT,
    ruleset: Optional[str] = typer.Option(None, "--ruleset", "-r", metavar="RULESET", help="Take the card from this ruleset's card:."),
    show_all: bool = typer.Option(False, "--all", help="List every line still open (else the five of highest value)."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON document."),
) -> None:
    """Whether any card line is still possible for a player, judged only on tiles everyone can
    see: the lines still open with what each still needs, or the nearest line and what kills it."""
    from ..cards.dead import judge, read_table

    table = read_table(exposed, discards, others, count_jokers)
    idx = choose_card(card, ruleset)
    verdict = judge(idx, table)
    if as_json:
        from ..cards.report import dead_json

        print_json({"referee_version": __version__, "card": idx.card.id, **dead_json(verdict)})
    else:
        print_dead(verdict, idx.card, len(verdict.open) if show_all else 5)
    if verdict.dead:  # "Dead" is a finding, as the README's exit codes say
        raise typer.Exit(EXIT_FINDING)



@card_app.command("template", epilog=examples("referee card template \\\n  > my-card-2026.yaml"))
@guarded
def template() -> None:
    """Print the card template: a commented form that explains the notation, to copy and fill in.
    It ships with referee, so a wheel install has it too (no cards/ folder needed)."""
    from ..cards.store import template_path

    path = template_path()
    if path is None:
        raise UsageError("the card template is missing from this install; reinstall referee")
    import sys

    sys.stdout.write(path.read_text(encoding="utf-8"))


@card_app.command("new", epilog=examples("referee card new my-card-2026.yaml",
                                         "referee card new \\\n  my-card-2026.yaml --template"))
@guarded
def new(
    file: Path = typer.Argument(..., metavar="FILE", help="The card file to start (a new file)."),
    force: bool = typer.Option(False, "--force", help="Replace FILE if it exists."),
    as_template: bool = typer.Option(False, "--template", help="Write the commented card template to FILE, to fill "
                                     "in with an editor, instead of typing the card in line by line."),
) -> None:
    """Type a card in, one printed line at a time: each line is checked as it is typed and shown
    back with an example hand, and the file is saved after every line.

    Type the groups as printed (11 222 3333 444 55), the value, C or X, and the note as printed
    ("Any 5 Consec. Nos."); "E3: 22 444 ..." gives the line its own id. An empty line moves on
    to the next family, an empty family name ends the card; Ctrl-D ends it too, keeping every
    line already accepted."""
    import re

    from ..cards.draft import Draft
    from .base import ask

    if file.exists() and not force:
        raise UsageError(f"{file} exists; card new starts a new card (--force replaces it, "
                         f"'referee card check {file}' checks it)")
    if as_template:
        from ..cards.store import template_path

        path = template_path()
        if path is None:
            raise UsageError("the card template is missing from this install; reinstall referee")
        try:
            file.write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"{file}: cannot write it ({exc.strerror or exc})") from None
        out.print(f"Wrote the card template to {safe(str(file))}: replace its example lines with the card's, "
                  f"then 'referee card check {safe(str(file))} --examples'.")
        return
    stem = re.sub(r"[^a-z0-9-]+", "-", file.stem.lower()).strip("-") or "my-card"
    ask.print(f"[bold]A new card in {safe(str(file))}[/]: one printed line at a time, saved as you go.")
    draft: Draft | None = None
    try:
        cid = _ask(f"Card id [{stem}]") or stem
        while not re.match(r"^[a-z0-9][a-z0-9-]*$", cid):
            cid = _ask("Card id (lower-case letters, digits and '-')") or stem
        title = _ask(f"Title [{stem}]") or stem
        values = _ask("Lowest and highest value on the card [25 75]")
        lo, hi = (int(v) for v in values.split()[:2]) if re.match(r"^\s*\d+\s+\d+\s*$", values) else (25, 75)
        draft = Draft(cid, title, (lo, hi))
        value, family = str(lo), ""
        while True:
            family = _ask("Family, as printed (2468, Consecutive Run ...; Enter ends the card)")
            if not family:
                break
            while True:
                lid = draft.next_id(family)
                typed = _ask(f"  {lid} groups as printed (Enter: next family)")
                if not typed:
                    break
                own = re.match(r"^\s*([A-Za-z0-9#-]+):\s+(.+)$", typed)
                if own:
                    lid, typed = own.group(1), own.group(2)
                value = _ask(f"  {lid} value [{value}]") or value
                kind = (_ask(f"  {lid} C (concealed) or X (exposed) [X]") or "X").strip().upper()
                note = _ask(f"  {lid} note as printed (Enter: none)")
                line: dict[str, Any] = {"id": lid, "groups": typed.strip(),
                                        "value": int(value) if value.strip().isdigit() else value}
                if kind.startswith("C"):
                    line["concealed"] = True
                if note:
                    line["note"] = note
                result = draft.offer(family, line)
                if not result.ok:
                    for problem in result.problems:
                        wrapped(ask, problem, first="  [x] ", rest="      ", style="red")
                    ask.print("  [dim]Not kept; type the line again.[/]")
                    continue
                _save(file, draft.text())
                need = f" (needs {result.jokers} joker{'s' if result.jokers != 1 else ''})" if result.jokers else ""
                wrapped(ask, styled(("  kept ", "green"), (lid, "bold"), f"  for example {result.example}{need}"),
                        rest="      ")
                if result.varies:
                    wrapped(ask, "varies: " + "; ".join(result.varies), first="      ", style="dim")
                for warning in result.warnings:
                    wrapped(ask, warning, first="      ! ", rest="        ", style="yellow")
    except _Ended:
        ask.print()
    n = draft.lines if draft else 0
    if n:
        out.print(f"Saved {n} line{'s' if n != 1 else ''} to {safe(str(file))}; "
                  f"'referee card check {safe(str(file))} --examples' reads it back.")
    else:
        out.print("No line typed; nothing saved.")


class _Ended(Exception):
    """Ctrl-D (or the end of piped input) at a prompt of card new: the lines kept are saved."""


def _ask(prompt: str) -> str:
    from .base import ask

    try:
        return ask.input(f"[bold cyan]?[/] {prompt} ").strip()
    except EOFError:
        raise _Ended from None


def _save(path: Path, text: str) -> None:
    """The card so far, written whole: a reader (or a crash) sees the last card or this one."""
    import os
    import tempfile

    folder = path.resolve().parent
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except OSError as exc:
        os.unlink(tmp)
        raise UsageError(f"cannot write {path}: {exc.strerror}") from None
