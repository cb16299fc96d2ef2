"""`referee check` says what it is doing at a terminal, and nothing extra when piped; a second
check of an unchanged ruleset takes the lint's findings from the cache."""
from __future__ import annotations

import os
import pty
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from clirun import drain
from referee.lint import cache as lintcache

BROKEN = Path(__file__).resolve().parent / "broken" / "rulesets"


def _run(stderr_tty: bool) -> tuple[int, str]:
    main, child = pty.openpty()
    env = {**os.environ, "COLUMNS": "100"}
    p = subprocess.run([sys.executable, "-m", "referee", "check", "nmjl"], stdout=subprocess.PIPE,
                       stderr=child if stderr_tty else subprocess.PIPE, stdin=subprocess.DEVNULL, env=env, timeout=300)
    os.close(child)
    text = drain(main)
    return p.returncode, text if stderr_tty else p.stderr.decode()


def test_check_shows_progress_on_a_terminal_only() -> None:
    code, shown = _run(stderr_tty=True)
    assert code == 0 and "checking ruleset nmjl (1 of 1)" in shown and "situations" in shown, shown
    code, piped = _run(stderr_tty=False)
    assert code == 0 and "checking ruleset" not in piped and "\x1b" not in piped


def _counted_check(monkeypatch: pytest.MonkeyPatch, folder: Path, *command: str) -> tuple[list[str], int]:
    """The problems `referee check` (or `command`) prints for `folder`, and how many times the lint really ran."""
    from referee.rules import cache
    from referee.lint import checks
    from referee.cli import app

    runs = []
    real = checks.lint

    def spy(rs):  # type: ignore[no-untyped-def]
        runs.append(rs.id)
        return real(rs)

    monkeypatch.setattr(checks, "lint", spy)
    monkeypatch.setattr(cache, "_MEMORY", {})  # as a new process would: only the disk is shared
    r = CliRunner().invoke(app, list(command) or ["check", str(folder)])
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    return (r.stdout if not command else r.output).splitlines(), len(runs)


def test_a_second_check_of_an_unchanged_ruleset_reuses_the_lint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFEREE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("REFEREE_NO_CACHE", raising=False)
    folder = Path(shutil.copytree(BROKEN / "dangling-target", tmp_path / "rulesets" / "dangling-target"))
    first, ran = _counted_check(monkeypatch, folder)
    assert ran == 1 and any("'payz' is not a node of 'tiny'" in line for line in first), first
    again, ran = _counted_check(monkeypatch, folder)
    assert ran == 0 and again == first
    # drawing a graph asks the same lint, and is refused from the cached findings alike
    shown, ran = _counted_check(monkeypatch, folder, "show", "tiny", "--format", "mermaid", "-r", str(folder))
    assert ran == 0 and any("'payz' is not a node of 'tiny'" in line for line in shown), shown
    # a fix changes the content hash: the lint runs again and the fixed problem is gone
    tiny = folder / "situations" / "tiny.yaml"
    tiny.write_text(tiny.read_text().replace("large: payz", "large: pays"))
    fixed, ran = _counted_check(monkeypatch, folder)
    assert ran == 1 and fixed == [], fixed
    # the same files read by other lint code are linted afresh
    monkeypatch.setattr(lintcache, "_stamp", "other code")
    _, ran = _counted_check(monkeypatch, folder)
    assert ran == 1


def test_a_damaged_lint_entry_is_only_a_miss(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFEREE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("REFEREE_NO_CACHE", raising=False)
    folder = Path(shutil.copytree(BROKEN / "dangling-target", tmp_path / "rulesets" / "dangling-target"))
    first, _ = _counted_check(monkeypatch, folder)
    (entry,) = (tmp_path / "cache" / "lint").glob("*.lint")
    entry.write_bytes(entry.read_bytes()[:-5] + b"xxxxx")
    again, ran = _counted_check(monkeypatch, folder)
    assert ran == 1 and again == first
