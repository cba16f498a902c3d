"""The Sessions, Schedules, Memory and Health pages in a real Chromium, at 1280 and 390 wide."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.channels.http.console.conftest import Console, chat, screenshot, sign_in


def _confirming(page: Any) -> Any:
    page.on("dialog", lambda d: d.accept())
    return page


def test_sessions_lists_searches_and_clears(browser: Any, console: Console) -> None:
    """A chat shows on the Sessions page with its context fullness; search and clear work."""
    page = _confirming(sign_in(browser, console))
    session = chat(page, "remember the quokka")
    page.goto(console.url + "/sessions")
    row = page.locator("table.sessions tr", has_text=f"http:{session}")
    row.wait_for()
    assert row.locator("meter").count() == 1
    screenshot(page, "sessions")
    page.fill("input[name=q]", "quokka")
    page.click("form.filters button")
    page.wait_for_url("**q=quokka")
    assert page.locator("table.sessions tbody tr").count() == 1
    row.locator("a").click()
    page.wait_for_selector("li.msg.user:has-text('remember the quokka')")
    page.goto(console.url + "/sessions")
    with page.expect_navigation():
        page.locator("table.sessions tr", has_text=f"http:{session}").locator("button").click()
    expect(page.locator("table.sessions tr", has_text=f"http:{session}")).to_have_count(0)
    page.goto(console.url + f"/sessions/view?id=http:{session}")
    assert "no stored session" in page.inner_text("main")
    page.context.close()


def test_schedules_shows_the_job_and_run_now_logs_a_tick(browser: Any, console: Console) -> None:
    """The cron job is listed with its next fire; Run now adds an ok tick to the log."""
    page = sign_in(browser, console)
    page.goto(console.url + "/schedules")
    job = page.locator("table.jobs tr", has_text="heartbeat")
    assert "every 6h" in job.inner_text()
    assert job.locator("time").count() == 1
    before = page.locator("table.ticks tr.tick").count()
    with page.expect_navigation(timeout=30_000):
        job.locator("button", has_text="Run now").click()
    expect(page.locator("table.ticks tr.tick")).to_have_count(before + 1, timeout=20_000)
    tick = page.locator("table.ticks tr.tick").first
    assert "manual" in tick.inner_text()
    assert tick.locator(".badge.status-ok").count() == 1
    screenshot(page, "schedules")
    page.goto(console.url + "/schedules?status=error")
    assert page.locator("table.ticks tr.tick").count() == 0
    page.goto(console.url + "/schedules?status=ok&job=heartbeat")
    assert page.locator("table.ticks tr.tick").count() >= 1
    page.context.close()


def test_memory_saved_in_chat_is_found_and_deleted(browser: Any, console: Console) -> None:
    """A memory the agent saved in chat is found with its score and tag, then deleted."""
    page = _confirming(sign_in(browser, console))
    chat(page, "SAVE capybaras enjoy hot springs")
    page.goto(console.url + "/memory?q=capybaras+enjoy+hot+springs")
    found = page.locator("li.memory", has_text="capybaras enjoy hot springs")
    found.wait_for()
    assert float(found.locator(".score").inner_text()) > 0
    assert found.locator(".tag").all_inner_texts() == ["console"]
    screenshot(page, "memory")
    with page.expect_navigation():
        found.locator("button", has_text="Delete").click()
    expect(page.locator("li.memory", has_text="capybaras enjoy hot springs")).to_have_count(0)
    page.context.close()


def test_health_shows_components_and_charts(browser: Any, console: Console) -> None:
    """Model server, memory and channels with their state; three server-rendered SVG charts."""
    page = sign_in(browser, console)
    chat(page, "a turn for the charts")
    page.goto(console.url + "/health")
    states = page.locator("li.component").all_inner_texts()
    assert any("model server: ok" in s for s in states)
    assert any("Milvus" in s and ": ok" in s for s in states)
    assert any("http: serving" in s for s in states)
    assert any("cron: serving" in s for s in states)
    charts = page.locator("svg.chart")
    assert charts.count() == 3
    assert charts.first.locator("polyline, circle").count() >= 1
    assert page.locator("script:not([src])").count() == 0
    screenshot(page, "health")
    page.context.close()


@pytest.mark.parametrize("path", ["/chat", "/sessions", "/schedules", "/memory?q=x", "/health"])
def test_phone_width_has_no_horizontal_scroll(browser: Any, console: Console, path: str) -> None:
    """At 390x844 every page fits its width."""
    page = sign_in(browser, console, viewport={"width": 390, "height": 844})
    page.set_viewport_size({"width": 390, "height": 844})
    if path == "/chat":
        chat(page, "a message on a phone with a rather long line of words to wrap around")
    else:
        page.goto(console.url + path)
    overflow = page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0
    screenshot(page, path.strip("/").partition("?")[0])
    page.context.close()
