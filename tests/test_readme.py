"""The README's worked examples print what the program prints.

A user copies a `$ referee ...` line from a ```text block and expects the output shown under
it. Blocks that elide output with `...` (an interactive session, the log) are left out. The
ruleset's content hash is compared too: it is how a reader tells which rules a ruling came from,
so an example showing another hash than the shipped rules give would teach the wrong thing.
"""
from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli import app

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
HASH = re.compile(r"\([0-9a-f]{12}\)")
# the width the README's examples were wrapped at
WIDTH = "91"


def examples() -> list[tuple[str, str]]:
    found = []
    for block in re.findall(r"```text\n(.*?)```", README, flags=re.S):
        lines = block.splitlines()
        if not lines or not lines[0].startswith("$ referee "):
            continue
        if any(line.strip() == "..." for line in lines):
            continue
        command = lines[0][2:]
        rest = lines[1:]
        while command.endswith("\\"):
            command = command[:-1] + " " + rest.pop(0).strip()
        found.append((command, "\n".join(rest)))
    return found


def normal(text: str) -> str:
    return HASH.sub("(HASH)", text).strip()


def test_the_readme_shows_the_content_hash_the_shipped_rules_have() -> None:
    from referee.rules.loader import load_strict

    shown = re.findall(r"^ruleset ([a-z0-9-]+) (\S+) \(([0-9a-f]{12})\)", README, flags=re.M)
    assert shown, "the README shows no ruling's ruleset line"
    for rid, version, digest in shown:
        rs = load_strict(rid)
        assert (version, digest) == (rs.meta.version, rs.hash), (
            f"README.md shows '{rid} {version} ({digest})'; the shipped rules are '{rid} {rs.label}': "
            f"after editing rulesets/{rid}, put the new hash in README.md")


def test_the_readme_has_runnable_examples() -> None:
    commands = [c for c, _ in examples()]
    assert any(c.startswith("referee rule ") for c in commands)
    assert any(c.startswith("referee pay ") for c in commands)


@pytest.mark.parametrize("command,shown", examples(), ids=lambda v: v[:40] if isinstance(v, str) else None)
def test_readme_example_prints_what_it_shows(command: str, shown: str, tmp_path: Path) -> None:
    env = {"COLUMNS": WIDTH, "REFEREE_DB": str(tmp_path / "rulings.db"), "REFEREE_RULESETS": ""}
    result = CliRunner().invoke(app, shlex.split(command)[1:], env=env)
    finding = command.startswith("referee hand ") and result.stdout.startswith(("Dead", "Not Mah Jongg"))
    assert result.exit_code == (1 if finding else 0), result.output  # a finding exits 1
    assert normal(result.stdout) == normal(shown)


def test_ci_runs_the_readme_set_up_commands_with_the_tested_versions() -> None:
    """A clean machine must install what was tested: the README's commands, run by .ci/run,
    name the committed constraints file, and that file pins every package it lists."""
    setup = re.search(r"## Set up.*?```sh\n(.*?)```", README, flags=re.S)
    assert setup is not None
    commands = [line for line in setup.group(1).splitlines() if line.strip()]
    assert len(commands) == 2 and "-c constraints.txt" in commands[0]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    for command in commands:
        assert command in ci, f".ci/run does not run {command!r}"
    pins = [
        line
        for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert pins and all(re.fullmatch(r"[A-Za-z0-9_.\-]+==[0-9][^\s;]*", pin) for pin in pins), pins
    names = {pin.split("==")[0].lower().replace("_", "-") for pin in pins}
    assert {"typer", "pydantic", "pyyaml", "jinja2", "pytest"} <= names


def test_ci_runs_the_slow_tests_the_readme_run_leaves_out() -> None:
    """`python -m pytest` leaves out the tests marked slow; CI runs them right after it, and the
    README says how to run them."""
    ci = [line.strip() for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()]
    assert "python -m pytest -m slow" in ci[ci.index("python -m pytest") + 1:]
    assert "python -m pytest -m slow" in README
    marked = [p.name for p in (ROOT / "tests").glob("test_*.py") if "pytest.mark.slow" in p.read_text(encoding="utf-8")]
    assert {"test_web_browser.py", "test_handout_pdf.py", "test_log_scale.py"} <= set(marked), marked
