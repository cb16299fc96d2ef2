"""The on-disk cache of validated rulesets: used only when every file is unchanged, never trusted otherwise."""
from __future__ import annotations

import pickle
import shutil
from pathlib import Path

import pytest

from referee.rules import cache, loader
from referee.lint.checks import lint

ROOT = Path(__file__).resolve().parent.parent
BROKEN = ROOT / "tests" / "broken" / "rulesets"


@pytest.fixture
def disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh cache folder, and no rulesets remembered in this process."""
    where = tmp_path / "cache"
    monkeypatch.setenv("REFEREE_CACHE_DIR", str(where))
    monkeypatch.delenv("REFEREE_NO_CACHE", raising=False)
    monkeypatch.setattr(cache, "_MEMORY", {})
    return where


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Folders the loader really parsed (a cache hit parses none)."""
    seen: list[Path] = []
    real = loader._load

    def spy(folder: Path, _seen: tuple[Path, ...]):  # type: ignore[no-untyped-def]
        seen.append(folder)
        return real(folder, _seen)

    monkeypatch.setattr(loader, "_load", spy)
    return seen


def copy_ruleset(tmp_path: Path, name: str = "nmjl") -> Path:
    return Path(shutil.copytree(ROOT / "rulesets" / name, tmp_path / "rulesets" / name))


def forget_process() -> None:
    cache._MEMORY.clear()


def same(a: loader.Ruleset, b: loader.Ruleset) -> None:
    assert a.digest == b.digest and a.hash == b.hash and a.chain == b.chain
    assert dict(a.situations) == dict(b.situations)
    assert a.facts == b.facts and a.sources == b.sources and a.scoring == b.scoring
    for name in ("fact_origin", "situation_origin", "node_origin", "field_origin"):
        assert {k: (o.path, o.loc) for k, o in getattr(a, name).items()} == {
            k: (o.path, o.loc) for k, o in getattr(b, name).items()
        }


def test_a_second_process_reads_the_ruleset_from_the_cache(disk: Path, parses: list[Path], tmp_path: Path) -> None:
    folder = copy_ruleset(tmp_path)
    cold, problems = loader.load(folder)
    assert cold is not None and not problems and parses == [folder]
    assert len(list(disk.glob("*.ruleset"))) == 1
    forget_process()
    warm, problems = loader.load(folder)
    assert warm is not None and not problems
    assert parses == [folder]  # not parsed again
    assert isinstance(warm.situations, loader.Lazy)
    same(cold, warm)


@pytest.mark.parametrize("plain", [False, True], ids=["models", "records"])
def test_an_edited_file_is_seen_at_once(disk: Path, parses: list[Path], tmp_path: Path, plain: bool) -> None:
    """A ruling's records go stale with the files as the models do: never a stale ruling."""
    folder = copy_ruleset(tmp_path)
    loader.load(folder)
    forget_process()
    assert loader.load(folder, plain=plain)[0] is not None  # this process holds the entry's copy too
    path = folder / "situations" / "wrong-end.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("Picked from the wrong end", "Drew from the back"), encoding="utf-8")
    for forget in (False, True):  # this process's copy and the disk entry are both stale
        if forget:
            forget_process()
        rs, _ = loader.load(folder, plain=plain)
        assert rs is not None and rs.situations["wrong-end"].title.startswith("Drew from the back")
    assert parses == [folder, folder]


