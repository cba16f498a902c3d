"""Routing: the model names a step's tool (or "answer") first, and the step is held to it."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from agentd.config import Settings
from agentd.engine.loop import REMINDER_HEAD, AgentLoop
from agentd.engine.route import (
    ANSWER,
    QUESTION_HEAD,
    asks_to_append,
    asks_to_remember,
    mode_for,
    ordered,
    question,
)
from agentd.errors import ToolError
from agentd.messages import Conversation, ToolCall, assistant, system, tool_result, user
from agentd.model.choice import ANY, CallRule
from agentd.model.packages import MODELS
from agentd.tools.registry import ToolRegistry
from tests.model.test_client import completion, make_client
from tests.model.test_client_grammar import PROPS
from tests.support.fake_model import FakeModel, answer

pytestmark = pytest.mark.anyio


def registry() -> tuple[ToolRegistry, list[str]]:
    reg = ToolRegistry(default_timeout=10)
    ran: list[str] = []

    async def lookup(key: str) -> str:
        """Look a key up.

        Args:
            key: The key.
        """
        ran.append(key)
        return f"value of {key}"

    async def current_time() -> str:
        """The time."""
        ran.append("now")
        return "noon"

    reg.add(lookup)
    reg.add(current_time)
    return reg, ran


class GrammarModel(FakeModel):
    """A fake model that says its tool steps are held to a grammar (as llama-server's are)."""

    async def grammar_enabled(self) -> bool:
        return True


def conversation(text: str = "hi") -> Conversation:
    return Conversation([system("be brief"), user(text)])


async def test_answer_route_makes_the_step_answer_in_words() -> None:
    model = FakeModel()
    model.choices.append(ANSWER)
    model.add(answer("4"))
    reg, ran = registry()
    conv = conversation("What is 2+2?")
    result = await AgentLoop(model, reg, route_tools="on", check_calls=True).run(conv)
    assert result.message.content == "4" and ran == []
    [asked] = model.asked
    assert asked[-1].content == question(["lookup", "current_time"])
    assert [m.content for m in asked[:-1]] == [m.content for m in conv.messages[:2]]
    assert model.shown[0] is not None and len(model.shown[0]) == 2  # the tools, as the step's
    [step] = model.requests
    # The step goes without tools: shown tools it may not call, the model wrote calls as text.
    assert step.answer_only and step.tools is None and step.tool_names == frozenset()
    # The question is never stored.
    assert [m.role for m in conv.messages] == ["system", "user", "assistant"]


async def test_a_routed_tool_is_the_only_one_the_step_may_call() -> None:
    model = FakeModel()
    model.choices.append("lookup")
    model.add(answer("", ("lookup", '{"key": "door"}')), answer("It is 42."))
    reg, ran = registry()
    conv = conversation("What is the door code?")
    result = await AgentLoop(model, reg, route_tools="on", check_calls=True).run(conv)
    assert result.message.content == "It is 42." and ran == ["door"]
    first, second = model.requests
    assert first.rule == CallRule(name="lookup") and not first.answer_only
    # One question, no yes/no check (the route was the choice); after the results the step
    # goes unrouted: asked the same way, the model mostly named the tool that had just run.
    assert len(model.asked) == 1
    assert second.rule == ANY and second.tool_names == {"lookup", "current_time"}
    assert second.messages[-1].content.startswith(REMINDER_HEAD)
    roles = [m.role for m in conv.messages]
    assert roles == ["system", "user", "assistant", "tool", "assistant"]


@pytest.mark.parametrize("word", [None, "bogus"])
async def test_no_usable_route_leaves_the_step_unrouted(word: str | None) -> None:
    """The model could not say, or named no offered tool: the step goes as without routing
    (and then the yes/no check applies)."""
    model = FakeModel()
    model.choices.extend([word, "yes"])
    model.add(answer("", ("lookup", '{"key": "k"}')), answer("done"))
    reg, ran = registry()
    await AgentLoop(model, reg, route_tools="on", check_calls=True).run(conversation())
    assert model.requests[0].rule == ANY and model.requests[0].tool_names == {
        "lookup",
        "current_time",
    }
    assert ran == ["k"]
    assert model.asked[1][-1].content.startswith("The user wrote")  # the yes/no check


async def test_auto_routes_only_under_a_grammar() -> None:
    plain, held = FakeModel(), GrammarModel()
    for model in (plain, held):
        model.choices.append(ANSWER)
        model.add(answer("hello"))
        await AgentLoop(model, registry()[0], route_tools="auto").run(conversation())
    assert plain.asked == [] and not plain.requests[0].answer_only
    assert len(held.asked) == 1 and held.requests[0].answer_only


async def test_off_never_asks() -> None:
    model = GrammarModel()
    model.add(answer("", ("lookup", '{"key": "k"}')), answer("done"))
    await AgentLoop(model, registry()[0], route_tools="off").run(conversation())
    assert model.asked == []


async def test_a_required_call_is_not_routed() -> None:
    model = FakeModel()
    model.choices.append(ANSWER)
    model.add(answer("", ("lookup", '{"key": "k"}')), answer("done"))
    await AgentLoop(model, registry()[0], route_tools="on").run(
        conversation(), rule=CallRule(name="lookup")
    )
    assert model.requests[0].rule == CallRule(name="lookup")
    assert model.asked == [] and not model.requests[1].answer_only


async def test_a_turn_without_tools_is_not_routed() -> None:
    model = FakeModel()
    model.add(answer("hello"))
    await AgentLoop(model, ToolRegistry(), route_tools="on").run(conversation())
    assert model.asked == []


async def test_first_step_is_routed_too() -> None:
    """The benchmarks' first step (BFCL) goes the way a turn's first step does."""
    model = FakeModel()
    model.choices.append(ANSWER)
    model.add(answer("I cannot do that."))
    reg, _ = registry()
    result = await AgentLoop(model, reg, route_tools="on").first_step(conversation())
    assert result.message.content == "I cannot do that." and model.requests[0].answer_only


class RoutingServer:
    """llama-server as far as a routed turn needs: /props, route questions answered from
    ``routes``, steps from ``replies``; records each chat body."""

    def __init__(self, routes: list[str], replies: list[str]) -> None:
        self.routes, self.replies = routes, replies
        self.bodies: list[dict[str, Any]] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        if request.url.path == "/props":
            return httpx.Response(200, json=PROPS)
        body = json.loads(request.content)
        self.bodies.append(body)
        asked = str(body["messages"][-1].get("content") or "")
        reply = self.routes.pop(0) if asked.startswith(QUESTION_HEAD) else self.replies.pop(0)
        return httpx.Response(200, json=completion(reply))


async def test_what_a_routed_turn_sends_to_llama_server() -> None:
    """The question, the step held to the routed tool, the next step: each shows the same tools,
    so the server's cached prompt serves the next one."""
    server = RoutingServer(
        routes=["current_time"],
        replies=['{"name": "current_time", "arguments": {}}', "It is noon."],
    )
    reg, ran = registry()
    loop = AgentLoop(make_client(server, tool_grammar="on"), reg, route_tools="auto")
    result = await loop.run(conversation("What time is it?"))
    assert result.message.content == "It is noon." and ran == ["now"]
    route, step1, step2 = server.bodies
    for body in server.bodies:
        assert [t["function"]["name"] for t in body["tools"]] == ["lookup", "current_time"]
        assert body["tool_choice"] == "none"  # llama-server's own parser off: grammars decide
    assert route["grammar"] == 'root ::= "answer" | "lookup" | "current_time"\n'
    assert route["temperature"] == 0 and route["max_tokens"] >= 8
    # The step is the question's prompt without the question: a prefix of it.
    assert route["messages"][:-1] == step1["messages"]
    assert step1["grammar"].startswith("root ::= calls")
    assert '\\"current_time\\"' in step1["grammar"] and '\\"lookup\\"' not in step1["grammar"]
    assert step2["grammar"].startswith("root ::= answer | calls")


async def test_answer_route_through_llama_server_is_an_answer_without_tools() -> None:
    server = RoutingServer(routes=["answer"], replies=["4"])
    loop = AgentLoop(make_client(server, tool_grammar="on"), registry()[0], route_tools="auto")
    result = await loop.run(conversation("What is 2+2?"))
    assert result.message.content == "4"
    route, step = server.bodies
    assert len(route["tools"]) == 2 and "tools" not in step
    assert step["grammar"].startswith("root ::= answer") and "callobj" not in step["grammar"]


async def test_a_turn_that_goes_on_from_tool_results_is_not_routed() -> None:
    """A client sends its tool's result back (a stateless continuation): the step answers from
    it unrouted (routed, the model named the tool again and the client ran it again)."""
    model = FakeModel()
    model.choices.append("lookup")
    model.add(answer("The product is 42."))
    call = ToolCall("c1", "mul", '{"a": 6, "b": 7}')
    conv = conversation("6 times 7?")
    conv.extend([assistant("", (call,)), tool_result(call, "42")])
    mul = {"type": "function", "function": {"name": "mul", "parameters": {"type": "object"}}}
    result = await AgentLoop(model, registry()[0], route_tools="on").run(conv, client_tools=[mul])
    assert result.message.content == "The product is 42."
    assert model.asked == [] and model.requests[0].rule == ANY


SMALL, DEFAULT = "qwen2.5-coder-0.5b", "qwen2.5-coder-1.5b"


@pytest.mark.parametrize(
    ("setting", "sidecar", "expected"),
    [
        ("auto", {"enabled": True, "model": "qwen2.5-coder-1.5b"}, "auto"),
        # Measured to route badly (BFCL 6/24 routed vs 10/24 unrouted): auto is off for it.
        ("auto", {"enabled": True, "model": "qwen2.5-coder-0.5b"}, "off"),
        ("on", {"enabled": True, "model": "qwen2.5-coder-0.5b"}, "on"),
        ("auto", {"enabled": True, "model": "qwen2.5-coder-0.5b", "model_path": "/m.gguf"}, "auto"),
        # The packaged file given by path (as bench/bfcl does) is that model, whatever `model`.
        ("auto", {"enabled": True, "model_path": f"/s/models/{MODELS[SMALL].filename}"}, "off"),
        ("auto", {"enabled": True, "model_path": f"/s/{MODELS[DEFAULT].filename}"}, "auto"),
        ("auto", {"enabled": False}, "auto"),
    ],
)
def test_the_mode_follows_the_served_model(
    setting: str, sidecar: dict[str, Any], expected: str
) -> None:
    settings = Settings(
        default={"route_tools": setting},  # type: ignore[arg-type]
        llm={"sidecar": sidecar},  # type: ignore[arg-type]
    )
    assert mode_for(settings) == expected


def failing_registry() -> tuple[ToolRegistry, list[str]]:
    """``read`` fails for every key but "right"."""
    reg, ran = registry()

    async def read(key: str) -> str:
        """Read a key.

        Args:
            key: The key.
        """
        ran.append(key)
        if key != "right":
            raise ToolError(f"no key {key!r}; try 'right'")
        return "the value"

    reg.add(read)
    return reg, ran


async def test_the_step_after_a_failed_call_is_routed_once() -> None:
    """All of a step's calls failed: the next step is routed (the model made up the result
    otherwise); a second failure is not routed again."""
    model = FakeModel()
    model.choices.extend(["read", "read"])
    model.add(
        answer("", ("read", '{"key": "wrong"}')),
        answer("", ("read", '{"key": "worse"}')),
        answer("", ("read", '{"key": "right"}')),
        answer("It is the value."),
    )
    reg, ran = failing_registry()
    result = await AgentLoop(model, reg, route_tools="on").run(conversation("read it"))
    assert result.message.content == "It is the value." and ran == ["wrong", "worse", "right"]
    assert len(model.asked) == 2  # the first step, and the one after the first failure
    rules = [r.rule for r in model.requests]
    assert rules == [CallRule(name="read"), CallRule(name="read"), ANY, ANY]
    # The question follows the failed result and the reminder; none of it is stored.
    rerouted = model.asked[1]
    assert rerouted[-3].role == "tool" and rerouted[-2].content.startswith(REMINDER_HEAD)
    assert not any(QUESTION_HEAD in m.content for m in result.added)


async def test_a_failure_then_an_answer_route_answers_without_tools() -> None:
    model = FakeModel()
    model.choices.extend(["read", ANSWER])
    model.add(answer("", ("read", '{"key": "wrong"}')), answer("I could not read it."))
    reg, _ = failing_registry()
    result = await AgentLoop(model, reg, route_tools="on").run(conversation("read it"))
    assert result.message.content == "I could not read it."
    assert model.requests[1].answer_only and model.requests[1].tools is None


async def test_a_step_with_a_successful_call_is_not_followed_by_a_route() -> None:
    model = FakeModel()
    model.choices.append("read")
    model.add(
        answer("", ("read", '{"key": "right"}'), ("read", '{"key": "wrong"}')),
        answer("Half of it."),
    )
    reg, _ = failing_registry()
    await AgentLoop(model, reg, route_tools="on").run(conversation("read both"))
    assert len(model.asked) == 1 and model.requests[1].rule == ANY


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Please remember for the future: my favourite tea is sencha.", True),
        ("Remember that my sister Emil's birthday is on May 8.", True),
        ("Save this in your long-term memory: the door code is 4239.", True),
        ("Please store in memory that I am vegetarian.", True),
        ("Don't forget: the car is in bay 12.", True),
        ("ok, keep in mind that I work nights", True),
        ("Note that the meeting moved to 3pm.", True),
        ("Do you remember my birthday?", False),
        ("Remember when we met?", False),
        ("Remember what I told you about tea", False),
        ("Can you remember that I like tea?", False),
        ("Write 'remember the milk' to todo.txt.", False),
        ("Save the list to shopping.txt.", False),
        ("What's my favourite tea?", False),
    ],
)
def test_a_request_to_remember(text: str, expected: bool) -> None:
    assert asks_to_remember(text) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Append the line '- book the Bergen train' to todo.txt.", True),
        ("Please append 'milk' to shopping.txt", True),
        ("Add 'Met Bruno about the roof' as a new last line of journal.txt.", True),
        ("Add it as the last line of notes.md", True),
        ("Put 'call mum' at the end of todo.txt.", True),
        ("Write 'done' to the bottom of log.txt", True),
        ("Add a port setting to config.json.", False),
        ("Replace the first line of todo.txt with 'x'.", False),
        ("What is the last line of todo.txt?", False),
        ("Write 'hello' to hello.txt.", False),
    ],
)
def test_a_request_to_append(text: str, expected: bool) -> None:
    assert asks_to_append(text) is expected


