"""`referee handout --sheet quiz`: N stories to answer on paper, the answer key on pages of its
own (HTML, Markdown, PDF with page numbers), drawn as `referee quiz` draws them."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from clirun import Run
from referee.handouts import build
from referee.handouts.pdf import available
from referee.rules.loader import load_strict
from referee.quiz.draw import draw
from referee.quiz.items import items
from referee.quiz.marking import said


def test_markdown_tells_the_drawn_stories_then_the_key() -> None:
    rs = load_strict("nmjl")
    chosen = draw(items(rs), 4, 9)
    md = build("nmjl", "md", sheet="quiz", quiz={"n": 4, "seed": 9})
    assert isinstance(md, str)
    stories, key = md.split("# Answer key")
    for n, item in enumerate(chosen, 1):
        assert f"## {n}. " in stories
        assert item.story.split()[0] in stories
        assert item.ruling not in stories and item.ruling in key
        assert item.published.split()[0] in key and "Source:" in key
    assert "seed 9" in md


def test_html_puts_the_key_on_its_own_pages_and_names_every_source() -> None:
    rs = load_strict("nmjl")
    chosen = draw(items(rs), 3, 2)
    html = build("nmjl", "html", sheet="quiz", quiz={"n": 3, "seed": 2})
    assert isinstance(html, str) and "<script" not in html and "http" not in html.split("<body>")[1].split("Asked:")[0]
    assert re.search(r"\.answers \{ break-before: page", html)
    stories, key = html.split('<section class="answers"')
    for item in chosen:
        assert said("dead", item.key.dead, item) in key
        assert f"ruling {item.ruling}" in key and f"ruling {item.ruling}" not in stories
    assert stories.count('class="story"') == 3


def test_the_same_seed_prints_the_same_sheet() -> None:
    a = build("nmjl", "md", sheet="quiz", quiz={"n": 5, "seed": 3})
    assert a == build("nmjl", "md", sheet="quiz", quiz={"n": 5, "seed": 3})
    assert a != build("nmjl", "md", sheet="quiz", quiz={"n": 5, "seed": 4})


def test_quiz_options_belong_to_the_quiz_sheet(cli) -> None:
    r = Run(cli("handout", "--sheet", "quick", "-n", "3"))
    assert r.code == 2 and "go with --sheet quiz" in r.stderr
    r = Run(cli("handout", "--sheet", "quiz", "--topic", "bananas"))
    assert r.code == 2 and "not a phase" in r.stderr


@pytest.mark.slow  # Chromium prints the PDF
@pytest.mark.skipif(available() is not None, reason=f"PDF handouts cannot be made here: {available()}")
def test_the_pdf_numbers_its_pages_and_keeps_the_key_apart(cli, tmp_path: Path) -> None:
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) is not installed")
    out = tmp_path / "quiz.pdf"
    r = Run(cli("handout", "--sheet", "quiz", "-n", "8", "--seed", "4", "-o", str(out)))
    assert r.code == 0, r.stderr
    text = subprocess.run(["pdftotext", "-layout", str(out), "-"], capture_output=True, text=True, check=True).stdout
    pages = [p for p in text.split("\f") if p.strip()]
    total = len(pages)
    assert total >= 3
    for i, page in enumerate(pages, 1):
        assert re.search(rf"\b{i}\s*/\s*{total}\s*$", page.rstrip()), f"page {i} has no number:\n{page[-200:]}"
    first_key = next(i for i, p in enumerate(pages) if "Answer key" in p)
    assert first_key > 0
    assert pages[first_key].lstrip().startswith("Answer key")  # a page of its own, from its top
    assert all("Who pays whom how much" not in p for p in pages[first_key:])
    assert all("Rule:" not in p and "Asked:" not in p for p in pages[:first_key])
    rs = load_strict("nmjl")
    key_text = " ".join(" ".join(pages[first_key:]).split())
    for item in draw(items(rs), 8, 4):
        assert f"ruling {item.ruling})" in key_text
