"""The routing question: before a routed step, the model names what the step does.

Asked for one word under a grammar (``answer`` or the name of an offered tool), a small model
decides better than when it chooses a tool and writes its call in one go; the step is then
held to that word (:mod:`agentd.engine.guards.route`). The question goes after the step's own
messages, with the same tools in the template, so the model server reuses its cached prompt
for the question and for the step; it is never stored. See docs/benchmarks.md (tool calls on
the local models) for the numbers that chose these wordings.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from agentd.config import Settings
from agentd.model.packages import MODELS

#: The option that means "no tool: answer in words now".
ANSWER = "answer"
#: How the question opens (the loopback stub recognises it by this).
QUESTION_HEAD = "(Before you reply: which tool must be called now to do what I asked?"

#: ``default.guards.route``: route tool steps (auto: under a tool grammar).
RouteMode = Literal["auto", "on", "off"]


def mode_for(settings: Settings) -> RouteMode:
    """``default.guards.route`` as it applies: ``auto`` is ``off`` when the sidecar serves a
    packaged model that was measured to route badly (``PackagedModel.routes``), by its name or
    by a ``model_path`` that is its file (as the benchmarks give it)."""
    mode = settings.default.guard_switches()["route"]
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
