"""Two venues' `serve` on one shared PostgreSQL log: each changes its own rulings only (issue 31 §2)."""
from __future__ import annotations

import pytest

from web_helpers import HEAD_PIN, client, record_form, sign_in

from referee.store.context import db_path
from referee.store.rulings import RulingsLog

MJE = "/s/mahjong-in-error?others_acted=two&intact_dead_before=no&exposers=South&exposers=West&declared_value=40&declarer=East"


def _recorded(c, table: str = "4") -> str:
    sent = c.post("/rulings", data=record_form(c.get(MJE).text, table=table), follow_redirects=False)
    assert sent.status_code == 303
    return sent.headers["location"].rsplit("/", 1)[1]


@pytest.mark.parametrize("backend", ["postgres", "sqlite"])
def test_one_venue_cannot_withdraw_or_show_another_venues_ruling(backend: str, request, tmp_path) -> None:
    where = db_path(request.getfixturevalue("pg_url") if backend == "postgres" else str(tmp_path / "shared.db"))
    north, south = client(where, event="North Open"), client(where, event="South Open")
    sign_in(south, "Sue")
    theirs = _recorded(south)
    head = client(where, event="North Open")
    sign_in(head, "Nan", HEAD_PIN)
    csrf = record_form(head.get(MJE).text)["csrf"]
    refused = head.post(f"/rulings/{theirs}/withdraw", data={"csrf": csrf, "reason": "not ours"}, follow_redirects=False)
    assert refused.status_code == 403 and "another event" in refused.text
    sign_in(north, "Sue")  # a floor judge signed in at North under South's judge's name
    csrf = record_form(north.get(MJE).text)["csrf"]
    refused = north.post(f"/rulings/{theirs}/withdraw", data={"csrf": csrf, "reason": "mine"}, follow_redirects=False)
    assert refused.status_code == 403
    assert head.get(f"/rulings/{theirs}").status_code == 404  # North's pages show North's rulings only
    ours = _recorded(north)
    done = head.post(f"/rulings/{ours}/withdraw", data={"csrf": record_form(head.get(MJE).text)["csrf"], "reason": "wrong seat"},
                     follow_redirects=False)
    assert done.status_code == 303
    with RulingsLog.open(where, create=False) as log:
        assert not log.get(theirs).withdrawn
        assert log.get(ours).withdrawn_by == "Nan"


def test_the_head_judges_log_comes_in_pages(tmp_path) -> None:
    """5,000 rulings made a 4.9 MB page taking a second: the log page shows 100 at a time."""
    import re
    from dataclasses import replace

    from referee.store.record import new_id

    where = db_path(str(tmp_path / "big.db"))
    c = client(where)
    sign_in(c, "Ann")
    first = _recorded(c)
    with RulingsLog.open(where) as log:
        r = log.get(first)
        log.merge([replace(r, id=new_id(1_770_000_000_000 + n), recorded_at=f"2026-03-01T10:{n // 60:02d}:{n % 60:02d}.000Z",
                           table=str(n % 40)) for n in range(249)])
    head = client(where)
    sign_in(head, "Nan", HEAD_PIN)
    seen: list[str] = []
    url = "/log"
    for expected in (100, 100, 50):
        page = head.get(url)
        assert page.status_code == 200 and len(page.content) < 100_000
        ids = re.findall(r'<tr id="r-([^"]+)">', page.text)
        assert len(ids) == expected and not set(ids) & set(seen)
        seen += ids
        older = re.search(r'href="(/log\?[^"]*before=[^"]+)">Older rulings', page.text)
        if expected < 100:
            assert older is None
        else:
            url = older.group(1).replace("&amp;", "&")
    assert len(set(seen)) == 250 and seen[0] == first  # newest first, each once


def test_the_log_page_marks_a_players_repeat_offence(tmp_path) -> None:
    """The same situation ruled against a player twice in the event: both rows say so, a player
    ruled against once is not marked, and a withdrawn ruling no longer counts."""
    import re
    from dataclasses import replace

    from referee.store.record import new_id

    where = db_path(str(tmp_path / "repeat.db"))
    c = client(where)
    sign_in(c, "Ann")
    r = None
    first = _recorded(c)
    with RulingsLog.open(where) as log:
        r = log.get(first)
        made = [replace(r, id=new_id(1_770_000_000_000 + n), recorded_at=f"2026-03-01T11:0{n}:00.000Z", dead=["East"], payments=[],
                        points=[], outcome={}, players={"East": name, "South": "Bea"})
                for n, name in enumerate(["Ruth", "Sue", "ruth "])]
        log.merge(made)
    head = client(where)
    sign_in(head, "Nan", HEAD_PIN)

    def marks() -> dict[str, str]:
        page = head.get("/log").text
        return {rid: flag for rid, flag in re.findall(r'<tr id="r-([^"]+)"[^>]*>.*?(repeat: [^<]*|</tr>)', page, re.S)}

    got = marks()
    assert got[made[0].id] == got[made[2].id] == "repeat: Ruth"
    assert got[made[1].id] == "</tr>" and got[first] == "</tr>"  # Sue once; Bea sat there but nothing was held against her
    with RulingsLog.open(where) as log:
        log.withdraw(made[2].id, "Nan", "wrong seat")
    assert marks()[made[0].id] == "</tr>"
