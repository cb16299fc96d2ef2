"""`show --format dot|mermaid` cannot be steered by what a ruleset says.

A question's wording, a `when:` key or a goto target could close a quoted label (a trailing
backslash escapes DOT's closing quote) and add nodes or edges of its own. Each output line must
be one of the few shapes tree_graph writes, with the label text coming back out unchanged.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli import app
from referee.rules.loader import load_strict
from referee.ruling.render import tree_graph

NASTY = [
    'ends in a backslash \\',
    'quote " then n9 -> n0 [label="x"];',
    "line\nbreak } digraph { x",
    "pipe | bracket ] brace } paren ) <b>bold</b> & #35; `tick`",
    "%%{init: {'theme': 'dark'}}%%",
]

HEADER = "id: inj\ntitle: Injection\nversion: '1'\nsources:\n  BOOK:\n    title: The book\n"


def yaml_text(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def write(root: Path, when: list[str], goto: str) -> Path:
    """Five questions in a row with hostile wording; `when` names the two branch keys each uses."""
    (root / "situations").mkdir(parents=True)
    (root / "ruleset.yaml").write_text(HEADER)
    lines = ["id: tiny", "title: Tiny", "phase: play", "summary: Small.", "facts:"]
    for i, ask in enumerate(NASTY):
        lines += [f"  q{i}:", "    type: choice", f"    ask: {yaml_text(ask)}", "    choices:"]
        lines += ["      small: Small", "      large: Large"]
    lines += ["start: n0", "nodes:"]
    for i in range(len(NASTY)):
        nxt = f"n{i + 1}" if i + 1 < len(NASTY) else "end"
        lines += [f"  n{i}:", f"    ask: q{i}", "    when:", f"      {yaml_text(when[0])}: {nxt}",
                  f"      {yaml_text(when[1])}: {{goto: {yaml_text(goto)}}}"]
    lines += ["  end:", "    ruling:", "      id: T-1", "      says: Done.", "      game: continues", "      cite: 'BOOK: p. 1'"]
    (root / "situations" / "tiny.yaml").write_text("\n".join(lines) + "\n")
    (root / "situations" / "other.yaml").write_text(
        "id: other\ntitle: Other\nphase: play\nsummary: Elsewhere.\nstart: r\nnodes:\n  r:\n    ruling:\n"
        "      id: T-2\n      says: Done.\n      game: ends\n      cite: 'BOOK: p. 2'\n")
    return root


DOT_STRING = r'"((?:[^"\\]|\\.)*)"'
DOT_LINES = [
    re.compile(rf"^  [ng]\d+ \[shape=(?:diamond|box|oval), label={DOT_STRING}\];$"),
    re.compile(rf"^  [ng]\d+ -> [ng]\d+ \[label={DOT_STRING}\];$"),
]
MERMAID_LINES = [
    re.compile(r'^  [ng]\d+(?:\{"|\["|\(\[")([^"]*)(?:"\}|"\]|"\]\))$'),
    re.compile(r"^  [ng]\d+ -->\|([^|]*)\| [ng]\d+$"),
]


def flat(s: str) -> str:
    return " ".join(s.split())


def dot_labels(text: str) -> list[str]:
    lines = text.splitlines()
    assert re.fullmatch(rf"digraph {DOT_STRING} {{", lines[0]) and lines[-1] == "}"
    labels = []
    for line in lines[1:-1]:
        match = next((p.match(line) for p in DOT_LINES if p.match(line)), None)
        assert match, f"unexpected DOT line: {line!r}"
        labels.append(re.sub(r"\\(.)", r"\1", match.group(1)))
    return labels


def mermaid_labels(text: str) -> list[str]:
    lines = text.splitlines()
    assert lines[0] == "flowchart TD"
    labels = []
    for line in lines[1:]:
        match = next((p.match(line) for p in MERMAID_LINES if p.match(line)), None)
        assert match, f"unexpected Mermaid line: {line!r}"
        label = match.group(1)
        assert not re.search(r'["<>|\[\]{}()`]', label), label
        labels.append(re.sub(r"#(\d+);", lambda m: chr(int(m.group(1))), label))
    return labels


def test_names_the_lint_refuses_are_still_escaped(tmp_path: Path) -> None:
    """Straight from the renderer, bypassing the lint: when: keys and goto targets are hostile too."""
    rs = load_strict(str(write(tmp_path / "raw", ['a"] ; x', 'b\\'], 'nowhere"\\')))
    dot = dot_labels(tree_graph(rs, "tiny", "dot"))
    mermaid = mermaid_labels(tree_graph(rs, "tiny", "mermaid"))
    for labels in (dot, mermaid):
        assert [flat(a) for a in NASTY] == labels[: len(NASTY)]
        assert 'a"] ; x' in labels and "b\\" in labels and 'goto nowhere"\\' in labels


@pytest.mark.parametrize("fmt", ["dot", "mermaid"])
def test_show_draws_a_clean_ruleset_with_hostile_wording(tmp_path: Path, fmt: str) -> None:
    root = write(tmp_path / "ok", ["small", "large"], "other")
    result = CliRunner().invoke(app, ["show", "tiny", "--ruleset", str(root), "--format", fmt])
    assert result.exit_code == 0, result.output
    labels = (dot_labels if fmt == "dot" else mermaid_labels)(result.stdout)
    assert [flat(a) for a in NASTY] == labels[: len(NASTY)]
    assert "goto other" in labels


@pytest.mark.parametrize("fmt", ["dot", "mermaid"])
def test_show_runs_the_lint_before_drawing(tmp_path: Path, fmt: str) -> None:
    root = write(tmp_path / "bad", ["small", "large"], "nowhere")
    result = CliRunner().invoke(app, ["show", "tiny", "--ruleset", str(root), "--format", fmt])
    assert result.exit_code == 1
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "goto names unknown situation 'nowhere'" in lines[0]
    assert lines[0].endswith("run 'referee check')")
