from __future__ import annotations

import itertools
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli import app

ROOT = Path(__file__).resolve().parent.parent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The run a newcomer starts, `python -m pytest`, leaves out the tests marked slow (browsers,
    PDF, PostgreSQL and logs at scale): they took half of its time. Naming files, or choosing with
    -m (`-m slow`: just them, as CI runs them after the default run), runs what is asked."""
    if config.args_source != pytest.Config.ArgsSource.TESTPATHS or config.option.markexpr:
        return
    slow = [item for item in items if item.get_closest_marker("slow") is not None]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if item.get_closest_marker("slow") is None]


@pytest.fixture(autouse=True, scope="session")
def _cache_in_tmp(tmp_path_factory: pytest.TempPathFactory):
    """The ruleset cache goes to a temporary folder (never $HOME); subprocesses inherit it."""
    old = os.environ.get("REFEREE_CACHE_DIR")
    os.environ["REFEREE_CACHE_DIR"] = str(tmp_path_factory.mktemp("referee-cache"))
    yield
    if old is None:
        os.environ.pop("REFEREE_CACHE_DIR", None)
    else:
        os.environ["REFEREE_CACHE_DIR"] = old


@pytest.fixture(autouse=True, scope="session")
def _build_the_cli_once():
    """typer turns `app` into a click command afresh on every CliRunner.invoke, about two thirds
    of an in-process call's time; the app is complete once imported, so build it once."""
    import typer.main
    import typer.testing

    built: dict[int, tuple[object, object]] = {}
    plain = typer.testing._get_command

    def once(typer_app):  # type: ignore[no-untyped-def]
        hit = built.get(id(typer_app))
        if hit is None or hit[0] is not typer_app:
            hit = built[id(typer_app)] = (typer_app, plain(typer_app))
        return hit[1]

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(typer.testing, "_get_command", once)
        yield


@pytest.fixture
def cli():
    runner = CliRunner()

    def invoke(*args: str, input: str | None = None):
        return runner.invoke(app, list(args), input=input, catch_exceptions=False)

    return invoke


@pytest.fixture(scope="session")
def _log_dirs(tmp_path_factory: pytest.TempPathFactory):
    # One numbered folder per test from tmp_path_factory.mktemp rescans every earlier one:
    # quadratic, about ten seconds over the suite. A counter under one folder costs a mkdir.
    root = tmp_path_factory.mktemp("logs")
    return root, itertools.count()


@pytest.fixture(autouse=True)
def _private_log(_log_dirs, monkeypatch):
    """No test records into the real rulings log, whatever the developer's shell has set."""
    for name in ("REFEREE_EVENT", "REFEREE_JUDGE", "REFEREE_ROUND", "REFEREE_TABLE"):
        monkeypatch.delenv(name, raising=False)
    root, counter = _log_dirs
    here = root / str(next(counter))
    here.mkdir()
    monkeypatch.setenv("REFEREE_DB", str(here / "rulings.db"))
    # A PostgreSQL log keeps its event settings in the application folder, not beside a file:
    # without this, every pg test left one file in the developer's ~/.local/share/referee.
    monkeypatch.setenv("XDG_DATA_HOME", str(here / "data"))
    monkeypatch.setenv("APPDATA", str(here / "data"))


def started_pg():
    """A new PostgreSQL server (tests/pgserver.py), or a skip that says why none can start."""
    import pgserver

    why = pgserver.unavailable()
    if why:
        pytest.skip(f"PostgreSQL tests skipped: {why}")
    return pgserver.start()


@pytest.fixture(scope="session")
def pg_server():
    """A PostgreSQL server of the test run's own, shared by its tests."""
    server = started_pg()
    yield server
    server.stop()


_databases = itertools.count()


@pytest.fixture
def pg_url(pg_server) -> str:
    """A fresh, empty database on the test server: its postgresql:// URL (over the unix socket)."""
    name = f"t{os.getpid()}_{next(_databases)}"
    pg_server.sql(f"CREATE DATABASE {name}")
    return pg_server.url(name)


@pytest.fixture(params=["sqlite", "postgres"])
def log_at(request, tmp_path: Path) -> str:
    """Where a log lives, once per backend: a file path, then a postgresql:// URL. The same
    store tests run against both."""
    if request.param == "sqlite":
        return str(tmp_path / "rulings.db")
    return request.getfixturevalue("pg_url")
