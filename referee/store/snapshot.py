"""The rules as they were: a ruleset's files (its whole `extends` chain) packed into one blob.

A ruling records the ruleset's content hash; the first ruling under a hash also stores the
files that make it, so `referee log replay` can run the recorded answers under exactly those
rules even after the files on disk have changed.

A blob may come from another judge's export, so it is untrusted: `unpack` bounds what it
unpacks to and accepts only the names a ruleset folder is made of (plain names, no `..`, no
absolute path), and `verify` checks that the files give the hash they are stored under.
Import calls both; `restore` unpacks again before it writes anything.
"""
from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import RefereeError

Snapshot = tuple[str, str, str, bytes]  # hash, ruleset id, version, packed files
_PLAIN = re.compile(r"^[A-Za-z0-9_.-]+$")
# A folder or situation file name: one path segment (no separator, drive colon or control),
# no leading dot (so never '.' or '..'), no trailing dot or space (Windows drops them).
_NAME = re.compile(r"^(?![.])[^/\\:\x00-\x1f\x7f]{1,100}(?<![. ])$")
_SITUATION = re.compile(r"^situations/((?![.])[^/\\:\x00-\x1f\x7f]{1,100})\.yaml$")
# The largest real ruleset chain unpacks to well under 1 MB; a blob beyond these is refused.
MAX_UNPACKED = 16 * 1024 * 1024
MAX_FILES = 2_000
MAX_LEVELS = 16


class SnapshotError(RefereeError):
    """Stored rules that are not a ruleset's files: damaged, too big, or naming paths outside."""


@dataclass(frozen=True)
class Level:
    """One folder of a chain: its name and its files (relative name -> bytes), base first."""

    folder: str
    files: dict[str, bytes]


def _files(folder: Path) -> list[Path]:
    """The files the loader reads, and so the files its hash covers."""
    from ..rules.loader import inputs

    return [folder / rel for rel in inputs(folder)[0] if (folder / rel).is_file()]


def chain_folders(rs: Any) -> list[Path]:
    """The folders of a loaded ruleset and every base it extends, base first."""
    from ..rules.loader import locate
    from ..rules.yamlload import read

    folders = [Path(rs.folder)]
    while len(folders) <= len(rs.chain):
        data = read(folders[0] / "ruleset.yaml").data
        base = data.get("extends") if isinstance(data, dict) else None
        if not base:
            break
        folders.insert(0, locate(str(base), near=folders[0]).resolve())
    return folders


def capture(rs: Any) -> Snapshot:
    levels = []
    folders = chain_folders(rs)
    for folder in folders:
        files = {str(f.relative_to(folder)).replace("\\", "/"): base64.b64encode(f.read_bytes()).decode() for f in _files(folder)}
        levels.append({"folder": folder.name, "files": files})
    packed = zlib.compress(json.dumps({"levels": levels}, sort_keys=True).encode(), 9)
    return (rs.hash, rs.id, str(rs.meta.version), packed)


def _inflate(blob: bytes) -> bytes:
    """zlib-decompress at most MAX_UNPACKED bytes: a small bomb must not fill memory or disk."""
    inflater = zlib.decompressobj()
    data = inflater.decompress(blob, MAX_UNPACKED)
    if inflater.unconsumed_tail:
        raise SnapshotError(f"unpacks to more than {MAX_UNPACKED // (1024 * 1024)} MB; no ruleset is that big")
    if not inflater.eof:
        raise SnapshotError("is cut short (not a whole zlib stream)")
    return data


def _level(item: Any, seen: set[str]) -> Level:
    if not isinstance(item, dict) or not isinstance(item.get("folder"), str) or not isinstance(item.get("files"), dict):
        raise SnapshotError("is not a list of folders with their files")
    folder = item["folder"]
    if not _NAME.match(folder) or folder.casefold() in seen:
        raise SnapshotError(f"names the folder {json.dumps(folder)}; only a plain, distinct folder name may be restored")
    seen.add(folder.casefold())
    files: dict[str, bytes] = {}
    for rel, b64 in item["files"].items():
        if rel not in ("ruleset.yaml", "facts.yaml") and not _SITUATION.match(rel):
            raise SnapshotError(f"names the file {json.dumps(rel)} in {folder}; only ruleset.yaml, "
                                "facts.yaml and situations/NAME.yaml may be restored")
        if not isinstance(b64, str):
            raise SnapshotError(f"holds no text for {folder}/{rel}")
        try:
            files[rel] = base64.b64decode(b64, validate=True)
        except (binascii.Error, ValueError):
            raise SnapshotError(f"holds {folder}/{rel} in a form that is not base64") from None
    if "ruleset.yaml" not in files:
        raise SnapshotError(f"has no ruleset.yaml in {folder}")
    return Level(folder, files)


