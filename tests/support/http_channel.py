"""Run the HTTP channel on 127.0.0.1:0 for a test and tell its URL."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio

from agentd.config import HttpChannelSettings
from agentd.engine.runtime import Runtime
from channels.http import HttpChannel


@asynccontextmanager
async def serving(
    runtime: Runtime, settings: HttpChannelSettings | None = None, **kwargs: Any
) -> AsyncIterator[HttpChannel]:
    """The channel serving ``runtime`` on a free loopback port; stopped on exit.

    ``channel.url`` is its base URL and ``channel.port`` the port it bound.
    """
    settings = (settings or HttpChannelSettings()).model_copy(
        update={"host": "127.0.0.1", "port": 0}
    )
    async with HttpChannel(settings, **kwargs) as channel, anyio.create_task_group() as tg:
        await tg.start(channel.serve, runtime)
        try:
            yield channel
        finally:
            tg.cancel_scope.cancel()
