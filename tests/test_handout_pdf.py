"""The HTML handouts in a real browser: Debian's Chromium, headless, printed with print media.

Skipped (with the reason) where playwright or Chromium is missing; .ci/run installs both.
"""
from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from referee.handouts import build
from referee.handouts.pdf import ARGS, available, chromium, print_page
from referee.rules.loader import load_strict

REASON = available()
pytestmark = [
    pytest.mark.skipif(REASON is not None, reason=f"PDF handouts cannot be made here: {REASON}"),
    pytest.mark.slow,  # Chromium prints every booklet: `python -m pytest -m slow` (CI) runs it
]


def pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page[^s]", pdf))


def pdf_text(pdf: bytes, tmp_path) -> str:  # type: ignore[no-untyped-def]
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) is not installed")
    path = tmp_path / "h.pdf"
    path.write_bytes(pdf)
    return subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout


@pytest.fixture(scope="module")
def tournament_html() -> str:
    html = build("tournament", "html")
    assert isinstance(html, str)
    return html


@pytest.fixture(scope="class")
def browser():  # type: ignore[no-untyped-def]
    """One Chromium for every print in the class: a launch costs seconds, a page next to nothing.

    Class-scoped, not module: playwright's sync API cannot start while another instance runs,
    and test_cli_writes_a_pdf goes through html_to_pdf, which starts its own.
    """
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium(), args=ARGS)
        try:
            yield b
        finally:
            b.close()


