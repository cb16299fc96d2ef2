"""The cache's quicker ways of reading (a booklet reads hundreds of entries and situations): each
says exactly what the plain way says, and refuses what the plain way refuses."""
from __future__ import annotations

import io
import os
import pickle
from pathlib import Path

import pytest

from referee.rules import cache, cachefiles, loader, records
from referee.ruling import scenarios

ROOT = Path(__file__).resolve().parent.parent


def test_the_cache_folder_follows_the_settings_of_the_moment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REFEREE_NO_CACHE", raising=False)
    monkeypatch.setenv("REFEREE_CACHE_DIR", str(tmp_path / "a"))
    assert cachefiles.folder() == tmp_path / "a"
    monkeypatch.setenv("REFEREE_CACHE_DIR", str(tmp_path / "b"))
    assert cachefiles.folder() == tmp_path / "b"
    monkeypatch.delenv("REFEREE_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cachefiles.folder() == tmp_path / "xdg" / "referee"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cachefiles.folder() == tmp_path / "home" / ".cache" / "referee"
    monkeypatch.setenv("REFEREE_NO_CACHE", "1")
    assert cachefiles.folder() is None


def test_an_entry_is_read_whole_and_only_when_it_is_a_plain_file_of_ours(tmp_path: Path) -> None:
    entry = tmp_path / "entry"
    blob = os.urandom(300_000)
    entry.write_bytes(blob)
    assert cachefiles.read_entry(entry) == blob and cachefiles.read_entry(str(entry)) == blob
    assert cachefiles.read_entry(entry, trusted=lambda st: False) is None
    (tmp_path / "link").symlink_to(entry)
    assert cachefiles.read_entry(tmp_path / "link") is None  # a link planted in the folder is not followed
    assert cachefiles.read_entry(tmp_path) is None and cachefiles.read_entry(tmp_path / "missing") is None
    entry.write_bytes(b"")
    assert cachefiles.read_entry(entry) == b""


def test_shipped_scenario_files_resolve_as_realpath_says() -> None:
    files = sorted((ROOT / "scenarios").rglob("*.yaml"))
    assert len(files) > 400
    for path in files:
        assert scenarios._realpath(path) == os.path.realpath(path), path
    for odd in (ROOT / "scenarios" / "nmjl" / ".." / "nmjl", ROOT / "scenarios" / "nmjl" / "no-such-situation" / "x.yaml",
                ROOT / "scenarios", Path("scenarios/nmjl"), Path("/")):
        assert scenarios._realpath(odd) == os.path.realpath(odd), odd


def test_a_link_below_the_scenarios_folder_is_followed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Which ruleset a file belongs to is read from its real folder: a situation folder that is a
    link into another ruleset's scenarios is that ruleset's."""
    given = tmp_path / "given"
    real = tmp_path / "real"
    (real / "nmjl" / "wrong-end").mkdir(parents=True)
    (real / "tournament").mkdir()
    (real / "nmjl" / "wrong-end" / "a.yaml").write_text("situation: wrong-end\n", encoding="utf-8")
    given.symlink_to(real)
    (real / "tournament" / "wrong-end").symlink_to(real / "nmjl" / "wrong-end")
    (real / "nmjl" / "wrong-end" / "b.yaml").symlink_to(real / "nmjl" / "wrong-end" / "a.yaml")
    monkeypatch.setattr(scenarios, "_scenarios_given", lambda: os.path.join(str(given), ""))
    monkeypatch.setattr(scenarios, "_scenarios_root", lambda: os.path.join(str(real), ""))
    for path in (given / "nmjl" / "wrong-end" / "a.yaml", given / "nmjl" / "wrong-end" / "b.yaml",
                 given / "tournament" / "wrong-end" / "a.yaml", given / "tournament" / "wrong-end" / "gone.yaml"):
        assert scenarios._realpath(path) == os.path.realpath(path), path
    data = records.Answers(ruleset=None)
    assert scenarios.ruleset_for(given / "tournament" / "wrong-end" / "a.yaml", data, "x") == "nmjl"
    assert scenarios.ruleset_for(given / "nmjl" / "wrong-end" / "a.yaml", data, "x") == "nmjl"


def test_models_from_the_cache_keep_the_fields_they_were_given(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Situations are packed for `cache._model` to rebuild: the same models, the same fields set
    (what model_dump(exclude_unset=True) and the lint read)."""
    monkeypatch.setenv("REFEREE_NO_CACHE", "1")
    parsed, problems = loader.load(ROOT / "rulesets" / "tournament")
    assert parsed is not None and not problems
    back = cache._unpack(cache._pack(parsed), tmp_path / "entry")
    for sid, sit in parsed.situations.items():
        got = back.situations[sid]
        assert type(got) is type(sit) and got == sit, sid
        assert got.model_dump(exclude_unset=True) == sit.model_dump(exclude_unset=True), sid
        for nid, node in sit.nodes.items():
            assert got.nodes[nid].model_fields_set == node.model_fields_set, (sid, nid)
    assert back.meta == parsed.meta and back.facts == parsed.facts and back.scoring == parsed.scoring


@pytest.mark.parametrize("cls", [records.Ruling, type(Path("."))], ids=["a record", "a path"])
def test_an_entry_may_rebuild_only_models_through_model(cls: type) -> None:
    """`_model` sets a model's slots; asked to make anything else of an entry, it refuses."""

    planted = object()

    class Planted(pickle.Pickler):
        def reducer_override(self, obj):  # type: ignore[no-untyped-def]
            if obj is planted:
                return cache._model, (cls, {"text": "x"}, ["text"])
            return NotImplemented

    out = io.BytesIO()
    Planted(out, pickle.HIGHEST_PROTOCOL).dump([planted])
    with pytest.raises(pickle.UnpicklingError, match="is not a model"):
        cache._loads(out.getvalue())
