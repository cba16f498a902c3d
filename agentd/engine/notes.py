"""The notes a turn sends after the conversation for one model call (never stored).

They speak to the model, not for the user: those that lead to a next step quote the user's
request as it was written, the one after tool results points to it (the last user message
above), and each asks for the answer in the request's language, named when it can be told
(:mod:`agentd.engine.language`: "in German").
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from agentd.engine.language import language_of
from agentd.engine.turnstate import TurnState, argument
from agentd.messages import Message, user

#: Opens the note sent when the model must answer now: after an empty answer or repeated calls.
ANSWER_NOW = "Answer my last request now"
#: How the answer's language is asked for when it cannot be named.
UNNAMED = "in the language I wrote it in"
#: Opens the note after tool results: small models otherwise answer the results, not the user.
REMINDER_HEAD = "(Those are the results of your tool calls.)"
#: Opens the note after a read-first step of a request that asks for a change.
CHANGE_HEAD = "(That is what the file holds now.)"
#: A file read for a change is shown again after the request when it is this short.
SHOWN_CHARS = 600
#: Opens the note of a step routed to read in an empty workdir.
NOTHING_TO_READ = "(Your workdir holds no files: there is nothing to read.)"
#: Opens the note when an answer follows an action request no tool carried out.
NOT_DONE_HEAD = "(No tool has changed anything in this turn.)"
#: Opens the note after an answer that only repeated the request.
ECHO_HEAD = "(Your answer only repeated my request.)"
#: Opens the note after an answer in another language than the request's (no parenthesised
#: head: the model wrote such a head, translated, into its answer).
OTHER_LANGUAGE_HEAD = "You answered in {written}:"
#: An answer in another language is shown again to be rewritten when it is this short.
REWRITTEN_CHARS = 1500


def in_language(state: TurnState) -> str:
    """How the answer's language is asked for: "in German", or :data:`UNNAMED` when the
    request's language cannot be told."""
    name = language_of(state.request)
    return f"in {name}" if name else UNNAMED


def answer_now(state: TurnState) -> Message:
    """When the model must answer now (an empty answer, repeated calls, a broken call): in
    words, in the request's language, using the tool results when some came."""
    results = ", using the tool results above" if state.added else ""
    return user(f"{ANSWER_NOW}, in words and {in_language(state)}{results}.")


def reminder(
    state: TurnState, calls: Sequence[tuple[str, str]] = (), *, bare: bool = False
) -> Message:
    """After tool results: the user's request, above them, to be answered in its language;
    when the step's ``calls`` (name, arguments) used none of the workdir files the request
    names, those names too (asked to count the lines of datos.txt, the model ran ``wc -l
    data.txt`` and answered that there was no such file). The request is pointed to, not
    quoted again: it is the last user message of the prompt, and quoted it was 15-40 more
    tokens to read on every answer after a tool. ``bare``: the step can call no tool, so the
    note offers none."""
    missed = ""
    if calls and state.named and not any(n in args for _, args in calls for n in state.named):
        missed = f" The files my request names: {', '.join(state.named)}."
    more = "" if bare else ", or call another tool if it still needs one"
    return user(
        f"{REMINDER_HEAD}{missed} Answer my request above in words {in_language(state)}, "
        f"using those results{more}."
    )


def after_change_read(state: TurnState, read: Sequence[tuple[str, str]]) -> Message:
    """After the files of a change were read: the request, and a short file's text again (as
    JSON, the form a call's argument takes: after the request alone the model wrote the
    request itself as the copy). ``read`` holds (call arguments, result) pairs."""
    shown = []
    for arguments, text in read:
        path = argument(arguments, "path")
        if isinstance(path, str) and len(text) <= SHOWN_CHARS:
            shown.append(f" {path} holds: {json.dumps(text, ensure_ascii=False)}.")
    return user(
        f'{CHANGE_HEAD} My request was: "{state.short_request}".{"".join(shown)} If it asks '
        f"for a change, make it now with the tool that does it; otherwise answer in words "
        f"{in_language(state)}."
    )


def nothing_to_read(state: TurnState) -> Message:
    """A read routed in an empty workdir answers instead: the request again."""
    return user(
        f'{NOTHING_TO_READ} My request was: "{state.short_request}". Answer it in words '
        f"{in_language(state)}."
    )


def not_done(state: TurnState) -> Message:
    """An answer to a request for an action that no tool carried out: do it, or say so."""
    return user(
        f'{NOT_DONE_HEAD} My request was: "{state.short_request}". If it needs a change, make '
        f"it now with the tool that does it; if it cannot be done, say so plainly "
        f"{in_language(state)}."
    )


def echoed(state: TurnState) -> Message:
    """After an answer that only repeated the request: what the tool results above mean for
    the user, the language asked for last (the step may call no tool). Asked to "answer it now
    ... say what you did", the model repeated the request again (Spanish reminders, 3 of 3) or
    answered in English (Japanese); asked what the results mean, it said so in the language
    asked for (10 of 10 spent reminder turns)."""
    return user(
        f"{ECHO_HEAD} Tell me what the tool results above mean for me. Write it "
        f"{in_language(state)}."
    )


def next_step(state: TurnState) -> Message:
    """After a planned step's tool results: the request, whose next step comes now."""
    return user(
        f'{REMINDER_HEAD} My request was: "{state.short_request}". Do the next step it asks '
        "for now."
    )


def other_language(state: TurnState, answer: str, asked: str, written: str) -> Message:
    """After an answer in ``written``, another language than the request's (``asked``): the
    answer again, to be written in the request's language (what it says is kept), or, too
    long to show, the request to be answered in it. The instruction comes last: with the
    answer last, the model wrote it out again as it was."""
    if len(answer) > REWRITTEN_CHARS:
        return user(f"Answer my request above again, in words and in {asked}.")
    shown = json.dumps(answer, ensure_ascii=False)
    head = OTHER_LANGUAGE_HEAD.format(written=written)
    return user(f"{head} {shown}. Write that answer in {asked}.")
