"""The card store: a card kept between runs as plain data, read back fast and safely."""
from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from referee.errors import RefereeError
from referee.rules.cachefiles import loads_plain
from referee.cards import store
from referee.cards.index import CardIndex


@pytest.fixture
def cache_dir(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("REFEREE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("REFEREE_NO_CACHE", raising=False)
    store._MEMORY.clear()
    yield tmp_path / "cache"
    store._MEMORY.clear()


def _entry() -> Path:
    entry = store._entry(str(store.locate("practice").resolve()))
    assert entry is not None
    return entry


def _fingerprint(idx: CardIndex) -> tuple:
    return ([(tg.number, tg.line.id, tg.groups, tg.blocks, tg.binding, tg.L, tg.U, sorted(tg.big.items()))
             for tg in idx.targets],
            idx.has, idx.exposable, sorted(idx.by_group.items()), sorted(idx.by_line.items()),
            [(ln.id, ln.section, ln.value, ln.concealed, ln.groups, ln.tokens, ln.note, ln.display) for ln in idx.card.lines])


def test_a_card_read_back_from_the_cache_is_the_card_expanded_afresh(cache_dir) -> None:
    fresh = store.load("practice")
    assert _entry().is_file()
    store._MEMORY.clear()
    cached = store.load("practice")
    assert cached is not fresh
    assert _fingerprint(cached) == _fingerprint(fresh)


def test_the_entry_holds_plain_data_only(cache_dir) -> None:
    store.load("practice")
    head, packed = loads_plain(_entry().read_bytes())  # refuses any class: raises if one is named
    card, (line_of, groups, blocks, *_), rest = loads_plain(packed)
    assert card[0] == "practice" and len(line_of) == len(store.load("practice").L)
    for each in (groups, blocks):  # a target's groups and blocks are pickled apart: plain data as well
        column = store._Pickled(*each, _entry())
        assert len(column) == len(line_of) and all(isinstance(column[i], tuple) for i in range(len(column)))


class _Planted:
    def __reduce__(self):  # what a planted entry would do: call something while it is read
        return (os.system, ("echo planted > planted.txt",))


def test_a_planted_entry_runs_no_code_and_is_only_a_miss(cache_dir, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    store.load("practice")
    head, _ = loads_plain(_entry().read_bytes())
    body = pickle.dumps(_Planted())
    head = {**head, "sum": store._sum(body)}
    _entry().write_bytes(pickle.dumps((head, body)))
    store._MEMORY.clear()
    idx = store.load("practice")
    assert not (tmp_path / "planted.txt").exists()
    assert len(idx.card.lines) == 70
    loads_plain(_entry().read_bytes())  # rewritten as a good entry


def _plant_in_every_target(tmp_path: Path) -> None:
    """An entry whose sum holds but whose targets' groups each name a class: the entry's top
    level reads as plain data, so only making a target finds it."""
    head, packed = loads_plain(_entry().read_bytes())
    card, (line_of, groups, *rest_columns), rest = loads_plain(packed)
    planted = store._Pickled.packed([_Planted()] * len(line_of))
    body = pickle.dumps((card, (line_of, planted, *rest_columns), rest))
    _entry().write_bytes(pickle.dumps(({**head, "sum": store._sum(body)}, body)))


def test_a_target_planted_in_the_entry_runs_no_code_and_says_so_in_one_line(cache_dir, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    store.load("practice")
    _plant_in_every_target(tmp_path)
    store._MEMORY.clear()
    idx = store.load("practice")  # the top level is plain: the load itself cannot tell
    with pytest.raises(RefereeError, match="cache entry .* held something other than plain data and was removed"):
        idx.target(0)
    assert not (tmp_path / "planted.txt").exists()
    assert not _entry().exists()  # removed, so the next run rebuilds it
    store._MEMORY.clear()
    assert len(store.load("practice").targets) == len(idx.L)
    loads_plain(_entry().read_bytes())


def test_a_planted_target_is_one_line_at_the_command_line(cache_dir, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    store.load("practice")
    _plant_in_every_target(tmp_path)
    # the card by its path: the command may import an installed copy, whose "practice" is another file
    hand = ["hand", "verify", "FF 2033B 33J3C 3JJ3D", "-x", "33J3C", "--card", str(store.locate("practice").resolve())]
    run = subprocess.run([sys.executable, "-m", "referee", *hand], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "REFEREE_CACHE_DIR": str(cache_dir)})
    assert run.returncode != 0 and "Traceback" not in run.stderr
    assert [line for line in run.stderr.splitlines() if line.strip()] == [
        line for line in run.stderr.splitlines() if "held something other than plain data" in line]
    assert not (tmp_path / "planted.txt").exists()
    again = subprocess.run([sys.executable, "-m", "referee", *hand], capture_output=True, text=True, timeout=120,
                           env={**os.environ, "REFEREE_CACHE_DIR": str(cache_dir)})
    assert again.returncode == 0, again.stderr


def test_a_damaged_entry_is_a_miss(cache_dir) -> None:
    store.load("practice")
    blob = bytearray(_entry().read_bytes())
    blob[len(blob) // 2] ^= 0xFF
    _entry().write_bytes(bytes(blob))
    store._MEMORY.clear()
    assert len(store.load("practice").card.lines) == 70


def test_a_cached_card_loads_without_the_ruleset_model_or_the_expander(tmp_path) -> None:
    """`referee hand verify` with a card already in the cache needs neither: keeping them out is
    most of what makes a warm load cheap."""
    code = """
import json, sys
from referee.cards import store
store.load("practice")
print(json.dumps(sorted(m for m in sys.modules if m.startswith("referee"))))
"""
    env = {**os.environ, "REFEREE_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("REFEREE_NO_CACHE", None)
    first = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert first.returncode == 0, first.stderr
    assert "referee.cards.expand" in json.loads(first.stdout.splitlines()[-1])  # the first load expands it
    again = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert again.returncode == 0, again.stderr
    loaded = set(json.loads(again.stdout.splitlines()[-1]))
    assert not loaded & {"referee.rules.model", "referee.rules.loader", "referee.rules.cache", "referee.cards.expand", "referee.rules.yamlload"}
