"""HTML to PDF through the system's Chromium, driven by playwright (the optional `pdf` extra).

Never a downloaded browser: Debian's `chromium` (or whatever REFEREE_CHROMIUM names) runs
headless with networking features off; the page is self-contained, so nothing is fetched.
"""
from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

from ..errors import UsageError

HINT = ("PDF needs the pdf extra and Chromium: pip install 'referee[pdf]' and apt-get install chromium; "
        "or write --format html and print it to PDF from a browser")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def chromium() -> str | None:
    """The Chromium executable to use, or None."""
    named = os.environ.get("REFEREE_CHROMIUM")
    if named:
        return named if Path(named).is_file() else None
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


def available() -> str | None:
    """None when PDF can be made here, else the reason it cannot."""
    from importlib.util import find_spec

    if find_spec("playwright") is None:
        return "the playwright package is not installed"
    if chromium() is None:
        return "no Chromium executable found (apt-get install chromium)"
    return None


def html_to_pdf(html: str, paper: str = "Letter") -> bytes:
    """Print a self-contained page with print media; `paper` is Letter or A4."""
    reason = available()
    if reason:
        raise UsageError(f"{HINT} ({reason})")
    from playwright.sync_api import Error, sync_playwright

    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium(), args=ARGS)
            try:
                return print_page(browser, html, paper)
            finally:
                browser.close()
    except Error as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise UsageError(f"Chromium could not print the handout: {first}; {HINT}") from None


# The page number at the foot of every page; Chromium fills the spans in.
FOOTER = ('<div style="font: 8pt Helvetica, Arial, sans-serif; width: 100%; text-align: center; color: #444;">'
          '<span class="pageNumber"></span> / <span class="totalPages"></span></div>')
PAGE_OF = re.compile(r'(<span class="pg" data-page-of="([^"]+)">)(</span>)')


def print_page(browser, html: str, paper: str = "Letter") -> bytes:  # type: ignore[no-untyped-def]
    """Print with an already running playwright browser (one launch can serve many prints).

    Every page gets its number in the footer. A page with `<span class="pg" data-page-of="ID">`
    (the booklet's contents) is printed twice: the first print says on which page each ID
    landed (Chromium writes a named destination per id), the second carries those numbers.
    """
    pdf = _print(browser, html, paper)
    if not PAGE_OF.search(html):
        return pdf
    where = destinations(pdf)
    numbered = PAGE_OF.sub(lambda m: m.group(1) + (str(where[m.group(2)]) if m.group(2) in where else "") + m.group(3), html)
    return _print(browser, numbered, paper)


def _print(browser, html: str, paper: str) -> bytes:  # type: ignore[no-untyped-def]
    page = browser.new_page()
    try:
        page.set_content(html, wait_until="load")
        page.emulate_media(media="print")
        return page.pdf(format=paper, print_background=True, prefer_css_page_size=True,  # type: ignore[no-any-return]
                        display_header_footer=True, header_template="<span></span>", footer_template=FOOTER)
    finally:
        page.close()


def destinations(pdf: bytes) -> dict[str, int]:
    """Element id -> the page (from 1) it is printed on, read from the named destinations
    Chromium writes into its PDFs (the catalog's /Dests, the page tree's /Kids)."""
    def obj(n: int) -> bytes:
        m = re.search(rb"(?:^|\s)%d 0 obj\s*<<(.*?)>>\s*endobj" % n, pdf, re.S)
        return m.group(1) if m else b""

    catalog = re.search(rb"/Type\s*/Catalog(.*?)endobj", pdf, re.S)
    if catalog is None:
        return {}
    root, dests = re.search(rb"/Pages\s+(\d+) 0 R", catalog.group(1)), re.search(rb"/Dests\s+(\d+) 0 R", catalog.group(1))
    if root is None or dests is None:
        return {}
    order: list[int] = []

    def walk(n: int, depth: int = 0) -> None:
        body = obj(n)
        kids = re.search(rb"/Kids\s*\[([^\]]*)\]", body)
        if kids is None or depth > 20:
            order.append(n)
            return
        for k in re.findall(rb"(\d+) 0 R", kids.group(1)):
            walk(int(k), depth + 1)

    walk(int(root.group(1)))
    number = {n: i + 1 for i, n in enumerate(order)}
    out = {}
    for name, page in re.findall(rb"/([^\s/\[]+)\s*\[\s*(\d+) 0 R", obj(int(dests.group(1)))):
        key = re.sub(rb"#([0-9A-Fa-f]{2})", lambda m: bytes([int(m.group(1), 16)]), name).decode("utf-8", "replace")
        if int(page) in number:
            out[key] = number[int(page)]
    return out