def memory_registry() -> tuple[ToolRegistry, list[str]]:
    reg, ran = registry()

    async def memory_save(content: str) -> str:
        """Save a fact.

        Args:
            content: The fact.
        """
        ran.append(content)
        return "saved memory k1"

    reg.add(memory_save)
    return reg, ran


async def test_a_request_to_remember_routed_to_answer_saves() -> None:
    """ "Please remember ..." routed to answer got "Thank you!" and nothing saved: the step is
    held to memory_save instead."""
    model = FakeModel()
    model.choices.append(ANSWER)
    model.add(answer("", ("memory_save", '{"content": "My favourite tea is sencha."}')))
    model.add(answer("Saved: your favourite tea is sencha."))
    reg, ran = memory_registry()
    conv = conversation("Please remember for the future: my favourite tea is sencha.")
    result = await AgentLoop(model, reg, route_tools="on").run(conv)
    assert ran == ["My favourite tea is sencha."]
    assert model.requests[0].rule == CallRule(name="memory_save")
    assert result.message.content == "Saved: your favourite tea is sencha."


@pytest.mark.parametrize(
    ("text", "tools"),
    [
        ("Do you remember my favourite tea?", "memory"),  # a question
        ("Remember that my tea is sencha.", "plain"),  # no memory_save offered
    ],
)
async def test_other_answers_stay_answers(text: str, tools: str) -> None:
    model = FakeModel()
    model.choices.append(ANSWER)
    model.add(answer("Sencha."))
    reg, ran = memory_registry() if tools == "memory" else registry()
    await AgentLoop(model, reg, route_tools="on").run(conversation(text))
    assert ran == [] and model.requests[0].answer_only


