"""Connections on a venue's network, where a few hundred players' phones share the judges' wifi:
uvicorn's HTTP/1.1 protocol with the three guards uvicorn lacks, so no one machine can lock the
judges out.

- A connection must send a whole request (head and body) within `REQUEST_S` of opening, or of
  its last answer; uvicorn has no such timeout, and its keep-alive timer restarts on every byte,
  so a socket that drips a byte a second was held for ever.
- An idle keep-alive connection is dropped after `KEEP_ALIVE_S` (uvicorn's own timer).
- At most `PER_ADDRESS` open connections per client address; more are answered 503 and closed
  at once, before uvicorn counts them. uvicorn's only limit, `limit_concurrency`, is one budget
  for the whole server: 200 idle sockets from any phone made every judge's request a 503.

Why uvicorn still: no server on PyPI caps connections per address (hypercorn, granian, gunicorn
and waitress time out reads, none counts by address), and uvicorn takes its HTTP protocol as a
class (`uvicorn.Config(http=...)`), so the guards are a subclass of its own h11 protocol rather
than a second server in front. Called by `referee serve` (cli/serve.py) only; imports uvicorn.
"""
from __future__ import annotations

import asyncio
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

REQUEST_S = 5.0  # a phone on poor wifi sends a 2 KB form in well under a second
KEEP_ALIVE_S = 3  # browsers open a new connection when one was dropped; an idle one costs a slot
PER_ADDRESS = 32  # a browser opens at most 6 per server; the head judge's tabs and live log a few more

_REFUSAL = "Too many connections from this address. Close other tabs and try again."
REFUSED = (f"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n"
           f"content-length: {len(_REFUSAL)}\r\nretry-after: 5\r\nconnection: close\r\n\r\n{_REFUSAL}").encode()
_WAITING = (h11.IDLE, h11.SEND_BODY)  # the client still owes us (the rest of) a request


def guarded(per_address: int = PER_ADDRESS, request_s: float = REQUEST_S) -> type[H11Protocol]:
    """A protocol class for `uvicorn.Config(http=...)` with its own count of connections per address."""
    open_from: dict[str, int] = {}

    class Guarded(H11Protocol):
        _address: str | None = None  # set once counted; a refused connection never is
        _deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: Any) -> None:  # type: ignore[override]
            peer = transport.get_extra_info("peername")
            address = str(peer[0]) if isinstance(peer, tuple) and peer else "local"
            if open_from.get(address, 0) >= per_address:
                transport.write(REFUSED)
                transport.close()
                return
            open_from[address] = open_from.get(address, 0) + 1
            self._address = address
            super().connection_made(transport)
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._address is None:
                return  # refused in connection_made: uvicorn never saw it
            left = open_from.get(self._address, 1) - 1
            if left > 0:
                open_from[self._address] = left
            else:
                open_from.pop(self._address, None)
            self._address = None
            self._disarm()
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.conn.their_state not in _WAITING:
                self._disarm()  # the whole request is in: the answer may take as long as it takes

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing() and self.conn.their_state in _WAITING:
                self._arm()  # the next request on this connection gets the same time, no more

        def _arm(self) -> None:
            self._disarm()
            self._deadline = self.loop.call_later(request_s, self._expire)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _expire(self) -> None:
            self._deadline = None
            if self.conn.their_state in _WAITING and not self.transport.is_closing():
                self.transport.close()  # a half-sent body ends the app's read as a disconnect

    return Guarded


def open_files(wanted: int = 4096) -> int:
    """Raise this process's limit on open files towards `wanted` (each connection is one); the
    limit it has now. A typical default of 1,024 would otherwise be the server's real cap."""
    try:
        import resource
    except ImportError:  # Windows: no such limit to raise
        return wanted
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return wanted if soft == resource.RLIM_INFINITY else soft
