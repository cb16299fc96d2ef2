"""`referee house`: a home table's own rules from a catalogue of customs (new, edit, list)."""
from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any, Optional

import typer

from ..errors import UsageError
from .base import App, app, ask, err, examples, guarded, out, print_json, safe
from .show import styled, wrapped

house_app = App(no_args_is_help=True, help="Your table's own rules: choose its customs from a catalogue, get a ruleset folder.")
app.add_typer(house_app, name="house", short_help="Your table's own rules (pie, double dice, hot wall...) as a ruleset.")

CUSTOM_OPT = typer.Option([], "--custom", "-c", metavar="ID[=NUMBER]",
                          help="A custom the table plays, e.g. pie=100 or dice-doubles (its default number); repeatable. See 'referee house list'.")
NO_INPUT_OPT = typer.Option(False, "--no-input", help="Ask nothing: play exactly the --custom given (for scripts).")


@house_app.command("list", epilog=examples("referee house list", "referee house list --json"))
@guarded
def list_(as_json: bool = typer.Option(False, "--json", help="Print one JSON document.")) -> None:
    """Print the catalogue: one custom a line, its id, what it does, the source that describes it."""
    from ..house import catalogue
    from ..rules.loader import load_strict

    cat = catalogue()
    sources = load_strict("nmjl").sources
    if as_json:
        print_json([{"id": c.id, "title": c.title, "description": c.describe, "source": c.cite,
                     "number": ({"ask": c.number.ask, "default": c.number.default, "min": c.number.min, "max": c.number.max}
                                if c.number else None),
                     "conflicts": sorted(c.conflicts)} for c in cat.values()])
        return
    width = max(map(len, cat))
    for c in cat.values():
        title = (sources.get(c.source_key) or c.sources.get(c.source_key) or {})
        name = title.title if hasattr(title, "title") else title.get("title", "")
        number = f" [number: {c.number.default}]" if c.number else ""
        out.print(safe(f"{c.id:<{width}}  {c.describe}{number} (source: {c.cite}{', ' + name if name else ''})"), soft_wrap=True)


def _line(prompt: str) -> str:
    from .rule import QUIT, _ask_line, _quit

    try:
        raw = _ask_line(prompt).strip()
    except UsageError as exc:  # input ended: the folder is written only after the last answer
        raise UsageError(exc.message.replace("nothing was ruled", "nothing was written")
                         .replace("use --answer or --no-input", "use --custom with --no-input")) from None
    if raw.lower() in QUIT:
        _quit()
    return raw


def _yes(prompt: str, default: bool) -> bool:
    hint = "Y/n" if default else "y/N"
    while True:
        raw = _line(f"{prompt} ({hint})").lower()
        if raw == "":
            return default
        if raw in ("y", "yes"):
            return True
        if raw in ("n", "no"):
            return False
        wrapped(ask, "Answer y or n (Enter keeps the answer in capitals; q quits).", style="red")


def _number(c: Any, default: int) -> int:
    while True:
        raw = _line(f"{c.number.ask} (Enter for {default})")
        try:
            return c.check_number(raw or default)
        except UsageError as exc:
            wrapped(ask, exc.message, style="red")


def _interview(cat: dict[str, Any], today: dict[str, int | None]) -> dict[str, int | None]:
    """One question a custom, in catalogue order; a custom that conflicts with one chosen is not offered."""
    chosen: dict[str, int | None] = {}
    for i, c in enumerate(cat.values(), 1):
        clash = [x for x in c.conflicts if x in chosen]
        if clash:
            wrapped(ask, styled((f"{i}. {c.title}: not offered, since you play {cat[clash[0]].title}.", "dim")))
            continue
        ask.print()
        wrapped(ask, styled((f"{i}. {c.title}", "bold"), f"  {c.describe}"), rest="   ")
        wrapped(ask, styled((f"source: {c.cite}", "dim")), first="   ")
        if _yes("Does your table play it?", c.id in today):
            chosen[c.id] = _number(c, today.get(c.id) or c.number.default) if c.number else None
    return chosen