def test_list_dir_is_offered_before_read_file() -> None:
    names = ["current_time", "read_file", "write_file", "list_dir", "exec"]
    assert ordered(names) == ["current_time", "list_dir", "read_file", "write_file", "exec"]
    assert ordered(["list_dir", "exec"]) == ["list_dir", "exec"]  # read_file not offered
    assert ordered(["read_file", "exec"]) == ["read_file", "exec"]
    assert ordered(["list_dir", "read_file"]) == ["list_dir", "read_file"]


async def test_the_routing_question_and_its_options_name_list_dir_first() -> None:
    reg = ToolRegistry(default_timeout=10)

    async def read_file(path: str) -> str:
        """Read a file.

        Args:
            path: Which.
        """
        return "text"

    async def list_dir(path: str = ".") -> str:
        """List a folder.

        Args:
            path: Which.
        """
        return "a.txt"

    reg.add(read_file)
    reg.add(list_dir)
    model = FakeModel()
    model.choices.append("list_dir")
    model.add(answer("", ("list_dir", "{}")), answer("a.txt"))
    result = await AgentLoop(model, reg, route_tools="on").run(conversation("List your files."))
    assert result.message.content == "a.txt"
    [asked] = model.asked
    assert asked[-1].content == question(["list_dir", "read_file"])
    assert "Options: answer, list_dir, read_file)" in asked[-1].content
    assert model.options[0] == (ANSWER, "list_dir", "read_file")