def test_a_ruling_reads_records_that_say_what_the_models_say(disk: Path, parses: list[Path], tmp_path: Path) -> None:
    """`plain`: the same ruleset from the same entry, as records (no model class named), field for field."""
    from referee.rules import records

    base = copy_ruleset(tmp_path)
    folder = copy_ruleset(tmp_path, "amja")
    cold, _ = loader.load(folder)
    forget_process()
    warm, problems = loader.load(folder, plain=True)
    assert cold is not None and warm is not None and not problems and parses == [folder, base]
    assert warm.digest == cold.digest and warm.chain == cold.chain and warm.links == cold.links
    assert isinstance(warm.meta, records.RulesetMeta) and isinstance(warm.scoring, records.Scoring)
    for sid, sit in cold.situations.items():
        assert isinstance(warm.situations[sid], records.Situation)
        assert records.as_dict(warm.situations[sid]) == sit.model_dump(), sid
    for part in ("meta", "scoring"):
        assert records.as_dict(getattr(warm, part)) == getattr(cold, part).model_dump()
    for part in ("sources", "facts"):
        assert {k: records.as_dict(v) for k, v in getattr(warm, part).items()} == {
            k: v.model_dump() for k, v in getattr(cold, part).items()}
    for name in records.SCORING_NUMBERS + ("pie", "unit", "nothing"):
        assert warm.scoring.number(name) == cold.scoring.number(name), name


def test_an_added_or_removed_situation_file_is_seen(disk: Path, tmp_path: Path) -> None:
    folder = copy_ruleset(tmp_path)
    before, _ = loader.load(folder)
    assert before is not None
    (folder / "situations" / "wrong-end.yaml").unlink()
    forget_process()
    after, _ = loader.load(folder)
    assert after is not None and "wrong-end" not in after.situations and after.digest != before.digest


def test_an_overlay_sees_a_change_in_its_base(disk: Path, parses: list[Path], tmp_path: Path) -> None:
    base = copy_ruleset(tmp_path)
    top = copy_ruleset(tmp_path, "amja")
    loader.load(top)
    path = base / "situations" / "wrong-end.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("Picked from the wrong end", "Drew from the back"), encoding="utf-8")
    forget_process()
    parses.clear()
    rs, _ = loader.load(top)
    assert rs is not None and rs.situations["wrong-end"].title.startswith("Drew from the back")
    assert parses == [top, base]


def test_overlays_share_one_copy_of_their_base_in_a_process(disk: Path, parses: list[Path]) -> None:
    for name in ("amja", "card-game", "house-example"):
        loader.load(name)
    assert [p.name for p in parses].count("nmjl") == 1


@pytest.mark.parametrize("damage", [b"", b"not a pickle", pickle.dumps(({"stamp": "x"}, b"")), pickle.dumps(["a", "list"])])
def test_a_corrupt_or_foreign_entry_is_rebuilt(disk: Path, parses: list[Path], tmp_path: Path, damage: bytes) -> None:
    folder = copy_ruleset(tmp_path)
    cold, _ = loader.load(folder)
    (entry,) = disk.glob("*.ruleset")
    entry.write_bytes(damage)
    forget_process()
    warm, problems = loader.load(folder)
    assert warm is not None and not problems and parses == [folder, folder]
    same(cold, warm)
    assert entry.read_bytes() != damage  # rewritten, so the next run is fast again


class _Planted:
    """What a planted entry would smuggle in: unpickling it would run a command."""

    def __reduce__(self):  # type: ignore[no-untyped-def]
        import os

        return (os.system, ("echo planted > planted.txt",))


def _planted_entry(entry: Path, where: str, plain: bool = False) -> None:
    """Keep the entry's header (stamp, digest: all checks pass) and plant code in its body (the
    models, or the records a ruling reads), with the body's sum recomputed as a planter would."""
    head, *bodies = pickle.loads(entry.read_bytes())
    part, sum_key = (1, "records_sum") if plain else (0, "sum")
    if where == "ruleset":
        body = pickle.dumps(_Planted())
    else:
        state = pickle.loads(bodies[part])
        state["situations"]["wrong-end"] = pickle.dumps(_Planted())
        body = pickle.dumps(state)
    bodies[part] = body
    entry.write_bytes(pickle.dumps(({**head, sum_key: cache._sum(body)}, *bodies)))


