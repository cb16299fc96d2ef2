"""What the CLI tests share: a CliRunner result that refuses tracebacks, and reading a pty to its end."""
from __future__ import annotations

import json
import os
from typing import Any


class Run:
    """One command's exit code and streams; an expected error is never a traceback."""

    def __init__(self, result: Any) -> None:
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        assert "Traceback" not in result.output, result.output
        self.code, self.stdout, self.stderr = result.exit_code, result.stdout, result.stderr

    def json(self) -> Any:
        return json.loads(self.stdout)


def drain(fd: int) -> str:
    """Everything written to a pty's main side until the other side closes; closes fd."""
    chunks = []
    while True:
        try:
            data = os.read(fd, 65536)
        except OSError:  # Linux reports the closed other side as EIO
            break
        if not data:
            break
        chunks.append(data)
    os.close(fd)
    return b"".join(chunks).decode()