def unpack(blob: bytes) -> list[Level]:
    """The folders of a stored blob, base first, checked and bounded; SnapshotError otherwise."""
    try:
        doc = json.loads(_inflate(blob))
    except (zlib.error, ValueError, RecursionError):
        raise SnapshotError("is not packed rules (not zlib-compressed JSON)") from None
    levels = doc.get("levels") if isinstance(doc, dict) else None
    if not isinstance(levels, list) or not levels:
        raise SnapshotError("is not a list of folders with their files")
    if len(levels) > MAX_LEVELS:
        raise SnapshotError(f"chains {len(levels)} folders; at most {MAX_LEVELS} are restored")
    seen: set[str] = set()
    unpacked = [_level(item, seen) for item in levels]
    base = _extends(unpacked[0].files["ruleset.yaml"])
    if base is not None:  # replay would load it from this machine's folders: not the rules recorded
        raise SnapshotError(f"extends {json.dumps(base)}, which it does not hold; stored rules must hold "
                            "every folder of their chain")
    for below, level in zip(unpacked, unpacked[1:]):
        named = _extends(level.files["ruleset.yaml"])
        if named is None or (_PLAIN.match(named) and named != below.folder):
            raise SnapshotError(f"has {level.folder} extend {json.dumps(named)}, not the folder stored below it "
                                f"({below.folder}); stored rules must hold every folder of their chain")
    if sum(len(level.files) for level in unpacked) > MAX_FILES:
        raise SnapshotError(f"holds more than {MAX_FILES} files; no ruleset is that big")
    return unpacked


def digest(levels: list[Level]) -> str:
    """The content hash the loader gives these files (loader.load: each folder's digest seeds the next)."""
    value = ""
    for level in levels:
        h = hashlib.sha256(value.encode())
        situations = sorted(rel for rel in level.files if rel.startswith("situations/"))
        for rel in ["ruleset.yaml", *(["facts.yaml"] if "facts.yaml" in level.files else []), *situations]:
            for part in (rel.encode(), b"\0", level.files[rel], b"\0"):
                h.update(part)
        value = h.hexdigest()
    return value


def verify(snap: Snapshot) -> list[Level]:
    """A blob's folders, after checking they hash to the hash it is stored under (so no
    imported copy can stand in for the rules a ruling was made under)."""
    levels = unpack(snap[3])
    if not digest(levels).startswith(snap[0]) or len(snap[0]) < 12:
        raise SnapshotError(f"does not hash to {snap[0]} as it claims")
    return levels


def restore(snap: Snapshot, into: Path) -> Path:
    """Write a snapshot's folders side by side under `into`; returns the ruleset's own folder.

    A base sits beside the ruleset that extends it, under the name its `extends` gives.
    Every name is checked before anything is written, and every target must stay inside `into`.
    """
    try:
        levels = unpack(snap[3])
    except SnapshotError as exc:
        raise SnapshotError(f"the stored copy of rules {snap[0]} {exc.message}") from None
    root = into.resolve()
    folder = root
    for i, level in enumerate(levels):
        folder = root / level.folder
        for rel, data in level.files.items():
            if rel == "ruleset.yaml" and i > 0:
                data = _point_extends(data, levels[i - 1].folder)
            target = folder / rel
            if not target.resolve().is_relative_to(root):  # the names are plain; this is the second lock
                raise SnapshotError(f"the stored copy of rules {snap[0]} names a file outside the replay folder")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
    return folder


_EXTENDS = re.compile(r"(?m)^extends:\s*['\"]?([^'\"\n#]*?)['\"]?\s*(#.*)?$")


def _extends(data: bytes) -> str | None:
    """What a stored ruleset.yaml extends, or None. The YAML is read (a flow mapping or a quoted
    key says it too); a file that does not parse is left to the loader to refuse."""
    import yaml

    try:
        doc = yaml.safe_load(data.decode("utf-8", errors="replace"))
    except yaml.YAMLError:
        m = _EXTENDS.search(data.decode("utf-8", errors="replace"))
        return m.group(1).strip() or None if m else None
    found = doc.get("extends") if isinstance(doc, dict) else None
    return str(found) if found not in (None, "") else None


def _point_extends(data: bytes, base: str) -> bytes:
    """Keep `extends: NAME` as written (the hash covers it); a path is pointed at the restored base."""
    text = data.decode("utf-8", errors="replace")
    m = re.search(r"(?m)^extends:\s*['\"]?([^'\"\n#]+?)['\"]?\s*(#.*)?$", text)
    if m is None or _PLAIN.match(m.group(1).strip()):
        return data
    return (text[: m.start(1)] + base + text[m.end(1):]).encode("utf-8")
