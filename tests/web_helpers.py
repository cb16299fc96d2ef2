"""Shared by the web tests: an app on a temporary log, signing in, walking a situation as a
phone does (tapping the first answer offered), and reading a page's forms."""
from __future__ import annotations

import html
import os
import re
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install -e '.[web]')")

from starlette.testclient import TestClient  # noqa: E402

from referee.web import Settings, create_app  # noqa: E402

PIN, HEAD_PIN = "424242", "777777"
ROOT = Path(__file__).resolve().parent.parent
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


class Phone:
    """A judge's browser over real HTTP (stdlib only): keeps the session cookie, reads forms."""

    def __init__(self, base: str) -> None:
        from urllib.parse import urlsplit

        self.host, self.port = urlsplit(base).hostname, urlsplit(base).port
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, form: dict[str, str] | None = None) -> tuple[int, dict[str, str], str]:
        import http.client
        from urllib.parse import urlencode

        conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        body = None
        if form is not None:
            body = urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            conn.request(method, path, body=body, headers=headers)
            r = conn.getresponse()
            text = r.read().decode()
            for k, v in r.getheaders():
                if k.lower() == "set-cookie":
                    name, _, value = v.split(";")[0].partition("=")
                    self.cookies[name] = value.strip('"')
            return r.status, {k.lower(): v for k, v in r.getheaders()}, text
        finally:
            conn.close()

    def sign_in(self, name: str, pin: str = PIN) -> None:
        status, _, _ = self.request("POST", "/login", {"name": name, "pin": pin, "next": "/"})
        assert status == 303

    def get(self, path: str) -> str:
        status, _, text = self.request("GET", path)
        assert status == 200, (path, status, text[:300])
        return text


def start(db: Path, *extra: str) -> tuple[subprocess.Popen[str], str]:
    """The server on a free loopback port; its first lines say where."""
    env = dict(os.environ, REFEREE_DB=str(db))
    p = subprocess.Popen(
        [sys.executable, "-m", "referee", "serve", "--event", "Spring Open", "--round", "2", "--host", "127.0.0.1",
         "--port", "0", "--pin", PIN, "--head-pin", HEAD_PIN, "--no-qr", *extra],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # a shell's background job ignores it
    printed = []
    for _ in range(30):
        line = p.stdout.readline()  # type: ignore[union-attr]
        printed.append(line)
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if m:
            return p, f"http://127.0.0.1:{m.group(1)}"
        if not line:
            break
    p.kill()
    raise AssertionError("no address printed: " + "".join(printed) + p.stderr.read())  # type: ignore[union-attr]
