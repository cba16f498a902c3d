"""The tool policy: which tools each audience and tenant is offered, and exec's network."""

from __future__ import annotations

import pytest

from agentd.config import ToolRule, ToolsSettings
from agentd.messages import ToolCall
from agentd.tools.policy import AUDIENCES, ToolPolicy, audience_of
from agentd.tools.registry import ToolRegistry

NAMES = ("current_time", "exec", "read_file", "web_fetch")


def test_defaults_keep_exec_from_groups_and_non_admins() -> None:
    """By default exec is off for Telegram and Matrix groups, email and HTTP non-admins, on
    otherwise."""
    policy = ToolPolicy(ToolsSettings())
    for audience in AUDIENCES:
        grant = policy.grant(audience, None, NAMES)
        groups = ("telegram_group", "matrix_group", "email", "http_user")
        assert grant.allows("exec") == (audience not in groups)
        assert grant.allows("read_file")
        assert grant.exec_network is False


@pytest.mark.parametrize(
    ("channel", "audience", "expected"),
    [
        pytest.param("telegram", None, "telegram_group", id="telegram-unsaid-is-group"),
        pytest.param("http", None, "http_user", id="http-unsaid-is-non-admin"),
        pytest.param("telegram", "telegram_private", "telegram_private", id="said"),
        pytest.param("matrix", None, "matrix_group", id="matrix-unsaid-is-group"),
        pytest.param("matrix", "matrix_private", "matrix_private", id="matrix-said"),
        pytest.param("irc", None, "http_user", id="unknown-channel-fails-closed"),
        pytest.param("console", "root", "console", id="unknown-audience"),
    ],
)
def test_audience_of(channel: str, audience: str | None, expected: str) -> None:
    """A turn that does not say its audience gets its channel's narrowest."""
    assert audience_of(channel, audience) == expected


def test_a_tenant_rule_narrows_every_audience() -> None:
    """A tenant's deny and allow apply on top of the audience's rule, never widen it."""
    tools = ToolsSettings(policy={"http_user": ToolRule(deny=["exec", "web_fetch"])})
    policy = ToolPolicy(
        tools,
        {"kids": ToolRule(allow=["current_time", "read_file", "exec"]), "ops": ToolRule()},
    )
    assert policy.grant("console", "kids", NAMES).tools == {"current_time", "read_file", "exec"}
    assert policy.grant("http_user", "kids", NAMES).tools == {"current_time", "read_file"}
    assert policy.grant("http_user", "ops", NAMES).tools == {"current_time", "read_file"}


@pytest.mark.parametrize(
    ("default", "audience_vote", "tenant_vote", "expected"),
    [
        pytest.param(False, None, None, False, id="default-off"),
        pytest.param(True, None, None, True, id="default-on"),
        pytest.param(False, True, None, True, id="audience-on"),
        pytest.param(True, False, None, False, id="audience-off"),
        pytest.param(False, True, False, False, id="tenant-off-wins"),
        pytest.param(True, None, False, False, id="tenant-off"),
    ],
)
def test_exec_network_false_wins(
    default: bool, audience_vote: bool | None, tenant_vote: bool | None, expected: bool
) -> None:
    """exec's network: the rules' votes (false wins), else tools.exec.network."""
    tools = ToolsSettings(
        exec={"network": default}, policy={"console": ToolRule(exec_network=audience_vote)}
    )
    policy = ToolPolicy(tools, {"t": ToolRule(exec_network=tenant_vote)})
    assert policy.grant("console", "t", NAMES).exec_network is expected


@pytest.mark.anyio
async def test_the_registry_refuses_a_tool_outside_the_grant() -> None:
    """A tool the turn was not offered is unknown to its calls, and not in its schemas."""
    registry = ToolRegistry()

    async def exec(command: str) -> str:
        """Run.

        Args:
            command: what.
        """
        return "ran"

    async def read_file(path: str) -> str:
        """Read.

        Args:
            path: where.
        """
        return "read"

    registry.add(exec)
    registry.add(read_file)
    allowed = frozenset({"read_file"})
    assert [s["function"]["name"] for s in registry.schemas(allowed)] == ["read_file"]
    outcome = await registry.call(ToolCall("c", "exec", '{"command": "id"}'), allowed)
    assert outcome.error and "unknown tool 'exec'; available: read_file" in outcome.content
    assert (await registry.call(ToolCall("c", "exec", '{"command": "id"}'))).content == "ran"
