"""The benchmark's own inputs still reach a ruling: a question added to a situation once turned
the serve load figure into 'MISSED (no rid on the ruling page)' without any test noticing."""
from __future__ import annotations

import sys
from pathlib import Path
from urllib.parse import parse_qs

from referee.rules.loader import load_strict
from referee.ruling.scenarios import run

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))


def test_the_serve_load_answers_reach_a_ruling() -> None:
    import serveload

    given = {k: (v if len(v) > 1 else v[0]) for k, v in parse_qs(serveload.MJE).items()}
    outcome = run(load_strict("nmjl"), "mahjong-in-error", given, {})
    assert outcome.ruling is not None and outcome.ruling.id.startswith("MJE-")