class TestInOneBrowser:
    def test_booklet_loads_nothing_and_renders_every_flowchart(self, browser, tournament_html: str) -> None:  # type: ignore[no-untyped-def]
        requested: list[str] = []
        page = browser.new_page()
        try:
            page.on("request", lambda r: requested.append(r.url))
            page.set_content(tournament_html, wait_until="load")
            page.emulate_media(media="print")
            drawn = page.eval_on_selector_all("svg.flowchart", "els => els.map(e => e.getBoundingClientRect().width)")
            headings = page.eval_on_selector_all("section.situation h3", "els => els.map(e => e.firstChild.textContent.trim())")
        finally:
            page.close()
        assert [u for u in requested if not u.startswith(("data:", "about:"))] == []
        rs = load_strict("tournament")
        assert len(drawn) == len(rs.situations) and min(drawn) > 50
        assert sorted(headings) == sorted(s.title for s in rs.situations.values())

    @pytest.mark.parametrize("paper", ["Letter", "A4"])
    def test_booklet_prints_with_every_situation(self, browser, tournament_html: str, paper: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
        rs = load_strict("tournament")
        pdf = print_page(browser, tournament_html, paper)
        n = pages(pdf)
        phases = len({s.phase for s in rs.situations.values()})
        # every phase starts a page; about a page a situation, never a runaway layout
        assert phases + 2 < n < 2 * len(rs.situations), n
        text = " ".join(pdf_text(pdf, tmp_path).split())
        for sit in rs.situations.values():
            assert " ".join(sit.title.split()) in text, sit.title

    def test_booklet_on_a_390px_phone_does_not_pan_and_keeps_chart_labels_at_11px(self, browser) -> None:  # type: ignore[no-untyped-def]
        for ruleset in ("nmjl", "tournament"):
            page = browser.new_page(viewport={"width": 390, "height": 800})
            try:
                page.set_content(build(ruleset, "html"), wait_until="load")
                assert page.evaluate("document.documentElement.scrollWidth") <= 390, ruleset
                smallest = page.evaluate("Math.min(...[...document.querySelectorAll('svg.flowchart')].map("
                                         "s => s.getBoundingClientRect().width / s.viewBox.baseVal.width))")
                assert smallest * 11 >= 10.9, (ruleset, smallest)  # drawn at FONT = 11 user units
            finally:
                page.close()

    def test_on_a_phone_a_wide_chart_opens_with_its_first_question_in_view(self, browser) -> None:  # type: ignore[no-untyped-def]
        """A chart wider than the phone scrolls inside its figure; it opens with the question the
        tree starts from on screen (the top layer's only box), not scrolled to its left edge."""
        page = browser.new_page(viewport={"width": 390, "height": 800})
        try:
            page.set_content(build("nmjl", "html"), wait_until="load")
            found = page.evaluate("""() => [...document.querySelectorAll('figure')].filter(
                f => f.scrollWidth > f.clientWidth + 1).map(f => {
                    const view = f.getBoundingClientRect();
                    const asks = [...f.querySelectorAll('svg.flowchart g.ask rect')].map(r => r.getBoundingClientRect());
                    const top = Math.min(...asks.map(b => b.top));
                    const first = asks.find(b => b.top === top);
                    return [f.closest('section').id, first.left >= view.left - 1 && first.right <= view.right + 1];
                })""")
            unscrolled = page.evaluate("window.scrollY")
        finally:
            page.close()
        assert len(found) > 3  # nmjl has wide charts
        assert [sid for sid, seen in found if not seen] == []
        assert unscrolled == 0  # the page itself still opens at its top

    def test_on_a_phone_no_two_answers_of_a_chart_touch_as_the_browser_draws_them(self, browser) -> None:  # type: ignore[no-untyped-def]
        """The layout estimates glyph widths; here Chromium's own text boxes are measured at 390 px."""
        for ruleset in ("amja", "tournament"):  # amja has the widest fans (nine answers from one question)
            page = browser.new_page(viewport={"width": 390, "height": 800})
            try:
                page.set_content(build(ruleset, "html"), wait_until="load")
                found = page.evaluate("""() => [...document.querySelectorAll('svg.flowchart')].map(svg => {
                    const boxes = [...svg.querySelectorAll('g.answer text')].map(t => t.getBoundingClientRect());
                    const sizes = [...svg.querySelectorAll('g.answer text')].map(t => t.getBoundingClientRect().height);
                    let touching = [];
                    boxes.forEach((a, i) => boxes.slice(i + 1).forEach((b, j) => {
                        if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom)
                            touching.push([svg.getAttribute('aria-label'), i, i + 1 + j]);
                    }));
                    return {touching, count: boxes.length, smallest: Math.min(...sizes, 99)};
                })""")
            finally:
                page.close()
            assert sum(f["count"] for f in found) > len(found), ruleset  # answers were measured
            assert [t for f in found for t in f["touching"]] == [], ruleset
            assert min(f["smallest"] for f in found) >= 11, ruleset  # a text box is at least its font's height

    def test_booklet_pages_are_numbered_in_the_footer_and_on_the_contents(self, browser, tournament_html: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
        from referee.handouts.pdf import destinations

        pdf = print_page(browser, tournament_html, "Letter")
        n = pages(pdf)
        if shutil.which("pdftotext") is None:
            pytest.skip("pdftotext (poppler-utils) is not installed")
        path = tmp_path / "b.pdf"
        path.write_bytes(pdf)

        def page_text(i: int) -> str:
            return subprocess.run(["pdftotext", "-f", str(i), "-l", str(i), str(path), "-"],
                                  capture_output=True, text=True, check=True).stdout

        for i in (1, 2, n // 2, n):
            assert f"{i} / {n}" in page_text(i), i  # the footer
        where = destinations(pdf)
        rs = load_strict("tournament")
        sit = rs.situations["wrong-end"]
        page = where["wrong-end"]
        assert sit.title in " ".join(page_text(page).split())  # the situation is on the page its id says
        contents = " ".join((page_text(2) + page_text(3)).split())
        assert f"{sit.title} p. {page}" in contents  # and the contents page says so
        assert f"Glossary p. {where['glossary']}" in contents

    @pytest.mark.parametrize("paper", ["Letter", "A4"])
    def test_quick_sheet_is_at_most_two_sheets(self, browser, paper: str) -> None:  # type: ignore[no-untyped-def]
        for ruleset in ("nmjl", "card-game", "tournament"):
            pdf = print_page(browser, build(ruleset, "html", sheet="quick"), paper)
            assert 1 <= pages(pdf) <= 4, (ruleset, paper, pages(pdf))


def test_cli_writes_a_pdf(cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "changes.pdf"
    r = cli("handout", "--ruleset", "house-example", "--sheet", "diff", "--format", "pdf", "--paper", "a4", "-o", str(out))
    assert r.exit_code == 0, r.output
    pdf = out.read_bytes()
    assert pdf.startswith(b"%PDF-") and pages(pdf) >= 1
    box = re.search(rb"/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)", pdf)
    assert box and abs(float(box.group(1)) - 595) < 2 and abs(float(box.group(2)) - 842) < 2  # A4 in points
