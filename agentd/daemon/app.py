"""The wiring: settings -> prompt -> LLM client -> tools -> agent loop -> runtime."""

from __future__ import annotations

import hashlib
import signal
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio
import httpx
import structlog

from agentd import scope as scopes
from agentd.config import Settings
from agentd.cron.tasks import TaskStore, history_home
from agentd.cron.ticklog import TickLog
from agentd.daemon.lifecycle import ChannelHealth, readiness_probe, supervise_channel
from agentd.daemon.prompt import TenantPrompts, dated_clock
from agentd.daemon.sdnotify import Notifier, pet_watchdog, watchdog_interval
from agentd.daemon.statelock import hold_state, lock_paths
from agentd.daemon.token_file import with_http_token
from agentd.daemon.workdirs import Workdirs
from agentd.engine import calibration
from agentd.engine.budget import budget_for, effective_defaults
from agentd.engine.loop import AgentLoop
from agentd.engine.policy import SessionPolicy
from agentd.engine.quotas import Quotas
from agentd.engine.route import mode_for as route_mode_for
from agentd.engine.runtime import Runtime
from agentd.engine.warmup import Warmup
from agentd.errors import ConfigError
from agentd.memory.factory import open_store_or_warn
from agentd.memory.longterm import MemoryStore
from agentd.memory.pg_history import PgHistory
from agentd.memory.recall import CHAT_MIN_SCORE, memory_recall
from agentd.memory.stores import History, open_history, usage_of
from agentd.memory.usage import known_tenants
from agentd.metrics import Metrics
from agentd.model.client import LLMClient, open_client
from agentd.model.embed_server import open_chat_embedder, open_memory_embedder
from agentd.model.embedding import ServedEmbedder
from agentd.model.pinning import SlotPins
from agentd.model.timed import TimedModel
from agentd.private import private_dir
from agentd.tools.builtin import INSTRUCTION_FILES, register_builtin_tools
from agentd.tools.exec import register_exec_tool
from agentd.tools.memory import register_memory_tools
from agentd.tools.mentions import workdir_listing, workdir_mentions
from agentd.tools.policy import ToolPolicy
from agentd.tools.quota import WorkdirQuota
from agentd.tools.registry import ToolRegistry
from agentd.tools.tasks import register_task_tools
from agentd.tools.web import register_web_tools

if TYPE_CHECKING:
    from agentd.mcp.servers import McpServers
    from agentd.model.sidecar import Sidecar
    from channels.cron import CronChannel
    from channels.http import Readiness
    from channels.http.console import ConsoleParts
    from channels.http.sessions_api import ListTenants

log = structlog.get_logger("agentd.daemon.app")


@dataclass(slots=True)
class App:
    """Everything a channel or the CLI needs, built from one Settings."""

    settings: Settings
    llm: LLMClient
    tools: ToolRegistry
    runtime: Runtime
    metrics: Metrics
    prompts: TenantPrompts
    channel_health: dict[str, ChannelHealth] = field(default_factory=dict)
    history: History | None = None
    memory: MemoryStore | None = None
    sidecar: Sidecar | None = None
    tasks: TaskStore | None = None
    #: The tick log, open while the daemon runs (None with cron off).
    ticklog: TickLog | None = None
    mcp: McpServers | None = None
    #: Warms the model server's prompt cache (``llm.warm_start``); served after READY.
    warmup: Warmup | None = None

    def memory_state(self) -> str:
        """``off`` (memory.embed false), ``degraded`` (unreachable or failing) or ``ok``."""
        if not self.settings.memory.embed:
            return "off"
        if self.memory is None or self.memory.degraded is not None:
            return "degraded"
        return "ok"

    def reload_prompt(self) -> bool:
        """Re-read SYSTEM.md and AGENTS.md (each tenant's own at its next turn); sessions keep
        their history.

        When an operator's file cannot be read, the previous prompts stay and the error is
        logged; returns whether the prompt was reloaded.
        """
        try:
            prompt = self.prompts.reload()
        except ConfigError as exc:
            log.error("prompt.reload_failed", error=str(exc), kept="the previous prompt")
            return False
        self.runtime.reload(prompt)
        log.info("prompt.reloaded", chars=len(prompt))
        if self.warmup is not None:
            self.warmup.trigger()
        return True


