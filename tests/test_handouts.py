"""Handouts: booklet, quick sheet and differences sheet say what `referee rule` rules.

Snapshots (tests/snapshots/handouts/) hold the Markdown and SVG of the small test ruleset
tests/rulesets/house, so shipped content can change without touching them. After an
intended change to the layout, refresh them with REFEREE_UPDATE_SNAPSHOTS=1.
"""
from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from referee.handouts import build, content, flowchart, paytable
from referee.rules.loader import data_dir, load_strict
from referee.ruling.render import tree_graph
from referee.ruling.scenarios import compare, facts_of, load_file, run
from referee.ruling.scoring import standard

ROOT = Path(__file__).resolve().parent.parent
HOUSE = ROOT / "tests" / "rulesets" / "house"
SNAPSHOTS = ROOT / "tests" / "snapshots" / "handouts"


def _snapshot(name: str, text: str) -> None:
    path = SNAPSHOTS / name
    if os.environ.get("REFEREE_UPDATE_SNAPSHOTS") or not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        if not os.environ.get("REFEREE_UPDATE_SNAPSHOTS"):
            pytest.fail(f"snapshot {name} was missing and has been written; check it in")
    assert text == path.read_text(encoding="utf-8"), f"{name} changed; if intended, rerun with REFEREE_UPDATE_SNAPSHOTS=1"


MERMAID = re.compile(r"```mermaid\n(.*?)\n```", re.S)


@pytest.mark.parametrize("sheet", ["booklet", "quick"])
def test_markdown_snapshot(sheet: str) -> None:
    """The mermaid blocks are `referee show --format mermaid`'s own text (render.py owns that
    format and its tests), so the snapshot holds a marker in their place."""
    md = build(str(HOUSE), "md", sheet)
    rs = load_strict(str(HOUSE))
    blocks = MERMAID.findall(md)
    assert blocks == ([tree_graph(rs, p.situation.id, "mermaid") for ph in content.phases(rs, False) for p in ph.pages]
                      if sheet == "booklet" else [])
    _snapshot(f"house-{sheet}.md", MERMAID.sub("```mermaid\n(referee show SITUATION --format mermaid)\n```", md))


def test_svg_snapshots() -> None:
    rs = load_strict(str(HOUSE))
    for sid in sorted(rs.situations):
        _snapshot(f"house-{sid}.svg", flowchart.svg(rs, sid) + "\n")


def test_output_is_deterministic_and_stamped_only_when_asked() -> None:
    first = build("tournament", "html")
    assert first == build("tournament", "html")
    assert "Printed" not in first
    assert "Printed 2026-05-01" in build("tournament", "md", stamp="2026-05-01")


def test_booklet_has_every_situation_with_its_flowchart_and_rulings() -> None:
    rs = load_strict("tournament")
    html = build(rs, "html")
    for sid, sit in rs.situations.items():
        section = html.split(f'<section class="situation" id="{sid}">', 1)[1].split("</section>", 1)[0]
        assert "<svg" in section, sid
        for node in sit.nodes.values():
            if hasattr(node, "ruling"):
                assert f"<b>{node.ruling.id}</b>" in section, (sid, node.ruling.id)
    for part in ("version 2026.1", "effective 2026-04-01", "Extends <b>nmjl</b>", "Glossary", "Sources", "Contents"):
        assert part in html


def test_html_has_no_external_references() -> None:
    html = build("nmjl", "html")
    assert not re.search(r"<(script|link|img|iframe)\b", html)
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", html)
    assert "@import" not in html and "url(http" not in html


def test_decision_rows_come_from_the_engine() -> None:
    rs = load_strict("nmjl")
    rows = content.rows(rs, "wrong-end", content.questions(rs, "wrong-end"))
    we2 = next(r for r in rows if r.ruling == "WE-2")
    assert we2.money == ["The picker pays the winner 4 x the hand value"]
    assert we2.dead == ["the picker"] and we2.game == "game ends"
    assert any(r.goto == "mahjong-in-error" and r.dead == ["the picker"] for r in rows)


