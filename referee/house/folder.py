"""A house ruleset folder written from a table's customs, and the answers file kept beside its rules.

The folder's ruleset.yaml, facts.yaml and the situation files the customs bring belong to
`referee house`: it rewrites them on every `house edit`, and lists them in the answers file.
Every other file in the folder (a situation file the group wrote by hand) is never touched.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import __version__
from ..errors import UsageError
from .catalogue import Custom, catalogue

ANSWERS = "house-answers.yaml"

_OWNED_HEADER = """\
# Written by 'referee house' from {answers}: 'referee house edit {folder}' rewrites this file.
# Put your own changes in a situations/ file of your own (any name not listed in {answers});
# 'referee house' never touches those.
"""


@dataclass
class Answers:
    """What the table answered: its customs (id -> number, None for a custom without one)."""

    title: str
    customs: dict[str, int | None]
    base: str = "nmjl"
    files: list[str] = field(default_factory=list)  # the files `referee house` wrote, relative to the folder


def ruleset_id(folder: Path) -> str:
    """The folder's name as a ruleset id ('Our Table' -> 'our-table')."""
    slug = re.sub(r"[^a-z0-9]+", "-", folder.name.lower()).strip("-")
    if not slug or not slug[0].isalpha():
        slug = "house-" + slug if slug else "house"
    return slug


def read_answers(folder: Path) -> Answers:
    """The answers file of a folder `referee house` wrote; a clear error if there is none or it is damaged."""
    from ..rules.yamlload import read as read_yaml

    path = folder / ANSWERS
    if not path.is_file():
        raise UsageError(f"{folder}: no {ANSWERS} here; 'referee house new {folder}' makes a house ruleset")
    doc = read_yaml(path)
    data = doc.data if isinstance(doc.data, dict) else None
    customs = data.get("customs") if data else None
    if not isinstance(customs, dict):
        raise UsageError(f"{path}:1:1: expected 'customs:' with one custom a line (id: number)")
    files = data.get("files") or []
    if not isinstance(files, list) or not all(isinstance(f, str) for f in files):
        raise UsageError(f"{path}:1:1: 'files:' must be a list of file names")
    return Answers(title=str(data.get("title") or folder.name), customs=dict(customs), base=str(data.get("base") or "nmjl"),
                   files=files)


def _dump(data: Any) -> str:
    import yaml

    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)


def plan(folder: Path, chosen: dict[str, int | None], title: str, base: str = "nmjl") -> dict[str, str]:
    """The owned files' texts, relative path -> text: nothing is written here."""
    from ..rules.loader import load_strict

    cat = catalogue()
    base_rs = load_strict(base)
    header = _OWNED_HEADER.format(answers=ANSWERS, folder=folder.name)
    scoring: dict[str, Any] = {}
    facts: dict[str, Any] = {}
    sources: dict[str, Any] = {}
    uses: list[dict[str, Any]] = []
    files: dict[str, str] = {}
    for cid, n in chosen.items():
        c: Custom = cat[cid]
        scoring.update(c.filled("scoring", n))
        facts.update(c.filled("facts", n))
        sources.update({k: v for k, v in c.filled("sources", n).items() if k not in base_rs.sources})
        uses.append({"id": cid, "rule": c.rule, "says": c.sentence(n), **({"number": n} if n is not None else {}),
                     "cite": c.cite, "scoring": list(c.scoring), "rulings": c.rulings()})
        for stem, doc in c.filled("situations", n).items():
            # a new situation's file must bear its id; a patch may have any name, so say whose it is
            name = stem if "id" in doc else f"house-{cid}-{stem}"
            schema = "situation" if "id" in doc else "patch"
            files[f"situations/{name}.yaml"] = (f"# yaml-language-server: $schema=../../referee/schema/{schema}.schema.json\n"
                                                 + header + f"# Custom '{cid}': {c.title}.\n" + _dump(doc))
    meta: dict[str, Any] = {
        "id": ruleset_id(folder),
        "title": title,
        "version": "1",
        "extends": base,
        "description": f"{title}: the rules of {base} with this table's own customs, chosen with 'referee house'.",
    }
    if scoring:
        meta["scoring"] = scoring
    if sources:
        meta["sources"] = sources
    meta["customs"] = uses
    files["ruleset.yaml"] = header + _dump(meta)
    if facts:
        files["facts.yaml"] = header + _dump({"facts": facts})
    return dict(sorted(files.items(), key=lambda kv: (kv[0] != "ruleset.yaml", kv[0])))


def write(folder: Path, chosen: dict[str, int | None], title: str, base: str = "nmjl") -> Answers:
    """Write (or rewrite) the folder's owned files and its answers file. Files an earlier run
    wrote that this choice no longer needs are removed; every other file is left as it is."""
    files = plan(folder, chosen, title, base)
    previous = read_answers(folder).files if (folder / ANSWERS).is_file() else []
    for rel in files:
        path = folder / rel
        if path.exists() and rel not in previous and rel != "ruleset.yaml" or (rel == "ruleset.yaml" and path.exists() and not previous):
            raise UsageError(f"{path}: already exists and was not written by 'referee house'; choose a new folder")
    (folder / "situations").mkdir(parents=True, exist_ok=True)
    for rel, text in files.items():
        (folder / rel).write_text(text, encoding="utf-8")
    for rel in previous:
        if rel not in files and (folder / rel).is_file() and not Path(rel).is_absolute() and ".." not in Path(rel).parts:
            (folder / rel).unlink()
    answers = Answers(title=title, customs=dict(chosen), base=base, files=list(files))
    text = (f"# The answers 'referee house' was given (referee {__version__}), as copier keeps its answers file.\n"
            f"# 'referee house edit {folder.name}' asks again with these as defaults and rewrites the files listed.\n"
            + _dump({"title": title, "base": base, "customs": answers.customs, "files": answers.files}))
    (folder / ANSWERS).write_text(text, encoding="utf-8")
    return answers
