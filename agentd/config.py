"""Settings: defaults < JSON file < nested env (``AGENTD_SECTION__KEY``) < the flat env names.

:func:`load_settings` resolves all layers with pydantic-settings' own sources, records where every
value came from (``agentd config show`` prints it) and turns a validation failure into one
:class:`~agentd.errors.ConfigError` line naming the key, its source and what is allowed.
"""

from __future__ import annotations

import ipaddress
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import pydantic
from pydantic import BaseModel, ConfigDict, Field, SecretStr
from pydantic.fields import FieldInfo
from pydantic_settings import (
    BaseSettings,
    EnvSettingsSource,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)
from pydantic_settings.exceptions import SettingsError

from agentd.errors import ConfigError

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
    "MEMORY_DB": ("memory", "path"),
    "HISTORY_DB": ("history", "path"),
    "MILVUS_ADDR": ("milvus", "addr"),
    "MILVUS_TOKEN": ("milvus", "token"),
    "MILVUS_DB_NAME": ("milvus", "db_name"),
    "MILVUS_COLLECTION": ("milvus", "collection"),
    "TELEGRAM_BOT_TOKEN": ("channels", "telegram", "token"),
}


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_default=True)


class AgentDefaults(_Section):
    """How each agent turn and conversation is bounded."""

    max_messages: int = Field(0, ge=0, description="Sliding window per session; 0 = unlimited.")
    max_tokens: int = Field(4096, gt=0, description="Context budget of the model, in tokens.")
    compaction_strategy: Literal["truncate", "summarize"] = Field(
        "truncate", description="What runs after each successful turn."
    )
    compaction_threshold: int = Field(
        0, description="Token estimate that triggers summarize; <= 0 means 0.75 * max_tokens."
    )
    max_steps: int = Field(8, ge=1, description="Model calls per turn (tool-loop bound).")
    max_concurrent_turns: int = Field(16, ge=1, description="Turns running at once, all sessions.")
    max_sessions_in_memory: int = Field(
        1000, ge=1, description="Idle sessions kept in memory; older ones are evicted (LRU)."
    )
    tool_timeout: float = Field(30.0, gt=0, description="Seconds one tool call may take.")

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
    context: int = Field(4096, ge=256)
    threads: int = Field(2, ge=1)
    port: int = Field(0, ge=0, le=65535, description="0 = a free loopback port.")
    extra_args: list[str] = []
    start_timeout: float = Field(120.0, gt=0, description="Seconds to wait for /health.")
    max_answer_tokens: int = Field(
        1024, ge=-1, description="Cap of one answer (llama-server -n); -1 = until the context."
    )


