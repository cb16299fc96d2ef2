"""No input may crash, hang or change a file: shipped rulesets, answers files and flag values, mutated.

Each example copies a little shipped content to a temporary folder, breaks it (a key deleted,
a value of the wrong type, two node targets swapped, garbage typed into the text) and runs the
commands a judge or an author would. Whatever happens must be an exit code of 0, 1 or 2, never
a traceback; a usage error is one line; the shipped files stay byte for byte as they were.
"""
from __future__ import annotations

import hashlib
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from referee.cli import app

ROOT = Path(__file__).resolve().parent.parent
NMJL = ROOT / "rulesets" / "nmjl"
SITUATIONS = sorted(p.name for p in (NMJL / "situations").glob("*.yaml"))
SCENARIOS = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "scenarios" / "nmjl").rglob("*.yaml"))
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # the C parser when built: the mutating is not under test
DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
FUZZ = settings(max_examples=25, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# Printable text of every script; control characters and line separators are left to the
# output layer's sanitising, which is tested where text leaves the program.
TEXT = st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), max_size=30)
ODD = st.sampled_from(["²", "³", "٣", "9" * 4400, "-1", "0", "33", "1e3", "[bold]x[/]", "{picker}", "", " ", "yes", "East"])
VALUE = st.one_of(ODD, TEXT)
WRONG_TYPE = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.lists(st.integers(), max_size=2),
                       st.dictionaries(st.sampled_from(["a", "ask", "yes"]), st.integers(), max_size=2), VALUE)