def _wanted(custom: list[str]) -> dict[str, str | None]:
    from ..house.catalogue import parse_custom

    return dict(parse_custom(raw) for raw in custom)


def _finish(folder: Path) -> None:
    """Check the folder, say what it changes against nmjl in plain words, and how to make it the default."""
    from ..lint.cache import lint
    from ..rules.loader import load, load_strict

    rs, problems = load(folder)  # not load_strict: that keeps what this process loaded before the rewrite
    problems += lint(rs) if rs is not None else []
    if problems:
        for pr in problems:
            out.print(safe(pr))
        raise UsageError(f"{folder}: 'referee check' found {len(problems)} problem(s) in the folder")
    wrapped(out, styled(("check: ok", "bold green"), f" ({folder})"))
    base = load_strict(rs.meta.extends or "nmjl")
    for line in plain_summary(base, rs):
        wrapped(out, line, rest="  ")
    wrapped(out, styled(("To rule by it:", "bold"), f" referee rule -r {folder} (or 'referee pay -r {folder} ...')."), rest="  ")
    wrapped(out, styled(("To make it the default:", "bold"),
                        f" export REFEREE_RULESET={folder.resolve()} (add it to your shell's profile), or for an event: "
                        f"referee log event NAME --ruleset {folder.resolve()}. The table's sheet: referee handout --sheet house -r {folder}."),
            rest="  ")


def plain_summary(base: Any, rs: Any) -> list[str]:
    """`referee diff BASE FOLDER` in a few plain sentences: how many situations rule differently, with an example."""
    from ..diff import diff, summarize

    report = diff(base, rs)
    s = summarize(report, base, rs)
    sits = s.situations()
    lines = []
    if sits:
        mine = {r for u in rs.meta.customs for r in u.rulings}
        owned = sorted(s.owned, key=lambda o: (o.shown.b.ruling not in mine, o.situation))
        eg = owned[0]
        ruling = _ruling(rs, eg.situation, eg.shown.b.ruling)
        said = _plain(ruling.says) if ruling is not None else (eg.shown.b.ruling or "")
        n = len(sits)
        lines.append(f"Compared with {base.id}: {n} situation{'s rule' if n != 1 else ' rules'} differently "
                     f"({len(s.owned)} case{'s' if len(s.owned) != 1 else ''}); e.g. {eg.title.lower()}: {said}")
    else:
        lines.append(f"Compared with {base.id}: every situation rules alike.")
    new = report.only_in_b
    if new:
        lines.append("New situations: " + ", ".join(f"{rs.situations[x].title} ({x})" for x in new) + ".")
    money = [u.says for u in rs.meta.customs if u.scoring]
    if money:
        lines.append("Every Mah Jongg paid under it follows: " + " ".join(money))
    lines.append(f"Every difference, case by case: referee diff {base.id} {rs.folder}")
    return lines


def _ruling(rs: Any, sid: str, rid: str | None) -> Any:
    from ..rules import model as m

    for node in rs.situations[sid].nodes.values():
        if isinstance(node, m.RulingNode) and node.ruling.id == rid:
            return node.ruling
    for other in rs.situations.values():
        for node in other.nodes.values():
            if isinstance(node, m.RulingNode) and node.ruling.id == rid:
                return node.ruling
    return None


def _plain(says: str) -> str:
    """A ruling's first sentence with its roles as words: '{discarder} pays' -> 'the discarder pays'."""
    text = re.sub(r"\{(\w+)\}", lambda mt: "the " + mt.group(1).replace("_", " "), " ".join(says.split()))
    first = re.split(r"(?<=[.])\s", text, maxsplit=1)[0]
    return first if first.endswith((".", ":")) else first + "."


