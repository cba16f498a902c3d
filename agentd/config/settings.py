"""The settings model: every key agentd reads, its default, its bounds and its env names.

Validation is pure: a cron job's schedule is checked by :mod:`agentd.cron.schedule`, which
imports nothing of agentd but this package's models' shape (config never imports a feature).
"""

from __future__ import annotations

import hashlib
import ipaddress
import re
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

import pydantic
from pydantic import BaseModel, ConfigDict, Field, SecretStr
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)

from agentd.config.email import EmailSettings
from agentd.config.matrix import MatrixSettings
from agentd.config.mcp import McpSettings
from agentd.config.senders import TENANT_NAME, one_tenant_each
from agentd.config.tools import ToolRule, ToolsSettings

ENV_PREFIX = "AGENTD_"
EX_CONFIG = 78

#: The seed's flat environment names and the nested key each one sets. They win over the nested
#: ``AGENTD_...`` form.
FLAT_ENV: dict[str, tuple[str, ...]] = {
    "AGENT_MAX_MESSAGES": ("default", "max_messages"),
    "AGENT_MAX_TOKENS": ("default", "max_tokens"),
    "AGENT_MAX_STEPS": ("default", "max_steps"),
    "COMPACTION_STRATEGY": ("default", "compaction_strategy"),
    "COMPACTION_THRESHOLD": ("default", "compaction_threshold"),
    "AGENT_WORKDIR": ("workdir",),
    "LLAMA_URL": ("llm", "base_url"),
    "LLM_MODEL": ("llm", "model"),
    "LLM_API_KEY": ("llm", "api_key"),
    "MEMORY_EMBED": ("memory", "embed"),
    "MEMORY_DB": ("cron", "tick_log"),
    "HISTORY_DB": ("history", "path"),
    "MILVUS_ADDR": ("milvus", "addr"),
    "MILVUS_TOKEN": ("milvus", "token"),
    "MILVUS_DB_NAME": ("milvus", "db_name"),
    "MILVUS_COLLECTION": ("milvus", "collection"),
    "TELEGRAM_BOT_TOKEN": ("channels", "telegram", "token"),
}


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_default=True)


class TenantLimits(_Section):
    """How much one tenant may use; 0 = unlimited."""

    turns_per_minute: int = Field(
        0, ge=0, description="Turns a tenant may start in any 60 seconds; 0 = unlimited."
    )
    tokens_per_day: int = Field(
        0,
        ge=0,
        description="Model tokens (prompt + completion, as the model server reports them) a "
        "tenant may use per UTC day; a turn is refused once the day's count has reached it (a "
        "turn already running may go past it); 0 = unlimited.",
    )


class TenantLimitOverrides(_Section):
    """A tenant's own limits; a key left unset (null) takes ``default.tenant_limits``'s."""

    turns_per_minute: int | None = Field(
        None, ge=0, description="Turns per 60 seconds; 0 = unlimited, null = the default's."
    )
    tokens_per_day: int | None = Field(
        None, ge=0, description="Model tokens per UTC day; 0 = unlimited, null = the default's."
    )


#: A turn rule's setting (``default.guards.<name>``).
Switch = Literal["auto", "on", "off"]
_GUARD = "auto: runs for the models it serves; on: always; off: never."


