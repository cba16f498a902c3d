"""A routed first step whose request names workdir files reads them first (``mentioned``)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import httpx
import pytest

from agentd.engine.loop import (
    CHANGE_HEAD,
    NOTHING_TO_READ,
    READ_TOOL,
    SHOWN_CHARS,
    AgentLoop,
    Listing,
    Mentioned,
)
from agentd.engine.route import ANSWER, CHANGE, KIND_SYSTEM, QUESTION, question
from agentd.messages import Conversation, system, user
from agentd.model.choice import ANY, CallRule
from agentd.tools.builtin import register_builtin_tools
from agentd.tools.registry import ToolRegistry
from tests.engine.test_route import RoutingServer
from tests.model.test_client import completion, make_client
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


async def test_a_change_to_named_files_reads_them_then_must_call(tmp_path: Path) -> None:
    (tmp_path / "source.txt").write_text("maple-1845\n")
    model = FakeModel()
    model.choices.append(CHANGE)
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
    # Sorted apart, in a prompt of its own (not the conversation's): a change.
    [kind] = model.asked
    assert kind[0].content == KIND_SYSTEM and request in kind[1].content and len(kind) == 2
    # The step is held to reading the named file; the next must call a tool, after the
    # file's text and the request; the one after that is free.
    first, second, third = model.requests
    held = (("path", ("source.txt",)), ("offset", (0,)))  # from the start
    assert first.rule == CallRule(name=READ_TOOL, single=True, values=held)
    assert "maple-1845" in second.messages[-2].content
    assert second.messages[-1].content.startswith(CHANGE_HEAD)
    # The request, then the short file's text again, as a call's argument writes it (after
    # the request alone the model wrote the request as the copy).
    assert second.messages[-1].content == (
        f'{CHANGE_HEAD} My request was: "{request}". source.txt holds: "maple-1845\\n". '
        "Make the change now: call the tool that does it."
    )
    assert second.rule == CallRule(required=True) and third.rule == ANY
    assert not any(CHANGE_HEAD in m.content for m in result.added)  # never stored


@pytest.mark.parametrize("kind", [QUESTION, None])
async def test_a_question_routed_to_a_read_is_held_to_the_named_files(
    tmp_path: Path, kind: str | None
) -> None:
    """A question (or no verdict) is routed as usual; a read is held to the named file."""
    model = FakeModel()
    model.choices.extend([kind, "read_file"])
    model.add(answer("", ("read_file", '{"path": "app.conf"}')), answer("It is 11."))
    (tmp_path / "app.conf").write_text("timeout = 11\n")
    loop = AgentLoop(model, file_tools(tmp_path), route_tools="on", mentioned=names("app.conf"))
    result = await loop.run(conversation("What is the timeout in app.conf?"))
    assert result.message.content == "It is 11."
    assert model.asked[1][-1].content == question(sorted_names(tmp_path))
    assert model.requests[0].rule == CallRule(name="read_file", values=(("path", ("app.conf",)),))
    assert model.requests[1].rule == ANY


async def test_a_question_routed_to_answer_reads_the_files_first(tmp_path: Path) -> None:
    """Routed to answer, the model made up a setting's value: the file is read, then the
    step is free (it answers; no call is required, as for a change)."""
    model = FakeModel()
    model.choices.extend([QUESTION, ANSWER])
    model.add(answer("", ("read_file", '{"path": "app.conf"}')), answer("It is 11."))
    (tmp_path / "app.conf").write_text("timeout = 11\n")
    loop = AgentLoop(model, file_tools(tmp_path), route_tools="on", mentioned=names("app.conf"))
    result = await loop.run(conversation("What is the timeout in app.conf?"))
    assert result.message.content == "It is 11."
    held = CallRule(
        name="read_file", single=True, values=(("path", ("app.conf",)), ("offset", (0,)))
    )
    first, second = model.requests
    assert first.rule == held and not first.answer_only
    assert second.rule == ANY and not second.messages[-1].content.startswith(CHANGE_HEAD)


def sorted_names(workdir: Path) -> list[str]:
    return [s["function"]["name"] for s in file_tools(workdir).schemas()]


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


async def test_a_required_call_is_not_held_to_reading(tmp_path: Path) -> None:
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


class SortingServer(RoutingServer):
    """The routing server that also answers the change-or-question prompt from ``kinds``."""

    def __init__(self, kinds: list[str], routes: list[str], replies: list[str]) -> None:
        super().__init__(routes, replies)
        self.kinds = kinds

    def __call__(self, request: httpx.Request) -> httpx.Response:
        if request.url.path != "/props":
            body = json.loads(request.content)
            if body["messages"][0]["content"] == KIND_SYSTEM:
                self.bodies.append(body)
                return httpx.Response(200, json=completion(self.kinds.pop(0)))
        return super().__call__(request)


async def test_what_llama_server_gets_for_a_change_to_a_named_file() -> None:
    """Through the real client: the sorting prompt under a two-word grammar; the read step's
    grammar calls only read_file, with the path one of the named files (the template shows
    the tools as declared); then a step that must call."""
    server = SortingServer(
        kinds=["change"],
        routes=[],
        replies=[
            '{"name": "read_file", "arguments": {"path": "app.conf"}}',
            '{"name": "write_file", "arguments": {"path": "app.conf", "content": "timeout = 12"}}',
            "Done: the timeout is 12.",
        ],
    )
    reg = ToolRegistry(default_timeout=10)
    ran: list[str] = []

    async def read_file(path: str, offset: int = 0) -> str:
        """Read a file.

        Args:
            path: The path.
            offset: Where to start.
        """
        ran.append(f"read {path}")
        return "timeout = 11"

    async def write_file(path: str, content: str) -> str:
        """Write a file.

        Args:
            path: The path.
            content: The text.
        """
        ran.append(f"write {path}: {content}")
        return "written"

    reg.add(read_file)
    reg.add(write_file)
    client = make_client(server, tool_grammar="on")
    loop = AgentLoop(client, reg, route_tools="auto", mentioned=names("app.conf", "b.md"))
    result = await loop.run(conversation("Set the timeout in app.conf to 12."))
    assert result.message.content == "Done: the timeout is 12."
    assert ran == ["read app.conf", "write app.conf: timeout = 12"]
    kind, read, change, last = server.bodies
    assert kind["grammar"] == 'root ::= "question" | "change"\n' and "tools" not in kind
    grammar = read["grammar"]
    assert grammar.startswith("root ::= calls")
    assert '"\\"app.conf\\""' in grammar and '"\\"b.md\\""' in grammar
    assert '\\"write_file\\"' not in grammar
    assert "enum" not in json.dumps(read["tools"])  # the enum lives in the grammar only
    assert (
        change["grammar"].startswith("root ::= calls") and '\\"write_file\\"' in change["grammar"]
    )
    assert last["grammar"].startswith("root ::= answer | calls")


def listed(*files: str, none: bool = False) -> Listing:
    async def listing() -> Sequence[str] | None:
        return None if none else list(files)

    return listing


async def test_an_empty_workdir_leaves_read_file_an_option(tmp_path: Path) -> None:
    """Left out of the options in an empty workdir, read_file only made way for write_file
    ("what does len([1, 2, 3]) return?" wrote a file): it stays an option. Chosen, there is
    nothing to read: the step answers in words, told the workdir holds no files."""
    model = FakeModel()
    model.choices.append("read_file")
    model.add(answer("Buenos días."))
    reg = file_tools(tmp_path)
    loop = AgentLoop(model, reg, route_tools="on", mentioned=names(), listing=listed())
    conv = conversation("Translate 'good morning' into Spanish.")
    result = await loop.run(conv)
    assert "read_file" in model.asked[0][-1].content.split("Options:")[1]
    [step] = model.requests
    assert step.answer_only and step.tools is None and step.rule == ANY
    # The request again: after the bare note the model answered "Good morning.".
    assert step.messages[-1].content == (
        f"{NOTHING_TO_READ} My request was: \"Translate 'good morning' into Spanish.\". "
        "Answer it in words."
    )
    assert result.message.content == "Buenos días."
    # The note is never stored.
    assert [m.content for m in conv.messages][1:] == [conv.messages[1].content, "Buenos días."]


async def test_a_routed_read_is_held_to_the_workdirs_files(tmp_path: Path) -> None:
    model = FakeModel()
    model.choices.append("read_file")
    model.add(answer("", ("read_file", '{"path": "notes/reminder.txt"}')), answer("Apples."))
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "reminder.txt").write_text("apples")
    loop = AgentLoop(
        model,
        file_tools(tmp_path),
        route_tools="on",
        mentioned=names(),
        listing=listed("notes/reminder.txt", "readme.md"),
    )
    await loop.run(conversation("What does the file in the notes folder say?"))
    assert "read_file" in model.asked[0][-1].content
    held = (("path", ("notes/reminder.txt", "readme.md")),)
    assert model.requests[0].rule == CallRule(name="read_file", values=held)


async def test_too_many_files_leave_the_path_free(tmp_path: Path) -> None:
    model = FakeModel()
    model.choices.append("read_file")
    model.add(answer("", ("read_file", '{"path": "x.txt"}')), answer("ok"))
    loop = AgentLoop(
        model, file_tools(tmp_path), route_tools="on", mentioned=names(), listing=listed(none=True)
    )
    await loop.run(conversation("read x"))
    assert "read_file" in model.asked[0][-1].content.split("Options:")[1]
    assert model.requests[0].rule == CallRule(name="read_file")


@pytest.mark.parametrize(
    ("text", "held"),
    [
        # Written to trips/trip.txt when the path was free.
        ("Write that trip down in trip.txt, with the city and the date.", ("trip.txt",)),
        ("Write a short poem to a file.", None),  # no name: the path stays free
    ],
)
async def test_a_routed_write_goes_to_a_path_the_request_names(
    tmp_path: Path, text: str, held: tuple[str, ...] | None
) -> None:
    model = FakeModel()
    model.choices.append("write_file")
    model.add(answer("", ("write_file", '{"path": "trip.txt", "content": "Bergen"}')))
    model.add(answer("Done."))
    loop = AgentLoop(
        model, file_tools(tmp_path), route_tools="on", mentioned=names(), listing=listed()
    )
    await loop.run(conversation(text))
    values = () if held is None else (("path", held),)
    assert model.requests[0].rule == CallRule(name="write_file", values=values)
    assert (tmp_path / "trip.txt").read_text() == "Bergen"


async def test_a_long_file_is_not_shown_again_after_the_request(tmp_path: Path) -> None:
    (tmp_path / "big.txt").write_text("x" * (SHOWN_CHARS + 1))
    model = FakeModel()
    model.choices.append(CHANGE)
    model.add(
        answer("", ("read_file", '{"path": "big.txt"}')),
        answer("", ("append_file", '{"path": "big.txt", "text": "y"}')),
        answer("Done."),
    )
    loop = AgentLoop(model, file_tools(tmp_path), route_tools="on", mentioned=names("big.txt"))
    await loop.run(conversation("Add y to big.txt."))
    nudge = model.requests[1].messages[-1].content
    assert nudge.startswith(CHANGE_HEAD) and "holds:" not in nudge


def read_then(path: str, call: tuple[str, str]) -> FakeModel:
    """A model that sorts the request as a change, reads ``path``, makes ``call``, answers."""
    model = FakeModel()
    model.choices.append(CHANGE)
    model.add(
        answer("", ("read_file", json.dumps({"path": path}))), answer("", call), answer("Done.")
    )
    return model


@pytest.mark.parametrize(
    "request_text",
    [
        "Append the line '- book the Bergen train' to todo.txt.",
        "Add 'Met Bruno about the roof' as a new last line of todo.txt.",
        "Put 'call mum' at the end of todo.txt.",
    ],
)
async def test_an_append_after_the_read_must_be_append_file(
    tmp_path: Path, request_text: str
) -> None:
    """After the read, a change asking for text at the end is held to append_file on the path
    the request names (edit_file had put it in place of the first line)."""
    (tmp_path / "todo.txt").write_text("- call the bank\n- water the plants\n")
    model = read_then("todo.txt", ("append_file", '{"path": "todo.txt", "text": "- new\\n"}'))
    loop = AgentLoop(model, file_tools(tmp_path), route_tools="on", mentioned=names("todo.txt"))
    await loop.run(conversation(request_text))
    second, third = model.requests[1:]
    held = (("path", ("todo.txt",)),)
    assert second.rule == CallRule(name="append_file", values=held)
    assert third.rule == ANY
    assert (tmp_path / "todo.txt").read_text().splitlines() == [
        "- call the bank",
        "- water the plants",
        "- new",
    ]


async def test_other_changes_after_the_read_may_call_any_tool(tmp_path: Path) -> None:
    (tmp_path / "app.conf").write_text("timeout=30\n")
    model = read_then("app.conf", ("edit_file", '{"path": "app.conf", "old": "30", "new": "45"}'))
    loop = AgentLoop(model, file_tools(tmp_path), route_tools="on", mentioned=names("app.conf"))
    await loop.run(conversation("Set the timeout in app.conf to 45."))
    assert model.requests[1].rule == CallRule(required=True)
    assert (tmp_path / "app.conf").read_text() == "timeout=45\n"
    # Without append_file offered, an append is held to no tool in particular.
    model = read_then("app.conf", ("write_file", '{"path": "app.conf", "content": "x"}'))
    loop = AgentLoop(model, file_tools(tmp_path), route_tools="on", mentioned=names("app.conf"))
    await loop.run(
        conversation("Append x to app.conf."), allowed=frozenset({"read_file", "write_file"})
    )
    assert model.requests[1].rule == CallRule(required=True)
