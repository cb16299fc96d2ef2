"""The log's outages as the judges' pages and the laptop's terminal see them.

A log server that restarts, or a network cable pulled, must never read to a judge as "no such
ruling": she would rule again and record a duplicate. The store says `Unreachable` for it; the
pages turn that into "cannot be reached just now, try again", and `referee serve` prints one line
when the log goes away and one when it is back, not one per failed page.
"""
from __future__ import annotations

import contextlib
import threading
import time
from typing import Callable, Iterator

from ..store.backend import Unreachable

# What a page says while the log cannot be reached: in the page's own words, no command to run.
RULING_MAY_BE_RECORDED = ("The log cannot be reached just now; this ruling may already be recorded. "
                          "Try again in a moment.")
NOT_REACHED = "The log cannot be reached just now. Try again in a moment."
RETRY_AFTER_S = 5


class Outage:
    """Whether the log is reachable, as the last use found it; tells `notify` when that changes."""

    def __init__(self, notify: Callable[[str], None]) -> None:
        self.notify = notify
        self._lock = threading.Lock()
        self._since: float | None = None  # when the current outage began (monotonic), or None

    @property
    def down(self) -> bool:
        return self._since is not None

    def failed(self, exc: Exception) -> None:
        with self._lock:
            if self._since is not None:
                return
            self._since = time.monotonic()
        self.notify(f"referee: the log cannot be reached ({exc}); judges are asked to try again")

    def reached(self) -> None:
        if self._since is None:  # the common case, without the lock
            return
        with self._lock:
            if self._since is None:
                return
            lasted = time.monotonic() - self._since
            self._since = None
        self.notify(f"referee: the log is reachable again (after {lasted:.0f} s)")

    @contextlib.contextmanager
    def watch(self) -> Iterator[None]:
        """Around one use of the log: an Unreachable marks an outage, a use that ends well its end."""
        try:
            yield
        except Unreachable as exc:
            self.failed(exc)
            raise
        self.reached()
