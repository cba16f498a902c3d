"""The runtime asks ``prompt_for`` for each turn's system prompt, with the turn's scope."""

from __future__ import annotations

import pytest

from agentd import scope as scopes
from agentd.config import AgentDefaults
from agentd.engine.loop import AgentLoop
from agentd.engine.runtime import Runtime
from agentd.messages import user
from tests.support.fake_model import FakeModel

pytestmark = pytest.mark.anyio


async def test_each_path_gets_its_scopes_prompt() -> None:
    """Session turns, stateless turns and history() use the prompt of their scope's tenant."""
    asked: list[str] = []

    async def prompt_for(scope: scopes.Scope) -> str:
        asked.append(scope.tenant)
        return f"prompt of {scope.tenant}"

    model = FakeModel()
    runtime = Runtime(
        AgentLoop(model),
        system_prompt="unused",
        defaults=AgentDefaults(),
        default_scope=scopes.Scope(tenant="home"),
        prompt_for=prompt_for,
    )
    async with runtime:
        await runtime.ask("s", "hi", scope=scopes.Scope(tenant="a"))
        await runtime.ask("t", "hi")
        async with runtime.turn_stateless([user("x")], scope=scopes.Scope(tenant="b")) as turn:
            await turn.result()
        with scopes.use(scopes.Scope(tenant="c")):
            history = await runtime.history("u")
    systems = [r.messages[0].content for r in model.requests]
    assert systems == ["prompt of a", "prompt of home", "prompt of b"]
    assert history[0].content == "prompt of c"
    assert asked == ["a", "home", "b", "c"]


async def test_without_prompt_for_the_system_prompt_serves_all() -> None:
    """Without prompt_for, every turn gets system_prompt, and reload() replaces it."""
    model = FakeModel()
    async with Runtime(AgentLoop(model), system_prompt="one", defaults=AgentDefaults()) as rt:
        await rt.ask("s", "hi", scope=scopes.Scope(tenant="a"))
        rt.reload("two")
        await rt.ask("s", "again", scope=scopes.Scope(tenant="b"))
    assert [r.messages[0].content for r in model.requests] == ["one", "two"]
