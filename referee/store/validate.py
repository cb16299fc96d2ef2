"""The check an imported ruling passes before it may enter the log (pydantic; import only).

The schema is the log's own record, `record.Ruling`: every field it has, with the types it
declares, read strictly (no "3" for 3, no list for a name). The JSON fields get the shapes the
log's readers rely on ('log list', 'log players', 'log show', replay), and the ids and times the
shapes the log writes, so a record from a stranger's file reads back like one made here.
Imported only by `transfer` when a file is read: `referee rule` never loads pydantic for it.
"""
from __future__ import annotations

import dataclasses
import functools
import math
import re
import typing
from datetime import datetime
from typing import Annotated, Any, Optional, Union

from typing_extensions import TypedDict  # pydantic reads only this one on Python 3.11
from pydantic import ConfigDict, Field, TypeAdapter, ValidationError, create_model

from .context import INDEXED
from .record import Ruling

MAX_TEXT = 1_000_000  # characters in one field; the longest real one (printed) is a few thousand
MAX_DEPTH = 24  # nesting of a JSON field; the deepest real one (outcome) is about six

Text = Annotated[str, Field(max_length=MAX_TEXT)]
Name = Annotated[str, Field(min_length=1, max_length=200)]
Time = Annotated[str, Field(pattern=r"^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d{1,6})?)?Z$")]
Scalar = Union[str, int, float, bool, None]
Answer = Union[Scalar, list[Scalar]]


# Closed shapes: a key the log never writes is refused, not carried along unseen.
Question = TypedDict("Question", {"question": Text, "fact": Name, "answer": Answer, "situation": Name})
Payment = TypedDict("Payment", {"from": Name, "to": Name, "amount": Optional[int], "formula": Optional[Text]})
Award = TypedDict("Award", {"to": Name, "points": Optional[int]})
for _shape in (Question, Payment, Award):
    _shape.__pydantic_config__ = ConfigDict(strict=True, extra="forbid")  # type: ignore[attr-defined]


# Field by field, the shapes that are narrower than the dataclass says (it types JSON as Any).
SHAPES: dict[str, Any] = {
    "id": Annotated[str, Field(pattern=r"^[0-9a-hjkmnp-tv-z]{26}$")],  # record.new_id's ULIDs
    "recorded_at": Time,
    "withdrawn_at": Optional[Time],
    "ruleset_id": Annotated[str, Field(pattern=r"^[a-z][a-z0-9-]{0,99}$")],  # model.SITUATION_ID
    "ruleset_hash": Annotated[str, Field(pattern=r"^[0-9a-f]{12,64}$")],
    "situation": Annotated[str, Field(pattern=r"^[a-z][a-z0-9-]{0,99}$")],
    "ruled_in": Annotated[str, Field(pattern=r"^[a-z][a-z0-9-]{0,99}$")],
    # indexed columns: PostgreSQL refuses an index entry past 2,704 bytes (SQLite takes any), so
    # these are bounded for both, in characters of up to 4 bytes (context.INDEXED says the same)
    "event": Optional[Annotated[str, Field(max_length=INDEXED["event"])]],
    "judge": Optional[Annotated[str, Field(max_length=INDEXED["judge"])]],
    "round": Optional[Annotated[str, Field(max_length=INDEXED["round"])]],
    "table": Optional[Annotated[str, Field(max_length=INDEXED["table"])]],
    "answers": dict[Name, Answer],
    "seats": dict[Name, Union[Name, list[Name], None]],
    "players": dict[Name, Text],
    "questions": list[Question],
    "dead": list[Name],
    "payments": list[Payment],
    "points": list[Award],
}


@functools.lru_cache(maxsize=1)
def _adapter() -> TypeAdapter[Any]:
    hints = typing.get_type_hints(Ruling)
    fields: dict[str, Any] = {}
    for f in dataclasses.fields(Ruling):
        kind = SHAPES.get(f.name, hints[f.name])
        if kind is str:
            kind = Text
        elif kind == Optional[str]:
            kind = Optional[Text]
        required = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        fields[f.name] = (kind, ... if required else None)
    model = create_model("ImportedRuling", __config__=ConfigDict(strict=True, extra="forbid"), **fields)
    return TypeAdapter(model)


# A number beyond this is no amount, score or count any table meets (a 4,000-digit amount made
# 'log players' print a 40 KB table); within it, every backend and spreadsheet holds it exactly.
MAX_NUMBER = 10**15
# Characters neither backend can store: PostgreSQL's text refuses NUL, and a lone surrogate is
# no character at all (neither driver can encode it). Refused on import, whichever log it is for,
# so a laptop's SQLite log can always be merged into the organization's PostgreSQL one.
UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def unstorable(text: str) -> str | None:
    """What in `text` no log can store, in words; None when all of it can be stored."""
    m = UNSTORABLE.search(text)
    if m is None:
        return None
    return "a NUL character" if m.group() == "\x00" else f"a lone surrogate (U+{ord(m.group()):04X})"


def _value_problem(item: Any) -> str | None:
    if isinstance(item, str):
        why = unstorable(item)
        return f"holds {why}, which a log cannot store" if why else None
    if isinstance(item, bool) or item is None:
        return None
    if isinstance(item, float) and not math.isfinite(item):
        return f"holds {item}, which is not a number strict JSON allows"
    if isinstance(item, (int, float)) and abs(item) > MAX_NUMBER:
        return f"holds a number beyond any table's reach ({str(int(item))[:12]}...)"
    return None


def depth(value: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether JSON-like data nests no deeper than `limit` (checked without recursion)."""
    return _walk(value, limit) is None


def _walk(value: Any, limit: int = MAX_DEPTH) -> str | None:
    """Why JSON-like data cannot be stored (nested too deep, a value no log keeps), or None;
    checked without recursion."""
    stack = [(value, 0)]
    while stack:
        item, level = stack.pop()
        if level > limit:
            return f"nests deeper than {limit} levels"
        if isinstance(item, dict):
            for k, v in item.items():
                why = _value_problem(k)
                if why:
                    return f"has a key that {why}"
                stack.append((v, level + 1))
        elif isinstance(item, list):
            stack.extend((v, level + 1) for v in item)
        else:
            why = _value_problem(item)
            if why:
                return why
    return None


def problem(data: dict[str, Any]) -> str | None:
    """Why `data` is not a ruling as the log writes one, in one line; None when it is."""
    for name, value in data.items():
        why = _walk(value)
        if why:
            return f"field '{name}' {why}"
    try:
        _adapter().validate_python(data)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        where = ".".join(str(part) for part in first["loc"]) or "record"
        if first["type"] == "string_pattern_mismatch":  # the regex itself would tell a judge nothing
            return f"field '{where}': {str(first['input'])[:40]!r} is not in the form the log writes"
        return f"field '{where}': {first['msg']}"
    return None
