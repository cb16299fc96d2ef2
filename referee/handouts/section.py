"""The HTML booklet's long lists, written here rather than in booklet.html: each situation's
section, the contents' line for each and the glossary.

They are most of a booklet, and jinja2 spent more time on their loops (a yield and an escape
for every answer, row and line of money) than on all the rest of the page. The text is exactly
what booklet.html printed for them, whitespace and all; booklet.md still prints its pages from
the template. Everything from a ruleset is escaped here, as autoescape would.
"""
from __future__ import annotations

from typing import Any

from . import content
from ..rules.memo import keep


# Booklets escape the same few thousand strings (answers, rulings' sentences, money) again and
# again, ruleset after ruleset: a string is escaped once, then looked up.
_ESCAPED: dict[str, str] = {}


def escape(text: str) -> str:
    """markupsafe's escape of a plain string, as jinja's autoescape writes it (&#39; and &#34;)."""
    done = _ESCAPED.get(text)
    if done is None:
        done = keep(_ESCAPED, text, text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                    .replace('"', "&#34;").replace("'", "&#39;"), 65536)
    return done


def _question(q: content.Question) -> str:
    ask = escape(q.ask)
    if not q.choices:
        return f"    <li>{ask}</li>\n"
    choices = "; ".join(f"<i>{escape(v)}</i>: {escape(label)}" for v, label in q.choices.items())
    return f'    <li>{ask} <span class="help">({choices})</span></li>\n'


def _row(row: content.Row) -> str:
    answers = "<br>".join(f"Q{n} {escape(a)}" for n, a in row.answers)
    if row.goto:
        goto = escape(row.goto)
        said = f'        <td colspan="4">{escape(row.text)} See <a href="#{goto}">{goto}</a>.</td>\n'
    else:
        dead = escape(", ".join(row.dead)) if row.dead else "none"
        money = "<br>".join(escape(line) for line in row.money) if row.money else "none"
        said = (f'        <td class="rid"><b>{escape(str(row.ruling))}</b></td>\n'
                f'        <td class="{"dead" if row.dead else ""}">{dead}</td>\n'
                f"        <td>{money}</td>\n"
                f"        <td>{escape(row.game)}</td>\n")
    return f"      <tr>\n        <td>{answers}</td>\n{said}      </tr>\n"


def table(questions: list[content.Question], rows: list[content.Row], paid: str) -> tuple[str, str]:
    """The questions' list and the decision table, as printed around the flowchart."""
    asked = ("  <h4>The questions</h4>\n  <ol class=\"questions\">\n" + "".join(map(_question, questions))
             + "  </ol>\n") if questions else ""
    decisions = ('  <table class="decisions">\n    <thead><tr><th>Answers</th><th>Ruling</th><th>Dead hands</th>'
                 f"<th>{paid}</th><th>Game</th></tr></thead>\n    <tbody>\n" + "".join(map(_row, rows))
                 + "    </tbody>\n  </table>\n")
    return asked, decisions


def _example(ex: content.Example) -> str:
    borrowed = (f' <span class="sid">(a {escape(ex.borrowed_from)} case; rules the same here)</span>'
                if ex.borrowed_from else "")
    story = f"<p>{escape(ex.story)}</p>" if ex.story else ""
    money = f" {escape('; '.join(ex.money))}." if ex.money else ""
    source = f'<p class="cite">Source: {escape(ex.source)}</p>' if ex.source else ""
    return (f'  <div class="example">\n    <p><b>{escape(ex.title)}</b>{borrowed}</p>\n{story}'
            f"    <p><b>{escape(ex.ruling)}</b>: {escape(ex.text)}{money}</p>\n{source}  </div>\n")


def html(page: content.Page, paid: str, asked: str, decisions: str) -> str:
    """The whole <section> of one situation (without the newline after it)."""
    sit: Any = page.situation
    sid = escape(sit.id)
    help_ = f"<p>{escape(sit.help)}</p>" if sit.help else ""
    examples = ("<h4>Worked examples</h4>" + "".join(map(_example, page.examples))) if page.examples else ""
    cites = f'<p class="cite"><b>Rules cited:</b> {escape("; ".join(page.cites))}.</p>' if page.cites else ""
    return (f'<section class="situation" id="{sid}">\n  <div class="keep">\n'
            f'  <h3>{escape(sit.title)} <span class="sid">{sid}</span></h3>\n'
            f'  <p class="summary">{escape(sit.summary)}</p>\n{help_}{asked}  {page.svg}\n  </div>\n'
            f"{decisions}{examples}{cites}</section>")


def contents(pages: list[content.Page]) -> str:
    """One phase's lines of the contents."""
    return "".join(f'<li><a href="#{sid}">{escape(p.situation.title)}</a> <span class="pg" data-page-of="{sid}"></span></li>'
                   for p in pages for sid in (escape(p.situation.id),))


def glossary(terms: list[tuple[str, str]]) -> str:
    return "".join(f"<dt>{escape(term)}</dt><dd>{escape(text)}</dd>\n" for term, text in terms)
