"""Claimed actions: said done, but no tool did it; the loop asks once more with a call required."""

from __future__ import annotations

import pytest

from agentd.engine.claims import acted, claims_action, unbacked_claim
from agentd.engine.loop import CLAIM_NUDGE, AgentLoop
from agentd.messages import Conversation, ToolCall, system, tool_result, user
from agentd.model.choice import CallRule
from agentd.tools.registry import ToolRegistry
from tests.support.fake_model import FakeModel, answer


@pytest.mark.parametrize(
    "text",
    [
        "The theme has been changed to dark.",
        "I have saved your note.",
        "I've now written hello.txt",
        "The line was added to todo.txt.",
        "The contents of source.txt have been copied to backup.txt.",
        "Your reminder is now scheduled.",
        "Met Bruno about the roof is added as the last line of journal.txt.",
    ],
)
def test_claims(text: str) -> None:
    assert claims_action(text)


@pytest.mark.parametrize(
    "text",
    [
        "The timeout is set to 31 seconds.",
        "You have 3 files: a.txt, b.txt and c.md.",
        "I can save it if you want.",
        "The capital of Japan is Tokyo.",
        "A line is added when the job runs.",
        "The file is saved automatically.",
    ],
)
def test_not_claims(text: str) -> None:
    assert not claims_action(text)


def _result(name: str, *, error: bool = False) -> list[object]:
    call = ToolCall("c1", name, "{}")
    return [tool_result(call, "ok", error=error)]


def test_only_a_tool_that_acts_backs_a_claim() -> None:
    assert not acted(_result("read_file"))  # type: ignore[arg-type]
    assert not acted(_result("write_file", error=True))  # type: ignore[arg-type]
    assert acted(_result("write_file"))  # type: ignore[arg-type]
    assert acted(_result("some_mcp__tool"))  # type: ignore[arg-type]


def test_a_claim_needs_something_a_tool_acts_on() -> None:
    added = _result("read_file")
    assert unbacked_claim("Change settings.ini", "The theme has been changed.", added)  # type: ignore[arg-type]
    assert unbacked_claim("Remember this", "I have saved it to memory.", [])
    # Nothing a tool acts on was named: a claim about the answer itself.
    assert not unbacked_claim("Plan my week", "I have created a plan for you: ...", [])
    assert not unbacked_claim("Who wrote Faust?", "It was written by Goethe.", [])
    assert not unbacked_claim("Write a.txt", "I have written a.txt.", _result("write_file"))  # type: ignore[arg-type]


def registry() -> tuple[ToolRegistry, list[str]]:
    reg = ToolRegistry(default_timeout=10)
    ran: list[str] = []

    async def read_file(path: str) -> str:
        """Read a file.

        Args:
            path: The file.
        """
        ran.append(f"read {path}")
        return "theme = light"

    async def write_file(path: str, content: str) -> str:
        """Write a file.

        Args:
            path: The file.
            content: The text.
        """
        ran.append(f"write {path}: {content}")
        return f"wrote {path}"

    reg.add(read_file)
    reg.add(write_file)
    return reg, ran


def conversation(text: str) -> Conversation:
    return Conversation([system("be brief"), user(text)])


@pytest.mark.anyio
async def test_an_unbacked_claim_is_asked_again_with_a_call_required() -> None:
    model = FakeModel()
    model.add(
        answer("", ("read_file", '{"path": "settings.ini"}')),
        answer("The theme has been changed to dark."),
        answer("", ("write_file", '{"path": "settings.ini", "content": "theme = dark"}')),
        answer("Done: settings.ini now says theme = dark."),
    )
    reg, ran = registry()
    conv = conversation("In settings.ini, change the theme to dark.")
    result = await AgentLoop(model, reg, check_claims=True).run(conv)
    assert ran == ["read settings.ini", "write settings.ini: theme = dark"]
    assert result.message.content == "Done: settings.ini now says theme = dark."
    retry = model.requests[2]
    assert retry.rule == CallRule(required=True)
    assert [m.content for m in retry.messages[-2:]] == [
        "The theme has been changed to dark.",
        CLAIM_NUDGE,
    ]
    # The claim and the nudge are not stored; the call and its result are.
    stored = [m.content for m in conv.messages if m.role == "assistant"]
    assert "The theme has been changed to dark." not in stored
    assert [m.name for m in conv.messages if m.role == "tool"] == ["read_file", "write_file"]


@pytest.mark.anyio
async def test_a_claim_is_asked_again_once_only() -> None:
    model = FakeModel()
    model.add(
        answer("I have saved it to notes.txt."),
        answer("", ("read_file", '{"path": "notes.txt"}')),
        answer("I have saved it to notes.txt."),
    )
    reg, _ = registry()
    result = await AgentLoop(model, reg, check_claims=True).run(conversation("Save a note"))
    assert result.message.content == "I have saved it to notes.txt." and len(model.requests) == 3


@pytest.mark.anyio
async def test_off_or_backed_claims_stand() -> None:
    for check, script in (
        (False, [answer("I have saved it to notes.txt.")]),
        (
            True,
            [
                answer("", ("write_file", '{"path": "notes.txt", "content": "x"}')),
                answer("I have saved it to notes.txt."),
            ],
        ),
    ):
        model = FakeModel()
        model.add(*script)
        reg, _ = registry()
        result = await AgentLoop(model, reg, check_claims=check).run(conversation("Save a note"))
        assert result.message.content == "I have saved it to notes.txt."
        assert len(model.requests) == len(script)
