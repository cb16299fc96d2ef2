"""Compiled templates in the cache folder are Python code: a damaged entry, or one that anybody
but this user could have written, is compiled afresh and never run."""
from __future__ import annotations

import hashlib
import io
import marshal
import os
import pickle
from pathlib import Path

import pytest
from jinja2.bccache import bc_magic

from referee.handouts import pages
from referee.rules.loader import load_strict


@pytest.fixture
def sheet(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    rs = load_strict("nmjl")

    def render(cache_dir: Path | None) -> str:
        pages._env.cache_clear()  # the environment, and so its cache folder, is made once per process
        if cache_dir is None:
            monkeypatch.setenv("REFEREE_NO_CACHE", "1")
        else:
            monkeypatch.delenv("REFEREE_NO_CACHE", raising=False)
            monkeypatch.setenv("REFEREE_CACHE_DIR", str(cache_dir))
        try:
            return pages.quick_sheet(rs, "html")
        finally:
            pages._env.cache_clear()

    return render


def test_compiled_templates_are_kept_and_a_bad_cache_only_costs_a_compile(sheet, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Templates compile once into the user's cache folder; a damaged entry or an unwritable
    folder changes nothing in what is printed."""
    plain = sheet(None)
    kept = tmp_path / "cache"
    assert sheet(kept) == plain  # compiled and stored
    assert sheet(kept) == plain  # read back
    for entry in entries(kept):
        entry.write_bytes(b"\x00garbage" * 10)
    assert sheet(kept) == plain  # damaged: compiled afresh
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    assert sheet(blocked) == plain  # no folder to keep them in: compiled each time


def plant(entry: Path, marker: Path, resum: bool) -> None:
    """Keep what jinja2 itself checks (its magic, the template's checksum) and put in code that
    leaves `marker` behind; with `resum`, the entry's own sum is recomputed as a planter would."""
    blob = entry.read_bytes()
    start = blob.index(bc_magic)
    f = io.BytesIO(blob[start + len(bc_magic):])
    checksum = pickle.load(f)
    code = compile(f"open({str(marker)!r}, 'w').write('ran')", "<planted>", "exec")
    body = bc_magic + pickle.dumps(checksum, 2) + marshal.dumps(code)
    head = blob[:start]
    if head and resum:
        head = hashlib.sha256(body).digest()
    entry.write_bytes(head + body)


def entries(kept: Path) -> list[Path]:
    found = [p for p in (kept / "templates").iterdir() if not p.name.startswith(".")]
    assert found
    return found


def test_a_damaged_compiled_template_is_compiled_afresh(sheet, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    kept, marker = tmp_path / "cache", tmp_path / "ran.txt"
    plain = sheet(kept)
    for entry in entries(kept):
        plant(entry, marker, resum=False)
    assert sheet(kept) == plain
    assert not marker.exists()
    assert sheet(kept) == plain  # and rewritten whole


@pytest.mark.parametrize("writable", ["entry", "folder"])
def test_a_compiled_template_others_could_write_is_never_run(sheet, tmp_path: Path, writable: str) -> None:  # type: ignore[no-untyped-def]
    kept, marker = tmp_path / "cache", tmp_path / "ran.txt"
    plain = sheet(kept)
    for entry in entries(kept):
        plant(entry, marker, resum=True)
        if writable == "entry":
            entry.chmod(0o666)
    if writable == "folder":
        (kept / "templates").chmod(0o777)
    assert sheet(kept) == plain
    assert not marker.exists()


@pytest.mark.skipif(os.getuid() != 0, reason="only root can give a file to another user")
def test_a_compiled_template_another_user_owns_is_never_run(sheet, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    kept, marker = tmp_path / "cache", tmp_path / "ran.txt"
    plain = sheet(kept)
    for entry in entries(kept):
        plant(entry, marker, resum=True)
        os.chown(entry, 65534, 65534)
    assert sheet(kept) == plain
    assert not marker.exists()


def test_an_entry_this_user_wrote_is_read_back(sheet, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The other side of the checks above: the cache is really used (here, what a planter who
    is this very user wrote runs, as any file they can edit would)."""
    kept, marker = tmp_path / "cache", tmp_path / "ran.txt"
    sheet(kept)
    for entry in entries(kept):
        plant(entry, marker, resum=True)
    with pytest.raises(Exception):
        sheet(kept)
    assert marker.exists()


def test_where_owners_cannot_be_told_apart_templates_are_compiled_each_time(sheet, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    kept = tmp_path / "cache"
    plain = sheet(kept)
    monkeypatch.delattr(os, "getuid")
    assert sheet(kept) == plain
