"""Shipped scenario files kept a folder to an entry (rules/shelf.py): read back only for a file
whose bytes are unchanged, never trusted when damaged or another user's, nothing kept with the
cache off."""
from __future__ import annotations

import os
import pickle
from pathlib import Path

import pytest

from referee.rules import cachefiles, reading, shelf
from referee.ruling import scenarios
from test_cache import ANSWERS, disk  # noqa: F401 (disk: a fresh cache folder, a fixture)


@pytest.fixture(autouse=True)
def no_shelf_in_this_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """No shelf read, or waiting to be written, before the test."""
    monkeypatch.setattr(shelf, "_SHELVES", {})
    monkeypatch.setattr(shelf, "_PENDING", {})


@pytest.fixture
def shipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A scenarios folder standing in for the shipped one; returns one scenario file in it."""
    root = tmp_path / "scenarios"
    (root / "nmjl" / "wrong-end").mkdir(parents=True)
    path = root / "nmjl" / "wrong-end" / "case.yaml"
    path.write_text(ANSWERS, encoding="utf-8")
    monkeypatch.setattr(scenarios, "_scenarios_given", lambda: os.path.join(str(root), ""))
    monkeypatch.setattr(scenarios, "_scenarios_root", lambda: os.path.join(os.path.realpath(root), ""))
    return path


@pytest.fixture
def validated(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Files really validated (a hit validates none)."""
    seen: list[str] = []
    real = reading.validate
    monkeypatch.setattr(reading, "validate", lambda cls, doc: seen.append(doc.path) or real(cls, doc))
    return seen


def next_process() -> None:
    """Write what this process added, then forget every shelf it read, as a new process starts."""
    shelf.write_all()
    shelf._SHELVES.clear()


def entries(disk: Path) -> list[Path]:
    return sorted((disk / "shelves").glob("*.shelf")) if (disk / "shelves").is_dir() else []


def test_a_shipped_scenario_is_read_from_its_folders_shelf(disk: Path, shipped: Path, validated: list[str]) -> None:
    other = shipped.parent / "other.yaml"
    other.write_text(ANSWERS.replace("West", "North"), encoding="utf-8")
    first = scenarios.load_file(shipped)
    assert not entries(disk)  # written with the shelf, not a file at a time
    scenarios.load_file(other)
    next_process()
    (entry,) = entries(disk)  # one entry for the folder, both files on it
    assert not (disk / "files").exists()  # no entry a file
    again = scenarios.load_file(shipped)
    assert scenarios.load_file(other).data.seats == {"picker": "North"}
    assert again.data == first.data and again.ruleset == first.ruleset == "nmjl" and again.situation == "wrong-end"
    assert validated == [str(shipped), str(other)]  # once each, in the first process only


def test_a_changed_file_is_never_served_from_the_shelf(disk: Path, shipped: Path, validated: list[str]) -> None:
    scenarios.load_file(shipped)
    next_process()
    shipped.write_text(ANSWERS.replace("West", "South"), encoding="utf-8")
    assert scenarios.load_file(shipped).data.seats == {"picker": "South"}  # this process's copy
    next_process()
    assert scenarios.load_file(shipped).data.seats == {"picker": "South"}  # the shelf written after
    assert len(validated) == 2


def test_a_cached_file_still_names_the_line_of_a_problem(disk: Path, shipped: Path) -> None:
    from referee.errors import LoadError
    from referee.rules.loader import load_strict

    shipped.write_text(ANSWERS.replace("West", "Nowhere"), encoding="utf-8")
    messages = []
    for _ in range(2):  # validated and shelved, then from the shelf
        sc = scenarios.load_file(shipped)
        next_process()
        with pytest.raises(LoadError) as exc:
            scenarios.facts_of(load_strict("nmjl"), sc)
        messages.append(str(exc.value))
    assert messages[0] == messages[1] and messages[0].startswith(f"{shipped}:6:3: ")


def test_an_invalid_file_is_never_shelved(disk: Path, shipped: Path) -> None:
    from referee.errors import LoadError

    shipped.write_text("situation: wrong-end\nanswerz: {}\n", encoding="utf-8")
    for _ in range(2):
        with pytest.raises(LoadError, match="unknown key 'answerz'"):
            scenarios.load_file(shipped)
        next_process()
    assert not entries(disk)


def _rewrite(entry: Path, change) -> None:  # type: ignore[no-untyped-def]
    head, items = cachefiles.loads_plain(entry.read_bytes())
    entry.write_bytes(pickle.dumps((head, change(items)), protocol=pickle.HIGHEST_PROTOCOL))


