"""Per-tenant system prompts: the operator's SYSTEM.md and AGENTS.md, then the tenant's own."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from structlog.testing import capture_logs

from agentd import scope as scopes
from agentd.config import Settings
from agentd.daemon.app import open_app
from agentd.daemon.prompt import ELSEWHERE, TenantPrompts, today_line
from agentd.daemon.workdirs import Workdirs
from tests.support.stub_llm import Reply, StubLLM

pytestmark = pytest.mark.anyio

FAMILY = scopes.Scope(tenant="family")


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """An operator with SYSTEM.md and AGENTS.md; tenant 'family' has AGENTS.md of its own."""
    workdir = tmp_path / "home" / "workdir"
    workdir.mkdir(parents=True)
    (workdir.parent / "SYSTEM.md").write_text("You are Ada.")
    (workdir / "AGENTS.md").write_text("Operator rules.")
    settings = Settings(
        workdir=workdir,
        state_dir=tmp_path / "state",
        tenants={"ops": {"workdir": workdir}},  # type: ignore[dict-item]
    )
    Workdirs(settings)("family")
    (Workdirs(settings).path("family") / "AGENTS.md").write_text("Family rules.\n")
    return settings


async def test_tenant_agents_md_follows_the_operators(settings: Settings) -> None:
    """A tenant with its own workdir gets SYSTEM.md, the operator's AGENTS.md, then its own."""
    prompts = TenantPrompts(Workdirs(settings))
    assert await prompts(FAMILY) == "You are Ada.\n\nOperator rules.\n\nFamily rules."


@pytest.mark.parametrize(
    "tenant",
    [
        pytest.param("default", id="install-tenant"),
        pytest.param("friends", id="other-tenant"),
        pytest.param("ops", id="mapped-to-operators-workdir"),
    ],
)
async def test_other_tenants_do_not_get_it(settings: Settings, tenant: str) -> None:
    """The install's tenant, another one and one in the operator's workdir: no family rules."""
    prompts = TenantPrompts(Workdirs(settings))
    assert await prompts(scopes.Scope(tenant=tenant)) == "You are Ada.\n\nOperator rules."


@pytest.mark.parametrize(
    "break_it",
    [
        pytest.param(lambda p: p.mkdir(), id="directory"),
        pytest.param(lambda p: p.write_bytes(b"rules \xff\xfe"), id="not-utf8"),
        pytest.param(lambda p: p.symlink_to(p.parents[4] / "secret.md"), id="symlink"),
        pytest.param(lambda p: p.hardlink_to(p.parents[4] / "secret.md"), id="hardlink"),
    ],
)
async def test_unreadable_tenant_file_is_skipped_and_logged(
    settings: Settings, break_it: Callable[[Path], object]
) -> None:
    """A tenant's AGENTS.md that cannot be read is logged as an error and left out; no raise."""
    (settings.state_dir.parent / "secret.md").write_text("operator secret")
    own = Workdirs(settings).path("family") / "AGENTS.md"
    own.unlink()
    break_it(own)
    prompts = TenantPrompts(Workdirs(settings))
    with capture_logs() as logs:
        assert await prompts(FAMILY) == "You are Ada.\n\nOperator rules."
    [event] = [e for e in logs if e["event"] == "prompt.tenant_agents_skipped"]
    assert event["log_level"] == "error" and event["tenant"] == "family"
    assert "AGENTS.md" in event["error"]


async def test_tenant_file_is_cached_until_reload(settings: Settings) -> None:
    """A changed tenant AGENTS.md takes effect at the next reload, not before."""
    prompts = TenantPrompts(Workdirs(settings))
    assert (await prompts(FAMILY)).endswith("Family rules.")
    (Workdirs(settings).path("family") / "AGENTS.md").write_text("New family rules.")
    assert (await prompts(FAMILY)).endswith("\n\nFamily rules.")
    prompts.reload()
    assert (await prompts(FAMILY)).endswith("\n\nNew family rules.")


