"""Client tool calls a session waits on: the open exchange a handed-off turn leaves behind.

A turn that stops at calls of the client's own tools stores its step as it is: the assistant
message with all of its calls and the results of the agent's own calls. The client's calls are
*pending* until the session's next turn, which either brings their results (``tool`` messages,
checked here against what is pending) or a new user message, which closes them with a result
saying they were not run, so the model never sees a call without its answer.
"""

from __future__ import annotations

from collections.abc import Sequence

from agentd.engine.policy import CLIENT_CALLS
from agentd.errors import ToolResultMismatch
from agentd.messages import Message, ToolCall, assistant, tool_result

NOT_RUN = "not run: the client sent a new message instead"


def pending_calls(messages: Sequence[Message]) -> list[ToolCall]:
    """The calls of the conversation's last exchange that have no result yet (in call order).

    Only an exchange at the very end can be open: whatever follows a tool exchange closes it.
    """
    answered: set[str] = set()
    for message in reversed(messages):
        if message.role == "tool":
            answered.add(message.tool_call_id or "")
            continue
        if message.role == "assistant" and message.tool_calls:
            return [c for c in message.tool_calls if c.id not in answered]
        return []
    return []


def answered(messages: Sequence[Message], results: Sequence[Message]) -> list[Message]:
    """``results`` (``tool`` messages) once they answer exactly the pending calls, each once.

    Raises ToolResultMismatch naming the first result that answers no pending call, or the
    first pending call left without a result.
    """
    waiting = {call.id: call for call in pending_calls(messages)}
    out: list[Message] = []
    for result in results:
        call = waiting.pop(result.tool_call_id or "", None)
        if call is None:
            raise ToolResultMismatch(
                f"the tool result for {result.tool_call_id!r} answers no pending tool call of "
                "this session; send results only for the calls of the last answer"
            )
        out.append(tool_result(call, result.content))
    if waiting:
        raise ToolResultMismatch(
            f"the tool call {next(iter(waiting))!r} of the last answer has no result; send a "
            "tool message for each of its calls"
        )
    return out


def closed(messages: Sequence[Message]) -> list[Message]:
    """A "not run" result for each pending call: the session moves on without them."""
    return [tool_result(call, NOT_RUN) for call in pending_calls(messages)]


def handed(messages: Sequence[Message]) -> Message | None:
    """The answer that handed the pending calls to the client, as the client was sent it (its
    text and the client's calls only), or None when no client call is pending."""
    waiting = pending_calls(messages)
    if not waiting:
        return None
    step = next(m for m in reversed(messages) if m.role == "assistant")
    ours = set(step.metadata.get(CLIENT_CALLS) or ())
    calls = tuple(c for c in waiting if c.id in ours)
    return assistant(step.content, calls) if calls else None
