"""What the console costs: bytes of the chat page, and the first streamed token vs the CLI."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from typing import Any

import httpx

from tests.channels.http.console.conftest import Console, sign_in

#: The chat page with its stylesheet and script; no framework, no build step.
PAGE_BUDGET = 40_000


def test_the_chat_page_is_light(browser: Any, console: Console) -> None:
    """The chat page, its CSS and its one script stay under PAGE_BUDGET bytes."""
    page = sign_in(browser, console)
    sizes: dict[str, int] = {}
    page.on("response", lambda r: sizes.__setitem__(r.url, len(r.body())))
    page.goto(console.url + "/chat?session=weight")
    page.wait_for_load_state("networkidle")
    total = sum(sizes.values())
    assert len(sizes) == 3, sizes
    assert total < PAGE_BUDGET
    # The closing note asks for these numbers; `pytest -s` shows them.
    print(f"chat page: {total} bytes in {len(sizes)} responses")  # noqa: T201
    page.context.close()


def test_time_to_first_token_of_agentd_chat(console: Console) -> None:
    """`agentd chat -m` on the same daemon and stub, for comparison with the browser."""
    command = [sys.executable, "-m", "agentd", "--config", str(console.config), "chat"]
    started = time.perf_counter()
    with subprocess.Popen(
        [*command, "--session", "cli-weight", "-m", "hello there"],
        stdout=subprocess.PIPE,
        env={**os.environ},
    ) as proc:
        assert proc.stdout is not None
        first = proc.stdout.read(1)
        elapsed = time.perf_counter() - started
        rest = proc.stdout.read()
    assert (first + rest).decode().strip().startswith("echo: hello there")
    # What `agentd chat` does once started: the streamed API request, timed to its first text.
    body = {
        "model": "agentd",
        "stream": True,
        "messages": [{"role": "user", "content": "hello there"}],
    }
    headers = {"Authorization": f"Bearer {console.token}", "X-Session-Id": "cli-weight"}
    started = time.perf_counter()
    with httpx.stream(
        "POST", console.url + "/v1/chat/completions", json=body, headers=headers
    ) as answer:
        first_text = next(line for line in answer.iter_lines() if '"content":"e' in line)
        api = time.perf_counter() - started
    assert "echo" in first_text
    print(  # noqa: T201
        f"agentd chat: first output after {elapsed * 1000:.0f} ms (process start included); "
        f"its streamed request alone: {api * 1000:.0f} ms"
    )
