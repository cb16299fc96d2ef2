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
from pathlib import Path
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
    def get_params(self, ctx: Any) -> list[Any]:
        return _coerce_when_given(super().get_params(ctx))

    def format_options(self, ctx: Any, formatter: Any) -> None:
        _format_options(self, ctx, formatter)


class _NotGiven:
    """An option left out needs no converter: typer turns a missing value into None (or () for a
    repeatable one) before it converts anything, yet builds the converter (a pydantic TypeAdapter,
    about a millisecond each) first. A ruling leaves out most of `rule`'s 24 options."""

    __slots__ = ("build",)

    def __init__(self, build: Any) -> None:
        self.build = build

    def coerce(self, value: Any, param: Any, ctx: Any) -> Any:
        if value is None:
            return () if param.multiple or param.nargs == -1 else None
        if value in ((), []) and param.type_descriptor.is_list:
            return []  # what the list converter makes of no items
        plain = plain_value(value, param, ctx)
        if plain is not NOT_PLAIN:
            return plain
        return self.build().coerce(value, param=param, ctx=ctx)


NOT_PLAIN = object()


def plain_value(value: Any, param: Any, ctx: Any = None) -> Any:
    """A given value typer's converter would hand back as it is: text for a text option (or each
    item of a repeatable one), digits within range for a whole-number option. Building that
    converter imports pydantic (a fifth of a ruling's start-up) only to return the same value;
    anything else, every mistake included, goes to typer's converter and its own message."""
    desc = param.type_descriptor
    info = desc.parameter_info
    if getattr(info, "parser", None) is not None or desc.file_annotation is not None:
        return NOT_PLAIN
    annotation = desc.annotation
    many = param.multiple or param.nargs == -1
    if annotation is str and not many:
        return value if type(value) is str else NOT_PLAIN
    if annotation == list[str] and many:
        return list(value) if isinstance(value, (list, tuple)) and all(type(v) is str for v in value) else NOT_PLAIN
    if annotation is Path and not many and getattr(info, "path_type", None) is None:
        if type(value) is not str or not value or "\0" in value:
            return NOT_PLAIN
        try:  # typer's own checks (exists, file or folder, readable) and their messages
            from typer._param_types import coerce_cli_path
        except ImportError:
            return NOT_PLAIN
        return coerce_cli_path(Path(value), info, path_type=Path, param=param, ctx=ctx)
    if annotation is int and not many:
        if type(value) is str and 0 < len(value) <= 18 and value.isascii() and value.isdigit():
            number = int(value)
        elif type(value) is int:
            number = value
        else:
            return NOT_PLAIN
        low, high = getattr(info, "min", None), getattr(info, "max", None)
        if (low is not None and number < low) or (high is not None and number > high):
            return NOT_PLAIN
        return number
    return NOT_PLAIN


def _coerce_when_given(params: list[Any]) -> list[Any]:
    for param in params:
        build = getattr(param, "get_runtime_param", None)
        if build is None or "get_runtime_param" in vars(param) or getattr(param, "_runtime_param", False) is not None:
            continue  # done already, or another typer: its own way
        lazy = _NotGiven(build)
        param.get_runtime_param = lambda param=param, lazy=lazy: param._runtime_param or lazy
    return params


class Group(TyperGroup):
    def make_context(self, info_name: str | None, args: list[str], parent: Any = None, **extra: Any) -> Any:
        # every command's context inherits this width from the group's
        extra.setdefault("terminal_width", min(width(), MAX_WIDTH))
        return super().make_context(info_name, args, parent=parent, **extra)

    def get_params(self, ctx: Any) -> list[Any]:
        return _coerce_when_given(super().get_params(ctx))

    def format_options(self, ctx: Any, formatter: Any) -> None:
        _format_options(self, ctx, formatter)
        self.format_commands(ctx, formatter)


class App(typer.Typer):
    """A Typer whose commands all print the plain, narrow-friendly help.

    Its commands may live in modules that register them on import (`modules`): the program
    then imports only the module of the command it runs, and every module, in the order named,
    the moment anything else reads the commands (the help, a typo, a test's runner)."""

    def __init__(self, **kw: Any) -> None:
        self._commands: list[Any] = []
        self._groups: list[Any] = []
        self.where: dict[str, str] = {}  # command or group name -> the module that registers it
        self._package = ""
        self._pending = False  # modules named and not all imported yet
        super().__init__(cls=Group, rich_markup_mode=None, **kw)

    def modules(self, package: str, where: dict[str, str]) -> None:
        """Name the module (in `package`) that registers each command; --help lists them in
        the order of `where`."""
        self._package, self.where, self._pending = package, where, True

    # typer reads and appends to these two lists; reading them loads every module first
    @property
    def registered_commands(self) -> list[Any]:
        self._load_all()
        return self._commands

    @registered_commands.setter
    def registered_commands(self, value: list[Any]) -> None:
        self._commands = value

    @property
    def registered_groups(self) -> list[Any]:
        self._load_all()
        return self._groups

    @registered_groups.setter
    def registered_groups(self, value: list[Any]) -> None:
        self._groups = value

    def _load_all(self) -> None:
        if not self._pending:
            return
        self._pending = False  # registering (an append) reads the lists again
        order = list(dict.fromkeys(self.where.values()))
        for module in order:
            _import(f"{self._package}.{module}")
        # a module imported on its own first (a command run, a test) still takes its place in --help
        rank = {name: order.index(module) for name, module in self.where.items()}
        self._commands.sort(key=lambda c: rank.get(_name(c), len(order)))
        self._groups.sort(key=lambda g: rank.get(g.name or "", len(order)))

    def command(self, *args: Any, **kw: Any) -> Any:
        kw.setdefault("cls", Command)
        return super().command(*args, **kw)

    def __call__(self, *args: Any, **kw: Any) -> Any:
        """Run the program, importing and building only the command (or group) named first on
        the command line when there is one: typer builds every command's options up front, which
        costs a ruling about as much as the ruling itself, and a command's module may import more.
        Anything else (an option, a typo, no command) imports and builds all."""
        words = kw.get("args")
        words = sys.argv[1:] if words is None else list(words)
        first = words[0] if words else None
        if first in self.where and self._pending:
            self._pending = False  # just this module: its registering must not load the rest
            try:
                _import(f"{self._package}.{self.where[first]}")
            finally:
                self._pending = True
        commands = [c for c in self._commands if _name(c) == first]
        groups = [g for g in self._groups if first is not None and g.name == first]
        if len(commands) + len(groups) != 1:
            return super().__call__(*args, **kw)
        only = copy.copy(self)
        only._pending = False
        only.registered_commands, only.registered_groups = commands, groups
        return typer.Typer.__call__(only, *args, **kw)


def _import(module: str) -> None:
    # __import__, not importlib.import_module: `python -X importtime` reports only the former,
    # and it is how a reader finds what a command costs at start
    __import__(module)


def _name(command: Any) -> str:
    return command.name or command.callback.__name__.lower().replace("_", "-")  # typer's rule


def examples(*commands: str) -> str:
    """A command's epilog: each example kept line for line (click's \\b), never rewrapped, so
    it can be copied; write long ones over several lines ending in ' \\'."""
    return "Examples:\n\n" + "\n\n".join("\b\n" + "\n".join(c.strip("\n").splitlines()) for c in commands)
