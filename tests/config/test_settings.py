"""Settings: layers, flat env names, sources, errors, and the shipped config files."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from agentd.config import (
    FLAT_ENV,
    AgentDefaults,
    CronJob,
    HttpChannelSettings,
    Settings,
    default_config_path,
    describe,
    json_schema,
    load_settings,
)
from agentd.errors import ConfigError

ROOT = Path(__file__).resolve().parents[2]
CONFIG_DIR = ROOT / "config"


def write(tmp_path: Path, data: Any) -> Path:
    path = tmp_path / "config.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return path


def test_defaults() -> None:
    """With nothing configured the documented defaults apply."""
    loaded = load_settings(environ={})
    s = loaded.settings
    assert s.default.max_messages == 0 and s.default.max_tokens == 4096
    assert s.default.compaction_strategy == "truncate"
    assert s.default.effective_threshold == 3072
    assert s.llm.base_url == "http://127.0.0.1:8080"
    assert s.workdir == Path("~/.agentd/workdir").expanduser()
    assert loaded.sources == {} and loaded.config_path is None


def test_layers_in_order(tmp_path: Path) -> None:
    """File < nested env < flat env, each value tagged with its source."""
    path = write(
        tmp_path,
        {"default": {"max_tokens": 1000, "max_steps": 3, "max_messages": 7}, "tenant": "acme"},
    )
    loaded = load_settings(
        path,
        environ={"AGENTD_DEFAULT__MAX_TOKENS": "2000", "AGENTD_DEFAULT__MAX_STEPS": "4"},
    )
    s = loaded.settings
    assert (s.default.max_tokens, s.default.max_steps, s.default.max_messages) == (2000, 4, 7)
    assert s.tenant == "acme"
    assert loaded.sources["default.max_tokens"] == "env AGENTD_DEFAULT__MAX_TOKENS"
    assert loaded.sources["default.max_messages"] == f"file {path}"


@pytest.mark.parametrize(("name", "path"), sorted(FLAT_ENV.items()))
def test_flat_env_names_win_over_nested(name: str, path: tuple[str, ...]) -> None:
    """Each flat name (AGENT_MAX_TOKENS, LLAMA_URL, ...) wins over its AGENTD_ nested form."""
    values = {
        "max_messages": ("5", "6"),
        "max_tokens": ("500", "600"),
        "max_steps": ("2", "3"),
        "compaction_strategy": ("truncate", "summarize"),
        "compaction_threshold": ("10", "20"),
        "workdir": ("/tmp/a", "/tmp/b"),
        "base_url": ("http://a:1", "http://b:2"),
        "embed": ("true", "false"),
    }
    nested_value, flat_value = values.get(path[-1], ("nested-x", "flat-y"))
    nested_name = "AGENTD_" + "__".join(path).upper()
    loaded = load_settings(environ={nested_name: nested_value, name: flat_value})
    value: Any = loaded.settings
    for part in path:
        value = getattr(value, part)
    if hasattr(value, "get_secret_value"):
        value = value.get_secret_value()
    assert str(value).lower() == flat_value
    assert loaded.sources[".".join(path)] == f"env {name}"


def test_memory_backend_is_accepted_and_ignored(tmp_path: Path) -> None:
    """memory.backend from old configs loads without error and changes nothing else."""
    loaded = load_settings(write(tmp_path, {"memory": {"backend": "sqlite"}}), environ={})
    assert loaded.settings.memory.backend == "sqlite"
    without = load_settings(environ={}).settings
    assert loaded.settings.model_dump(exclude={"memory"}) == without.model_dump(exclude={"memory"})


@pytest.mark.parametrize(
    ("environ", "key", "source", "allowed"),
    [
        pytest.param(
            {"AGENT_MAX_TOKENS": "lots"},
            "default.max_tokens",
            "env AGENT_MAX_TOKENS",
            "valid integer",
            id="flat-not-int",
        ),
        pytest.param(
            {"AGENTD_DEFAULT__MAX_STEPS": "0"},
            "default.max_steps",
            "env AGENTD_DEFAULT__MAX_STEPS",
            "greater than or equal to 1",
            id="nested-range",
        ),
        pytest.param(
            {"COMPACTION_STRATEGY": "magic"},
            "default.compaction_strategy",
            "env COMPACTION_STRATEGY",
            "'truncate' or 'summarize'",
            id="literal",
        ),
        pytest.param(
            {"LLAMA_URL": "127.0.0.1:8080"},
            "llm.base_url",
            "env LLAMA_URL",
            "http:// or https://",
            id="url",
        ),
        pytest.param(
            {"AGENTD_LLM__MODLE": "x"},
            "llm.modle",
            "env AGENTD_LLM__MODLE",
            "unknown key",
            id="typo",
        ),
        pytest.param(
            {"MEMORY_EMBED": "maybe"},
            "memory.embed",
            "env MEMORY_EMBED",
            "valid boolean",
            id="bool",
        ),
    ],
)
def test_bad_env_values_name_key_source_and_rule(
    environ: dict[str, str], key: str, source: str, allowed: str
) -> None:
    """A bad value raises one line naming the key, where it came from and what is allowed."""
    with pytest.raises(ConfigError) as info:
        load_settings(environ=environ)
    err = info.value
    assert (err.key, err.source) == (key, source)
    assert allowed in err.reason
    assert "\n" not in str(err) and key in str(err) and source in str(err)


def test_bad_file_value_names_the_file(tmp_path: Path) -> None:
    """A bad value from the file names the file as its source."""
    path = write(tmp_path, {"default": {"compaction_strategy": "shrink"}})
    with pytest.raises(ConfigError) as info:
        load_settings(path, environ={})
    assert info.value.key == "default.compaction_strategy"
    assert info.value.source == f"file {path}"
    assert "got 'shrink'" in info.value.reason


def test_bad_secret_is_not_echoed(tmp_path: Path) -> None:
    """The rejected value of a secret key is not repeated in the error."""
    path = write(tmp_path, {"llm": {"api_key": 987654321}})
    with pytest.raises(ConfigError) as info:
        load_settings(path, environ={})
    assert info.value.key == "llm.api_key"
    assert "987654321" not in str(info.value)


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        pytest.param("{nope", "not valid JSON (line 1, column 2)", id="invalid-json"),
        pytest.param("[1, 2]", "top level must be a JSON object", id="not-object"),
    ],
)
def test_unreadable_file(tmp_path: Path, content: str, reason: str) -> None:
    """Invalid JSON names the file and where the error is."""
    path = write(tmp_path, content)
    with pytest.raises(ConfigError) as info:
        load_settings(path, environ={})
    assert info.value.source == f"file {path}" and reason in info.value.reason


def test_missing_file(tmp_path: Path) -> None:
    """A config path that does not exist is an error, not silently ignored."""
    with pytest.raises(ConfigError, match="cannot read it"):
        load_settings(tmp_path / "nope.json", environ={})


def test_bad_nested_env_json() -> None:
    """A nested env variable holding invalid JSON for a section is a ConfigError."""
    with pytest.raises(ConfigError) as info:
        load_settings(environ={"AGENTD_DEFAULT": "{not json"})
    assert "AGENTD_" in info.value.source


def test_config_path_lookup(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """$AGENTD_CONFIG wins; else ~/.agentd/config.json when present; else none."""
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_config_path({}) is None
    home_config = tmp_path / ".agentd" / "config.json"
    home_config.parent.mkdir()
    home_config.write_text(json.dumps({"tenant": "home"}))
    assert default_config_path({}) == home_config
    assert load_settings(environ={}).settings.tenant == "home"
    other = write(tmp_path, {"tenant": "other"})
    assert load_settings(environ={"AGENTD_CONFIG": str(other)}).settings.tenant == "other"


def test_whole_section_from_env_takes_the_source_of_its_leaves(tmp_path: Path) -> None:
    """A section set as JSON in one variable overrides the file's keys inside it."""
    path = write(tmp_path, {"log": {"level": "debug", "format": "json"}})
    loaded = load_settings(path, environ={"AGENTD_LOG": '{"level": "error"}'})
    assert loaded.settings.log.level == "error" and loaded.settings.log.format == "json"
    assert loaded.sources["log.level"] == "env AGENTD_LOG__LEVEL"
    assert loaded.sources["log.format"] == f"file {path}"


