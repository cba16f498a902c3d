"""A routed first step whose request names workdir files reads them first (``mentioned``)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from agentd.engine.loop import READ_TOOL, REMINDER_HEAD, AgentLoop, Mentioned
from agentd.engine.route import QUESTION_HEAD
from agentd.messages import Conversation, system, user
from agentd.model.choice import ANY, CallRule
from agentd.tools.builtin import register_builtin_tools
from agentd.tools.registry import ToolRegistry
from tests.engine.test_route import RoutingServer
from tests.model.test_client import make_client
from tests.support.fake_model import FakeModel, answer

pytestmark = pytest.mark.anyio


def file_tools(workdir: Path) -> ToolRegistry:
    reg = ToolRegistry(default_timeout=10)
    register_builtin_tools(reg, workdir)
    return reg


def names(*found: str, asked: list[str] | None = None) -> Mentioned:
    async def mentioned(text: str) -> Sequence[str]:
        if asked is not None:
            asked.append(text)
        return list(found)

    return mentioned


def conversation(text: str) -> Conversation:
    return Conversation([system("be brief"), user(text)])


async def test_named_files_are_read_before_anything_else(tmp_path: Path) -> None:
    (tmp_path / "source.txt").write_text("maple-1845\n")
    model = FakeModel()
    model.choices.append("write_file")  # asked after the read: the model's own first choice
    model.add(
        answer("", ("read_file", '{"path": "source.txt"}')),
        answer("", ("write_file", '{"path": "backup.txt", "content": "maple-1845\\n"}')),
        answer("Copied."),
    )
    asked: list[str] = []
    loop = AgentLoop(
        model, file_tools(tmp_path), route_tools="on", mentioned=names("source.txt", asked=asked)
    )
    request = "Copy source.txt into backup.txt."
    result = await loop.run(conversation(request))
    assert result.message.content == "Copied."
    assert (tmp_path / "backup.txt").read_text() == "maple-1845\n"
    assert asked == [request]
    # No routing question first: the step is held to reading the named file. The next step
    # is routed, with the file's text before the question.
    first, second, third = model.requests
    assert first.rule == CallRule(name=READ_TOOL, single=True, values=(("path", ("source.txt",)),))
    [asked] = model.asked
    assert "maple-1845" in asked[-3].content and asked[-2].content.startswith(REMINDER_HEAD)
    assert asked[-1].content.startswith(QUESTION_HEAD)
    assert second.rule == CallRule(name="write_file") and third.rule == ANY


async def test_without_named_files_the_step_is_routed_as_usual(tmp_path: Path) -> None:
    model = FakeModel()
    model.choices.append("answer")
    model.add(answer("Paris."))
    loop = AgentLoop(model, file_tools(tmp_path), route_tools="on", mentioned=names())
    result = await loop.run(conversation("Capital of France?"))
    assert result.message.content == "Paris." and len(model.asked) == 1
    assert model.requests[0].answer_only


async def test_read_first_needs_routing_and_the_read_tool(tmp_path: Path) -> None:
    # Routing off: nothing is asked or held.
    model = FakeModel()
    model.add(answer("ok"))
    asked: list[str] = []
    loop = AgentLoop(model, file_tools(tmp_path), mentioned=names("a.txt", asked=asked))
    await loop.run(conversation("Show a.txt"))
    assert asked == [] and model.requests[0].rule == ANY
    # The policy does not offer read_file: the step is routed by the question.
    model = FakeModel()
    model.choices.append("answer")
    model.add(answer("ok"))
    loop = AgentLoop(
        model, file_tools(tmp_path), route_tools="on", mentioned=names("a.txt", asked=asked)
    )
    await loop.run(conversation("Show a.txt"), allowed=frozenset({"write_file", "list_dir"}))
    assert asked == [] and len(model.asked) == 1


async def test_a_required_call_or_a_continuation_is_not_held_to_reading(tmp_path: Path) -> None:
    model = FakeModel()
    model.add(answer("", ("list_dir", "{}")), answer("done"))
    loop = AgentLoop(model, file_tools(tmp_path), route_tools="on", mentioned=names("a.txt"))
    await loop.run(conversation("list a.txt's folder"), rule=CallRule(required=True))
    assert model.requests[0].rule == CallRule(required=True)


async def test_a_failing_lookup_leaves_the_step_routed(tmp_path: Path) -> None:
    async def broken(text: str) -> Sequence[str]:
        raise OSError("gone")

    model = FakeModel()
    model.choices.append("answer")
    model.add(answer("ok"))
    loop = AgentLoop(model, file_tools(tmp_path), route_tools="on", mentioned=broken)
    result = await loop.run(conversation("Show a.txt"))
    assert result.message.content == "ok" and len(model.asked) == 1


async def test_llama_server_gets_a_grammar_holding_the_path_to_the_named_files() -> None:
    """Through the real client: no route question; the step's grammar calls only read_file,
    with the path one of the named files; the template shows the tools as declared."""
    server = RoutingServer(
        routes=["answer"],
        replies=['{"name": "read_file", "arguments": {"path": "app.conf"}}', "It is 11."],
    )
    reg = ToolRegistry(default_timeout=10)
    ran: list[str] = []

    async def read_file(path: str, offset: int = 0) -> str:
        """Read a file.

        Args:
            path: The path.
            offset: Where to start.
        """
        ran.append(path)
        return "timeout = 11"

    async def list_dir() -> str:
        """List the workdir."""
        return "app.conf"

    reg.add(read_file)
    reg.add(list_dir)
    client = make_client(server, tool_grammar="on")
    loop = AgentLoop(client, reg, route_tools="auto", mentioned=names("app.conf", "b.md"))
    result = await loop.run(conversation("What is the timeout in app.conf?"))
    assert result.message.content == "It is 11." and ran == ["app.conf"]
    step1, route, step2 = server.bodies
    assert route["messages"][-1]["content"].startswith(QUESTION_HEAD)
    grammar = step1["grammar"]
    assert grammar.startswith("root ::= calls")
    assert '"\\"app.conf\\""' in grammar and '"\\"b.md\\""' in grammar
    assert '\\"list_dir\\"' not in grammar
    assert "enum" not in json.dumps(step1["tools"])  # the enum lives in the grammar only
    assert "tools" not in step2 and "callobj" not in step2["grammar"]  # routed to answer