@pytest.mark.parametrize("plain", [False, True], ids=["models", "records"])
def test_a_planted_entry_runs_no_code_and_is_only_a_miss(disk: Path, parses: list[Path], tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch, plain: bool) -> None:
    """The cache reads back only the model's own classes, their records and paths: never a function."""
    monkeypatch.chdir(tmp_path)
    folder = copy_ruleset(tmp_path)
    cold, _ = loader.load(folder)
    (entry,) = disk.glob("*.ruleset")
    _planted_entry(entry, "ruleset", plain)
    forget_process()
    warm, problems = loader.load(folder, plain=plain)
    assert warm is not None and not problems and parses == [folder, folder]
    assert not (tmp_path / "planted.txt").exists()
    same(cold, warm)


def _warm_with_planted_situation(disk: Path, tmp_path: Path, plain: bool = False) -> tuple[Path, Path, loader.Ruleset]:
    folder = copy_ruleset(tmp_path)
    loader.load(folder)
    (entry,) = disk.glob("*.ruleset")
    _planted_entry(entry, "situation", plain)
    forget_process()
    warm, _ = loader.load(folder, plain=plain)
    assert warm is not None
    return folder, entry, warm


@pytest.mark.parametrize("plain", [False, True], ids=["models", "records"])
def test_a_planted_situation_is_one_line_and_the_entry_is_removed(disk: Path, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch, plain: bool) -> None:
    """Situations unpack on first use, after the entry was accepted: a bad one is a clear error
    (never code run, never a traceback), and the next run loads afresh."""
    from referee.errors import RefereeError

    monkeypatch.chdir(tmp_path)
    folder, entry, warm = _warm_with_planted_situation(disk, tmp_path, plain)
    assert warm is not None and isinstance(warm.situations, loader.Lazy)
    assert warm.situations["wrong-wall"] is not None  # the others still unpack
    with pytest.raises(RefereeError, match="damaged ruleset cache entry"):
        warm.situations["wrong-end"]
    assert not entry.exists() and not (tmp_path / "planted.txt").exists()
    forget_process()
    again, problems = loader.load(folder, plain=plain)
    assert again is not None and not problems and again.situations["wrong-end"].id == "wrong-end"


