from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli import app

ROOT = Path(__file__).resolve().parent.parent


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


@pytest.fixture
def cli():
    runner = CliRunner()

    def invoke(*args: str, input: str | None = None):
        return runner.invoke(app, list(args), input=input, catch_exceptions=False)

    return invoke


@pytest.fixture(autouse=True)
def _private_log(tmp_path_factory, monkeypatch):
    """No test records into the real rulings log, whatever the developer's shell has set."""
    for name in ("REFEREE_EVENT", "REFEREE_JUDGE", "REFEREE_ROUND", "REFEREE_TABLE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("REFEREE_DB", str(tmp_path_factory.mktemp("log") / "rulings.db"))
