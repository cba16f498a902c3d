"""What the console refuses: another tenant's data, cross-site requests, cookies on /v1."""

from __future__ import annotations

import html
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from playwright.sync_api import expect

from tests.channels.http.console.conftest import Console, chat, sign_in


def _cookie(page: Any) -> str:
    value: str = page.context.cookies()[0]["value"]
    return value


def _csrf(page: Any) -> str:
    value: str = page.get_attribute('meta[name="csrf-token"]', "content")
    return value


def test_a_tenant_sees_none_of_another_tenants_data(browser: Any, console: Console) -> None:
    """bob (globex) sees none of alice's (acme) sessions or memories, by page or direct URL."""
    alice = sign_in(browser, console, "alice")
    session = chat(alice, "SAVE acme launch codes are in the blue folder")
    assert "tenant acme" in alice.inner_text("header")
    assert alice.locator("select[name=tenant]").count() == 0
    alice.goto(console.url + "/sessions")
    expect(alice.locator("table.sessions tr", has_text=f"http:{session}")).to_have_count(1)
    bob = sign_in(browser, console, "bob")
    bob.goto(console.url + "/sessions")
    assert f"http:{session}" not in bob.inner_text("main")
    bob.goto(console.url + "/chat")
    assert session not in bob.inner_text("main")
    bob.goto(console.url + "/memory?q=acme+launch+codes+blue+folder")
    assert "launch codes" not in bob.inner_text("main")
    # Direct URLs: in bob's own tenant there is no such session; naming acme is refused.
    response = bob.goto(console.url + f"/sessions/view?id=http:{session}")
    assert response.status == 404
    for path in (
        f"/sessions/view?id=http:{session}&tenant=acme",
        f"/chat?session={session}&tenant=acme",
        "/memory?q=launch&tenant=acme",
        "/sessions?tenant=acme",
    ):
        response = bob.goto(console.url + path)
        assert response.status == 403, path
        assert "launch codes" not in bob.content()
    # Nor by the actions: clearing alice's session from bob's sign-in.
    answer = httpx.post(
        console.url + "/console/api/sessions/clear?tenant=acme",
        json={"session": f"http:{session}"},
        headers={"Origin": console.url, "X-CSRF-Token": _csrf(bob)},
        cookies={"agentd_console": _cookie(bob)},
    )
    assert answer.status_code == 403
    # The admin picks acme in the tenant selector and sees it.
    admin = sign_in(browser, console)
    admin.select_option("select[name=tenant]", "acme")
    admin.wait_for_url("**tenant=acme")
    assert session in admin.inner_text("main")
    for page in (alice, bob, admin):
        page.context.close()


class _Evil(BaseHTTPRequestHandler):
    target = ""

    def log_message(self, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        # The session to clear comes in the query (?s=...): the forged body names a real one.
        session = html.escape(parse_qs(urlsplit(self.path).query).get("s", ["x"])[0], quote=True)
        form = (
            f'<form method="post" action="{self.target}" enctype="text/plain">'
            f'<input name=\'{{"session":"{session}","a\' value=\'":1}}\'></form>'
            "<script>document.forms[0].submit()</script>"
        )
        body = f"<!doctype html><body>{form}</body>".encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture
def evil_site(console: Console) -> Iterator[str]:
    """A page on another origin that auto-submits a form to the console's clear action."""
    handler = type("Evil", (_Evil,), {"target": console.url + "/console/api/sessions/clear"})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        # localhost and 127.0.0.1 are different origins (and different sites).
        yield f"http://localhost:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def test_a_cross_site_form_post_is_refused(browser: Any, console: Console, evil_site: str) -> None:
    """A signed-in browser made to POST by another site's form is refused; nothing changes."""
    page = sign_in(browser, console)
    session = chat(page, "keep me")
    with page.expect_response(lambda r: "/console/api/" in r.url) as answer:
        page.goto(f"{evil_site}?s=http:{session}")
    assert answer.value.status in (403, 415)
    page.goto(console.url + "/sessions")
    expect(page.locator("table.sessions tr", has_text=f"http:{session}")).to_have_count(1)
    page.context.close()


def test_actions_need_the_csrf_token_and_an_origin(browser: Any, console: Console) -> None:
    """With the sign-in cookie, an action without the CSRF token or Origin gets 403."""
    page = sign_in(browser, console)
    session = chat(page, "guard me")
    cookies, csrf, url = {"agentd_console": _cookie(page)}, _csrf(page), console.url
    body = {"session": f"http:{session}"}
    clear = url + "/console/api/sessions/clear"
    refused = [
        {"Origin": url},
        {"Origin": url, "X-CSRF-Token": "guess"},
        {"X-CSRF-Token": csrf},
        {"Origin": "http://evil.example", "X-CSRF-Token": csrf},
    ]
    for headers in refused:
        answer = httpx.post(clear, json=body, headers=headers, cookies=cookies)
        assert answer.status_code == 403, headers
    answer = httpx.post(
        clear, json=body, headers={"Origin": url, "X-CSRF-Token": csrf}, cookies=cookies
    )
    assert answer.status_code == 200
    page.context.close()


def test_the_cookie_does_not_open_the_api(browser: Any, console: Console) -> None:
    """/v1 stays bearer-only: the console's cookie gets 401 there."""
    page = sign_in(browser, console)
    cookies = {"agentd_console": _cookie(page)}
    assert httpx.get(console.url + "/v1/sessions", cookies=cookies).status_code == 401
    chat = httpx.post(
        console.url + "/v1/chat/completions",
        json={"model": "agentd", "messages": [{"role": "user", "content": "hi"}]},
        headers={"Origin": console.url},
        cookies=cookies,
    )
    assert chat.status_code == 401
    page.context.close()


def test_sign_out_ends_the_sign_in(browser: Any, console: Console) -> None:
    """After Sign out, pages go to the sign-in page and the old cookie value is dead."""
    page = sign_in(browser, console)
    old = _cookie(page)
    page.click("text=Sign out")
    page.wait_for_url("**/login")
    assert page.context.cookies() == []
    page.goto(console.url + "/health")
    assert page.url.endswith("/login")
    answer = httpx.get(
        console.url + "/health", cookies={"agentd_console": old}, follow_redirects=False
    )
    assert answer.status_code == 303
    page.context.close()