def _server_id(settings: Settings) -> str:
    """Which model server a learned token estimate belongs to (a digest: no URL is stored)."""
    sc, llm = settings.llm.sidecar, settings.llm
    what = f"sidecar {sc.model} {sc.model_path}" if sc.enabled else f"{llm.base_url} {llm.model}"
    return hashlib.sha256(what.encode()).hexdigest()[:16]


def recall_floor(settings: Settings, embedder: ServedEmbedder | None) -> float:
    """``memory.recall_min_score``, else the floor of the embedding model memory uses."""
    if settings.memory.recall_min_score is not None:
        return settings.memory.recall_min_score
    return embedder.model.min_score if embedder is not None else CHAT_MIN_SCORE


def same_floor(recall: float, embedder: ServedEmbedder | None) -> float:
    """The plain cosine from which a stored memory may be about a new fact's subject (an
    update's candidate): the embedding model's own, else the ``recall`` floor less 0.05."""
    if embedder is not None and embedder.model.same_score is not None:
        return embedder.model.same_score
    return recall - 0.05


def read_only_files(settings: Settings) -> list[Path]:
    """What the agent's file tools may not write: its instruction files, unless allowed."""
    if settings.default.instructions_writable:
        return []
    prompts = [job.prompt_file for job in settings.cron.jobs if job.prompt_file is not None]
    return [*INSTRUCTION_FILES, *prompts]