def test_describe_masks_secrets_and_shows_sources() -> None:
    """describe() lists every leaf with its source; secrets are masked."""
    loaded = load_settings(
        environ={"LLM_API_KEY": "sk-live-123", "MILVUS_TOKEN": "root:Milvus", "LLM_MODEL": "q"}
    )
    rows = {key: (shown, source) for key, shown, source in describe(loaded)}
    assert rows["llm.api_key"] == ("********", "env LLM_API_KEY")
    assert rows["milvus.token"] == ("********", "env MILVUS_TOKEN")
    assert rows["llm.model"] == ('"q"', "env LLM_MODEL")
    assert rows["default.max_tokens"] == ("4096", "default")
    assert "sk-live-123" not in repr(rows) and "root:Milvus" not in repr(rows)


def test_derived_paths(tmp_path: Path) -> None:
    """Paths default into the state dir; explicit ones win."""
    s = load_settings(environ={"AGENTD_STATE_DIR": str(tmp_path)}).settings
    assert s.history_path == tmp_path / "history.db"
    assert s.ticks_path == tmp_path / "memory.db"
    assert s.milvus_addr == str(tmp_path / "milvus.db")
    s = load_settings(
        environ={"HISTORY_DB": "/x/h.db", "MEMORY_DB": "/x/m.db", "MILVUS_ADDR": "http://m:19530"}
    ).settings
    assert (s.history_path, s.ticks_path, s.milvus_addr) == (
        Path("/x/h.db"),
        Path("/x/m.db"),
        "http://m:19530",
    )


