"""A long-running process (`referee serve` prints the booklet on request) sees the scenario
files as they are now: one added to a situation's folder, one edited in place, one removed."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from referee.handouts import build, content
from referee.rules.loader import data_dir, load_strict

SHIPPED = data_dir("scenarios") / "nmjl" / "wrong-end"
FIRST, SECOND = "back-end-pick.yaml", "wrong-end-discard-wins.yaml"


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "scenarios"
    here = root / "nmjl" / "wrong-end"
    here.mkdir(parents=True)
    (here / FIRST).write_bytes((SHIPPED / FIRST).read_bytes())
    monkeypatch.setattr(content, "_scenario_root", lambda: root)
    return here


def _titles(sid: str = "wrong-end") -> list[str]:
    return [e.title for e in content.examples(load_strict("nmjl"), sid)]


def test_a_scenario_added_to_a_situations_folder_is_printed(folder: Path) -> None:
    ruleset_folder = folder.parent
    before = ruleset_folder.stat().st_mtime_ns
    assert _titles() == ["One player picks from the back of the wall"]
    (folder / SECOND).write_bytes((SHIPPED / SECOND).read_bytes())
    assert ruleset_folder.stat().st_mtime_ns == before  # only the situation's own folder changed
    assert _titles() == ["One player picks from the back of the wall",
                         "A discard after a wrong-end pick gives Mah Jongg (25-cent hand)"]
    assert "A discard after a wrong-end pick gives Mah Jongg" in build(load_strict("nmjl"), "html")
    (folder / SECOND).unlink()
    assert _titles() == ["One player picks from the back of the wall"]


def test_a_scenario_edited_in_place_is_read_again(folder: Path) -> None:
    assert _titles() == ["One player picks from the back of the wall"]
    path = folder / FIRST
    old = path.stat()
    path.write_text(path.read_text(encoding="utf-8").replace("from the back of the wall", "from the far end"),
                    encoding="utf-8")
    os.utime(path, ns=(old.st_atime_ns, old.st_mtime_ns + 1_000_000))  # a clock that ticks coarsely still moves
    assert _titles() == ["One player picks from the far end"]
