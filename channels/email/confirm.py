"""Whether a reply cut off mid-send left: its copy in the agent's own mailbox says so.

A reply marked ``sending`` in the ledger (:mod:`channels.email.ledger`) was cut off between
the end of its data and the SMTP server's answer: the server may or may not have taken it.
With ``confirm_sent`` every mail also goes to the agent's own address (envelope only,
:mod:`channels.email.smtp`), so a server that took the reply delivered a copy carrying the
reply's Message-ID (recorded with the reply before sending) to the folder the channel follows.
After a restart :func:`confirmed` searches that folder for each such id (``SEARCH HEADER
Message-ID``), looking again for ``wait`` seconds while some are missing (delivery may lag):
a reply found is done, one not found is sent again, with the same Message-ID.

Sent again only when no copy came within ``wait``: a server that took the mail but delivers
the copy later than that still yields a second reply (which a mail client shows once, since
both carry one Message-ID).
"""

from __future__ import annotations

import anyio

from channels.email.imap import Mailbox

#: Seconds between two searches for the copies still missing.
LOOK_AGAIN = 0.25


async def confirmed(box: Mailbox, ids: dict[str, str], wait: float) -> set[str]:
    """The keys of ``ids`` (ledger key: Message-ID) whose copy is in ``box``'s folder."""
    found: set[str] = set()
    deadline = anyio.current_time() + wait
    while True:
        for key, message_id in ids.items():
            if key not in found and await anyio.to_thread.run_sync(box.has_message_id, message_id):
                found.add(key)
        left = deadline - anyio.current_time()
        if len(found) == len(ids) or left <= 0:
            return found
        await anyio.sleep(min(LOOK_AGAIN, left))
        # A NOOP lets the server announce mail delivered since the folder was selected.
        await anyio.to_thread.run_sync(box.noop)
