"""Output a judge can read: wrapped to the terminal, help at 40 columns, the version."""
from __future__ import annotations

import io
import re
from typing import Any

import pytest
import typer

import referee
from referee.rules import model as m
from referee.cli import app
from referee.cli.consoles import SafeConsole
from referee.cli.show import wrapped
from referee.ruling.engine import details
from referee.rules.loader import available, load_strict
from test_cli import HOUSE, run



def _commands(group: Any, path: tuple[str, ...] = ()) -> dict[tuple[str, ...], Any]:
    """Every command by its path, sub-commands of groups (`log list`) included."""
    found = {}
    for name, cmd in group.commands.items():
        found[(*path, name)] = cmd
        if hasattr(cmd, "commands"):
            found.update(_commands(cmd, (*path, name)))
    return found


ALL = _commands(typer.main.get_command(app))
COMMANDS = sorted(" ".join(path) for path in ALL)
RULING = ["rule", "picked-wrong-end", "-r", HOUSE, "-a", "discard_claimed=yes", "-a", "mahjong_valid=yes",
          "-s", "picker=West", "-s", "winner=North", "-a", "hand_value=25", "-p", "West=Ruth Anne Goldberg-Smith",
          "--no-input"]


def test_version() -> None:
    r = run("--version")
    assert r.code == 0
    assert r.stdout == f"referee {referee.__version__}\n"


def test_every_command_is_listed_with_help() -> None:
    assert {"rule", "search", "list", "show", "rulesets", "check", "test", "schema", "diff", "pay", "log list"} <= set(COMMANDS)
    r = run("--help", env={"COLUMNS": "40"})
    assert r.code == 0
    assert all(len(line) <= 40 for line in r.stdout.splitlines()), r.stdout
    assert "--version" in r.stdout


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("columns", [40, 100])
def test_help_fits_the_terminal_and_names_real_types(command: str, columns: int) -> None:
    r = run(*command.split(), "--help", env={"COLUMNS": str(columns)})
    assert r.code == 0, r.output
    lines = r.stdout.splitlines()
    too_long = [line for line in lines if len(line) > columns]
    assert not too_long, "\n".join(too_long)
    assert not re.search(r"<[a-z][^>]*>|list\[", r.stdout), r.stdout  # no Python types like <list[str]>
    cmd = ALL[tuple(command.split())]
    assert cmd.help and cmd.help.strip(), f"{command} has no help text"
    if hasattr(cmd, "commands"):  # a group: its help lists its commands, each tested on its own
        assert all(name in r.stdout for name in cmd.commands)
        return
    assert "Examples:" in r.stdout and f"referee {command}" in r.stdout.split("Examples:")[1]
    for param in cmd.params:
        if param.param_type_name == "option" and not param.is_flag and param.name != "help":
            # an option that takes a value names what it takes, in capitals or as choices
            name = next(o for o in param.opts if o.startswith("--"))
            assert re.search(re.escape(name) + r" ([A-Z][A-Z=_|]*|\[)", r.stdout), (name, r.stdout)


@pytest.mark.parametrize("group", [[], ["log"]])
def test_command_lists_show_whole_sentences_at_80_columns(group: list[str]) -> None:
    # click cuts a long first sentence to fit with '...': a judge reads half a description
    r = run(*group, "--help", env={"COLUMNS": "80"})
    listed = r.stdout.split("Commands:")[1].split("\n\n")[0]
    cut = [line for line in listed.splitlines() if line.rstrip().endswith("...")]
    assert not cut, cut


def test_rule_help_names_the_values_it_takes() -> None:
    r = run("rule", "--help", env={"COLUMNS": "100"})
    for shown in ["--answer FACT=VALUE", "--seat ROLE=SEAT", "--player SEAT=NAME", "--answers PATH", "SITUATION"]:
        assert shown in r.stdout


def _words(text: str) -> list[str]:
    return text.split()


