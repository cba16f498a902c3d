"""Fire-to-inbox delay of a reminder sent by email: from a task's due instant to the mail in the
recipient's mailbox.

The daemon's own pieces run in this process (the app on the stub model, its channels built as
``agentd run`` builds them: the task scheduler and the email channel); the mail servers are real
and on loopback: Debian's Dovecot (IMAP) and an aiosmtpd submission server delivering into its
Maildirs. Each round adds a one-shot task due at the next whole second (tasks are due at whole
seconds) with the email address as its origin, and records when the mail reached the Maildir.

Run: .venv/bin/python -m bench.email_delay [--rounds 20]   (needs dovecot-imapd; prints a table)
"""

from __future__ import annotations

import argparse
import datetime as dt
import statistics
import tempfile
import time
from contextlib import AsyncExitStack
from pathlib import Path

import anyio

from agentd import scope as scopes
from agentd.config import Settings
from agentd.cron.tasks import When
from agentd.cron.ticklog import iso
from agentd.daemon.app import build_channels, open_app
from agentd.origin import Origin
from tests.support.dovecot import Dovecot, missing_reason
from tests.support.stub_llm import Reply, running_stub
from tests.support.submission import Submission

AGENT, PERSON = "agent@agent.test", "you@example.org"


async def measure(rounds: int) -> list[float]:
    """The delays of ``rounds`` reminders, in seconds."""
    dovecot = Dovecot()
    dovecot.start()
    submission = Submission(dovecot)
    arrived: list[float] = []
    submission.on_data = lambda item: arrived.append(time.time())
    submission.start()
    dovecot.add_user("agent", "pw-agent")
    dovecot.add_user("you", "pw-you")
    try:
        with running_stub() as stub, tempfile.TemporaryDirectory() as tmp:
            stub.fallback = lambda body: Reply(text="Time to stretch.")
            return await _rounds(Path(tmp), stub.url, dovecot, submission, arrived, rounds)
    finally:
        submission.stop()
        dovecot.stop()


async def _rounds(
    root: Path,
    llm_url: str,
    dovecot: Dovecot,
    submission: Submission,
    arrived: list[float],
    rounds: int,
) -> list[float]:
    (root / "workdir").mkdir()
    email = {
        "enabled": True,
        "address": AGENT,
        "imap": {"host": "127.0.0.1", "port": dovecot.port, "security": "none",
                 "username": "agent", "password": "pw-agent"},
        "smtp": {"host": "127.0.0.1", "port": submission.port, "security": "none",
                 "username": submission.username, "password": submission.password},
        "allow_from": [PERSON],
        "trusted_authserv_ids": ["mx.example.org"],
    }  # fmt: skip
    settings = Settings(
        workdir=root / "workdir",
        state_dir=root / "state",
        llm={"base_url": llm_url, "max_retries": 0},
        memory={"embed": False},
        channels={"email": email},
    )
    delays: list[float] = []
    async with (
        open_app(settings) as app,
        AsyncExitStack() as stack,
        anyio.create_task_group() as tg,
    ):
        assert app.tasks is not None
        for channel in build_channels(app, {}):
            await stack.enter_async_context(channel)
            await tg.start(channel.serve, app.runtime)
        for n in range(rounds):
            due = dt.datetime.now(dt.UTC).replace(microsecond=0) + dt.timedelta(seconds=2)
            with scopes.use(scopes.Scope(tenant=f"email:{PERSON}")):
                await app.tasks.add(
                    f"Remind me to stretch ({n}).",
                    When("at", iso(due), None),
                    Origin("email", PERSON, None),
                    created_by="bench",
                )
            with anyio.fail_after(30):
                while len(arrived) <= n:  # noqa: ASYNC110
                    await anyio.sleep(0.005)
            delays.append(arrived[n] - due.timestamp())
        tg.cancel_scope.cancel()
    assert len(dovecot.received("you")) == rounds
    return delays


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    reason = missing_reason()
    if reason is not None:
        raise SystemExit(reason)
    delays = anyio.run(measure, args.rounds)
    ms = sorted(d * 1000 for d in delays)
    p50 = statistics.median(ms)
    p90 = ms[max(0, int(len(ms) * 0.9) - 1)]
    print(f"{'reminders':>9} {'p50 ms':>8} {'p90 ms':>8} {'max ms':>8} {'target p50':>10}")
    print(f"{len(ms):>9} {p50:>8.0f} {p90:>8.0f} {ms[-1]:>8.0f} {'<= 2000':>10}")


if __name__ == "__main__":
    main()
