"""What a page reads from a request: a form field as plain text, a safe place to go next, the
browser's name. Shared by the pages; imports nothing of referee's.
"""
from __future__ import annotations

from starlette.datastructures import FormData


def form_text(form: FormData, name: str, limit: int) -> str:
    value = form.get(name)
    return " ".join(str(value).split())[:limit] if isinstance(value, str) else ""


def next_path(raw: str | None) -> str:
    """Only a path on this server: never an open redirect to another site."""
    return raw if raw and raw.startswith("/") and not raw.startswith("//") and "\\" not in raw else "/"


def device_label(agent: str | None) -> str:
    """A browser's description as a head judge tells phones apart: 'Safari on iPhone'."""
    a = agent or ""
    system = next((name for token, name in (("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android"),
                                            ("Windows", "Windows"), ("Mac OS X", "Mac"), ("CrOS", "Chromebook"),
                                            ("Linux", "Linux")) if token in a), "")
    browser = next((name for token, name in (("Firefox/", "Firefox"), ("Edg", "Edge"), ("SamsungBrowser", "Samsung Internet"),
                                             ("Chrome/", "Chrome"), ("CriOS", "Chrome"), ("Safari/", "Safari")) if token in a), "")
    return " on ".join(p for p in (browser, system) if p) or "a browser"
