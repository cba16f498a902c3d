"""The agent loop: one turn = model -> tools -> model ... -> final answer.

The conversation only ever grows by whole units: an assistant message that asks for tools is
appended together with all of its tool results, after they are all in. A turn cancelled or failed
midway therefore never leaves an assistant ``tool_calls`` message without its results.

The one exception is on purpose: a step that calls a *client* tool (offered with
``client_tools``, run by the caller, not here) ends the turn. The agent's own calls of that step
are run and appended with the step; the client's calls stay open, and the result's message
carries them (only them) for the caller to run and answer with ``tool`` messages.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable, Sequence
from contextlib import aclosing
from dataclasses import dataclass, field
from typing import Any

import anyio
import structlog

from agentd.engine.aside import answers_earlier
from agentd.engine.budget import ContextBudget
from agentd.engine.claims import unbacked_claim
from agentd.engine.policy import CLIENT_CALLS
from agentd.engine.route import (
    ANSWER,
    RouteMode,
    asks_for_change,
    asks_to_append,
    asks_to_remember,
    route,
)
from agentd.errors import ContextExceeded, ContextOverflow, LLMError
from agentd.messages import (
    Conversation,
    Message,
    ToolCall,
    assistant,
    system,
    tool_result,
    user,
)
from agentd.model.choice import ANY, CallRule
from agentd.model.client import ChatModel, ChatResult, Completed, TextDelta, Usage
from agentd.tools.fit import cut_to_fit
from agentd.tools.mentions import named_paths
from agentd.tools.registry import ToolOutcome, ToolRegistry

log = structlog.get_logger("agentd.engine.loop")

#: The answer's metadata key that records the prompt tokens of its model call and the context.
CONTEXT_KEY = "context"
STEPS_EXHAUSTED = "(I stopped: this turn used all its tool steps without reaching an answer.)"
#: Sent (not stored) when the model must answer now: after an empty answer or repeated calls.
ANSWER_NOW = "Answer my last request now, in words, using the tool results above."
#: Sent (not stored) after tool results: small models otherwise answer the results, not the user.
REMINDER_HEAD = "(Those are the results of your tool calls.)"
REQUEST_CHARS = 300
#: Sent (not stored) after a read-first step of a change (see ``AgentLoop._call``).
CHANGE_HEAD = "(That is what the file holds now.)"
#: A file read for a change is shown again after the request when it is this short.
SHOWN_CHARS = 600
CHECK_SYSTEM = "You check whether a tool call is needed. Answer only yes or no."
CHECK_QUESTION = (
    'The user wrote: "{request}"\n\nThe assistant wants to call:\n{calls}\n\n'
    "Is this call needed to answer the user (would an answer without it be worse or wrong)?"
)
REPEATED = "(the same call was made before in this turn; it was not run again. Its result:)"
FROM_RESULTS = "(The model gave no answer; here is what the tools returned.)"
NO_ANSWER = "(The model gave no answer, twice. Please ask again or rephrase.)"
FALLBACK_CHARS = 1500
#: Sent (not stored), after the model's own answer, when it claims an action no tool did.
CLAIM_NUDGE = (
    "You wrote that it is done, but no tool has done it in this turn. Do it now: call the tool "
    "that does it."
)

OnAppend = Callable[[Sequence[Message]], Awaitable[None]]
OnDelta = Callable[[str], Awaitable[None]]
#: Given the user's message, a note of what long-term memory holds about it (or None).
Recall = Callable[[str], Awaitable[str | None]]
ToolObserver = Callable[[str, bool, float], None]
#: Given the user's message, the workdir files it names (see :mod:`agentd.tools.mentions`).
Mentioned = Callable[[str], Awaitable[Sequence[str]]]
#: The workdir's files, or None when there are too many to list (see ``workdir_files``).
Listing = Callable[[], Awaitable[Sequence[str] | None]]
#: The tool a routed first step calls when the request names files of the workdir.
READ_TOOL = "read_file"
#: Tools that write the file at their ``path``: routed, held to the paths the request names.
WRITE_TOOLS = frozenset({"write_file", "append_file", "edit_file"})
#: The tool a change calls after its read when the request asks to add at a file's end.
APPEND_TOOL = "append_file"
#: The tool a routed first step calls when the request asks to remember something.
SAVE_TOOL = "memory_save"
#: Sent (not stored) with an answer routed from a read in an empty workdir.
NOTHING_TO_READ = "(Your workdir holds no files: there is nothing to read.)"
#: The route of such a step (no tool can have this name).
READ_FIRST = "(read first)"


@dataclass(slots=True)
class TurnResult:
    """The final assistant message, the tokens the turn used, and what it added.

    When the message has ``tool_calls``, the turn stopped at calls of client tools: the caller
    runs them (the step, with the agent's own calls answered, is the last of ``added``).
    """

    message: Message
    usage: Usage = field(default_factory=Usage)
    steps: int = 0
    added: list[Message] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class TurnDone:
    """The last event of a turn: its result."""

    result: TurnResult


TurnEvent = TextDelta | TurnDone


class AgentLoop:
    """Runs turns against a model with the tools of a registry."""

    def __init__(
        self,
        model: ChatModel,
        tools: ToolRegistry | None = None,
        *,
        max_steps: int = 8,
        on_tool: ToolObserver | None = None,
        budget: ContextBudget | None = None,
        recall: Recall | None = None,
        check_calls: bool = False,
        route_tools: RouteMode = "off",
        check_claims: bool = False,
        mentioned: Mentioned | None = None,
        listing: Listing | None = None,
    ) -> None:
        self.model = model
        self.mentioned = mentioned
        self.listing = listing
        self.recall = recall
        self.check_calls = check_calls
        self.route_tools = route_tools
        self.check_claims = check_claims
        self.tools = tools if tools is not None else ToolRegistry()
        self.max_steps = max_steps
        self.budget = budget
        self._on_tool = on_tool

    async def run(
        self,
        conversation: Conversation,
        *,
        stream: bool = False,
        use_tools: bool = True,
        on_append: OnAppend | None = None,
        on_delta: OnDelta | None = None,
        usage: Usage | None = None,
        client_tools: Sequence[dict[str, Any]] = (),
        rule: CallRule = ANY,
        allowed: frozenset[str] | None = None,
    ) -> TurnResult:
        """Run one turn to its final answer; with ``stream`` text deltas go to ``on_delta``.

        Each model call's tokens are added to ``usage`` as soon as it returns (when given; the
        result's ``usage`` is that object), so a caller also counts what a failed turn used.

        The turn ends in words: an empty answer is asked for again once (without tools), then
        made from the tool results; a call repeated with the same arguments is not run again
        (it gets the earlier result) and the next step must answer.

        ``client_tools`` (OpenAI ``tools`` entries) are offered beside the registry's; a step
        that calls one ends the turn there (see the module docstring). ``allowed`` names the
        registry's tools the turn's policy offers (None: all); no other is shown or run.

        ``rule`` (the caller's ``tool_choice`` and ``parallel_tool_calls``): a required or named
        call holds for the first step (later steps may answer); one call per step holds for
        all of them, and a step that calls more keeps its first call.

        Nothing here outlives the call: the model's stream is closed (``aclosing``) before
        this returns or raises, in the caller's task.
        """
        usage = usage if usage is not None else Usage()
        added: list[Message] = []
        client = list(client_tools) if use_tools else []
        client_names = frozenset(str(s["function"]["name"]) for s in client)
        own = self.tools.schemas(allowed) if use_tools and len(self.tools) else []
        schemas = [*own, *client] or None
        mine = self.tools.names if allowed is None else self.tools.names & allowed
        names = mine | client_names if schemas else frozenset()
        done: dict[tuple[str, str], str] = {}  # successful calls of this turn -> their result
        failures: set[tuple[str, str]] = set()  # (tool, error) of this turn's failed calls
        nudge: list[Message] = []  # sent with the next call only, never stored
        must_answer = False
        retried_empty = retried_calls = False
        retried_claim = must_call = False
        retried_aside = False
        alone: Message | None = None  # the next call sees the turn from this request on
        held: CallRule | None = None  # the next step's call, when it must be a given tool's
        recalled = await self._recalled(conversation) if schemas else None
        # Only a step that answers a user's message is routed: after tool results (the turn's
        # later steps, or a client that sends its tools' results back) the question mostly
        # named the tool that had just run, and a client's tool then ran again and again.
        # The one exception: once per turn, the step after one whose calls all failed.
        fresh = bool(conversation.messages) and conversation.messages[-1].role == "user"
        routing = bool(schemas) and fresh and await self._routing()
        reroute = False  # the next step is routed (see above)
        rerouted = False
        step = 0
        while True:
            step += 1
            # The last step offers no tools, so the model has to answer in words.
            bare = must_answer or step >= self.max_steps
            offered = None if bare else schemas
            offered_names = frozenset() if bare else names
            result, routed = await self._call(
                conversation,
                offered,
                offered_names,
                stream,
                on_delta,
                extra=nudge,
                answer_only=bare and schemas is not None,
                recalled=recalled,
                rule=(
                    rule
                    if step == 1
                    else held
                    if held is not None
                    else CallRule(required=True, single=rule.single)
                    if must_call
                    else rule.first_step()
                ),
                route=routing and (step == 1 or reroute),
                first=step == 1,
                alone=alone,
            )
            nudge, must_call, reroute, alone, held = [], False, False, None, None
            usage.add(result.usage)
            reply = result.message
            if rule.single and len(reply.tool_calls) > 1:
                log.info("turn.one_call", dropped=[c.name for c in reply.tool_calls[1:]])
                reply = assistant(reply.content, reply.tool_calls[:1])
            if (
                step == 1
                and reply.tool_calls
                and not rule.must_call
                and routed is None  # a routed step's tool was the model's own choice
                and not await self._needed(conversation, reply, offered)
            ):
                must_answer = True  # the request needs no tool: ask for the answer in words
                continue
            if bare and reply.tool_calls:
                # Offered no tools, a server may still send tool calls: running them would
                # exceed the bound, keeping them unanswered would break the conversation.
                log.warning("turn.max_steps", steps=step, tools=[c.name for c in reply.tool_calls])
                reply = assistant(reply.content or STEPS_EXHAUSTED)
                if stream and not result.message.content and on_delta is not None:
                    await on_delta(reply.content)
            if not reply.tool_calls:
                if not reply.content.strip():
                    if not retried_empty:
                        log.warning("turn.empty_answer", step=step, after_tools=bool(added))
                        retried_empty = must_answer = True
                        nudge = [user(ANSWER_NOW)]
                        continue
                    reply = assistant(_answer_from_results(added))
                    if stream and on_delta is not None:
                        await on_delta(reply.content)
                elif not retried_calls and added and _writes_calls(reply.content, names):
                    # After its tools ran, the model told of calls it never made, written
                    # out mid-answer ('I checked it with read_file:\n{{"name": "read_file",
                    # ...}}}}'): once more, in words only.
                    log.warning("turn.calls_in_answer", step=step)
                    retried_calls = must_answer = True
                    nudge = [user(ANSWER_NOW)]
                    if stream and on_delta is not None:
                        await on_delta("\n\n")
                    continue
                elif retried_calls and added and _writes_calls(reply.content, names):
                    # Asked again, it wrote them again (a ```json fence of the call it had
                    # made): they are cut out of what is kept and returned.
                    log.warning("turn.calls_cut_from_answer", step=step)
                    kept = _without_calls(reply.content, names)
                    reply = assistant(kept or _answer_from_results(added))
                elif (
                    not retried_aside
                    and (at := _turn_start(conversation, added)) is not None
                    and _answers_earlier(reply.content, conversation.messages, at, recalled)
                ):
                    # After its tools ran, it answered an earlier question of the session
                    # again ("The capital of France is Paris." to the weekday in New York):
                    # once more, the earlier turns left out of that call.
                    log.warning("turn.answered_earlier", step=step)
                    retried_aside = must_answer = True
                    alone = conversation.messages[at]
                    nudge = [user(_reminder(conversation.messages))]
                    if stream and on_delta is not None:
                        await on_delta("\n\n")
                    continue
                elif (
                    self.check_claims
                    and schemas is not None
                    and not (retried_claim or must_answer)
                    and step + 1 < self.max_steps
                    and unbacked_claim(_request(conversation.messages), reply.content, added)
                ):
                    # Said done, but nothing did it: once more, with a call required (the
                    # claim is shown to the model, never stored).
                    log.warning("turn.unbacked_claim", step=step)
                    retried_claim = must_call = True
                    nudge = [assistant(reply.content), user(CLAIM_NUDGE)]
                    if stream and on_delta is not None:
                        await on_delta("\n\n")
                    continue
                if self.budget is not None and result.usage.prompt_tokens:
                    # Stored with the answer: how full the context was (`sessions show`).
                    reply.metadata[CONTEXT_KEY] = {
                        "tokens": result.usage.prompt_tokens,
                        "limit": self.budget.context,
                    }
                await _commit(conversation, [reply], added, on_append)
                return TurnResult(reply, usage, step, added)
            log.info("turn.tools", step=step, tools=[c.name for c in reply.tool_calls])
            handed = tuple(c for c in reply.tool_calls if c.name in client_names)
            ours = [c for c in reply.tool_calls if c.name not in client_names]
            if handed:
                reply.metadata[CLIENT_CALLS] = [c.id for c in handed]
            outcomes, repeats = await self._run_tools(ours, done, allowed) if ours else ([], 0)
            results = [
                tool_result(call, self._fitted(call, out.content, offered, len(outcomes)))
                if not out.error
                else tool_result(call, out.content, error=True)
                for call, out in zip(ours, outcomes, strict=True)
            ]
            await _commit(conversation, [reply, *results], added, on_append)
            if handed:
                log.info("turn.client_tools", step=step, tools=[c.name for c in handed])
                return TurnResult(assistant(reply.content, handed), usage, step, added)
            errors = {
                (c.name, out.content) for c, out in zip(ours, outcomes, strict=True) if out.error
            }
            # Every call failed as one failed before (the same path with another offset...).
            failed_again = len(errors) == len(ours) and errors <= failures
            failures |= errors
            if errors and len(errors) == len(ours) and not failed_again and not rerouted:
                # After a failed call the model often made up what the tool would have said
                # ("The file says ...", when the error listed the file to read instead).
                reroute = rerouted = True
            if repeats == len(ours) or failed_again:
                # Nothing new was asked: what it needs is above, so the next step answers.
                log.info(
                    "turn.repeated_calls",
                    step=step,
                    tools=[c.name for c in reply.tool_calls],
                    failed=failed_again,
                )
                must_answer = True
                nudge = [user(ANSWER_NOW)]
            elif routed == READ_FIRST and not errors:
                # The files of a change are read: now the change itself, a call required
                # (unrouted, the model answered "- Append '...' to the end of todo.txt";
                # routed, it named write_file for appends and for questions alike).
                must_call = True
                if APPEND_TOOL in names and asks_to_append(_request(conversation.messages)):
                    # "Append the line ... to todo.txt": edit_file put it in place of the
                    # first line (3 of 10 runs). An append it is, to a path the request names.
                    values = _written(APPEND_TOOL, conversation)
                    held = CallRule(name=APPEND_TOOL, single=rule.single, values=values)
                read = [(c, out.content) for c, out in zip(ours, outcomes, strict=True)]
                nudge = [user(_change_now(conversation.messages, read))]
            else:
                nudge = [user(_reminder(conversation.messages))]

    async def first_step(
        self,
        conversation: Conversation,
        *,
        schemas: Sequence[dict[str, Any]] | None = None,
    ) -> ChatResult:
        """The model's first step of a turn, run no further: what the agent would do first.

        ``schemas`` replaces the registry's tools (OpenAI ``tools`` entries) for this call;
        benchmarks use it to offer functions that have no implementation here.
        """
        offered = list(schemas) if schemas is not None else self.tools.schemas() or None
        names = frozenset(s["function"]["name"] for s in offered or ())
        routing = bool(offered) and await self._routing()
        result, routed = await self._call(
            conversation, offered or None, names, False, None, route=routing
        )
        if (
            result.message.tool_calls
            and routed is None
            and not await self._needed(conversation, result.message, offered)
        ):
            answer, _ = await self._call(
                conversation, None, frozenset(), False, None, answer_only=True
            )
            return answer
        return result

    async def _routing(self) -> bool:
        """Whether tool steps are routed (``route_tools``; auto: when the model holds tool
        steps to a grammar, i.e. a local llama-server)."""
        if self.route_tools == "off" or getattr(self.model, "choose", None) is None:
            return False
        if self.route_tools == "on":
            return True
        enabled = getattr(self.model, "grammar_enabled", None)
        return enabled is not None and bool(await enabled())

    async def _call(
        self,
        conversation: Conversation,
        offered: Sequence[dict[str, Any]] | None,
        offered_names: frozenset[str],
        stream: bool,
        on_delta: OnDelta | None,
        *,
        extra: Sequence[Message] = (),
        answer_only: bool = False,
        recalled: tuple[Message, Message] | None = None,
        rule: CallRule = ANY,
        route: bool = False,
        first: bool = True,
        alone: Message | None = None,
    ) -> tuple[ChatResult, str | None]:
        """One model call with what fits the context (plus ``extra`` at the end); a "context
        exceeded" answer is retried once with a tighter count, then raised as ContextOverflow.

        When the tools' schemas leave no room for the newest message, the step is sent
        without tools (an answer in words beats no answer; a warning says so).

        With ``route`` (and tools offered, no call required by ``rule``), the model first
        names what the step does (:mod:`agentd.engine.route`) and the step is held to it: a
        call of that tool, or an answer in words without tools. In a turn's ``first`` step, a
        request that names files of the workdir (``mentioned``) is asked apart whether it is
        a change or a question (``asks_for_change``): a change has the step read those files
        (``read_file`` with its path held to them; the next step must call a tool, so what
        the model writes stands on their text); a question is routed, and when the route is
        ``answer`` the files are read first all the same (the answer comes next).
        With ``alone`` (the turn's request), the messages before it are left out of this call,
        the system prompt kept (see :mod:`agentd.engine.aside`).
        Returns the result and the route taken (None: not routed).
        """
        budget = self.budget
        retried = False
        routed: str | None = None
        route = route and not rule.must_call and not answer_only
        while True:
            try:
                sent = (
                    conversation.messages if budget is None else budget.fit(conversation, offered)
                )
            except ContextOverflow:
                if budget is None or not offered:
                    raise
                sent = budget.fit(conversation, None)
                log.warning(
                    "context.no_room_for_tools",
                    tools=len(offered),
                    tool_tokens=budget.counter.tokens(budget.tool_chars(offered)),
                    limit=budget.context,
                )
                offered, offered_names, answer_only, rule = None, frozenset(), True, ANY
            if alone is not None:
                sent = _from(sent, alone)
            if recalled is not None:
                request, shown = recalled
                sent = [shown if m is request else m for m in sent]
            sent = [*sent, *extra] if extra else sent
            if route and offered:
                route = False  # once: a retry after "context exceeded" keeps the choice
                named = await self._named(conversation, offered_names) if first else ()
                change = bool(named) and await self._asks_for_change(conversation)
                if not change:
                    routed = await self._route(sent, offered, offered_names)
                if routed == ANSWER and first and SAVE_TOOL in offered_names:
                    if asks_to_remember(_request(conversation.messages)):
                        routed = SAVE_TOOL  # "Remember that ..." answered "Thank you!"
                if change or (named and routed == ANSWER):
                    # A change, or a question about the files answered in words (routed to
                    # `answer`, the model made up a setting's value; routed without it, it
                    # picked exec and ran `sed -i` on the file): the files are read first.
                    # One call: held to one path, the model wrote that call again and again
                    # to the token cap. It may read another file in the next step.
                    # From the start (the model asked for offset 100 of a 49-character file).
                    routed = READ_FIRST if change else READ_TOOL
                    start = (("path", named), ("offset", (0,)))
                    rule = CallRule(name=READ_TOOL, single=True, values=start)
                elif routed == READ_TOOL:
                    # Its path is one of the workdir's files (the model read "notes/readme.md"
                    # when notes/ held reminder.txt). Leaving read_file out of the options in
                    # an empty workdir only moved "what does len([1, 2, 3]) return?" to
                    # write_file: it stays.
                    paths = named or await self._files(offered_names)
                    if paths:
                        held = (("path", tuple(paths)),)
                        rule = CallRule(name=READ_TOOL, single=rule.single, values=held)
                    elif paths is not None:
                        # No file to read: the read could only fail (the model read a made-up
                        # greetings.txt for "Translate 'good morning'"). Answered instead.
                        routed = ANSWER
                        sent = [*sent, user(_nothing_to_read(conversation.messages))]
                if routed == ANSWER:
                    # Without the tools in its prompt: shown tools it may not call, the model
                    # wrote calls as text in the answer (a ```python fence, "name " with a
                    # blank) in 4 of 6 such answers of the agentic suite.
                    offered, offered_names, answer_only = None, frozenset(), True
                elif routed is not None and routed != READ_FIRST and rule.name != routed:
                    rule = CallRule(
                        name=routed, single=rule.single, values=_written(routed, conversation)
                    )
            try:
                if stream:
                    result = await self._streamed(
                        sent, offered, offered_names, on_delta, answer_only, rule
                    )
                else:
                    result = await self.model.chat(
                        sent, offered, offered_names, answer_only=answer_only, rule=rule
                    )
            except ContextExceeded as exc:
                if budget is None or retried:
                    limit = exc.limit or (budget.context if budget is not None else 0)
                    raise ContextOverflow(needed=exc.requested or limit, limit=limit) from exc
                log.warning("context.exceeded", limit=exc.limit, requested=exc.requested)
                budget.tighten(sent, offered, exc.requested, exc.limit)
                retried = True
                continue
            if budget is not None:
                budget.calibrate(sent, offered, result.usage.prompt_tokens)
            conversation.prompt_tokens = result.usage.prompt_tokens
            return result, routed

    async def _named(
        self, conversation: Conversation, offered_names: frozenset[str]
    ) -> tuple[str, ...]:
        """The workdir files the turn's request names, when ``read_file`` is offered."""
        if self.mentioned is None or READ_TOOL not in offered_names:
            return ()
        try:
            named = tuple(await self.mentioned(_request(conversation.messages)))
        except Exception as exc:  # a help: a failure must not cost the turn
            log.warning("turn.mentions_failed", error=str(exc), exc_type=type(exc).__name__)
            return ()
        if named:
            log.info("turn.read_first", files=len(named))
        return named

    async def _route(
        self,
        sent: Sequence[Message],
        offered: Sequence[dict[str, Any]],
        offered_names: frozenset[str],
    ) -> str | None:
        """The step's route: ``ANSWER``, an offered tool's name, or None (the model could not
        say: the step goes unrouted)."""
        choice = await route(self.model.choose, sent, offered)  # type: ignore[attr-defined]
        return choice if choice == ANSWER or choice in offered_names else None

    async def _files(self, offered_names: frozenset[str]) -> Sequence[str] | None:
        """The workdir's files when ``read_file`` is offered (None: not known, or too many)."""
        if self.listing is None or READ_TOOL not in offered_names:
            return None
        try:
            return await self.listing()
        except Exception as exc:  # a help: a failure must not cost the turn
            log.warning("turn.listing_failed", error=str(exc), exc_type=type(exc).__name__)
            return None

    async def _asks_for_change(self, conversation: Conversation) -> bool:
        """Whether the turn's request asks to change a file (see ``asks_for_change``)."""
        choose = self.model.choose  # type: ignore[attr-defined]
        return bool(await asks_for_change(choose, _request(conversation.messages)))

    async def _needed(
        self,
        conversation: Conversation,
        reply: Message,
        offered: Sequence[dict[str, Any]] | None,
    ) -> bool:
        """With ``check_calls``: whether the model, asked yes/no, finds these calls needed for
        the request (small models call a tool for "What's 2+2?"). Unsure means yes."""
        choose = getattr(self.model, "choose", None)
        if not self.check_calls or choose is None:
            return True
        request = next((m.content for m in reversed(conversation.messages) if m.role == "user"), "")
        about = {
            str(s["function"]["name"]): str(s["function"].get("description") or "")
            for s in offered or ()
        }
        calls = "\n".join(
            f"- {c.name}({c.arguments[:200]}): {about.get(c.name, '')[:200]}"
            for c in reply.tool_calls
        )
        question = CHECK_QUESTION.format(request=request[:REQUEST_CHARS], calls=calls)
        try:
            answer: str | None = await choose([system(CHECK_SYSTEM), user(question)], ("yes", "no"))
        except LLMError as exc:
            log.warning("turn.check_failed", error=str(exc))
            return True
        needed = answer != "no"
        log.info("turn.check_calls", needed=needed, tools=[c.name for c in reply.tool_calls])
        return needed

    async def _recalled(self, conversation: Conversation) -> tuple[Message, Message] | None:
        """The turn's request and the copy the model is sent: with what memory recalls about
        it in front (the stored request stays as the user wrote it)."""
        messages = conversation.messages
        if self.recall is None or not messages or messages[-1].role != "user":
            return None
        request = messages[-1]
        try:
            note = await self.recall(request.content)
        except Exception as exc:  # recall is a help: a failure must not cost the turn
            log.warning("memory.recall_failed", error=str(exc), exc_type=type(exc).__name__)
            return None
        if not note:
            return None
        return request, user(f"{note}\n\n{request.content}")

    def _fitted(
        self,
        call: ToolCall,
        text: str,
        offered: Sequence[dict[str, Any]] | None,
        results: int,
    ) -> str:
        """A tool result cut to its share of half the room, so the next call still fits."""
        if self.budget is None:
            return text
        limit = self.budget.chars_for(self.budget.room(offered) // (2 * max(results, 1)))
        hint = (
            "read a smaller part with read_file's offset and length"
            if call.name == "read_file"
            else "the rest did not fit the model's context"
        )
        return cut_to_fit(text, limit, hint=hint)

    async def _streamed(
        self,
        messages: Sequence[Message],
        offered: Sequence[dict[str, Any]] | None,
        offered_names: frozenset[str],
        on_delta: OnDelta | None,
        answer_only: bool = False,
        rule: CallRule = ANY,
    ) -> ChatResult:
        result: ChatResult | None = None
        events = self.model.stream(
            messages, offered, offered_names, answer_only=answer_only, rule=rule
        )
        async with aclosing(events):  # type: ignore[type-var]
            async for event in events:
                if isinstance(event, Completed):
                    result = event.result
                elif on_delta is not None:
                    await on_delta(event.text)
        assert result is not None
        return result

    async def _run_tools(
        self,
        calls: Sequence[ToolCall],
        done: dict[tuple[str, str], str],
        allowed: frozenset[str] | None = None,
    ) -> tuple[list[ToolOutcome], int]:
        """Run a step's calls concurrently; returns their outcomes and how many were repeats.

        A call made before in this turn with the same arguments (and not failed) is not run
        again: it gets the earlier result. Identical calls within one step run once.
        """
        outcomes: list[ToolOutcome | None] = [None] * len(calls)
        keys = [_call_key(call) for call in calls]
        first: dict[tuple[str, str], int] = {}
        repeats = 0
        for index, key in enumerate(keys):
            if key in done:
                outcomes[index] = ToolOutcome(f"{REPEATED}\n{done[key]}")
                repeats += 1
            elif key in first:
                repeats += 1
            else:
                first[key] = index

        async def one(index: int, call: ToolCall) -> None:
            started = anyio.current_time()
            outcome = await self.tools.call(call, allowed)
            outcomes[index] = outcome
            if self._on_tool is not None:
                self._on_tool(call.name, outcome.error, anyio.current_time() - started)

        pending = list(first.values())
        if len(pending) == 1:
            await one(pending[0], calls[pending[0]])
        elif pending:
            async with anyio.create_task_group() as tg:
                for index in pending:
                    tg.start_soon(one, index, calls[index])
        for index, key in enumerate(keys):
            source = outcomes[first[key]] if key in first else None
            if outcomes[index] is None and source is not None:
                # The same call twice in one step: run once, the copy says so.
                outcomes[index] = (
                    source if source.error else ToolOutcome(f"{REPEATED}\n{source.content}")
                )
        for key, index in first.items():
            result = outcomes[index]
            if result is not None and not result.error:
                done[key] = result.content
        return [o for o in outcomes if o is not None], repeats


def _call_key(call: ToolCall) -> tuple[str, str]:
    """A call's identity: its name and its arguments with key order and spacing ignored."""
    try:
        args = json.dumps(json.loads(call.arguments or "{}"), sort_keys=True)
    except ValueError:
        args = call.arguments
    return call.name, args


def _request(messages: Sequence[Message]) -> str:
    """The turn's request: the last user message."""
    return next((m.content for m in reversed(messages) if m.role == "user"), "")


def _turn_start(conversation: Conversation, added: Sequence[Message]) -> int | None:
    """Where the user message this turn answers stands in the conversation, when tools ran in
    the turn (None otherwise, or when the turn went on from tool results a client sent)."""
    at = len(conversation.messages) - len(added) - 1
    if not added or at < 0 or conversation.messages[at].role != "user":
        return None
    return at


def _answers_earlier(
    answer: str,
    messages: Sequence[Message],
    at: int,
    recalled: tuple[Message, Message] | None,
) -> bool:
    """Whether ``answer`` is to an earlier question than the request at ``at``
    (:func:`answers_earlier`; what memory recalled for the request counts as the turn's)."""
    shown = [recalled[1]] if recalled is not None else []
    return answers_earlier(answer, messages[:at], [*messages[at:], *shown])


def _from(sent: Sequence[Message], request: Message) -> list[Message]:
    """``sent`` from ``request`` on, its system messages kept in front (all of it when the
    request is not in it)."""
    at = next((i for i, m in enumerate(sent) if m is request), None)
    if at is None:
        return list(sent)
    return [*(m for m in sent[:at] if m.role == "system"), *sent[at:]]


def _written(
    tool: str, conversation: Conversation
) -> tuple[tuple[str, tuple[str | int, ...]], ...]:
    """The held values of a routed call of ``tool``: a file-writing tool's ``path`` is one of
    the paths the request names, when it names any ("Write that trip down in trip.txt" was
    written to trips/trip.txt)."""
    if tool not in WRITE_TOOLS:
        return ()
    paths = named_paths(_request(conversation.messages))
    return (("path", tuple(paths)),) if paths else ()


def _short_request(messages: Sequence[Message]) -> str:
    """The turn's request on one line, cut to ``REQUEST_CHARS``."""
    request = " ".join(_request(messages).split())
    return request[:REQUEST_CHARS] + "..." if len(request) > REQUEST_CHARS else request


def _reminder(messages: Sequence[Message]) -> str:
    """What follows tool results in the next call: the user's request, to be answered."""
    return (
        f'{REMINDER_HEAD} My request was: "{_short_request(messages)}". Answer it in words '
        "using those results, or call another tool if it still needs one."
    )


def _change_now(messages: Sequence[Message], read: Sequence[tuple[ToolCall, str]] = ()) -> str:
    """What follows a read-first step of a change: the request, to be done now with a tool,
    then a short file's text again (as JSON, the form a call's argument takes): after the
    request alone the model wrote the request ("Copy the contents of source.txt into ...")
    or an earlier error as the copy, the last quoted text before its call."""
    shown = []
    for call, text in read:
        path = _argument(call, "path")
        if isinstance(path, str) and len(text) <= SHOWN_CHARS:
            shown.append(f" {path} holds: {json.dumps(text, ensure_ascii=False)}.")
    return (
        f'{CHANGE_HEAD} My request was: "{_short_request(messages)}".{"".join(shown)} Make the '
        "change now: call the tool that does it."
    )


_CALL_NAME = re.compile(r'\{\s*"name"\s*:\s*"([^"]+)"\s*,\s*"(?:arguments|parameters)"')


def _writes_calls(text: str, names: frozenset[str]) -> bool:
    """Whether ``text`` writes out a call of one of the tools ``names`` (a JSON object with
    its ``name`` and ``arguments``) somewhere in its prose."""
    return any(m.group(1) in names for m in _CALL_NAME.finditer(text))


_FENCE = re.compile(r"```[a-z]*\n.*?```", re.DOTALL)


def _without_calls(text: str, names: frozenset[str]) -> str:
    """``text`` without the calls of tools ``names`` written in it: fenced blocks that hold
    one, and bare JSON objects (with the extra braces of ``{{...}}}}``)."""
    text = _FENCE.sub(lambda m: "" if _writes_calls(m.group(0), names) else m.group(0), text)
    decoder = json.JSONDecoder()
    while match := next((m for m in _CALL_NAME.finditer(text) if m.group(1) in names), None):
        start = match.start()
        try:
            _, end = decoder.raw_decode(text, start)
        except json.JSONDecodeError:
            end = len(text)  # cut off mid-call: the rest is the call
        while start > 0 and text[start - 1] == "{":
            start -= 1
        while end < len(text) and text[end] == "}":
            end += 1
        text = text[:start] + text[end:]
    return re.sub(r"\n{3,}", "\n\n", text).strip()


def _argument(call: ToolCall, name: str) -> object:
    """Argument ``name`` of ``call`` (None when its arguments are not a JSON object)."""
    try:
        args = json.loads(call.arguments or "{}")
    except json.JSONDecodeError:
        return None
    return args.get(name) if isinstance(args, dict) else None


def _nothing_to_read(messages: Sequence[Message]) -> str:
    """What follows the request when a read was routed in an empty workdir: the request again
    (after the bare note the model answered "Good morning." to "Translate 'good morning'")."""
    return f'{NOTHING_TO_READ} My request was: "{_short_request(messages)}". Answer it in words.'


def _answer_from_results(added: Sequence[Message]) -> str:
    """The words a turn ends with when the model gave none twice: its tool results, briefly."""
    results = [m.content for m in added if m.role == "tool" and m.content.strip()]
    if not results:
        return NO_ANSWER
    text = "\n".join(results[-3:])
    if len(text) > FALLBACK_CHARS:
        text = text[:FALLBACK_CHARS] + " ..."
    return f"{FROM_RESULTS}\n{text}"


async def _commit(
    conversation: Conversation,
    messages: list[Message],
    added: list[Message],
    on_append: OnAppend | None,
) -> None:
    # Persist first, then show in memory: what the model sees next is what is stored.
    if on_append is not None:
        await on_append(messages)
    conversation.extend(messages)
    added.extend(messages)
