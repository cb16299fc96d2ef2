"""`referee check` says what it is doing at a terminal, and nothing extra when piped."""
from __future__ import annotations

import os
import pty
import subprocess
import sys

from clirun import drain


def _run(stderr_tty: bool) -> tuple[int, str]:
    main, child = pty.openpty()
    env = {**os.environ, "COLUMNS": "100"}
    p = subprocess.run([sys.executable, "-m", "referee", "check", "nmjl"], stdout=subprocess.PIPE,
                       stderr=child if stderr_tty else subprocess.PIPE, stdin=subprocess.DEVNULL, env=env, timeout=300)
    os.close(child)
    text = drain(main)
    return p.returncode, text if stderr_tty else p.stderr.decode()


def test_check_shows_progress_on_a_terminal_only() -> None:
    code, shown = _run(stderr_tty=True)
    assert code == 0 and "checking ruleset nmjl (1 of 1)" in shown and "situations" in shown, shown
    code, piped = _run(stderr_tty=False)
    assert code == 0 and "checking ruleset" not in piped and "\x1b" not in piped
