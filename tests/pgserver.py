"""A throwaway PostgreSQL server for the tests and the benchmark, in a temporary folder.

Started from the server binaries of Debian's `postgresql` package (found with `pg_config
--bindir`, then /usr/lib/postgresql/*/bin, then PATH), listening on a unix socket in its own
folder and on 127.0.0.1 only. `initdb` refuses to run as root, so as root the server runs as
the unprivileged user `nobody`. `unavailable()` says why no server can be started, or None.

Connections over the socket are trusted (the tests' own superuser, `postgres`); over TCP a
password is asked (scram), for the tests of where passwords come from.
"""
from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path


def bindir() -> Path | None:
    found = []
    if shutil.which("pg_config"):
        try:
            found.append(subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True, check=True).stdout.strip())
        except (OSError, subprocess.CalledProcessError):
            pass
    found += sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    if shutil.which("initdb"):
        found.append(str(Path(shutil.which("initdb") or "").resolve().parent))
    for folder in found:
        if (Path(folder) / "initdb").is_file() and (Path(folder) / "pg_ctl").is_file() and (Path(folder) / "postgres").is_file():
            return Path(folder)
    return None


def _user() -> str | None:
    """Whom to run the server as: None for ourselves, `nobody` when we are root."""
    if os.geteuid() != 0:
        return None
    pwd.getpwnam("nobody")  # KeyError when there is no such user
    return "nobody"


def unavailable() -> str | None:
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "psycopg is not installed (pip install -e '.[dev]')"
    if bindir() is None:
        return "no PostgreSQL server binaries (initdb, pg_ctl, postgres); apt-get install postgresql"
    try:
        _user()
    except KeyError:
        return "running as root and there is no user 'nobody' to run initdb as"
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Server:
    folder: Path
    port: int
    bindir: Path
    user: str | None
    options: str = ""

    def url(self, dbname: str = "postgres", user: str = "postgres") -> str:
        """Over the unix socket (trusted): no password."""
        return f"postgresql://{user}@/{dbname}?host={self.folder}&port={self.port}"

    def tcp_url(self, dbname: str, user: str, password: str | None = None) -> str:
        auth = f"{user}:{password}" if password else user
        return f"postgresql://{auth}@127.0.0.1:{self.port}/{dbname}"

    def sql(self, statement: str, dbname: str = "postgres") -> list[tuple]:
        import psycopg

        with psycopg.connect(self.url(dbname), autocommit=True) as conn:
            cur = conn.execute(statement)
            return cur.fetchall() if cur.description else []

    def halt(self) -> None:
        """Stop the server (fast: open connections are cut), keeping its data for `resume`."""
        self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", "fast", "-w", "stop")

    def resume(self) -> None:
        """Start it again after `halt`, with the options it was first started with."""
        self._run("pg_ctl", "-D", str(self.folder / "data"), "-o", self.options, "-l", str(self.folder / "server.log"),
                  "-w", "-t", "60", "start")

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", "immediate", "-w", "stop", check=False)
        shutil.rmtree(self.folder, ignore_errors=True)

    def _run(self, tool: str, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(self.bindir / tool), *args], capture_output=True, text=True, check=check,
                              user=self.user, stdin=subprocess.DEVNULL, timeout=120)


def start() -> Server:
    """A running server; call `stop()` when done (it removes the folder too)."""
    user = _user()
    # as `nobody`, every folder above the server's must be open to it: /tmp is, $TMPDIR may not be
    folder = Path(tempfile.mkdtemp(prefix="referee-pg-", dir="/tmp" if user else None))
    if user is not None:
        os.chown(folder, pwd.getpwnam(user).pw_uid, -1)
    found = bindir()
    assert found is not None, unavailable()
    server = Server(folder, _free_port(), found, user)
    data = str(folder / "data")
    try:
        server._run("initdb", "-D", data, "-U", "postgres", "--auth-local=trust", "--auth-host=scram-sha-256",
                    "-E", "UTF8", "--locale=C.UTF-8", "--no-sync")
        options = server.options = (f"-k {folder} -p {server.port} -c listen_addresses=127.0.0.1 -c fsync=off "
                                    "-c max_connections=40 -c shared_buffers=32MB")
        server._run("pg_ctl", "-D", data, "-o", options, "-l", str(folder / "server.log"), "-w", "-t", "60", "start")
    except subprocess.CalledProcessError as exc:
        log = folder / "server.log"
        detail = log.read_text(errors="replace")[-2000:] if log.is_file() else ""
        shutil.rmtree(folder, ignore_errors=True)
        raise RuntimeError(f"could not start PostgreSQL: {exc.stderr or exc.stdout}{detail}") from None
    _watch(server)
    return server


def _watch(server: Server) -> None:
    """Stop the server and remove its folder once this process is gone, however it ended
    (a test run killed by a timeout never reaches `stop()`; its server would run on)."""
    script = (f'while [ -d /proc/{os.getpid()} ]; do sleep 2; done; '
              f'"{server.bindir}/pg_ctl" -D "{server.folder}/data" -m immediate -w stop; rm -rf "{server.folder}"')
    subprocess.Popen(["sh", "-c", script], user=server.user, start_new_session=True,
                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