def test_a_damaged_item_is_a_miss_not_read_out(disk: Path, shipped: Path, validated: list[str]) -> None:
    """A byte changed inside a kept text (the pickle still reads): its sum no longer holds."""
    scenarios.load_file(shipped)
    next_process()
    (entry,) = entries(disk)

    def reword(items):  # type: ignore[no-untyped-def]
        return {name: (raw, summed, packed.replace(b"West", b"East")) for name, (raw, summed, packed) in items.items()}

    _rewrite(entry, reword)
    assert scenarios.load_file(shipped).data.seats == {"picker": "West"}
    assert len(validated) == 2
    next_process()  # the item validated again is written back in place of the damaged one
    assert scenarios.load_file(shipped).data.seats == {"picker": "West"} and len(validated) == 2


@pytest.mark.parametrize("damage", [b"", b"garbage", b"\x80\x05garbage", "cut"])
def test_a_damaged_shelf_is_a_miss_and_removed(disk: Path, shipped: Path, validated: list[str], damage: object) -> None:
    scenarios.load_file(shipped)
    next_process()
    (entry,) = entries(disk)
    entry.write_bytes(entry.read_bytes()[:-40] if damage == "cut" else damage)  # type: ignore[arg-type]
    assert scenarios.load_file(shipped).data.seats == {"picker": "West"} and len(validated) == 2
    if damage:
        assert not entry.exists()  # not read again by every run until this one writes it
    next_process()
    assert entries(disk) == [entry]
    assert scenarios.load_file(shipped).data.seats == {"picker": "West"} and len(validated) == 2


def test_a_shelf_of_another_kind_is_not_read(disk: Path, shipped: Path, validated: list[str]) -> None:
    """Plain data only: an entry that names a class is damaged, never run."""
    scenarios.load_file(shipped)
    next_process()
    (entry,) = entries(disk)
    entry.write_bytes(pickle.dumps(({"stamp": shelf.stamp(), "key": "x"}, os.system), protocol=pickle.HIGHEST_PROTOCOL))
    assert scenarios.load_file(shipped).data.seats == {"picker": "West"} and len(validated) == 2


def test_a_shelf_of_other_code_or_another_folder_is_ignored(disk: Path, shipped: Path, validated: list[str],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    scenarios.load_file(shipped)
    next_process()
    (entry,) = entries(disk)
    head, items = cachefiles.loads_plain(entry.read_bytes())
    entry.write_bytes(pickle.dumps(({**head, "key": head["key"] + "x"}, items), protocol=pickle.HIGHEST_PROTOCOL))
    scenarios.load_file(shipped)
    assert len(validated) == 2
    next_process()
    monkeypatch.setattr("referee.rules.cache._stamp", "another referee version")
    scenarios.load_file(shipped)
    assert len(validated) == 3


@pytest.mark.parametrize("how", ["another owner", "group-writable"])
def test_a_shelf_another_user_could_have_written_is_not_read(disk: Path, shipped: Path, validated: list[str],
                                                             monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    scenarios.load_file(shipped)
    next_process()
    (entry,) = entries(disk)
    if how == "another owner":
        uid = os.getuid()
        monkeypatch.setattr(os, "getuid", lambda: uid + 1)
    else:
        entry.chmod(0o660)
    scenarios.load_file(shipped)
    assert len(validated) == 2


def test_no_cache_keeps_no_shelf(disk: Path, shipped: Path, validated: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFEREE_NO_CACHE", "1")
    for _ in range(2):
        scenarios.load_file(shipped)
        next_process()
    assert len(validated) == 2 and not disk.exists()


def test_a_cache_folder_gone_by_the_end_is_not_made_again(disk: Path, shipped: Path, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A test's temporary folder, removed: the shelf written at exit is dropped, the folder not made again."""
    import shutil

    gone = tmp_path / "gone"
    monkeypatch.setenv("REFEREE_CACHE_DIR", str(gone / "cache"))
    gone.mkdir()
    scenarios.load_file(shipped)
    shutil.rmtree(gone)
    shelf.write_all()
    assert not gone.exists() and not shelf._PENDING


def test_a_shelf_is_written_every_so_many_files(disk: Path, shipped: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shelf, "WRITE_EVERY", 3)
    for i in range(3):
        path = shipped.parent / f"case{i}.yaml"
        path.write_text(ANSWERS.replace("West", ("North", "South", "East")[i]), encoding="utf-8")
        scenarios.load_file(path)
        assert bool(entries(disk)) == (i == 2)
    assert not shelf._PENDING


def test_a_file_outside_the_shipped_scenarios_keeps_an_entry_of_its_own(disk: Path, shipped: Path, tmp_path: Path,
                                                                        validated: list[str]) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text(ANSWERS, encoding="utf-8")
    scenarios.load_file(path)
    next_process()
    scenarios.load_file(path)
    assert not entries(disk) and len(list((disk / "files").glob("*.answers"))) == 1 and len(validated) == 1
