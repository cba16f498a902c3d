"""Logging: secrets redacted, JSON lines under systemd, console otherwise."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest
import structlog

from agentd.daemon.logging import REDACTED, Redact, configure, use_json


@pytest.fixture(autouse=True)
def _reset_logging() -> Iterator[None]:
    """Each test configures logging itself; put the defaults back afterwards."""
    yield
    structlog.reset_defaults()
    structlog.contextvars.clear_contextvars()
    root = logging.getLogger()
    for handler in list(root.handlers):
        root.removeHandler(handler)


def redact(**event: Any) -> dict[str, Any]:
    return dict(Redact(("sk-extra-secret",))(None, "info", dict(event)))


@pytest.mark.parametrize(
    "key",
    [
        "token",
        "api_key",
        "apikey",
        "password",
        "secret",
        "Authorization",
        "bot_token",
        "llm_api_key",
    ],
)
def test_secret_keys_are_redacted(key: str) -> None:
    """Values under secret-looking keys are replaced."""
    assert redact(**{key: "hunter2"})[key] == REDACTED


def test_empty_secrets_stay_visible() -> None:
    """An unset secret is shown as unset, which helps debugging."""
    assert redact(api_key=None, token="") == {"api_key": None, "token": ""}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            "GET https://api.telegram.org/bot123456:ABC-def_9/getUpdates failed",
            f"GET https://api.telegram.org/bot{REDACTED}/getUpdates failed",
            id="bot-token-in-url",
        ),
        pytest.param(
            "header Authorization: Bearer eyJhbGciOi.xyz",
            f"header Authorization: Bearer {REDACTED}",
            id="bearer",
        ),
        pytest.param(
            "http://h/v1?api_key=abc123&x=1", f"http://h/v1?api_key={REDACTED}&x=1", id="query"
        ),
        pytest.param("uses sk-extra-secret here", f"uses {REDACTED} here", id="configured"),
        pytest.param("nothing to hide", "nothing to hide", id="plain"),
    ],
)
def test_secrets_in_text_are_redacted(text: str, expected: str) -> None:
    """Tokens inside free text (URLs, headers, configured secrets) are masked."""
    assert redact(error=text)["error"] == expected


def test_token_counts_are_not_secrets() -> None:
    """Usage fields such as prompt_tokens and max_tokens are logged as they are."""
    event = redact(prompt_tokens=12, completion_tokens=3, max_tokens=4096, tokens=5)
    assert event == {"prompt_tokens": 12, "completion_tokens": 3, "max_tokens": 4096, "tokens": 5}


def test_nested_values_are_redacted() -> None:
    """Secrets inside dicts and lists are masked too."""
    event = redact(
        headers={"Authorization": "Bearer abc", "Accept": "json"},
        urls=["https://x/bot1:AA/getMe"],
    )
    assert event["headers"] == {"Authorization": REDACTED, "Accept": "json"}
    assert event["urls"] == [f"https://x/bot{REDACTED}/getMe"]


@pytest.mark.parametrize(
    ("fmt", "env", "expected"),
    [
        pytest.param("auto", {"JOURNAL_STREAM": "8:1234"}, True, id="auto-systemd"),
        pytest.param("auto", {}, False, id="auto-terminal"),
        pytest.param("json", {}, True, id="json"),
        pytest.param("console", {"JOURNAL_STREAM": "8:1234"}, False, id="console"),
    ],
)
def test_use_json(fmt: str, env: dict[str, str], expected: bool) -> None:
    """JSON under systemd (JOURNAL_STREAM) or when asked; console otherwise."""
    assert use_json(fmt, env) is expected


def test_json_lines_under_journal_stream(monkeypatch: pytest.MonkeyPatch) -> None:
    """With JOURNAL_STREAM set, each event is one JSON line with level, time and context."""
    monkeypatch.setenv("JOURNAL_STREAM", "8:1234")
    out = io.StringIO()
    configure(level="info", stream=out, secrets=("s3cr3t",))
    log = structlog.get_logger("agentd.test")
    with structlog.contextvars.bound_contextvars(session="tg:1", run_id="abc"):
        log.info("turn.end", status="ok", api_key="sk-1", note="has s3cr3t inside")
    log.debug("hidden")
    lines = out.getvalue().splitlines()
    assert len(lines) == 1
    event = json.loads(lines[0])
    assert event["event"] == "turn.end" and event["level"] == "info"
    assert event["session"] == "tg:1" and event["run_id"] == "abc"
    assert event["api_key"] == REDACTED and event["note"] == f"has {REDACTED} inside"
    assert event["timestamp"].endswith("Z")


def test_console_in_a_terminal() -> None:
    """Without JOURNAL_STREAM the console renderer is used (not JSON)."""
    out = io.StringIO()
    configure(level="debug", fmt="auto", stream=out)
    structlog.get_logger("agentd.test").debug("hello", answer=42)
    text = out.getvalue()
    assert "hello" in text and "answer=42" in text
    with pytest.raises(ValueError):
        json.loads(text)


def test_exceptions_are_redacted() -> None:
    """Tracebacks are rendered into the event and scrubbed like any text."""
    out = io.StringIO()
    configure(fmt="json", stream=out)
    try:
        raise RuntimeError("https://api.telegram.org/bot42:SECRET/getMe")
    except RuntimeError:
        structlog.get_logger("agentd.test").exception("boom")
    event = json.loads(out.getvalue())
    assert "SECRET" not in out.getvalue() and "RuntimeError" in event["exception"]


def test_stdlib_logs_are_redacted_json() -> None:
    """A uvicorn warning holding a configured secret is a JSON line with the secret masked."""
    out = io.StringIO()
    configure(level="info", fmt="json", stream=out, secrets=("s3cr3t",))
    with structlog.contextvars.bound_contextvars(session="tg:1"):
        logging.getLogger("uvicorn.error").warning("bad header %r from %s", "s3cr3t", "10.0.0.1")
    event = json.loads(out.getvalue())
    assert "s3cr3t" not in out.getvalue()
    assert event["event"] == f"bad header '{REDACTED}' from 10.0.0.1"
    assert event["level"] == "warning" and event["logger"] == "uvicorn.error"
    assert event["session"] == "tg:1" and event["timestamp"].endswith("Z")


def test_stdlib_tracebacks_are_redacted() -> None:
    """A library's logged exception is rendered into the JSON event and scrubbed."""
    out = io.StringIO()
    configure(fmt="json", stream=out)
    try:
        raise ConnectionError("POST https://api.telegram.org/bot42:SECRET/getMe")
    except ConnectionError:
        logging.getLogger("apscheduler.executors.default").exception("call failed")
    lines = out.getvalue().splitlines()
    assert len(lines) == 1 and "SECRET" not in lines[0]
    event = json.loads(lines[0])
    assert event["event"] == "call failed" and "ConnectionError" in event["exception"]


