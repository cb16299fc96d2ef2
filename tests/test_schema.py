"""The committed JSON Schemas match the models; editors autocomplete from them."""
from __future__ import annotations

import json

import pytest

from referee.lint import schema

KINDS = sorted(schema.KINDS)


@pytest.mark.parametrize("kind", KINDS)
def test_committed_schema_is_current(kind: str) -> None:
    path = schema.SCHEMA_DIR / f"{kind}.schema.json"
    assert path.is_file(), f"{path} is missing: run `referee schema --write` and commit referee/schema/"
    committed = path.read_text(encoding="utf-8")
    assert committed == schema.text(kind), (
        f"{path.name} is stale (the models in referee/rules/model.py changed): "
        "run `referee schema --write` and commit referee/schema/"
    )


def test_no_stray_schema_files() -> None:
    names = {p.name for p in schema.SCHEMA_DIR.glob("*.json")}
    assert names == {f"{kind}.schema.json" for kind in KINDS}


@pytest.mark.parametrize("kind", KINDS)
def test_schema_is_json_schema_with_descriptions(kind: str) -> None:
    doc = json.loads(schema.text(kind))
    assert doc["$schema"].startswith("https://json-schema.org/")
    assert doc["title"] == f"referee {kind} file"
    assert doc.get("additionalProperties") is False, "unknown keys must be refused by editors too"


def test_write_all_writes_what_text_generates(tmp_path) -> None:
    written = schema.write_all(tmp_path)
    assert sorted(p.name for p in written) == sorted(f"{k}.schema.json" for k in KINDS)
    for p in written:
        assert p.read_text(encoding="utf-8") == schema.text(p.name.removesuffix(".schema.json"))


def test_shipped_files_point_editors_at_the_schema() -> None:
    """Every shipped situation file names its schema on the first line, and that schema exists."""
    from referee.rules.loader import available

    for folder in available().values():
        for f in sorted((folder / "situations").glob("*.yaml")):
            first = f.read_text(encoding="utf-8").splitlines()[0]
            if first.startswith("# yaml-language-server: $schema="):
                target = (f.parent / first.split("=", 1)[1]).resolve()
                assert target.is_file(), f"{f}: {first} names a missing file"
