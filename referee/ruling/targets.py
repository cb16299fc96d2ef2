"""What each path given to `referee check` is: a ruleset, scenario files, or a mistake.

A folder is searched for ruleset folders (they hold ruleset.yaml) and scenario files; a folder
that has situations/ or facts.yaml but no ruleset.yaml is one problem, not a problem per key of
every file in it read as a scenario.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import Place, Problem, UsageError


@dataclass
class Targets:
    rulesets: list[str] = field(default_factory=list)  # ids or folders
    scenarios: list[Path] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def ruleset_folder(p: Path) -> Path | None:
    """The ruleset folder a path belongs to: the folder itself, or a file or folder inside it."""
    for candidate in [p, *p.parents][:3]:
        if candidate.is_dir() and (candidate / "ruleset.yaml").is_file():
            return candidate
    return None


def _walk(top: Path, found: Targets) -> None:
    # os.walk does not follow symlinked folders, so a link back up cannot loop forever
    for here, dirs, files in os.walk(top, followlinks=False):
        folder = Path(here)
        dirs.sort()
        if "ruleset.yaml" in files:
            found.rulesets.append(str(folder))
            dirs[:] = []
            continue
        if "situations" in dirs or "facts.yaml" in files or folder.name == "situations":
            home = folder.parent if folder.name == "situations" else folder
            found.problems.append(Problem(Place(str(home)), "no ruleset.yaml here: a ruleset folder needs one "
                                          "(id, title, version), beside situations/ and facts.yaml"))
            dirs[:] = []
            continue
        found.scenarios += [folder / f for f in sorted(files) if f.endswith((".yaml", ".yml"))]


def classify(paths: list[Path]) -> Targets:
    found = Targets()
    for p in paths:
        folder = ruleset_folder(p)
        if folder is not None:
            found.rulesets.append(str(folder))
        elif not p.exists():
            if "/" not in str(p) and not p.suffix:
                found.rulesets.append(str(p))  # a ruleset id
            else:
                raise UsageError(f"{p}: no such file or folder")
        elif p.is_dir():
            before = len(found.rulesets) + len(found.scenarios) + len(found.problems)
            _walk(p, found)
            if len(found.rulesets) + len(found.scenarios) + len(found.problems) == before:
                raise UsageError(f"{p}: nothing to check here (no ruleset.yaml and no .yaml files)")
        else:
            found.scenarios.append(p)
    return found
