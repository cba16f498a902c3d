"""The mailbox over IMAP: the standard library's ``imaplib``, one connection, in a worker thread.

:class:`Mailbox` is blocking; the channel calls each method through ``anyio.to_thread`` and
never two at once. IDLE (RFC 2177) is split so that the wait itself happens in the event loop:
:meth:`Mailbox.idle_start` sends ``IDLE`` and returns the socket, the channel awaits it readable
(cancellable, bounded by ``idle_timeout``), and :meth:`Mailbox.idle_done` ends the IDLE and
says whether new mail arrived. Library errors leave as :class:`~agentd.errors.EmailError`,
whose message never holds the password.
"""

from __future__ import annotations

import imaplib
import io
import re
import socket
import ssl
from dataclasses import dataclass

from agentd.config import EmailSettings
from agentd.errors import EmailError
from channels.email.tls import tls_context

_UIDVALIDITY = re.compile(rb"UIDVALIDITY (\d+)")
_UIDNEXT = re.compile(rb"UIDNEXT (\d+)")
_SIZE = re.compile(rb"UID (\d+) RFC822\.SIZE (\d+)|RFC822\.SIZE (\d+) UID (\d+)")
_IDLE_TAG = b"AGENTDIDLE"
#: What a Message-ID the agent made may hold (``make_msgid``): searched for, quoted.
_SAFE_ID = re.compile(r"[A-Za-z0-9.!#$%&'*+/=?^_`{|}~@-]{1,250}")


@dataclass(frozen=True, slots=True)
class Selected:
    """The mailbox as selected: its UIDVALIDITY, the next UID it will give, IDLE support."""

    uidvalidity: int
    uidnext: int
    idle: bool


def _quoted(mailbox: str) -> str:
    return '"' + mailbox.replace("\\", "\\\\").replace('"', '\\"') + '"'


