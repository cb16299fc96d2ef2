"""Graph walks stay linear: a chain of 1,200 questions must check, show and rule alike.

Each question's yes and no both lead to the next one, so the number of paths doubles with
every question; a walk that follows paths instead of nodes never finishes.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.lint.checks import question_depths
from referee.cli import app
from referee.rules.loader import load_strict
from referee.ruling.render import tree_graph

N = 1200
HEADER = "id: chain\ntitle: Long chain\nversion: '1'\nsources:\n  BOOK:\n    title: The book\n"


def ruling(rid: str) -> list[str]:
    return ["    ruling:", f"      id: {rid}", "      says: Done.", "      game: continues", "      cite: 'BOOK: p. 1'"]


def write_chain(root: Path, n: int, leafy: bool = False) -> Path:
    """Questions q0..q(n-1) in a row; with `leafy`, each 'yes' ends at its own ruling instead."""
    (root / "situations").mkdir(parents=True)
    (root / "ruleset.yaml").write_text(HEADER)
    lines = ["id: long", "title: A long chain", "phase: play", "summary: Many questions.", "facts:"]
    for i in range(n):
        lines += [f"  q{i}:", "    type: yesno", f"    ask: Question {i}?"]
    lines += ["start: n0", "nodes:"]
    for i in range(n):
        nxt = f"n{i + 1}" if i + 1 < n else "end"
        lines += [f"  n{i}:", f"    ask: q{i}", f"    yes: {f'leaf{i}' if leafy else nxt}", f"    no: {nxt}"]
        if leafy:
            lines += [f"  leaf{i}:", *ruling(f"L-Y{i}")]
    lines += ["  end:", *ruling("L-END")]
    (root / "situations" / "long.yaml").write_text("\n".join(lines) + "\n")
    return root


@pytest.fixture(scope="module")
def chain(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_chain(tmp_path_factory.mktemp("chain") / "chain", N)


def test_check_reports_the_depth_once(chain: Path) -> None:
    result = CliRunner().invoke(app, ["check", str(chain)])
    assert result.exit_code == 1, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == 1
    assert lines[0].endswith(f"ruling L-END takes {N} questions from the start of 'long' (at most 7)")


def test_show_prints_every_question(chain: Path) -> None:
    result = CliRunner().invoke(app, ["show", "long", "--ruleset", str(chain)])
    assert result.exit_code == 0, result.output
    words = " ".join(result.stdout.split())  # deep lines wrap at the terminal's width
    assert f"? Question {N - 1}? q{N - 1}= [node n{N - 1}]" in words
    assert "L-END · play continues ·" in words
    # a graph is only drawn from a tree the lint passes, and this one asks too many questions
    dot = CliRunner().invoke(app, ["show", "long", "--ruleset", str(chain), "--format", "dot"])
    assert dot.exit_code == 1
    assert dot.stderr.splitlines() == [f"referee: {lint_line(chain)}"]
    assert tree_graph(load_strict(str(chain)), "long", "dot").count(" -> ") == 2 * N


def lint_line(chain: Path) -> str:
    return CliRunner().invoke(app, ["check", str(chain)]).stdout.strip()


def test_rule_walks_to_the_end(chain: Path) -> None:
    answers = chain.parent / "answers.yaml"
    answers.write_text("situation: long\nanswers:\n" + "".join(f"  q{i}: {'yes' if i % 2 else 'no'}\n" for i in range(N)))
    result = CliRunner().invoke(app, ["rule", "--ruleset", str(chain), "--answers", str(answers), "--no-input", "--json"])
    assert result.exit_code == 0, result.output
    assert '"id": "L-END"' in result.stdout
    missing = CliRunner().invoke(app, ["rule", "long", "--ruleset", str(chain), "--no-input", "--answer", "q0=yes"])
    assert missing.exit_code == 2
    assert "missing answer for 'q1'" in missing.stderr


def test_depth_of_every_ruling_on_a_leafy_chain(tmp_path: Path) -> None:
    rs = load_strict(str(write_chain(tmp_path / "leafy", 300, leafy=True)))
    depths = question_depths(rs, "long")
    assert depths["L-END"] == 300
    assert all(depths[f"L-Y{i}"] == i + 1 for i in range(300))


def test_a_fact_answered_before_a_goto_is_not_counted_again(tmp_path: Path) -> None:
    """Eight question nodes, but q0 is asked on both sides of the goto: seven questions."""
    root = tmp_path / "two"
    (root / "situations").mkdir(parents=True)
    (root / "ruleset.yaml").write_text(HEADER)
    facts = "facts:\n" + "".join(f"  q{i}:\n    type: yesno\n    ask: Question {i}?\n" for i in range(8))
    (root / "facts.yaml").write_text(facts)

    def situation(sid: str, asks: list[int], last: list[str]) -> str:
        lines = [f"id: {sid}", f"title: Situation {sid}", "phase: play", "summary: Part of it.", "start: n0", "nodes:"]
        for j, q in enumerate(asks):
            nxt = f"n{j + 1}" if j + 1 < len(asks) else "tail"
            lines += [f"  n{j}:", f"    ask: q{q}", f"    yes: {nxt}", f"    no: {nxt}"]
        lines += ["  tail:", *last]
        return "\n".join(lines) + "\n"

    (root / "situations" / "first.yaml").write_text(situation("first", [0, 1, 2, 3], ["    goto: second"]))
    (root / "situations" / "second.yaml").write_text(situation("second", [0, 4, 5, 6], ruling("T-END")))
    rs = load_strict(str(root))
    assert question_depths(rs, "first") == {"T-END": 7}
    assert question_depths(rs, "second") == {"T-END": 4}
    result = CliRunner().invoke(app, ["check", str(root)])
    assert result.exit_code == 0, result.output


def test_cleaning_a_deeply_indented_line_is_linear() -> None:
    """show's text tree indents two spaces per question; cleaning such a line must not backtrack."""
    from referee.safe import clean

    line = " " * 100_000 + "? q1: Question 1?"
    assert clean(line) == line
    assert clean("a" + " " * 100_000 + "\n  b") == "a b"
