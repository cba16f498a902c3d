"""Property: interleaved operations of several scopes never see each other's rows."""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
from hypothesis import given, settings
from hypothesis import strategies as st

from agentd import scope as scopes
from agentd.errors import ScopeMissing
from agentd.memory.history import SQLiteHistory
from agentd.memory.pg_history import PgHistory
from agentd.messages import user
from tests.support.postgres import PostgresServer

SCOPES = (
    scopes.Scope(tenant="t1"),
    scopes.Scope(tenant="t2"),
    scopes.Scope(tenant="t1", app="other"),
    None,  # no scope set: every call must raise and change nothing
)
SESSIONS = ("s0", "s1")
RUNS = ("r0", "r1")
KEYS = ("k0", "k1")

scope_ix = st.integers(0, len(SCOPES) - 1)
session = st.sampled_from(SESSIONS)
text = st.text(min_size=0, max_size=8)
OPS = st.one_of(
    st.tuples(st.just("append"), scope_ix, session, st.lists(text, min_size=1, max_size=3)),
    st.tuples(st.just("load"), scope_ix, session, st.integers(0, 4)),
    st.tuples(st.just("resume"), scope_ix, session),
    st.tuples(st.just("clear"), scope_ix, session),
    st.tuples(st.just("summary"), scope_ix, session, text),
    st.tuples(st.just("summaries"), scope_ix),
    st.tuples(st.just("sessions"), scope_ix),
    st.tuples(
        st.just("save_working"), scope_ix, st.sampled_from(RUNS), st.sampled_from(KEYS), text
    ),
    st.tuples(st.just("load_working"), scope_ix, st.sampled_from(RUNS), st.sampled_from(KEYS)),
    st.tuples(st.just("clear_working"), scope_ix, st.sampled_from(RUNS)),
)


@dataclass
class Model:
    """What each scope must see: its own rows only."""

    messages: dict[tuple[int, str], list[str]] = field(default_factory=dict)
    summary: dict[tuple[int, str], tuple[str, int]] = field(default_factory=dict)
    summaries: dict[int, list[tuple[str, str]]] = field(default_factory=dict)
    working: dict[tuple[int, str, str], str] = field(default_factory=dict)


async def _apply(store: SQLiteHistory | PgHistory, model: Model, op: tuple[Any, ...]) -> None:
    name, ix, *args = op
    kind = "" if SCOPES[ix] is None else str(ix)
    if name == "append":
        sid, texts = args
        await store.save_conversation(sid, [user(f"{kind}:{t}") for t in texts])
        model.messages.setdefault((ix, sid), []).extend(f"{kind}:{t}" for t in texts)
    elif name == "load":
        sid, limit = args
        got = [m.content for m in await store.load_conversation(sid, limit=limit)]
        want = model.messages.get((ix, sid), [])
        assert got == (want[-limit:] if limit else want)
    elif name == "resume":
        (sid,) = args
        got = [m.content for m in await store.resume(sid)]
        want = model.messages.get((ix, sid), [])
        if (ix, sid) in model.summary:
            summary, upto = model.summary[(ix, sid)]
            want = [summary, *want[upto:]]
        assert got == want
    elif name == "clear":
        (sid,) = args
        assert await store.clear_conversation(sid) == len(model.messages.pop((ix, sid), []))
        model.summary.pop((ix, sid), None)
        model.summaries[ix] = [s for s in model.summaries.get(ix, []) if s[0] != sid]
    elif name == "summary":
        sid, summary = args
        await store.save_summary(summary, session_id=sid)
        model.summary[(ix, sid)] = (summary, len(model.messages.get((ix, sid), [])))
        model.summaries.setdefault(ix, []).append((sid, summary))
    elif name == "summaries":
        assert await store.load_summaries() == [s for _, s in model.summaries.get(ix, [])]
    elif name == "sessions":
        got = {(s.session_id, s.messages) for s in await store.list_sessions()}
        assert got == {(sid, len(m)) for (i, sid), m in model.messages.items() if i == ix and m}
    elif name == "save_working":
        run, key, value = args
        await store.save_working(run, key, value)
        model.working[(ix, run, key)] = value
    elif name == "load_working":
        run, key = args
        assert await store.load_working(run, key) == model.working.get((ix, run, key))
    elif name == "clear_working":
        (run,) = args
        await store.clear_working(run)
        model.working = {k: v for k, v in model.working.items() if k[:2] != (ix, run)}


async def _check(ops: list[tuple[Any, ...]], pg_url: str | None = None) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        opened = PgHistory.open(pg_url) if pg_url else SQLiteHistory.open(Path(tmp) / "h.db")
        async with opened as store:
            if isinstance(store, PgHistory):  # one database for every example: start empty
                await store.pool.execute("TRUNCATE messages, summaries, working")
            model = Model()
            for op in ops:
                scope = SCOPES[op[1]]
                if scope is None:
                    try:
                        await _apply(store, Model(), op)
                    except ScopeMissing:
                        continue
                    raise AssertionError(f"{op[0]} ran without a scope")
                with scopes.use(scope):
                    await _apply(store, model, op)
            # Finally every scope reads back exactly its own state.
            for ix, scope in enumerate(SCOPES[:-1]):
                with scopes.use(scope):
                    for sid in SESSIONS:
                        await _apply(store, model, ("load", ix, sid, 0))
                        await _apply(store, model, ("resume", ix, sid))
                    for run in RUNS:
                        for key in KEYS:
                            await _apply(store, model, ("load_working", ix, run, key))
                    await _apply(store, model, ("summaries", ix))


@settings(max_examples=60, deadline=None)
@given(st.lists(OPS, max_size=30))
def test_scopes_never_see_each_others_rows(ops: list[tuple[Any, ...]]) -> None:
    """Random interleavings across three scopes: each reads only its own rows; none without."""
    anyio.run(_check, ops)


@settings(max_examples=40, deadline=None)
@given(ops=st.lists(OPS, max_size=30))
def test_scopes_never_see_each_others_rows_on_postgres(
    postgres: PostgresServer, ops: list[tuple[Any, ...]]
) -> None:
    """The same property on PostgreSQL (one database, emptied for each example)."""
    anyio.run(_check, ops, _database(postgres))


_DATABASES: dict[int, str] = {}


def _database(postgres: PostgresServer) -> str:
    """One database of the session's PostgreSQL for every example of the property."""
    if id(postgres) not in _DATABASES:
        _DATABASES[id(postgres)] = postgres.create_database()
    return _DATABASES[id(postgres)]
