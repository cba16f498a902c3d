"""The TLS context of a mail server connection: the system's CAs, plus the server's own CA file
when one is configured; certificates and host names are always checked."""

from __future__ import annotations

import ssl

from agentd.config.email import MailServer


def tls_context(server: MailServer) -> ssl.SSLContext:
    """A client context for ``server`` (OSError/SSLError when its ``ca_file`` is unreadable)."""
    context = ssl.create_default_context()
    if server.ca_file is not None:
        context.load_verify_locations(cafile=str(server.ca_file.expanduser()))
    return context