@asynccontextmanager
async def open_app(settings: Settings) -> AsyncIterator[App]:
    """Build the runtime and close what it opened on exit."""
    workdirs = Workdirs(settings)
    prompts = TenantPrompts(workdirs, now=dated_clock(settings.default.date_in_prompt))
    metrics = Metrics()
    async with AsyncExitStack() as stack:
        sidecar = None
        if settings.llm.sidecar.enabled:
            from agentd.model.sidecar import open_sidecar, with_sidecar_url

            sidecar = await stack.enter_async_context(
                open_sidecar(settings, on_restart=metrics.sidecar_restart)
            )
            settings = with_sidecar_url(settings, sidecar)
        embedder = await stack.enter_async_context(open_memory_embedder(settings))
        if embedder is None and sidecar is not None and settings.memory.embed:
            settings = await stack.enter_async_context(open_chat_embedder(settings))
        llm = await stack.enter_async_context(open_client(settings))
        pins = None
        if sidecar is not None and settings.llm.sidecar.session_slots > 0:
            pins = SlotPins(settings.llm.sidecar.session_slots)
        slots = None
        if sidecar is not None and sidecar.slot_dir is not None:
            from agentd.model.slots import SlotFiles

            # Saved on the way out: after the runtime drained its turns (entered later, so
            # left first), before the client closes and the server stops.
            http = await stack.enter_async_context(
                httpx.AsyncClient(timeout=30.0, headers=sidecar.headers)
            )
            slots = SlotFiles(http, sidecar.base_url, sidecar.slot_dir, pins)
            stack.push_async_callback(slots.save)
        history = await stack.enter_async_context(open_history(settings))
        memory = await stack.enter_async_context(
            open_store_or_warn(settings, llm.embed_one if settings.memory.embed else None, embedder)
        )
        tools = ToolRegistry(default_timeout=settings.default.tool_timeout)
        quota = WorkdirQuota.of_mb(settings.tools.workdir_quota_mb)
        register_builtin_tools(tools, workdirs, read_only_files(settings), quota)
        if memory is not None:
            floor = recall_floor(settings, embedder)
            choose = llm.choose if settings.memory.curate else None
            register_memory_tools(tools, memory, choose, similar=same_floor(floor, embedder))
        if settings.tools.exec.enabled:
            register_exec_tool(
                tools, settings.tools.exec, workdirs, read_only_files(settings), quota
            )
        if settings.tools.web_fetch.enabled:
            register_web_tools(tools, settings.tools.web_fetch)
        ticklog = tasks = None
        if settings.cron.enabled:
            # Open once for the daemon: agent tasks and the console's schedules read it.
            ticklog = await stack.enter_async_context(TickLog.connect(settings.ticks_target))
            if settings.cron.tasks.enabled:
                tasks = TaskStore(ticklog, history_home(settings))
                register_task_tools(tools, tasks, settings.cron.tasks)
        mcp = None
        if any(server.enabled for server in settings.mcp.servers.values()):
            from agentd.mcp.servers import McpServers

            mcp = await stack.enter_async_context(
                McpServers.open(
                    settings.mcp,
                    tools,
                    settings.state_dir / "mcp",
                    on_reconnect=metrics.mcp_reconnect,
                )
            )
            metrics.watch_mcp(mcp.states)
        sc = settings.llm.sidecar
        server_context = sc.context if sidecar is not None else await llm.context_size()
        defaults = effective_defaults(settings.default, server_context)
        budget = budget_for(defaults, sc.max_answer_tokens if sidecar is not None else None)
        log.info("context.budget", context=budget.context, reserve=budget.reserve)
        learned_at, server_id = settings.state_dir / calibration.FILE, _server_id(settings)
        calibration.restore(budget, learned_at, server_id)
        stack.callback(calibration.save, budget, learned_at, server_id)
        agent_loop = AgentLoop(
            TimedModel(llm, metrics.on_llm),
            tools,
            max_steps=defaults.max_steps,
            max_requests=defaults.max_model_requests,
            guards={**settings.default.guard_switches(), "route": route_mode_for(settings)},
            mentioned=workdir_mentions(workdirs),
            listing=workdir_listing(workdirs),
            on_tool=metrics.on_tool,
            on_guard=metrics.on_guard,
            on_request=metrics.on_request,
            budget=budget,
            recall=(
                memory_recall(memory, settings.memory.recall, recall_floor(settings, embedder))
                if memory is not None and settings.memory.recall
                else None
            ),
        )
        sessions = SessionPolicy(
            max_messages=defaults.max_messages,
            history=history,
            max_sessions=defaults.max_sessions_in_memory,
            shared=history if isinstance(history, PgHistory) else None,
        )
        runtime = await stack.enter_async_context(
            Runtime(
                agent_loop,
                system_prompt=prompts.base,
                prompt_for=prompts,
                defaults=defaults,
                sessions=sessions,
                default_scope=scopes.Scope(tenant=settings.tenant),
                on_turn=metrics.on_turn,
                quotas=Quotas(
                    settings.limits_for,
                    usage_of(history),
                    on_usage=metrics.tenant_usage,
                    on_refused=metrics.quota_refused,
                ),
                drain_timeout=settings.shutdown_timeout,
                tool_policy=ToolPolicy.from_settings(settings),
                pins=pins,
            )
        )
        metrics.watch_runtime(runtime)
        # The owner's turns over HTTP (make run's token is an admin's) offer these tools.
        warmup = Warmup(
            partial(runtime.first_requests, "http", "http_admin"),
            llm.warm,
            enabled=settings.llm.warms,
            restore=slots.restore if slots is not None else None,
            pins=pins,
            spread=slots.copy if slots is not None else None,
        )
        runtime.on_start = warmup.turn_started
        if settings.llm.warms:
            runtime.warm = llm.warm
            runtime.copy_slot = slots.copy if slots is not None else None
        app = App(
            settings=settings,
            llm=llm,
            tools=tools,
            runtime=runtime,
            metrics=metrics,
            prompts=prompts,
            history=history,
            memory=memory,
            sidecar=sidecar,
            tasks=tasks,
            ticklog=ticklog,
            mcp=mcp,
            warmup=warmup,
        )
        metrics.watch_memory(app.memory_state)
        yield app


