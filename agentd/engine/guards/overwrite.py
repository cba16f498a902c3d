"""Overwrite: after ``write_file`` held back a write that would drop most of a file, the model
says whether the user asked to replace the file or to keep its lines.

``write_file`` answers a first write that keeps fewer than half of a file's lines with an error
(:mod:`agentd.tools.overwrite`), and the same call again goes through. Asked to add a line, the
small local model sent the same call again, and the file's other lines were gone. After such
an error the model is asked, apart and under a grammar, in whatever language the request came:
``keep`` (the user asked to add something or to change a part) routes the next step among the
tools of the file's kind that add or change a piece, with a note naming them; ``replace``
offers the next step the write again. Nothing reads the request's words.

For a small local model only (``serves = "local"``); a capable model reads the error itself.
"""

from __future__ import annotations

from dataclasses import dataclass

import structlog

from agentd.engine.asking import Asker
from agentd.engine.guards.base import Serves, StepRun
from agentd.engine.turnstate import REQUEST_CHARS, Next, TurnState, argument
from agentd.messages import Message, system, user
from agentd.tools.overwrite import HELD_BACK

log = structlog.get_logger("agentd.engine.guards.overwrite")

WRITE_TOOL = "write_file"
KEEP, REPLACE = "keep", "replace"
OVERWRITE_SYSTEM = "You check what a user asked for. Reply with one word: keep or replace."
OVERWRITE_QUESTION = (
    'The user wrote: "{request}"\n\nThe file {path} already has lines of its own. The '
    "assistant is about to replace all of them with only this:\n{content}\n\nReply replace if "
    "the user asked for the file to hold only this text now. Reply keep if the user asked to "
    "add this to the file or to change a part of it (its other lines stay)."
)
#: Opens the note after the model said the file's lines stay.
KEEP_HEAD = "(write_file would have replaced the whole file: its other lines stay.)"
#: Opens the note after the model said the user asked for the whole file to be replaced.
REPLACE_HEAD = "(The whole file is to be replaced, as asked.)"
#: How far into a failed call's result the held-back error may begin.
HEAD_CHARS = 80
#: The new text quoted in the question, at most.
CONTENT_CHARS = 400


@dataclass(slots=True)
class Overwrite:
    """The after-tool policy that follows a write held back (see the module docstring)."""

    asker: Asker
    name: str = "overwrite"
    serves: Serves = "local"

    async def after(self, state: TurnState, run: StepRun) -> Next | None:
        held = _held_back(run)
        if held is None or state.client_led or self.name in state.retried:
            return None
        pieces = _pieces(state)
        if WRITE_TOOL not in state.names or not pieces:
            return None
        state.retried.add(self.name)
        path, content = held
        question = OVERWRITE_QUESTION.format(
            request=state.request[:REQUEST_CHARS], path=path, content=content[:CONTENT_CHARS]
        )
        asked = [system(OVERWRITE_SYSTEM), user(question)]
        word = await self.asker.ask(state, self.name, asked, (KEEP, REPLACE), apart=True)
        if word is None:
            return None
        state.fire(self.name, word)
        log.info("turn.overwrite", decision=word)
        if word == KEEP:
            return Next(notes=[_keep(state, path, pieces)], route=True, tools=pieces)
        return Next(notes=[_replace(state)], tools=frozenset({WRITE_TOOL}))


def _held_back(run: StepRun) -> tuple[str, str] | None:
    """(path, content) of the step's write_file call that was held back, if one was."""
    for (name, arguments), out in zip(run.calls, run.outcomes, strict=True):
        # The registry reports it as "error: ToolError: not written: ...".
        if name == WRITE_TOOL and out.error and HELD_BACK in out.content[:HEAD_CHARS]:
            path, content = argument(arguments, "path"), argument(arguments, "content")
            if isinstance(path, str) and isinstance(content, str):
                return path, content
    return None


def _pieces(state: TurnState) -> frozenset[str]:
    """The turn's tools that act on files as write_file does, write_file aside."""
    kind = state.kinds.get(WRITE_TOOL, "")
    return frozenset(
        n for n in state.acting if n != WRITE_TOOL and kind and state.kinds.get(n) == kind
    )


def _keep(state: TurnState, path: str, pieces: frozenset[str]) -> Message:
    tools = " or ".join(sorted(pieces))
    return user(
        f'{KEEP_HEAD} My request was: "{state.short_request}". Do it in {path} with {tools}, '
        "which keep the file's other lines, or answer in words."
    )


def _replace(state: TurnState) -> Message:
    return user(
        f'{REPLACE_HEAD} My request was: "{state.short_request}". Send the same write_file call '
        "again to replace the file."
    )
