"""`agentd chat` without --local: a subprocess talking to the daemon's HTTP API."""

from __future__ import annotations

import json
import os
import socket
import sys
from pathlib import Path

import anyio
import pytest
from pydantic import SecretStr

from agentd.config import HttpChannelSettings
from agentd.engine.runtime import Runtime
from tests.support.http_channel import serving
from tests.support.stub_llm import Reply, StubLLM

pytestmark = pytest.mark.anyio

EXAMPLE = Path(__file__).parents[3] / "examples" / "clients" / "openai_chat.py"


async def _chat(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    proc = await anyio.run_process(
        [sys.executable, "-m", "agentd", "chat", *args],
        env={**os.environ, **(env or {})},
        check=False,
    )
    return proc.returncode, proc.stdout.decode(), proc.stderr.decode()


async def test_chat_streams_from_the_daemon(stub_runtime: Runtime, stub_llm: StubLLM) -> None:
    """The answer streams from the daemon into stdout, in the named session."""
    stub_llm.add(Reply(text="hello from the daemon"))
    async with serving(stub_runtime) as channel:
        code, out, err = await _chat("--url", channel.url, "--session", "term", "-m", "hi")
    assert code == 0, err
    assert out == "hello from the daemon\n"
    assert [m.content for m in (await stub_runtime.history("http:term"))[1:]] == [
        "hi",
        "hello from the daemon",
    ]


async def test_chat_takes_the_url_and_token_from_settings(stub_runtime: Runtime) -> None:
    """Without --url/--token the client uses channels.http's port and first token."""
    settings = HttpChannelSettings(tokens=[SecretStr("tok")])
    async with serving(stub_runtime, settings) as channel:
        env = {
            "AGENTD_CHANNELS__HTTP__PORT": str(channel.port),
            "AGENTD_CHANNELS__HTTP__TOKENS": json.dumps(["tok"]),
        }
        code, out, err = await _chat("-m", "ping", env=env)
        assert (code, out) == (0, "echo: ping\n"), err
        code, out, err = await _chat("--url", channel.url, "--token", "bad", "-m", "x")
    assert code == 1
    assert "bearer token" in err


def _generated_token(token: str, mode: int = 0o600) -> Path:
    """Write the token a daemon with the default state_dir (under this test's HOME) made."""
    path = Path.home() / ".agentd" / "state" / "http.token"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"{token}\n")
    path.chmod(mode)
    return path


async def test_chat_reads_the_generated_token(stub_runtime: Runtime) -> None:
    """With no token configured or given, the client sends state_dir/http.token's token."""
    _generated_token("generated")
    settings = HttpChannelSettings(tokens=[SecretStr("generated")])
    async with serving(stub_runtime, settings) as channel:
        env = {"AGENTD_CHANNELS__HTTP__PORT": str(channel.port)}
        code, out, err = await _chat("-m", "ping", env=env)
        assert (code, out) == (0, "echo: ping\n"), err
        code, out, err = await _chat("--url", channel.url, "-m", "pong")
        assert (code, out) == (0, "echo: pong\n"), err
        code, out, err = await _chat("-m", "x", env={**env, "AGENTD_TOKEN": "generated"})
        assert (code, out) == (0, "echo: x\n"), err


def test_the_generated_token_never_leaves_this_machine() -> None:
    """A --url off loopback gets no token from the file; a loopback one does."""
    from agentd.cli.remote_option import default_token
    from agentd.config import Settings

    _generated_token("local-only")
    settings = Settings()
    assert default_token(settings, "http://192.0.2.7:8321") is None
    assert default_token(settings, "http://[::1]:8321") == "local-only"
    assert default_token(settings, "http://localhost:8321") == "local-only"


async def test_chat_refuses_a_token_file_others_can_read() -> None:
    """A group-readable token file makes `agentd chat` exit 78 naming the file."""
    path = _generated_token("exposed", mode=0o640)
    code, _, err = await _chat("-m", "hi")
    assert code == 78
    assert str(path) in err


async def test_chat_says_when_no_daemon_answers() -> None:
    """With nothing listening the CLI says how to start the daemon and exits 69."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    code, _, err = await _chat("--url", f"http://127.0.0.1:{port}", "-m", "hi")
    assert code == 69
    assert "agentd run" in err


async def test_example_openai_client_runs(stub_runtime: Runtime) -> None:
    """examples/clients/openai_chat.py streams an answer from the channel, with AGENTD_TOKEN."""
    settings = HttpChannelSettings(tokens=[SecretStr("tok")])
    async with serving(stub_runtime, settings) as channel:
        proc = await anyio.run_process(
            [sys.executable, str(EXAMPLE), "are", "you", "there?"],
            env={**os.environ, "AGENTD_URL": channel.url, "AGENTD_TOKEN": "tok"},
            check=False,
        )
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stdout.decode() == "echo: are you there?\n"
    assert "completion tokens" in proc.stderr.decode()


async def test_example_openai_client_reads_the_generated_token(stub_runtime: Runtime) -> None:
    """Without AGENTD_TOKEN the example client uses ~/.agentd/state/http.token."""
    _generated_token("for-the-example")
    settings = HttpChannelSettings(tokens=[SecretStr("for-the-example")])
    async with serving(stub_runtime, settings) as channel:
        proc = await anyio.run_process(
            [sys.executable, str(EXAMPLE), "hi"],
            env={**os.environ, "AGENTD_URL": channel.url},
            check=False,
        )
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stdout.decode() == "echo: hi\n"
