"""HTML to PDF through the system's Chromium, driven by playwright (the optional `pdf` extra).

Never a downloaded browser: Debian's `chromium` (or whatever REFEREE_CHROMIUM names) runs
headless with networking features off; the page is self-contained, so nothing is fetched.
"""
from __future__ import annotations

import os
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


def print_page(browser, html: str, paper: str = "Letter") -> bytes:  # type: ignore[no-untyped-def]
    """Print with an already running playwright browser (one launch can serve many prints)."""
    page = browser.new_page()
    try:
        page.set_content(html, wait_until="load")
        page.emulate_media(media="print")
        return page.pdf(format=paper, print_background=True, prefer_css_page_size=True)  # type: ignore[no-any-return]
    finally:
        page.close()
