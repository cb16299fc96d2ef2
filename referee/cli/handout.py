"""Printed handouts: the rules booklet, the quick-reference sheet, the differences sheet."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer

from ..errors import UsageError
from .base import RULESET_OPT, app, err, examples, format_for, guarded, safe


@app.command(short_help="Print the rules: booklet, quick sheet or differences.", epilog=examples(
    "referee handout --ruleset tournament \\\n  --format html -o rules.html",
    "referee handout --format md > RULES.md",
    "referee handout --sheet quick \\\n  --format pdf --paper a4 \\\n  -o penalty-sheet.pdf",
    "referee handout --ruleset tournament \\\n  --sheet diff --base nmjl \\\n  --format html -o changes.html",
    "referee handout --sheet house \\\n  -r our-table -o our-rules.pdf",
    "referee handout --sheet quiz -n 12 \\\n  --seed 7 -o quiz.pdf"))
@guarded
def handout(
    ruleset: Optional[str] = RULESET_OPT,
    fmt: Optional[str] = typer.Option(None, "--format", "-f", metavar="FORMAT", help="html (one self-contained file), md (Markdown) or pdf (needs the pdf extra). Default: from -o's extension, else html."),
    sheet: str = typer.Option("booklet", "--sheet", "-s", metavar="SHEET", help="booklet (everything), quick (one or two pages), diff (changes from --base), house (a house ruleset's customs on one page) or quiz (stories to answer, the key on its own pages)."),
    base: Optional[str] = typer.Option(None, "--base", "-b", metavar="RULESET", help="For --sheet diff: the ruleset to compare with (default: the one it extends)."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", metavar="PATH", help="Write here instead of standard output (required for pdf)."),
    paper: str = typer.Option("letter", "--paper", metavar="PAPER", help="PDF paper size: letter or a4 (the HTML prints on either)."),
    card: Optional[str] = typer.Option(None, "--card", metavar="CARD", help="Booklet: add this card's lines and values ('practice' or a card file)."),
    questions: Optional[int] = typer.Option(None, "--questions", "-n", metavar="N", help="For --sheet quiz: how many stories (default 10)."),
    seed: Optional[int] = typer.Option(None, "--seed", metavar="N", help="For --sheet quiz: which stories (default 1; 'referee quiz --seed N' asks the same)."),
    topic: Optional[str] = typer.Option(None, "--topic", metavar="PHASE|SITUATION", help="For --sheet quiz: one phase of the game or one situation."),
    with_caveats: bool = typer.Option(False, "--with-caveats", help="For --sheet quiz: also stories whose published answer the ruleset contradicts or that are one writer's opinion, with the caveat."),
    stamp: Optional[str] = typer.Option(None, "--stamp", metavar="TEXT", help="Text printed as 'Printed ...' on the title, e.g. a date. Off by default so output is reproducible."),
) -> None:
    """Print a ruleset for the table: the rules booklet, a quick-reference sheet, or its changes from a base.

    Everything comes from the same YAML that `referee rule` rules from: the rulings through the engine, the worked examples from the scenarios, the amounts from the scoring code.
    """
    from ..handouts import FORMATS, SHEETS, build
    from .defaults import ruleset_for

    fmt = format_for(fmt, output, EXTENSIONS, "html")
    if fmt not in FORMATS:
        raise UsageError(f"unknown format '{fmt}'; choose {', '.join(FORMATS)}")
    if sheet not in SHEETS:
        raise UsageError(f"unknown sheet '{sheet}'; choose {', '.join(SHEETS)}")
    if base and sheet != "diff":
        raise UsageError("--base goes with --sheet diff")
    quiz = None
    if sheet == "quiz":
        quiz = {"n": 10 if questions is None else questions, "seed": 1 if seed is None else seed, "topic": topic,
                "with_caveats": with_caveats}
    elif questions is not None or seed is not None or topic is not None or with_caveats:
        raise UsageError("-n, --seed, --topic and --with-caveats go with --sheet quiz")
    if fmt == "pdf" and output is None:
        raise UsageError("--format pdf writes a file: add -o FILE.pdf")
    idx = None
    if card:
        if sheet != "booklet":
            raise UsageError("--card goes with the booklet (--sheet booklet)")
        from ..cards import load as load_card

        idx = load_card(card)
    doc = build(ruleset_for(ruleset), fmt, sheet, base=base, stamp=stamp, paper=paper, card=idx, quiz=quiz)
    if output is None:
        sys.stdout.write(doc if isinstance(doc, str) else doc.decode())
        return
    from ..writing import write_whole

    write_whole(output, doc)  # a full disk leaves the booklet that was there, not an empty file
    err.print(f"wrote {safe(output)}")


EXTENSIONS = {".html": "html", ".htm": "html", ".md": "md", ".markdown": "md", ".pdf": "pdf"}
