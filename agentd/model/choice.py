"""How a step may call tools: OpenAI's ``tool_choice`` and ``parallel_tool_calls``.

A :class:`CallRule` travels with a model call. Under agentd's step grammar it is enforced:
``required`` leaves out the answer-in-words half, a ``name`` narrows the calls to that tool,
``single`` allows one call, ``values`` holds some of its arguments to given values, ``among``
narrows the calls to some of the tools shown (the rest stay in the prompt, so the model
server's cached prefix of it still holds), ``lines`` holds some string arguments to one line,
``shapes`` others to a pattern the grammar knows (a delay).
A server
without the grammar is sent the OpenAI fields instead (what it does with them is up to it; it
is not told ``values``), and the agent loop keeps the first call of a step when ``single``
holds either way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from agentd.model.grammar import ONE_LINE


@dataclass(frozen=True, slots=True)
class CallRule:
    """``required``: the step must call a tool; ``name``: that tool (implies required);
    ``single``: at most one call in the step; ``values``: (argument, allowed values) pairs for
    the named tool's call, e.g. ``(("path", ("notes.md",)),)``; ``among``: the tools a call
    may name (None: every tool shown); ``once``: tools that only look, whose call written a
    second time in the step ends it (:mod:`agentd.model.repeats`); ``lines``: (tool,
    argument) pairs whose string is held to one line (:data:`~agentd.model.grammar.ONE_LINE`);
    ``shapes``: (tool, argument, pattern) triples whose string is held to that pattern, one
    of :mod:`agentd.model.grammar`'s (:data:`~agentd.model.grammar.DELAY`). The default
    allows anything."""

    required: bool = False
    name: str | None = None
    single: bool = False
    values: tuple[tuple[str, tuple[str | int, ...]], ...] = ()
    among: frozenset[str] | None = None
    once: frozenset[str] = frozenset()
    lines: frozenset[tuple[str, str]] = frozenset()
    shapes: frozenset[tuple[str, str, str]] = frozenset()

    @property
    def must_call(self) -> bool:
        return self.required or self.name is not None

    def first_step(self) -> CallRule:
        """This rule as it holds for the turn's later steps: a call was made, the model may
        now answer (the one-call limit stays)."""
        return CallRule(single=self.single) if self.must_call else self

    def narrow(self, tools: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
        """The tools a call may name under this rule (all of them unless one is named or
        ``among`` names some), with the arguments that ``values`` holds narrowed to an
        ``enum`` of those values, those ``lines`` holds to one line and those ``shapes``
        holds to their pattern."""
        if self.among is not None:
            tools = [t for t in tools if t.get("function", t).get("name") in self.among]
        shapes = self.shapes | {(name, arg, ONE_LINE) for name, arg in self.lines}
        if shapes:
            tools = [_shaped(t, shapes) for t in tools]
        if self.name is None:
            return list(tools)
        named = [t for t in tools if t.get("function", t).get("name") == self.name]
        return [_held(t, dict(self.values)) for t in named] if self.values else named

    def given(self, tools: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
        """The arguments of the one call this rule leaves possible among ``tools``, or None:
        a named tool each of whose arguments is held to one value (a read held to the one
        file a request names, from its start). Such a call is the rule's, not the model's:
        nothing is left for the model to write. (A tool with an argument not held, even an
        optional one, is the model's to call: ``current_time`` takes the user's zone.)"""
        if self.name is None or any(len(allowed) != 1 for _, allowed in self.values):
            return None
        fixed = {arg: allowed[0] for arg, allowed in self.values}
        for tool in tools:
            fn = tool.get("function", tool)
            if fn.get("name") == self.name:
                props = (fn.get("parameters") or {}).get("properties") or {}
                return fixed if set(props) <= fixed.keys() else None
        return None

    def openai_fields(self) -> dict[str, Any]:
        """The request fields saying this to an OpenAI-compatible server."""
        fields: dict[str, Any] = {}
        if self.name is not None:
            fields["tool_choice"] = {"type": "function", "function": {"name": self.name}}
        elif self.required:
            fields["tool_choice"] = "required"
        if self.single:
            fields["parallel_tool_calls"] = False
        return fields


def _held(tool: dict[str, Any], values: dict[str, tuple[str | int, ...]]) -> dict[str, Any]:
    """``tool`` (an OpenAI ``tools`` entry) with each argument in ``values`` required and
    limited to those values (a copy; the original is shared)."""
    fn = tool.get("function", tool)
    params = dict(fn.get("parameters") or {})
    props = dict(params.get("properties") or {})
    for arg, allowed in values.items():
        props[arg] = {**props.get(arg, {"type": "string"}), "enum": list(allowed)}
    required = list(params.get("required") or ())
    params["properties"] = props
    params["required"] = [*required, *(a for a in values if a not in required)]
    held = {**fn, "parameters": params}
    return {**tool, "function": held} if "function" in tool else held


def _shaped(tool: dict[str, Any], shapes: frozenset[tuple[str, str, str]]) -> dict[str, Any]:
    """``tool`` with each of its string arguments that ``shapes`` names held to its pattern
    (a copy; ``tool`` itself when ``shapes`` names none of its arguments)."""
    fn = tool.get("function", tool)
    params = fn.get("parameters") or {}
    props = params.get("properties") or {}
    held = {
        arg: pattern
        for name, arg, pattern in sorted(shapes)
        if name == fn.get("name")
        and isinstance(props.get(arg), dict)
        and props[arg].get("type") == "string"
    }
    if not held:
        return tool
    shaped = {arg: {**props[arg], "pattern": pattern} for arg, pattern in held.items()}
    narrowed = {**fn, "parameters": {**params, "properties": {**props, **shaped}}}
    return {**tool, "function": narrowed} if "function" in tool else narrowed


ANY = CallRule()