def test_payment_table_amounts_are_the_scoring_codes() -> None:
    rs = load_strict("nmjl")
    plain, jokerless = paytable.tables(rs.scoring)
    assert [r[0] for r in plain.rows] == [str(v) for v in range(25, 80, 5)]
    row40 = next(r for r in plain.rows if r[0] == "40")
    assert row40 == ["40", "80", "40", "160", "80", "240"]
    s = standard(rs.scoring, winner="West", how="discard", discarder="South", value=75, jokerless=True)
    assert jokerless.rows[-1][3] == str(s.totals()["West"])


def test_points_tables_for_a_tournament() -> None:
    rs = load_strict("tournament")
    winner, discarder = paytable.tables(rs.scoring)
    assert winner.rows[0] == ["25", "25", "35", "45", "55"]
    assert [r[1] for r in discarder.rows] == ["-10", "-10", "-20", "-25"]


def test_payment_tables_are_shared_only_by_the_same_scoring() -> None:
    """Tables are kept by the scoring they are worked out from: a scoring changed in any number
    gets its own, and a caller changing its copy changes nobody else's."""
    scoring = load_strict("nmjl").scoring
    first = paytable.tables(scoring)
    first[0].rows[0][1] = "changed"
    assert paytable.tables(scoring) == paytable.money_tables(scoring)
    dearer = scoring.model_copy(update={"discarder_times": scoring.discarder_times + 1})
    assert paytable.tables(dearer) == paytable.money_tables(dearer) != paytable.money_tables(scoring)


def test_overlay_borrows_only_base_examples_that_still_hold() -> None:
    """tournament has no called-tile-racked scenarios: nmjl's money cases must not be shown, its
    no-payment cases (still the same rulings) may be."""
    rs = load_strict("tournament")
    assert not (data_dir("scenarios") / "tournament" / "called-tile-racked").exists()
    kept, dropped = [], []
    for path in sorted((data_dir("scenarios") / "nmjl" / "called-tile-racked").glob("*.yaml")):
        sc = load_file(path)
        facts, players = facts_of(rs, sc)
        (dropped if compare(run(rs, sc.situation, facts, players), sc.data.expect) else kept).append(sc.data.title)
    assert kept and dropped
    shown = [e.title for e in content.examples(rs, "called-tile-racked")]
    assert shown and set(shown) <= set(kept)
    assert all(e.borrowed_from == "nmjl" for e in content.examples(rs, "called-tile-racked"))


@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    folder = tmp_path / "hostile"
    shutil.copytree(HOUSE, folder)
    meta = folder / "ruleset.yaml"
    meta.write_text(meta.read_text().replace("title: House rules for the command-line tests",
                                             "title: '<script>alert(1)</script> *bold* [x](javascript:y) | pipe'"))
    sit = folder / "situations" / "false-call.yaml"
    sit.write_text(sit.read_text().replace("ask: What did the other players do before the hand was checked?",
                                           "ask: \"<b onmouseover=x>What</b> & did they do?\""))
    return folder


def test_ruleset_text_cannot_inject_markup(hostile: Path) -> None:
    html = build(str(hostile), "html")
    assert "<script>" not in html and "&lt;script&gt;" in html
    md = build(str(hostile), "md")
    assert "<script>" not in md and "[x](javascript" not in md
    assert r"\*bold\*" in md and r"\| pipe" in md
    assert "<b onmouseover" not in html and "&lt;b onmouseover=x&gt;What&lt;/b&gt; &amp; did" in html
    svg = flowchart.svg(load_strict(str(hostile)), "false-call")
    assert "<b " not in svg and "&lt;b" in svg


def test_the_sections_written_in_python_escape_as_autoescape_does() -> None:
    """section.py writes the booklet's situations without jinja: its escape must be markupsafe's."""
    from markupsafe import escape

    from referee.handouts import section

    for text in ("", "plain", "<b onmouseover=\"x\">it's</b> & more", "&amp; already", "\u202e'\"<>&"):
        assert section.escape(text) == str(escape(text))


