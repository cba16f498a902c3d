"""A real IMAP server for tests: Debian's Dovecot (``dovecot-imapd``), unprivileged, in a temp dir.

:class:`Dovecot` writes its own configuration (no system config is read), keeps every mailbox
as a Maildir under its folder, authenticates users from a passwd-file, and listens on two free
loopback ports: IMAP (plain, or STARTTLS) and IMAPS (implicit TLS), with a certificate for
``127.0.0.1`` made at start (:func:`make_certificate`: the tests trust it as a private CA).
Under root (CI containers) it runs as ``nobody`` through ``runuser`` and every file it must read
is given to ``nobody``; otherwise it runs as the calling user.

:meth:`Dovecot.deliver` puts a mail into a user's Maildir the way a local delivery agent does
(written into ``tmp/``, renamed into ``new/``), so Dovecot sees it as new mail and tells an
IDLE client at once (inotify). :meth:`Dovecot.received` reads a user's Maildir back.
"""

from __future__ import annotations

import contextlib
import email
import email.policy
import grp
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from email.message import EmailMessage
from pathlib import Path

from tests.support.postgres import free_port

DOVECOT = "/usr/sbin/dovecot"
_serial = itertools.count()


def make_certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for ``127.0.0.1`` and ``localhost`` and its key (PEM)."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [
            "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
            "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
            "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
            "-keyout", str(key), "-out", str(cert),
        ],
        check=True,
        capture_output=True,
        timeout=30,
    )  # fmt: skip
    return cert, key


def missing_reason() -> str | None:
    """Why the Dovecot tests cannot run here, or None."""
    if not Path(DOVECOT).exists():
        return "Dovecot is not installed: apt-get install dovecot-imapd (.ci/run does)"
    return None


class Dovecot:
    """One Dovecot on 127.0.0.1; :meth:`start` returns when it accepts connections."""

    def __init__(self) -> None:
        self.port = free_port()
        self.tls_port = free_port()
        self.root = Path(tempfile.mkdtemp(prefix="agentd-dovecot-"))
        self.cert, self.key = self.root / "cert.pem", self.root / "key.pem"
        self._runas: list[str] = []
        if os.geteuid() == 0:
            self.user = pwd.getpwnam("nobody")
            self._runas = ["runuser", "-u", "nobody", "--"]
        else:
            self.user = pwd.getpwuid(os.geteuid())
        self.group = grp.getgrgid(self.user.pw_gid).gr_name
        self.passwd = self.root / "passwd"
        self._users: dict[str, str] = {}

    def _own(self, path: Path) -> None:
        if self._runas:
            os.chown(path, self.user.pw_uid, self.user.pw_gid)

    def _config(self) -> str:
        root, user = self.root, self.user.pw_name
        return f"""
base_dir = {root}/run
state_dir = {root}/state
log_path = {root}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = yes
ssl_cert = <{self.cert}
ssl_key = <{self.key}
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_failure_delay = 0
default_internal_user = {user}
default_internal_group = {self.group}
default_login_user = {user}
mail_location = maildir:{root}/home/%u/Maildir
mailbox_idle_check_interval = 1 secs
imap_idle_notify_interval = 1 secs
service imap-login {{
  chroot =
  inet_listener imap {{
    address = 127.0.0.1
    port = {self.port}
  }}
  inet_listener imaps {{
    address = 127.0.0.1
    port = {self.tls_port}
  }}
}}
service anvil {{
  chroot =
  # No growing delay for logins after a refused one (a test refuses one on purpose).
  unix_listener anvil-auth-penalty {{
    mode = 0
  }}
}}
service stats {{
  unix_listener stats-reader {{
    mode = 0600
  }}
  unix_listener stats-writer {{
    mode = 0600
  }}
}}
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {self.passwd}
}}
userdb {{
  driver = static
  args = uid={self.user.pw_uid} gid={self.user.pw_gid} home={root}/home/%u
}}
"""

    def add_user(self, name: str, password: str) -> None:
        """A mailbox user (Dovecot reads the passwd-file again when it changes)."""
        self._users[name] = password
        lines = "".join(f"{n}:{{PLAIN}}{p}\n" for n, p in self._users.items())
        tmp = self.passwd.with_suffix(".tmp")
        tmp.write_text(lines)
        self._own(tmp)
        tmp.replace(self.passwd)
        home = self.root / "home" / name / "Maildir"
        for sub in ("tmp", "new", "cur"):
            (home / sub).mkdir(parents=True, exist_ok=True)
        for path in (
            self.root / "home",
            home.parent,
            home,
            *(home / s for s in ("tmp", "new", "cur")),
        ):
            self._own(path)

    def start(self) -> None:
        for sub in ("run", "state", "home"):
            (self.root / sub).mkdir(exist_ok=True)
        make_certificate(self.root)
        conf = self.root / "dovecot.conf"
        conf.write_text(self._config())
        self.passwd.touch()
        for path in (
            self.root,
            conf,
            self.passwd,
            self.cert,
            self.key,
            *(self.root / s for s in ("run", "state", "home")),
        ):
            self._own(path)
        # The master forks into the background keeping its stdio: no pipes to wait on.
        subprocess.run(
            [*self._runas, DOVECOT, "-c", str(conf)],
            check=True,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=30,
        )
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port)):
                return
            time.sleep(0.05)
        raise RuntimeError(f"Dovecot did not listen on port {self.port}: {self.log()}")

    def log(self) -> str:
        path = self.root / "dovecot.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def stop(self) -> None:
        pidfile = self.root / "run" / "master.pid"
        with contextlib.suppress(OSError, ValueError):
            pid = int(pidfile.read_text().strip())
            os.kill(pid, 15)
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                os.kill(pid, 0)
                time.sleep(0.05)
        shutil.rmtree(self.root, ignore_errors=True)

    def maildir(self, user: str) -> Path:
        return self.root / "home" / user / "Maildir"

    def deliver(self, user: str, raw: bytes) -> None:
        """Put ``raw`` into ``user``'s inbox as a local delivery agent would."""
        box = self.maildir(user)
        name = f"{time.time():.6f}.agentd{os.getpid()}_{next(_serial)}.test"
        tmp = box / "tmp" / name
        tmp.write_bytes(raw)
        self._own(tmp)
        tmp.rename(box / "new" / name)

    def received(self, user: str) -> list[EmailMessage]:
        """The mail in ``user``'s inbox (new and seen), oldest first."""
        box = self.maildir(user)
        files = [p for sub in ("new", "cur") for p in (box / sub).iterdir() if p.is_file()]
        files.sort(key=lambda p: p.stat().st_mtime_ns)
        found = []
        for path in files:
            msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
            assert isinstance(msg, EmailMessage)
            found.append(msg)
        return found

    def reset_uids(self, user: str, uidvalidity: int) -> None:
        """Make the mailbox number its mail anew under ``uidvalidity``, as a restored mailbox
        does (its indexes dropped, a fresh UID list). Only while no client has it open."""
        box = self.maildir(user)
        for path in box.iterdir():
            if path.is_file() and path.name.startswith("dovecot"):
                path.unlink()
        uidlist = box / "dovecot-uidlist"
        uidlist.write_text(f"3 V{uidvalidity} N1\n")
        self._own(uidlist)
