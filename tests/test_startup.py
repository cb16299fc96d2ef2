"""`referee rule ... --json` must start fast: heavy imports stay out of the CLI's import path."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
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
from referee.rules.loader import available, load_strict
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
    assert "yaml" not in mods and "referee.rules.yamlload" not in mods


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
import referee.ruling.engine as engine
original = engine.advance
def spy(*a, **k):
    seen.append(gc.isenabled())
    return original(*a, **k)
engine.advance = spy
import referee.ruling.scenarios as scenarios
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


# What a ruling may not import: the modules of the other commands. `referee.store` and its
# `context` say where the log and the event are (a ruling reads the event's ruleset); the log
# itself (`store.db`, `store.rulings`, sqlite3) is opened only for a ruling that is recorded.
OTHER_COMMANDS = ("referee.web", "referee.handouts", "referee.diff", "referee.quiz", "referee.house", "referee.search", "referee.lint",
                  "referee.cli.browse", "referee.cli.author", "referee.cli.compare", "referee.cli.card",
                  "referee.cli.handout", "referee.cli.house", "referee.cli.log", "referee.cli.serve",
                  "referee.cli.quiz", "referee.cli.diffview", "sqlite3", "jinja2", "yaml")
STORE_FOR_A_RULING = {"referee.store", "referee.store.context"}
PROBE = """
import atexit, runpy, sys
atexit.register(lambda: print("\\nMODULES " + " ".join(sorted(sys.modules)), file=sys.stderr))
sys.argv = ["referee", *sys.argv[1:]]
runpy.run_module("referee", run_name="__main__")
"""


def _ruling_imports(*args: str) -> tuple[set[str], str]:
    """The modules a `referee rule` run in a fresh process has loaded by its end, and its
    `-X importtime` report (which names the importer of each)."""
    cmd = [sys.executable, "-X", "importtime", "-c", PROBE, "rule", *args, "--json", "--no-input"]
    for _ in range(2):  # the first run writes the cache entries a judge's second ruling reads
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=ROOT)
        assert p.returncode == 0, p.stderr[-2000:]
    mods = set(p.stderr.rsplit("MODULES ", 1)[1].split())
    return mods, p.stderr


def _forbidden(mods: set[str], allowed: tuple[str, ...] = ()) -> list[str]:
    def under(name: str, pkg: str) -> bool:
        return name == pkg or name.startswith(pkg + ".")

    bad = [m for m in mods if any(under(m, pkg) for pkg in OTHER_COMMANDS) and not any(under(m, a) for a in allowed)]
    bad += [m for m in mods if under(m, "referee.store") and m not in STORE_FOR_A_RULING]
    bad += [m for m in mods if under(m, "referee.cards") and not any(under(m, a) for a in allowed)]
    return sorted(bad)


def _importers(report: str, names: list[str]) -> str:
    """The lines of the -X importtime report that show how the first forbidden module came in."""
    lines = [line for line in report.splitlines() if line.startswith("import time:")]
    at = next((i for i, line in enumerate(lines) if line.split("|")[-1].strip() in names), None)
    return "\n".join(lines[max(0, (at or 0) - 8): (at or 0) + 8]) if at is not None else ""


def test_a_ruling_imports_no_other_command() -> None:
    """Issue 28: a ruling from an answers file, and one typed with -a/-s, load only the ruling's own
    modules: not the log, the server, the handouts, the diff, the quiz or the card."""
    answers = str(ROOT / "scenarios" / "nmjl" / "blind-pass-peek" / "peeked-first-left.yaml")
    for args in (["--answers", answers], ["blind-pass-peek", "-a", "bpp_saw_face=yes", "-s", "peeker=West"]):
        mods, report = _ruling_imports(*args)
        assert "referee.cli.rule" in mods and "referee.ruling.engine" in mods  # the probe saw a real ruling
        bad = _forbidden(mods)
        assert not bad, f"referee rule {' '.join(args)} imports {bad}:\n{_importers(report, bad)}"


def test_a_ruling_with_tiles_imports_the_card_and_nothing_else() -> None:
    answers = str(ROOT / "scenarios" / "nmjl" / "mahjong-verification" / "card-hand-makes-a-line.yaml")
    mods, report = _ruling_imports("--answers", answers)
    assert "referee.cards.verify" in mods  # its tiles were judged against the card
    bad = _forbidden(mods, allowed=("referee.cards",))
    assert not bad, f"a ruling with tiles imports {bad}:\n{_importers(report, bad)}"


def test_every_command_is_named_with_the_module_that_registers_it() -> None:
    """`referee COMMAND` imports only the module `app.where` names for it: a command missing there
    would still run, but only by importing every command first (and slowly)."""
    code = """