def test_cli_writes_a_file_and_reports_usage_errors(cli, tmp_path: Path) -> None:
    out = tmp_path / "rules.html"
    r = cli("handout", "--ruleset", "tournament", "--format", "html", "-o", str(out))
    assert r.exit_code == 0, r.output
    assert out.read_text().startswith("<!DOCTYPE html>")
    r = cli("handout", "--format", "md")
    assert r.exit_code == 0 and r.output.startswith("# ")
    r = cli("handout", "--format", "docx")
    assert r.exit_code == 2 and "unknown format 'docx'" in r.output
    r = cli("handout", "--format", "pdf")
    assert r.exit_code == 2 and "-o FILE.pdf" in r.output
    r = cli("handout", "--paper", "a5")
    assert r.exit_code == 2 and "unknown paper 'a5'" in r.output


def test_the_file_name_decides_the_format_or_a_mismatch_is_refused(cli, tmp_path: Path) -> None:
    md = tmp_path / "RULES.md"
    r = cli("handout", "--sheet", "quick", "-o", str(md))
    assert r.exit_code == 0, r.output
    assert md.read_text().startswith("# ")  # Markdown, not HTML under a .md name
    pdf = tmp_path / "rules.pdf"
    r = cli("handout", "--format", "md", "-o", str(pdf))
    assert r.exit_code == 2 and "--format md does not match" in r.output
    assert not pdf.exists()
    other = tmp_path / "rules.txt"  # an extension that says nothing keeps the default
    assert cli("handout", "--sheet", "quick", "-o", str(other)).exit_code == 0
    assert other.read_text().startswith("<!DOCTYPE html>")


def test_diff_sheet_lists_every_difference_referee_diff_finds() -> None:
    """Each case `referee diff` finds, once, under the situation that owns it, in the same words."""
    from referee.diff import diff, exit_text, summarize

    rs, base = load_strict("house-example"), load_strict("nmjl")
    summary = summarize(diff(base, rs), base, rs)
    assert summary.owned, "house-example should differ from nmjl somewhere"
    md = build(rs, "md", sheet="diff")  # base defaults to the ruleset it extends
    for o in summary.owned:
        assert f"({o.situation})" in md
        assert md_cell(exit_text(rs, o.shown.b, o.b)) in md
    rows = [line for line in md.splitlines() if line.startswith("| ") and not line.startswith(("| When |", "| --- |"))]
    assert len(rows) == len(summary.owned)
    html = build(rs, "html", sheet="diff", base="nmjl")
    assert html.count("<tr><td>") == len(rows)
    assert "dice_doubles" not in html and "Did East roll doubles" in html  # the question, not its id


def md_cell(text: str) -> str:
    from referee.handouts.pages import md_escape

    return md_escape(text)


def test_diff_sheet_needs_a_base(cli) -> None:
    r = cli("handout", "--ruleset", "nmjl", "--sheet", "diff")
    assert r.exit_code == 2 and "--base RULESET" in r.output
    r = cli("handout", "--base", "nmjl")
    assert r.exit_code == 2 and "--base goes with --sheet diff" in r.output


