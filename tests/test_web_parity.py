"""One engine, two skins: every scenario walked as a phone walks it (its answers in the URL, as
the page's buttons and boxes send them) reaches the very ruling `referee rule --answers` gives."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")

from referee.ruling.render import outcome_json  # noqa: E402
from referee.ruling.scenarios import facts_of, load_file, ruleset_of, run  # noqa: E402
from referee.web.walk import PLAYER, walk  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted((ROOT / "scenarios").rglob("*.yaml"))


def _sent(value: Any) -> list[str]:
    """What a browser sends for an answer: each ticked seat, 'yes'/'no', the typed number."""
    if isinstance(value, list):  # no seat at all: the page's Nobody button
        return [str(v) for v in value] or ["nobody"]
    if isinstance(value, bool):
        return ["yes" if value else "no"]
    return [str(value)]


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT / "scenarios")) for p in FILES])
def test_the_web_walk_rules_every_scenario_as_the_cli_does(path: Path) -> None:
    sc = load_file(path)
    rs = ruleset_of(sc)
    facts, players = facts_of(rs, sc)
    params = [(name, v) for name, value in {**sc.data.answers, **sc.data.seats}.items() for v in _sent(value)]
    params += [(PLAYER + seat, name) for seat, name in players.items()]
    cli = run(rs, sc.situation, facts, players)
    for _ in range(30):
        w = walk(rs, sc.situation, params)
        assert w.error is None, w.error
        if w.outcome is not None:
            break
        # The page asks a role by the name the ruling gives it, where a file may name it as the
        # situation it came from did (a goto's bind): the judge answers what she knows, and a
        # detail the file leaves open she leaves open.
        q = w.question
        assert q is not None and (q.optional or q.fact in cli.facts), f"the page asks {q.fact}, the file does not say"
        params += [(q.fact, v) for v in _sent(cli.facts.get(q.fact))] if cli.facts.get(q.fact) is not None else [(q.fact, "")]
    assert w.outcome is not None
    page, printed = outcome_json(w.outcome), outcome_json(cli)
    # A file may answer questions of other branches; the page only carries what was asked.
    asked, given = page.pop("facts"), printed.pop("facts")
    assert page == printed
    assert asked == {k: v for k, v in given.items() if k in asked}