from referee.cli import app
from referee.cli.helpfmt import _name
commands = {_name(c): c.callback.__module__ for c in app.registered_commands}
commands |= {g.name: g.typer_instance.registered_commands[0].callback.__module__ for g in app.registered_groups}
print(sorted(commands.items()))
print(sorted((k, "referee.cli." + v) for k, v in app.where.items()))
"""
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    registered, named = p.stdout.splitlines()
    assert registered == named


def test_a_group_runs_with_only_its_own_module() -> None:
    mods, _ = _run_imports(["log", "--help"])
    assert "referee.cli.log" in mods
    assert not {"referee.cli.rule", "referee.cli.serve", "referee.cli.card"} & mods


def _run_imports(args: list[str]) -> tuple[set[str], str]:
    p = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert p.returncode == 0, p.stderr
    return set(p.stderr.rsplit("MODULES ", 1)[1].split()), p.stdout


def test_a_cached_ruling_builds_no_model_class() -> None:
    """Issue 28: a cached ruling reads the ruleset and the answers file as records, so neither the
    models (pydantic classes, about a tenth of its start-up) nor the YAML reading half of the
    loader is imported, for an answers file as for answers typed."""
    answers = str(ROOT / "scenarios" / "nmjl" / "blind-pass-peek" / "peeked-first-left.yaml")
    for args in (["--answers", answers], ["blind-pass-peek", "-a", "bpp_saw_face=yes", "-s", "peeker=West"]):
        mods, report = _ruling_imports(*args)
        assert "referee.ruling.engine" in mods and "referee.rules.records" in mods  # a real ruling, from records
        built = sorted({"referee.rules.model", "referee.rules.reading"} & mods)
        assert not built, f"referee rule {' '.join(args)} imports {built}:\n{_importers(report, built)}"


def test_the_rulesets_listing_from_the_cache_builds_no_model_class() -> None:
    """`referee rulesets` reads every shipped ruleset's records (its row's goal: at most 1.2x a ruling)."""
    mods, report = _run_imports(["rulesets"])
    mods, report = _run_imports(["rulesets"])  # the first run may write the entries
    assert "referee.rules.records" in mods and "referee.cli.browse" in mods
    built = sorted({"referee.rules.model", "referee.rules.reading"} & mods)
    assert not built, f"referee rulesets imports {built}"
    # piped, the listing has no styles to show, so it is written without rich (a fifth of its start-up)
    assert "rich" not in mods and "amja 2026.1 (" in report, report


def test_a_cached_ruling_imports_no_pydantic() -> None:
    """A cached ruling converts its options without typer's pydantic converter (cli/helpfmt.plain_value)
    and stamps the cache from pydantic's version file, not by importing it: pydantic is a fifth of
    its start-up and nothing in it needs it."""
    answers = str(ROOT / "scenarios" / "nmjl" / "blind-pass-peek" / "peeked-first-left.yaml")
    for args in (["--answers", answers], ["blind-pass-peek", "-a", "bpp_saw_face=yes", "-s", "peeker=West"]):
        mods, report = _ruling_imports(*args)
        assert "referee.ruling.engine" in mods  # a real ruling
        heavy = sorted(m for m in mods if m == "pydantic" or m.startswith(("pydantic.", "pydantic_core", "typer._adapters")))
        assert not heavy, f"referee rule {' '.join(args)} imports {heavy[:5]}:\n{_importers(report, heavy)}"
