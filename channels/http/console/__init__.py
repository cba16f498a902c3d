"""The web console: chat, sessions, schedules, memory and health in the browser.

Served by the HTTP channel at ``/`` beside the API (:mod:`channels.http.console.pages`), signed
in with a token kept server-side behind an HttpOnly cookie (:mod:`channels.http.console.auth`).
What the daemon hands it is a :class:`ConsoleParts`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from agentd.memory.longterm import MemoryStore
from channels.http.console.samples import MinuteSamples
from channels.http.console.sources import (
    Component,
    ConfiguredJobs,
    HealthSource,
    ReadinessHealth,
    Scheduled,
    ScheduleSource,
)

__all__ = [
    "Component",
    "ConfiguredJobs",
    "ConsoleParts",
    "HealthSource",
    "MinuteSamples",
    "ReadinessHealth",
    "ScheduleSource",
    "Scheduled",
]


@dataclass(slots=True)
class ConsoleParts:
    """What the console shows beyond the runtime: memory, scheduled work, health."""

    memory: MemoryStore | None = None
    schedules: Sequence[ScheduleSource] = ()
    health: Sequence[HealthSource] = field(default_factory=list)
