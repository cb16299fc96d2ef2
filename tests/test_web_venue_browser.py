"""`referee serve` at a venue, in Debian's Chromium (playwright), JavaScript on and off: a judge
served while one address holds a flood of idle and dripping sockets, a ruling kept on the phone
across a new sign-in, Back then Record, and the screenshots of the changed pages at 390 px."""
from __future__ import annotations

import signal
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from flood import Flood
from test_web_browser import BROWSER, MJE, PHONE, VENUE, _at_record, _axe, _check_phone_page, _context, _shot, _sign_in, _walk_to_ruling
from test_web_browser import browser  # noqa: F401  (the fixture: one Chromium for the module)
from web_helpers import PIN, start

from referee.store.rulings import RulingsLog

pytestmark = BROWSER


@pytest.fixture(scope="module")
def venue(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    yield from _serve(tmp_path_factory.mktemp("venue"))


@pytest.fixture
def own_venue(tmp_path: Path) -> Iterator[dict[str, Any]]:
    """A server of its own, for a test that changes the judges' PIN."""
    yield from _serve(tmp_path)


def _serve(folder: Path) -> Iterator[dict[str, Any]]:
    db = folder / "rulings.db"
    p, base = start(db, "--name", VENUE, "--tz", "America/Chicago")
    port = base.rsplit(":", 1)[1]
    try:
        yield {"base": f"http://{VENUE}:{port}", "db": db, "port": int(port)}
    finally:
        p.send_signal(signal.SIGINT)
        p.wait(timeout=10)


def _ids(db: Any) -> set[str]:
    with RulingsLog.open(db, create=False) as log:
        return {r.id for r in log.find()}


def _until(check: Any, seconds: float = 15) -> bool:
    deadline = time.monotonic() + seconds  # bounded
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.2)
    return False


def _rule_and_record(page: Any, base: str, name: str) -> None:
    """Sign in, walk a situation from its first question, record it at table 31."""
    _sign_in(page, base, name, PIN)
    page.goto(base + "/s/mahjong-in-error")
    _walk_to_ruling(page)
    page.fill("#table", "31")
    page.get_by_role("button", name="Record ruling").tap()
    page.wait_for_url("**/rulings/*")


def _record_offline(page: Any, ctx: Any) -> None:
    """Tap Record on the ruling page with the network off: the ruling is kept."""
    ctx.set_offline(True)
    page.get_by_role("button", name="Record ruling").tap()
    page.locator("p.outbox", has_text="NOT recorded").wait_for(state="visible", timeout=15_000)


@pytest.mark.parametrize("js", [True, False], ids=["js", "no-js"])
def test_a_judge_rules_and_records_while_one_address_floods_the_server(browser: Any, venue: dict[str, Any], js: bool) -> None:
    ctx = _context(browser, java_script_enabled=js, **PHONE)
    page = ctx.new_page()
    with Flood(venue["port"], idle=1000, drip=300, seconds=60):
        began = time.monotonic()
        _rule_and_record(page, venue["base"], "Flo" + ("js" if js else "nojs"))
        assert "Recorded ✓" in page.locator("[role=status]").first.inner_text()
        assert time.monotonic() - began < 30  # the flood held for all of it: the judge was never locked out
    assert page.url.rsplit("/", 1)[1] in _ids(venue["db"])
    ctx.close()


def test_a_kept_ruling_survives_a_new_sign_in_and_is_sent(browser: Any, venue: dict[str, Any]) -> None:
    base = venue["base"]
    ctx, page, rid = _at_record(browser, base, "Dee", "21")
    _record_offline(page, ctx)
    bar = page.locator("#outbox-bar")
    assert "1 ruling is kept on this phone" in bar.inner_text()
    ctx.clear_cookies(name="referee_judge")  # signed out: the session cookie gone (cleared, or its 16 hours over)
    ctx.set_offline(False)
    page.goto(base + "/")
    assert "Sign in to send" in bar.inner_text() and rid not in _ids(venue["db"])  # kept, not dropped
    _shot(page, "venue-outbox-signed-out")
    _sign_in(page, base, "Dee", PIN)  # a new session: the kept form's token is stale
    page.locator("#outbox-bar a", has_text="Recorded ✓ table 21").wait_for(timeout=15_000)
    assert _until(lambda: rid in _ids(venue["db"]))
    assert "kept on this phone" not in bar.inner_text()
    _check_phone_page(page, "venue-outbox-sent")
    page.locator("#outbox-bar a", has_text="Recorded ✓").click()
    page.wait_for_url(f"**/rulings/{rid}")
    page.go_back()
    page.get_by_role("button", name="Dismiss").click()
    assert page.locator("#outbox-bar").is_hidden()
    ctx.close()