class GuardSettings(_Section):
    """The turn's named rules (DESIGN.md section 16). ``auto`` runs a structural rule for
    every model and a rule made for small models only when a local llama-server holds the
    model to a grammar (the packaged models)."""

    client_tools: Switch = Field(
        "auto",
        description="A caller that sends its own tools is offered only those (it leads the "
        f"tool loop). Serves any model. {_GUARD}",
    )
    intent: Switch = Field(
        "auto",
        description="Before the first step, the model says (under a grammar) whether the request "
        "asks for an action: by the plan question when the plan rule runs, else in one word; "
        "a question's turn is offered only the tools that look, a request for words none. "
        f"Serves small local models. {_GUARD}",
    )
    read_first: Switch = Field(
        "auto",
        description="A request that names files of the workdir has them read first; then the "
        "change is routed (an action) or the answer follows (a question). Serves small local "
        f"models. {_GUARD}",
    )
    plan: Switch = Field(
        "auto",
        description="Asked by the intent rule (it runs only with it): the model names the tools "
        "the request needs in order (under a grammar), each step is held to the next one, and "
        "when the plan is done the turn answers in words; a planned command runs only when the "
        "intent question also finds an action, or a look-up (then with the workdir read-only). "
        f"Serves small local models. {_GUARD}",
    )
    shown: Switch = Field(
        "auto",
        description="Asked by the intent rule with the plan rule (it runs only with both): when "
        "a planned command is about to run, the model says (yes/no, under a grammar) whether the "
        "request wants only the command written out, not run; yes leaves the turn to words. "
        f"Serves small local models. {_GUARD}",
    )
    route: Switch = Field(
        "auto",
        description="Before the first step, the model names the tool it calls or 'answer' "
        "(one word, under a grammar) and the step is held to it; auto leaves out the packaged "
        f"qwen2.5-coder-0.5b (measured to route badly). Serves small local models. {_GUARD}",
    )
    write_paths: Switch = Field(
        "auto",
        description="A routed write is held to a path the request names. Serves small local "
        f"models. {_GUARD}",
    )
    edit_lines: Switch = Field(
        "auto",
        description="edit_file's text to replace is held to one line under the grammar, "
        f"until an edit of the turn fails. Serves small local models. {_GUARD}",
    )
    delays: Switch = Field(
        "auto",
        description="schedule_task's delay (in) is held under the grammar to seconds, minutes, "
        f"hours with minutes or days (10s, 45m, 2h30m, 3d). Serves small local models. {_GUARD}",
    )
    check_calls: Switch = Field(
        "auto",
        description="Before a turn's first unrouted calls run, the model says (yes/no) whether "
        f"they are needed; if not, it answers in words. Serves small local models. {_GUARD}",
    )
    empty: Switch = Field(
        "auto",
        description="An empty answer is asked for once more in words, then made from the tool "
        f"results. Serves any model. {_GUARD}",
    )
    calls_in_answer: Switch = Field(
        "auto",
        description="An answer that writes out tool calls after tools ran is asked for once "
        f"more in words, then the calls are cut out. Serves any model. {_GUARD}",
    )
    answered_earlier: Switch = Field(
        "auto",
        description="An answer to an earlier question of the session is asked for once more "
        f"with the turn alone in view. Serves small local models. {_GUARD}",
    )
    claims: Switch = Field(
        "auto",
        description="An answer to a request to change a file, a memory or a task that no tool "
        "carried out gets one step more, routed among that kind's tools (the model may still "
        f"answer). Serves small local models. {_GUARD}",
    )
    echo: Switch = Field(
        "auto",
        description="An answer after tools that only repeats the request (no word of its own, "
        "nearly all of the request's) is asked for once more in words, then replaced by the "
        f"tool results. Serves small local models. {_GUARD}",
    )
    answer_language: Switch = Field(
        "auto",
        description="An answer CLD2 finds in English (or the system prompt's language) while "
        "the request is in another is shown to the model once to be written in the request's "
        "language, unless the model says (under a grammar) the request wants a whole text in "
        "the answer's (a translation); a streamed answer is held until its language is told. "
        f"Serves small local models. {_GUARD}",
    )
    overwrite: Switch = Field(
        "auto",
        description="After write_file held back a write that would drop most of a file, the "
        "model says (keep/replace, under a grammar) whether the user asked to replace it; keep "
        f"routes the next step to the tools that add or change a piece. Serves small local "
        f"models. {_GUARD}",
    )
    repeats: Switch = Field(
        "auto",
        description="A step whose calls were all made before (or failed as before) is followed "
        f"by an answer in words. Serves any model. {_GUARD}",
    )
    reroute: Switch = Field(
        "auto",
        description="After a step whose calls all failed, the next step is routed (once a "
        f"turn). Serves small local models. {_GUARD}",
    )


class AgentDefaults(_Section):
    """How each agent turn and conversation is bounded."""

    max_messages: int = Field(0, ge=0, description="Sliding window per session; 0 = unlimited.")
    max_tokens: int = Field(
        4096,
        gt=0,
        description="Context budget of the model, in tokens; unset, it follows the model "
        "server's context (the sidecar's, or llama-server's /props).",
    )
    answer_tokens: int = Field(
        1024, ge=16, description="Tokens kept free for the answer in each model call."
    )
    compaction_strategy: Literal["truncate", "summarize"] = Field(
        "truncate", description="What runs after each successful turn."
    )
    compaction_threshold: int = Field(
        0, description="Token estimate that triggers summarize; <= 0 means 0.75 * max_tokens."
    )
    max_steps: int = Field(
        8, ge=1, description="Tool steps per turn (the tool-loop bound); the last answers in words."
    )
    max_model_requests: int = Field(
        16,
        ge=1,
        description="Model requests per turn, of every kind: steps, routing and yes/no "
        "questions, answers asked for again, retries after 'context exceeded'. When they run "
        "out the turn says so plainly.",
    )
    guards: GuardSettings = Field(
        GuardSettings(),
        description="The turn's named rules (auto: by the models each serves; on; off).",
    )
    check_calls: bool | None = Field(
        None, description="Deprecated: default.guards.check_calls (false turns it off)."
    )
    check_claims: bool | None = Field(
        None, description="Deprecated: default.guards.claims (false turns it off)."
    )
    route_tools: Literal["auto", "on", "off"] | None = Field(
        None, description="Deprecated: default.guards.route."
    )
    read_first: bool | None = Field(
        None, description="Deprecated: default.guards.read_first (false turns it off)."
    )
    date_in_prompt: bool = Field(
        True,
        description="Start the system prompt with today's date and weekday (the prompt then "
        "changes once a day).",
    )
    max_concurrent_turns: int = Field(16, ge=1, description="Turns running at once, all sessions.")
    max_sessions_in_memory: int = Field(
        1000, ge=1, description="Idle sessions kept in memory; older ones are evicted (LRU)."
    )
    tool_timeout: float = Field(30.0, gt=0, description="Seconds one tool call may take.")
    instructions_writable: bool = Field(
        False,
        description="Let the agent's write_file and append_file change its own instruction "
        "files in the workdir (AGENTS.md, HEARTBEAT.md, cron prompt files); read-only if false.",
    )
    tenant_limits: TenantLimits = Field(
        TenantLimits(),
        description="Quotas of every tenant, unless tenants.<name>.limits says otherwise "
        "(unlimited by default).",
    )

    def guard_switches(self) -> dict[str, Switch]:
        """``guards`` by rule name, with the deprecated keys applied when they are set."""
        switches: dict[str, Switch] = dict(self.guards.model_dump())
        old: dict[str, bool | None] = {
            "check_calls": self.check_calls,
            "claims": self.check_claims,
            "read_first": self.read_first,
        }
        for name, value in old.items():
            if value is False:
                switches[name] = "off"
        if self.route_tools is not None:
            switches["route"] = self.route_tools
        return switches

    @property
    def effective_threshold(self) -> int:
        """The summarize threshold in tokens (``0.75 * max_tokens`` when unset or <= 0)."""
        if self.compaction_threshold <= 0:
            return int(0.75 * self.max_tokens)
        return self.compaction_threshold


