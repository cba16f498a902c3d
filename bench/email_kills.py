"""Exactly once under ``kill -9``: the email channel of a real ``agentd run``, killed again and
again while mail arrives, must answer every mail once.

Each round starts the daemon (stub model answering after ``--latency`` seconds), puts a few mails
into the agent's mailbox (real Dovecot), and SIGKILLs the daemon at a random instant within
``--window`` seconds: before, during or after turns and sends (``turns`` above ``mails`` are
turns cut off by a kill and run again). After the last round a final
daemon answers what is left. Each mail's replies are counted by their In-Reply-To at the real
SMTP submission server (aiosmtpd on loopback). ``confirmed`` and ``resent`` count the replies
cut off mid-send that a restart found by their copy, or sent again; ``unconfirmed`` those given
up (``channels.email.confirm_sent`` off).

Run: .venv/bin/python -m bench.email_kills [--kills 20]   (needs dovecot-imapd; prints a table)
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

from tests.support.dovecot import Dovecot, missing_reason
from tests.support.stub_llm import running_stub
from tests.support.submission import Accepted, Submission

AGENT, PERSON = "agent@agent.test", "you@example.org"
MX = "mx.example.org"


def _mail(n: int) -> tuple[str, bytes]:
    msg = EmailMessage()
    msg["Authentication-Results"] = f"{MX}; dmarc=pass header.from=example.org"
    msg["From"], msg["To"], msg["Subject"] = PERSON, AGENT, f"Question {n}"
    msg["Message-ID"] = make_msgid(domain="example.org")
    msg.set_content(f"question {n}")
    return str(msg["Message-ID"]).strip("<>"), bytes(msg)


def _config(root: Path, llm_url: str, dovecot: Dovecot, submission: Submission) -> Path:
    email = {
        "enabled": True,
        "address": AGENT,
        "imap": {"host": "127.0.0.1", "port": dovecot.port, "security": "none",
                 "username": "agent", "poll_interval": 0.5},
        "smtp": {"host": "127.0.0.1", "port": submission.port, "security": "none",
                 "username": submission.username},
        "allow_from": [PERSON],
        "trusted_authserv_ids": [MX],
        "backoff_initial": 0.1,
        "backoff_max": 1.0,
    }  # fmt: skip
    config = {
        "workdir": str(root / "workdir"),
        "state_dir": str(root / "state"),
        "llm": {"base_url": llm_url, "max_retries": 0},
        "memory": {"embed": False},
        "cron": {"enabled": False},
        "log": {"format": "json"},
        "channels": {"email": email},
    }
    (root / "workdir").mkdir(parents=True, exist_ok=True)
    path = root / "config.json"
    path.write_text(json.dumps(config))
    return path


def _start(config: Path, log: Path, submission: Submission) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGENTD_")}
    env["AGENTD_CHANNELS__EMAIL__IMAP__PASSWORD"] = "pw-agent"
    env["AGENTD_CHANNELS__EMAIL__SMTP__PASSWORD"] = submission.password
    with log.open("ab") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "agentd", "--config", str(config), "run"],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
        )


def _following(state: Path) -> bool:
    try:
        return json.loads(state.read_text()).get("uidvalidity") is not None
    except (OSError, ValueError):
        return False


def run(kills: int, per_round: int, window: float, latency: float, seed: int) -> None:
    rng = random.Random(seed)
    dovecot = Dovecot()
    dovecot.start()
    dovecot.add_user("agent", "pw-agent")
    dovecot.add_user("you", "pw-you")
    submission = Submission(dovecot)
    submission.start()
    sent: list[str] = []
    try:
        with running_stub(latency=latency) as stub, tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            config = _config(root, stub.url, dovecot, submission)
            state, log = root / "state" / "email.json", root / "daemon.log"
            started = time.monotonic()
            for round_ in range(kills + 1):
                proc = _start(config, log, submission)
                if round_ == 0:  # the first start follows the mailbox from its next UID
                    while not _following(state):
                        time.sleep(0.02)
                if round_ < kills:
                    for _ in range(per_round):
                        message_id, raw = _mail(len(sent))
                        sent.append(message_id)
                        dovecot.deliver("agent", raw)
                    time.sleep(rng.uniform(0.0, window))
                    proc.send_signal(signal.SIGKILL)
                    proc.wait(timeout=10)
                    continue
                deadline = time.monotonic() + 60
                while _answered(submission) < len(sent) and time.monotonic() < deadline:
                    time.sleep(0.1)
                time.sleep(1.0)  # room for a duplicate to show up
                proc.send_signal(signal.SIGTERM)
                proc.wait(timeout=30)
            elapsed = time.monotonic() - started
            logged = log.read_text(errors="replace")
            unconfirmed = logged.count("email.reply_unconfirmed")
            confirmed = logged.count("email.reply_confirmed")
            resent = logged.count("email.reply_resent")
            turns = len(stub.requests)
    finally:
        submission.stop()
        dovecot.stop()
    replies = Counter(_in_reply_to(item) for item in submission.accepted)
    duplicates = sum(1 for m in sent if replies[m] > 1)
    lost = sum(1 for m in sent if replies[m] == 0)
    print(f"{'kills':>5} {'mails':>5} {'turns':>5} {'replies':>7} {'duplicated':>10} {'lost':>4} "
          f"{'confirmed':>9} {'resent':>6} {'unconfirmed':>11} {'seconds':>7}")  # fmt: skip
    print(f"{kills:>5} {len(sent):>5} {turns:>5} {len(submission.accepted):>7} {duplicates:>10} "
          f"{lost:>4} {confirmed:>9} {resent:>6} {unconfirmed:>11} {elapsed:>7.1f}")  # fmt: skip


def _in_reply_to(item: Accepted) -> str:
    for line in item.data.split(b"\r\n\r\n", 1)[0].split(b"\r\n"):
        if line.lower().startswith(b"in-reply-to:"):
            return line.split(b":", 1)[1].strip().decode().strip("<>")
    return ""


def _answered(submission: Submission) -> int:
    return len({_in_reply_to(item) for item in submission.accepted})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--per-round", type=int, default=3)
    parser.add_argument("--window", type=float, default=2.0, help="seconds; the kill falls in it")
    parser.add_argument("--latency", type=float, default=0.2, help="the stub model's, seconds")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    reason = missing_reason()
    if reason is not None:
        raise SystemExit(reason)
    run(args.kills, args.per_round, args.window, args.latency, args.seed)


if __name__ == "__main__":
    main()
