"""The catalogue of table customs: each proved by its scenarios, each pair the wizard allows
loads, passes check and diffs against nmjl; `referee house new/edit/list` and `pay` under it."""
from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from referee.cli import app
from referee.diff import diff, summarize
from referee.house import catalogue, choose, read_answers, write
from referee.lint.cache import lint
from referee.rules.loader import load, load_strict
from referee.ruling.scenarios import leaves, run_file

CAT = catalogue()


def _cli(*args: str | Path):  # type: ignore[no-untyped-def]
    r = CliRunner().invoke(app, [str(a) for a in args], env={"COLUMNS": "2000"})
    r.text = " ".join(r.output.split())  # the words, wherever the terminal wraps them
    return r


def _folder(tmp_path: Path, *cids: str) -> Path:
    folder = tmp_path / "-".join(cids) if cids else tmp_path / "plain"
    write(folder, choose(CAT, {c: None for c in cids}), "Test table")
    return folder


def _clean(folder: Path):  # type: ignore[no-untyped-def]
    rs, problems = load(folder)
    assert rs is not None and not problems, problems
    assert not lint(rs), lint(rs)
    return rs


def test_the_catalogue_has_at_least_15_customs_each_with_a_source_and_a_scenario() -> None:
    nmjl = load_strict("nmjl")
    assert len(CAT) >= 15
    for c in CAT.values():
        assert c.scenarios, c.id
        assert c.source_key in nmjl.sources or c.source_key in c.sources, c.id
        assert c.describe and c.says and c.rule


@pytest.mark.parametrize("cid", list(CAT))
def test_each_custom_alone_passes_check_and_its_scenarios(tmp_path: Path, cid: str) -> None:
    folder = _folder(tmp_path, cid)
    rs = _clean(folder)
    reached: set[str] = set()
    for i, sc in enumerate(CAT[cid].filled("scenarios", CAT[cid].number.default if CAT[cid].number else None)):
        path = tmp_path / f"scenario-{i}.yaml"
        path.write_text(yaml.safe_dump({"ruleset": str(folder), **sc}, sort_keys=False))
        result, outcome = run_file(path)
        assert result.passed, (cid, sc["title"], result.failures)
        reached.add(result.ruling)
    # every ruling the custom writes is reached by one of its scenarios
    own = set(CAT[cid].rulings())
    assert own <= reached, (cid, own - reached)
    assert own <= set(leaves(rs))


def test_a_custom_that_changes_money_changes_what_the_scenario_pays(tmp_path: Path) -> None:
    # the same answers under nmjl pay South in full: the custom, not the scenario, makes the 0
    sc = CAT["pie"].filled("scenarios", 500)[0]
    path = tmp_path / "nmjl.yaml"
    answers = {k: v for k, v in sc["answers"].items() if k != "pie_out"}  # nmjl has no such question
    path.write_text(yaml.safe_dump({"ruleset": "nmjl", **sc, "answers": answers}, sort_keys=False))
    result, outcome = run_file(path)
    assert not result.passed
    assert {p.payer.seat: p.amount for p in outcome.payments}["South"] == 25


ALLOWED = [pair for pair in itertools.combinations(CAT, 2) if pair[1] not in CAT[pair[0]].conflicts]


def test_conflicting_customs_are_refused_together() -> None:
    conflicting = [pair for pair in itertools.combinations(CAT, 2) if pair[1] in CAT[pair[0]].conflicts]
    assert ("double-card", "add-a-zero") in conflicting
    for a, b in conflicting:
        with pytest.raises(Exception, match="cannot be played with"):
            choose(CAT, {a: None, b: None})


def _touched(*cids: str) -> set[str]:
    return {"valid-mahjong", *(stem for c in cids for stem in CAT[c].situations)}


@pytest.mark.parametrize("pair", ALLOWED, ids=["+".join(p) for p in ALLOWED])
def test_every_pair_the_wizard_allows_loads_checks_and_diffs(tmp_path: Path, pair: tuple[str, str]) -> None:
    rs = _clean(_folder(tmp_path, *pair))
    nmjl = load_strict("nmjl")
    report = diff(nmjl, rs, only=_touched(*pair))
    summarize(report, nmjl, rs)
    errors = [d for s in report.situations for d in s.differences if d.b.error]
    assert not errors, errors[:3]
    assert {u.id for u in rs.meta.customs} == set(pair)


