"""Things in a ruleset folder that are not plain YAML files get one line each, never a hang.

(Broken file *contents* live in the golden corpus, tests/broken/; these cases need a
folder, a symlink or a FIFO, which git cannot hold, so each test builds its own.)
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli import app
from referee.errors import LoadError
from referee.rules.loader import load
from referee.rules.yamlload import MAX_BYTES, parse, read

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(os.name != "posix", reason="symlinks and FIFOs as POSIX makes them")


def overlay(tmp_path: Path) -> Path:
    """A small valid overlay of nmjl, to put strange things into."""
    folder = tmp_path / "ours"
    (folder / "situations").mkdir(parents=True)
    (folder / "ruleset.yaml").write_text("id: ours\ntitle: Ours\nversion: '1'\nextends: nmjl\n", encoding="utf-8")
    return folder


def check(folder: Path) -> tuple[int, list[str]]:
    result = CliRunner().invoke(app, ["check", str(folder)])
    assert "Traceback" not in result.output
    return result.exit_code, [line for line in result.stdout.splitlines() if line.strip()]


def one_line(folder: Path, name: str, message: str) -> None:
    code, lines = check(folder)
    assert code == 1
    assert lines == [f"{folder / 'situations' / name}: {message}"]


def test_a_folder_named_like_a_yaml_file(tmp_path: Path) -> None:
    folder = overlay(tmp_path)
    (folder / "situations" / "x.yaml").mkdir()
    one_line(folder, "x.yaml", "is a folder, not a YAML file")


def test_a_dangling_symlink(tmp_path: Path) -> None:
    folder = overlay(tmp_path)
    (folder / "situations" / "gone.yaml").symlink_to(tmp_path / "nowhere.yaml")
    one_line(folder, "gone.yaml", "no such file (a symlink to nothing)")


def test_a_symlink_loop(tmp_path: Path) -> None:
    folder = overlay(tmp_path)
    (folder / "situations" / "loop.yaml").symlink_to(folder / "situations" / "loop.yaml")
    one_line(folder, "loop.yaml", "cannot read: a symlink loop")


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    folder = overlay(tmp_path)
    os.mkfifo(folder / "situations" / "pipe.yaml")
    one_line(folder, "pipe.yaml", "not a regular file (a device, FIFO or socket)")


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
def test_a_link_to_dev_zero_is_refused_without_reading_it(tmp_path: Path) -> None:
    folder = overlay(tmp_path)
    (folder / "situations" / "zero.yaml").symlink_to("/dev/zero")
    one_line(folder, "zero.yaml", "not a regular file (a device, FIFO or socket)")


def test_a_file_over_the_size_cap_is_refused(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    big.write_text("a: " + "x" * MAX_BYTES + "\n", encoding="utf-8")
    with pytest.raises(LoadError, match="file too large"):
        read(big)


def test_a_situations_folder_that_is_a_symlink_loop_is_an_error(tmp_path: Path) -> None:
    folder = tmp_path / "ours"
    folder.mkdir()
    (folder / "ruleset.yaml").write_text("id: ours\ntitle: Ours\nversion: '1'\nextends: nmjl\n", encoding="utf-8")
    (folder / "situations").symlink_to(folder / "situations")
    code, lines = check(folder)
    assert code == 1
    assert lines == [f"{folder / 'situations'}: situations folder is a symlink loop"]


def test_a_situations_file_instead_of_a_folder_is_an_error(tmp_path: Path) -> None:
    folder = tmp_path / "ours"
    folder.mkdir()
    (folder / "ruleset.yaml").write_text("id: ours\ntitle: Ours\nversion: '1'\nextends: nmjl\n", encoding="utf-8")
    (folder / "situations").write_text("not a folder\n", encoding="utf-8")
    _, problems = load(folder)
    assert [p.message for p in problems] == ["'situations' is a file; it must be a folder of situation files"]


def test_a_facts_file_that_is_a_dangling_symlink_is_not_silently_skipped(tmp_path: Path) -> None:
    folder = overlay(tmp_path)
    (folder / "facts.yaml").symlink_to(tmp_path / "nowhere.yaml")
    _, problems = load(folder)
    assert [str(p) for p in problems] == [f"{folder / 'facts.yaml'}: no such file (a symlink to nothing)"]


def test_a_deep_nest_longer_than_libyaml_can_recurse_is_refused(tmp_path: Path) -> None:
    """100,000 levels crash libyaml's recursive composer (a segfault), so depth is checked first."""
    deep = tmp_path / "deep.yaml"
    deep.write_text("a: " + "[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8")
    with pytest.raises(LoadError) as exc:
        read(deep)
    assert str(exc.value) == f"{deep}:1:53: nested more than 50 levels deep"


def test_good_files_beside_bad_ones_still_load(tmp_path: Path) -> None:
    folder = overlay(tmp_path)
    shutil.copy(ROOT / "rulesets" / "nmjl" / "situations" / "wrong-end.yaml", folder / "situations")
    (folder / "situations" / "x.yaml").mkdir()
    rs, problems = load(folder)
    assert rs is not None and "wrong-end" in rs.situations
    assert len(problems) == 1


@pytest.mark.parametrize("levels", [60, 1_500, 30_000])
def test_depth_is_refused_in_our_words_whatever_the_parser_allows(levels: int) -> None:
    """libyaml 0.2.6 refuses about 1,000 levels itself, reading ahead of the events counted;
    short texts (no pre-scan) and long ones both get our message at the 51st level."""
    text = "a: " + "[" * levels + "]" * levels + "\n"
    with pytest.raises(LoadError) as exc:
        parse(text, "deep.yaml")
    assert str(exc.value) == "deep.yaml:1:53: nested more than 50 levels deep"


def test_a_syntax_error_in_a_long_text_keeps_its_own_place() -> None:
    text = "a: " + "x" * 20_000 + "\nb: [1, 2\nc: 3\n"
    with pytest.raises(LoadError) as exc:
        parse(text, "bad.yaml")
    assert str(exc.value).startswith("bad.yaml:3:") and "invalid YAML" in str(exc.value)


@pytest.mark.parametrize("raw,where,says", [
    (b"id: x\ntitle: \xff\xfe bad\n", "2:8", "not UTF-8 text (byte 13: 0xff)"),
    (b"id: x\nsummary: caf\xc3", "2:13", "not UTF-8 text"),
    (b"id: x\ntitle: a\x01b\n", "2:9", "control character (U+0001)"),
    (b"id: x\ntitle: ok\n  # \x1b[2J clear\n", "3:5", "control character (U+001B)"),
    (b"\x7fid: x\n", "1:1", "control character (U+007F)"),
])
def test_bytes_yaml_cannot_read_are_placed_at_line_and_column(tmp_path: Path, raw: bytes, where: str, says: str) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_bytes(raw)
    with pytest.raises(LoadError) as exc:
        read(bad)
    message = str(exc.value)
    assert message.startswith(f"{bad}:{where}: ") and says in message
    assert "\x1b" not in message and "\x01" not in message
