"""The history store: round trips, scopes, strict decoding, migrations, concurrency.

The ``store`` tests run on SQLite and on a real PostgreSQL, with the same assertions."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import closing
from pathlib import Path
from typing import Any

import anyio
import pytest

from agentd import scope as scopes
from agentd.errors import HistoryError, ScopeMissing, StoredRowError
from agentd.memory.history import SCHEMA_VERSION, SQLiteHistory
from agentd.memory.pg_history import PgHistory
from agentd.messages import Message, ToolCall, assistant, tool_result, user
from agentd.store.pg import dollar

pytestmark = pytest.mark.anyio

ALICE = scopes.Scope(tenant="alice")
BOB = scopes.Scope(tenant="bob")


Store = SQLiteHistory | PgHistory


@pytest.fixture(params=["sqlite", "postgres"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    """An open history store on SQLite, and on the session's PostgreSQL."""
    if request.param == "sqlite":
        async with SQLiteHistory.open(tmp_path / "history.db") as opened:
            yield opened
    else:
        url = request.getfixturevalue("pg_url")
        async with PgHistory.open(url) as pg:
            yield pg


async def raw(store: Store, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    """Run SQL (``?`` placeholders) on the store's database behind its back, as damage does."""
    if isinstance(store, PgHistory):
        return [tuple(r) for r in await store.pool.fetch(dollar(sql), *args)]
    with closing(sqlite3.connect(store.path)) as db, db:
        return db.execute(sql, args).fetchall()


def _exchange() -> list[Message]:
    call = ToolCall("call_0", "current_time", '{"timezone": "UTC"}')
    return [assistant("", [call]), tool_result(call, "12:00")]


async def test_messages_round_trip_in_order(store: Store) -> None:
    """Saved messages come back equal and in order, tool calls and metadata included."""
    messages = [user("hi"), *_exchange(), assistant("done")]
    messages[-1].metadata["k"] = [1, "two"]
    with scopes.use(ALICE):
        await store.save_conversation("s1", messages[:1])
        await store.save_conversation("s1", messages[1:])
        assert await store.load_conversation("s1") == messages
        assert await store.load_conversation("s1", limit=2) == messages[-2:]
        assert await store.load_conversation("other") == []


async def test_clear_removes_messages_and_summaries(store: Store) -> None:
    """Clearing a session deletes its rows and its summaries, and nothing of other sessions."""
    with scopes.use(ALICE):
        await store.save_conversation("s1", [user("a"), user("b")])
        await store.save_conversation("s2", [user("c")])
        await store.save_summary("sum", session_id="s1")
        assert await store.clear_conversation("s1") == 2
        assert await store.load_conversation("s1") == []
        assert await store.resume("s1") == []
        assert await store.load_summaries("s1") == []
        assert [m.content for m in await store.load_conversation("s2")] == ["c"]


async def test_working_memory_set_overwrite_clear(store: Store) -> None:
    """Working values round-trip as JSON, overwrite per key and clear per run."""
    with scopes.use(ALICE):
        assert await store.load_working("r1", "plan") is None
        await store.save_working("r1", "plan", {"steps": [1, 2]})
        await store.save_working("r1", "plan", {"steps": [3]})
        await store.save_working("r2", "plan", "other run")
        assert await store.load_working("r1", "plan") == {"steps": [3]}
        await store.clear_working("r1")
        assert await store.load_working("r1", "plan") is None
        assert await store.load_working("r2", "plan") == "other run"
        with pytest.raises(ValueError, match="JSON"):
            await store.save_working("r1", "bad", object())


async def test_resume_is_latest_summary_then_tail(store: Store) -> None:
    """resume returns the newest summary followed by the rows it was saved with, then later ones."""
    old = [user(f"m{i}") for i in range(6)]
    with scopes.use(ALICE):
        await store.save_conversation("s", old)
        summary = assistant("Summary: m0..m3")
        summary.metadata["summary"] = True
        await store.save_summary(summary, session_id="s", tail=old[4:])
        later = [user("m6"), assistant("m7")]
        await store.save_conversation("s", later)
        resumed = await store.resume("s")
        assert resumed == [summary, *old[4:], *later]
        assert await store.resume("s", limit=2) == [summary, *later]
        assert await store.load_summaries("s") == ["Summary: m0..m3"]
        assert await store.load_summaries() == ["Summary: m0..m3"]


async def test_summary_with_empty_tail_keeps_only_later_rows(store: Store) -> None:
    """A summary saved with no tail is followed only by messages written after it."""
    with scopes.use(ALICE):
        await store.save_conversation("s", [user("old")])
        await store.save_summary("everything so far", session_id="s")
        await store.save_conversation("s", [user("new")])
        assert [m.content for m in await store.resume("s")] == ["everything so far", "new"]


async def test_summary_with_wrong_tail_is_refused(store: Store) -> None:
    """A tail that is not the newest stored messages is refused and nothing is saved."""
    with scopes.use(ALICE):
        await store.save_conversation("s", [user("a"), user("b")])
        with pytest.raises(HistoryError, match="not the newest stored"):
            await store.save_summary("x", session_id="s", tail=[user("a")])
        assert await store.load_summaries("s") == []


async def test_rows_of_one_scope_are_invisible_to_another(store: Store) -> None:
    """The same session, run and key under two scopes never see or clobber each other."""
    with scopes.use(ALICE):
        await store.save_conversation("s", [user("alice's")])
        await store.save_working("run", "k", "alice")
        await store.save_summary("alice summary", session_id="s")
    with scopes.use(BOB):
        assert await store.load_conversation("s") == []
        assert await store.resume("s") == []
        assert await store.load_working("run", "k") is None
        assert await store.load_summaries() == []
        assert await store.list_sessions() == []
        await store.save_working("run", "k", "bob")
        await store.clear_working("run")
        assert await store.clear_conversation("s") == 0
    with scopes.use(scopes.Scope(tenant="alice", app="other")):
        assert await store.load_conversation("s") == []
    with scopes.use(ALICE):
        assert [m.content for m in await store.load_conversation("s")] == ["alice's"]
        assert await store.load_working("run", "k") == "alice"
        assert await store.load_summaries("s") == ["alice summary"]


CALLS: list[tuple[str, Callable[[Store], Awaitable[Any]]]] = [
    ("save_conversation", lambda s: s.save_conversation("s", [user("x")])),
    ("load_conversation", lambda s: s.load_conversation("s")),
    ("clear_conversation", lambda s: s.clear_conversation("s")),
    ("save_working", lambda s: s.save_working("r", "k", 1)),
    ("load_working", lambda s: s.load_working("r", "k")),
    ("clear_working", lambda s: s.clear_working("r")),
    ("save_summary", lambda s: s.save_summary("x", session_id="s")),
    ("load_summaries", lambda s: s.load_summaries()),
    ("resume", lambda s: s.resume("s")),
    ("list_sessions", lambda s: s.list_sessions()),
    ("find_request", lambda s: s.find_request("s", "k")),
]


@pytest.mark.parametrize("call", [pytest.param(fn, id=name) for name, fn in CALLS])
async def test_every_method_fails_closed_without_a_scope(
    store: SQLiteHistory, call: Callable[[Store], Awaitable[Any]]
) -> None:
    """Each store method raises ScopeMissing when no scope is set, and writes nothing."""
    with pytest.raises(ScopeMissing):
        await call(store)
    counts = await raw(
        store,
        "SELECT (SELECT COUNT(*) FROM messages) + (SELECT COUNT(*) FROM working)"
        " + (SELECT COUNT(*) FROM summaries)",
    )
    assert counts == [(0,)]


SECRET = "the-launch-code-is-0000"


@pytest.mark.parametrize("garbage", ["not json " + SECRET, '{"role":"user","content":"' + SECRET])
async def test_one_corrupt_row_fails_the_whole_read(store: Store, garbage: str) -> None:
    """A malformed row fails every read of its session, naming session and row, never content."""
    with scopes.use(ALICE):
        await store.save_conversation("s", [user("one"), user("two"), user("three")])
    [(row_id,)] = await raw(store, "SELECT id FROM messages WHERE body LIKE '%two%'")
    await raw(store, "UPDATE messages SET body = ? WHERE id = ?", garbage, row_id)
    with scopes.use(ALICE):
        for read in (store.load_conversation("s"), store.resume("s")):
            with pytest.raises(StoredRowError) as info:
                await read
            text = str(info.value)
            assert f"stored row {row_id}" in text and "'s'" in text
            assert SECRET not in text and "two" not in text
            assert info.value.__cause__ is None and info.value.__context__ is None


async def test_corrupt_summary_fails_resume(store: Store) -> None:
    """A malformed summary row fails the resume of its session too."""
    with scopes.use(ALICE):
        await store.save_conversation("s", [user("one")])
        await store.save_summary("fine", session_id="s")
    await raw(store, "UPDATE summaries SET body = ?", '{"role": "wizard", "content": 1}')
    with scopes.use(ALICE), pytest.raises(StoredRowError, match="summary row"):
        await store.resume("s")


async def test_concurrent_sessions_lose_nothing(store: Store) -> None:
    """Many sessions appending at once: every message is stored, in each session's order."""
    sessions, turns = 40, 15

    async def talk(n: int) -> None:
        with scopes.use(ALICE if n % 2 else BOB):
            for i in range(turns):
                await store.save_conversation(f"s{n}", [user(f"{n}:{i}"), assistant(f"a{i}")])

    async with anyio.create_task_group() as tg:
        for n in range(sessions):
            tg.start_soon(talk, n)
    for n in range(sessions):
        with scopes.use(ALICE if n % 2 else BOB):
            got = await store.load_conversation(f"s{n}")
        assert [m.content for m in got[::2]] == [f"{n}:{i}" for i in range(turns)]
        assert len(got) == 2 * turns
    with scopes.use(ALICE):
        assert sum(s.messages for s in await store.list_sessions()) == sessions // 2 * turns * 2


async def test_list_sessions_newest_first(store: Store) -> None:
    """list_sessions shows each session of the scope with its count, latest activity first."""
    with scopes.use(ALICE):
        await store.save_conversation("old", [user("a"), user("b")])
        await store.save_conversation("new", [user("c")])
        infos = await store.list_sessions()
    assert [(i.session_id, i.messages) for i in infos] == [("new", 1), ("old", 2)]


async def test_schema_is_versioned_and_wal(tmp_path: Path) -> None:
    """A new file gets the current user_version in WAL mode; reopening keeps the data."""
    path = tmp_path / "nested" / "h.db"
    async with SQLiteHistory.open(path) as store:
        with scopes.use(ALICE):
            await store.save_conversation("s", [user("kept")])
    with closing(sqlite3.connect(path)) as db:
        assert db.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    async with SQLiteHistory.open(path, synchronous="FULL") as store:
        with scopes.use(ALICE):
            assert [m.content for m in await store.load_conversation("s")] == ["kept"]


async def test_a_version_1_file_is_migrated_and_resumes_the_same(tmp_path: Path) -> None:
    """A file written before window boundaries existed opens, keeps its summary, and takes
    a window boundary afterwards."""
    from agentd.memory.history import MIGRATIONS

    path = tmp_path / "h.db"
    summary = assistant("the gist")
    summary.metadata["summary"] = True
    with closing(sqlite3.connect(path)) as db:
        for statement in MIGRATIONS[0]:
            db.execute(statement)
        db.execute("PRAGMA user_version = 1")
        rows = [("t", "agentd", "s", user(f"m{i}").to_stored(), 0.0) for i in range(4)]
        db.executemany(
            "INSERT INTO messages (tenant, agent_id, session_id, body, created) "
            "VALUES (?, ?, ?, ?, ?)",
            rows,
        )
        db.execute(
            "INSERT INTO summaries (tenant, agent_id, session_id, body, tail_from, created) "
            "VALUES ('t', 'agentd', 's', ?, 3, 0)",
            (summary.to_stored(),),
        )
        db.commit()
    async with SQLiteHistory.open(path) as store:
        with scopes.use(scopes.Scope(tenant="t", app="agentd")):
            assert [m.content for m in await store.resume("s")] == ["the gist", "m2", "m3"]
            assert await store.load_summaries("s") == ["the gist"]
            await store.save_window("s", 1)
            assert [m.content for m in await store.resume("s")] == ["m3"]
            assert await store.load_summaries("s") == ["the gist"]
    with closing(sqlite3.connect(path)) as db:
        assert db.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)


