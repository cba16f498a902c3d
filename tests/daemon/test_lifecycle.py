"""Channel supervision: restart with backoff, readiness not held back, no daemon crash."""

from __future__ import annotations

from types import TracebackType
from typing import Any, Self

import anyio
import pytest
from anyio.abc import TaskStatus

from agentd.daemon.lifecycle import ChannelHealth, supervise_channel

pytestmark = pytest.mark.anyio


class Flaky:
    name = "flaky"

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.serves = 0
        self.entered = 0
        self.exited = 0

    async def __aenter__(self) -> Self:
        self.entered += 1
        return self

    async def __aexit__(
        self, *exc: type[BaseException] | BaseException | TracebackType | None
    ) -> None:
        self.exited += 1

    async def serve(self, runtime: Any, *, task_status: TaskStatus[None]) -> None:
        self.serves += 1
        task_status.started()
        if self.serves <= self.failures:
            raise RuntimeError(f"boom {self.serves}")
        await anyio.sleep_forever()


async def test_a_crashing_channel_is_restarted() -> None:
    """A channel that fails twice is re-entered and served a third time; restarts counted."""
    channel = Flaky(failures=2)
    health = ChannelHealth("flaky")
    restarts: list[str] = []
    async with anyio.create_task_group() as tg:
        await tg.start(
            lambda task_status: supervise_channel(
                channel,
                None,
                health,
                on_restart=restarts.append,
                base_backoff=0.01,
                task_status=task_status,
            )
        )
        with anyio.fail_after(5):
            while channel.serves < 3:  # noqa: ASYNC110 - polling a plain counter
                await anyio.sleep(0.01)
        await anyio.sleep(0.05)
        assert health.state == "serving"
        tg.cancel_scope.cancel()
    assert health.restarts == 2 and restarts == ["flaky", "flaky"]
    assert health.last_error == "RuntimeError: boom 2"
    assert channel.entered == channel.exited == 3


async def test_a_channel_that_never_starts_does_not_block_readiness() -> None:
    """If the first attempt fails before started(), readiness is still reported."""

    class Broken(Flaky):
        async def serve(self, runtime: Any, *, task_status: TaskStatus[None]) -> None:
            raise OSError("port in use")

    health = ChannelHealth("broken")
    async with anyio.create_task_group() as tg:
        with anyio.fail_after(5):
            await tg.start(
                lambda task_status: supervise_channel(
                    Broken(0), None, health, base_backoff=10, task_status=task_status
                )
            )
        assert health.state == "restarting"
        assert health.last_error == "OSError: port in use"
        tg.cancel_scope.cancel()
