"""Hostile sockets for the venue tests and the serve benchmark: from 127.0.0.2 (one address on
the loopback network, not the judge's 127.0.0.1) to the server on 127.0.0.1 only. `idle`
sockets send nothing; `drip` sockets send a request head one byte a second and never finish it,
reconnecting when the server drops them. Everything stops by itself after `seconds`."""
from __future__ import annotations

import resource
import socket
import threading
import time
from typing import Any

ATTACKER = "127.0.0.2"
HEAD = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 4000  # never the blank line that ends a head


def _room(sockets: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = sockets + 512
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(want, hard), hard))


def _connect(port: int) -> socket.socket | None:
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        s.bind((ATTACKER, 0))
        s.settimeout(5)
        s.connect(("127.0.0.1", port))
        s.setblocking(False)
        return s
    except OSError:
        s.close()
        return None


def _closed(s: socket.socket) -> bool:
    """Whether the server has closed this socket (anything it sent, a 503, is read and dropped)."""
    try:
        while True:
            data = s.recv(65536)
            if not data:
                return True
    except BlockingIOError:
        return False
    except OSError:
        return True


class Flood:
    def __init__(self, port: int, idle: int = 1000, drip: int = 300, seconds: float = 60.0) -> None:
        self.port, self.n_idle, self.n_drip, self.seconds = port, idle, drip, seconds
        self.idle: list[socket.socket] = []
        self.drip: list[tuple[socket.socket, int]] = []  # (socket, bytes of HEAD sent)
        self.reconnects = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def __enter__(self) -> "Flood":
        _room(self.n_idle + self.n_drip)
        self.deadline = time.monotonic() + self.seconds
        for _ in range(self.n_idle):
            s = _connect(self.port)
            if s is not None:
                self.idle.append(s)
        for _ in range(self.n_drip):
            s = _connect(self.port)
            if s is not None:
                self.drip.append((s, 0))
        self._thread = threading.Thread(target=self._drip, daemon=True)
        self._thread.start()
        return self

    def _drip(self) -> None:
        while not self._stop.is_set() and time.monotonic() < self.deadline:  # bounded: stops by itself
            kept = []
            for s, sent in self.drip:
                try:
                    if _closed(s):
                        raise OSError("dropped")
                    s.send(HEAD[sent % len(HEAD):sent % len(HEAD) + 1])
                    kept.append((s, sent + 1))
                except OSError:
                    s.close()
                    again = _connect(self.port)
                    self.reconnects += 1
                    if again is not None:
                        kept.append((again, 0))
            self.drip = kept
            self._stop.wait(1.0)

    def idle_dropped(self) -> int:
        """How many of the idle sockets the server has closed."""
        return sum(_closed(s) for s in self.idle)

    def __exit__(self, *exc: Any) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
        for s in self.idle + [s for s, _ in self.drip]:
            s.close()
