"""The JSON Schema of a card file, built from what `notation` reads (its suit modes, number
domains and variable letters), so the schema an editor checks against and `referee card check`
do not drift apart. Written to referee/schema/card.schema.json by `referee schema --write`, like the others.

The schema catches the shape (unknown keys, a value that is not a number, a suits mode that does
not exist); only `card check` reads the groups notation itself and expands each line. The keys
here are notation's own (tests/test_card_schema.py holds them to it).
"""
from __future__ import annotations

from typing import Any

from .notation import DOMAINS, PICKS, SUIT_COUNTS, SUIT_MODES, TILE_LETTERS

_VAR_NAME = "^[" + "".join(c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if c not in TILE_LETTERS) + "]$"

_LINE: dict[str, Any] = {
    "type": "object",
    "description": "One line of the card, as printed.",
    "additionalProperties": False,
    "required": ["id", "groups", "value"],
    "properties": {
        "id": {"type": ["string", "integer"], "description": "Unique and short (Y1, E3); used in messages and answers."},
        "groups": {"description": "The line as printed, in the card notation: 'FF 2033a 3333b 3333c' (see cards/template.yaml); "
                                  "a line printed with -or- lists its forms, or writes || between them.",
                   "anyOf": [{"type": "string", "minLength": 1},
                             {"type": "array", "minItems": 1, "items": {"type": "string", "minLength": 1}}]},
        "value": {"type": "integer", "minimum": 1, "description": "The card value, within the card's values."},
        "concealed": {"type": "boolean", "description": "true for a C line (nothing exposed before Mah Jongg); default false (X)."},
        "note": {"type": "string", "description": "The card's note as printed, shown with the line. Notes a card prints are "
                                                  "settings: 'Any 3 Consec. Nos.', 'Any Like Nos.', 'Like Kongs 3, 6 or 9', "
                                                  "'These Nos. Only', 'Any 1 or 3 Suits', 'Any 3 Dragons'."},
        "display": {"type": "string", "description": "The printed look with decorations ('1111 + 4444 = 5555 FF')."},
        "shift": {"description": "Moves every printed digit by the same step, for 'any consecutive numbers' lines.",
                  "anyOf": [{"enum": ["any", "even"]},
                            {"type": "array", "minItems": 1, "items": {"type": "integer", "minimum": -8, "maximum": 8}}]},
        "vars": {"type": "object", "description": "Number variables of the groups: X -> its numbers.",
                 "propertyNames": {"pattern": _VAR_NAME},
                 "additionalProperties": {"anyOf": [
                     {"enum": [*sorted(DOMAINS), "run"]},
                     {"type": "array", "minItems": 1, "items": {"type": "integer", "minimum": 1, "maximum": 9}},
                     {"type": "string", "pattern": r"^[A-Z]\s*[+-]\s*[1-8]$"}]}},
        "constraints": {"type": "array", "description": "same-parity X Y, X < Y, X != Y or X == Y.",
                        "items": {"type": "string",
                                  "pattern": r"^\s*(same-parity\s+[A-Z]\s+[A-Z]|[A-Z]\s*(<|!=|==)\s*[A-Z])\s*$"}},
        "suits": {"description": "How the suit letters a b c are bound (default: distinct), or how many suits as printed "
                           "('1 or 3' for 'Any 1 or 3 Suits').",
                  "anyOf": [{"enum": [*SUIT_MODES, *SUIT_COUNTS]}, {"enum": [1, 2, 3]},
                            {"type": "array", "minItems": 1, "items": {"enum": [1, 2, 3]}}]},
        "dragons": {"enum": list(PICKS), "description": "Bare D groups: any dragon each, the same one twice included "
                                                        "(any), or each a different one (different; 'Any 3 Dragons')."},
        "winds": {"enum": list(PICKS), "description": "Bare Z groups: any wind each (any), or each a different one (different)."},
        "distinct_vars": {"type": "boolean", "description": "Variables take different values (default true)."},
    },
}

_SECTION: dict[str, Any] = {
    "type": "object",
    "description": "A family of lines (2033, Any Like Numbers ...).",
    "additionalProperties": False,
    "required": ["name", "lines"],
    "properties": {
        "name": {"type": "string", "description": "The family's name as printed."},
        "jokerless_bonus": {"type": "boolean", "description": "A jokerless hand of this family is paid double (default true; false for Singles and Pairs)."},
        "lines": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/line"}},
    },
}


def schema() -> dict[str, Any]:
    """The card file's JSON Schema (without $schema and title: `referee.lint.schema` adds them)."""
    doc = {
        "type": "object",
        "description": "A year's card for `referee hand verify|dead` and the rulings answered with tiles.",
        "additionalProperties": False,
        "required": ["card", "sections"],
        "properties": {
            "card": {"type": "string", "pattern": "^[a-z0-9][a-z0-9-]*$", "description": "The card's id: lower-case letters, digits and '-'."},
            "title": {"type": "string", "description": "The card's name as shown."},
            "values": {"type": "object", "additionalProperties": False, "required": ["min", "max"],
                       "description": "The lowest and highest line values on the card.",
                       "properties": {"min": {"type": "integer"}, "max": {"type": "integer"}}},
            "sections": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/section"}},
        },
        "$defs": {"section": _SECTION, "line": _LINE},
    }
    return doc