class Mailbox:
    """One logged-in IMAP connection with the configured folder selected."""

    def __init__(self, settings: EmailSettings) -> None:
        self._settings = settings.imap
        self._port = settings.port_of("imap")
        self._conn: imaplib.IMAP4 | None = None
        self._idling = False

    @property
    def conn(self) -> imaplib.IMAP4:
        if self._conn is None:
            raise EmailError("imap", "not connected")
        return self._conn

    def open(self) -> Selected:
        """Connect, log in and select the folder."""
        cfg = self._settings
        try:
            if cfg.security == "tls":
                conn: imaplib.IMAP4 = imaplib.IMAP4_SSL(
                    cfg.host, self._port, ssl_context=tls_context(cfg), timeout=cfg.timeout
                )
            else:
                conn = imaplib.IMAP4(cfg.host, self._port, timeout=cfg.timeout)
                if cfg.security == "starttls":
                    conn.starttls(tls_context(cfg))
            self._conn = conn
            password = cfg.secret()
            conn.login(cfg.username, password)
            status, data = conn.select(_quoted(cfg.mailbox))
            if status != "OK":
                raise EmailError("imap select", f"cannot open folder {cfg.mailbox!r}")
            status, data = conn.status(_quoted(cfg.mailbox), "(UIDVALIDITY UIDNEXT)")
        except (imaplib.IMAP4.error, OSError, ssl.SSLError) as exc:
            self.close()
            raise EmailError("imap login", _describe(exc, cfg.username)) from None
        except BaseException:
            self.close()
            raise
        found = b" ".join(d for d in data if isinstance(d, bytes))
        validity, uidnext = _UIDVALIDITY.search(found), _UIDNEXT.search(found)
        if validity is None or uidnext is None:
            self.close()
            raise EmailError("imap status", "the server gave no UIDVALIDITY/UIDNEXT")
        return Selected(int(validity.group(1)), int(uidnext.group(1)), "IDLE" in conn.capabilities)

    def uids_after(self, last_uid: int) -> list[int]:
        """UIDs of the folder's messages above ``last_uid``, ascending."""
        return [u for u in self._search("UID", f"{last_uid + 1}:*") if u > last_uid]

    def unseen(self) -> list[int]:
        """UIDs of messages not flagged \\Seen, ascending."""
        return self._search("UNSEEN")

    def has_message_id(self, message_id: str) -> bool:
        """Whether a message of the folder carries ``message_id`` (without brackets)."""
        if not message_id or not _SAFE_ID.fullmatch(message_id):
            return False  # not one of the agent's ids: nothing to search for
        return bool(self._search("HEADER", "Message-ID", _quoted(f"<{message_id}>")))

    def _search(self, *criteria: str) -> list[int]:
        try:
            status, data = self.conn.uid("SEARCH", *criteria)
        except (imaplib.IMAP4.error, OSError) as exc:
            raise EmailError("imap search", str(exc)) from None
        if status != "OK":
            raise EmailError("imap search", "refused")
        words = b" ".join(d for d in data if isinstance(d, bytes)).split()
        return sorted(int(w) for w in words if w.isdigit())

    def size(self, uid: int) -> int | None:
        """The size of message ``uid`` in bytes, None when it is gone."""
        for item in self._fetch(uid, "(RFC822.SIZE)"):
            head = item[0] if isinstance(item, tuple) else item
            found = _SIZE.search(head) if isinstance(head, bytes) else None
            if found is not None:
                a, b, c, d = found.groups()
                if int(a or d) == uid:
                    return int(b or c)
        return None

    def fetch(self, uid: int) -> bytes | None:
        """The raw bytes of message ``uid`` (flagged \\Seen by the fetch), None when gone."""
        for item in self._fetch(uid, "(BODY[])"):
            if isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], bytes):
                return item[1]
        return None

    def _fetch(self, uid: int, what: str) -> list[object]:
        try:
            status, data = self.conn.uid("FETCH", str(uid), what)
        except (imaplib.IMAP4.error, OSError) as exc:
            raise EmailError("imap fetch", str(exc)) from None
        if status != "OK":
            raise EmailError("imap fetch", "refused")
        return [d for d in data if d is not None]

    def idle_start(self) -> socket.socket:
        """Send IDLE; the socket to wait on. EmailError when the server refuses it."""
        conn = self.conn
        try:
            conn.send(_IDLE_TAG + b" IDLE\r\n")
            line = conn.readline()
        except OSError as exc:
            raise EmailError("imap idle", str(exc)) from None
        if not line.startswith(b"+"):
            raise EmailError("imap idle", "refused by the server", permanent=True)
        self._idling = True
        return conn.socket()

    def pending(self) -> bool:
        """Whether the server's words wait already, read off the socket (in imaplib's buffer,
        or the TLS layer's) where a wait on the socket would not see them: an ``EXISTS`` sent
        right behind ``+ idling`` is."""
        conn = self.conn
        sock = conn.socket()
        if isinstance(sock, ssl.SSLSocket) and sock.pending() > 0:
            return True
        # peek() reads from the socket only when its buffer is empty; made non-blocking, that
        # read returns at once.
        buffered = conn.file
        if not isinstance(buffered, io.BufferedReader):
            return False
        sock.setblocking(False)
        try:
            return bool(buffered.peek(1))
        except (BlockingIOError, ssl.SSLWantReadError):
            return False
        except OSError as exc:
            raise EmailError("imap idle", str(exc)) from None
        finally:
            sock.settimeout(self._settings.timeout)

    def idle_done(self) -> bool:
        """End the IDLE; whether the server announced new mail meanwhile."""
        conn = self.conn
        news = False
        try:
            conn.send(b"DONE\r\n")
            self._idling = False
            while True:
                line = conn.readline()
                if not line:
                    raise EmailError("imap idle", "the server closed the connection")
                if line.startswith(_IDLE_TAG):
                    break
                news = news or b"EXISTS" in line.upper() or b"RECENT" in line.upper()
        except OSError as exc:
            raise EmailError("imap idle", str(exc)) from None
        return news

    def noop(self) -> None:
        """Check that the connection still works."""
        try:
            self.conn.noop()
        except (imaplib.IMAP4.error, OSError) as exc:
            raise EmailError("imap noop", str(exc)) from None

    def close(self) -> None:
        """Log out (best effort) and close the connection."""
        conn, self._conn = self._conn, None
        if conn is None:
            return
        try:
            if self._idling:
                conn.send(b"DONE\r\n")
            conn.logout()
        except (imaplib.IMAP4.error, OSError, ssl.SSLError):
            try:
                conn.shutdown()
            except OSError:
                pass


def _describe(exc: BaseException, username: str) -> str:
    """What went wrong, for a log line (the password never; the server's words may be)."""
    text = str(exc) or type(exc).__name__
    if isinstance(exc, imaplib.IMAP4.error) and "auth" in text.lower():
        return f"login as {username!r} refused: check channels.email.imap.username/password"
    return text