def test_tick_log_setting_and_its_seed_names(tmp_path: Path) -> None:
    """cron.tick_log names the tick log's file; MEMORY_DB sets it; memory.path still works."""
    config = tmp_path / "c.json"
    config.write_text('{"memory": {"path": "/old/m.db"}}')
    assert load_settings(config_path=config, environ={}).settings.ticks_path == Path("/old/m.db")
    loaded = load_settings(config_path=config, environ={"MEMORY_DB": "/new/t.db"})
    assert loaded.settings.ticks_path == Path("/new/t.db")
    assert loaded.sources["cron.tick_log"] == "env MEMORY_DB"


def test_settings_read_nothing_behind_load_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    """Settings() itself ignores the environment: load_settings() is the only reader."""
    monkeypatch.setenv("AGENTD_TENANT", "sneaky")
    assert Settings().tenant == "default"


def leaves(data: Any, prefix: str = "") -> set[str]:
    if isinstance(data, dict) and data:
        return {leaf for k, v in data.items() for leaf in leaves(v, f"{prefix}{k}.")}
    return {prefix.rstrip(".")}


def test_example_json_is_valid_and_documents_every_key() -> None:
    """config/agentd.example.json loads through load_settings and sets every key."""
    path = CONFIG_DIR / "agentd.example.json"
    loaded = load_settings(path, environ={})
    example = json.loads(path.read_text())
    deprecated = {
        f"default.{name}"
        for name, field in AgentDefaults.model_fields.items()
        if (field.description or "").startswith("Deprecated")
    }
    expected = leaves(Settings().model_dump(mode="json")) - deprecated
    given = leaves(example)
    # An empty mapping by default (tenants) is documented by an example entry under it.
    missing = {k for k in expected - given if not any(g.startswith(f"{k}.") for g in given)}
    assert not missing, missing
    job_keys = set(example["cron"]["jobs"][0])
    assert job_keys == set(CronJob.model_fields)
    assert loaded.settings.cron.jobs[0].name == "morning-briefing"


def test_env_example_lists_every_flat_name_and_loads() -> None:
    """config/agentd.env.example names every flat variable, and its values are valid."""
    text = (CONFIG_DIR / "agentd.env.example").read_text()
    environ: dict[str, str] = {}
    for line in text.splitlines():
        match = re.match(r"^# ([A-Z][A-Z0-9_]+)=(.*?)(?:\s{2,}#.*)?$", line)
        if match:
            environ[match.group(1)] = match.group(2).strip().strip("'")
    assert set(FLAT_ENV) <= set(environ), set(FLAT_ENV) - set(environ)
    environ.pop("AGENTD_CONFIG")
    loaded = load_settings(environ=environ)
    assert loaded.settings.cron.jobs[0].name == "ping"
    assert loaded.settings.history.synchronous == "FULL"


def test_schema_describes_the_settings() -> None:
    """The JSON Schema is draft 2020-12 and forbids unknown keys."""
    schema = json_schema()
    assert schema["$schema"].endswith("2020-12/schema")
    assert schema["additionalProperties"] is False
    assert {"default", "llm", "memory", "milvus", "cron", "channels"} <= set(schema["properties"])


def test_empty_section_does_not_claim_its_defaults(tmp_path: Path) -> None:
    """An empty section in the file leaves its keys' source as default."""
    path = write(tmp_path, {"llm": {}, "tenant": "t"})
    rows = {key: source for key, _, source in describe(load_settings(path, environ={}))}
    assert rows["llm.model"] == "default" and rows["tenant"] == f"file {path}"


@pytest.mark.parametrize(
    ("host", "allowed"),
    [
        pytest.param("127.0.0.1", True, id="ipv4-loopback"),
        pytest.param("::1", True, id="ipv6-loopback"),
        pytest.param("0.0.0.0", False, id="all-addresses"),
        pytest.param("192.0.2.1", False, id="lan"),
    ],
)
def test_no_token_on_loopback_is_refused_off_loopback(host: str, allowed: bool) -> None:
    """channels.http.no_token_on_loopback is only accepted with a loopback host."""
    http = {"host": host, "tokens": ["t"], "no_token_on_loopback": True}
    if allowed:
        assert HttpChannelSettings.model_validate(http).no_token_on_loopback
    else:
        with pytest.raises(ValueError, match="only allowed on loopback"):
            HttpChannelSettings.model_validate(http)


def test_a_postgresql_url_is_a_secret_and_checked() -> None:
    """history.url is masked like a token; a non-PostgreSQL URL is refused without its password."""
    from agentd.config.load import secret_values

    url = "postgresql://agentd:pw-123@db:5432/agentd"
    settings = load_settings(environ={"AGENTD_HISTORY__URL": url}).settings
    assert settings.history_url == url and settings.ticks_target == url
    assert url in secret_values(settings)
    assert "pw-123" not in repr(settings.history)
    with pytest.raises(ConfigError) as caught:
        load_settings(environ={"AGENTD_CRON__TICK_LOG_URL": "mysql://agentd:pw-123@db/x"})
    assert "pw-123" not in str(caught.value) and "postgresql://" in str(caught.value)