class SidecarSettings(_Section):
    """A local llama-server that agentd starts and supervises."""

    enabled: bool = False
    model: str = Field("qwen2.5-coder-1.5b", description="Name of a packaged model.")
    model_path: Path | None = Field(None, description="A GGUF file to serve instead.")
    binary: Path | None = Field(None, description="llama-server binary; default: the package's.")
    context: int = Field(8192, ge=256, description="Context window of the served model (tokens).")
    threads: int = Field(2, ge=1)
    parallel: int = Field(
        0,
        ge=0,
        description="Server slots when session_slots is 0 (0: llama-server's choice, 4). The "
        "slots share one KV cache of `context` cells, so a larger context keeps more sessions' "
        "prompts cached.",
    )
    session_slots: int = Field(
        2,
        ge=0,
        le=64,
        description="Sessions that keep a server slot (and its prompt cache) of their own; the "
        "server runs two more slots (summaries; embeddings and stateless requests) and a KV "
        "cache of (session_slots + 1) x context cells (~28 KB a cell for the 1.5B model). "
        "0: no pinning, `parallel` slots share `context` cells.",
    )
    draft_model: str | None = Field(
        None,
        description="A packaged model as llama-server's draft for speculative decoding "
        "(--model-draft), e.g. qwen2.5-coder-0.5b for the 1.5B: they share a tokenizer. Off by "
        "default: on 2 CPU cores it made a session 3.1x slower (bench.draft).",
    )
    draft_max: int = Field(
        16, ge=1, le=64, description="Most tokens drafted at a time (--spec-draft-n-max)."
    )
    draft_min: int = Field(
        0, ge=0, le=64, description="Fewest drafted tokens worth checking (--spec-draft-n-min)."
    )
    port: int = Field(0, ge=0, le=65535, description="0 = a free loopback port.")
    extra_args: list[str] = Field(
        [],
        description="More llama-server arguments, appended as given: an option and its value are "
        'two items (["--flash-attn", "on"]); an option that takes a value given alone takes '
        "the next item as its value, or stops llama-server with a usage error.",
    )

    @pydantic.model_validator(mode="after")
    def _draft_sizes(self) -> SidecarSettings:
        if self.draft_min > self.draft_max:
            raise ValueError("draft_min must not exceed draft_max")
        return self

    start_timeout: float = Field(120.0, gt=0, description="Seconds to wait for /health.")
    max_answer_tokens: int = Field(
        1024, ge=-1, description="Cap of one answer (llama-server -n); -1 = until the context."
    )
    temperature: float | None = Field(
        0.0,
        ge=0,
        le=2,
        description="The server's sampling temperature for requests that name none (--temp; "
        "llm.temperature names one for every request). 0: the model's likeliest tokens, the "
        "same answer to the same prompt. None: llama-server's own (0.8).",
    )
    keep_slots: bool = Field(
        True,
        description="Save the server's slots (the sessions' prompt caches, up to ~30 MB per "
        "1,000 tokens) to state_dir/slots when the daemon stops, and restore them at start. "
        "A summary's session gets its new prompt the same way: read on another slot, then "
        "copied into the session's as the summary lands.",
    )
    cache_reuse: int = Field(
        256,
        ge=0,
        description="Reuse runs of at least this many cached tokens that moved in the prompt "
        "(--cache-reuse: shifted in the KV cache, not read again), as when the context budget "
        "drops old messages; 0 = off.",
    )


