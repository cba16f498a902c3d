"""Random interleavings of principals of different tenants, and the check that none reads or
writes another's data (the property tests of tenant isolation drive the API with these).

An example is a list of :class:`Op`: a principal chats in one of two session ids shared by all
principals of the example (so the ids collide across tenants), saves a memory, searches memory
(for its own or another tenant's memory, in words whose embedding is the memory's but that are
not a marker themselves), or sends a stateless request. The stub model is
:func:`tests.support.tenant_agent.tenant_agent`, so whatever the daemon shows it is in the reply.
:class:`Example` turns each op into a request and checks what came back:

- a cross-tenant read: another tenant's marker in the reply or in what the model was sent;
- a cross-tenant write: a stored history row of one tenant holding another tenant's marker;
- and, so the test cannot pass by seeing nothing, a session must show all its own messages and a
  search for one's own memory must find it.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from tests.support.tenant_agent import foreign, marker, own

#: Principal name -> its tenant (letters only: markers carry the tenant's name).
TENANTS = {"alice": "alice", "bob": "bob", "carol": "carol"}
KINDS = ("chat", "chat", "chat", "save", "search", "stateless")


def token(principal: str) -> str:
    return f"{principal}-token"


def principals_config() -> list[dict[str, Any]]:
    """``channels.http.principals`` for :data:`TENANTS` (plain tokens)."""
    return [{"name": p, "tenant": t, "token": token(p)} for p, t in TENANTS.items()]


@dataclass(frozen=True)
class Op:
    principal: str
    kind: str
    session: int
    pick: int


def ops(min_size: int = 10, max_size: int = 15) -> st.SearchStrategy[list[Op]]:
    """A random interleaving of operations of the principals."""
    one = st.builds(
        Op,
        st.sampled_from(sorted(TENANTS)),
        st.sampled_from(KINDS),
        st.integers(0, 1),
        st.integers(0, 1 << 20),
    )
    return st.lists(one, min_size=min_size, max_size=max_size)


@dataclass
class Tally:
    """What all examples of a test did and found."""

    examples: int = 0
    operations: int = 0
    reads_checked: int = 0
    rows_checked: int = 0
    cross_tenant_reads: list[str] = field(default_factory=list)
    cross_tenant_writes: list[str] = field(default_factory=list)
    missing_own: list[str] = field(default_factory=list)
    own_memory_found: int = 0
    foreign_searches: int = 0
    #: Memories each tenant saved so far (searches look for these).
    saved: dict[str, list[str]] = field(default_factory=dict)

    def line(self) -> str:
        return (
            f"tenant isolation: {self.examples} examples, {self.operations} operations "
            f"(generated cases), {self.reads_checked} reads and {self.rows_checked} stored rows "
            f"checked, {self.foreign_searches} searches for another tenant's memory, "
            f"{len(self.cross_tenant_reads)} cross-tenant reads, "
            f"{len(self.cross_tenant_writes)} cross-tenant writes, "
            f"{self.own_memory_found} searches found their own memory"
        )


def seen_by_model(requests: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The messages of chat requests and the inputs of embedding requests the stub got."""
    seen: list[dict[str, Any]] = []
    for request in requests:
        seen.extend(request.get("messages") or [])
        if "input" in request:
            seen.append({"content": str(request["input"])})
    return seen


@dataclass
class Request:
    principal: str
    tenant: str
    text: str
    session: str | None
    kind: str
    wanted: str | None = None  # the memory a search must find


class Example:
    """One generated example: its requests and the checks of their replies."""

    def __init__(self, tally: Tally, run: str) -> None:
        tally.examples += 1
        self.tally = tally
        self.run = run
        self.number = tally.examples
        self.said: dict[tuple[str, str], list[str]] = {}
        #: What was sent so far, for the failure messages.
        self.log: list[tuple[str, str, str | None, str]] = []

    def session_id(self, op: Op) -> str:
        return f"{self.run}e{self.number}s{op.session}"

    def request(self, index: int, op: Op) -> Request:
        tenant = TENANTS[op.principal]
        word = marker(tenant, f"{self.run}e{self.number}o{index}")
        session = self.session_id(op)
        if op.kind == "chat":
            return Request(op.principal, tenant, word, session, op.kind)
        if op.kind == "save":
            return Request(op.principal, tenant, f"SAVE {word}", session, op.kind)
        if op.kind == "stateless":
            return Request(op.principal, tenant, word, None, op.kind)
        everyone = sorted((t, m) for t, saved in self.tally.saved.items() for m in saved)
        if not everyone:
            return Request(op.principal, tenant, "SEARCH nothing", session, op.kind)
        owner, memory = everyone[op.pick % len(everyone)]
        if owner != tenant:
            self.tally.foreign_searches += 1
        # The embedding ignores case; a marker is lower case: the query is no marker itself.
        return Request(
            op.principal,
            tenant,
            f"SEARCH {memory.upper()}",
            session,
            op.kind,
            wanted=memory if owner == tenant else None,
        )

    def check(self, request: Request, reply: str, model_saw: list[dict[str, Any]]) -> None:
        """Count what ``request``'s principal read: its reply and what the model was sent."""
        self.tally.operations += 1
        self.log.append((request.principal, request.kind, request.session, request.text))
        self.tally.reads_checked += 1
        seen = reply + " " + " ".join(str(m.get("content") or "") for m in model_saw)
        for leaked in foreign(seen, request.tenant):
            self.tally.cross_tenant_reads.append(f"{request.principal} read {leaked}: {self.log}")
        if request.session is None:
            if request.text not in reply:
                self.tally.missing_own.append(f"stateless {request.text}")
            return
        said = self.said.setdefault((request.tenant, request.session), [])
        if request.kind in ("chat", "save"):
            said.append(own(request.text, request.tenant)[0])
        for earlier in said:
            if earlier not in reply:
                self.tally.missing_own.append(f"{request.principal} lost {earlier}: {self.log}")
        if request.kind == "save" and "saved memory" in reply:
            self.tally.saved.setdefault(request.tenant, []).append(said[-1])
        if request.wanted is not None:
            if request.wanted in own(reply, request.tenant):
                self.tally.own_memory_found += 1
            else:
                self.tally.missing_own.append(f"{request.principal} searched {request.wanted}")

    def check_rows(self, history: Path) -> None:
        """Every stored row of this example's sessions holds only its own tenant's markers."""
        pattern = f"http:{self.run}e{self.number}s%"
        with sqlite3.connect(f"file:{history}?mode=ro", uri=True) as db:
            rows = db.execute(
                "SELECT tenant, body FROM messages WHERE session_id LIKE ?", (pattern,)
            ).fetchall()
        for tenant, body in rows:
            self.tally.rows_checked += 1
            for leaked in foreign(body, tenant):
                self.tally.cross_tenant_writes.append(f"{tenant} row holds {leaked}")
            if tenant not in TENANTS.values():
                self.tally.cross_tenant_writes.append(f"row of tenant {tenant!r}")

    def assert_clean(self) -> None:
        tally = self.tally
        assert tally.cross_tenant_reads == [], tally.cross_tenant_reads[:5]
        assert tally.cross_tenant_writes == [], tally.cross_tenant_writes[:5]
        assert tally.missing_own == [], tally.missing_own[:5]
