"""`referee handout --sheet house`: one page of the table's customs, in Markdown, on a 390 px
phone and as a one-page PDF on Letter and A4; the same page on `referee serve`."""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli import app
from referee.handouts import build
from referee.handouts.pdf import ARGS, available, chromium, print_page
from referee.house import catalogue, choose, write
from referee.rules.loader import load

# the longest sheet the wizard allows: every custom that conflicts with none chosen before it
CAT = catalogue()
ALL: dict[str, None] = {}
for cid, c in CAT.items():
    if not c.conflicts & set(ALL):
        ALL[cid] = None


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    f = tmp_path_factory.mktemp("sheet") / "whole-table"
    write(f, choose(CAT, {**ALL, "pie": 300, "blanks": 6}), "The Tuesday group")
    return f


def _rs(folder: Path):  # type: ignore[no-untyped-def]
    rs, problems = load(folder)
    assert rs is not None and not problems
    return rs


def test_the_markdown_sheet_lists_each_custom_with_its_number_then_the_league(folder: Path) -> None:
    md = build(_rs(folder), "md", "house")
    assert md.startswith("# Our table's rules")
    items = re.findall(r"^\d+\. (.*)$", md, re.M)
    assert len(items) == len(ALL)
    assert any("lost 300 cents" in i for i in items) and any("6 blanks are played" in i for i in items)
    assert "Everything else: the League's rules, card of 2026" in md


def test_a_ruleset_without_customs_has_no_house_sheet() -> None:
    r = CliRunner().invoke(app, ["handout", "--sheet", "house", "-r", "nmjl"])
    assert r.exit_code == 2 and "plays no table customs" in r.output and "referee house new" in r.output


REASON = available()


@pytest.mark.slow  # Chromium
@pytest.mark.skipif(REASON is not None, reason=f"no Chromium here: {REASON}")
def test_the_sheet_on_a_390px_phone_and_as_one_printed_page(folder: Path, tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    html = build(_rs(folder), "html", "house")
    shots = os.environ.get("REFEREE_SHOTS")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium(), args=ARGS)
        try:
            page = b.new_page(viewport={"width": 390, "height": 800})
            page.set_content(html, wait_until="load")
            assert page.evaluate("document.documentElement.scrollWidth") <= 390  # no panning
            smallest = page.evaluate("Math.min(...[...document.querySelectorAll('li, p')].map("
                                     "e => parseFloat(getComputedStyle(e).fontSize)))")
            assert smallest >= 12  # the small print too is legible on a phone
            items = page.eval_on_selector_all("ol.customs li", "els => els.length")
            assert items == len(ALL)
            if shots:
                page.screenshot(path=str(Path(shots) / "house-sheet-390.png"), full_page=True)
            page.close()
            for paper in ("Letter", "A4"):
                pdf = print_page(b, html, paper)
                assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 1, paper
                if shots:
                    (Path(shots) / f"house-sheet-{paper}.pdf").write_bytes(pdf)
        finally:
            b.close()


def test_serve_offers_the_sheet_when_its_ruleset_is_a_house_one(folder: Path, tmp_path: Path) -> None:
    web_helpers = pytest.importorskip("web_helpers")
    c = web_helpers.client(tmp_path / "log.db", ruleset=str(folder))
    r = c.get("/handouts/house")
    assert r.status_code == 200 and "<h1>Our table's rules</h1>" in r.text and "lost 300 cents" in r.text
    assert 'href="/handouts/house"' in c.get("/pay").text
    plain = web_helpers.client(tmp_path / "log2.db")
    assert plain.get("/handouts/house").status_code == 404
    assert 'href="/handouts/house"' not in plain.get("/pay").text
