"""Overlays: extends chains, cycles, patches, and problems that name the overlay file."""
from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from referee.rules import loader
from referee.lint.checks import lint
from referee.ruling.engine import Outcome, advance

BASE_SIT = """\
id: tiny
title: A tiny situation
phase: play
aliases: [tiny thing happened]
summary: Something small.
roles:
  picker: Which seat?
facts:
  bad:
    type: yesno
    ask: Was it bad?
start: size
nodes:
  size:
    ask: bad
    yes: dead
    no: fine
  dead:
    ruling:
      id: T-1
      says: "{picker} is dead."
      game: continues
      dead: [picker]
      cite: [SRC]
  fine:
    ruling:
      id: T-2
      says: Nothing happens.
      game: continues
      cite: [SRC]
"""


def ruleset(root: Path, rid: str, extends: str | None = None, files: dict[str, str] | None = None, extra: str = "") -> Path:
    folder = root / rid
    (folder / "situations").mkdir(parents=True)
    meta = f"id: {rid}\ntitle: {rid}\nversion: '1'\n"
    if extends:
        meta += f"extends: {extends}\n"
    else:
        meta += "sources:\n  SRC: {title: A source}\n"
    (folder / "ruleset.yaml").write_text(meta + extra)
    for name, text in (files or {}).items():
        (folder / "situations" / name).write_text(textwrap.dedent(text))
    return folder


@pytest.fixture
def root(tmp_path, monkeypatch):
    monkeypatch.setenv("REFEREE_RULESETS", str(tmp_path))
    loader._CACHE.clear()
    ruleset(tmp_path, "base", files={"tiny.yaml": BASE_SIT})
    return tmp_path


def outcome(rs, sid, facts):
    step = advance(rs, sid, dict(facts))
    assert isinstance(step, Outcome), step
    return step


def test_extends_chain_inherits_and_overrides(root):
    ruleset(root, "mid", "base", {"tiny.yaml": """\
        patch: tiny
        nodes:
          fine:
            ruling:
              id: M-2
              says: Mid rules.
              game: replay
              cite: [SRC]
        """}, extra="scoring:\n  kind: points\n  unit: points\n  self_pick_bonus: 10\n")
    ruleset(root, "top", "mid", {}, extra="scoring:\n  jokerless_bonus: 20\n")
    rs, problems = loader.load("top")
    assert problems == [] and rs is not None
    assert rs.chain == ["base", "mid", "top"]
    assert outcome(rs, "tiny", {"bad": "no"}).ruling.id == "M-2"
    assert outcome(rs, "tiny", {"bad": "yes", "picker": "East"}).ruling.id == "T-1"
    # scoring merges key by key down the chain
    assert rs.scoring.kind == "points" and rs.scoring.self_pick_bonus == 10 and rs.scoring.jokerless_bonus == 20
    assert "SRC" in rs.sources
    assert lint(rs) == []


def test_cycle_is_an_error(root):
    ruleset(root, "a", "b")
    ruleset(root, "b", "a")
    rs, problems = loader.load("a")
    assert rs is None
    assert any("cycle" in p.message for p in problems)


def test_replace_whole_situation_and_remove(root):
    ruleset(root, "over", "base", {"tiny.yaml": BASE_SIT.replace("T-1", "O-1").replace("T-2", "O-2")})
    rs, problems = loader.load("over")
    assert problems == []
    assert outcome(rs, "tiny", {"bad": "no"}).ruling.id == "O-2"
    ruleset(root, "gone", "base", extra="remove: [tiny]\n")
    rs, problems = loader.load("gone")
    assert problems == [] and "tiny" not in rs.situations
    ruleset(root, "gone2", "base", extra="remove: [tinyy]\n")
    rs, problems = loader.load("gone2")
    assert any("unknown situation 'tinyy'" in p.message for p in problems)


PLACE = re.compile(r"^(?P<path>.+):(?P<line>\d+):(?P<col>\d+): ")


def problems_text(rid: str) -> list[str]:
    rs, problems = loader.load(rid)
    if rs is not None:
        problems = problems + lint(rs)
    return [str(p) for p in problems]


def test_typo_in_node_id_names_the_overlay_file(root):
    ruleset(root, "typo", "base", {"tiny.yaml": """\
        patch: tiny
        nodes:
          fien:
            ruling:
              id: Y-2
              says: Typo.
              game: continues
              cite: [SRC]
        """})
    lines = problems_text("typo")
    assert lines, "a node nobody reaches must be reported"
    for line in lines:
        m = PLACE.match(line)
        assert m, line
        assert m["path"].endswith("typo/situations/tiny.yaml")
    assert any("'fien'" in line and "never reached" in line for line in lines)
    assert any(line.endswith("typo/situations/tiny.yaml:3:3: node 'fien' of 'tiny' is never reached") for line in lines)


def test_dangling_goto_names_the_overlay_file(root):
    ruleset(root, "dangle", "base", {"tiny.yaml": """\
        patch: tiny
        nodes:
          size:
            ask: bad
            yes: {goto: nowhere}
            no: fine
        remove_nodes: [dead]
        """})
    lines = problems_text("dangle")
    hit = [line for line in lines if "unknown situation 'nowhere'" in line]
    assert hit, lines
    m = PLACE.match(hit[0])
    assert m and m["path"].endswith("dangle/situations/tiny.yaml") and m["line"] == "5"


def test_remove_nodes_typo_and_bad_start(root):
    ruleset(root, "bad", "base", {"tiny.yaml": """\
        patch: tiny
        start: sise
        remove_nodes: [deed]
        """})
    lines = problems_text("bad")
    assert any("bad/situations/tiny.yaml:3:" in line and "'deed'" in line for line in lines), lines
    assert any("bad/situations/tiny.yaml:2:" in line and "start node 'sise'" in line for line in lines), lines


def test_patch_of_unknown_situation(root):
    ruleset(root, "nope", "base", {"tinny.yaml": "patch: tinny\n"})
    lines = problems_text("nope")
    assert any("nope/situations/tinny.yaml:1:" in line and "did you mean 'tiny'" in line for line in lines), lines


def test_shipped_overlays_lint_clean():
    loader._CACHE.clear()
    for rid in ("card-game", "amja", "tournament", "tournament-mahjcon", "tournament-crak", "house-example"):
        rs, problems = loader.load(rid)
        assert rs is not None
        own = [p for p in problems + lint(rs) if f"/rulesets/{rid}/" in p.place.path]
        assert own == [], "\n".join(map(str, own))