async def test_newer_schema_is_refused(tmp_path: Path) -> None:
    """A file from a newer agentd is not touched: opening it says to upgrade."""
    path = tmp_path / "h.db"
    with closing(sqlite3.connect(path)) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(HistoryError, match="newer than this agentd"):
        async with SQLiteHistory.open(path):
            pass


async def test_unopenable_path_is_a_history_error(tmp_path: Path) -> None:
    """A file that is not a database gives a HistoryError naming the setting."""
    path = tmp_path / "h.db"
    path.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(HistoryError, match="HISTORY_DB"):
        async with SQLiteHistory.open(path):
            pass


async def test_closed_store_refuses_calls(tmp_path: Path) -> None:
    """After close, calls raise HistoryError instead of touching a closed connection."""
    async with SQLiteHistory.open(tmp_path / "h.db") as store:
        pass
    await store.aclose()
    with scopes.use(ALICE), pytest.raises(HistoryError, match="closed"):
        await store.load_conversation("s")


async def test_corrupt_working_value_fails_closed(store: Store) -> None:
    """A malformed working-memory value raises StoredRowError naming run and key only."""
    with scopes.use(ALICE):
        await store.save_working("r1", "plan", "fine")
    await raw(store, "UPDATE working SET value = ?", "{" + SECRET)
    with scopes.use(ALICE), pytest.raises(StoredRowError, match="'r1', key 'plan'") as info:
        await store.load_working("r1", "plan")
    assert SECRET not in str(info.value)