def digest(folder: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(folder.rglob("*")):
        if p.is_file():
            h.update(str(p.relative_to(folder)).encode() + b"\0" + p.read_bytes())
    return h.hexdigest()


SHIPPED = {name: digest(ROOT / name) for name in ("rulesets", "scenarios")}


def paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key path in a YAML document."""
    out = [prefix] if prefix else []
    if isinstance(data, dict):
        for k, v in data.items():
            out += paths(v, prefix + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out += paths(v, prefix + (i,))
    return out


def at(data: Any, path: tuple[Any, ...]) -> Any:
    for k in path:
        data = data[k]
    return data


@st.composite
def mutated(draw: st.DrawFn, text: str) -> str:
    """The YAML text with one mutation applied."""
    kind = draw(st.sampled_from(["delete", "retype", "swap", "garbage", "truncate"]))
    if kind == "garbage":
        cut = draw(st.integers(0, len(text)))
        return text[:cut] + draw(st.sampled_from([": x", "\t", "- [", "{", "&a *a", "!!python/name:os.system x", "\n  - 1", "\""])) + text[cut:]
    if kind == "truncate":
        return text[: draw(st.integers(0, len(text)))]
    data = yaml.load(text, Loader=LOADER)
    every = paths(data)
    if not every:
        return text
    path = draw(st.sampled_from(every))
    if kind == "delete":
        del at(data, path[:-1])[path[-1]]
    elif kind == "retype":
        at(data, path[:-1])[path[-1]] = draw(WRONG_TYPE)
    else:  # swap two string values, e.g. two nodes' targets
        strings = [p for p in every if isinstance(at(data, p), str)]
        a, b = draw(st.sampled_from(strings)), draw(st.sampled_from(strings))
        va, vb = at(data, a), at(data, b)
        at(data, a[:-1])[a[-1]], at(data, b[:-1])[b[-1]] = vb, va
    return dump(data)


def dump(data: Any) -> str:
    return yaml.dump(data, Dumper=DUMPER, sort_keys=False, allow_unicode=True)


def invoke(*args: str) -> Any:
    result = CliRunner().invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), (args, repr(result.exception))
    assert "Traceback" not in result.output, args
    assert result.exit_code in (0, 1, 2), (args, result.exit_code, result.output)
    if result.exit_code == 2:
        assert len(result.stderr.splitlines()) == 1, (args, result.stderr)
    return result


@FUZZ
@given(data=st.data(), names=st.lists(st.sampled_from(SITUATIONS), min_size=1, max_size=2, unique=True),
       which=st.sampled_from(["situation", "facts", "ruleset"]))
def test_mutated_rulesets(data: st.DataObject, names: list[str], which: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "nmjl-copy"
        (folder / "situations").mkdir(parents=True)
        for name in ("ruleset.yaml", "facts.yaml"):
            shutil.copy(NMJL / name, folder / name)
        for name in names:
            shutil.copy(NMJL / "situations" / name, folder / "situations" / name)
        target = {"situation": folder / "situations" / names[0], "facts": folder / "facts.yaml",
                  "ruleset": folder / "ruleset.yaml"}[which]
        target.write_text(data.draw(mutated(target.read_text(encoding="utf-8"))), encoding="utf-8")
        sid = Path(names[0]).stem
        invoke("check", str(folder))
        invoke("show", sid, "--ruleset", str(folder), "--format", data.draw(st.sampled_from(["text", "dot", "mermaid"])))
        invoke("rule", sid, "--ruleset", str(folder), "--no-input")
    assert digest(ROOT / "rulesets") == SHIPPED["rulesets"]


@FUZZ
@given(data=st.data(), scenario=st.sampled_from(SCENARIOS))
def test_mutated_answers_files(data: st.DataObject, scenario: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        f = Path(tmp) / "answers.yaml"
        text = (ROOT / scenario).read_text(encoding="utf-8")
        if data.draw(st.booleans()):
            text = data.draw(mutated(text))
        else:  # a plausible file with one odd answer
            doc = yaml.load(text, Loader=LOADER)
            section = data.draw(st.sampled_from(["answers", "seats", "players"]))
            entries = doc.setdefault(section, {}) or {}
            key = data.draw(st.sampled_from(sorted(entries) or ["hand_value"]))
            doc[section] = {**entries, key: data.draw(VALUE)}
            text = dump(doc)
        f.write_text(text, encoding="utf-8")
        invoke("rule", "--answers", str(f), "--no-input")
        invoke("check", str(f))
    assert digest(ROOT / "scenarios") == SHIPPED["scenarios"]


@FUZZ
@given(data=st.data(), command=st.sampled_from(["pay", "rule", "show", "list", "search"]))
def test_odd_flag_values(data: st.DataObject, command: str) -> None:
    v = lambda: data.draw(VALUE)  # noqa: E731
    args: list[str] = {
        "pay": ["pay", f"--winner={v()}", f"--how={data.draw(st.sampled_from(['discard', 'self-pick', v()]))}",
                f"--discarder={v()}", f"--value={v()}", f"--player={v()}={v()}", f"--dead={v()}"],
        "rule": ["rule", data.draw(st.sampled_from(["wrong-end", "misnamed-discard"])), f"--answer=several_wrong_end={v()}",
                 f"--answer=misnamed_claimed_for={v()}", f"--seat=picker={v()}",
                 f"--answer=hand_value={v()}", f"--player={v()}", "--no-input"],
        "show": ["show", data.draw(st.sampled_from(["wrong-end", v()])), f"--format={v()}", f"--ruleset={v()}"],
        "list": ["list", f"--phase={v()}"],
        "search": ["search", f"--ruleset={data.draw(st.sampled_from(['nmjl', v()]))}", "--", v() or "x"],
    }[command]
    invoke(*args)


_WARM: dict[str, Any] = {}
CACHED = "scenarios/nmjl/blind-pass-peek/peeked-first-left.yaml"


def warm_cache() -> dict[str, Any]:
    """One warm cache folder's entries, and what `rule` and `handout` print from it, made once."""
    if not _WARM:
        with tempfile.TemporaryDirectory() as tmp:
            ruling, sheet = cached_run(Path(tmp))
            _WARM.update(ruling=ruling, sheet=sheet,
                         entries={str(p.relative_to(tmp)): p.read_bytes() for p in Path(tmp).rglob("*") if p.is_file()})
    return _WARM


def cached_run(where: Path) -> tuple[str, str]:
    import os

    from referee.rules import cache, loader, shelf
    from referee.handouts import pages

    def forget() -> None:  # read what is on disk, as a new process would
        cache._MEMORY.clear()
        loader._CACHE.clear()
        pages._env.cache_clear()
        shelf._SHELVES.clear()

    forget()
    before = os.environ.get("REFEREE_CACHE_DIR")
    os.environ["REFEREE_CACHE_DIR"] = str(where)
    try:
        ruling = invoke("rule", "--answers", str(ROOT / CACHED), "--no-input", "--no-log")
        sheet = invoke("handout", "--format", "md", "--sheet", "quick")
        shelf.write_all()  # as the process would at its end
    finally:
        if before is None:
            del os.environ["REFEREE_CACHE_DIR"]
        else:
            os.environ["REFEREE_CACHE_DIR"] = before
        forget()
    return ruling.output, sheet.output


@pytest.mark.slow  # each example rebuilds the cache twice: `python -m pytest -m slow` (CI) runs it
@FUZZ
@given(data=st.data(), kind=st.sampled_from([".ruleset", ".shelf", ".compiled"]))
def test_damaged_cache_entries(data: st.DataObject, kind: str) -> None:
    """A damaged disk under the cache (bytes flipped, cut short, garbage): the same ruling and the
    same handout, as from no cache at all."""
    warm = warm_cache()
    name = next(n for n in warm["entries"] if n.endswith(kind))
    blob = bytearray(warm["entries"][name])
    how = data.draw(st.sampled_from(["letter", "flip", "truncate", "garbage"]))
    if how == "letter":  # inside a word the ruling prints: the pickle still reads, the words have changed
        said = (warm["ruling"] + warm["sheet"]).encode()
        words = [i for i in range(4, len(blob) - 4) if 97 <= blob[i] <= 122 and bytes(blob[i - 4:i + 4]) in said]
        i = data.draw(st.sampled_from(words))
        blob[i] = 97 + (blob[i] - 97 + data.draw(st.integers(1, 25))) % 26
    elif how == "flip":
        for i in data.draw(st.lists(st.integers(0, len(blob) - 1), min_size=1, max_size=4)):
            blob[i] ^= data.draw(st.integers(1, 255))
    elif how == "truncate":
        del blob[data.draw(st.integers(0, len(blob) - 1)):]
    else:
        blob = bytearray(data.draw(st.binary(max_size=200)))
    with tempfile.TemporaryDirectory() as tmp:
        for n, content in warm["entries"].items():
            (Path(tmp) / n).parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            (Path(tmp) / n).write_bytes(bytes(blob) if n == name else content)
            (Path(tmp) / n).chmod(0o600)
        assert cached_run(Path(tmp)) == (warm["ruling"], warm["sheet"])
