"""A fact answered for a situation but asked only in one it goes on into is read by that
situation's definition, never by an unrelated situation that happens to use the same fact id
with other choices (which would refuse the answer, or print the wrong question)."""
from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from referee.cli import app
from referee.rules.loader import load_strict
from referee.ruling.scenarios import fact_for

HEADER = "id: reach\ntitle: Reach\nversion: '1'\nsources:\n  BOOK:\n    title: The book\n"


def _ruling(rid: str) -> str:
    return f"    ruling:\n      id: {rid}\n      says: Done.\n      game: continues\n      cite: 'BOOK: p. 1'\n"


def write(root: Path) -> Path:
    (root / "situations").mkdir(parents=True)
    (root / "ruleset.yaml").write_text(HEADER)
    # sorted first, and unrelated: its `how` is asked with other choices
    (root / "situations" / "aaa-other.yaml").write_text(
        "id: aaa-other\ntitle: Other\nphase: play\nsummary: Unrelated.\nfacts:\n  how:\n    type: choice\n"
        "    ask: How was the wall built?\n    choices:\n      stacked: Stacked\n      pushed: Pushed\n"
        "start: q\nnodes:\n  q:\n    ask: how\n    when:\n      stacked: r1\n      pushed: r2\n"
        "  r1:\n" + _ruling("O-1") + "  r2:\n" + _ruling("O-2"))
    (root / "situations" / "start.yaml").write_text(
        "id: start\ntitle: Start\nphase: play\nsummary: Goes on.\nstart: g\nnodes:\n  g:\n    goto: zzz-next\n")
    (root / "situations" / "zzz-next.yaml").write_text(
        "id: zzz-next\ntitle: Next\nphase: play\nsummary: Asks how.\nfacts:\n  how:\n    type: choice\n"
        "    ask: How was the tile taken?\n    choices:\n      picked: Picked\n      claimed: Claimed\n"
        "start: q\nnodes:\n  q:\n    ask: how\n    when:\n      picked: r1\n      claimed: r2\n"
        "  r1:\n" + _ruling("N-1") + "  r2:\n" + _ruling("N-2"))
    return root


def test_a_fact_of_a_situation_gone_on_into_is_read_by_its_definition(tmp_path: Path) -> None:
    folder = write(tmp_path / "reach")
    assert CliRunner().invoke(app, ["check", str(folder)]).exit_code == 0
    rs = load_strict(str(folder))
    assert fact_for(rs, "start", "how").ask == "How was the tile taken?"
    result = CliRunner().invoke(app, ["rule", "start", "--ruleset", str(folder), "--no-input", "--answer", "how=claimed"])
    assert result.exit_code == 0, result.output
    assert "N-2" in result.stdout
