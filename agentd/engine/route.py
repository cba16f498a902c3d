"""Routing: before a turn's first tool step, the model names what the step does.

A small local model asked to choose a tool and write its call in one go often calls one for
"What's 2+2?" or takes the wrong one (``memory_save`` for "create config.json"). Asked first
for one word, under a grammar (``answer`` or the name of an offered tool), it decides better;
the step is then held to that word: one or more calls of the named tool
(``CallRule(name=...)``), or an answer in words. Only a step that answers a user's message is
routed: after tool results the question mostly named the tool that had just run (after a
file was read, ``write_file`` for questions about it as for changes), except, once per turn,
the step after one whose calls all failed. A request that names workdir files is first sorted
(:func:`asks_for_change`): a change has them read first; a question routed to ``answer``
has them read before the answer. See the README's tool-call results for the numbers that
chose these wordings.

The question goes after the step's own messages, with the same tools in the template, so the
model server reuses its cached prompt for the question and for the step; it is never stored.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Literal

import structlog

from agentd.config import Settings
from agentd.errors import LLMError
from agentd.messages import Message, system, user
from agentd.model.packages import MODELS

log = structlog.get_logger("agentd.engine.route")

#: The option that means "no tool: answer in words now".
ANSWER = "answer"
#: How the question opens (the loopback stub recognises it by this).
QUESTION_HEAD = "(Before you reply: which tool must be called now to do what I asked?"

#: Asked of a request that names workdir files: a question about them, or a change to make?
QUESTION, CHANGE = "question", "change"
KIND_SYSTEM = "You sort messages. Reply with one word: question or change."
KIND_QUESTION = (
    'Message: "{request}"\n\nIs it a question to answer in words, or a change to make to a file?'
)
REQUEST_CHARS = 300

#: A message that opens by asking to keep something for later ("Please remember for the
#: future: my favourite tea is sencha.", "Save this in your long-term memory: ..."), not one
#: asking whether the agent remembers ("Remember when we met?", "Do you remember ...").
REMEMBER = re.compile(
    r"^\W*(?:(?:please|pls|and|also|ok|okay)\W+)*"
    r"(?:(?:remember|memori[sz]e|note)(?!\s+(?:what|when|where|who|whom|why|how|if|whether|"
    r"which)\b)|don'?t\s+forget|do\s+not\s+forget|keep\s+in\s+mind"
    r"|(?:save|store|keep|put)\b[^.?!\n]{0,40}\b(?:long[- ]term\s+)?memory)\b",
    re.IGNORECASE,
)

#: A message asking for text at the end of a file ("Append the line '- book the Bergen train'
#: to todo.txt.", "Add 'Met Bruno about the roof' as a new last line of journal.txt."). "Add X to
#: config.json" is not one: it may mean a setting inside the file.
APPEND = re.compile(
    r"\bappend(?:s|ed|ing)?\b"
    r"|\b(?:as|on|in)\s+(?:a\s+|the\s+)?(?:new\s+)?(?:last|final)\s+line\b"
    r"|\b(?:as|on|in)\s+a\s+new\s+line\s+(?:at|to)\s+the\s+(?:end|bottom)\b"
    r"|\b(?:to|at|on)\s+the\s+(?:end|bottom)\s+of\b",
    re.IGNORECASE,
)

#: ``default.route_tools``: route tool steps (auto: under a tool grammar).
RouteMode = Literal["auto", "on", "off"]
#: ``choose(messages, options, tools=...)``: one of ``options`` or None (see LLMClient.choose).
Choose = Callable[..., Awaitable[str | None]]


def mode_for(settings: Settings) -> RouteMode:
    """``default.route_tools`` as it applies: ``auto`` is ``off`` when the sidecar serves a
    packaged model that was measured to route badly (``PackagedModel.routes``), by its name or
    by a ``model_path`` that is its file (as the benchmarks give it)."""
    mode = settings.default.route_tools
    sidecar = settings.llm.sidecar
    if mode != "auto" or not sidecar.enabled:
        return mode
    if sidecar.model_path is None:
        packaged = MODELS.get(sidecar.model)
    else:
        name = sidecar.model_path.name
        packaged = next((m for m in MODELS.values() if m.filename == name), None)
    return mode if packaged is None or packaged.routes else "off"


def tool_names(tools: Sequence[dict[str, Any]]) -> list[str]:
    """The names of OpenAI ``tools`` entries, in order."""
    return [str(t.get("function", t)["name"]) for t in tools]


#: Options named before another: asked "List the files in your workdir." (or "Which files do
#: you have?"), the model named read_file, listed before list_dir in the registry. With
#: list_dir first, 20 of 21 probe requests were routed right against 15 (every listing
#: request to list_dir, "Translate 'good morning'" to answer), and 34 of 37 first turns of
#: the agentic suite against 30; reads of a named file still went to read_file.
BEFORE = {"list_dir": "read_file"}


def ordered(names: Sequence[str]) -> list[str]:
    """``names`` in the order the routing question offers them: each of :data:`BEFORE`'s
    tools just before the one it names, when both are there; the rest as given."""
    out = [n for n in names if not (n in BEFORE and BEFORE[n] in names)]
    for first, then in BEFORE.items():
        if first in names and then in out:
            out.insert(out.index(then), first)
    return out


def question(names: Sequence[str]) -> str:
    """The routing question for a step offering tools named ``names`` (:func:`ordered`)."""
    options = ", ".join([ANSWER, *ordered(names)])
    return (
        f"{QUESTION_HEAD} Reply with only its name, or `{ANSWER}` if no tool is needed and you "
        f"can reply in words now. Options: {options})"
    )


async def route(
    choose: Choose,
    messages: Sequence[Message],
    tools: Sequence[dict[str, Any]],
) -> str | None:
    """What the step should do: ``ANSWER``, the name of one of ``tools``, or None (the model
    could not say, or the question failed: the step then goes on unrouted)."""
    names = ordered(tool_names(tools))
    if not names or ANSWER in names:
        return None  # a tool called "answer" would make the word ambiguous
    try:
        asked = [*messages, user(question(names))]
        choice = await choose(asked, (ANSWER, *names), tools=tools)
    except LLMError as exc:
        log.warning("turn.route_failed", error=str(exc))
        return None
    log.info("turn.route", choice=choice)
    return choice


def asks_to_remember(request: str) -> bool:
    """Whether ``request`` opens by asking to remember something (an English imperative; a
    question, ending in ``?``, never is). Routed, such a message went to ``answer`` in one of
    six recall cases of the agentic suite ("Thank you!", nothing saved)."""
    text = request.strip()
    return bool(REMEMBER.match(text)) and not text.endswith("?")


def asks_to_append(request: str) -> bool:
    """Whether ``request`` asks to add text at the end of a file (English). After the file was
    read, such a change was made with ``edit_file`` in place of its first line (3 of 10 runs of
    the agentic suite's append case), its own line lost."""
    return bool(APPEND.search(request))


async def asks_for_change(choose: Choose, request: str) -> bool | None:
    """Whether ``request`` asks for a change to a file (True) rather than a question about
    one (False); None when the model could not say. Asked apart from the conversation, in
    its own short prompt: in the conversation the model called every request a change."""
    messages = [system(KIND_SYSTEM), user(KIND_QUESTION.format(request=request[:REQUEST_CHARS]))]
    try:
        kind = await choose(messages, (QUESTION, CHANGE))
    except LLMError as exc:
        log.warning("turn.kind_failed", error=str(exc))
        return None
    log.info("turn.kind", kind=kind)
    return None if kind is None else kind == CHANGE
