"""The judges' pages in a real browser: Debian's Chromium (never a downloaded one) driven by
playwright, at phone size with touch and at desktop size, on the venue emulated as
http://judges.lan (an insecure origin, as on a real LAN: 127.0.0.1 would hide that).

Skipped with the reason where playwright or Chromium is missing; .ci/run installs both.
Screenshots go to $REFEREE_SCREENSHOTS when it is set, for a person to look at.
"""
from __future__ import annotations

import os
import re
import signal
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from web_helpers import HEAD_PIN, PIN, start

from referee.handouts.pdf import ARGS, available, chromium
from referee.store.rulings import RulingsLog

REASON = available()
# Every Chromium test: skipped with the reason where there is no browser, failed (never left
# hanging) when a page waits longer than any flow here takes on a loaded machine, and marked slow:
# `python -m pytest` leaves it out, `python -m pytest -m slow` (CI) runs it.
BROWSER = [pytest.mark.skipif(REASON is not None, reason=f"no browser to test the web pages in: {REASON}"),
           pytest.mark.timeout(300, method="thread"), pytest.mark.slow]
pytestmark = BROWSER

VENUE = "judges.lan"
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 3, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
SHOTS = os.environ.get("REFEREE_SCREENSHOTS")


@pytest.fixture(scope="module")
def venue(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    db = tmp_path_factory.mktemp("venue") / "rulings.db"
    p, base = start(db, "--name", VENUE)
    port = base.rsplit(":", 1)[1]
    try:
        yield {"base": f"http://{VENUE}:{port}", "db": db}
    finally:
        p.send_signal(signal.SIGINT)
        p.wait(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium(), args=[*ARGS, f"--host-resolver-rules=MAP {VENUE} 127.0.0.1"])
        yield b
        b.close()


def _context(browser: Any, **kw: Any) -> Any:
    """A context that can reach only the venue: anything else is refused and remembered."""
    ctx = browser.new_context(**kw)
    ctx.outside = []
    ctx.options = kw  # for _axe, which needs a twin of this context with scripts on

    def route(r: Any) -> None:
        host = re.match(r"[a-z]+://([^/:]+)", r.request.url)
        if host and host.group(1) in (VENUE, "127.0.0.1"):
            r.continue_()
        else:
            ctx.outside.append(r.request.url)
            r.abort()

    ctx.route("**/*", route)
    return ctx


def _arrives(page: Any, db: Path, rid: str, seconds: float = 10) -> bool:
    """Whether the ruling reaches the log within `seconds` (sent from the phone's outbox)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with RulingsLog.open(db, create=False) as log:
            if any(r.id == rid for r in log.find()):
                return True
        page.wait_for_timeout(200)  # not time.sleep: a route handler runs only while playwright is called
    return False


def _shot(page: Any, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"))  # what the judge sees first
        page.screenshot(path=str(Path(SHOTS) / f"{name}-full.png"), full_page=True)


def _check_phone_page(page: Any, name: str) -> None:
    """No horizontal scroll, no tap target under 44 CSS px, no input text under 16 px, axe clean."""
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), f"{name}: scrolls sideways"
    small = page.evaluate("""() => [...document.querySelectorAll(
        'button, a.choice, a.button, input:not([type=hidden]):not([type=checkbox]):not([type=radio]), summary, label.check, nav a')]
        .filter(e => e.offsetParent !== null)
        .map(e => [e.outerHTML.slice(0, 80), e.getBoundingClientRect()])
        .filter(([_, r]) => r.height < 44 || r.width < 44).map(([h]) => h)""")
    assert not small, f"{name}: tap targets under 44px: {small}"
    tiny = page.evaluate("""() => [...document.querySelectorAll('input:not([type=hidden])')]
        .filter(e => parseFloat(getComputedStyle(e).fontSize) < 16).map(e => e.name)""")
    assert not tiny, f"{name}: inputs whose text would make iOS zoom: {tiny}"
    _axe(page, name)
    _shot(page, name)


def _axe(page: Any, name: str) -> None:
    from axe_playwright_python.sync_playwright import Axe

    options = getattr(page.context, "options", {})
    if options.get("java_script_enabled", True) is False:
        return _axe_without_scripts(page, name, options)
    results = Axe().run(page)
    bad = [(v["id"], v["impact"], len(v["nodes"])) for v in results.response["violations"]
           if v["impact"] in ("serious", "critical")]
    assert not bad, f"{name}: accessibility violations {bad}"


def _axe_without_scripts(page: Any, name: str, options: dict[str, Any]) -> None:
    """axe on a page shown with JavaScript off. axe is itself a script that waits on timers, and
    a page whose scripts are off never runs a timer: page.evaluate (which has no timeout) then
    waits for ever. So the page's HTML as the browser holds it, its scripts dropped and its
    <noscript> parts shown, is served at the same address to a twin context with scripts on,
    and axe checks that: what a judge without JavaScript sees, styles and all."""
    html = re.sub(r"<script\b[^>]*>.*?</script>", "", page.content(), flags=re.S | re.I)
    html = re.sub(r"</?noscript>", "", html, flags=re.I)
    twin = _context(page.context.browser, **{**options, "java_script_enabled": True})
    try:
        here = page.url
        twin.route(lambda url: url == here, lambda r: r.fulfill(status=200, content_type="text/html; charset=utf-8", body=html))
        copy = twin.new_page()
        copy.goto(page.url)
        _axe(copy, name)
        assert not twin.outside, twin.outside
    finally:
        twin.close()


def _sign_in(page: Any, base: str, name: str, pin: str) -> None:
    page.goto(f"{base}/login")
    page.fill("#name", name)
    page.fill("#pin", pin)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"{base}/")


def _walk_to_ruling(page: Any, touch: bool = True) -> None:
    """Tap the first answer of each question (leave optional ones open) until the ruling shows."""
    for _ in range(15):
        if page.locator("section.ruling").count():
            return
        answers = page.locator("button.answer")
        refused = page.locator("p.error[role=alert]").count()  # a seat already taken: the next one
        target = answers.nth(1 if refused else 0) if answers.count() else page.get_by_role("button", name="Leave open")
        url = page.url
        target.tap() if touch else target.click()
        page.wait_for_url(lambda now: now != url)  # before anything else: mid-navigation a page hangs
    raise AssertionError("no ruling reached")


def test_a_judge_rules_from_her_phone_and_the_head_judge_sees_it_live(browser: Any, venue: dict[str, Any]) -> None:
    base = venue["base"]
    head_ctx = _context(browser, **DESKTOP)
    head = head_ctx.new_page()
    _sign_in(head, base, "Head", HEAD_PIN)
    head.goto(f"{base}/log")
    head.wait_for_selector("#live.on")
    phone_ctx = _context(browser, **PHONE)
    phone = phone_ctx.new_page()
    phone.goto(f"{base}/")
    assert phone.evaluate("window.isSecureContext") is False  # the LAN's reality: no service worker, no crypto.randomUUID
    _check_phone_page(phone, "phone-1-home")
    _sign_in(phone, base, "Ann", PIN)
    phone.fill("#q", "she picked a tile from the wrong wall")
    phone.get_by_role("button", name="Search").tap()
    phone.wait_for_url("**/?q=*")
    _check_phone_page(phone, "phone-2-search")
    phone.locator("a.choice").first.tap()
    phone.wait_for_url("**/s/wrong-wall")
    _check_phone_page(phone, "phone-3-question")
    _walk_to_ruling(phone)
    _check_phone_page(phone, "phone-4-ruling")
    for part in ("section.ruling .dead", "section.ruling ul.money"):  # what the judge reads out first
        for i in range(phone.locator(part).count()):
            box = phone.locator(part).nth(i).bounding_box()
            assert box["y"] + box["height"] <= 844, f"{part} is below the fold"
    ruled = phone.url
    phone.go_back()  # the browser's Back undoes exactly the last answer
    phone.wait_for_url(lambda now: now != ruled)
    assert phone.locator("legend").count() == 1 and ruled.startswith(phone.url.split("?")[0])
    assert len(phone.url.split("&")) == len(ruled.split("&")) - 1
    phone.reload()  # and a reload is safe: the same question again
    assert phone.locator("legend").count() == 1
    phone.go_forward()
    phone.wait_for_url(ruled)
    phone.fill("#table", "14")
    phone.get_by_role("button", name="Record ruling").tap()
    phone.wait_for_url("**/rulings/*")
    assert "Recorded ✓" in phone.locator("[role=status]").first.inner_text()
    _check_phone_page(phone, "phone-5-recorded")
    rid = phone.url.rsplit("/", 1)[1]
    head.wait_for_selector(f"#r-{rid}", timeout=5000)  # no reload: the event stream brought it
    assert "14" in head.locator(f"#r-{rid}").inner_text()
    _axe(head, "desktop-log")
    _shot(head, "desktop-log")
    assert not phone_ctx.outside and not head_ctx.outside, (phone_ctx.outside, head_ctx.outside)
    head_ctx.close()
    phone_ctx.close()


def test_every_page_is_accessible_and_fits_a_phone_in_dark_mode(browser: Any, venue: dict[str, Any]) -> None:
    base = venue["base"]
    ctx = _context(browser, color_scheme="dark", **PHONE)
    page = ctx.new_page()
    _sign_in(page, base, "Bea", HEAD_PIN)
    for path, name in [("/", "dark-home"), ("/s/mahjong-in-error", "dark-question"),
                       ("/s/mahjong-in-error?others_acted=two&intact_dead_before=no&exposers=South&exposers=West", "dark-number"),
                       ("/s/mahjong-in-error?others_acted=two&intact_dead_before=no&exposers=South&exposers=West&declared_value=40&declarer=East",
                        "dark-ruling"),
                       ("/pay?winner=North&how=discard&discarder=East&value=25&jokerless=yes", "dark-pay"),
                       ("/s/nope", "dark-error"), ("/log", "dark-log"), ("/join", "dark-join")]:
        page.goto(base + path)
        assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(0, 0, 0)"
        _check_phone_page(page, name)
    page.goto(base + "/")
    with page.expect_navigation():  # from / to /: waiting for the URL alone would not wait
        page.get_by_role("button", name="Sign out").tap()
    page.goto(base + "/login")
    _check_phone_page(page, "dark-login")
    ctx.close()


def test_the_whole_judge_flow_works_without_javascript(browser: Any, venue: dict[str, Any]) -> None:
    base = venue["base"]
    ctx = _context(browser, java_script_enabled=False, **PHONE)
    page = ctx.new_page()
    _sign_in(page, base, "Cat", PIN)
    page.goto(f"{base}/s/mahjong-in-error")
    _walk_to_ruling(page)
    page.fill("#table", "")
    page.get_by_role("button", name="Record ruling").tap()
    page.wait_for_load_state()
    assert "Enter the table." in page.locator("[role=alert]").first.inner_text()  # refused inline, nothing lost
    page.fill("#table", "3")
    page.get_by_role("button", name="Record ruling").tap()
    page.wait_for_url("**/rulings/*")
    assert "Recorded ✓" in page.content()
    _sign_in(page, base, "Cat", HEAD_PIN)
    page.goto(f"{base}/log")
    assert page.locator("meta[http-equiv=refresh]").count() == 1  # the log reloads itself instead
    assert page.locator("#rows tr").count() >= 1
    ctx.close()


MJE = "/s/mahjong-in-error?others_acted=two&intact_dead_before=no&exposers=South&exposers=West&declared_value=40&declarer="


def _at_record(browser: Any, base: str, judge: str, table: str) -> tuple[Any, Any, str]:
    """A phone signed in as `judge` on a ruling (MJE-6, North declared), the table filled in and
    Record not yet tapped: (its browser context, the page, the ruling's id)."""
    ctx = _context(browser, **PHONE)
    page = ctx.new_page()
    _sign_in(page, base, judge, PIN)
    page.goto(base + MJE + "North")
    rid = str(page.locator("#record input[name=rid]").get_attribute("value"))
    page.fill("#table", table)
    return ctx, page, rid


def test_a_ruling_recorded_while_offline_is_kept_and_sent_when_back(browser: Any, venue: dict[str, Any]) -> None:
    ctx, page, rid = _at_record(browser, venue["base"], "Dee", "21")
    ctx.set_offline(True)
    page.get_by_role("button", name="Record ruling").tap()
    status = page.locator("p.outbox")
    status.wait_for(state="visible")  # "Recording…" first; the failed send turns it to NOT recorded
    page.locator("p.outbox", has_text="NOT recorded").wait_for(state="visible", timeout=15_000)
    assert "NOT recorded" in status.inner_text()
    _shot(page, "phone-offline")
    ctx.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    assert _arrives(page, venue["db"], rid), "the kept ruling was sent when the network came back"
    ctx.close()


def test_a_ruling_the_log_could_not_take_is_kept_as_if_offline(browser: Any, venue: dict[str, Any]) -> None:
    """A 503 from a log that cannot be reached is a retry, like no network: the phone keeps it."""
    ctx, page, rid = _at_record(browser, venue["base"], "Ida", "22")
    down = [True]

    def outage(route: Any) -> None:
        if down[0]:
            route.fulfill(status=503, body="the log cannot be reached")
        else:
            route.fallback()

    page.route("**/rulings", outage)
    page.get_by_role("button", name="Record ruling").tap()
    page.locator("p.outbox", has_text="cannot be reached").wait_for(state="visible", timeout=15_000)
    assert "/s/mahjong-in-error" in page.url  # still on the ruling, not an error page
    kept = page.evaluate("localStorage.getItem('referee-outbox')")
    assert rid in kept
    down[0] = False
    page.evaluate("window.dispatchEvent(new Event('online'))")
    assert _arrives(page, venue["db"], rid), "the kept ruling was sent once the log answered"
    ctx.close()


def test_axe_checks_a_page_shown_without_javascript(browser: Any, venue: dict[str, Any]) -> None:
    """The JavaScript-off pages are checked, not waved through: a fault put into one is found."""
    ctx = _context(browser, java_script_enabled=False, **PHONE)
    page = ctx.new_page()
    page.goto(venue["base"] + "/login")
    _axe(page, "nojs-login")  # clean as served
    page.evaluate("document.body.insertAdjacentHTML('beforeend', '<img src=\"/static/none.png\">')")  # no alt text
    with pytest.raises(AssertionError, match="image-alt"):
        _axe(page, "nojs-login-broken")
    ctx.close()


def test_a_browser_test_that_hangs_fails_instead(tmp_path: Path) -> None:
    """BROWSER's time limit ends a stuck test with a failure and every thread's stack, the way a
    page.evaluate waiting for ever would be ended, rather than leaving CI waiting."""
    import subprocess
    import sys

    (tmp_path / "test_stuck.py").write_text(
        "import time, pytest\n@pytest.mark.timeout(2, method='thread')\ndef test_stuck():\n    time.sleep(120)\n")
    r = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "0", str(tmp_path)], capture_output=True,
                       text=True, cwd=tmp_path, timeout=60)
    assert r.returncode != 0 and "Timeout" in r.stdout + r.stderr, r.stdout[-2000:]
