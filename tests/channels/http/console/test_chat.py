"""The Chat page in a real Chromium: sign-in, a streamed answer, folded tool calls, XSS as text."""

from __future__ import annotations

import time
from typing import Any

from tests.channels.http.console.conftest import (
    XSS,
    Console,
    new_session,
    screenshot,
    send,
    sign_in,
)


def test_sign_in_sets_a_strict_httponly_cookie(browser: Any, console: Console) -> None:
    """Signing in keeps an opaque HttpOnly, SameSite=Strict cookie, never the token."""
    page = sign_in(browser, console)
    cookies = page.context.cookies()
    assert [c["name"] for c in cookies] == ["agentd_console"]
    cookie = cookies[0]
    assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"
    assert console.token not in cookie["value"]
    assert console.token not in page.url
    assert page.evaluate("document.cookie") == ""
    page.context.close()


def test_a_wrong_token_is_refused(browser: Any, console: Console) -> None:
    """A wrong token shows the API's error and sets no cookie."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(console.url + "/chat")
    page.wait_for_url("**/login")
    page.fill("#token", "not-the-token")
    page.click("button[type=submit]")
    page.wait_for_selector(".flash.error:not([hidden])")
    assert "bearer token" in page.inner_text(".flash.error")
    assert context.cookies() == []
    context.close()


def test_a_streamed_answer_appears(browser: Any, console: Console) -> None:
    """The answer streams into the page before the turn has ended, then stays after reload."""
    page = sign_in(browser, console)
    session = new_session(page)
    started = time.perf_counter()
    seen: list[float] = []

    def streaming() -> None:
        # The turn is still streaming (the stub sends a word every 50 ms) when text shows.
        page.wait_for_selector("li.msg.streaming .text:not(:empty)")
        seen.append(time.perf_counter() - started)

    send(page, "hello there", streaming)
    first = seen[0]
    texts = page.locator("#log li.msg.assistant .text").all_inner_texts()
    assert texts[-1] == "echo: hello there and a few more words to stream"
    assert f"http:{session}" not in texts[-1]
    # The closing note asks for this number; `pytest -s` shows it.
    print(f"time to first streamed token in the browser: {first * 1000:.0f} ms")  # noqa: T201
    screenshot(page, "chat")
    page.context.close()


def test_tool_calls_are_shown_folded(browser: Any, console: Console) -> None:
    """A memory_save call and its result appear as closed <details> after the turn."""
    page = sign_in(browser, console)
    new_session(page)
    send(page, "SAVE zebras sleep standing up")
    call = page.locator("details.call", has_text="memory_save")
    call.wait_for()
    assert call.get_attribute("open") is None
    assert not page.locator("details.call pre").first.is_visible()
    call.locator("summary").click()
    assert "zebras sleep standing up" in call.locator("pre").inner_text()
    assert page.locator("li.msg.tool summary", has_text="memory_save").count() == 1
    page.context.close()


def test_model_markup_renders_as_text(browser: Any, console: Console) -> None:
    """A reply with <script> and <img onerror> shows as text, streamed and re-rendered.

    The page's own CSP is bypassed here: it alone would stop the onerror handler, and this
    test is about the page inserting the reply as text (the CSP has its own test)."""
    page = sign_in(browser, console, bypass_csp=True)
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    new_session(page)
    # The dialog listener spans the streamed rendering too; waiting for the payload's last word
    # while it streams would race the reload that follows it (~150 ms later on the stub).
    send(page, "XSS")
    answer = page.locator("#log li.msg.assistant .text").last
    assert answer.inner_text() == f"here it is: {XSS}"
    assert page.locator("#log script, #log img").count() == 0
    assert page.locator("img[src=x]").count() == 0
    page.wait_for_timeout(200)
    assert dialogs == []
    page.context.close()


def test_security_headers(browser: Any, console: Console) -> None:
    """Console pages send a CSP without inline code, no framing and no referrer."""
    page = sign_in(browser, console)
    response = page.goto(console.url + "/chat")
    headers = response.headers
    csp = headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert "frame-ancestors 'none'" in csp
    assert headers["x-frame-options"] == "DENY"
    assert headers["referrer-policy"] == "no-referrer"
    page.context.close()
