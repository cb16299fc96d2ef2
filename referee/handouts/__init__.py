"""Printed handouts from a ruleset's YAML: the rules booklet, the quick-reference sheet and the
differences sheet, as self-contained HTML, Markdown or PDF.

    from referee.handouts import build
    html = build("tournament", "html")              # the booklet, one self-contained page
    md = build("nmjl", "md", sheet="quick")
    page = build("our-table", "html", sheet="house")   # a house ruleset's customs on one page
    text = build("tournament", "md", sheet="diff", base="nmjl")

Pure apart from PDF, which drives the system Chromium through the optional `pdf` extra.
jinja2 is imported here, never at CLI start-up: `referee handout` imports this package lazily.
"""
from __future__ import annotations

import gc
from typing import Any

from pathlib import Path

from ..errors import UsageError
from ..rules.loader import Ruleset, available, load_strict

FORMATS = ("html", "md", "pdf")
SHEETS = ("booklet", "quick", "diff", "house", "quiz")
PAPERS = {"letter": "Letter", "a4": "A4"}


def build(
    ruleset: str | Path | Ruleset,
    fmt: str = "html",
    sheet: str = "booklet",
    base: str | Path | Ruleset | None = None,
    stamp: str | None = None,
    paper: str = "letter",
    card: Any = None,
    quiz: dict[str, Any] | None = None,
) -> str | bytes:
    """One handout as text (html, md) or bytes (pdf).

    `base` is the ruleset a differences sheet compares against (default: the one this ruleset
    extends). `quiz` holds the quiz sheet's n, seed, topic and with_caveats. `paper` (letter or a4) sizes the PDF; the HTML fits either. `stamp` is printed on the title line (e.g. a date) only when given, so the same
    ruleset always gives the same output.
    """
    enabled = gc.isenabled()
    # A booklet makes hundreds of thousands of short-lived objects and only a few thousand in
    # cycles: the collector, run meanwhile, scanned every ruleset in memory again and again
    # (a sixth of the time of all shipped booklets). The cycles are freed at its next run after.
    # Off while the page is made only, not while Chromium prints it.
    gc.disable()
    try:
        doc = _document(ruleset, fmt, sheet, base, stamp, paper, card, quiz)
    finally:
        if enabled:
            gc.enable()
    if fmt == "pdf":
        from .pdf import html_to_pdf

        return html_to_pdf(doc, PAPERS[paper.lower()])
    return doc


def _document(ruleset: str | Path | Ruleset, fmt: str, sheet: str, base: str | Path | Ruleset | None,
              stamp: str | None, paper: str, card: Any, quiz: dict[str, Any] | None) -> str:
    """The handout as HTML (for html and pdf) or Markdown."""
    from . import pages

    if fmt not in FORMATS:
        raise UsageError(f"unknown format '{fmt}'; choose {', '.join(FORMATS)}")
    if sheet not in SHEETS:
        raise UsageError(f"unknown sheet '{sheet}'; choose {', '.join(SHEETS)}")
    if paper.lower() not in PAPERS:
        raise UsageError(f"unknown paper '{paper}'; choose {', '.join(PAPERS)}")
    rs = ruleset if isinstance(ruleset, Ruleset) else load_strict(ruleset)
    from .content import printable

    for sid in rs.situations:
        printable(rs, sid)
    if sheet == "diff":
        base = base if base is not None else rs.meta.extends
        if base is None:
            raise UsageError(f"ruleset '{rs.id}' extends nothing; name the ruleset to compare with: --base RULESET")
        base_rs = base if isinstance(base, Ruleset) else load_strict(base)
        doc = pages.diff_sheet(rs, base_rs, "md" if fmt == "md" else "html", stamp)
    elif sheet == "house":
        if not rs.meta.customs:
            raise UsageError(f"ruleset '{rs.id}' plays no table customs; make one with 'referee house new FOLDER', then --sheet house -r FOLDER")
        doc = pages.house_sheet(rs, "md" if fmt == "md" else "html", stamp)
    elif sheet == "quiz":
        doc = pages.quiz_sheet(rs, "md" if fmt == "md" else "html", stamp, **(quiz or {}))
    elif sheet == "quick":
        doc = pages.quick_sheet(rs, "md" if fmt == "md" else "html", stamp)
    else:
        doc = pages.booklet(rs, "md" if fmt == "md" else "html", stamp, card)
    return doc


def build_all(fmt: str = "html", sheet: str = "booklet") -> dict[str, str | bytes]:
    """Every shipped ruleset's handout: what the benchmark times (`python -m referee.handouts`)."""
    return {rid: build(rid, fmt, sheet) for rid in available()}
