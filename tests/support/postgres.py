"""A real PostgreSQL for tests: Debian's ``postgresql`` package, one throwaway cluster.

:class:`PostgresServer` runs ``initdb`` into a fresh directory and ``pg_ctl start`` on a free
loopback port (and a unix socket in that directory), with password (SCRAM) authentication, so
the URLs the tests use carry a password as a real deployment's do. Durability is off
(``fsync=off``) unless ``durable``: the data is thrown away, and the tests check agentd, not the
disk.

PostgreSQL refuses to run as root. Under root (CI containers) the cluster belongs to the
unprivileged ``nobody`` and every server command runs through ``runuser -u nobody``; the
directory is made under ``/tmp`` (pytest's temp root is private to root) and removed at the end.
Each test gets a database of its own (:meth:`PostgresServer.create_database`).
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

PASSWORD = "s3cret-pg-password"
USER = "agentd"
REQUIRED = os.environ.get("AGENTD_REQUIRE_POSTGRES") == "1"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def server_bindir() -> Path | None:
    """The newest installed ``/usr/lib/postgresql/<major>/bin`` that has ``initdb``."""
    found = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"),
        key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit() else 0,
    )
    if found:
        return found[-1].parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


class PostgresServer:
    """One throwaway PostgreSQL cluster on 127.0.0.1; :meth:`start` returns when it answers."""

    def __init__(self, bindir: Path, *, durable: bool = False) -> None:
        self.bindir = bindir
        self.durable = durable
        self.port = free_port()
        self.root = Path(tempfile.mkdtemp(prefix="agentd-pg-"))
        self.data = self.root / "data"
        self._runas: list[str] = []
        if os.geteuid() == 0:
            nobody = pwd.getpwnam("nobody")
            os.chown(self.root, nobody.pw_uid, nobody.pw_gid)
            self._runas = ["runuser", "-u", "nobody", "--"]

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{USER}:{PASSWORD}@127.0.0.1:{self.port}/{database}"

    def _run(self, *args: str, timeout: float = 60) -> None:
        subprocess.run(
            [*self._runas, *args],
            check=True,
            capture_output=True,
            timeout=timeout,
            cwd=self.root,
        )

    def start(self) -> None:
        pwfile = self.root / "pw"
        pwfile.write_text(PASSWORD + "\n")
        if self._runas:
            nobody = pwd.getpwnam("nobody")
            os.chown(pwfile, nobody.pw_uid, nobody.pw_gid)
        self._run(
            str(self.bindir / "initdb"),
            "-D", str(self.data),
            "-U", USER,
            "--pwfile", str(pwfile),
            "--auth-host=scram-sha-256",
            "--auth-local=scram-sha-256",
            "-E", "UTF8",
            "--no-sync",
        )  # fmt: skip
        # Durable (benchmarks): as crash-safe as SQLite's synchronous=NORMAL, fsync on but no
        # wait for it at each commit. Else (tests) no fsync at all.
        speed = " -c fsync=off -c full_page_writes=off" if not self.durable else ""
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories={self.root}"
            f" -c synchronous_commit=off -c max_connections=300{speed}"
        )
        self._run(
            str(self.bindir / "pg_ctl"),
            "-D", str(self.data),
            "-l", str(self.root / "server.log"),
            "-o", options,
            "-w",
            "start",
        )  # fmt: skip
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port)):
                return
            time.sleep(0.1)
        raise RuntimeError(f"PostgreSQL did not listen on port {self.port}")

    def stop(self) -> None:
        with contextlib.suppress(subprocess.SubprocessError, OSError):
            self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop")
        shutil.rmtree(self.root, ignore_errors=True)

    def create_database(self) -> str:
        """A new empty database; its URL."""
        name = f"t_{uuid.uuid4().hex[:12]}"
        subprocess.run(
            [
                str(self.bindir / "createdb"),
                "-h",
                "127.0.0.1",
                "-p",
                str(self.port),
                "-U",
                USER,
                name,
            ],
            check=True,
            capture_output=True,
            timeout=30,
            env={**os.environ, "PGPASSWORD": PASSWORD},
        )
        return self.url(name)