def test_pdf_without_chromium_is_one_line_with_the_way_out(cli, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("REFEREE_CHROMIUM", str(tmp_path / "no-such-browser"))
    out = tmp_path / "rules.pdf"
    r = cli("handout", "--format", "pdf", "-o", str(out))
    assert r.exit_code == 2
    assert len(r.output.strip().splitlines()) == 1
    assert "pip install 'referee[pdf]'" in r.output and "--format html" in r.output
    assert not out.exists()


def test_quick_sheet_type_shrinks_only_as_far_as_the_content_needs() -> None:
    from referee.handouts import sheets

    small = sheets.quick(load_strict(str(HOUSE)))
    assert sheets.quick_font(small) == sheets.FONTS[0]
    groups = sheets.quick(load_strict("nmjl"))
    full = sheets.quick_font(groups)
    assert full < sheets.FONTS[0]
    assert sheets.quick_font(groups + groups[:3]) < full
    assert f"font-size: {full}pt" in build("nmjl", "html", sheet="quick")


@pytest.mark.parametrize("ruleset", ["nmjl", "tournament"])
def test_markdown_contents_link_to_their_sections(ruleset: str) -> None:
    """Each contents entry is a link, and each link lands on a heading of the booklet (as a
    Markdown viewer names a heading: lower case, punctuation dropped, spaces as hyphens)."""
    from referee.handouts.pages import anchor

    md = build(ruleset, "md")
    contents = md.split("## Contents", 1)[1].split("\n## ", 1)[0]
    links = re.findall(r"\]\(#([^)]+)\)", contents)
    headings = {anchor(h) for h in re.findall(r"^#{2,3} (.+)$", md, re.M)}
    rs = load_strict(ruleset)
    assert len(links) == len(rs.situations) + len({rs.situations[s].phase for s in rs.situations}) + 3
    assert set(links) <= headings, sorted(set(links) - headings)
    assert anchor("Was the claim made in time? (window of opportunity)") == "was-the-claim-made-in-time-window-of-opportunity"


def test_every_svg_id_is_unique_in_a_booklet() -> None:
    html = build("nmjl", "html")
    ids = re.findall(r'\bid="([^"]+)"', html)
    assert ids and len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})[:5]
    for ref in re.findall(r"url\(#([^)]+)\)", html):
        assert ref in ids


# One per vector of issue 19 item 9: what a stranger's ruleset can put in front of a reader.
CONTROL_VECTORS = {
    "clear screen": "\x1b[2J\x1b[H",
    "window title": "\x1b]0;pwned\x07",
    "hyperlink": "\x1b]8;;http://evil.example/\x1b\\click\x1b]8;;\x1b\\",
    "charset switch": "\x0e\x1b(0",
    "C1 control": "\x9b31m",
    "right-to-left override": "\u202eevil\u202c",
    "right-to-left isolate": "\u2067\u2066x\u2069",
    "arabic letter mark": "\u061c",
}


@pytest.fixture
def controlled(tmp_path: Path) -> Path:
    """The house ruleset with every vector in its title and in a question the flowchart shows."""
    folder = tmp_path / "controlled"
    shutil.copytree(HOUSE, folder)
    payload = "".join(CONTROL_VECTORS.values())
    escaped = payload.encode("unicode_escape").decode("ascii").replace('"', '\\"')
    meta = folder / "ruleset.yaml"
    meta.write_text(meta.read_text().replace("title: House rules for the command-line tests",
                                             f'title: "Rules {escaped} end"'))
    sit = folder / "situations" / "false-call.yaml"
    sit.write_text(sit.read_text().replace(
        "ask: What did the other players do before the hand was checked?",
        f'ask: "What did they do {escaped} $$x^2$$ then?"'))
    return folder


@pytest.mark.parametrize("fmt", ["html", "md"])
@pytest.mark.parametrize("sheet", ["booklet", "quick"])
@pytest.mark.parametrize("vector", sorted(CONTROL_VECTORS))
def test_no_terminal_control_or_bidi_override_reaches_a_handout(controlled: Path, fmt: str, sheet: str, vector: str) -> None:
    doc = build(str(controlled), fmt, sheet)
    assert isinstance(doc, str)
    raw = CONTROL_VECTORS[vector]
    assert not any(c in doc for c in raw if not c.isprintable() and c not in "\n\t"), vector
    # shown, not lost: a judge reading the sheet can see something odd was there
    assert "\\x1b" in doc and "\\u202e" in doc


def test_handout_to_standard_output_carries_no_escape_sequence(cli, controlled: Path) -> None:
    for fmt in ("md", "html"):
        result = cli("handout", "--ruleset", str(controlled), "--format", fmt)
        assert result.exit_code == 0, result.output
        assert "\x1b" not in result.stdout and "\u202e" not in result.stdout and "\x07" not in result.stdout