class LLMSettings(_Section):
    """The OpenAI-compatible model server."""

    base_url: str = Field("http://127.0.0.1:8080", description="Server root or its /v1 URL.")
    model: str = "local"
    api_key: SecretStr | None = None
    timeout: float = Field(300.0, gt=0, description="Seconds for one model call.")
    connect_timeout: float = Field(5.0, gt=0)
    max_retries: int = Field(3, ge=0)
    temperature: float | None = Field(None, ge=0, le=2)
    seed: int | None = None
    embed_url: str | None = Field(None, description="Separate embeddings server, if any.")
    embed_model: str | None = None
    sidecar: SidecarSettings = SidecarSettings()

    @pydantic.field_validator("base_url", "embed_url")
    @classmethod
    def _http_url(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith(("http://", "https://")):
            raise ValueError("must be an http:// or https:// URL")
        return value


class MemorySettings(_Section):
    """Long-term memory switch and the cron tick log's SQLite file."""

    embed: bool = Field(True, description="Use embeddings and long-term memory.")
    path: Path | None = Field(None, description="SQLite file of the cron tick log.")
    backend: str | None = Field(None, description="Accepted for compatibility; never read.")


class HistorySettings(_Section):
    """The durable conversation store."""

    path: Path | None = Field(None, description="SQLite file; default: state_dir/history.db.")
    synchronous: Literal["NORMAL", "FULL"] = Field(
        "NORMAL", description="NORMAL survives a process crash; FULL also a power loss."
    )


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
        from agentd.heartbeat import validate_job

        validate_job(self)
        return self


class CronSettings(_Section):
    enabled: bool = True
    jobs: list[CronJob] = []


class ChannelSettings(_Section):
    enabled: bool = False


class RateLimitSettings(_Section):
    """A token bucket per bearer token (applies when tokens are set)."""

    requests_per_minute: float = Field(120.0, ge=0, description="Refill rate; 0 = no limit.")
    burst: int = Field(20, ge=1, description="Requests allowed at once before the rate applies.")


class HttpChannelSettings(_Section):
    """The OpenAI-compatible HTTP API, health, readiness and metrics."""

    enabled: bool = False
    host: str = Field("127.0.0.1", min_length=1, description="Address to bind.")
    port: int = Field(8321, ge=0, le=65535, description="0 = a free port.")
    tokens: list[SecretStr] = Field(
        [], description="Bearer tokens; required unless bound to loopback."
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
    max_connections: int = Field(1024, ge=1, description="Open connections; 503 beyond.")
    rate_limit: RateLimitSettings = RateLimitSettings()

    @pydantic.model_validator(mode="after")
    def _token_off_loopback(self) -> HttpChannelSettings:
        # The API runs tools on this machine: nobody else may reach it without a token.
        if self.enabled and not self.tokens and not is_loopback(self.host):
            raise ValueError(
                f"host {self.host!r} is not loopback: set channels.http.tokens or bind to 127.0.0.1"
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


class TelegramSettings(_Section):
    """The Telegram bot (long polling of the Bot API)."""

    enabled: bool = False
    token: SecretStr | None = Field(None, description="Bot token from @BotFather.")
    base_url: str = Field("https://api.telegram.org", description="Bot API server root.")
    allow_from: list[int | str] = Field(
        [], description="User ids or @usernames allowed to talk to the bot; empty = nobody."
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
    tenant: str = Field("default", min_length=1, description="Tenant of a single-user install.")
    shutdown_timeout: float = Field(30.0, gt=0, description="Seconds in-flight turns get.")
    default: AgentDefaults = AgentDefaults()
    llm: LLMSettings = LLMSettings()
    memory: MemorySettings = MemorySettings()
    history: HistorySettings = HistorySettings()
    milvus: MilvusSettings = MilvusSettings()
    cron: CronSettings = CronSettings()
    channels: ChannelsSettings = ChannelsSettings()
    log: LogSettings = LogSettings()

    @pydantic.field_validator("workdir", "state_dir")
    @classmethod
    def _expand(cls, value: Path) -> Path:
        return value.expanduser()

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

    @property
    def history_path(self) -> Path:
        return (self.history.path or self.state_dir / "history.db").expanduser()

    @property
    def ticks_path(self) -> Path:
        return (self.memory.path or self.state_dir / "memory.db").expanduser()

    @property
    def milvus_addr(self) -> str:
        """The Milvus address: the configured one, else Milvus Lite in the state dir.

        Milvus Lite wants a path ending in ``.db`` and makes a directory there.
        """
        if self.milvus.addr is None:
            return str(self.state_dir / "milvus.db")
        return self.milvus.addr


@dataclass(frozen=True, slots=True)
class Loaded:
    """Resolved settings and, per leaf key (``"default.max_tokens"``), where its value came from."""

    settings: Settings
    sources: dict[str, str]
    config_path: Path | None


class _NestedEnv(EnvSettingsSource):
    """``AGENTD_SECTION__KEY`` variables, read from a given mapping instead of os.environ."""

    def __init__(self, environ: Mapping[str, str]) -> None:
        self._environ = environ
        super().__init__(
            Settings, env_prefix=ENV_PREFIX, env_nested_delimiter="__", case_sensitive=False
        )

    def _load_env_vars(self) -> Mapping[str, str | None]:
        return {k.lower(): v for k, v in self._environ.items()}


class _FlatEnv(PydanticBaseSettingsSource):
    """The seed's flat names (``AGENT_MAX_TOKENS``...), mapped onto their nested keys."""

    def __init__(self, environ: Mapping[str, str]) -> None:
        super().__init__(Settings)
        self._environ = environ

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        return None, field_name, False  # unused: __call__ does the work

    def __call__(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name, path in FLAT_ENV.items():
            if name in self._environ:
                _set_path(out, path, self._environ[name])
        return out


def _set_path(target: dict[str, Any], path: tuple[str, ...], value: Any) -> None:
    for part in path[:-1]:
        target = target.setdefault(part, {})
    target[path[-1]] = value


def _leaves(data: Mapping[str, Any], prefix: tuple[str, ...] = ()) -> dict[tuple[str, ...], Any]:
    out: dict[tuple[str, ...], Any] = {}
    for key, value in data.items():
        path = (*prefix, str(key))
        if isinstance(value, Mapping) and value:
            out.update(_leaves(value, path))
        else:
            out[path] = value
    return out


def _merge(into: dict[str, Any], layer: Mapping[str, Any]) -> None:
    for key, value in layer.items():
        if isinstance(value, Mapping) and isinstance(into.get(key), dict):
            _merge(into[key], value)
        elif isinstance(value, Mapping):
            into[key] = {}
            _merge(into[key], value)
        else:
            into[key] = value


def default_config_path(environ: Mapping[str, str]) -> Path | None:
    """``$AGENTD_CONFIG``, else ``~/.agentd/config.json`` when it exists, else None."""
    if environ.get("AGENTD_CONFIG"):
        return Path(environ["AGENTD_CONFIG"]).expanduser()
    home = Path("~/.agentd/config.json").expanduser()
    return home if home.is_file() else None


def _read_file(path: Path) -> dict[str, Any]:
    source = f"file {path}"
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError("<config file>", source, f"cannot read it: {exc.strerror}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        reason = f"not valid JSON (line {exc.lineno}, column {exc.colno}): {exc.msg}"
        raise ConfigError("<config file>", source, reason) from None
    if not isinstance(data, dict):
        raise ConfigError("<config file>", source, "the top level must be a JSON object")
    return data


def _is_secret(key: str) -> bool:
    last = key.rsplit(".", 1)[-1]
    return last in ("token", "tokens", "password", "secret") or last.endswith(
        ("_token", "api_key", "_password", "_secret")
    )


def _error(exc: pydantic.ValidationError, sources: Mapping[str, str]) -> ConfigError:
    err = exc.errors(include_url=False)[0]
    loc = tuple(str(part) for part in err["loc"])
    key = ".".join(loc) or "<settings>"
    source = "default"
    for size in range(len(loc), 0, -1):
        found = sources.get(".".join(loc[:size]))
        if found:
            source = found
            break
    reason = err["msg"]
    if err["type"] == "extra_forbidden":
        reason = "unknown key"
    elif "input" in err and not _is_secret(key) and not isinstance(err["input"], dict | list):
        reason = f"got {err['input']!r}; {reason}"
    return ConfigError(key, source, reason)


def load_settings(
    config_path: Path | str | None = None, environ: Mapping[str, str] | None = None
) -> Loaded:
    """Resolve settings from defaults, the JSON file and the environment.

    Raises ConfigError (one line: key, source, what is allowed) on any bad value.
    """
    env = dict(os.environ if environ is None else environ)
    path = Path(config_path).expanduser() if config_path else default_config_path(env)
    layers: list[tuple[dict[str, Any], Any]] = []
    if path is not None:
        layers.append((_read_file(path), f"file {path}"))
    try:
        nested = _NestedEnv(env)()
    except SettingsError as exc:
        raise ConfigError("<environment>", "env AGENTD_*", str(exc)) from None
    layers.append((nested, lambda p: "env " + ENV_PREFIX + "__".join(p).upper()))
    flat_names = {path: name for name, path in FLAT_ENV.items()}
    layers.append((_FlatEnv(env)(), lambda p: "env " + flat_names[p]))

    merged: dict[str, Any] = {}
    sources: dict[str, str] = {}
    for data, name in layers:
        _merge(merged, data)
        for leaf, value in _leaves(data).items():
            if isinstance(value, Mapping):
                continue  # an empty section sets nothing: its keys keep their source
            src = name(leaf) if callable(name) else name
            dotted = ".".join(leaf)
            # A whole section replaced by a later layer takes the later source for its leaves.
            for known in [k for k in sources if k.startswith(dotted + ".")]:
                sources[known] = src
            sources[dotted] = src
    try:
        settings = Settings(**merged)
    except pydantic.ValidationError as exc:
        raise _error(exc, sources) from None
    return Loaded(settings=settings, sources=sources, config_path=path)


def describe(loaded: Loaded) -> list[tuple[str, str, str]]:
    """Every leaf setting as (key, shown value, source), secrets masked."""
    data = loaded.settings.model_dump(mode="json")
    rows = []
    for leaf, value in sorted(_leaves(data).items()):
        key = ".".join(leaf)
        raw = getattr_path(loaded.settings, leaf)
        if isinstance(raw, SecretStr) or (_is_secret(key) and value not in (None, "")):
            shown = "********"
        else:
            shown = json.dumps(value)
        rows.append((key, shown, _source_of(loaded.sources, leaf)))
    return rows


def _source_of(sources: Mapping[str, str], leaf: tuple[str, ...]) -> str:
    for size in range(len(leaf), 0, -1):
        found = sources.get(".".join(leaf[:size]))
        if found:
            return found
    return "default"


def getattr_path(obj: Any, path: tuple[str, ...]) -> Any:
    for part in path:
        if isinstance(obj, list):
            obj = obj[int(part)]
        elif isinstance(obj, BaseModel):
            obj = getattr(obj, part, None)
        elif isinstance(obj, dict):
            obj = obj.get(part)
        else:
            return None
    return obj


def secret_values(settings: BaseModel) -> tuple[str, ...]:
    """Every secret in ``settings`` (for the log redactor), however deeply nested."""
    found: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, SecretStr):
            if node.get_secret_value():
                found.append(node.get_secret_value())
        elif isinstance(node, BaseModel):
            for name in type(node).model_fields:
                walk(getattr(node, name))
        elif isinstance(node, list | tuple):
            for item in node:
                walk(item)
        elif isinstance(node, dict):
            for item in node.values():
                walk(item)

    walk(settings)
    return tuple(found)


def json_schema() -> dict[str, Any]:
    """The JSON Schema of the configuration file."""
    schema = Settings.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "agentd configuration"
    return schema
