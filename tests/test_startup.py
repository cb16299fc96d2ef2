"""`referee rule ... --json` must start fast: heavy imports stay out of the CLI's import path."""
from __future__ import annotations

import json
import subprocess
import sys

HEAVY = ["jinja2", "sqlite3", "psycopg", "starlette", "uvicorn", "anyio", "referee.web"]  # optional extras: their commands only


def _modules_after(code: str) -> set[str]:
    probe = code + "\nimport sys, json\nprint(json.dumps(sorted(sys.modules)))\n"
    p = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    return set(json.loads(p.stdout.splitlines()[-1]))


def test_import_cli_does_not_import_jinja2() -> None:
    mods = _modules_after("import referee.cli")
    for name in HEAVY:
        assert name not in mods, f"`import referee.cli` imports {name}; import it inside the command that needs it"


def test_rule_json_path_does_not_import_jinja2(tmp_path) -> None:
    """The whole `rule --json` path, run in-process, keeps jinja2 out too."""
    code = """
import sys
from typer.testing import CliRunner
from referee.cli import app
from referee.loader import available, load_strict
rs = load_strict("nmjl")
sid = sorted(rs.situations)[0]
r = CliRunner().invoke(app, ["rule", sid, "--no-input", "--json"])
assert r.exit_code in (0, 2), r.output
"""
    mods = _modules_after(code)
    for name in HEAVY:
        assert name not in mods


def test_a_warm_ruling_without_an_answers_file_reads_no_yaml() -> None:
    """From the ruleset cache, a ruling needs neither PyYAML nor parsing: only the files' bytes."""
    code = """
from typer.testing import CliRunner
from referee.cli import app
r = CliRunner().invoke(app, ["rule", "wrong-end", "-a", "several_wrong_end=no", "-a", "wrong_end_discard_mj=no",
                             "--seat", "picker=West", "--no-input", "--json"])
assert r.exit_code == 0, r.output
"""
    _modules_after(code)  # the first run writes the cache entry (REFEREE_CACHE_DIR is a temporary folder)
    mods = _modules_after(code)
    assert "yaml" not in mods and "referee.yamlload" not in mods


def test_a_json_ruling_by_id_imports_neither_rich_nor_search() -> None:
    """Rich is for text and the prompt; search is for words that are not an id. `rule ID --json`
    needs neither (together they cost about what the rest of the ruling does)."""
    code = """
from typer.testing import CliRunner
from referee.cli import app
r = CliRunner().invoke(app, ["rule", "wrong-end", "-a", "several_wrong_end=no", "-a", "wrong_end_discard_mj=no",
                             "--seat", "picker=West", "--no-input", "--json"])
assert r.exit_code == 0, r.output
assert r.output.startswith("{"), r.output
"""
    mods = _modules_after(code)
    assert not {name for name in mods if name == "rich" or name.startswith("rich.")}
    assert "referee.search" not in mods


def test_text_output_still_goes_through_the_safe_console() -> None:
    """The consoles are made on first print; what they print is the same as before."""
    code = """
from typer.testing import CliRunner
from referee.cli import app
r = CliRunner().invoke(app, ["rule", "wrong-end", "-a", "several_wrong_end=no", "-a", "wrong_end_discard_mj=no",
                             "--seat", "picker=West", "--no-input"])
assert r.exit_code == 0, r.output
assert "Ruling" in r.output, r.output
"""
    mods = _modules_after(code)
    assert "referee.cli.consoles" in mods


def test_the_program_builds_the_named_command_and_still_knows_the_others() -> None:
    """`python -m referee rule ...` builds only `rule`; a misspelt or absent command builds them all."""
    run = [sys.executable, "-m", "referee"]
    p = subprocess.run(run + ["rule", "wrong-end", "-a", "several_wrong_end=no", "-a", "wrong_end_discard_mj=no",
                              "--seat", "picker=West", "--no-input", "--json"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["ruling"]["id"]
    p = subprocess.run(run + ["rul"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "Did you mean 'rule'" in p.stderr, p.stderr
    p = subprocess.run(run + ["--help"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and "search" in p.stdout and "rule" in p.stdout


def test_the_collector_is_off_for_start_up_only() -> None:
    """`python -m referee` keeps the cyclic collector off while it imports and parses the command
    line (a fifth of a ruling's time), and every command runs with it on again."""
    code = """
import gc, sys
from referee import cli
seen = []
import referee.engine as engine
original = engine.advance
def spy(*a, **k):
    seen.append(gc.isenabled())
    return original(*a, **k)
engine.advance = spy
import referee.scenarios as scenarios
scenarios.advance = spy
sys.argv = ["referee", "rule", "wrong-end", "-a", "several_wrong_end=no", "-a", "wrong_end_discard_mj=no",
            "--seat", "picker=West", "--no-input", "--json"]
from referee.__main__ import run
gc.disable()
try:
    run()
except SystemExit as exc:
    assert not exc.code, exc.code
assert seen and all(seen), seen
assert gc.isenabled()
print("ok")
"""
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip().endswith("ok"), p.stdout
