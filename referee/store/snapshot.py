"""The rules as they were: a ruleset's files (its whole `extends` chain) packed into one blob.

A ruling records the ruleset's content hash; the first ruling under a hash also stores the
files that make it, so `referee log replay` can run the recorded answers under exactly those
rules even after the files on disk have changed.
"""
from __future__ import annotations

import base64
import json
import re
import zlib
from pathlib import Path
from typing import Any

from ..errors import RefereeError

Snapshot = tuple[str, str, str, bytes]  # hash, ruleset id, version, packed files
_PLAIN = re.compile(r"^[A-Za-z0-9_.-]+$")


def _files(folder: Path) -> list[Path]:
    """The files the loader reads, and so the files its hash covers."""
    found = [folder / "ruleset.yaml"]
    if (folder / "facts.yaml").is_file():
        found.append(folder / "facts.yaml")
    if (folder / "situations").is_dir():
        found += sorted((folder / "situations").glob("*.yaml"))
    return found


def chain_folders(rs: Any) -> list[Path]:
    """The folders of a loaded ruleset and every base it extends, base first."""
    from ..loader import locate
    from ..yamlload import read

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


def restore(snap: Snapshot, into: Path) -> Path:
    """Write a snapshot's folders side by side under `into`; returns the ruleset's own folder.

    A base sits beside the ruleset that extends it, under the name its `extends` gives.
    """
    try:
        levels = json.loads(zlib.decompress(snap[3]))["levels"]
        folder = into
        for i, level in enumerate(levels):
            folder = into / level["folder"]
            for rel, b64 in level["files"].items():
                data = base64.b64decode(b64)
                if rel == "ruleset.yaml" and i > 0:
                    data = _point_extends(data, levels[i - 1]["folder"])
                target = folder / rel
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(data)
    except (zlib.error, ValueError, KeyError, TypeError) as exc:
        raise RefereeError(f"the stored rules {snap[0]} are damaged ({exc})") from None
    return folder


def _point_extends(data: bytes, base: str) -> bytes:
    """Keep `extends: NAME` as written (the hash covers it); a path is pointed at the restored base."""
    text = data.decode("utf-8")
    m = re.search(r"(?m)^extends:\s*['\"]?([^'\"\n#]+?)['\"]?\s*(#.*)?$", text)
    if m is None or _PLAIN.match(m.group(1).strip()):
        return data
    return (text[: m.start(1)] + base + text[m.end(1):]).encode("utf-8")
