"""Keeping channels alive: start, report readiness, restart with backoff, never crash the daemon."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

import anyio
import structlog
from anyio.abc import TaskStatus

from agentd.backoff import Backoff

if TYPE_CHECKING:
    from agentd.engine.runtime import Runtime

log = structlog.get_logger("agentd.daemon.lifecycle")

State = Literal["starting", "serving", "restarting", "stopped"]
MAX_BACKOFF = 60.0
STABLE_AFTER = 60.0


@dataclass(slots=True)
class ChannelHealth:
    """What readiness checks and metrics read about one channel.

    ``probe`` is the channel's own word on whether it can do its work (a chat channel's
    ``ready``: logged in to its service and polling); without one, serving is ready.
    """

    name: str
    state: State = "starting"
    restarts: int = 0
    last_error: str | None = None
    probe: Callable[[], bool] | None = None

    @property
    def ready(self) -> bool:
        """Serving, and (for a channel with a probe) connected to its service."""
        return self.state == "serving" and (self.probe is None or self.probe())


def readiness_probe(channel: Any) -> Callable[[], bool] | None:
    """``channel``'s own readiness (its ``ready`` property), or None when it has none."""
    if not hasattr(type(channel), "ready"):
        return None
    return lambda: bool(channel.ready)


async def supervise_channel(
    channel: Any,
    runtime: Runtime,
    health: ChannelHealth,
    *,
    on_restart: Callable[[str], None] | None = None,
    base_backoff: float = 1.0,
    task_status: TaskStatus[None] = anyio.TASK_STATUS_IGNORED,
) -> None:
    """Run ``channel`` until cancelled, restarting it with exponential backoff when it fails.

    ``task_status`` is reported once: when the channel first serves, or when its first attempt
    fails (so one broken channel cannot hold back the daemon's readiness).
    """
    reported = False
    backoff = Backoff(base_backoff, MAX_BACKOFF, reset_after=STABLE_AFTER)
    while True:
        began = anyio.current_time()
        try:
            async with channel, anyio.create_task_group() as tg:
                await tg.start(channel.serve, runtime)
                health.state = "serving"
                log.info("channel.serving", channel=health.name)
                if not reported:
                    task_status.started()
                    reported = True
            health.state = "stopped"
            log.info("channel.stopped", channel=health.name)
            return
        except Exception as exc:
            error = _describe(exc)
            health.last_error = error
            health.state = "restarting"
            delay = backoff.next_delay(ran_for=anyio.current_time() - began)
            health.restarts += 1
            if on_restart is not None:
                on_restart(health.name)
            log.error("channel.failed", channel=health.name, error=error, retry_in=round(delay, 2))
            if not reported:
                task_status.started()
                reported = True
            await anyio.sleep(delay)


def _describe(exc: BaseException) -> str:
    while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
        exc = exc.exceptions[0]
    return f"{type(exc).__name__}: {exc}"
