"""Golden tests of bad command-line input and bad answers files: one line, the right exit code.

tests/broken/cli/<case>.args holds one command, one argument per line (so a value may hold
spaces or odd characters); <case>.expected holds `exit N` and the one line it must print.
A `referee:` line is the whole of stderr (stdout stays empty); any other line is the one
problem `check` prints, with `1 problem found` on stderr. Commands run from tests/broken, so
they name the corpus's own rulesets (rulesets/clean), answers files (answers/) and folders
(folders/) by relative path, and the messages name them the same way.

To add a case, write the .args file, run it from tests/broken, and write what it printed,
after reading it, into the .expected file.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli import app

BROKEN = Path(__file__).resolve().parent / "broken"
CASES = sorted(p.stem for p in (BROKEN / "cli").glob("*.args"))
MIN_CORPUS = 40


def expected(case: str) -> tuple[int, str]:
    lines = (BROKEN / "cli" / f"{case}.expected").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2 and lines[0].startswith("exit "), f"{case}.expected: 'exit N' then one line"
    return int(lines[0].split()[1]), lines[1]


def test_every_case_has_an_expected_file() -> None:
    assert CASES
    for case in CASES:
        assert (BROKEN / "cli" / f"{case}.expected").is_file(), f"cli/{case}: write cli/{case}.expected"


def test_the_corpus_keeps_growing() -> None:
    """Every broken input under tests/broken, of every kind, with its expected lines."""
    files = [p for p in BROKEN.glob("*/*.yaml") if (p.with_suffix(".expected")).is_file()]
    folders = [p for p in (BROKEN / "rulesets").iterdir() if p.is_dir()]
    assert len(files) + len(folders) + len(CASES) >= MIN_CORPUS


@pytest.mark.parametrize("case", CASES)
def test_cli_message(case: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(BROKEN)
    args = (BROKEN / "cli" / f"{case}.args").read_text(encoding="utf-8").splitlines()
    code, line = expected(case)
    before = {p: p.read_bytes() for p in BROKEN.rglob("*") if p.is_file()}
    result = CliRunner().invoke(app, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    assert result.exit_code == code, result.output
    if line.startswith("referee: "):
        assert result.stderr.splitlines() == [line]
        assert result.stdout == ""
    else:
        assert result.stdout.splitlines() == [line]
        assert result.stderr.splitlines() == ["1 problem found"]
    in_file = re.match(r"(?:referee: )?[\w./-]+\.yaml:", line)
    if in_file and "no such file" not in line:
        assert re.match(r"(?:referee: )?[\w./-]+\.yaml:\d+:\d+: \S", line), "a problem in a file names path:line:col"
    assert {p: p.read_bytes() for p in BROKEN.rglob("*") if p.is_file()} == before, "bad input changed a file"
