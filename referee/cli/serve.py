"""`referee serve`: the judges' web pages on the venue's network (the optional `web` extra)."""
from __future__ import annotations

import os
import sys
from typing import Any, Optional

import typer

from ..errors import UsageError
from .base import app, err, examples, guarded, out, safe


def _lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback, found without sending anything."""
    import socket

    found: list[str] = []
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.append(str(info[4][0]))
    except OSError:
        pass
    if sys.platform.startswith("linux"):
        import fcntl
        import struct

        probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            for _, name in socket.if_nameindex():
                try:  # SIOCGIFADDR: the interface's address, asked of the kernel
                    packed = fcntl.ioctl(probe.fileno(), 0x8915, struct.pack("256s", name.encode()[:15]))
                    found.append(socket.inet_ntoa(packed[20:24]))
                except OSError:
                    continue
        finally:
            probe.close()
    return sorted({a for a in found if not a.startswith("127.")}, key=lambda a: tuple(int(p) for p in a.split(".")))


def _listen(host: str, port: int) -> Any:
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise UsageError(f"cannot listen on {host}:{port} ({exc.strerror or exc}); choose another --port or --host") from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def _qr(url: str) -> str | None:
    try:
        import segno
    except ImportError:
        return None
    import io

    buf = io.StringIO()
    segno.make(url, error="m").terminal(out=buf, compact=True)
    return buf.getvalue()


@app.command(short_help="Serve the judges' pages to phones on the venue's network.", epilog=examples(
    "referee serve \\\n  --event \"Spring Open 2026\" \\\n  --ruleset tournament",
    "# practice on this laptop only:\nreferee serve --host 127.0.0.1 \\\n  --event Practice",
    "referee serve --event Open \\\n  --pin 482913 \\\n  --head-pin 771204 --port 8080"))
@guarded
def serve(
    event: Optional[str] = typer.Option(None, "--event", help="Event name every ruling is recorded under (default: REFEREE_EVENT or 'referee log event')."),
    ruleset: Optional[str] = typer.Option(None, "--ruleset", "-r", metavar="RULESET", help="Ruleset id or folder (default: the event's, else nmjl)."),
    round_: Optional[str] = typer.Option(None, "--round", help="Current round: the default on the record form (default: REFEREE_ROUND or the event's)."),
    db: Optional[str] = typer.Option(None, "--db", metavar="FILE|URL", help="Log file or postgresql:// URL (default: REFEREE_DB, else the application folder); the same log 'referee log' reads."),
    host: str = typer.Option("0.0.0.0", "--host", metavar="ADDRESS", help="Address to listen on: 0.0.0.0 is every network; 127.0.0.1 this laptop only."),
    port: int = typer.Option(8000, "--port", min=0, max=65535, help="Port to listen on (0: any free port)."),
    pin: Optional[str] = typer.Option(None, "--pin", metavar="PIN", help="The judges' PIN (default: REFEREE_PIN, else a new 6-digit one)."),
    head_pin: Optional[str] = typer.Option(None, "--head-pin", metavar="PIN", help="The head judge's PIN (default: REFEREE_HEAD_PIN, else a new one)."),
    name: list[str] = typer.Option([], "--name", metavar="HOST", help="Another name phones use for this laptop (e.g. judges.lan); repeatable."),
    judges_only: bool = typer.Option(False, "--judges-only", help="Everything behind sign-in: players cannot look up rulings."),
    no_qr: bool = typer.Option(False, "--no-qr", help="Do not print the QR code."),
    tz: Optional[str] = typer.Option(None, "--tz", metavar="ZONE", help="The venue's time zone for the times on the pages, e.g. America/New_York (default: this laptop's)."),
    per_address: int = typer.Option(32, "--per-address", min=1, max=10_000, metavar="N",
                                    help="Most connections open at once from one address (raise it only if every phone reaches the laptop through one router address)."),
) -> None:
    """Serve the judges' pages: search, questions, the ruling and Record, from any phone's browser.

    Rulings are recorded into the same log as 'referee rule', under the same event settings;
    the head judge's page shows the log live, marks repeat offences, withdraws and exports.
    Needs the web extra: pip install "referee[web]". Ctrl+C stops it.
    """
    from ..rules.loader import load_strict
    from ..store.context import ENV, db_path, event_ruleset, read_event
    from ..store.rulings import check

    try:
        import uvicorn

        from ..web import Settings, create_app
        from ..web.conn import KEEP_ALIVE_S, guarded, open_files
    except ImportError as exc:
        raise UsageError(f"'referee serve' needs the web extra ({exc.name} is missing): pip install \"referee[web]\"") from None
    import socket

    from ..web.security import new_pin

    zone = _zone(tz)
    path = db_path(db)
    saved = read_event(path)
    event = (event or os.environ.get(ENV["event"]) or saved.event or "").strip()
    if not event:
        raise UsageError("name the event the rulings are recorded under: --event NAME (or 'referee log event NAME')")
    chosen = ruleset or event_ruleset(saved) or "nmjl"
    rs = load_strict(chosen)  # a broken ruleset is one line now, not an error page for every judge
    check(path)
    round_ = (round_ or os.environ.get(ENV["round"]) or saved.round or "").strip() or None
    pin = _pin(pin or os.environ.get("REFEREE_PIN") or new_pin(), "--pin")
    head_pin = _pin(head_pin or os.environ.get("REFEREE_HEAD_PIN") or new_pin(), "--head-pin")
    if pin == head_pin:
        raise UsageError("the judges' PIN and the head judge's PIN must differ")
    sock = _listen(host, port)
    port = sock.getsockname()[1]
    everywhere = host in ("0.0.0.0", "::", "")
    addresses = (_lan_addresses() if everywhere else [host])
    hosts = sorted({*addresses, "localhost", "127.0.0.1", *name})
    settings = Settings(db=path, ruleset=chosen, pin=pin, head_pin=head_pin, event=event, round=round_,
                        allowed_hosts=hosts + [socket.gethostname()], judges_only=judges_only, tz=zone)
    urls = [f"http://{a}:{port}/" for a in (*name, *addresses)] or [f"http://127.0.0.1:{port}/"]
    settings.urls = tuple(urls)
    settings.notify = _notice
    application = create_app(settings)
    out.print(f"[bold]referee serve[/]: {safe(event)} · ruleset {safe(rs.id)} {safe(rs.meta.version)} · log {safe(path)}")
    out.print("Judges open this on a phone on the same network:")
    for url in urls:
        out.print(f"  [bold]{safe(url)}[/]")
    if everywhere and not addresses:
        out.print("  [yellow]No network address found: is this laptop on the venue's network?[/]")
    qr = None if no_qr else _qr(urls[0])
    if qr:
        sys.stdout.write(qr)
    out.print(f"Judges' PIN: [bold]{pin}[/]    Head judge's PIN: [bold]{head_pin}[/]")
    out.print("[dim]Ctrl+C stops the server.[/]")
    sys.stdout.flush()
    # The log's event streams watch `should_exit` and end themselves within a poll; the
    # graceful timeout only backs that up (uvicorn otherwise waits for ever on an open stream).
    # Connections are guarded per address (web/conn.py); the overall limit only keeps the server
    # within its open files, far above what the judges' phones need.
    budget = max(64, open_files() - 64)
    config = uvicorn.Config(application, http=guarded(per_address), timeout_keep_alive=KEEP_ALIVE_S,
                            limit_concurrency=budget, backlog=2048, timeout_graceful_shutdown=2, server_header=False,
                            log_level="warning", access_log=False, lifespan="off")
    server = uvicorn.Server(config)
    settings.stopping = lambda: bool(server.should_exit)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass  # uvicorn re-raises the Ctrl+C it handled: stopping is what the head judge asked for
    finally:
        sock.close()
    err.print("referee: server stopped")


def _zone(name: str | None) -> Any:
    """--tz as a time zone; None (not given) is this machine's own clock."""
    if name is None:
        return None
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        return ZoneInfo(name.strip())
    except (ZoneInfoNotFoundError, ValueError):
        raise UsageError(f"--tz: no time zone '{name}'; give one such as America/New_York or Europe/London") from None


def _notice(line: str) -> None:
    """One line on the laptop's terminal: the log has gone away, or is back."""
    from datetime import datetime

    err.print(f"{datetime.now():%H:%M:%S} {safe(line)}", highlight=False, soft_wrap=True)


def _pin(value: Any, flag: str) -> str:
    text = str(value).strip()
    if not (text.isascii() and text.isdigit() and 4 <= len(text) <= 12):
        raise UsageError(f"{flag}: a PIN is 4 to 12 digits")
    return text
