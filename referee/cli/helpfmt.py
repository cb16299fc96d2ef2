"""`--help` that reads at 40 columns: plain text wrapped to the terminal, real type names.

Typer's own help draws boxed tables that crop option names on a narrow screen and shows
Python types (`<list[str]>`, `<bool>`). Here every command of `App` prints click's plain
layout, wrapped to the terminal's width, with `TEXT`, `INTEGER`, `PATH` or the metavar an
option names (`FACT=VALUE`, `SEAT`), and nothing after a flag.
"""
from __future__ import annotations

import copy
import re
import sys
from typing import Any

import typer
from typer.core import TyperCommand, TyperGroup

from .show import width

MAX_WIDTH = 100  # longer help lines are harder to read, whatever the terminal
_TYPES = {"str": "TEXT", "int": "INTEGER", "int range": "INTEGER", "float": "NUMBER", "float range": "NUMBER",
          "path": "PATH", "file": "PATH", "directory": "PATH", "bool": ""}
_TYPE = re.compile(r"<([^<>]*)>")


def _type_name(match: re.Match[str]) -> str:
    label = match.group(1)
    inner = re.fullmatch(r"list\[(.*)\]", label)
    label = inner.group(1) if inner else label
    if "|" in label:
        return f"[{label}]"
    return _TYPES.get(label, label.upper())


def _records(cmd: Any, ctx: Any) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    args, opts = [], []
    for param in cmd.get_params(ctx):
        record = param.get_help_record(ctx)
        if record is None:
            continue
        name, help_ = record
        if param.param_type_name == "argument":
            name = (param.metavar or param.name.upper()) + ("..." if param.nargs != 1 else "")
            args.append((name, help_))
        else:
            opts.append((_TYPE.sub(_type_name, name).rstrip(), help_))
    return args, opts


def _format_options(cmd: Any, ctx: Any, formatter: Any) -> None:
    col_max = max(min(30, formatter.width // 3), 8)  # narrow screens: long names take their own line
    args, opts = _records(cmd, ctx)
    for title, rows in (("Arguments", args), ("Options", opts)):
        if rows:
            with formatter.section(title):
                formatter.write_dl(rows, col_max=col_max)


class Command(TyperCommand):
    def format_options(self, ctx: Any, formatter: Any) -> None:
        _format_options(self, ctx, formatter)


class Group(TyperGroup):
    def make_context(self, info_name: str | None, args: list[str], parent: Any = None, **extra: Any) -> Any:
        # every command's context inherits this width from the group's
        extra.setdefault("terminal_width", min(width(), MAX_WIDTH))
        return super().make_context(info_name, args, parent=parent, **extra)

    def format_options(self, ctx: Any, formatter: Any) -> None:
        _format_options(self, ctx, formatter)
        self.format_commands(ctx, formatter)


class App(typer.Typer):
    """A Typer whose commands all print the plain, narrow-friendly help."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(cls=Group, rich_markup_mode=None, **kw)

    def command(self, *args: Any, **kw: Any) -> Any:
        kw.setdefault("cls", Command)
        return super().command(*args, **kw)

    def __call__(self, *args: Any, **kw: Any) -> Any:
        """Run the program, building only the command named first on the command line when
        there is one: typer builds every command's options up front, which costs a ruling
        about as much as the ruling itself. Anything else (a group, an option, a typo) builds all."""
        words = kw.get("args")
        words = sys.argv[1:] if words is None else list(words)
        named = [c for c in self.registered_commands if words and _name(c) == words[0]]
        if len(named) != 1:
            return super().__call__(*args, **kw)
        only = copy.copy(self)
        only.registered_commands, only.registered_groups = named, []
        return typer.Typer.__call__(only, *args, **kw)


def _name(command: Any) -> str:
    return command.name or command.callback.__name__.lower().replace("_", "-")  # typer's rule


def examples(*commands: str) -> str:
    """A command's epilog: each example kept line for line (click's \\b), never rewrapped, so
    it can be copied; write long ones over several lines ending in ' \\'."""
    return "Examples:\n\n" + "\n\n".join("\b\n" + "\n".join(c.strip("\n").splitlines()) for c in commands)
