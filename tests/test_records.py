"""The records a ruling reads from the cache say what the models say (issue 28: a cached ruling
builds no model class): every model a ruleset holds has its record, and what records build
themselves (a role's seat fact, a goto node's jump) is what the models build."""
from __future__ import annotations

from referee.rules import model as m
from referee.rules import records

FILE_ONLY = {"Strict", "SituationPatch", "Carrier", "CoverageFile", "FactsFile"}  # read, merged away, never cached


def test_every_model_a_ruleset_or_an_answers_file_holds_has_a_record() -> None:
    models = {name for name in dir(m) if isinstance(getattr(m, name), type) and issubclass(getattr(m, name), m.Strict)}
    assert set(records.KINDS) == models - FILE_ONLY
    for name, kind in records.KINDS.items():
        assert kind.__name__ == name and getattr(records, name) is kind  # found again by name when unpickled


def test_the_scoring_numbers_are_the_models_whole_numbers() -> None:
    assert records.SCORING_NUMBERS == tuple(n for n, f in m.Scoring.model_fields.items() if f.annotation is int)


def test_a_record_built_in_code_has_the_models_defaults() -> None:
    for kind, model in ((records.FactDef, m.FactDef), (records.Goto, m.Goto)):
        defaults = {n: f.get_default(call_default_factory=True) for n, f in model.model_fields.items() if not f.is_required()}
        assert kind._defaults.keys() == defaults.keys()
        built = kind(type="seat", ask="Who?") if kind is records.FactDef else kind(goto="x")
        assert {n: getattr(built, n) for n in defaults} == defaults


def test_a_role_and_a_goto_node_build_what_the_models_build() -> None:
    role = m.RoleDef(ask="Which seat picked?", seats=["East", "West"], may_also_be=["caller"])
    assert records.as_dict(records.of(role).as_fact()) == role.as_fact().model_dump()
    node = m.GotoNode(goto="dead-hand-rules", at="start", bind={"player": "picker"}, dead=["picker"], set={"a": "yes"})
    jump = records.of(node).target()
    assert isinstance(jump, records.GotoKind) and records.as_dict(jump) == node.target().model_dump()


def test_records_are_read_like_the_models_and_stay_frozen() -> None:
    question = m.QuestionNode.model_validate({"ask": "x", "yes": "a", "no": {"goto": "b"}, "when": None})
    rec = records.of(question)
    assert isinstance(question, records.QuestionNodeKind) and isinstance(rec, records.QuestionNodeKind)
    assert [(label, records.as_dict(t)) for label, t in rec.branches()] == [
        (label, t.model_dump() if isinstance(t, m.Goto) else t) for label, t in question.branches()]
    cite = m.Cite(source="NMJL", section="Dead hands")
    assert str(records.of(cite)) == str(cite) == "NMJL, Dead hands"
    assert records.of(cite) == records.of(cite) and hash(records.of(cite)) == hash(records.of(cite))
    try:
        rec.ask = "y"
    except AttributeError:
        pass
    else:
        raise AssertionError("a record took a new value")
    assert rec.ask == "x"