def test_a_planted_situation_that_cannot_be_removed_says_how_to_get_past_it(disk: Path, tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """An entry in a folder the user may not change: the line names the entry, not the system's refusal."""
    from referee.errors import RefereeError

    _, _, warm = _warm_with_planted_situation(disk, tmp_path)

    def refused(self: Path, missing_ok: bool = False) -> None:
        raise PermissionError(1, "Operation not permitted", str(self))

    monkeypatch.setattr(Path, "unlink", refused)
    with pytest.raises(RefereeError, match="damaged ruleset cache entry that cannot be removed; delete it, or set REFEREE_NO_CACHE=1"):
        warm.situations["wrong-end"]


def _reword(entry: Path, old: bytes, new: bytes, times: int = 1) -> None:
    """A damaged disk: bytes inside a pickled text change, and the pickle still reads cleanly."""
    blob = entry.read_bytes()
    assert blob.count(old) == times and len(old) == len(new)
    entry.write_bytes(blob.replace(old, new))


@pytest.mark.parametrize("plain", [False, True], ids=["models", "records"])
def test_a_ruling_text_damaged_on_disk_is_a_miss_not_read_out(disk: Path, parses: list[Path], tmp_path: Path,
                                                              plain: bool) -> None:
    from referee.rules.records import as_dict

    folder = copy_ruleset(tmp_path)
    cold, _ = loader.load(folder)
    said = cold.situations["blind-pass-peek"].nodes["no_penalty"]
    (entry,) = disk.glob("*.ruleset")
    _reword(entry, b"their hand is not dead", b"their hand is now dead", times=2)  # as models and as records
    forget_process()
    warm, problems = loader.load(folder, plain=plain)
    assert warm is not None and not problems and parses == [folder, folder]
    assert as_dict(warm.situations["blind-pass-peek"].nodes["no_penalty"]) == said.model_dump()


def test_an_answers_entry_damaged_on_disk_is_a_miss(disk: Path, tmp_path: Path) -> None:
    from referee.ruling.scenarios import load_file

    path = tmp_path / "case.yaml"
    path.write_text(ANSWERS, encoding="utf-8")
    load_file(path)
    (entry,) = (disk / "files").glob("*.answers")
    _reword(entry, b"West", b"East")
    assert load_file(path).data.seats == {"picker": "West"}


def test_an_entry_written_by_other_code_is_ignored(disk: Path, parses: list[Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = copy_ruleset(tmp_path)
    loader.load(folder)
    forget_process()
    monkeypatch.setattr(cache, "_stamp", "another referee version")
    loader.load(folder)
    assert parses == [folder, folder]


def test_a_ruleset_with_problems_is_never_cached(disk: Path, tmp_path: Path) -> None:
    folder = copy_ruleset(tmp_path)
    (folder / "situations" / "wrong-end.yaml").write_text("id: wrong-end\n", encoding="utf-8")
    rs, problems = loader.load(folder)
    assert problems
    assert not disk.exists() or not list(disk.glob("*.ruleset"))
    assert cache.fetch(folder) is None


def test_writes_are_atomic_and_leave_no_temporary_files(disk: Path, tmp_path: Path) -> None:
    loader.load(copy_ruleset(tmp_path))
    assert sorted(p.suffix for p in disk.iterdir()) == [".ruleset"]


def test_no_cache_writes_nothing(disk: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFEREE_NO_CACHE", "1")
    rs, _ = loader.load(copy_ruleset(tmp_path))
    assert rs is not None and not disk.exists()


def test_an_unwritable_cache_folder_only_skips_the_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    monkeypatch.setenv("REFEREE_CACHE_DIR", str(blocker / "cache"))
    monkeypatch.setattr(cache, "_MEMORY", {})
    rs, problems = loader.load(copy_ruleset(tmp_path))
    assert rs is not None and not problems


def test_lint_names_the_same_places_from_a_cached_ruleset(disk: Path) -> None:
    """Origins from the cache re-read their file for line and column; the lint cannot tell."""
    folder = BROKEN / "dangling-target"
    cold, problems = loader.load(folder)
    assert cold is not None and not problems
    want = [str(p) for p in lint(cold)]
    assert want and any(":" in w for w in want)
    forget_process()
    warm = cache.fetch(folder.resolve())
    assert warm is not None
    assert [str(p) for p in lint(warm)] == want


def test_the_cache_lives_in_the_users_cache_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("REFEREE_CACHE_DIR", raising=False)
    monkeypatch.delenv("REFEREE_NO_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache.folder() == tmp_path / "xdg" / "referee"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache.folder() == tmp_path / "home" / ".cache" / "referee"


ANSWERS = """\
situation: wrong-end
answers:
  several_wrong_end: "no"
  wrong_end_discard_mj: "no"
seats:
  picker: West
"""


def test_an_answers_file_is_validated_once_per_content(disk: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from referee.ruling import scenarios

    path = tmp_path / "case.yaml"
    path.write_text(ANSWERS, encoding="utf-8")
    validated: list[str] = []
    from referee.rules import reading

    real = reading.validate
    monkeypatch.setattr(reading, "validate", lambda cls, doc: validated.append(doc.path) or real(cls, doc))
    first = scenarios.load_file(path)
    second = scenarios.load_file(path)
    assert second.data == first.data and len(validated) == 1
    path.write_text(ANSWERS.replace("West", "North"), encoding="utf-8")
    third = scenarios.load_file(path)
    assert third.data.seats == {"picker": "North"} and len(validated) == 2


def test_a_cached_answers_file_still_names_the_line_of_a_bad_answer(disk: Path, tmp_path: Path) -> None:
    from referee.errors import LoadError
    from referee.ruling.scenarios import facts_of, load_file

    path = tmp_path / "case.yaml"
    path.write_text(ANSWERS.replace("West", "Nowhere"), encoding="utf-8")
    messages = []
    for _ in range(2):  # validated and cached, then from the cache
        sc = load_file(path)
        with pytest.raises(LoadError) as exc:
            facts_of(loader.load_strict("nmjl"), sc)
        messages.append(str(exc.value))
    assert messages[0] == messages[1] and messages[0].startswith(f"{path}:6:3: ")


def test_an_invalid_answers_file_is_never_cached(disk: Path, tmp_path: Path) -> None:
    from referee.errors import LoadError
    from referee.ruling.scenarios import load_file

    path = tmp_path / "case.yaml"
    path.write_text("situation: wrong-end\nanswerz: {}\n", encoding="utf-8")
    for _ in range(2):
        with pytest.raises(LoadError, match="unknown key 'answerz'"):
            load_file(path)
    assert cache.fetch_file(path, path.read_bytes()) is None


def test_a_ruling_from_the_cache_builds_only_the_situations_it_walks(disk: Path, tmp_path: Path) -> None:
    """A ruling unpickles two or three situations, not the ruleset's sixty (the walk's step bound
    once counted every node, which built them all)."""
    from referee.ruling.engine import advance

    folder = copy_ruleset(tmp_path)
    loader.load(folder)
    forget_process()
    warm, _ = loader.load(folder)
    assert warm is not None and isinstance(warm.situations, loader.Lazy)
    step = advance(warm, "wrong-end", {"several_wrong_end": "no", "wrong_end_discard_mj": "no", "picker": "West"})
    assert getattr(step, "ruling", None) is not None, step
    assert set(warm.situations._built) <= {"wrong-end", "dead-hand-rules"}, sorted(warm.situations._built)
    assert len(warm.situations) > 50


def _returns_soon(call) -> None:  # type: ignore[no-untyped-def]
    import threading

    done = threading.Event()
    threading.Thread(target=lambda: (call(), done.set()), daemon=True).start()
    assert done.wait(10), "blocked reading the cache"


@pytest.mark.parametrize("kind", ["ruleset", "answers"])
def test_a_fifo_in_place_of_an_entry_is_a_miss_not_a_hang(disk: Path, tmp_path: Path, kind: str) -> None:
    import os

    from referee.ruling.scenarios import load_file

    folder = copy_ruleset(tmp_path)
    path = tmp_path / "case.yaml"
    path.write_text(ANSWERS, encoding="utf-8")
    loader.load(folder)
    load_file(path)
    (entry,) = disk.glob("*.ruleset") if kind == "ruleset" else (disk / "files").glob("*.answers")
    entry.unlink()
    os.mkfifo(entry)
    forget_process()
    try:
        _returns_soon(lambda: loader.load(folder) if kind == "ruleset" else load_file(path))
    finally:  # opening the other end lets a reader still waiting go
        if entry.is_fifo():
            os.close(os.open(entry, os.O_RDWR))


def test_the_cache_folders_are_made_for_this_user_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every folder the cache makes is 0700, the root and its parents included, not only the
    last one (mkdir's mode reaches only that)."""
    import stat as st

    root = tmp_path / "a" / "b" / "cache"
    monkeypatch.setenv("REFEREE_CACHE_DIR", str(root))
    monkeypatch.delenv("REFEREE_NO_CACHE", raising=False)
    monkeypatch.setattr(cache, "_MEMORY", {})
    loader.load(copy_ruleset(tmp_path))
    cache.store_file(tmp_path / "x.yaml", b"situation: x\n", {"any": "model"})
    for folder in (tmp_path / "a", tmp_path / "a" / "b", root, root / "files"):
        assert st.S_IMODE(folder.stat().st_mode) == 0o700, folder


@pytest.mark.parametrize("how", ["another owner", "group-writable"])
def test_an_entry_another_user_could_have_written_is_not_read(disk: Path, parses: list[Path], tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    """The allow-list keeps code out; ownership keeps out data of the wrong shape planted by someone else."""
    import os

    folder = copy_ruleset(tmp_path)
    loader.load(folder)
    (entry,) = disk.glob("*.ruleset")
    if how == "another owner":
        uid = os.getuid()
        monkeypatch.setattr(os, "getuid", lambda: uid + 1)
    else:
        entry.chmod(0o660)
    forget_process()
    warm, problems = loader.load(folder)
    assert warm is not None and not problems
    assert parses == [folder, folder]  # read from the files again, not from the entry


# issue 19 item 11


def test_a_folder_in_place_of_an_entry_is_a_miss_that_names_the_path(disk: Path, parses: list[Path], tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    folder = copy_ruleset(tmp_path)
    loader.load(folder)
    [entry] = disk.glob("*.ruleset")
    entry.unlink()
    entry.mkdir()
    for _ in range(2):
        forget_process()
        rs, _ = loader.load(folder)  # no 'Is a directory': read afresh
        assert rs.id
    assert len(parses) == 3 and entry.is_dir()
    said = capsys.readouterr().err
    assert str(entry) in said and said.count("\n") == 1  # once per process, naming what is in the way


def test_an_entry_copied_from_another_folder_is_not_used_for_it(disk: Path, parses: list[Path], tmp_path: Path) -> None:
    first = copy_ruleset(tmp_path)
    second = Path(shutil.copytree(first, tmp_path / "elsewhere" / "nmjl"))
    (second / "ruleset.yaml").write_text((second / "ruleset.yaml").read_text().replace("title:", "title: Other", 1))
    loader.load(first)
    [entry] = disk.glob("*.ruleset")
    planted = cache._entry_path(disk, second.resolve())
    planted.write_bytes(entry.read_bytes())
    forget_process()
    rs, _ = loader.load(second)
    assert rs.folder == second.resolve() and rs.meta.title.startswith("Other")
    assert parses[-1] == second.resolve()


def test_old_entries_are_evicted(disk: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cache, "MAX_RULESETS", 3)
    base = copy_ruleset(tmp_path)
    copies = [Path(shutil.copytree(base, tmp_path / f"replay-{i}" / base.name)) for i in range(6)]
    for folder in copies:
        loader.load(folder)
    kept = sorted(disk.glob("*.ruleset"))
    assert len(kept) == 3
    assert cache._entry_path(disk, copies[-1].resolve()) in kept  # the newest stay


def test_the_answers_cache_keeps_every_shipped_scenario_and_scans_its_folder_rarely(
        disk: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A booklet reads every scenario: kept too few, each write evicted another and scanned the
    # whole folder, so the cache was a cost (quadratic) instead of a saving.
    shipped = len(list((Path(__file__).resolve().parent.parent / "scenarios").rglob("*.yaml")))
    assert cache.MAX_FILES >= 2 * shipped
    scans: list[str] = []
    plain = cache._evict
    monkeypatch.setattr(cache, "_evict", lambda where, pattern, keep: (scans.append(pattern), plain(where, pattern, keep)))
    monkeypatch.setattr(cache, "_FILE_WRITES", [0])
    for i in range(200):
        cache.store_file(tmp_path / f"s{i}.yaml", f"answers: {i}".encode(), {"n": i})
    assert len(scans) <= 200 // cache.EVICT_EVERY + 1
    assert len(list((disk / "files").glob("*.answers"))) == 200


def test_another_installation_never_evicts_this_ones_rulings(disk: Path, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 28: two checkouts (or an installed referee beside one) share ~/.cache/referee. However
    many rulesets the other one reads, this one's entry stays, and its next ruling is a hit."""
    monkeypatch.setattr(cache, "MAX_RULESETS", 3)
    ours = copy_ruleset(tmp_path).resolve()
    loader.load(ours)
    entry = cache._entry_path(disk, ours)
    assert entry.is_file() and entry.name.startswith(cache.installation() + "-")
    mine = cache.installation()
    monkeypatch.setattr(cache, "_install", "0ther0ne")  # another checkout, elsewhere on the machine
    base = copy_ruleset(tmp_path / "other")
    for i in range(6):
        loader.load(Path(shutil.copytree(base, tmp_path / "other" / f"copy-{i}" / base.name)))
    theirs = [p for p in disk.glob("*.ruleset") if p.name.startswith("0ther0ne-")]
    assert len(theirs) == 3  # it evicts its own least used entries, and only those
    monkeypatch.setattr(cache, "_install", mine)
    assert entry.is_file()
    forget_process()
    assert cache.fetch(ours) is not None


def test_two_versions_ruling_from_one_folder_keep_an_entry_each(disk: Path, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Another version of referee (another stamp) on the same ruleset folder writes an entry of its
    own: the two do not overwrite each other's on every ruling."""
    folder = copy_ruleset(tmp_path).resolve()
    loader.load(folder)
    ours = cache._entry_path(disk, folder)
    real = cache.stamp()
    monkeypatch.setattr(cache, "_stamp", "another version")
    forget_process()
    loader.load(folder)
    assert cache._entry_path(disk, folder) != ours and cache._entry_path(disk, folder).is_file()
    monkeypatch.setattr(cache, "_stamp", real)
    forget_process()
    assert cache.fetch(folder) is not None


def test_an_unused_entry_of_another_installation_goes_after_a_month(disk: Path, tmp_path: Path) -> None:
    """A checkout since deleted leaves entries nobody reads: unused for STALE_DAYS, they go."""
    import os
    import time

    loader.load(copy_ruleset(tmp_path).resolve())
    gone = disk / "5ea1ed00-000000000000000000000000.ruleset"
    recent = disk / "5ea1ed11-000000000000000000000000.ruleset"
    for path, days in ((gone, cache.STALE_DAYS + 1), (recent, cache.STALE_DAYS - 1)):
        path.write_bytes(b"an entry of a checkout elsewhere")
        then = time.time() - days * 86400
        os.utime(path, (then, then))
    forget_process()
    loader.load(copy_ruleset(tmp_path / "second").resolve())  # any write scans the folder
    assert not gone.exists() and recent.exists()


def test_one_listing_hashes_a_base_once_for_all_its_overlays(disk: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`same_files`: within one listing each folder's files are hashed once; outside it, every load
    hashes every file again (an edit between two loads is always seen)."""
    base = copy_ruleset(tmp_path)
    overlays = [copy_ruleset(tmp_path, name) for name in ("amja", "card-game", "house-example")]
    for folder in overlays:
        loader.load(folder)
    hashed: list[Path] = []
    real = cache.content_digest
    monkeypatch.setattr(cache, "content_digest", lambda here, seen: hashed.append(here) or real(here, seen))
    forget_process()
    with cache.same_files():
        for folder in overlays:
            assert loader.load(folder, plain=True)[0] is not None
    assert hashed.count(base) == 1 and len(hashed) == 1 + len(overlays)
    hashed.clear()
    for folder in overlays:
        loader.load(folder, plain=True)
    assert hashed.count(base) == len(overlays)


PACKED_DIGEST = """
import hashlib, pickle
from referee.rules.loader import load
rs, _ = load("nmjl")
h = hashlib.sha256()
for sid in sorted(rs.situations):
    h.update(pickle.dumps(rs.situations[sid], pickle.HIGHEST_PROTOCOL))
print(h.hexdigest())
"""


def test_a_situation_packs_to_the_same_bytes_in_every_process(tmp_path: Path) -> None:
    """Packed bytes are how an overlay's cache entry and its base's are told alike (the handouts
    share their pages, the cache its situations): two runs must pack one situation alike, whatever
    order their string hashing gives a set. With the model's given-fields set pickled as it
    was, the overlay cached in one run and its base in another shared nothing."""
    import os
    import subprocess
    import sys

    def packed(seed: str) -> str:
        env = {**os.environ, "PYTHONHASHSEED": seed, "REFEREE_NO_CACHE": "1"}
        run = subprocess.run([sys.executable, "-c", PACKED_DIGEST], capture_output=True, text=True, env=env, cwd=ROOT)
        assert run.returncode == 0, run.stderr
        return run.stdout.strip()

    assert len({packed(seed) for seed in ("1", "2", "3")}) == 1
