"""Golden tests of the loader's and the lint's messages.

tests/broken/<kind>/<case>.yaml is one broken file of a kind (situation, facts, ruleset,
scenario); <case>.expected beside it holds the exact `path:line:col: message` lines.
tests/broken/rulesets/<case>/ is a tiny whole ruleset with lint problems, checked with
`referee check`; rulesets/<case>.expected holds every line it must print.

Everything runs with the working directory at tests/broken, so paths in the expected files
are relative. To refresh an expected file after a deliberate wording change, run the same
command from tests/broken and read the diff before committing it.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli import app
from referee.errors import LoadError
from referee.rules.loader import validate
from referee.lint.schema import KINDS
from referee.rules.yamlload import read

BROKEN = Path(__file__).resolve().parent / "broken"
FILES = sorted(p.relative_to(BROKEN) for p in BROKEN.glob("*/*.yaml") if p.parts[-2] in KINDS)
RULESETS = sorted(p.name for p in (BROKEN / "rulesets").iterdir() if p.is_dir())


def expected(path: Path) -> list[str]:
    return (BROKEN / path).read_text(encoding="utf-8").splitlines()


def relative(text: str) -> list[str]:
    """Output lines with the absolute folder the loader resolved to made relative again."""
    return [line.replace(str(BROKEN) + "/", "").rstrip() for line in text.splitlines()]


@pytest.fixture
def in_broken(monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(BROKEN)
    return BROKEN


def test_every_case_has_an_expected_file() -> None:
    assert FILES and RULESETS
    for f in FILES:
        assert (BROKEN / f).with_suffix(".expected").is_file(), f"{f}: write {f.with_suffix('.expected')}"
    for case in RULESETS:
        assert (BROKEN / "rulesets" / f"{case}.expected").is_file(), f"rulesets/{case}: write rulesets/{case}.expected"


@pytest.mark.parametrize("path", FILES, ids=[str(f) for f in FILES])
def test_loader_message(path: Path, in_broken: Path) -> None:
    kind = path.parts[0]
    want = expected(path.with_suffix(".expected"))
    assert want, "an expected file must hold at least one problem line"
    if kind == "scenario":
        # A scenario is only fully checked against its ruleset: go through `referee check`.
        result = CliRunner().invoke(app, ["check", str(path)])
        assert result.exit_code == 1, result.output
        got = relative(result.stdout)
        assert "Traceback" not in result.output
        assert f"{len(want)} problem" in result.stderr
    else:
        try:
            _, problems = validate(KINDS[kind], read(str(path)))
        except LoadError as exc:
            problems = exc.problems
        got = [str(p) for p in problems]
    assert got == want


@pytest.mark.parametrize("case", RULESETS)
def test_lint_messages(case: str, in_broken: Path) -> None:
    want = expected(Path("rulesets") / f"{case}.expected")
    result = CliRunner().invoke(app, ["check", f"rulesets/{case}"])
    assert "Traceback" not in result.output
    assert relative(result.stdout) == want
    if case == "clean":
        assert result.exit_code == 0, result.output
        assert want == []
        assert "ok: 1 ruleset" in result.stderr
    else:
        assert result.exit_code == 1, result.output
        # every problem is reported, not just the first
        n = len(want)
        assert f"{n} problem{'s' if n != 1 else ''} found" in result.stderr


def test_many_problems_are_all_reported(in_broken: Path) -> None:
    """Load errors (bad YAML, a misnamed file) and lint errors come out of one run together."""
    lines = expected(Path("rulesets") / "many-problems.expected")
    assert len(lines) >= 8
    text = "\n".join(lines)
    for phrase in ("invalid YAML", "should match its file name", "unknown situation", "never reached",
                   "cites unknown source", "cites no source", "also used at", "not a role or fact"):
        assert phrase in text


def test_clean_folders_of_checks_also_work_with_ruleset_yaml_path(in_broken: Path) -> None:
    result = CliRunner().invoke(app, ["check", "rulesets/clean/ruleset.yaml"])
    assert result.exit_code == 0, result.output


def test_every_line_names_path_line_col(in_broken: Path) -> None:
    """The one format an editor can jump to: path:line:col: message."""
    import re

    pattern = re.compile(r"^[\w./-]+\.yaml:\d+:\d+: \S")
    for f in [*(f.with_suffix(".expected") for f in FILES),
              *(Path("rulesets") / f"{c}.expected" for c in RULESETS if c != "clean")]:
        for line in expected(f):
            assert pattern.match(line), f"{f}: {line!r}"


def test_yes_no_on_off_stay_text() -> None:
    from referee.rules.yamlload import parse

    doc = parse("a: yes\nb: no\nc: on\nd: off\ne: true\nf: 2026-04-01\n", "x.yaml")
    assert doc.data == {"a": "yes", "b": "no", "c": "on", "d": "off", "e": True, "f": "2026-04-01"}


def test_duplicate_key_names_both_lines() -> None:
    from referee.rules.yamlload import parse

    with pytest.raises(LoadError) as info:
        parse("a: 1\nb:\n  c: 1\n  c: 2\n", "x.yaml")
    assert str(info.value) == "x.yaml:4:3: duplicate key 'c' (first at line 3)"


@pytest.mark.parametrize("tag", ["!!python/object:os.system", "!!python/name:os.system", "!custom"])
def test_tags_are_refused(tag: str) -> None:
    from referee.rules.yamlload import parse

    with pytest.raises(LoadError) as info:
        parse(f"a: {tag} x\n", "x.yaml")
    assert str(info.value).startswith("x.yaml:1:4: tag ")
    assert "is not allowed here" in str(info.value)


def test_missing_file() -> None:
    with pytest.raises(LoadError) as info:
        read("does/not/exist.yaml")
    assert str(info.value) == "does/not/exist.yaml: no such file"


def test_unknown_situation_in_scenario_names_the_line(in_broken: Path, tmp_path: Path) -> None:
    f = tmp_path / "s.yaml"
    f.write_text("ruleset: rulesets/clean\nsituation: tiney\nexpect:\n  ruling: T-1\n")
    result = CliRunner().invoke(app, ["check", str(f)])
    assert result.exit_code == 1
    assert result.stdout.strip() == f"{f}:2:1: unknown situation 'tiney' in ruleset 'clean'; did you mean 'tiny'?"
