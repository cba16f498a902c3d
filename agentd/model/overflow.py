"""Recognising a model server's "context exceeded" answer, in each server's wording.

Only the parse lives here: :func:`context_exceeded` reads an error body and says whether it is a
context overflow, with the context size and the tokens asked when the server states them. The
wordings, from the servers' sources:

- llama-server (``tools/server/server-context.cpp``): ``type: "exceed_context_size_error"``
  with ``n_prompt_tokens`` and ``n_ctx`` beside ``request (N tokens) exceeds the available
  context size (C tokens), try increasing it``; ``input (N tokens) is larger than the max
  context size (C tokens). skipping`` for inputs that cannot be split; older builds say ``the
  request exceeds the available context size...`` without numbers.
- OpenAI: ``code: "context_length_exceeded"``, ``This model's maximum context length is C
  tokens. However, your messages resulted in N tokens...``.
- vLLM, by version: ``...maximum context length is C tokens. However, you requested N tokens
  (P in the messages, M in the completion)``; ``...However, your request has N input tokens``;
  ``'max_tokens' or 'max_completion_tokens' is too large: M. This model's maximum context
  length is C tokens and your request has P input tokens``; ``...However, you requested M
  output tokens and your prompt contains [at least] P input tokens, for a total of [at least]
  N tokens``; and (``vllm/renderers/params.py``, current) ``You passed P input tokens and
  requested M output tokens. However, the model's context length is only C tokens...``.

``requested`` is the whole demand the server compared with the limit (prompt plus completion
where it counts both), so ``requested - limit`` is always what has to go.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

#: Server messages are short; a longer one is cut before the patterns run.
MAX_MESSAGE = 2000

_N = r"(\d{1,12})"
_LLAMA_TYPE = "exceed_context_size_error"
_OPENAI_CODE = "context_length_exceeded"
_LLAMA_TEXT = re.compile(
    rf"\({_N} tokens\) exceeds the available context size \({_N} tokens\)"
    rf"|input \({_N} tokens\) is larger than the max context size \({_N} tokens\)"
)
_LLAMA_BARE = re.compile(r"exceeds the available context size|larger than the max context size")
_LIMIT = re.compile(
    rf"maximum context length is {_N} tokens"
    rf"|model's context length is only {_N} tokens"
    rf"|exceed the configured limit of {_N} tokens"
)
_ASKED = re.compile(
    rf"for a total of (?:at least )?{_N} tokens"
    rf"|resulted in {_N} tokens"
    rf"|you requested {_N} tokens"
    rf"|your request has {_N} input tokens(?! \()"
)
# The two wordings that state the prompt and the completion separately: their sum is asked.
_PARTS = re.compile(
    rf"is too large: {_N}\..*?your request has {_N} input tokens"
    rf"|You passed {_N} input tokens and requested {_N} output tokens"
    rf"|you requested {_N} output tokens and your prompt contains (?:at least )?{_N} input tokens",
    re.DOTALL,
)


@dataclass(frozen=True, slots=True)
class Overflow:
    """A context-exceeded answer: the context size and the tokens asked, when stated."""

    limit: int | None = None
    requested: int | None = None


def context_exceeded(body: Any) -> Overflow | None:
    """The overflow an error body reports, or None when it is some other error.

    ``body`` is the decoded JSON of the answer (``{"error": {...}}``, vLLM's older flat
    ``{"object": "error", "message": ...}``, or an error string) or its raw text.
    """
    error = _error_object(body)
    message = error.get("message")
    text = message[:MAX_MESSAGE] if isinstance(message, str) else ""
    if error.get("type") == _LLAMA_TYPE or _LLAMA_BARE.search(text):
        return _llama(error, text)
    limit_match = _LIMIT.search(text)
    if limit_match is None and error.get("code") != _OPENAI_CODE:
        return None
    limit = _first_int(limit_match)
    return Overflow(limit, _requested(text))


def _error_object(body: Any) -> dict[str, Any]:
    if isinstance(body, dict):
        inner = body.get("error")
        if isinstance(inner, dict):
            return inner
        if isinstance(inner, str):
            return {"message": inner}
        return body
    if isinstance(body, str):
        return {"message": body}
    return {}


def _llama(error: dict[str, Any], text: str) -> Overflow:
    asked, limit = _count(error.get("n_prompt_tokens")), _count(error.get("n_ctx"))
    match = _LLAMA_TEXT.search(text)
    if match is not None:
        numbers = [int(g) for g in match.groups() if g is not None]
        asked = asked if asked is not None else numbers[0]
        limit = limit if limit is not None else numbers[1]
    return Overflow(limit, asked)


def _requested(text: str) -> int | None:
    parts = _PARTS.search(text)
    if parts is not None:
        return sum(int(g) for g in parts.groups() if g is not None)
    return _first_int(_ASKED.search(text))


def _first_int(match: re.Match[str] | None) -> int | None:
    if match is None:
        return None
    return next(int(g) for g in match.groups() if g is not None)


def _count(value: Any) -> int | None:
    """A token count from a JSON field: a non-negative int (not a bool), else None."""
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    return None


__all__ = ["MAX_MESSAGE", "Overflow", "context_exceeded"]
