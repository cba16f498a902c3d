"""Compaction after a turn: the token estimate, thresholds, and summarize."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from agentd.config import AgentDefaults
from agentd.engine.compaction import (
    KEEP_LAST,
    SUMMARIZER_PROMPT,
    SUMMARY_PREFIX,
    applied,
    cut_for,
    estimate_tokens,
    is_summary,
    split_for_summary,
    summarize_compaction,
)
from agentd.messages import Conversation, Message, ToolCall, assistant, system, tool_result, user

pytestmark = pytest.mark.anyio


def long_chat(n: int, size: int = 100) -> list[Message]:
    messages = [system("sys")]
    for i in range(n):
        text = f"m{i} " + "x" * size
        messages.append(user(text) if i % 2 == 0 else assistant(text))
    return messages


class Summarizer:
    def __init__(self, text: str = "- the user likes tea") -> None:
        self.text = text
        self.seen: list[Conversation] = []

    async def __call__(self, synthetic: Conversation) -> str:
        self.seen.append(synthetic)
        return self.text


def test_estimate_is_len_over_4_per_message() -> None:
    """The estimate is the sum of len(content) // 4 per message."""
    assert estimate_tokens([user("abcdefg"), user("abc"), user("abcd")]) == 1 + 0 + 1
    assert estimate_tokens([]) == 0


@pytest.mark.parametrize(
    ("threshold", "max_tokens", "effective"),
    [
        pytest.param(0, 4096, 3072, id="unset"),
        pytest.param(-5, 1000, 750, id="negative"),
        pytest.param(500, 1000, 500, id="set"),
    ],
)
def test_default_threshold(threshold: int, max_tokens: int, effective: int) -> None:
    """A threshold <= 0 or unset means 0.75 * max_tokens."""
    defaults = AgentDefaults(compaction_threshold=threshold, max_tokens=max_tokens)
    assert defaults.effective_threshold == effective
    assert AgentDefaults().effective_threshold == int(0.75 * AgentDefaults().max_tokens)


async def test_summarize_keeps_system_summary_and_last_10() -> None:
    """Over threshold: system message, one assistant summary, then the last 10 messages."""
    messages = long_chat(30)
    conv = Conversation(list(messages))
    summarizer = Summarizer()
    summary = await summarize_compaction(conv, threshold=10, summarize=summarizer)
    assert summary is not None and is_summary(summary)
    assert len(conv) == 1 + 1 + KEEP_LAST == 12
    assert conv.messages[0] is messages[0]
    assert conv.messages[1] is summary and summary.role == "assistant"
    assert summary.content == SUMMARY_PREFIX + "- the user likes tea"
    assert conv.messages[2:] == messages[-10:]
    synthetic = summarizer.seen[0]
    assert synthetic.messages[0].role == "system"
    assert synthetic.messages[0].content == SUMMARIZER_PROMPT
    transcript = synthetic.messages[1].content
    assert "m0 " in transcript and "m19 " in transcript and "m20 " not in transcript


async def test_summarize_without_system_message() -> None:
    """A conversation without a system message keeps summary + last 10."""
    messages = long_chat(15)[1:]
    conv = Conversation(list(messages))
    await summarize_compaction(conv, threshold=10, summarize=Summarizer())
    assert len(conv) == 11 and is_summary(conv.messages[0])


async def test_under_threshold_nothing_happens() -> None:
    """At or below the threshold the conversation is left alone and no summary is made."""
    conv = Conversation(long_chat(30, size=4))
    before = list(conv.messages)
    summarizer = Summarizer()
    tokens = estimate_tokens(before)
    assert await summarize_compaction(conv, threshold=tokens, summarize=summarizer) is None
    assert conv.messages == before and summarizer.seen == []


async def test_short_conversation_has_nothing_to_summarize() -> None:
    """With no more than 10 messages after the system message there is no middle."""
    conv = Conversation(long_chat(10, size=1000))
    before = list(conv.messages)
    summarizer = Summarizer()
    assert await summarize_compaction(conv, threshold=1, summarize=summarizer) is None
    assert conv.messages == before and summarizer.seen == []


def exchange(n: int) -> list[Message]:
    calls = [ToolCall(f"c{n}{i}", "read_file", "{}") for i in range(3)]
    return [assistant("", calls), *(tool_result(c, "x" * 50) for c in calls)]