def test_stdlib_and_structlog_lines_share_the_stream() -> None:
    """Both kinds of line go to the configured stream, in order, one JSON object per line."""
    out = io.StringIO()
    configure(fmt="json", stream=out)
    structlog.get_logger("agentd.test").warning("first")
    logging.getLogger("httpx").warning("second")
    logging.getLogger("uvicorn.access").info("hidden: libraries speak from WARNING up")
    events = [json.loads(line)["event"] for line in out.getvalue().splitlines()]
    assert events == ["first", "second"]


def test_library_logs_are_quiet() -> None:
    """httpx request logs (URLs may carry tokens) are held at WARNING."""
    configure(stream=io.StringIO())
    assert logging.getLogger("httpx").getEffectiveLevel() == logging.WARNING


def test_reconfiguring_reaches_loggers_that_already_logged() -> None:
    """A module-level logger follows a later configure() (no stale cached stream)."""
    log = structlog.get_logger("agentd.test.module")
    first, second = io.StringIO(), io.StringIO()
    configure(fmt="json", stream=first)
    log.info("one")
    first.close()
    configure(fmt="json", stream=second)
    log.info("two")
    assert json.loads(second.getvalue())["event"] == "two"


def test_pymilvus_logs_go_through_structlog() -> None:
    """pymilvus's own stderr handlers are removed so its lines are redacted JSON too."""
    import pymilvus  # noqa: F401 - its import attaches the handlers

    from agentd.memory.connection import PYMILVUS_LOGGERS, through_root

    out = io.StringIO()
    configure(fmt="json", stream=out, secrets=("tok3n",))
    through_root(PYMILVUS_LOGGERS)
    logging.getLogger("pymilvus.milvus_client").warning("connect with tok3n failed")
    event = json.loads(out.getvalue())
    assert "tok3n" not in out.getvalue() and event["logger"] == "pymilvus.milvus_client"