async def test_a_failing_write_in_a_group_commit_fails_alone(tmp_path: Path) -> None:
    """Concurrent writes share commits; one that fails raises in its caller, the rest land."""
    async with SQLiteHistory.open(tmp_path / "history.db") as store:
        await _group_commit(store)


async def _group_commit(store: SQLiteHistory) -> None:
    errors: list[BaseException] = []

    async def broken() -> None:
        def bad(conn: sqlite3.Connection) -> None:
            conn.execute("INSERT INTO no_such_table VALUES (1)")

        try:
            await store._write(bad)
        except HistoryError as exc:
            errors.append(exc)

    with scopes.use(ALICE):
        async with anyio.create_task_group() as tg:
            for i in range(30):
                tg.start_soon(store.save_conversation, f"s{i}", [user(f"m{i}")])
                if i == 15:
                    tg.start_soon(broken)
        assert len(errors) == 1 and "no_such_table" in str(errors[0])
        for i in range(30):
            assert [m.content for m in await store.load_conversation(f"s{i}")] == [f"m{i}"]


async def test_request_key_finds_its_message_and_answer(store: Store) -> None:
    """find_request returns the keyed user message and the final answer of its turn."""
    with scopes.use(ALICE):
        await store.save_conversation("s", [user("hi")], request_key="k")
        assert (found := await store.find_request("s", "k")) is not None
        assert (found.message.content, found.answer, found.latest) == ("hi", None, True)
        await store.save_conversation("s", _exchange())
        assert (found := await store.find_request("s", "k")) is not None
        assert found.answer is None  # a tool exchange is not an answer
        await store.save_conversation("s", [assistant("done")])
        await store.save_conversation("s", [user("next"), assistant("ok")])
        assert (found := await store.find_request("s", "k")) is not None
        assert found.answer is not None and found.answer.content == "done"
        assert found.latest is False
        assert await store.find_request("s", "other") is None
        assert await store.find_request("s2", "k") is None
    with scopes.use(BOB):
        assert await store.find_request("s", "k") is None


