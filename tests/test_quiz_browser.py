"""The quiz page in Chromium at 390 px, JavaScript on and off: the same flow, and the head
judge's board filled live (by quiz.js with JavaScript, by reloading itself without).
Screenshots go to $REFEREE_SCREENSHOTS when it is set."""
from __future__ import annotations

import re
from typing import Any

import pytest

from test_web_browser import BROWSER, DESKTOP, PHONE, _check_phone_page, _context, _shot, _sign_in, browser, venue  # noqa: F401
from web_helpers import HEAD_PIN, PIN

from referee.rules.loader import load_strict
from referee.quiz.draw import draw
from referee.quiz.items import items

pytestmark = BROWSER


def _answer(page: Any, key: Any, touch: bool) -> None:
    for seat in key.dead:
        box = page.locator(f"input[name=dead][value={seat}]")
        box.tap() if touch else box.check()
    radio = page.locator(f"input[name=game][value={key.game}]")
    radio.tap() if touch else radio.check()
    page.fill("#pay", ", ".join(f"{a} pays {b} {n}" for a, b, n in key.pay) or "none")
    button = page.get_by_role("button", name="Mark my answer")
    with page.expect_navigation():
        button.tap() if touch else button.click()
    assert page.url.endswith("/quiz/answer")


@pytest.mark.parametrize("js", [True, False], ids=["js-on", "js-off"])
def test_a_judge_takes_a_quiz_on_her_phone(browser: Any, venue: dict[str, Any], js: bool) -> None:  # noqa: F811
    base = venue["base"]
    ctx = _context(browser, java_script_enabled=js, **PHONE)
    page = ctx.new_page()
    name = "Quinn" if js else "Rae"
    _sign_in(page, base, name, PIN)
    page.goto(f"{base}/quiz")
    tag = "js" if js else "nojs"
    _check_phone_page(page, f"quiz-1-start-{tag}")
    assert page.locator("#topic").bounding_box()["height"] >= 44  # the chooser is a tap target too
    page.fill("#n", "2")
    page.fill("#seed", "21")
    page.get_by_role("button", name="Start").tap()
    page.wait_for_url("**/quiz/story?*")
    chosen = draw(items(load_strict("nmjl")), 2, 21)
    assert "Story 1 of 2" in page.locator("h1").inner_text()
    assert chosen[0].story.split()[0] in page.locator("p.says").inner_text()
    _check_phone_page(page, f"quiz-2-story-{tag}")
    _answer(page, chosen[0].key, touch=True)
    assert "all right" in page.locator("h1").inner_text()
    assert f"Ruling {chosen[0].ruling}" in page.content()
    _check_phone_page(page, f"quiz-3-marked-{tag}")
    page.get_by_role("link", name="Next story").tap()
    page.wait_for_url("**/quiz/story?*i=2*")
    wrong = type(chosen[1].key)((), "redeal" if chosen[1].key.game != "redeal" else "ends", (("East", "West", 5),))
    _answer(page, wrong, touch=True)
    assert "wrong" in page.locator("ul.marks").inner_text()
    page.get_by_role("link", name="See the score").tap()
    page.wait_for_url("**/quiz/score?*")
    assert "Score: 1 of 2 stories fully right" in page.locator("h1").inner_text()
    _check_phone_page(page, f"quiz-4-score-{tag}")
    page.goto(f"{base}/quiz")
    assert "2 stories answered" in page.locator("body").inner_text()  # her own score, signed in
    assert not ctx.outside, ctx.outside
    ctx.close()


@pytest.mark.parametrize("js", [True, False], ids=["js-on", "js-off"])
def test_the_shared_quiz_board_fills_as_judges_answer(browser: Any, venue: dict[str, Any], js: bool) -> None:  # noqa: F811
    base = venue["base"]
    head_ctx = _context(browser, java_script_enabled=js, **DESKTOP)
    head = head_ctx.new_page()
    _sign_in(head, base, "Head", HEAD_PIN)
    head.goto(f"{base}/quiz")
    head.fill("#shared-n", "2")
    head.get_by_role("button", name="Start the shared quiz").click()
    head.wait_for_url("**/quiz/board")
    seed = int(re.search(r"seed (\d+)", head.locator("main").inner_text()).group(1))
    assert head.locator("meta[http-equiv=refresh]").count() == (0 if js else 1)
    phone_ctx = _context(browser, java_script_enabled=js, **PHONE)
    phone = phone_ctx.new_page()
    judge = "Sam" if js else "Tess"
    _sign_in(phone, base, judge, PIN)
    phone.goto(f"{base}/quiz")
    phone.get_by_role("link", name="Join the shared quiz").tap()
    phone.wait_for_url("**/quiz/story?*")
    first = draw(items(load_strict("nmjl")), 2, seed)[0]
    assert first.story.split()[0] in phone.locator("p.says").inner_text()
    _answer(phone, first.key, touch=True)
    # no click on the board: quiz.js fetches the scores (JS on), the page reloads itself (JS off)
    head.locator("#board-rows", has_text=judge).wait_for(timeout=15_000)
    assert "3 of 3" in head.locator("#board-rows").inner_text()
    _shot(head, f"quiz-board-{'js' if js else 'nojs'}")
    with head.expect_navigation():
        head.get_by_role("button", name="End the shared quiz").click()
    assert not phone_ctx.outside and not head_ctx.outside
    head_ctx.close()
    phone_ctx.close()