def build_channels(
    app: App, health: dict[str, ChannelHealth], *, token_file: Path | None = None
) -> list[Any]:
    """The enabled channels, wired to each other for deliveries (``telegram:<chat>``,
    ``matrix:!room:server``, ``email:<address>``).

    ``token_file`` is where the HTTP channel's generated token lives, for the hint it logs.
    """
    from channels.cron import CronChannel

    settings = app.settings
    channels: list[Any] = []
    by_name: dict[str, Any] = {}

    async def deliver(target: str, text: str) -> None:
        name, _, address = target.partition(":")
        channel = by_name.get(name)
        if channel is None or not hasattr(channel, "deliver"):
            raise RuntimeError(f"no enabled channel can deliver to {target!r}")
        from channels.base import Target

        await channel.deliver(Target(name, address), text)

    cron: CronChannel | None = None
    if settings.cron.enabled and (settings.cron.jobs or app.tasks is not None):
        channels.append(
            cron := CronChannel(
                settings.cron.jobs,
                ticks_path=settings.ticks_target,
                workdir=settings.workdir,
                deliver=deliver,
                on_tick=app.metrics.cron_tick,
                tasks=app.tasks,
                can_deliver=lambda name: hasattr(by_name.get(name), "deliver"),
                task_poll=settings.cron.tasks.poll,
            )
        )
    if settings.channels.telegram.enabled:
        from channels.telegram import TelegramChannel

        channels.append(TelegramChannel.from_settings(settings))
    if settings.channels.matrix.enabled:
        from channels.matrix import MatrixChannel

        channels.append(MatrixChannel.from_settings(settings))
    if settings.channels.email.enabled:
        from channels.email import EmailChannel

        channels.append(EmailChannel.from_settings(settings, workdir_of=Workdirs(settings)))
    if settings.channels.http.enabled:
        from channels.http import HttpChannel, Readiness

        readiness = Readiness(
            # A chat channel is ready when it serves and is connected to its service.
            channels=lambda: {name: h.ready for name, h in health.items()},
            llm=app.llm.ping,
            memory=app.memory_state,
            mcp=app.mcp.states if app.mcp is not None else None,
            warm=_warm_state(app.warmup) if app.warmup is not None else None,
        )
        channels.append(
            HttpChannel(
                settings.channels.http,
                metrics=app.metrics,
                readiness=readiness,
                shutdown_timeout=settings.shutdown_timeout,
                token_file=token_file,
                tenants=_tenants(app) if app.history is not None else None,
                console=_console(app, cron, readiness),
                memory=app.memory,
            )
        )
    for channel in channels:
        by_name[channel.name] = channel
        health[channel.name] = ChannelHealth(channel.name, probe=readiness_probe(channel))
    return channels


def _warm_state(warmup: Warmup) -> Callable[[], str]:
    """What ``/readyz`` shows as ``checks.warm``."""
    return lambda: warmup.state


def _tenants(app: App) -> ListTenants:
    """What ``GET /v1/tenants`` lists: the tenants ``agentd tenants list`` shows."""
    from channels.http.sessions_api import TenantInfo

    settings, history = app.settings, app.history
    assert history is not None

    async def tenants() -> list[TenantInfo]:
        configured = [settings.tenant, *settings.tenants]
        names = await known_tenants(usage_of(history), configured)
        return [TenantInfo(name, settings.limits_for(name)) for name in names]

    return tenants


