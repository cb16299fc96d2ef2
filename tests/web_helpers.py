"""Shared by the web tests: an app on a temporary log, signing in, walking a situation as a
phone does (tapping the first answer offered), and reading a page's forms."""
from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install -e '.[web]')")

from starlette.testclient import TestClient  # noqa: E402

from referee.web import Settings, create_app  # noqa: E402

PIN, HEAD_PIN = "424242", "777777"
BASE = "http://127.0.0.1"


def settings(db: Path, **kw: Any) -> Settings:
    values: dict[str, Any] = dict(db=db, ruleset="nmjl", pin=PIN, head_pin=HEAD_PIN, event="Spring Open", round="3",
                                  key=b"test-key-" * 4)
    values.update(kw)
    return Settings(**values)


def client(db: Path, **kw: Any) -> TestClient:
    return TestClient(create_app(settings(db, **kw)), base_url=BASE)


def sign_in(c: Any, name: str = "Ann", pin: str = PIN) -> Any:
    r = c.post("/login", data={"name": name, "pin": pin, "next": "/"}, follow_redirects=False)
    assert r.status_code == 303, r.text
    return r


def field(page: str, name: str) -> str:
    m = re.search(rf'name="{re.escape(name)}" value="([^"]*)"', page)
    assert m, f"no field {name}"
    return html.unescape(m.group(1))


def walk_first(c: Any, sid: str, query: str = "", limit: int = 20) -> tuple[str, str]:
    """Tap the first answer of every question (leave optional ones open) until the ruling: (url, page)."""
    url = f"/s/{sid}?{query}"
    for _ in range(limit):
        r = c.get(url)
        assert r.status_code == 200, (url, r.text[:500])
        if 'class="ruling"' in r.text:
            return url, r.text
        m = re.search(r'<button class="answer" name="([^"]+)" value="([^"]*)"', r.text)
        if m is None:
            m = re.search(r'name="([^"]+)" value="">Leave open', r.text)
            assert m, r.text[:2000]
            url += f"&{m.group(1)}="
            continue
        url += f"&{m.group(1)}={m.group(2)}"
    raise AssertionError(f"no ruling after {limit} answers: {url}")


def record_form(page: str, table: str = "12", round_: str = "3") -> dict[str, str]:
    return {name: field(page, name) for name in ("csrf", "rid", "situation", "query")} | {"table": table, "round": round_}
