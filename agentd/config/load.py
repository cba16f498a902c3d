"""Loading settings: defaults < JSON file < nested env (``AGENTD_SECTION__KEY``) < flat env names.

:func:`load_settings` resolves all layers with pydantic-settings' own sources, records where every
value came from (``agentd config show`` prints it) and turns a validation failure into one
:class:`~agentd.errors.ConfigError` line naming the key, its source and what is allowed.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pydantic
from pydantic import BaseModel, SecretStr
from pydantic.fields import FieldInfo
from pydantic_settings import EnvSettingsSource, PydanticBaseSettingsSource
from pydantic_settings.exceptions import SettingsError

from agentd.config.settings import ENV_PREFIX, FLAT_ENV, Settings
from agentd.errors import ConfigError
from agentd.redact import mask_url


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
        # A URL's password never goes into the error (postgresql://user:***@host).
        reason = f"got {mask_url(repr(err['input']))}; {reason}"
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
    """Every leaf setting as (key, shown value, source), secrets and URL passwords masked."""
    data = loaded.settings.model_dump(mode="json")
    rows = []
    for leaf, value in sorted(_leaves(data).items()):
        key = ".".join(leaf)
        raw = getattr_path(loaded.settings, leaf)
        if isinstance(raw, SecretStr) or (_is_secret(key) and value not in (None, "")):
            shown = "********"
        else:
            shown = json.dumps(_masked_urls(value))
        rows.append((key, shown, _source_of(loaded.sources, leaf)))
    return rows


def _masked_urls(value: Any) -> Any:
    """``value`` with the password of every URL in it masked (``http://user:***@host``):
    any URL-valued setting (llm.base_url, milvus.addr...) may carry credentials."""
    if isinstance(value, str):
        return mask_url(value)
    if isinstance(value, list):
        return [_masked_urls(item) for item in value]
    if isinstance(value, dict):
        return {key: _masked_urls(item) for key, item in value.items()}
    return value


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