def _console(app: App, cron: CronChannel | None, readiness: Readiness) -> ConsoleParts:
    """What the web console shows: memory, the cron jobs, agent tasks and the tick log, the
    readiness checks and the MCP servers."""
    from channels.http.console import ConfiguredJobs, ConsoleParts, ReadinessHealth
    from channels.http.console.sources import (
        AgentTasks,
        HealthSource,
        McpHealth,
        ScheduleSource,
    )

    settings = app.settings

    async def run_now(name: str) -> str | None:
        assert cron is not None
        return await cron.run_now(app.runtime, name)

    jobs = ConfiguredJobs(
        settings.cron.jobs if cron is not None else [],
        app.ticklog,
        settings.tenant,
        run_now if cron is not None else None,
    )
    health: list[HealthSource] = [
        ReadinessHealth(llm=readiness.llm_ok, memory=readiness.memory, channels=readiness.channels)
    ]
    schedules: list[ScheduleSource] = [jobs]
    if app.tasks is not None:
        schedules.append(AgentTasks(app.tasks))
    if app.mcp is not None:
        health.append(McpHealth(app.mcp.info))
    return ConsoleParts(memory=app.memory, schedules=schedules, health=health)


async def _handle_signals(app: App, notifier: Notifier, scope: anyio.CancelScope) -> None:
    with anyio.open_signal_receiver(signal.SIGTERM, signal.SIGINT, signal.SIGHUP) as signals:
        async for signum in signals:
            if signum == signal.SIGHUP:
                if app.reload_prompt():
                    notifier.notify("STATUS=reloaded SYSTEM.md and AGENTS.md")
                else:
                    notifier.notify("STATUS=reload failed; kept the previous prompt (see the log)")
                continue
            name = signal.Signals(signum).name
            log.info("daemon.stopping", signal=name, in_flight=app.runtime.in_flight)
            notifier.notify("STOPPING=1", f"STATUS=stopping ({name}): draining turns")
            app.runtime.accepting = False
            with anyio.move_on_after(app.settings.shutdown_timeout) as drain:
                await app.runtime.wait_idle()
            if drain.cancelled_caught:
                log.warning("daemon.drain_timeout", in_flight=app.runtime.in_flight)
            scope.cancel()
            return


async def run_daemon(settings: Settings) -> int:
    """``agentd run``: the daemon's whole life inside one root task group."""
    notifier = Notifier.from_env()
    started = anyio.current_time()
    for folder in (settings.workdir, settings.state_dir):
        try:
            private_dir(folder)
        except OSError as exc:
            log.warning("daemon.folder_unavailable", path=str(folder), error=exc.strerror)
    # Before anything slow starts: a refused token file is a config error (exit 78).
    settings, token_file = with_http_token(settings)
    try:
        async with (
            hold_state(
                lock_paths(
                    settings.state_dir,
                    settings.history_path,
                    shared=settings.history_url is not None,
                ),
                database=settings.history_path if settings.history_url is None else None,
            ),
            open_app(settings) as app,
            anyio.create_task_group() as tg,
        ):
            tg.start_soon(_handle_signals, app, notifier, tg.cancel_scope)
            channels = build_channels(app, app.channel_health, token_file=token_file)
            if not channels:
                log.warning("daemon.no_channels", hint="enable channels or add cron.jobs")
            for channel in channels:
                await tg.start(
                    partial(
                        supervise_channel, channel, app.runtime, app.channel_health[channel.name]
                    )
                )
            interval = watchdog_interval()
            if interval is not None and notifier.enabled:
                tg.start_soon(pet_watchdog, notifier, interval)
            names = ", ".join(c.name for c in channels) or "none"
            notifier.notify("READY=1", f"STATUS=serving; channels: {names}")
            if app.warmup is not None:
                tg.start_soon(app.warmup.serve)
            log.info(
                "daemon.ready",
                channels=names,
                seconds=round(anyio.current_time() - started, 3),
            )
    finally:
        notifier.close()
    log.info("daemon.stopped")
    return 0
