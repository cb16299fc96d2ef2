"""The card file's JSON Schema (referee/schema/card.schema.json) agrees with `referee card check`:
the shipped cards validate, and the shapes card check refuses the schema refuses too."""
from __future__ import annotations

import json

import fastjsonschema
import pytest
import yaml

from referee.lint import schema
from referee.cards import notation
from referee.cards.store import locate

SCHEMA = json.loads((schema.SCHEMA_DIR / "card.schema.json").read_text(encoding="utf-8"))
# fastjsonschema reads drafts up to 07; the schema uses nothing newer than $defs, read as 07's definitions
_DRAFT7 = json.loads(json.dumps(SCHEMA).replace("#/$defs/", "#/definitions/"))
_DRAFT7["$schema"] = "http://json-schema.org/draft-07/schema#"
_DRAFT7["definitions"] = _DRAFT7.pop("$defs")
_validate = fastjsonschema.compile(_DRAFT7)


def _card(name: str) -> dict:
    return yaml.safe_load(locate(name).read_text(encoding="utf-8"))


def test_the_schema_names_the_keys_card_check_reads() -> None:
    assert set(SCHEMA["properties"]) == notation._CARD_KEYS
    assert set(SCHEMA["$defs"]["section"]["properties"]) == notation._SECTION_KEYS
    assert set(SCHEMA["$defs"]["line"]["properties"]) == notation._LINE_KEYS
    assert SCHEMA["$defs"]["line"]["properties"]["suits"]["anyOf"][0]["enum"] == [*notation.SUIT_MODES, *notation.SUIT_COUNTS]


@pytest.mark.parametrize("name", ["practice", "cards/template.yaml"])
def test_the_shipped_cards_validate(name) -> None:
    _validate(_card(name))


def _with(change) -> dict:
    doc = _card("practice")
    change(doc)
    return doc


def _line(doc) -> dict:
    return doc["sections"][0]["lines"][0]


# (what is wrong, how to make it wrong); card check refuses each of these too (see the test below)
BAD = [
    ("an unknown top-level key", lambda d: d.update(year=2033)),
    ("an id in capitals", lambda d: d.update(card="Practice")),
    ("no sections", lambda d: d.update(sections=[])),
    ("an unknown key in a line", lambda d: _line(d).update(colour="red")),
    ("a value that is not a whole number", lambda d: _line(d).update(value="twenty-five")),
    ("a suits mode that does not exist", lambda d: _line(d).update(suits="all")),
    ("a shift that is no step", lambda d: _line(d).update(shift="odd")),
    ("a domain that is not one", lambda d: _line(d).update(vars={"X": "prime"})),
    ("a line without groups", lambda d: _line(d).pop("groups")),
    ("a section without a name's lines", lambda d: d["sections"][0].pop("lines")),
]


@pytest.mark.parametrize("why,change", BAD, ids=[b[0] for b in BAD])
def test_what_card_check_refuses_the_schema_refuses(why, change, tmp_path, cli) -> None:
    doc = _with(change)
    with pytest.raises(fastjsonschema.JsonSchemaException):
        _validate(doc)
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    r = cli("card", "check", str(path))
    assert r.exit_code != 0, f"card check passed {why}"
