"""Given option values that typer's converter would return unchanged are taken as they are
(cli/helpfmt.plain_value), so a ruling or `serve` never imports pydantic only to convert text.
Each value here is compared with what typer's own converter makes of it."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import pytest
import typer
from typer._click.exceptions import BadParameter
from typer._coercion import build_runtime_param
from typer.main import get_command

from referee.cli.helpfmt import NOT_PLAIN, plain_value


def _command():  # noqa: ANN202
    app = typer.Typer()

    @app.command()
    def run(  # noqa: PLR0913
        text: Optional[str] = typer.Option(None, "--text"),
        names: list[str] = typer.Option([], "--name"),
        port: int = typer.Option(8000, "--port", min=0, max=65535),
        count: int = typer.Option(3, "--count"),
        where: Optional[Path] = typer.Option(None, "--where"),
        folder: Optional[Path] = typer.Option(None, "--folder", exists=True, file_okay=False),
    ) -> None:
        pass

    @app.command()
    def other() -> None:
        pass

    return get_command(app).commands["run"]


CASES = [("text", "judge"), ("text", ""), ("text", " spaced "), ("names", ["a", "b"]), ("names", ("x",)),
         ("port", "0"), ("port", "8080"), ("port", "0080"), ("port", "65535"), ("port", "65536"), ("port", "-1"),
         ("port", "+5"), ("port", " 5"), ("port", "٣"), ("port", "x"), ("port", 32), ("count", "123456789012345678"),
         ("count", "1" * 30), ("where", "scenarios"), ("where", "no/such/file.yaml"), ("where", ""),
         ("folder", "scenarios"), ("folder", "README.md"), ("folder", "no/such/folder")]


@pytest.mark.parametrize("name,value", CASES, ids=[f"{n}={v!r}" for n, v in CASES])
def test_a_plain_value_is_what_typers_converter_makes_of_it(name: str, value: object) -> None:
    cmd = _command()
    param = next(p for p in cmd.params if p.name == name)
    ctx = cmd.make_context("run", [])

    def typers() -> object:
        try:
            return build_runtime_param(param.type_descriptor).coerce(value, param=param, ctx=ctx)
        except BadParameter as exc:
            return ("refused", exc.format_message())

    def ours() -> object:
        try:
            return plain_value(value, param, ctx)
        except BadParameter as exc:
            return ("refused", exc.format_message())

    got = ours()
    if got is not NOT_PLAIN:
        assert got == typers() and type(got) is type(typers())


def test_the_usual_values_are_taken_without_the_converter() -> None:
    cmd = _command()
    ctx = cmd.make_context("run", [])
    params = {p.name: p for p in cmd.params}
    assert plain_value("judge", params["text"], ctx) == "judge"
    assert plain_value(("a", "b"), params["names"], ctx) == ["a", "b"]
    assert plain_value("0", params["port"], ctx) == 0
    assert plain_value("scenarios", params["where"], ctx) == Path("scenarios")
    assert plain_value("65536", params["port"], ctx) is NOT_PLAIN  # typer says why
    assert plain_value("x", params["port"], ctx) is NOT_PLAIN