def test_a_kept_ruling_refused_for_itself_leaves_the_outbox_and_says_why(browser: Any, venue: dict[str, Any]) -> None:
    base = venue["base"]
    ctx = _context(browser, **PHONE)
    page = ctx.new_page()
    _sign_in(page, base, "Eve", PIN)
    page.goto(base + "/")
    page.evaluate("""() => localStorage.setItem('referee-outbox', JSON.stringify([{judge: 'Eve', rid: '01kmmmmmmmmmmmmmmmmmmmmmmm',
        situation: 'mahjong-in-error', query: 'others_acted=two', table: '4', round: '1', csrf: 'stale', title: 'X'}]))""")
    page.reload()
    page.locator("#outbox-bar li", has_text="Not recorded, refused").wait_for(timeout=15_000)
    assert "do not reach a ruling" in page.locator("#outbox-bar").inner_text()
    assert page.evaluate("localStorage.getItem('referee-outbox')") == "[]"
    ctx.close()


@pytest.mark.parametrize("js", [True, False], ids=["js", "no-js"])
def test_back_after_record_shows_the_record_not_a_second_form(browser: Any, venue: dict[str, Any], js: bool) -> None:
    base = venue["base"]
    ctx = _context(browser, java_script_enabled=js, **PHONE)
    page = ctx.new_page()
    _rule_and_record(page, base, "Gus" + ("js" if js else "nojs"))
    rid = page.url.rsplit("/", 1)[1]
    before = len(_ids(venue["db"]))
    page.go_back()
    page.wait_for_url("**/s/mahjong-in-error?*")
    page.reload()  # as a phone restoring the page would: asked afresh
    banner = page.locator("p.recorded")
    assert "Recorded ✓ #" in banner.inner_text() and ", table 31" in banner.inner_text()
    assert page.locator("#record").count() == 0
    if js:
        _check_phone_page(page, "venue-back-after-record")
    banner.get_by_role("link").click()
    page.wait_for_url(f"**/rulings/{rid}")
    assert len(_ids(venue["db"])) == before
    ctx.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_screenshots_of_the_changed_pages(browser: Any, venue: dict[str, Any], scheme: str) -> None:
    base = venue["base"]
    ctx = _context(browser, color_scheme=scheme, **PHONE)
    page = ctx.new_page()
    _sign_in(page, base, "Shot" + scheme, PIN)
    page.goto(base + "/?q=wrong+wall")
    _check_phone_page(page, f"venue-{scheme}-search")
    _big_enough(page.get_by_role("link", name="Show every situation"))
    page.goto(base + MJE + "East")
    _check_phone_page(page, f"venue-{scheme}-ruling")
    _big_enough(page.get_by_role("link", name="(citations and notes below)"))
    page.fill("#table", "8")
    _record_offline(page, ctx)
    page.get_by_role("button", name="Send now").click()  # still offline: it stays, and says why
    page.locator("#outbox-bar", has_text="No network yet.").wait_for(timeout=15_000)
    _check_phone_page(page, f"venue-{scheme}-kept")
    ctx.set_offline(False)  # the browser's 'online' event sends it
    page.locator("#outbox-bar a", has_text="Recorded ✓").wait_for(timeout=15_000)
    assert page.get_by_role("button", name="Send now").is_hidden()
    assert "Recorded ✓ (sent from this phone's outbox)" in page.locator("p.outbox").inner_text()
    _check_phone_page(page, f"venue-{scheme}-sent")
    page.goto(base + "/handouts/quick")
    _axe(page, f"venue-{scheme}-quick")
    _shot(page, f"venue-{scheme}-quick")
    ctx.close()


