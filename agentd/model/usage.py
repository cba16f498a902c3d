"""Token usage as model servers report it, with the prompt cache's counters.

OpenAI-style servers put ``usage.prompt_tokens_details.cached_tokens`` beside the counts;
llama-server adds a ``timings`` object (``cache_n`` tokens reused from its KV cache,
``prompt_n`` tokens evaluated anew) to the final answer and to the last stream chunk.
Parsing never fails: a missing or odd field counts as not reported.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(slots=True)
class Usage:
    """Token counts of one model call, or the sum of several.

    ``cached_tokens`` are prompt tokens the server reused from its cache (0 when it does not
    say); ``evaluated_tokens`` are prompt tokens it evaluated anew, known only from
    llama-server's ``timings.prompt_n`` (None otherwise).
    """

    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0
    evaluated_tokens: int | None = None

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def add(self, other: Usage) -> None:
        """Add ``other``'s counts; an evaluated count known on either side is kept."""
        self.prompt_tokens += other.prompt_tokens
        self.completion_tokens += other.completion_tokens
        self.cached_tokens += other.cached_tokens
        if other.evaluated_tokens is not None:
            self.evaluated_tokens = (self.evaluated_tokens or 0) + other.evaluated_tokens

    @classmethod
    def from_openai(cls, data: Any, timings: Any = None) -> Usage:
        """Parse an OpenAI ``usage`` object and, when given, llama-server's ``timings``."""
        usage = data if isinstance(data, dict) else {}
        times = timings if isinstance(timings, dict) else {}
        details = usage.get("prompt_tokens_details")
        cached = _count(details.get("cached_tokens")) if isinstance(details, dict) else None
        if cached is None:
            cached = _count(times.get("cache_n"))
        evaluated = _count(times.get("prompt_n"))
        prompt = _count(usage.get("prompt_tokens"))
        completion = _count(usage.get("completion_tokens"))
        if prompt is None and evaluated is not None:
            # A stream cut short has no usage: its last chunk's timings count the same tokens.
            prompt = evaluated + (_count(times.get("cache_n")) or 0)
            completion = _count(times.get("predicted_n"))
        return cls(
            prompt_tokens=prompt or 0,
            completion_tokens=completion or 0,
            cached_tokens=cached or 0,
            evaluated_tokens=evaluated,
        )


def _count(value: Any) -> int | None:
    """A token count: a non-negative whole number (llama-server sends -1 for "none")."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if value >= 0 else None
    if isinstance(value, float) and value.is_integer() and value >= 0:
        return int(value)
    return None


__all__ = ["Usage"]
