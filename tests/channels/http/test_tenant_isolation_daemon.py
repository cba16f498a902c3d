"""Issue #16 through the real daemon: two principals of two tenants, one ``X-Session-Id``.

A subprocess ``agentd run`` with long-term memory (Milvus Lite) on the loopback stub model, which
echoes what it is sent (:mod:`tests.support.tenant_agent`), driven with the official ``openai``
client. Before principals, B's request with A's session id recalled A's secret, B wrote into A's
session, B's ``memory_search`` returned A's memory and every history row had tenant ``default``.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import openai
import pytest
from hypothesis import HealthCheck, Phase, given, settings

from agentd.model.sidecar import free_port
from tests.support.daemon import ready_daemon, write_config
from tests.support.isolation import TENANTS, Example, Op, Tally, ops, seen_by_model, token
from tests.support.stub_llm import StubLLM, running_stub
from tests.support.tenant_agent import foreign, marker, own, tenant_agent


@dataclass
class Daemon:
    stub: StubLLM
    url: str
    history: Path
    tally: Tally
    state: Path

    def client(self, principal: str) -> openai.OpenAI:
        return openai.OpenAI(
            base_url=f"{self.url}/v1", api_key=token(principal), max_retries=0, timeout=30
        )

    def say(self, principal: str, text: str, session: str | None) -> tuple[str, list[Any]]:
        """``principal`` sends ``text`` (in ``session``); its reply and what the model saw."""
        before = len(self.stub.requests)
        headers = {"X-Session-Id": session} if session is not None else None
        with self.client(principal) as client:
            reply = client.chat.completions.create(
                model="agentd",
                messages=[{"role": "user", "content": text}],
                extra_headers=headers,
            )
        return reply.choices[0].message.content or "", seen_by_model(self.stub.requests[before:])


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    """The daemon with principals alice (a sha256: token), bob and carol, for the module."""
    tmp = tmp_path_factory.mktemp("tenants-daemon")
    principals = [
        {"name": p, "tenant": t, "token": token(p)} for p, t in TENANTS.items() if p != "alice"
    ]
    digest = hashlib.sha256(token("alice").encode()).hexdigest()
    principals.append({"name": "alice", "tenant": "alice", "token": f"sha256:{digest}"})
    port = free_port()
    with running_stub(embed_dim=256) as stub:
        stub.fallback = tenant_agent
        config = write_config(
            tmp / "config.json",
            tmp,
            stub.url,
            memory={"embed": True},
            channels={
                "http": {
                    "enabled": True,
                    "port": port,
                    "principals": principals,
                    # Random interleavings may give one principal many requests in a row.
                    "rate_limit": {"requests_per_minute": 0},
                }
            },
            cron={"enabled": False},
            # Nobody reads the daemon's output pipe while it serves: an info line per turn
            # would fill it and block the daemon after a few hundred turns.
            log={"level": "warning"},
        )
        with ready_daemon(config, tmp / "notify.sock"):
            state = tmp / "state"
            yield Daemon(stub, f"http://127.0.0.1:{port}", state / "history.db", Tally(), state)


def _rows(history: Path, session: str) -> list[tuple[str, str]]:
    with sqlite3.connect(f"file:{history}?mode=ro", uri=True) as db:
        return db.execute(
            "SELECT tenant, body FROM messages WHERE session_id = ?", (session,)
        ).fetchall()


def test_the_issue_reproduction(running: Daemon) -> None:
    """B, sending A's X-Session-Id, sees none of A's history and none of A's memories, writes
    nothing A sees; each history row carries its principal's tenant."""
    secret, memory = marker("alice", "secret"), marker("alice", "memory")
    reply, _ = running.say("alice", f"my secret is {secret}", "s1")
    assert secret in reply
    reply, _ = running.say("alice", f"SAVE {memory}", "s1")
    assert "saved memory" in reply

    injected = marker("bob", "injected")
    reply, model_saw = running.say("bob", f"what is my secret? {injected}", "s1")
    assert foreign(reply, "bob") == [] and foreign(str(model_saw), "bob") == []
    assert secret not in str(model_saw) and memory not in str(model_saw)
    # The same embedding as alice's memory, and no marker: only a leak could find it.
    reply, model_saw = running.say("bob", f"SEARCH {memory.upper()}", "s1")
    assert "no memories found" in reply
    assert foreign(reply, "bob") == [] and foreign(str(model_saw), "bob") == []

    reply, model_saw = running.say("alice", "and now?", "s1")
    assert secret in reply and injected not in reply and foreign(str(model_saw), "alice") == []
    reply, _ = running.say("alice", f"SEARCH {memory.upper()}", "s2")
    assert memory in own(reply, "alice")

    rows = _rows(running.history, "http:s1")
    assert {tenant for tenant, _ in rows} == {"alice", "bob"}
    assert all(foreign(body, tenant) == [] for tenant, body in rows)


def test_metrics_for_the_generated_token_not_for_principals(running: Daemon) -> None:
    """With principals and no tokens the daemon still generates its token, an admin: it reads
    /metrics; a principal that is not an admin gets 403 in the OpenAI error shape."""
    owner = (running.state / "http.token").read_text().strip()
    with httpx.Client(base_url=running.url, timeout=30) as http:
        ok = http.get("/metrics", headers={"Authorization": f"Bearer {owner}"})
        refused = http.get("/metrics", headers={"Authorization": f"Bearer {token('bob')}"})
    assert ok.status_code == 200 and "agentd_" in ok.text
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "admin_only"


EXAMPLES = int(os.environ.get("AGENTD_ISOLATION_EXAMPLES", "6"))


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    phases=(Phase.explicit, Phase.generate),
    suppress_health_check=[HealthCheck.too_slow],
)
@given(steps=ops(min_size=8, max_size=10))
def _daemon_example(running: Daemon, steps: list[Op]) -> None:
    example = Example(running.tally, "d")
    for index, op in enumerate(steps):
        request = example.request(index, op)
        reply, model_saw = running.say(request.principal, request.text, request.session)
        example.check(request, reply, model_saw)
    example.check_rows(running.history)
    example.assert_clean()


@pytest.mark.timeout(120 + 2 * EXAMPLES)
def test_random_interleavings_through_the_daemon(
    running: Daemon, record_property: pytest.RecordProperty, capsys: pytest.CaptureFixture[str]
) -> None:
    """A few dozen random operations of three principals through the daemon: no cross-tenant
    read or write, and each session sees all of its own messages."""
    _daemon_example(running)
    tally = running.tally
    record_property("daemon_generated_cases", tally.operations)
    with capsys.disabled():
        sys.stderr.write(f"\n(daemon) {tally.line()}\n")
    assert tally.operations >= 48 and tally.cross_tenant_reads == []