def _big_enough(link: Any) -> None:
    box = link.bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44, box


def test_body_text_follows_the_browsers_text_size(browser: Any, venue: dict[str, Any]) -> None:
    ctx = _context(browser, **PHONE)
    page = ctx.new_page()
    page.goto(venue["base"] + "/")
    size = "() => parseFloat(getComputedStyle(document.body).fontSize)"
    normal = page.evaluate(size)
    page.evaluate("document.documentElement.style.fontSize = '24px'")  # a reader's larger text setting
    assert page.evaluate(size) == pytest.approx(normal * 1.5)
    ctx.close()


def test_the_quick_sheet_passes_axe_entirely(browser: Any, venue: dict[str, Any]) -> None:
    from axe_playwright_python.sync_playwright import Axe

    ctx = _context(browser, **PHONE)
    page = ctx.new_page()
    page.goto(venue["base"] + "/handouts/quick")
    violations = Axe().run(page).response["violations"]
    assert not [(v["id"], v["impact"]) for v in violations]  # a main landmark, and every line inside it
    ctx.close()


def test_two_phones_under_one_name_the_second_waits_for_the_head_judge(browser: Any, venue: dict[str, Any]) -> None:
    from test_web_browser import DESKTOP, HEAD_PIN

    base = venue["base"]
    first = _context(browser, **PHONE)
    _sign_in(first.new_page(), base, "Hana", PIN)
    second = _context(browser, java_script_enabled=False, **PHONE)  # the wait page needs no script
    phone = second.new_page()
    phone.goto(f"{base}/login")
    phone.fill("#name", "hana")
    phone.fill("#pin", PIN)
    phone.get_by_role("button", name="Sign in").click()
    phone.wait_for_url("**/login/wait*")
    code = phone.locator("strong.rid").inner_text()
    _shot(phone, "venue-second-phone-waits")  # (it reloads itself every 5 s: too soon for axe under load)
    head_ctx = _context(browser, **DESKTOP)
    head = head_ctx.new_page()
    _sign_in(head, base, "Head", HEAD_PIN)
    head.goto(f"{base}/judges")
    row = head.locator("li", has_text=code)
    row.get_by_role("button", name="Approve").click()
    head.wait_for_load_state()
    _axe(head, "venue-judges")
    _shot(head, "venue-judges")
    phone.wait_for_url(f"{base}/", timeout=15_000)  # the wait page went on by itself once approved
    assert "Hana" in phone.locator(".who").inner_text()
    first.close()
    second.close()
    head_ctx.close()


def test_a_new_pin_signs_old_sessions_out_and_the_outbox_sends_after_signing_in_again(browser: Any, own_venue: dict[str, Any]) -> None:
    import re

    from test_web_browser import DESKTOP, HEAD_PIN

    venue = own_venue
    base = venue["base"]
    ctx, page, rid = _at_record(browser, base, "Ida", "12")
    head_ctx = _context(browser, **DESKTOP)
    head = head_ctx.new_page()
    _sign_in(head, base, "Head", HEAD_PIN)
    head.goto(f"{base}/judges")
    head.get_by_role("button", name="New judges' PIN").click()
    head.wait_for_url("**/judges?pin=new")
    new_pin = re.search(r"Judges' PIN now: (\d+)", head.locator("main").inner_text()).group(1)
    page.get_by_role("button", name="Record ruling").tap()  # her session ended with the old PIN
    page.locator("p.outbox", has_text="You are signed out").wait_for(timeout=15_000)
    assert rid not in _ids(venue["db"])
    page.goto(base + "/")
    assert page.locator(".who").count() == 0  # signed out everywhere, not just for Record
    _sign_in(page, base, "Ida", new_pin)
    page.locator("#outbox-bar a", has_text="Recorded ✓ table 12").wait_for(timeout=15_000)
    assert _until(lambda: rid in _ids(venue["db"]))
    ctx.close()
    head_ctx.close()