def _build(folder: Path, chosen: dict[str, int | None], title: str) -> None:
    from ..house import write

    answers = write(folder, chosen, title)
    names = ", ".join(f"{cid}={n}" if n is not None else cid for cid, n in answers.customs.items()) or "none (the League's rules)"
    wrapped(out, styled(("Wrote", "bold"), f" {folder}/ ({len(answers.files)} files and {folder.name}/house-answers.yaml). Customs: {names}."), rest="  ")
    _finish(folder)


@house_app.command("new", epilog=examples(
    "referee house new",
    "referee house new our-table",
    "referee house new our-table \\\n  --custom pie=100 \\\n  --custom dice-doubles --no-input"))
@guarded
def new(
    folder: Optional[Path] = typer.Argument(None, metavar="[FOLDER]", help="The folder to write (asked when not given)."),
    custom: list[str] = CUSTOM_OPT,
    title: Optional[str] = typer.Option(None, "--title", help="The ruleset's title (default: \"Our table's rules\")."),
    no_input: bool = NO_INPUT_OPT,
) -> None:
    """Answer a few questions, one custom each, and get your table's own ruleset folder.

    Writes FOLDER with the ruleset and an answers file (house-answers.yaml) beside it, checks it,
    and says what it changes against the League's rules. --custom answers up front; with
    --no-input nothing is asked."""
    from ..house import catalogue, choose

    cat = catalogue()
    wanted = _wanted(custom)
    choose(cat, wanted)  # an unknown id or a conflict is refused before anything is asked
    if folder is None:
        if no_input:
            raise UsageError("name the folder (referee house new FOLDER) when using --no-input")
        folder = Path(_line("Folder for your table's rules (Enter for our-table)") or "our-table")
    if folder.exists() and any(folder.iterdir()):
        raise UsageError(f"{folder}: already exists and is not empty; choose a new folder, or 'referee house edit {folder}'")
    if no_input:
        chosen = choose(cat, wanted)
        name = title or "Our table's rules"
    else:
        wrapped(ask, styled(("Your table's rules", "bold"), ": one question a custom. Enter keeps the answer in capitals; q quits. "
                            "Anything not chosen is played by the League's rules."))
        name = title or _line("A title for your rules (Enter for \"Our table's rules\")") or "Our table's rules"
        today = {cid: cat[cid].check_number(v) for cid, v in wanted.items()}
        chosen = choose(cat, _interview(cat, today))
    _build(folder, chosen, name)


@house_app.command("edit", epilog=examples(
    "referee house edit our-table",
    "referee house edit our-table \\\n  --custom pie=300 \\\n  --drop hot-wall --no-input"))
@guarded
def edit(
    folder: Path = typer.Argument(..., metavar="FOLDER", help="A folder 'referee house new' wrote."),
    custom: list[str] = CUSTOM_OPT,
    drop: list[str] = typer.Option([], "--drop", metavar="ID", help="A custom the table no longer plays; repeatable."),
    no_input: bool = NO_INPUT_OPT,
) -> None:
    """Ask again, with today's answers as the defaults, and rewrite the folder's ruleset.

    Only the files 'referee house' wrote (listed in house-answers.yaml) are rewritten; a
    situation file you added by hand is left as it is."""
    from ..house import catalogue, choose, read_answers

    cat = catalogue()
    answers = read_answers(folder)
    today: dict[str, Any] = {cid: n for cid, n in answers.customs.items() if cid in cat}
    gone = [cid for cid in answers.customs if cid not in cat]
    if gone:
        err.print(f"referee: note: {safe(', '.join(gone))} is no longer in the catalogue; it is dropped")
    for cid in drop:
        if cid not in today:
            raise UsageError(f"--drop {cid}: the table does not play '{cid}' (it plays {', '.join(today) or 'no custom'})")
        today.pop(cid)
    today.update(_wanted(custom))
    if no_input:
        chosen = choose(cat, today)
    else:
        wrapped(ask, styled(("Your table's rules", "bold"), ": the same questions, today's answers in capitals; q quits without changing anything."))
        chosen = choose(cat, _interview(cat, {cid: cat[cid].check_number(v) for cid, v in choose(cat, today).items()}))
    _build(folder, chosen, answers.title)
