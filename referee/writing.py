"""Writing a file whole or not at all: every writer of an export, a handout or the event settings.

The text goes to a temporary file beside the target, which replaces the target only once it is
complete and on disk. A full disk (or any failed write) removes the temporary file and leaves the
target as it was, a good file included, and is one line: "cannot write PATH (reason)".
Called by the command line and the store; imports nothing of referee's but its errors.
"""
from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import IO, Any, Iterator

from .errors import RefereeError


class WriteError(RefereeError):
    """A file that could not be written; the one it would have replaced is untouched."""


@contextlib.contextmanager
def replacing(target: Path, binary: bool = False) -> Iterator[IO[Any]]:
    """A file to write `target`'s new content into; it becomes `target` when the block ends well."""
    target = Path(target)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        try:
            with open(tmp, "wb") if binary else open(tmp, "w", encoding="utf-8", newline="") as fh:
                yield fh
                fh.flush()
                os.fsync(fh.fileno())  # on disk before it replaces anything: a power cut keeps one whole file
            os.replace(tmp, target)
        except BaseException:
            with contextlib.suppress(OSError):
                tmp.unlink()
            raise
    except OSError as exc:
        raise WriteError(f"cannot write {target} ({exc.strerror or exc})") from None


def write_whole(target: Path, content: str | bytes) -> None:
    """`target` holds `content`, or (on any failure) what it held before."""
    with replacing(target, binary=isinstance(content, bytes)) as fh:
        fh.write(content)
