"""`referee serve` on either log backend: the judges' page does not know which one it writes to."""
from __future__ import annotations

import re

from web_helpers import HEAD_PIN, client, record_form, sign_in

from referee.store.context import db_path
from referee.store.rulings import RulingsLog

MJE = "others_acted=two&intact_dead_before=no&exposers=South&exposers=West&declared_value=40&declarer=East&player_North=Ruth"
MJE_CLI = ["mahjong-in-error", "-a", "others_acted=two", "-a", "intact_dead_before=no", "-a", "exposers=South,West", "-a", "declared_value=40",
           "--seat", "declarer=East", "--player", "North=Ruth", "--no-input", "--json"]


def test_a_phone_and_the_cli_record_into_one_log_on_either_backend(log_at: str, cli) -> None:
    where = db_path(log_at)  # what `serve --db` hands the app: a Path or a URL
    c = client(where)
    sign_in(c, "Ann")
    page = c.get(f"/s/mahjong-in-error?{MJE}")
    form = record_form(page.text)
    first = c.post("/rulings", data=form, follow_redirects=False)
    again = c.post("/rulings", data=form, follow_redirects=False)  # a form sent twice records once
    assert first.status_code == 303 and first.headers["location"] == again.headers["location"]
    rid = first.headers["location"].rsplit("/", 1)[1]
    r = cli("rule", *MJE_CLI, "--db", log_at, "--event", "Spring Open", "--table", "5", "--round", "3", "--judge", "Bo")
    assert r.exit_code == 0, r.output
    with RulingsLog.open(log_at, create=False) as log:
        assert [(x.judge, x.table) for x in log.find()] == [("Ann", "12"), ("Bo", "5")]
        assert log.get(rid).ruling_id == "MJE-6"
    head = client(where)
    sign_in(head, "Head", HEAD_PIN)
    rows = re.findall(r'<tr id="r-[^"]+">(.*?)</tr>', head.get("/log").text, re.S)
    assert len(rows) == 2 and any(">Bo<" in row for row in rows)