def test_house_new_no_input_writes_a_folder_check_passes_and_rule_follows_the_custom(tmp_path: Path) -> None:
    folder = tmp_path / "our-table"
    r = _cli("house", "new", folder, "--custom", "pie=100", "--custom", "dice-doubles", "--custom", "hot-wall", "--no-input")
    assert r.exit_code == 0, r.output
    assert "check: ok" in r.text
    assert re.search(r"\d+ situations? rules? differently", r.text) and "REFEREE_RULESET" in r.text
    assert read_answers(folder).customs == {"pie": 100, "dice-doubles": 2, "hot-wall": 3}
    assert _cli("check", folder).exit_code == 0
    r = _cli("rule", "valid-mahjong", "-r", folder, "-s", "winner=North", "-s", "discarder=East", "-a", "hand_value=25",
             "-a", "mahjong_valid=yes", "-a", "jokerless=no", "-a", "win_how=discard", "-a", "dice_doubles=no",
             "-a", "pie_out=South", "--no-input", "--full")
    assert r.exit_code == 0, r.output
    assert "South pays North 0" in r.text
    assert "By your table's pie rule, South pays nothing more" in r.text
    assert "your table's custom 'pie'; source: ML-238" in r.text
    r = _cli("pay", "-r", folder, "--winner", "North", "--how", "discard", "--discarder", "East", "--value", "25",
             "--doubles", "--lost", "West=90")
    assert r.exit_code == 0, r.output
    assert "double dice: x2" in r.text and "West pays North 10" in r.text
    assert "only 10 of their pie of 100 is left (pie rule)" in r.text


def test_house_new_refuses_bad_choices_in_one_line(tmp_path: Path) -> None:
    for args, said in ((["--custom", "pie=lots"], "needs a whole number"), (["--custom", "dice-double"], "did you mean 'dice-doubles'"),
                       (["--custom", "double-card", "--custom", "add-a-zero"], "cannot be played with"),
                       (["--custom", "cold-wall=3"], "takes no number")):
        r = _cli("house", "new", tmp_path / "x", *args, "--no-input")
        assert r.exit_code == 2, r.output
        assert said in r.text and "Traceback" not in r.text
        assert not (tmp_path / "x").exists()


def test_house_edit_rewrites_its_files_and_keeps_a_hand_edit(tmp_path: Path) -> None:
    folder = tmp_path / "tuesday"
    assert _cli("house", "new", folder, "--custom", "hot-wall", "--custom", "kitty=50", "--no-input").exit_code == 0
    mine = folder / "situations" / "our-own.yaml"
    mine.write_text("patch: wrong-wall\ntitle: Picked from the wrong wall (our words)\n")
    r = _cli("house", "edit", folder, "--drop", "hot-wall", "--custom", "kitty=75", "--custom", "pie", "--no-input")
    assert r.exit_code == 0, r.output
    assert mine.read_text().startswith("patch: wrong-wall")
    assert not (folder / "situations" / "house-hot-wall-obvious-hand-discard.yaml").exists()
    assert read_answers(folder).customs == {"pie": 500, "kitty": 75}
    rs = _clean(folder)  # load, not load_strict: that keeps the folder as this process first loaded it
    assert rs.situations["wrong-wall"].title == "Picked from the wrong wall (our words)"
    assert "75" in "".join(n.ruling.says for n in rs.situations["wall-game"].nodes.values() if hasattr(n, "ruling"))


def test_house_list_prints_one_custom_a_line_id_first() -> None:
    r = _cli("house", "list")
    assert r.exit_code == 0
    lines = r.output.splitlines()
    assert len(lines) == len(CAT)
    for line, c in zip(lines, CAT.values()):
        assert line.startswith(c.id + " ") and f"source: {c.cite}" in line


def test_a_pie_the_table_agreed_is_paid_by_the_league_ruleset_too() -> None:
    # nmjl's table-rule ruling states the amounts: the pie player pays nothing, the rest as usual
    r = _cli("rule", "table-rule", "-a", "table_rule_kind=pie", "-a", "table_rule_agreed=yes", "-a", "jokerless=no",
             "-a", "tbr_pie_how=discard", "-a", "hand_value=25", "-s", "pie_player=North", "-s", "winner=East",
             "-s", "discarder=South", "--no-input")
    assert r.exit_code == 0, r.output
    assert "North pays East 0" in r.text and "South pays East 50" in r.text and "West pays East 25" in r.text
    assert "By your table's pie rule, North pays nothing more" in r.text
    r = _cli("pay", "--winner", "East", "--how", "self-pick", "--value", "25", "--pie-out", "North")
    assert r.exit_code == 0 and "North pays East 0" in r.text and "East collects 100" in r.text
    r = _cli("pay", "--winner", "East", "--how", "self-pick", "--value", "25", "--lost", "North=90")
    assert r.exit_code == 2 and "add --pie AMOUNT" in r.text
    r = _cli("pay", "--winner", "East", "--how", "self-pick", "--value", "25", "--lost", "North=90", "--pie", "100")
    assert r.exit_code == 0 and "North pays East 10" in r.text
    r = _cli("pay", "--winner", "East", "--how", "self-pick", "--value", "25", "--first-last")
    assert r.exit_code == 2 and "no such house rule" in r.text