@pytest.mark.parametrize("pad", range(6))
async def test_summarize_never_splits_a_tool_exchange(pad: int) -> None:
    """The kept tail never starts with a tool result: it widens back to its request."""
    messages = long_chat(12)
    messages += exchange(1)
    messages += [user("y" * 40) for _ in range(pad)]
    messages += exchange(2)
    messages.append(assistant("done"))
    conv = Conversation(list(messages))
    assert await summarize_compaction(conv, threshold=10, summarize=Summarizer()) is not None
    tail = conv.messages[2:]
    assert len(tail) >= KEEP_LAST
    assert tail[0].role != "tool"
    ids = {c.id for m in tail for c in m.tool_calls}
    assert all(m.tool_call_id in ids for m in tail if m.role == "tool")


def test_split_widens_back_to_the_request() -> None:
    """split_for_summary() moves the cut before the assistant message of a tool exchange."""
    messages = [system("s"), user("q"), *exchange(1), *[user("u")] * 8]
    head, middle, tail = split_for_summary(messages)
    assert head == messages[:1]
    assert middle == [messages[1]] and tail == messages[2:]


@pytest.mark.parametrize(
    "failure",
    [
        pytest.param(RuntimeError("model down"), id="raises"),
        pytest.param("   ", id="empty-summary"),
    ],
)
async def test_failed_summary_changes_nothing(failure: Exception | str) -> None:
    """A summary that fails or comes back empty leaves the conversation untouched."""
    conv = Conversation(long_chat(30))
    before = list(conv.messages)
    saved: list[Message] = []

    async def summarize(synthetic: Conversation) -> str:
        if isinstance(failure, Exception):
            raise failure
        return failure

    async def save(summary: Message, tail: Sequence[Message]) -> None:
        saved.append(summary)

    result = await summarize_compaction(conv, threshold=1, summarize=summarize, save_summary=save)
    assert result is None and conv.messages == before and saved == []


async def test_failed_save_changes_nothing() -> None:
    """If the summary cannot be persisted, memory keeps the full history too."""
    conv = Conversation(long_chat(30))
    before = list(conv.messages)

    async def save(summary: Message, tail: Sequence[Message]) -> None:
        raise OSError("disk full")

    result = await summarize_compaction(
        conv, threshold=1, summarize=Summarizer(), save_summary=save
    )
    assert result is None and conv.messages == before


async def test_summary_is_saved_with_its_tail() -> None:
    """save_summary receives the summary and exactly the tail kept after it."""
    conv = Conversation(long_chat(30))
    saved: list[tuple[Message, list[Message]]] = []

    async def save(summary: Message, tail: Sequence[Message]) -> None:
        saved.append((summary, list(tail)))

    summary = await summarize_compaction(
        conv, threshold=1, summarize=Summarizer(), save_summary=save
    )
    assert saved == [(summary, conv.messages[2:])]


async def test_earlier_summary_is_summarized_again() -> None:
    """A second compaction folds the earlier summary into the new one."""
    conv = Conversation(long_chat(30))
    await summarize_compaction(conv, threshold=1, summarize=Summarizer("- first"))
    conv.extend(long_chat(10)[1:])
    summarizer = Summarizer("- second")
    await summarize_compaction(conv, threshold=1, summarize=summarizer)
    assert [m for m in conv if is_summary(m)] == [conv.messages[1]]
    assert "- first" in summarizer.seen[0].messages[1].content
    assert "- second" in conv.messages[1].content and len(conv) == 12


async def test_transcript_shows_tool_calls_and_results() -> None:
    """The summarizer sees tool calls and their results in the transcript."""
    call = ToolCall("c", "current_time", '{"timezone": "UTC"}')
    messages = [
        system("s"),
        user("time?"),
        assistant("", [call]),
        tool_result(call, "12:00"),
        assistant("noon"),
        *long_chat(10)[1:],
    ]
    summarizer = Summarizer()
    await summarize_compaction(Conversation(messages), threshold=1, summarize=summarizer)
    transcript = summarizer.seen[0].messages[1].content
    assert 'assistant (calls current_time({"timezone": "UTC"}))' in transcript
    assert "[tool current_time result]: 12:00" in transcript
    assert "user: time?" in transcript


def test_a_summary_applies_to_a_conversation_that_grew_since_its_cut() -> None:
    """Applied later, a summary replaces what was before its cut, and everything after the cut
    stays, the messages added since included; a cut no longer there applies to nothing."""
    messages = long_chat(14)
    cut = cut_for(messages, threshold=10)
    assert cut is not None and cut.first is messages[5]
    grown = [*messages, user("later"), assistant("later answer")]
    summary = assistant(SUMMARY_PREFIX + "- gist")
    out = applied(grown, summary, cut.first)
    assert out == [messages[0], summary, *messages[5:], grown[-2], grown[-1]]
    assert applied([messages[0], *messages[6:]], summary, cut.first) is None
