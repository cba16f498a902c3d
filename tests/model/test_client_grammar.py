"""Constrained tool steps: what the client sends, and when it sends a grammar at all."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from structlog.testing import capture_logs

from agentd.config.settings import Switch
from agentd.engine.loop import AgentLoop
from agentd.errors import ContextExceeded
from agentd.messages import Conversation, user
from agentd.model.choice import CallRule
from agentd.model.written import written
from agentd.tools.registry import ToolRegistry
from tests.model.test_client import completion, make_client, sse

pytestmark = pytest.mark.anyio

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "current_time",
            "description": "Now.",
            "parameters": {"type": "object", "properties": {"timezone": {"type": "string"}}},
        },
    }
]
PROPS = {"chat_template": "{{ messages }}", "default_generation_settings": {"n_ctx": 4096}}


class Server:
    """Answers /props (or 404), records chat bodies, answers ``reply`` (or refuses grammars).
    A reply the request starts (its last message the assistant's) is sent with the start in
    front, as llama-server continues it, unless ``continues`` is off."""

    def __init__(
        self,
        *,
        props: bool = True,
        refuse_grammar: bool = False,
        continues: bool = True,
        refuse_start: str | None = None,
    ) -> None:
        self.props = props
        self.refuse_grammar = refuse_grammar
        self.continues = continues
        self.refuse_start = refuse_start
        self.bodies: list[dict[str, Any]] = []
        self.props_asked = 0
        self.reply = '```json\n{"name": "current_time", "arguments": {"timezone": "UTC"}}\n```'

    def __call__(self, request: httpx.Request) -> httpx.Response:
        if request.url.path == "/props":
            self.props_asked += 1
            return httpx.Response(200, json=PROPS) if self.props else httpx.Response(404)
        body = json.loads(request.content)
        self.bodies.append(body)
        if self.refuse_grammar and "grammar" in body:
            error = {"error": {"code": 400, "message": "Failed to parse grammar"}}
            return httpx.Response(400, json=error)
        last = body["messages"][-1]
        if self.refuse_start and last["role"] == "assistant":
            error = {"error": {"code": 400, "message": self.refuse_start}}
            return httpx.Response(400, json=error)
        started = last["content"] if last["role"] == "assistant" and self.continues else ""
        if body.get("stream"):
            chunks = [
                {"choices": [{"index": 0, "delta": {"content": text}}]}
                for text in (started, self.reply)
                if text
            ]
            return httpx.Response(200, content=sse(*chunks))
        return httpx.Response(200, json=completion(started + self.reply))


async def test_on_sends_a_grammar_and_turns_off_server_tool_parsing() -> None:
    server = Server()
    client = make_client(server, tool_grammar="on")
    result = await client.chat([user("time?")], TOOLS, frozenset({"current_time"}))
    body = server.bodies[0]
    assert body["tool_choice"] == "none" and body["tools"] == TOOLS
    assert '\\"current_time\\"' in body["grammar"] and body["grammar"].startswith("root ::=")
    # The fenced call the grammar allows is parsed into a real tool call.
    [call] = result.message.tool_calls
    assert call.name == "current_time" and json.loads(call.arguments) == {"timezone": "UTC"}
    assert result.message.content == ""
    assert server.props_asked == 0  # "on" does not ask


async def test_steps_without_tools_carry_no_grammar() -> None:
    server = Server()
    server.reply = "plain"
    client = make_client(server, tool_grammar="on")
    await client.chat([user("hi")])
    assert "grammar" not in server.bodies[0] and "tool_choice" not in server.bodies[0]


@pytest.mark.parametrize(("props", "expected"), [(True, True), (False, False)])
async def test_auto_asks_props_once(props: bool, expected: bool) -> None:
    server = Server(props=props)
    client = make_client(server, tool_grammar="auto")
    for _ in range(3):
        await client.chat([user("time?")], TOOLS, frozenset({"current_time"}))
    assert [("grammar" in b) for b in server.bodies] == [expected] * 3
    assert server.props_asked == 1


async def test_off_never_sends_one() -> None:
    server = Server()
    client = make_client(server, tool_grammar="off")
    await client.chat([user("time?")], TOOLS, frozenset({"current_time"}))
    assert "grammar" not in server.bodies[0] and "tool_choice" not in server.bodies[0]
    assert not await client.grammar_enabled()


@pytest.mark.parametrize("stream", [False, True])
async def test_a_refused_grammar_is_dropped_and_the_call_retried(stream: bool) -> None:
    server = Server(refuse_grammar=True)
    client = make_client(server, tool_grammar="on")
    names = frozenset({"current_time"})
    if stream:
        events = [e async for e in client.stream([user("time?")], TOOLS, names)]
        result = events[-1].result  # type: ignore[union-attr]
    else:
        result = await client.chat([user("time?")], TOOLS, names)
    assert [("grammar" in b) for b in server.bodies] == [True, False]
    assert result.message.tool_calls[0].name == "current_time"
    assert not await client.grammar_enabled()  # not tried again


async def test_streamed_constrained_call_shows_no_text() -> None:
    server = Server()
    client = make_client(server, tool_grammar="on")
    events = [e async for e in client.stream([user("time?")], TOOLS, frozenset({"current_time"}))]
    assert [type(e).__name__ for e in events] == ["Completed"]
    assert server.bodies[0]["grammar"]


async def test_answer_only_steps_are_held_to_prose() -> None:
    server = Server()
    server.reply = "It is noon."
    client = make_client(server, tool_grammar="on")
    await client.chat([user("time?")], None, answer_only=True)
    body = server.bodies[0]
    assert "tools" not in body and body["grammar"].startswith("root ::= answer")
    off = Server()
    await make_client(off, tool_grammar="off").chat([user("time?")], None, answer_only=True)
    assert "grammar" not in off.bodies[0]


async def test_an_answer_only_step_may_show_tools_it_cannot_call() -> None:
    """Tools sent with an answer-only step are shown (the cached prompt stays the same) and the
    step is held to prose: llama-server's parsing off, the prose grammar."""
    server = Server()
    server.reply = "It is noon."
    client = make_client(server, tool_grammar="on")
    result = await client.chat([user("time?")], TOOLS, answer_only=True)
    body = server.bodies[0]
    assert body["tools"] == TOOLS and body["tool_choice"] == "none"
    assert body["grammar"].startswith("root ::= answer") and "current_time" not in body["grammar"]
    assert result.message.content == "It is noon."


def test_among_narrows_the_callable_tools_to_some_of_those_shown() -> None:
    """``among`` keeps the named tools (a name outside it leaves nothing to call)."""
    other = {**TOOLS[0], "function": {**TOOLS[0]["function"], "name": "web_fetch"}}
    shown = [TOOLS[0], other]
    assert CallRule(among=frozenset({"web_fetch"})).narrow(shown) == [other]
    assert CallRule(among=frozenset()).narrow(shown) == []
    assert CallRule(name="current_time", among=frozenset({"web_fetch"})).narrow(shown) == []
    assert CallRule().narrow(shown) == shown


async def test_a_step_held_among_some_tools_shows_all_and_grammars_some() -> None:
    """The grammar of a step held to some of the tools names only those; all are shown."""
    other = {**TOOLS[0], "function": {**TOOLS[0]["function"], "name": "web_fetch"}}
    server = Server()
    client = make_client(server, tool_grammar="on")
    held = CallRule(among=frozenset({"current_time"}))
    await client.chat([user("time?")], [TOOLS[0], other], rule=held)
    body = server.bodies[0]
    assert [t["function"]["name"] for t in body["tools"]] == ["current_time", "web_fetch"]
    assert "current_time" in body["grammar"] and "web_fetch" not in body["grammar"]


@pytest.mark.parametrize(
    ("grammar", "reply", "expected"),
    [
        ("on", "no", "no"),
        ("off", "Yes, it is needed.", "yes"),
        ("off", "**No**", "no"),
        ("off", "Maybe", None),
    ],
)
async def test_choose_picks_one_option(grammar: str, reply: str, expected: str | None) -> None:
    server = Server()
    server.reply = reply
    client = make_client(server, tool_grammar=grammar)
    assert await client.choose([user("needed?")], ("yes", "no")) == expected
    body = server.bodies[0]
    assert body["max_tokens"] == 4 and body["temperature"] == 0 and "tools" not in body
    assert ("grammar" in body) == (grammar == "on")
    if grammar == "on":
        assert body["grammar"] == 'root ::= "yes" | "no"\n'


@pytest.mark.parametrize("client_tools", ["auto", "off"])
async def test_client_tools_are_in_the_grammar_of_a_turn(client_tools: Switch) -> None:
    """A turn offering client tools builds the step's grammar from the client's tools (and,
    with the client_tools guard off, the agent's too), and a grammar-constrained call of the
    client's tool is handed back."""
    mul = {
        "type": "function",
        "function": {
            "name": "mul",
            "parameters": {"type": "object", "properties": {"a": {"type": "integer"}}},
        },
    }
    server = Server()
    server.reply = '```json\n{"name": "mul", "arguments": {"a": 6}}\n```'
    tools = ToolRegistry()
    tools.add(_now, name="current_time")
    guards: dict[str, Switch] = {"client_tools": client_tools}
    loop = AgentLoop(make_client(server, tool_grammar="on"), tools, guards=guards)
    conv = Conversation()
    conv.append(user("6 times?"))
    result = await loop.run(conv, client_tools=[mul])
    grammar = server.bodies[0]["grammar"]
    assert '\\"mul\\"' in grammar
    assert ('\\"current_time\\"' in grammar) == (client_tools == "off")
    assert [c.name for c in result.message.tool_calls] == ["mul"]


async def _now() -> str:
    """The time."""
    return "noon"


AREA = {
    "type": "function",
    "function": {
        "name": "area",
        "description": "Area.",
        "parameters": {"type": "object", "properties": {"r": {"type": "number"}}},
    },
}


async def test_a_named_tool_choice_narrows_the_grammar_to_it() -> None:
    """tool_choice naming a function: the reply is started with its call (the model server
    reads it as prompt), the grammar allows the rest of that call alone, and no prose."""
    server = Server()
    server.reply = ' {"r": 2}\n}\n```'
    client = make_client(server, tool_grammar="on")
    rule = CallRule(name="area")
    result = await client.chat(
        [user("area?")], [*TOOLS, AREA], frozenset({"current_time", "area"}), rule=rule
    )
    body = server.bodies[0]
    assert [t["function"]["name"] for t in body["tools"]] == ["current_time", "area"]
    assert body["messages"][-1] == {
        "role": "assistant",
        "content": '```json\n{\n  "name": "area",\n  "arguments":',
    }
    assert '\\"current_time\\"' not in body["grammar"]
    assert body["grammar"].startswith("root ::= ws t0-args")
    [call] = result.message.tool_calls
    assert call.name == "area" and json.loads(call.arguments) == {"r": 2}


def test_values_hold_a_named_tools_arguments_to_an_enum() -> None:
    """``values`` make the argument required and one of the values; the tools given stay as
    they were (they are shared with the template)."""
    before = json.dumps([*TOOLS, AREA], sort_keys=True)
    rule = CallRule(name="current_time", values=(("timezone", ("UTC", "Asia/Tokyo")),))
    [held] = rule.narrow([*TOOLS, AREA])
    params = held["function"]["parameters"]
    assert params["properties"]["timezone"] == {"type": "string", "enum": ["UTC", "Asia/Tokyo"]}
    assert params["required"] == ["timezone"]
    assert json.dumps([*TOOLS, AREA], sort_keys=True) == before
    # An argument the schema lacks is added as a string held to the values.
    [area] = CallRule(name="area", values=(("unit", ("cm",)),)).narrow([AREA])
    assert area["function"]["parameters"]["properties"]["unit"] == {
        "type": "string",
        "enum": ["cm"],
    }


async def test_a_grammar_with_values_allows_only_those_values() -> None:
    server = Server()
    client = make_client(server, tool_grammar="on")
    rule = CallRule(name="current_time", values=(("timezone", ("UTC",)),))
    await client.chat([user("time?")], TOOLS, frozenset({"current_time"}), rule=rule)
    grammar = server.bodies[0]["grammar"]
    assert 't0-args-timezone ::= "\\"UTC\\""\n' in grammar
    assert "enum" not in json.dumps(server.bodies[0]["tools"])


@pytest.mark.parametrize(
    ("rule", "fields"),
    [
        (CallRule(required=True), {"tool_choice": "required"}),
        (
            CallRule(name="area", single=True),
            {
                "tool_choice": {"type": "function", "function": {"name": "area"}},
                "parallel_tool_calls": False,
            },
        ),
        (CallRule(), {}),
    ],
)
@pytest.mark.parametrize("stream", [False, True])
async def test_without_a_grammar_the_rule_goes_as_openai_fields(
    rule: CallRule, fields: dict[str, Any], stream: bool
) -> None:
    """A server that takes no grammar (off, or refusing it) is sent tool_choice and
    parallel_tool_calls as the OpenAI API spells them."""
    for setting, refuse in (("off", False), ("on", True)):
        server = Server(refuse_grammar=refuse)
        client = make_client(server, tool_grammar=setting)
        names = frozenset({"current_time", "area"})
        if stream:
            _ = [e async for e in client.stream([user("x")], [*TOOLS, AREA], names, rule=rule)]
        else:
            await client.chat([user("x")], [*TOOLS, AREA], names, rule=rule)
        body = server.bodies[-1]
        assert "grammar" not in body
        assert {k: body[k] for k in ("tool_choice", "parallel_tool_calls") if k in body} == fields


async def test_choose_grammar_spells_options_as_gbnf_literals() -> None:
    """A routing option with a non-ASCII or quoted name is one GBNF literal (grammar.literal)."""
    server = Server()
    server.reply = "café"
    client = make_client(server, tool_grammar="on")
    assert await client.choose([user("which?")], ("answer", "café", 'a"b')) == "café"
    assert server.bodies[0]["grammar"] == 'root ::= "answer" | "café" | "a\\"b"\n'


async def test_a_grammar_is_built_once_per_tool_set(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same schemas reuse their grammar; other schemas (equal or not) get theirs."""
    from agentd.model import client as client_module

    built: list[list[str]] = []
    real = client_module.tool_step_grammar

    def counting(tools: Any, **kwargs: Any) -> str:
        built.append([t["function"]["name"] for t in tools])
        return real(tools, **kwargs)

    monkeypatch.setattr(client_module, "tool_step_grammar", counting)
    server = Server()
    client = make_client(server, tool_grammar="on")
    for _ in range(3):
        await client.chat([user("time?")], TOOLS, frozenset({"current_time"}))
    assert len(built) == 1
    renamed = [{**TOOLS[0], "function": {**TOOLS[0]["function"], "name": "clock"}}]
    await client.chat([user("time?")], renamed, frozenset({"clock"}))
    assert built == [["current_time"], ["clock"]]
    assert '\\"clock\\"' in server.bodies[-1]["grammar"]
    assert server.bodies[0]["grammar"] == server.bodies[2]["grammar"]


@pytest.mark.parametrize(
    ("grammar", "reply", "expected"),
    [
        ("on", "exec, append_file, exec", "exec, append_file, exec"),
        ("off", "read_file, edit_file.", "read_file, edit_file"),
        ("off", "exec, teleport, exec", "exec, exec"),
        ("off", "a, b, c, d, e, f", "a, b, c, d"),
        ("off", "nothing at all", None),
    ],
)
async def test_choose_a_list_of_options(grammar: str, reply: str, expected: str | None) -> None:
    """With ``most``, the answer is a list of up to that many options, in the model's order;
    under a grammar the model can write nothing else."""
    server = Server()
    server.reply = reply
    client = make_client(server, tool_grammar=grammar)
    options = ("none", "exec", "append_file", "read_file", "edit_file", "a", "b", "c", "d")
    options = (*options, "e", "f")
    assert await client.choose([user("plan?")], options, most=4) == expected
    body = server.bodies[0]
    assert body["max_tokens"] >= 4 * 4
    if grammar == "on":
        assert body["grammar"].startswith('root ::= item (", " item (", " item (", " item)?)?)?\n')
        assert 'item ::= "none" | "exec"' in body["grammar"]


def _tool(name: str, **props: dict[str, object]) -> dict[str, object]:
    params = {"type": "object", "properties": props}
    return {"type": "function", "function": {"name": name, "parameters": params}}


@pytest.mark.parametrize(
    ("rule", "given"),
    [
        pytest.param(
            CallRule(name="read_file", values=(("path", ("a.md",)), ("offset", (0,)))),
            {"path": "a.md", "offset": 0},
            id="every-argument-held",
        ),
        pytest.param(
            CallRule(name="read_file", values=(("path", ("a.md", "b.md")), ("offset", (0,)))),
            None,
            id="two-files-to-pick-from",
        ),
        pytest.param(CallRule(name="read_file", values=(("path", ("a.md",)),)), None, id="offset"),
        pytest.param(CallRule(name="current_time"), None, id="an-optional-zone"),
        pytest.param(CallRule(name="list_tasks"), {}, id="no-arguments"),
        pytest.param(CallRule(required=True), None, id="no-name"),
    ],
)
def test_a_call_is_given_only_when_nothing_is_left_to_write(
    rule: CallRule, given: dict[str, object] | None
) -> None:
    """A named call whose every argument the rule holds to one value is the rule's: the
    loop makes it without a model request. An argument left open (even an optional one:
    current_time's zone) is the model's to write."""
    tools = [
        _tool("read_file", path={"type": "string"}, offset={"type": "integer", "default": 0}),
        _tool("current_time", timezone={"type": "string", "default": "UTC"}),
        _tool("list_tasks"),
    ]
    assert rule.given(tools) == given


WRITE = {
    "type": "function",
    "function": {
        "name": "write_file",
        "description": "Write a file.",
        "parameters": {
            "type": "object",
            "properties": {"path": {"type": "string"}, "content": {"type": "string"}},
            "required": ["path", "content"],
        },
    },
}
WRITE_HELD = CallRule(name="write_file", values=(("path", ("notes.txt",)),))
WRITE_START = (
    '```json\n{\n  "name": "write_file",\n  "arguments": {\n    "path": "notes.txt",\n'
    '    "content":'
)


async def held_write(client: Any, stream: bool) -> Any:
    """A step held to write notes.txt: its result and the events shown on the way."""
    names = frozenset({"current_time", "write_file"})
    if not stream:
        return await client.chat([user("note it")], [*TOOLS, WRITE], names, rule=WRITE_HELD), []
    events = [
        e async for e in client.stream([user("note it")], [*TOOLS, WRITE], names, rule=WRITE_HELD)
    ]
    return events[-1].result, events[:-1]


@pytest.mark.parametrize("stream", [False, True])
async def test_a_held_call_is_started_through_its_held_arguments(stream: bool) -> None:
    """The start runs to the first free string's key; llama-server sends it back first: the
    call is the start and the rest, and nothing of it is shown as text."""
    server = Server()
    server.reply = ' "buy milk."\n  }\n}\n```'
    client = make_client(server, tool_grammar="on")
    result, shown = await held_write(client, stream)
    body = server.bodies[0]
    assert body["messages"][-1] == {"role": "assistant", "content": WRITE_START}
    assert body["grammar"].startswith("root ::= ws string ")
    [call] = result.message.tool_calls
    assert call.name == "write_file"
    assert json.loads(call.arguments) == {"path": "notes.txt", "content": "buy milk."}
    assert shown == []
    # The call goes back into the conversation as written: start and rest.
    assert written(result.message) == WRITE_START + server.reply


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize(
    "server",
    [
        # Takes the assistant's message as said, or sends only what it added: not trusted.
        lambda: Server(continues=False),
        # Refuses a last assistant message (llama-server, when the template thinks first).
        lambda: Server(
            refuse_start="Assistant response prefill is incompatible with enable_thinking."
        ),
    ],
    ids=["not-continued", "refused"],
)
async def test_a_started_step_that_fails_is_asked_again_unstarted(
    stream: bool, server: Callable[[], Server]
) -> None:
    """The step is asked again without the start, with the whole step's grammar (which stays
    on), nothing of the first reply is shown, both requests' tokens are counted, and no later
    step is started."""
    stub = server()
    stub.reply = '{"name": "write_file", "arguments": {"path": "notes.txt", "content": "x"}}'
    client = make_client(stub, tool_grammar="on")
    with capture_logs() as logs:
        result, shown = await held_write(client, stream)
    first, again = stub.bodies
    assert first["messages"][-1]["role"] == "assistant"
    assert again["messages"][-1]["role"] == "user"
    assert again["grammar"].startswith("root ::= calls")
    assert json.loads(result.message.tool_calls[0].arguments)["content"] == "x"
    assert shown == []
    assert [e["event"] for e in logs if e["log_level"] == "warning"] == ["llm.start_not_continued"]
    if not stream and stub.continues is False:  # the stub's usage: 7 in, 3 out, each reply
        assert (result.usage.prompt_tokens, result.usage.completion_tokens) == (14, 6)
    assert await client.grammar_enabled()
    await held_write(client, stream)
    assert stub.bodies[2]["messages"][-1]["role"] == "user"


@pytest.mark.parametrize("stream", [False, True])
async def test_a_refused_grammar_after_a_refused_start_goes_without_grammar(stream: bool) -> None:
    server = Server(refuse_grammar=True)
    server.reply = '{"name": "write_file", "arguments": {"path": "notes.txt", "content": "x"}}'
    client = make_client(server, tool_grammar="on")
    result, _ = await held_write(client, stream)
    started, whole, plain = server.bodies
    assert started["messages"][-1]["role"] == "assistant"
    assert whole["grammar"].startswith("root ::= calls")
    assert plain["messages"][-1]["role"] == "user" and "grammar" not in plain
    assert json.loads(result.message.tool_calls[0].arguments)["content"] == "x"


@pytest.mark.parametrize("stream", [False, True])
async def test_a_context_overflow_of_a_started_step_is_raised(stream: bool) -> None:
    """A started step that does not fit is the turn's to handle (it trims and asks again);
    starts stay on."""
    server = Server(refuse_start="the request exceeds the available context size")
    client = make_client(server, tool_grammar="on")
    with pytest.raises(ContextExceeded):
        await held_write(client, stream)
    assert len(server.bodies) == 1
    server.refuse_start = None
    server.reply = ' "x"}}\n```'
    await held_write(client, stream)
    assert server.bodies[1]["messages"][-1]["role"] == "assistant"


async def test_steps_not_held_to_one_tool_are_not_started() -> None:
    server = Server()
    client = make_client(server, tool_grammar="on")
    names = frozenset({"current_time", "write_file"})
    await client.chat([user("x")], [*TOOLS, WRITE], names, rule=CallRule(required=True))
    await client.chat([user("x")], [*TOOLS, WRITE], names, answer_only=True)
    assert all(b["messages"][-1]["role"] == "user" for b in server.bodies)