@pytest.mark.parametrize("columns", [40, 60, 100])
def test_ruling_wraps_at_word_boundaries(columns: int) -> None:
    wide = run(*RULING, env={"COLUMNS": "1000"})
    narrow = run(*RULING, env={"COLUMNS": str(columns)})
    assert narrow.code == 0, narrow.output
    lines = narrow.stdout.splitlines()
    assert all(len(line) <= columns for line in lines), narrow.stdout
    # only whitespace changed: no word was cut in two, nothing was lost
    assert _words(narrow.stdout) == _words(wide.stdout)
    if columns == 40:
        assert len(lines) > len(wide.stdout.splitlines())  # it did wrap


def test_wrapped_items_hang_under_their_text() -> None:
    r = run(*RULING, env={"COLUMNS": "40"})
    lines = r.stdout.splitlines()
    # a single payment sits on its heading's line; its further lines hang under the heading
    start = next(i for i, line in enumerate(lines) if line.startswith("Payments (cents): West (Ruth"))
    assert lines[start + 1].startswith("  ") and lines[start + 1][2] != " "


def test_numbered_steps_hang_under_the_step(monkeypatch: pytest.MonkeyPatch) -> None:
    buf = io.StringIO()
    monkeypatch.setenv("COLUMNS", "30")
    wrapped(SafeConsole(file=buf), "Verify the hand on top of the winner's rack, then pay.", first="  1. ")
    lines = buf.getvalue().splitlines()
    assert lines[0].startswith("  1. Verify")
    assert len(lines) > 1 and all(line.startswith("     ") and line[5] != " " for line in lines[1:])
    assert all(len(line) <= 30 for line in lines)


@pytest.mark.parametrize("rid", sorted(available()))
def test_roles_are_asked_in_the_order_the_situation_declares_them(rid: str) -> None:
    rs = load_strict(rid)
    for sid, sit in rs.situations.items():
        for node in sit.nodes.values():
            if isinstance(node, m.RulingNode):
                asked = [name for name, _ in details(rs, sid, node.ruling)]
                roles = [name for name in asked if name in sit.roles]
                assert roles == [r for r in sit.roles if r in roles], (sid, node.ruling.id)


@pytest.mark.parametrize("args", [
    ["pay", "--winner", "East", "--how", "self-pick", "--value", "25", "--json"],
    ["diff", "nmjl", "card-game", "--json"],
    RULING + ["--json"],
], ids=["pay", "diff", "rule"])
def test_json_documents_carry_the_referee_version(args: list[str]) -> None:
    r = run(*args)
    assert r.code == 0, r.output
    assert r.json()["referee_version"] == referee.__version__


@pytest.mark.parametrize("args", [["list"], ["search", "wrong", "end"], ["show", "picked-wrong-end"]], ids=lambda a: a[0])
def test_browsing_wraps_at_word_boundaries(args: list[str]) -> None:
    wide = run(*args, "-r", HOUSE, env={"COLUMNS": "1000"})
    narrow = run(*args, "-r", HOUSE, env={"COLUMNS": "40"})
    assert narrow.code == 0, narrow.output
    assert all(len(line) <= 40 for line in narrow.stdout.splitlines()), narrow.stdout
    assert _words(narrow.stdout) == _words(wide.stdout)


def test_diff_wraps_at_word_boundaries() -> None:
    wide = run("diff", "nmjl", "card-game", env={"COLUMNS": "1000"})
    narrow = run("diff", "nmjl", "card-game", env={"COLUMNS": "50"})
    assert narrow.code == 0, narrow.output
    assert all(len(line) <= 50 for line in narrow.stdout.splitlines()), narrow.stdout
    assert _words(narrow.stdout) == _words(wide.stdout)


def test_pay_wraps_at_word_boundaries() -> None:
    args = ["pay", "-r", "card-game", "--winner", "North", "--how", "discard", "--discarder", "East", "--value", "25",
            "-p", "North=Ruth Anne Goldberg-Smith"]
    wide, narrow = run(*args, env={"COLUMNS": "1000"}), run(*args, env={"COLUMNS": "40"})
    assert narrow.code == 0, narrow.output
    assert all(len(line) <= 40 for line in narrow.stdout.splitlines()), narrow.stdout
    assert _words(narrow.stdout) == _words(wide.stdout)
