"""A judge is who she says: a name belongs to the phone that first signed in under it, a second
phone waits for the head judge, the log records which sign-in did each thing, and a new PIN or
"sign everyone out" ends older sessions at once."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from web_helpers import BASE, HEAD_PIN, PIN, field, record_form, settings, sign_in

from referee.store import signins
from referee.store.rulings import RulingsLog

MJE = "others_acted=two&intact_dead_before=no&exposers=South&exposers=West&declared_value=40&declarer=East"


_APPS: dict[tuple[Path, str], object] = {}


@pytest.fixture
def db(tmp_path: Path):
    yield tmp_path / "rulings.db"
    _APPS.clear()


def client(db: Path, pin: str = PIN):
    """A phone's browser on the one server of this log (each phone its own cookies)."""
    from starlette.testclient import TestClient

    from referee.web import create_app

    if (db, pin) not in _APPS:
        _APPS[(db, pin)] = create_app(settings(db, pin=pin))
    return TestClient(_APPS[(db, pin)], base_url=BASE)


def _login(c, name: str, pin: str = PIN):
    return c.post("/login", data={"name": name, "pin": pin, "next": "/"}, follow_redirects=False)


def _signed_in_as(c) -> str | None:
    m = re.search(r'<span class="who">([^<]*)</span>', c.get("/").text)
    return m.group(1) if m else None


def _record(c, table: str = "5"):
    page = c.get(f"/s/mahjong-in-error?{MJE}").text
    if 'id="record"' not in page:
        return None
    return c.post("/rulings", data=record_form(page, table), follow_redirects=False)


def _head(db: Path):
    h = client(db)
    sign_in(h, "Head", HEAD_PIN)
    return h


def _act(h, action: str, sid: str = "") -> None:
    page = h.get("/judges").text
    r = h.post("/judges", data={"csrf": field(page, "csrf"), "action": action, "id": sid}, follow_redirects=False)
    assert r.status_code == 303, r.text[:300]


def test_a_second_phone_under_a_name_waits_for_the_head_judge(db: Path) -> None:
    carol, other = client(db), client(db)
    assert _login(carol, "Carol").headers["location"] == "/"
    waiting = _login(other, " carol ")  # the same name, typed otherwise, on another phone
    assert waiting.headers["location"].startswith("/login/wait")
    page = other.get(waiting.headers["location"]).text
    code = re.search(r'class="rid">([0-9A-Z]{4})<', page).group(1)
    assert "Waiting for the head judge" in page and 'http-equiv="refresh"' in page
    assert _signed_in_as(other) is None and _record(other) is None  # no Record form, and a forged post is refused
    assert other.post("/rulings", data={"csrf": "x"}, follow_redirects=False).status_code == 403
    head = _head(db)
    listed = head.get("/judges").text
    assert code in listed and "Waiting for you" in listed
    with RulingsLog.open(db, create=False) as log:
        sid = next(s.id for s in signins.listed(log, "Spring Open") if s.approved_at is None)
    _act(head, "approve", sid)
    assert other.get("/login/wait?next=/", follow_redirects=False).headers["location"] == "/"
    assert _signed_in_as(other) == "Carol"  # the name as the first phone spelled it
    first, second = _record(carol), _record(other)
    with RulingsLog.open(db, create=False) as log:
        by = {r.id: r.sign_in for r in log.find()}
        carols = [s for s in signins.listed(log, "Spring Open") if s.judge == "Carol"]
    assert len({by[first.headers["location"].rsplit("/", 1)[1]], by[second.headers["location"].rsplit("/", 1)[1]]}) == 2
    assert {s.id for s in carols} == set(by.values())
    assert sid[-4:].upper() in other.get(second.headers["location"]).text  # the record names its sign-in


def test_the_first_phone_signs_in_again_at_once_and_a_refused_one_is_told(db: Path) -> None:
    carol, other = client(db), client(db)
    _login(carol, "Carol")
    page = carol.get("/").text
    carol.post("/logout", data={"csrf": field(page, "csrf")})
    assert _login(carol, "Carol").headers["location"] == "/"  # her own phone: no approval needed
    _login(other, "Carol")
    head = _head(db)
    with RulingsLog.open(db, create=False) as log:
        sid = next(s.id for s in signins.listed(log, "Spring Open") if s.approved_at is None)
    _act(head, "refuse", sid)
    assert "Not approved" in other.get("/login/wait?next=/").text and _signed_in_as(other) is None


def test_a_new_judges_pin_signs_every_judge_out_at_once(db: Path) -> None:
    ann, head = client(db), _head(db)
    sign_in(ann, "Ann")
    assert _signed_in_as(ann) == "Ann"
    _act(head, "pin")
    page = head.get("/judges?pin=new").text
    new = re.search(r"Judges' PIN now: <strong class=\"rid\">(\d+)</strong>", page).group(1)
    assert new != PIN and "(new:" in page
    assert _signed_in_as(ann) is None and _record(ann) is None
    assert _signed_in_as(head) == "Head · head judge"  # the head judge's own PIN did not change
    assert _login(ann, "Ann", PIN).status_code == 401
    assert _login(ann, "Ann", new).status_code == 303 and _signed_in_as(ann) == "Ann"
    with RulingsLog.open(db, create=False) as log:
        ended = [s for s in signins.listed(log, "Spring Open")]
    assert [s.judge for s in ended if s.role == "judge"] == ["Ann"]  # the old sign-in is ended, the new one open


def test_sign_everyone_out_keeps_only_the_head_judge(db: Path) -> None:
    ann, bea, head = client(db), client(db), _head(db)
    sign_in(ann, "Ann")
    sign_in(bea, "Bea")
    _act(head, "everyone")
    assert _signed_in_as(ann) is None and _signed_in_as(bea) is None
    assert _signed_in_as(head) == "Head · head judge"


def test_a_restart_with_another_pin_signs_the_old_sessions_out(db: Path) -> None:
    ann = client(db)
    sign_in(ann, "Ann")
    again = client(db, pin="135790")  # another server on the same log, as after a restart
    again.cookies = ann.cookies
    assert _signed_in_as(again) is None
    from starlette.testclient import TestClient

    from referee.web import create_app

    same = TestClient(create_app(settings(db)), base_url=BASE)
    same.cookies = ann.cookies
    assert _signed_in_as(same) == "Ann"  # the same PIN: still signed in after a restart


def test_only_the_head_judge_sees_and_acts_on_sign_ins(db: Path) -> None:
    ann = client(db)
    sign_in(ann, "Ann")
    assert ann.get("/judges").status_code == 403
    assert ann.post("/judges", data={"csrf": field(ann.get("/").text, "csrf"), "action": "everyone"}).status_code == 403
    head = _head(db)
    assert head.post("/judges", data={"csrf": "forged", "action": "everyone"}).status_code == 403
    assert _signed_in_as(ann) == "Ann"