async def test_a_request_key_is_stored_once_per_session(store: Store) -> None:
    """A second message under a stored key is refused, and the session keeps one row."""
    with scopes.use(ALICE):
        await store.save_conversation("s", [user("hi")], request_key="k")
        with pytest.raises(HistoryError):
            await store.save_conversation("s", [user("hi")], request_key="k")
        await store.save_conversation("s2", [user("hi")], request_key="k")
        assert len(await store.load_conversation("s")) == 1
        await store.clear_conversation("s")
        assert await store.find_request("s", "k") is None


async def test_a_version_2_file_takes_request_keys(tmp_path: Path) -> None:
    """A file from before request keys is migrated: old rows stay, new rows take keys."""
    from agentd.memory.history import MIGRATIONS

    path = tmp_path / "h.db"
    with closing(sqlite3.connect(path)) as db:
        for statement in (*MIGRATIONS[0], *MIGRATIONS[1]):
            db.execute(statement)
        db.execute("PRAGMA user_version = 2")
        db.execute(
            "INSERT INTO messages (tenant, agent_id, session_id, body, created) "
            "VALUES ('t', 'agentd', 's', ?, 0)",
            (user("old").to_stored(),),
        )
        db.commit()
    async with SQLiteHistory.open(path) as store:
        with scopes.use(scopes.Scope(tenant="t", app="agentd")):
            await store.save_conversation("s", [user("new")], request_key="k")
            assert [m.content for m in await store.resume("s")] == ["old", "new"]
            assert (found := await store.find_request("s", "k")) is not None
            assert found.message.content == "new"
    with closing(sqlite3.connect(path)) as db:
        assert db.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
    assert SCHEMA_VERSION >= 3
