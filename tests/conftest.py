from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.support import groups
from tests.support.postgres import REQUIRED, PostgresServer, server_bindir
from tests.support.stub_llm import StubLLM, running_stub


def pytest_configure(config: pytest.Config) -> None:
    groups.configure(config)


def pytest_unconfigure(config: pytest.Config) -> None:
    groups.unconfigure(config)


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    groups.configure_node(node)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    return groups.scheduler(config, log)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    groups.record(config, items)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def stub_llm() -> Iterator[StubLLM]:
    """A scripted OpenAI-protocol stub server on 127.0.0.1."""
    with running_stub() as stub:
        yield stub


@pytest.fixture(autouse=True)
def _isolated_env(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Tests never read the developer's ~/.agentd or agentd env variables."""
    import os

    for name in list(os.environ):
        if name.startswith("AGENTD_") or name in {
            "AGENT_MAX_MESSAGES",
            "AGENT_MAX_TOKENS",
            "AGENT_MAX_STEPS",
            "COMPACTION_STRATEGY",
            "COMPACTION_THRESHOLD",
            "AGENT_WORKDIR",
            "LLAMA_URL",
            "LLM_MODEL",
            "LLM_API_KEY",
            "MEMORY_EMBED",
            "MEMORY_DB",
            "HISTORY_DB",
            "MILVUS_ADDR",
            "MILVUS_TOKEN",
            "JOURNAL_STREAM",
            "NOTIFY_SOCKET",
            "WATCHDOG_USEC",
            "TELEGRAM_BOT_TOKEN",
        }:
            monkeypatch.delenv(name)
    monkeypatch.setenv("HOME", str(tmp_path_factory.mktemp("home")))


@pytest.fixture(autouse=True)
def _kept_umask() -> Iterator[None]:
    """A test that runs the CLI in-process (which sets umask 077) leaves the umask as it was."""
    import os

    before = os.umask(0o022)
    os.umask(before)
    yield
    os.umask(before)


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """A real PostgreSQL for the whole session (initdb + pg_ctl, about 2 s); dropped at the end.

    Missing PostgreSQL skips, unless AGENTD_REQUIRE_POSTGRES=1 (`make test`): then it fails.
    """
    bindir = server_bindir()
    if bindir is None:
        message = "PostgreSQL is not installed: apt-get install postgresql (.ci/run does)"
        if REQUIRED:
            pytest.fail(message)
        pytest.skip(message)
    server = PostgresServer(bindir)
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture
def pg_url(postgres: PostgresServer) -> str:
    """The URL (with its password) of a new empty database of the session's PostgreSQL."""
    return postgres.create_database()