async def test_cache_is_bounded(settings: Settings) -> None:
    """Beyond max_cached tenants the least recently used prompt is dropped (read again later)."""
    prompts = TenantPrompts(Workdirs(settings), max_cached=2)
    for tenant in ("t1", "t2", "family"):
        await prompts(scopes.Scope(tenant=tenant))
    assert list(prompts._cache) == ["t2", "family"]


async def test_turn_in_a_tenants_scope_sends_its_prompt(
    settings: Settings, stub_llm: StubLLM
) -> None:
    """Through the wired runtime, the model sees the family rules only in family's turns."""
    settings = settings.model_copy(
        update={"llm": settings.llm.model_copy(update={"base_url": stub_llm.url, "max_retries": 0})}
    )
    async with open_app(settings) as app:
        stub_llm.add(Reply(text="one"), Reply(text="two"))
        await app.runtime.ask("s", "hi", scope=FAMILY)
        await app.runtime.ask("s", "hi", scope=scopes.Scope(tenant="default"))
        (Workdirs(settings).path("family") / "AGENTS.md").write_text("Reloaded rules.")
        assert app.reload_prompt()
        stub_llm.add(Reply(text="three"))
        await app.runtime.ask("s", "again", scope=FAMILY)
    # Each prompt starts with today's date (default.date_in_prompt).
    dated = [r["messages"][0]["content"].split("\n\n", 1) for r in stub_llm.requests]
    assert all(line.startswith("Today is ") for line, _ in dated)
    systems = [prompt for _, prompt in dated]
    assert systems[0] == "You are Ada.\n\nOperator rules.\n\nFamily rules."
    assert systems[1] == "You are Ada.\n\nOperator rules."
    assert systems[-1] == "You are Ada.\n\nOperator rules.\n\nReloaded rules."


async def test_a_clock_dates_every_tenants_prompt(settings: Settings) -> None:
    now = datetime(2026, 12, 1, 9, 30, tzinfo=ZoneInfo("UTC"))
    prompts = TenantPrompts(Workdirs(settings), now=lambda: now)
    family = await prompts(FAMILY)
    assert family == today_line(now) + "\n\nYou are Ada.\n\nOperator rules.\n\nFamily rules."
    assert await prompts(scopes.Scope(tenant="default")) == (
        f"Today is Tuesday, 2026-12-01 (UTC).{ELSEWHERE}\n\nYou are Ada.\n\nOperator rules."
    )
    # Without a clock, no date (default.date_in_prompt = false).
    assert await TenantPrompts(Workdirs(settings))(FAMILY) == family.split("\n\n", 1)[1]


@pytest.mark.parametrize(
    ("when", "line"),
    [
        (
            datetime(2026, 12, 1, 23, 59, tzinfo=ZoneInfo("UTC")),
            "Today is Tuesday, 2026-12-01 (UTC)." + ELSEWHERE,
        ),
        (
            datetime(2026, 12, 1, 12, 0, tzinfo=ZoneInfo("Asia/Tokyo")),
            "Today is Tuesday, 2026-12-01 (JST)." + ELSEWHERE,
        ),
        (
            datetime(2026, 12, 1, 3, 30, tzinfo=ZoneInfo("Asia/Tokyo")),
            "Today is Tuesday, 2026-12-01 (JST, UTC+0900); in UTC it is Monday, 2026-11-30."
            + ELSEWHERE,
        ),
        (
            datetime(2026, 11, 30, 20, 0, tzinfo=ZoneInfo("America/New_York")),
            "Today is Monday, 2026-11-30 (EST, UTC-0500); in UTC it is Tuesday, 2026-12-01."
            + ELSEWHERE,
        ),
    ],
)
def test_today_line_names_the_local_day_and_the_utc_day_when_it_differs(
    when: datetime, line: str
) -> None:
    assert today_line(when) == line