def test_dollars_in_a_question_cannot_turn_the_markdown_flowchart_into_mathematics(controlled: Path) -> None:
    md = build(str(controlled), "md")
    charts = re.findall(r"```mermaid\n(.*?)```", md, flags=re.S)
    assert charts and all("$" not in chart for chart in charts)
    assert "#36;#36;x^2#36;#36;" in "".join(charts)  # Mermaid's entity for '$': still readable
    outside = re.sub(r"```mermaid\n.*?```", "", md, flags=re.S)
    assert "$$" not in outside.replace("\\$", "")


def _chain(root: Path, questions: int, choices: int) -> Path:
    """A ruleset `check` passes whose one situation asks `questions` questions in a row."""
    (root / "situations").mkdir(parents=True)
    (root / "ruleset.yaml").write_text("id: big\ntitle: Big\nversion: '1'\nsources:\n  BOOK:\n    title: The book\n")
    lines = ["id: chain", "title: Chain", "phase: play", "summary: Long.", "facts:"]
    for i in range(questions):
        lines += [f"  q{i}:", "    type: choice", f"    ask: Question {i}?", "    choices:"]
        lines += [f"      c{k}: Choice {k}" for k in range(choices)]
    lines += ["start: n0", "nodes:"]
    for i in range(questions):
        nxt = f"n{i + 1}" if i + 1 < questions else "end"
        lines += [f"  n{i}:", f"    ask: q{i}", "    when:"] + [f"      c{k}: {nxt}" for k in range(choices)]
    lines += ["  end:", "    ruling:", "      id: B-1", "      says: Done.", "      game: continues", "      cite: 'BOOK: p. 1'"]
    (root / "situations" / "chain.yaml").write_text("\n".join(lines) + "\n")
    return root


@pytest.mark.parametrize("questions,choices,says", [
    (7, 10, "more than 2,000 ways through it"),  # 10^7 rows: exhausted memory before
    (1_200, 2, "has 1,200 questions"),  # a RecursionError before
])
def test_a_handout_too_large_to_print_is_one_line(cli, tmp_path: Path, questions: int, choices: int, says: str) -> None:
    folder = _chain(tmp_path / "big", questions, choices)
    for sheet in ("booklet", "quick"):
        result = cli("handout", "--ruleset", str(folder), "--format", "md", "--sheet", sheet)
        assert result.exit_code == 1, result.output  # the ruleset's fault: 2 is for usage errors
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and says in lines[0] and "split it with goto" in lines[0]
    checked = cli("check", str(folder))  # check finds what handout refuses, with its place
    assert checked.exit_code == 1, checked.output
    if questions < 1_000:  # the longer chain is faulted by lint already (too many questions to ask)
        assert re.search(r"situations/chain\.yaml:\d+:\d+: .*" + re.escape(says), checked.stdout), checked.stdout


def _page(phases: list[content.Phase], sid: str) -> content.Page:
    return next(p for ph in phases for p in ph.pages if p.situation.id == sid)


def test_pages_shared_between_shipped_rulesets_are_what_each_prints_alone() -> None:
    """Rows and worked examples are kept by what they are ruled from and shared between rulesets
    (most situations are inherited word for word): each page must be exactly what its ruleset
    computes alone, and inherited pages must really be shared."""
    from referee.rules import cache, loader

    ids = ["nmjl", "amja", "card-game", "tournament", "tournament-crak", "online"]
    # read afresh and all alike: a ruleset an earlier test in this worker loaded with the cache
    # off is kept as parsed, and shares no page with one unpacked from the cache
    loader._CACHE.clear()
    cache._MEMORY.clear()
    rulesets = [load_strict(rid) for rid in ids]
    printed = [content.phases(rs) for rs in rulesets]  # in one run: later rulesets reuse earlier pages
    for rs, phases in zip(rulesets, printed):
        for ph in phases:
            for page in ph.pages:
                sid = page.situation.id
                qs = content.questions(rs, sid)
                assert (page.questions, page.rows) == (qs, content.rows(rs, sid, qs)), (rs.id, sid)
                content._CASES.clear()  # this ruleset's examples replayed afresh
                assert page.examples == content.examples(rs, sid), (rs.id, sid)
    nmjl, amja = printed[0], printed[1]
    shared = [p.situation.id for ph in nmjl for p in ph.pages
              if p.rows and _page(amja, p.situation.id).rows[0] is p.rows[0]]
    assert len(shared) > 40  # amja changes a few of nmjl's 66 situations


