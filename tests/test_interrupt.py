"""Ctrl-C while referee is still loading its libraries, parsing the command line or running a
command: one line and exit 130, no traceback."""
from __future__ import annotations

import builtins
import sys
from typing import Any

import pytest

from referee.__main__ import run


def said_interrupted_once(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        run()
    assert info.value.code == 130
    captured = capsys.readouterr()
    assert captured.err == "\nreferee: interrupted\n"
    assert captured.out == ""


def test_ctrl_c_while_loading_the_cli(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    real = builtins.__import__

    def slow_import(name: str, *args: Any, **kwargs: Any) -> Any:
        if name in ("cli", "referee.cli"):  # the judge presses Ctrl-C while typer and rich load
            raise KeyboardInterrupt
        return real(name, *args, **kwargs)

    monkeypatch.delitem(sys.modules, "referee.cli", raising=False)
    monkeypatch.setattr(builtins, "__import__", slow_import)
    said_interrupted_once(capsys)


def test_the_command_starts_from_the_guarded_entry_point() -> None:
    """The installed `referee` script must call run(), or Ctrl-C at start-up shows a traceback again."""
    import tomllib
    from pathlib import Path

    project = tomllib.loads((Path(__file__).resolve().parent.parent / "pyproject.toml").read_text())
    assert project["project"]["scripts"]["referee"] == "referee.__main__:run"


class _Interrupted:
    def print(self, *args: Any, **kwargs: Any) -> None:
        raise KeyboardInterrupt


def test_ctrl_c_while_the_command_line_is_parsed(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """typer turns Ctrl-C during parsing (here in --version, an eager option) into a silent exit 130."""
    import referee.cli.base

    monkeypatch.setattr(referee.cli.base, "out", _Interrupted())
    monkeypatch.setattr(sys, "argv", ["referee", "--version"])
    said_interrupted_once(capsys)


def test_ctrl_c_inside_a_command_says_so_once(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import referee.rules.loader as loader

    def interrupted(*args: Any, **kwargs: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(loader, "load_strict", interrupted)
    monkeypatch.setattr(sys, "argv", ["referee", "list"])
    said_interrupted_once(capsys)
