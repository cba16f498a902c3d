"""A real daemon on the stub model and a real headless Chromium, shared by the console's tests.

The daemon (``agentd run`` in a subprocess) has long-term memory (Milvus Lite), a cron job, and
two principals besides its generated admin token: alice of tenant ``acme`` and bob of tenant
``globex``. Chromium is Debian's ``/usr/bin/chromium``, driven through Playwright's Python API
(no browser download). With ``CONSOLE_SCREENSHOTS=DIR`` the tests also write the docs'
screenshots there (``make screenshots``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from agentd.model.sidecar import free_port
from tests.support.daemon import http_token, ready_daemon, write_config
from tests.support.stub_llm import Reply, StubLLM, running_stub

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
SCREENSHOTS = os.environ.get("CONSOLE_SCREENSHOTS", "")
XSS = "<script>alert(1)</script> <img src=x onerror=alert(2)>"
TOKENS = {"alice": "console-test-alice-token", "bob": "console-test-bob-token"}
TENANTS = {"alice": "acme", "bob": "globex"}


def console_agent(body: dict[str, Any]) -> Reply:
    """The stub's answers: ``SAVE x`` saves a memory, ``XSS`` replies with markup, else echo."""
    messages = body.get("messages") or []
    last = messages[-1] if messages else {"role": "user", "content": ""}
    results = [m for m in messages[-3:] if m.get("role") == "tool"]
    if results:
        return Reply(text=f"done: {str(results[-1].get('content'))[:200]}")
    text = str(last.get("content") or "").splitlines()[-1:] or [""]
    command, _, argument = text[0].partition(" ")
    if command == "SAVE" and argument:
        return Reply(tool_calls=[("memory_save", {"content": argument, "tags": ["console"]})])
    if command == "XSS":
        return Reply(text=f"here it is: {XSS}", chunk_delay=0.05)
    return Reply(text=f"echo: {text[0]} and a few more words to stream", chunk_delay=0.05)


@dataclass
class Console:
    """The running daemon: its URL, its admin token and the stub behind it."""

    url: str
    token: str
    stub: StubLLM
    state: Path
    config: Path

    def token_of(self, principal: str) -> str:
        return self.token if principal == "admin" else TOKENS[principal]


@pytest.fixture(scope="package")
def console(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Console]:
    """``agentd run`` with the HTTP channel, memory, a cron job and two tenants' principals."""
    tmp = tmp_path_factory.mktemp("console-daemon")
    port = free_port()
    principals = [
        {"name": name, "tenant": TENANTS[name], "token": token} for name, token in TOKENS.items()
    ]
    with running_stub(embed_dim=64) as stub:
        stub.fallback = console_agent
        config = write_config(
            tmp / "config.json",
            tmp,
            stub.url,
            memory={"embed": True, "recall": 0},
            channels={"http": {"enabled": True, "port": port, "principals": principals}},
            cron={"jobs": [{"name": "heartbeat", "schedule": "every 6h", "prompt": "PING"}]},
            log={"level": "warning"},
        )
        with ready_daemon(config, tmp / "notify.sock"):
            url = f"http://127.0.0.1:{port}"
            yield Console(url, http_token(tmp), stub, tmp / "state", config)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Chromium (Debian's), for one module; skipped without it, unless
    AGENTD_REQUIRE_CHROMIUM=1 (`make test`, which installs it): then it fails.

    Module scope, not session: Playwright's sync API runs an asyncio loop of its own in this
    thread while it is open, and the anyio tests of other modules cannot start theirs then.
    """
    if not Path(CHROMIUM).exists():
        missing = f"no Chromium at {CHROMIUM}: apt-get install chromium chromium-driver"
        if os.environ.get("AGENTD_REQUIRE_CHROMIUM") == "1":
            pytest.fail(missing)
        pytest.skip(missing)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield chromium
        finally:
            chromium.close()


def sign_in(browser: Any, console: Console, principal: str = "admin", **options: Any) -> Any:
    """A new browser context signed in as ``principal``; returns its page (on /chat)."""
    options.setdefault("viewport", {"width": 1280, "height": 800})
    context = browser.new_context(**options)
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.goto(console.url + "/")
    page.fill("#token", console.token_of(principal))
    page.click("button[type=submit]")
    page.wait_for_url("**/chat")
    return page


def screenshot(page: Any, name: str) -> None:
    """Write the docs' screenshot ``name`` at this viewport when CONSOLE_SCREENSHOTS is set."""
    if not SCREENSHOTS:
        return
    folder = Path(SCREENSHOTS)
    folder.mkdir(parents=True, exist_ok=True)
    width = page.viewport_size["width"]
    page.screenshot(path=str(folder / f"{name}-{width}.png"))


def new_session(page: Any) -> str:
    """Open a new chat session on the Chat page; returns its id."""
    page.click("text=New session")
    page.wait_for_selector("#chat-form")
    session: str = page.get_attribute("#chat-form", "data-session")
    return session


def send(page: Any, text: str, while_streaming: Callable[[], None] | None = None) -> None:
    """Send ``text`` and wait for the reload that shows the stored turn.

    The page reloads itself once the streamed answer has ended; waiting for that navigation
    (not for some element) is what makes the next step see the finished turn.
    ``while_streaming`` runs before the reload.
    """
    with page.expect_navigation(timeout=30_000):
        page.fill("#chat-form textarea", text)
        page.click("#chat-form button[type=submit]")
        if while_streaming is not None:
            while_streaming()
    page.wait_for_selector("#chat-form")


def chat(page: Any, text: str) -> str:
    """Send ``text`` in a new session; returns the session's id once the turn is shown."""
    session = new_session(page)
    send(page, text)
    return session
