"""A group's own rules on top of nmjl: the shipped template, and what `check` tells its author."""
from __future__ import annotations

import textwrap
from pathlib import Path

from typer.testing import CliRunner

from referee.cli import app
from referee.diff import diff
from referee.rules.loader import load_strict

OVERLAY = """\
id: {id}
title: Tuesday group
version: "1"
extends: nmjl
{extra}"""


def _cli(*args: str | Path, env: dict[str, str] | None = None):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(app, [str(a) for a in args], env=env)


def _overlay(tmp_path: Path, name: str, situation: str, extra: str = "") -> Path:
    folder = tmp_path / name
    (folder / "situations").mkdir(parents=True)
    (folder / "ruleset.yaml").write_text(OVERLAY.format(id=name, extra=extra))
    (folder / "situations" / "patched.yaml").write_text(textwrap.dedent(situation))
    return folder


def test_the_house_template_asks_the_false_declarer_once() -> None:
    # its valid-mahjong patch rewrites node 'valid'; the goto to mahjong-in-error must still
    # carry the winner over as the declarer, or the two rulesets differ where the template changes nothing
    report = diff(load_strict("nmjl"), load_strict("house-example"))
    differing = {s.id for s in report.differing}
    assert "valid-mahjong" not in differing or all(
        d.answers.get("mahjong_valid") != "no" for s in report.differing if s.id == "valid-mahjong" for d in s.differences)
    node = load_strict("house-example").situations["valid-mahjong"].nodes["valid"]
    assert node.no.bind == {"declarer": "winner"}  # type: ignore[union-attr]


def test_check_names_a_goto_that_drops_the_bases_bind(tmp_path: Path) -> None:
    folder = _overlay(tmp_path, "ours", """\
        patch: valid-mahjong
        nodes:
          valid:
            ask: mahjong_valid
            yes: jokerless
            no: {goto: mahjong-in-error}
        """)
    r = _cli("check", folder)
    assert r.exit_code == 1
    [line] = [l for l in r.stdout.splitlines() if "bind" in l]
    assert line.startswith(f"{folder / 'situations' / 'patched.yaml'}:6:")  # the 'no:' branch, in the overlay
    assert "declarer" in line and "bind: {declarer: winner}" in line
    (folder / "situations" / "patched.yaml").write_text((folder / "situations" / "patched.yaml").read_text()
                                                        .replace("{goto: mahjong-in-error}", "{goto: mahjong-in-error, bind: {declarer: winner}}"))
    assert _cli("check", folder).exit_code == 0


CITELESS = """\
    patch: wrong-end
    nodes:
      discard_claimed:
        ask: wrong_end_discard_mj
        yes: ours
        no: picker_dead
      ours:
        ruling:
          id: OURS-1
          says: The Mah Jongg stands and nobody pays extra.
          game: ends
          owed: Settle as usual.
    """


def test_a_house_ruling_without_cite_is_told_how_to_cite_a_house_rule(tmp_path: Path) -> None:
    folder = _overlay(tmp_path, "ours", CITELESS)
    r = _cli("check", folder)
    [line] = r.stdout.splitlines()
    assert "OURS-1" in line and "sources:" in line and 'cite: "HOUSE: OURS-1"' in line, line
    # doing what it says passes
    (folder / "ruleset.yaml").write_text(OVERLAY.format(id="ours", extra='sources: {HOUSE: {title: "Tuesday group"}}\n'))
    patched = folder / "situations" / "patched.yaml"
    patched.write_text(patched.read_text() + '      cite: "HOUSE: OURS-1"\n')
    assert _cli("check", folder).exit_code == 0, _cli("check", folder).stdout


def test_a_house_ruling_citing_nothing_prints_no_empty_rule_heading(tmp_path: Path) -> None:
    folder = _overlay(tmp_path, "ours", CITELESS)
    for full in ([], ["--full"]):
        r = _cli("rule", "-r", folder, "wrong-end", "-a", "several_wrong_end=no", "-a", "wrong_end_discard_mj=yes",
                 "--no-input", *full)
        assert r.exit_code == 0, r.output
        assert "OURS-1" in r.stdout and "Rule" not in r.stdout, r.stdout
