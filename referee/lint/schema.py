"""JSON Schemas for editors, generated from the models (and committed, checked by a test)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..rules import model as m

# Beside the package, not in lint/: every YAML file's editor header points at referee/schema/.
SCHEMA_DIR = Path(__file__).resolve().parent.parent / "schema"
class _CardFile:
    """A card file is read by referee.cards.notation, not by a model: its schema is built there."""

    @staticmethod
    def model_json_schema(by_alias: bool = True) -> dict[str, Any]:
        from ..cards.cardschema import schema

        return schema()


KINDS: dict[str, Any] = {
    "situation": m.Situation,
    "ruleset": m.RulesetMeta,
    "facts": m.FactsFile,
    "patch": m.SituationPatch,
    "scenario": m.Answers,
    "card": _CardFile,
}


def generate(kind: str) -> dict[str, Any]:
    schema = KINDS[kind].model_json_schema(by_alias=True)
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = f"referee {kind} file"
    return schema


def text(kind: str) -> str:
    return json.dumps(generate(kind), indent=2, sort_keys=True) + "\n"


def write_all(folder: Path = SCHEMA_DIR) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for kind in KINDS:
        path = folder / f"{kind}.schema.json"
        path.write_text(text(kind), encoding="utf-8")
        written.append(path)
    return written