def _copies(tmp_path: Path, *names: str) -> dict[str, Path]:
    """The house test ruleset copied under each name (its id changed to match)."""
    folders = {}
    for name in names:
        folders[name] = tmp_path / name
        shutil.copytree(HOUSE, folders[name])
        (folders[name] / "ruleset.yaml").write_text(
            (HOUSE / "ruleset.yaml").read_text().replace("id: house", f"id: {name}"))
    return folders


def test_a_page_is_shared_only_where_it_is_ruled_alike(tmp_path: Path) -> None:
    """The same situation, word for word, prints differently where the scoring differs or where
    a situation it goes on into does: those rulesets must not share its page."""
    folders = _copies(tmp_path, "plain", "dearer", "retitled")
    yaml = folders["dearer"] / "ruleset.yaml"
    yaml.write_text(yaml.read_text().replace("lowest_hand: 25", "lowest_hand: 50"))
    call = folders["retitled"] / "situations" / "false-call.yaml"
    call.write_text(call.read_text().replace("title: Mah Jongg declared in error", "title: A false Mah Jongg"))
    plain, dearer, retitled = (content.phases(load_strict(folders[n])) for n in ("plain", "dearer", "retitled"))
    assert _page(plain, "false-call").rows != _page(dearer, "false-call").rows
    assert any("25" in line for r in _page(plain, "false-call").rows for line in r.money)
    assert any("50" in line for r in _page(dearer, "false-call").rows for line in r.money)
    # picked-wrong-end is the same in all three, but goes on into false-call
    wrong_end = [r.text for r in _page(retitled, "picked-wrong-end").rows if r.goto]
    assert wrong_end == ["Continue as 'A false Mah Jongg'."]
    assert [r.text for r in _page(plain, "picked-wrong-end").rows if r.goto] == ["Continue as 'Mah Jongg declared in error'."]


def test_a_chart_is_shared_only_where_it_is_drawn_alike(tmp_path: Path) -> None:
    """A chart is kept by its situation, the words of its questions and the titles it goes on
    into: a ruleset that rewords a question defined in its facts file, or retitles a situation
    the chart goes on into, draws its own, with the same situation file word for word."""
    folders = _copies(tmp_path, "plain", "again", "reworded", "retitled", "resaid", "replayed")
    facts = folders["reworded"] / "facts.yaml"
    facts.write_text(facts.read_text().replace("ask: Is the Mah Jongg valid?", "ask: Does the hand match the card?"))
    call = folders["retitled"] / "situations" / "false-call.yaml"
    call.write_text(call.read_text().replace("title: Mah Jongg declared in error", "title: A false Mah Jongg"))
    for name, old, new in (("resaid", "the others play on.", "the others go on playing."),
                           ("replayed", "game: continues\n      dead: [picker]", "game: replay\n      dead: [picker]")):
        wrong_end = folders[name] / "situations" / "picked-wrong-end.yaml"
        assert old in wrong_end.read_text()
        wrong_end.write_text(wrong_end.read_text().replace(old, new))
    charts = {name: flowchart.svg(load_strict(folder), "picked-wrong-end") for name, folder in folders.items()}
    assert charts["again"] == charts["plain"]
    assert "Is the Mah Jongg" in charts["plain"] and "Does the hand match" in charts["reworded"]
    assert "Is the Mah Jongg" not in charts["reworded"]
    assert "continue as: A false" in charts["retitled"] and "continue as: Mah Jongg" in charts["plain"]
    # what a ruling says is not drawn, so the chart is the same; the game it leaves is drawn
    assert charts["resaid"] == charts["plain"] and charts["replayed"] != charts["plain"]
    assert "game replay" in charts["replayed"] and "game replay" not in charts["plain"]