class LLMSettings(_Section):
    """The OpenAI-compatible model server."""

    base_url: str = Field("http://127.0.0.1:8080", description="Server root or its /v1 URL.")
    model: str = "local"
    api_key: SecretStr | None = Field(
        None,
        description="Bearer key for the model server. With llm.sidecar on, the key the "
        "servers agentd starts require (a new random one each start when unset).",
    )
    timeout: float = Field(300.0, gt=0, description="Seconds for one model call.")
    connect_timeout: float = Field(5.0, gt=0)
    max_retries: int = Field(3, ge=0)
    temperature: float | None = Field(None, ge=0, le=2)
    seed: int | None = None
    tool_grammar: Literal["auto", "on", "off"] = Field(
        "auto",
        description="Constrain tool-offering steps with a grammar (answer, or valid calls): "
        "auto = when the server is llama.cpp (it answers /props).",
    )
    embed_url: str | None = Field(None, description="Separate embeddings server, if any.")
    embed_model: str | None = None
    warm_start: Literal["auto", "on", "off"] = Field(
        "auto",
        description="After start and SIGHUP, have the model server read the system prompt and "
        "tool schemas once, so the first turn finds them cached: auto = with the sidecar.",
    )
    sidecar: SidecarSettings = SidecarSettings()

    @property
    def warms(self) -> bool:
        """Whether the daemon warms the model server's prompt cache (``warm_start``)."""
        return self.warm_start == "on" or (self.warm_start == "auto" and self.sidecar.enabled)

    @pydantic.field_validator("base_url", "embed_url")
    @classmethod
    def _http_url(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith(("http://", "https://")):
            raise ValueError("must be an http:// or https:// URL")
        return value


class MemorySettings(_Section):
    """Long-term memory switch (and, from the seed, the tick log's file under another name)."""

    embed: bool = Field(True, description="Use embeddings and long-term memory.")
    embedder: str = Field(
        "multilingual-e5-small",
        description="Packaged embedding model of memory, served by its own sidecar once "
        "fetched (`agentd model fetch --embedder NAME`): multilingual-e5-small or "
        "nomic-embed-text-v1.5; `chat` = the chat model's embeddings (also the fallback, with "
        "a warning, while the model is not fetched).",
    )
    embedder_threads: int = Field(
        2,
        ge=1,
        le=64,
        description="Threads of the embedding server (a query's embedding is most of a memory "
        "search: 14 ms with two threads, 25 ms with one, on two cores; it runs between the chat "
        "model's calls).",
    )
    full_text: bool = Field(
        True,
        description="Search memories by their words too (SQLite FTS5 trigram index in the "
        "state dir), fused with the vector search by reciprocal rank.",
    )
    curate: bool = Field(
        True,
        description="Keep memories current: before a save, the model is shown the most "
        "similar memories and decides (under a grammar) to add, update one or do nothing; "
        "offers memory_forget.",
    )
    recall: int = Field(
        3,
        ge=0,
        le=20,
        description="Memories shown with each user message (among its 20 best matches: those "
        "scoring recall_min_score or holding half of its trigrams); 0 = off, the model "
        "searches with memory_search alone.",
    )
    recall_min_score: float | None = Field(
        None,
        ge=-1,
        le=1,
        description="Cosine similarity a memory needs to be recalled; unset = the embedding "
        "model's own floor, measured on bench/memory_quality.py (0.8 for the chat model).",
    )
    path: Path | None = Field(
        None, description="The seed's name for cron.tick_log; used when that is not set."
    )
    backend: str | None = Field(None, description="Accepted for compatibility; never read.")


def _postgres_url(value: SecretStr | None) -> SecretStr | None:
    if value is not None and urlsplit(value.get_secret_value()).scheme not in (
        "postgresql",
        "postgres",
    ):
        raise ValueError("must be a postgresql://user:password@host:port/database URL")
    return value


class HistorySettings(_Section):
    """The durable conversation store."""

    path: Path | None = Field(None, description="SQLite file; default: state_dir/history.db.")
    url: SecretStr | None = Field(
        None,
        description="postgresql://user:password@host/db: history and usage on PostgreSQL, "
        "shared by replicas (then path is not used); the tick log follows unless "
        "cron.tick_log_url is set.",
    )
    synchronous: Literal["NORMAL", "FULL"] = Field(
        "NORMAL", description="NORMAL survives a process crash; FULL also a power loss."
    )

    @pydantic.field_validator("url")
    @classmethod
    def _url(cls, value: SecretStr | None) -> SecretStr | None:
        return _postgres_url(value)


class MilvusSettings(_Section):
    """Long-term memory store: a Milvus Lite path or a Milvus server URI."""

    addr: str | None = Field(None, description="Milvus Lite path (*.db) or http://host:19530.")
    token: SecretStr | None = None
    db_name: str = ""
    collection: str = "memories"
    timeout: float = Field(10.0, gt=0, description="Seconds one Milvus call may take.")


class CronJob(_Section):
    """One heartbeat job."""

    name: str = Field(min_length=1)
    schedule: str = Field(min_length=1, description="Cron expression or interval ('30s', '5m').")
    prompt: str | None = None
    prompt_file: Path | None = None
    session: str | None = None
    deliver_to: str | None = None
    catch_up: Literal["coalesce", "skip"] = "coalesce"
    active_hours: str | None = Field(None, description="'HH:MM-HH:MM' in the job's timezone.")
    timezone: str | None = Field(None, description="IANA zone; default: the system's.")
    session_mode: Literal["fresh", "window"] = Field(
        "fresh", description="fresh: a new session per tick; window: one session, last N kept."
    )
    window: int = Field(10, ge=1, description="Messages kept between ticks in window mode.")

    @pydantic.model_validator(mode="after")
    def _check(self) -> CronJob:
        from agentd.cron.schedule import validate_job

        validate_job(self)
        return self


class TaskSettings(_Section):
    """Tasks the agent schedules itself (schedule_task, list_tasks, cancel_task)."""

    enabled: bool = Field(True, description="Offer the task tools and run the tasks.")
    min_interval: float = Field(
        60.0, ge=1, description="Seconds: the shortest interval a recurring task may repeat at."
    )
    max_per_tenant: int = Field(
        20, ge=0, description="Active tasks one tenant may have at once; 0 = unlimited."
    )
    poll: float = Field(
        1.0, gt=0, le=60, description="Seconds between looks for tasks added by the CLI or "
        "another daemon sharing the tick log.",
    )  # fmt: skip


class CronSettings(_Section):
    enabled: bool = True
    tick_log: Path | None = Field(
        None, description="SQLite file of the heartbeat tick log; default: state_dir/memory.db."
    )
    tick_log_url: SecretStr | None = Field(
        None, description="postgresql://... for the tick log and tasks; default: history.url."
    )
    jobs: list[CronJob] = []
    tasks: TaskSettings = TaskSettings()

    @pydantic.field_validator("tick_log_url")
    @classmethod
    def _url(cls, value: SecretStr | None) -> SecretStr | None:
        return _postgres_url(value)


class ChannelSettings(_Section):
    enabled: bool = False


class RateLimitSettings(_Section):
    """A token bucket per principal (applies when tokens are set)."""

    requests_per_minute: float = Field(120.0, ge=0, description="Refill rate; 0 = no limit.")
    burst: int = Field(20, ge=1, description="Requests allowed at once before the rate applies.")


#: A principal's name: a label in logs and the key of its rate limit. No ``:``, so it never
#: collides with the ``token:N`` names of ``channels.http.tokens``.
PRINCIPAL_NAME = r"^[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}$"
#: A token given as its SHA-256 (``sha256:`` and 64 hex digits): the file then holds no secret.
TOKEN_DIGEST = re.compile(r"sha256:([0-9a-fA-F]{64})")


class PrincipalSettings(_Section):
    """Who may call the HTTP API with one token: a name, the tenant it acts in, its rights."""

    name: str = Field(
        pattern=PRINCIPAL_NAME, description="Unique name, shown in logs (never the token)."
    )
    tenant: str = Field(description="The tenant whose sessions and memory it uses.")
    token: SecretStr = Field(
        description="Its bearer token: 'sha256:' and the token's SHA-256 in hex (e.g. from "
        "`printf %s TOKEN | sha256sum`), or the token itself (hashed when loaded)."
    )
    admin: bool = Field(False, description="May read /metrics.")
    rate_limit: RateLimitSettings | None = Field(
        None, description="Its own rate limit instead of channels.http.rate_limit."
    )

    @pydantic.field_validator("tenant")
    @classmethod
    def _tenant_name(cls, value: str) -> str:
        if not re.match(TENANT_NAME, value):
            raise ValueError(
                f"tenant name {value!r}: 1-64 letters, digits and _ . : @ -, "
                "starting with a letter or digit"
            )
        return value

    @pydantic.field_validator("token")
    @classmethod
    def _token_form(cls, value: SecretStr) -> SecretStr:
        raw = value.get_secret_value()
        if raw.startswith("sha256:") and not TOKEN_DIGEST.fullmatch(raw):
            raise ValueError("a 'sha256:' token must be followed by exactly 64 hex digits")
        if not raw.strip() or raw != raw.strip():
            raise ValueError("empty, or starts or ends with white space")
        return value

    @property
    def digest(self) -> bytes:
        """The SHA-256 of the token: what requests are compared against."""
        raw = self.token.get_secret_value()
        found = TOKEN_DIGEST.fullmatch(raw)
        if found is not None:
            return bytes.fromhex(found.group(1))
        return hashlib.sha256(raw.encode()).digest()


class AuthFailureSettings(_Section):
    """A token bucket of failed authentications per source (applies when tokens are set).

    Only failures spend it; a source that has spent it gets 429 for a wrong token until it
    refills, while a right token is always served. All loopback addresses are one source, an
    IPv6 address counts by its /64, and behind a listed proxy (trusted_proxies) the source is
    the address X-Forwarded-For names.
    """

    per_minute: float = Field(6.0, gt=0, description="Failed attempts refilled per minute.")
    burst: int = Field(10, ge=1, description="Failed attempts allowed before 429.")


class HttpChannelSettings(_Section):
    """The OpenAI-compatible HTTP API, health, readiness and metrics."""

    enabled: bool = False
    host: str = Field("127.0.0.1", min_length=1, description="Address to bind.")
    port: int = Field(8321, ge=0, le=65535, description="0 = a free port.")
    tokens: list[SecretStr] = Field(
        [],
        description="Bearer tokens; required off loopback. None set: the daemon generates one "
        "into state_dir/http.token (mode 0600) and requires it.",
    )
    no_token_on_loopback: bool = Field(
        False,
        description="Serve without any token (loopback hosts only): every local user and "
        "process, and a browser tricked into it, may then drive the agent.",
    )
    model_name: str = Field("agentd", min_length=1, description="Model id in /v1/models.")
    max_body_bytes: int = Field(1_048_576, ge=1024, description="Larger request bodies get 413.")
    max_message_chars: int = Field(
        100_000, ge=1, description="Longest message content accepted (400 beyond)."
    )
    body_timeout: float = Field(30.0, gt=0, description="Seconds a client may take to send a body.")
    send_timeout: float = Field(
        60.0, gt=0, description="Seconds a streaming client may stall before it is dropped."
    )
    max_connections: int = Field(
        1024, ge=1, description="Open connections; beyond, the longest idle one is closed."
    )
    max_in_flight: int = Field(256, ge=1, description="Requests handled at once; 503 beyond.")
    header_timeout: float = Field(
        10.0, gt=0, description="Seconds a connection may take to send a request's headers."
    )
    keep_alive_timeout: int = Field(
        15, ge=1, description="Seconds an idle connection is kept open between requests."
    )
    max_request_chars: int = Field(
        200_000, ge=1, description="Most characters of content in all messages of a request."
    )
    max_messages: int = Field(1000, ge=1, description="Most messages in one request.")
    allowed_hosts: list[str] = Field(
        [],
        description="Host header names accepted besides loopback, the bind address and the "
        "address a request arrived on (a reverse proxy's or LAN name); 421 for others.",
    )
    allowed_origins: list[str] = Field(
        [],
        description="Browser origins (scheme://host[:port]) allowed to call the API with CORS; "
        "other Origin headers get 403.",
    )
    trusted_proxies: list[str] = Field(
        [],
        description="Addresses or networks (CIDR) of reverse proxies in front of the API: only "
        "from these is X-Forwarded-For read, to find the source the failed-authentication "
        "limit counts. Empty: the header is ignored.",
    )
    principals: list[PrincipalSettings] = Field(
        [],
        description="Tokens with a name and a tenant; channels.http.tokens (and the generated "
        "token) stay admins of the install's tenant.",
    )
    rate_limit: RateLimitSettings = RateLimitSettings()
    auth_failures: AuthFailureSettings = AuthFailureSettings()
    console: bool = Field(
        True,
        description="Serve the web console at / (sign-in with a token, kept server-side behind "
        "an HttpOnly cookie; /v1 stays bearer-only).",
    )

    @pydantic.field_validator("principals")
    @classmethod
    def _unique_principals(cls, value: list[PrincipalSettings]) -> list[PrincipalSettings]:
        names: dict[str, int] = {}
        digests: dict[bytes, int] = {}
        for index, principal in enumerate(value):
            if principal.name in names:
                raise ValueError(
                    f"principal name {principal.name!r} is used by entries {names[principal.name]} "
                    f"and {index}: names must be unique"
                )
            if principal.digest in digests:
                raise ValueError(
                    f"entries {digests[principal.digest]} and {index} have the same token: "
                    "give each principal its own"
                )
            names[principal.name] = index
            digests[principal.digest] = index
        return value

    @pydantic.model_validator(mode="after")
    def _tokens_not_principals(self) -> HttpChannelSettings:
        # One token, two identities (an admin of the install's tenant and a principal): refuse
        # rather than pick one.
        digests = {p.digest: p.name for p in self.principals}
        for index, token in enumerate(self.tokens):
            name = digests.get(hashlib.sha256(token.get_secret_value().encode()).digest())
            if name is not None:
                raise ValueError(
                    f"channels.http.tokens[{index}] is also the token of principal {name!r}: "
                    "remove one of them"
                )
        return self

    @property
    def authenticated(self) -> bool:
        """Whether any bearer token is configured (tokens or principals)."""
        return bool(self.tokens or self.principals)

    @pydantic.field_validator("trusted_proxies")
    @classmethod
    def _proxies(cls, value: list[str]) -> list[str]:
        for proxy in value:
            try:
                ipaddress.ip_network(proxy, strict=False)
            except ValueError:
                raise ValueError(
                    f"{proxy!r} is not an address or a network (e.g. '10.0.0.5', '10.0.0.0/24')"
                ) from None
        return value

    @pydantic.field_validator("allowed_origins")
    @classmethod
    def _origins(cls, value: list[str]) -> list[str]:
        for origin in value:
            scheme, sep, authority = origin.partition("://")
            if scheme not in ("http", "https") or not sep or not authority or "/" in authority:
                raise ValueError(
                    f"{origin!r} is not an origin: write scheme://host[:port], e.g. "
                    "'http://localhost:3000' (no path, no '*', no 'null')"
                )
        return value

    @pydantic.model_validator(mode="after")
    def _token_off_loopback(self) -> HttpChannelSettings:
        # The API runs tools on this machine: nobody else may reach it without a token.
        if self.enabled and not self.authenticated and not is_loopback(self.host):
            raise ValueError(
                f"host {self.host!r} is not loopback: set channels.http.tokens (or principals) "
                "or bind to 127.0.0.1"
            )
        if self.no_token_on_loopback and not is_loopback(self.host):
            raise ValueError(
                f"no_token_on_loopback is only allowed on loopback, and host {self.host!r} is "
                "not: remove it (a token is then generated) or bind to 127.0.0.1"
            )
        return self


def is_loopback(host: str) -> bool:
    """Whether ``host`` only accepts connections from this machine."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def daemon_url(settings: HttpChannelSettings) -> str:
    """Where this machine reaches the daemon's HTTP channel as configured."""
    host = settings.host
    if host in ("0.0.0.0", "::", ""):
        host = "127.0.0.1"
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"http://{host}:{settings.port}"


class TelegramSender(_Section):
    """An allowed Telegram sender and the tenant its messages run in."""

    user: int | str = Field(description="User id, or @username.")
    tenant: str | None = Field(
        None,
        pattern=TENANT_NAME,
        description="Tenant of this sender; default: its own, telegram:<user id>.",
    )

    @pydantic.field_validator("user")
    @classmethod
    def _user(cls, value: int | str) -> int | str:
        if isinstance(value, str) and not value.strip().removeprefix("@"):
            raise ValueError("must be a user id or an @username")
        return value


def sender_key(user: int | str) -> str:
    """How an ``allow_from`` user is matched: a user id as digits, else a lower-case username."""
    text = str(user).strip()
    return text if text.lstrip("-").isdigit() else "@" + text.removeprefix("@").lower()


class TelegramSettings(_Section):
    """The Telegram bot (long polling of the Bot API)."""

    enabled: bool = False
    token: SecretStr | None = Field(None, description="Bot token from @BotFather.")
    base_url: str = Field("https://api.telegram.org", description="Bot API server root.")
    allow_from: list[int | str | TelegramSender] = Field(
        [],
        description="Senders allowed to talk to the bot (empty = nobody): user ids, @usernames, "
        'or {"user": id or @username, "tenant": name}. Each sender without a tenant gets its '
        "own, telegram:<user id>; in a group, a message runs in its sender's tenant.",
    )
    poll_timeout: int = Field(30, ge=0, le=300, description="Seconds one getUpdates may wait.")
    parse_mode: Literal["HTML", "MarkdownV2", "plain"] = Field(
        "HTML", description="How replies are formatted (plain text when Telegram rejects it)."
    )
    state_file: Path | None = Field(
        None, description="JSON file of the update offset; default: state_dir/telegram.json."
    )
    backoff_initial: float = Field(1.0, gt=0, description="First retry delay, in seconds.")
    backoff_max: float = Field(60.0, gt=0, description="Longest retry delay, in seconds.")
    max_pending: int = Field(32, ge=1, description="Updates being answered at once, all chats.")
    reply_timeout: float = Field(
        30.0, gt=0, description="Seconds a reply may take to send (retries included)."
    )

    @pydantic.field_validator("base_url")
    @classmethod
    def _http_url(cls, value: str) -> str:
        if not value.startswith(("http://", "https://")):
            raise ValueError("must be an http:// or https:// URL")
        return value.rstrip("/")

    @pydantic.field_validator("allow_from")
    @classmethod
    def _one_tenant_per_sender(
        cls, value: list[int | str | TelegramSender]
    ) -> list[int | str | TelegramSender]:
        one_tenant_each(
            (sender_key(e.user), e.user, e.tenant)
            if isinstance(e, TelegramSender)
            else (sender_key(e), e, None)
            for e in value
        )
        return value

    @pydantic.model_validator(mode="after")
    def _token_when_enabled(self) -> TelegramSettings:
        if self.enabled and (self.token is None or not self.token.get_secret_value()):
            raise ValueError(
                "enabled without a token: set TELEGRAM_BOT_TOKEN (or channels.telegram.token)"
            )
        return self


class ChannelsSettings(_Section):
    http: HttpChannelSettings = HttpChannelSettings()
    telegram: TelegramSettings = TelegramSettings()
    matrix: MatrixSettings = MatrixSettings()
    email: EmailSettings = EmailSettings()


class TenantSettings(_Section):
    """What one tenant gets beyond the defaults (its workdir, its limits)."""

    limits: TenantLimitOverrides = Field(
        TenantLimitOverrides(),
        description="This tenant's quotas; unset keys take default.tenant_limits's.",
    )
    workdir: Path | None = Field(
        None,
        description="The tenant's workdir; default: state_dir/tenants/<name>/workdir (the "
        "install's tenant: workdir). Tenants mapped to one folder share it.",
    )
    tools: ToolRule = Field(
        ToolRule(), description="Tools this tenant may use, beyond its channel's rule."
    )

    @pydantic.field_validator("workdir")
    @classmethod
    def _expand(cls, value: Path | None) -> Path | None:
        return value.expanduser() if value is not None else None


class LogSettings(_Section):
    level: Literal["debug", "info", "warning", "error"] = "info"
    format: Literal["auto", "json", "console"] = Field(
        "auto", description="auto: JSON under systemd (JOURNAL_STREAM), console otherwise."
    )


class Settings(BaseSettings):
    """Everything agentd reads from its configuration."""

    model_config = SettingsConfigDict(extra="forbid", validate_default=True)

    workdir: Path = Field(
        Path("~/.agentd/workdir"), description="The agent's workdir; SYSTEM.md is in its parent."
    )
    state_dir: Path = Field(
        Path("~/.agentd/state"), description="Databases, Milvus Lite and models live here."
    )
    tenant: str = Field(
        "default", pattern=TENANT_NAME, description="Tenant of a single-user install."
    )
    tenants: dict[str, TenantSettings] = Field(
        {}, description="Per-tenant settings by tenant name; tenants not listed get the defaults."
    )
    shutdown_timeout: float = Field(30.0, gt=0, description="Seconds in-flight turns get.")
    default: AgentDefaults = AgentDefaults()
    llm: LLMSettings = LLMSettings()
    memory: MemorySettings = MemorySettings()
    history: HistorySettings = HistorySettings()
    milvus: MilvusSettings = MilvusSettings()
    cron: CronSettings = CronSettings()
    channels: ChannelsSettings = ChannelsSettings()
    tools: ToolsSettings = ToolsSettings()
    log: LogSettings = LogSettings()
    mcp: McpSettings = McpSettings()

    @pydantic.field_validator("workdir", "state_dir")
    @classmethod
    def _expand(cls, value: Path) -> Path:
        return value.expanduser()

    @pydantic.field_validator("tenants")
    @classmethod
    def _tenant_names(cls, value: dict[str, TenantSettings]) -> dict[str, TenantSettings]:
        for name in value:
            if not re.fullmatch(TENANT_NAME, name):
                raise ValueError(
                    f"tenant name {name!r}: 1-64 letters, digits and _ . : @ -, "
                    "starting with a letter or digit"
                )
        return value

    @pydantic.model_validator(mode="after")
    def _install_tenant_workdir(self) -> Settings:
        own = self.tenants.get(self.tenant)
        if own is not None and own.workdir is not None and own.workdir != self.workdir:
            raise ValueError(
                f"tenants.{self.tenant}.workdir: tenant {self.tenant!r} is this install's own "
                "tenant, whose workdir is 'workdir'; set that instead"
            )
        return self

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        # load_settings() merges the layers itself (to know each value's source) and passes
        # the result in; nothing else may be read behind its back.
        return (init_settings,)

    def limits_for(self, tenant: str) -> TenantLimits:
        """``tenant``'s quotas: its own keys where set, ``default.tenant_limits`` elsewhere."""
        base = self.default.tenant_limits
        own = self.tenants.get(tenant)
        if own is None:
            return base
        set_here = {k: v for k, v in own.limits.model_dump().items() if v is not None}
        return base.model_copy(update=set_here) if set_here else base

    @property
    def history_path(self) -> Path:
        return (self.history.path or self.state_dir / "history.db").expanduser()

    @property
    def history_url(self) -> str | None:
        """The PostgreSQL URL of the history (with its password: never log it), or None."""
        return self.history.url.get_secret_value() if self.history.url is not None else None

    @property
    def ticks_target(self) -> Path | str:
        """Where the tick log and tasks live: a PostgreSQL URL (``cron.tick_log_url``, else
        ``history.url``) or the SQLite file :attr:`ticks_path`."""
        url = self.cron.tick_log_url or self.history.url
        return url.get_secret_value() if url is not None else self.ticks_path

    @property
    def ticks_path(self) -> Path:
        """The tick log's file: ``cron.tick_log`` (``MEMORY_DB``), else ``memory.path``."""
        path = self.cron.tick_log or self.memory.path or self.state_dir / "memory.db"
        return path.expanduser()

    @property
    def milvus_addr(self) -> str:
        """The Milvus address: the configured one, else Milvus Lite in the state dir.

        Milvus Lite wants a path ending in ``.db`` and makes a directory there.
        """
        if self.milvus.addr is None:
            return str(self.state_dir / "milvus.db")
        return self.milvus.addr
