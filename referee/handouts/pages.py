"""Fill the jinja2 templates. HTML is autoescaped; Markdown escapes every value it prints, so
text from a ruleset (a house rules file is user input) can never inject markup."""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from .. import __version__
from ..rules.loader import Ruleset
from ..ruling.render import GAME_TEXT, tree_graph
from ..safe import controls
from . import content, flowchart, paytable, section

TEMPLATES = Path(__file__).resolve().parent / "templates"
# `$` too: GitHub and many viewers render `$...$` and `$$...$$` as mathematics.
_MD_SPECIAL = re.compile(r"([\\`*_\[\]{}<>|#!~$])")


class Raw(str):
    """Markdown the template builds itself (a mermaid block): printed as is."""


def md_escape(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, (Raw, Markup)):
        return value
    text = " ".join(str(value).split())  # a newline in a table cell would end the row
    return _MD_SPECIAL.sub(r"\\\1", text).replace("&", "&amp;")


def _template_cache() -> jinja2.BytecodeCache | None:
    from ..rules import cache
    from .compiled import kept_in

    where = cache.folder()
    return None if where is None else kept_in(where / "templates")


@lru_cache(maxsize=2)
def _env(fmt: str) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        bytecode_cache=_template_cache(),
        autoescape=fmt == "html",
        finalize=md_escape if fmt == "md" else None,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
    )
    env.globals.update(version=__version__, game_text=GAME_TEXT)
    env.filters["anchor"] = anchor
    return env


_NOT_IN_ANCHOR = re.compile(r"[^\w\- ]")


def anchor(heading: str) -> Raw:
    """The link target GitHub, GitLab and most Markdown viewers give a heading: lower case,
    punctuation dropped, spaces as hyphens."""
    return Raw(_NOT_IN_ANCHOR.sub("", heading.strip().lower()).replace(" ", "-"))


def _render(name: str, fmt: str, **data: Any) -> str:
    # A ruleset is a stranger's text: escape sequences would repaint a terminal the handout is
    # printed to, and bidi overrides would reorder a ruling in every format (the PDF is printed
    # from this HTML). Our templates hold no such characters, so the whole page can be cleaned.
    text = controls(_env(fmt).get_template(f"{name}.{fmt}").render(**data))
    if fmt == "md":
        text = re.sub(r"\n{3,}", "\n\n", text)
    return text


def _head(rs: Ruleset, stamp: str | None) -> dict[str, Any]:
    base = rs.meta.extends
    return {"rs": rs, "meta": rs.meta, "base": base, "stamp": stamp, "unit": rs.scoring.unit}


def booklet(rs: Ruleset, fmt: str, stamp: str | None = None, card: Any = None) -> str:
    """The booklet; with `card` (a cards.index.CardIndex), its lines and values before the glossary."""
    phases = content.phases(rs)
    paid = "Points" if rs.scoring.kind == "points" else "Payments"
    for phase in phases:
        for page in phase.pages:
            sid = page.situation.id
            if fmt == "html":
                page.svg = Markup(flowchart.figure(rs, sid))
                table = page.made.get("html " + paid)  # the scoring is in the reach the table is shared by
                if table is None:
                    table = page.made["html " + paid] = section.table(page.questions, page.rows, paid)
                page.html = Markup(section.html(page, paid, *table))
            else:
                page.svg = Raw("```mermaid\n" + tree_graph(rs, sid, "mermaid").replace("`", "'") + "\n```")
    data: dict[str, Any] = dict(phases=phases, tables=paytable.tables(rs.scoring), glossary=content.glossary(rs),
                                sources=content.bibliography(rs), card=_card(card))
    if fmt == "html":  # the long lists, written by section.py
        data.update(contents={phase.id: Markup(section.contents(phase.pages)) for phase in phases},
                    glossary=Markup(section.glossary(data["glossary"])))
    return _render("booklet", fmt, **data, **_head(rs, stamp))


def _card(idx: Any) -> dict[str, Any] | None:
    """A card's lines for the booklet, family by family: id, the line as printed, X or C, value, note."""
    if idx is None:
        return None
    sections: list[tuple[str, list[tuple[str, str, str, int, str]]]] = []
    for ln in idx.card.lines:
        if not sections or sections[-1][0] != ln.section:
            sections.append((ln.section, []))
        sections[-1][1].append((ln.id, ln.display or ln.printed, ln.mark, ln.value, ln.note))
    return {"id": idx.card.id, "title": idx.card.title, "sections": sections}


def quick_sheet(rs: Ruleset, fmt: str, stamp: str | None = None) -> str:
    from . import sheets  # here, not above: the booklet (the handout most printed) never needs it

    groups = sheets.quick(rs)
    return _render("quick", fmt, groups=groups, font=sheets.quick_font(groups), none_=sheets.NONE, **_head(rs, stamp))


def diff_sheet(rs: Ruleset, base: Ruleset, fmt: str, stamp: str | None = None) -> str:
    from . import sheets

    return _render("diff", fmt, sheet=sheets.differences(base, rs), base_rs=base, **_head(rs, stamp))


def house_sheet(rs: Ruleset, fmt: str, stamp: str | None = None) -> str:
    """One page for the table: each of its customs in one sentence with its number, then
    'everything else: the League's rules, card of YEAR'."""
    from ..rules.loader import load_strict

    customs = list(rs.meta.customs)
    keys = dict.fromkeys(u.cite.split(":", 1)[0].strip() for u in customs)
    sources = [{"key": k, "title": rs.sources[k].title} for k in keys if k in rs.sources]
    effective = rs.meta.effective or next((load_strict(rid).meta.effective for rid in reversed(rs.chain[:-1])
                                           if load_strict(rid).meta.effective), None)
    return _render("house", fmt, customs=customs, sources=sources, year=(effective or "")[:4], **_head(rs, stamp))


def quiz_sheet(rs: Ruleset, fmt: str, stamp: str | None = None, n: int = 10, seed: int = 1,
               topic: str | None = None, with_caveats: bool = False) -> str:
    from .quizsheet import GAMES, questions

    return _render("quiz", fmt, questions=questions(rs, n, seed, topic, with_caveats), games=GAMES, seed=seed,
                   phases=content.PHASE_TITLES,
                   topic=topic, **_head(rs, stamp))
