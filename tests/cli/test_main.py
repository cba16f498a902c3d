"""The command line: config errors exit 78, `config show|schema`, `chat --local`."""

from __future__ import annotations

import json
import logging
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import structlog

from agentd import cli
from agentd._version import __version__
from agentd.cli import chat as cli_chat
from agentd.config import EX_CONFIG, json_schema
from agentd.engine.guards.empty import NO_ANSWER
from tests.support.stub_llm import Reply, StubLLM

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _restore_logging() -> Iterator[None]:
    """main() configures logging for the process; undo it after each test."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    structlog.reset_defaults()
    root.handlers[:] = handlers
    root.setLevel(level)


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> pytest.MonkeyPatch:
    monkeypatch.setenv("AGENT_WORKDIR", str(tmp_path / "workdir"))
    monkeypatch.setenv("AGENTD_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setenv("MEMORY_EMBED", "false")
    return monkeypatch


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    """--version prints the version and exits 0."""
    with pytest.raises(SystemExit) as info:
        cli.main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out.strip() == f"agentd {__version__}"


def test_no_command_prints_help(capsys: pytest.CaptureFixture[str]) -> None:
    """Without a command agentd prints its help and exits 2."""
    assert cli.main([]) == 2
    assert "usage: agentd" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("variables", "needle"),
    [
        pytest.param(
            {"AGENT_MAX_TOKENS": "lots"},
            "default.max_tokens (from env AGENT_MAX_TOKENS): got 'lots'",
            id="flat",
        ),
        pytest.param(
            {"AGENTD_LLM__TIMEOUT": "-1"},
            "llm.timeout (from env AGENTD_LLM__TIMEOUT): got '-1'; Input should be greater than 0",
            id="nested",
        ),
    ],
)
def test_bad_config_exits_78(
    env: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    variables: dict[str, str],
    needle: str,
) -> None:
    """A bad value exits 78 with one line naming the key, its source and the rule."""
    for name, value in variables.items():
        env.setenv(name, value)
    assert cli.main(["config", "show"]) == EX_CONFIG == 78
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and needle in err and err.startswith("agentd: config error:")


def test_unreadable_config_file_exits_78(
    env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A config file that is not JSON exits 78 naming the file."""
    bad = tmp_path / "bad.json"
    bad.write_text("{oops")
    assert cli.main(["--config", str(bad), "chat", "--local", "-m", "hi"]) == 78
    assert f"file {bad}" in capsys.readouterr().err


def test_bad_config_exits_78_as_a_process(tmp_path: Path) -> None:
    """The real process exits 78 (what systemd's RestartPreventExitStatus sees)."""
    environ = {**os.environ, "COMPACTION_STRATEGY": "shrink", "HOME": str(tmp_path)}
    proc = subprocess.run(
        [sys.executable, "-m", "agentd", "config", "show"],
        env=environ,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 78
    assert "default.compaction_strategy (from env COMPACTION_STRATEGY)" in proc.stderr


def test_an_unreadable_history_exits_65_without_a_traceback(tmp_path: Path) -> None:
    """`agentd run` on a history file that is not a database: one line naming the store and
    the setting, exit 65 (EX_DATAERR, which systemd does not restart on), no traceback."""
    (tmp_path / "state").mkdir()
    (tmp_path / "state" / "history.db").write_bytes(b"not a database " * 100)
    config = tmp_path / "config.json"
    config.write_text(
        json.dumps(
            {
                "workdir": str(tmp_path / "wd"),
                "state_dir": str(tmp_path / "state"),
                "llm": {"base_url": "http://127.0.0.1:9", "max_retries": 0},
                "memory": {"embed": False},
                "cron": {"enabled": False},
            }
        )
    )
    proc = subprocess.run(
        [sys.executable, "-m", "agentd", "--config", str(config), "run"],
        env={**os.environ, "HOME": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 65, proc.stderr
    assert "cannot open the history store" in proc.stderr and "history.path" in proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout


def show(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, tuple[str, str]]:
    assert cli.main([*args, "config", "show"]) == 0
    rows = {}
    for line in capsys.readouterr().out.splitlines()[1:]:
        key, _, rest = line.partition(" = ")
        value, _, source = rest.rpartition("  # ")
        rows[key.strip()] = (value, source)
    return rows


def test_config_show_masks_secrets_and_shows_sources(
    env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """config show prints every key, secrets masked, with where each value came from."""
    config = tmp_path / "agentd.json"
    config.write_text(json.dumps({"llm": {"model": "qwen"}, "milvus": {"token": "root:pw"}}))
    env.setenv("LLM_API_KEY", "sk-live-secret")
    rows = show(capsys, "--config", str(config))
    assert rows["llm.api_key"] == ("********", "env LLM_API_KEY")
    assert rows["milvus.token"] == ("********", f"file {config}")
    assert rows["llm.model"] == ('"qwen"', f"file {config}")
    assert rows["default.max_steps"] == ("8", "default")
    assert rows["memory.embed"] == ("false", "env MEMORY_EMBED")
    out = json.dumps(rows)
    assert "sk-live-secret" not in out and "root:pw" not in out


@pytest.mark.parametrize(
    "argv",
    [
        pytest.param(["--config", "{cfg}", "config", "show"], id="before"),
        pytest.param(["config", "--config", "{cfg}", "show"], id="between"),
        pytest.param(["config", "show", "--config", "{cfg}"], id="after"),
        pytest.param(
            ["--config", "{other}", "config", "show", "--config", "{cfg}"], id="last-wins"
        ),
    ],
)
def test_global_options_are_accepted_after_the_command(
    env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str]
) -> None:
    """--config works before, between and after the subcommands; the last one given wins."""
    config = tmp_path / "agentd.json"
    config.write_text(json.dumps({"llm": {"model": "chosen"}}))
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"llm": {"model": "overridden"}}))
    args = [a.format(cfg=config, other=other) for a in argv]
    assert cli.main(args) == 0
    out = capsys.readouterr().out
    assert f"# config file: {config}" in out and '"chosen"' in out and "overridden" not in out


def test_run_takes_config_after_the_command(
    env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """`agentd run --config bad.json` reads that file (and exits 78 on it), not a usage error."""
    bad = tmp_path / "bad.json"
    bad.write_text("{oops")
    assert cli.main(["run", "--config", str(bad), "--log-format", "json"]) == 78
    assert f"file {bad}" in capsys.readouterr().err


def test_log_format_after_the_command_is_used(env: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """--log-format after a nested subcommand reaches the parsed arguments."""
    from agentd.cli.main import _parser

    args = _parser().parse_args(["sessions", "list", "--log-format", "console"])
    assert args.log_format == "console" and args.config is None
    args = _parser().parse_args(["--log-format", "json", "sessions", "list"])
    assert args.log_format == "json"


def test_config_show_masks_url_passwords(
    env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """config show masks the password in every URL-valued setting (issue #15, finding 6)."""
    config = tmp_path / "agentd.json"
    config.write_text(json.dumps({"milvus": {"addr": "http://root:milvuspw@10.0.0.5:19530"}}))
    env.setenv("LLAMA_URL", "http://u:hunter2@127.0.0.1:1")
    env.setenv("AGENTD_CHANNELS__TELEGRAM__BASE_URL", "https://bot:tgpw@tg.example")
    rows = show(capsys, "--config", str(config))
    assert rows["llm.base_url"] == ('"http://u:***@127.0.0.1:1"', "env LLAMA_URL")
    assert rows["milvus.addr"][0] == '"http://root:***@10.0.0.5:19530"'
    out = json.dumps(rows)
    for secret in ("hunter2", "milvuspw", "tgpw"):
        assert secret not in out


def test_flat_env_wins_over_nested_in_config_show(
    env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """AGENT_MAX_MESSAGES wins over AGENTD_DEFAULT__MAX_MESSAGES, and show says so."""
    env.setenv("AGENTD_DEFAULT__MAX_MESSAGES", "10")
    env.setenv("AGENT_MAX_MESSAGES", "20")
    assert show(capsys)["default.max_messages"] == ("20", "env AGENT_MAX_MESSAGES")


def test_config_schema_writes_the_schema(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """config schema writes the JSON Schema where asked, without loading settings."""
    out = tmp_path / "sub" / "schema.json"
    assert cli.main(["config", "schema", "-o", str(out)]) == 0
    assert json.loads(out.read_text()) == json_schema()
    assert f"wrote {out}" in capsys.readouterr().out


def test_committed_schema_is_not_stale(tmp_path: Path) -> None:
    """config/agentd.schema.json is what `agentd config schema` writes now (run `make schema`)."""
    committed = ROOT / "config" / "agentd.schema.json"
    assert json.loads(committed.read_text()) == json_schema(), "run `make schema` and commit"
    fresh = tmp_path / "schema.json"
    cli.main(["config", "schema", "-o", str(fresh)])
    assert committed.read_text() == fresh.read_text()


def test_chat_without_local_explains(
    env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """chat without --local and no daemon listening says how to start one (or use --local)."""
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    env.setenv("AGENTD_CHANNELS__HTTP__PORT", str(port))
    assert cli.main(["chat", "-m", "hi"]) == 69
    err = capsys.readouterr().err
    assert "agentd run" in err and "--local" in err


def test_chat_one_shot(
    env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], stub_llm: StubLLM
) -> None:
    """chat --local -m prints the streamed answer and exits 0."""
    env.setenv("LLAMA_URL", stub_llm.url)
    stub_llm.add(Reply(text="Hello from the stub."))
    assert cli.main(["--log-format", "json", "chat", "--local", "-m", "hi"]) == 0
    captured = capsys.readouterr()
    assert captured.out == "Hello from the stub.\n"
    events = [json.loads(line) for line in captured.err.splitlines()]
    end = next(e for e in events if e["event"] == "turn.end")
    assert end["session"] == "console:local" and end["status"] == "ok" and end["run_id"]
    assert stub_llm.requests[0]["messages"][-1] == {"role": "user", "content": "hi"}


def test_chat_empty_answer_says_so(
    env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], stub_llm: StubLLM
) -> None:
    """An empty answer is asked for again; empty twice, the turn says so instead of nothing."""
    env.setenv("LLAMA_URL", stub_llm.url)
    stub_llm.add(Reply(text=""), Reply(text=""))
    assert cli.main(["chat", "--local", "-m", "hi"]) == 0
    assert capsys.readouterr().out == NO_ANSWER + "\n"


def test_chat_repl_keeps_the_session(
    env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], stub_llm: StubLLM
) -> None:
    """The REPL runs one turn per line in one session and exits 0 at end of input."""
    env.setenv("LLAMA_URL", stub_llm.url)
    lines = iter(["first", "   ", "second"])

    def fake_input(prompt: str = "") -> str:
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    env.setattr("builtins.input", fake_input)
    assert cli.main(["chat", "--local", "--session", "mine"]) == 0
    out = capsys.readouterr().out
    assert out == "echo: first\necho: second\n"
    second = stub_llm.requests[1]["messages"]
    assert [m["content"] for m in second[1:]] == ["first", "echo: first", "second"]


def test_chat_model_error_exits_69(
    env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], stub_llm: StubLLM
) -> None:
    """A model error during a turn is one line on stderr and exit status 69."""
    env.setenv("LLAMA_URL", stub_llm.url)
    stub_llm.add(Reply(text="context too long", status=400))
    assert cli.main(["chat", "--local", "-m", "hi"]) == 69
    assert "agentd: model server answered HTTP 400: context too long" in capsys.readouterr().err


def test_chat_nothing_answers_exits_69(
    env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """With nothing at LLAMA_URL chat says so and exits 69."""
    stub = StubLLM()
    stub.start()
    url = stub.url
    stub.stop()
    env.setenv("LLAMA_URL", url)
    assert cli.main(["chat", "--local", "-m", "hi"]) == 69
    assert "no model server answers" in capsys.readouterr().err


def test_keyboard_interrupt_exits_130(env: pytest.MonkeyPatch) -> None:
    """Ctrl-C during a command exits 130 without a traceback."""

    def interrupted(*args: object) -> int:
        raise KeyboardInterrupt

    env.setattr(cli_chat, "_handler", interrupted)
    assert cli.main(["chat", "--local"]) == 130


def test_chat_runs_a_tool_call_written_as_text(
    env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], stub_llm: StubLLM, tmp_path: Path
) -> None:
    """A local model writing its tool call as text gets the tool run; the user sees no JSON."""
    env.setenv("LLAMA_URL", stub_llm.url)
    (tmp_path / "workdir").mkdir()
    (tmp_path / "workdir" / "todo.md").write_text("- [ ] water the plants\n")
    stub_llm.add(
        Reply(text='Checking. <tool_call>{"name": "read_file", "arguments": {"path": "todo.md"}}'),
        Reply(text="You still have to water the plants."),
    )
    assert cli.main(["chat", "--local", "-m", "what is left?"]) == 0
    assert capsys.readouterr().out == "Checking. You still have to water the plants.\n"
    second = stub_llm.requests[1]["messages"]
    assert second[-3]["tool_calls"][0]["function"]["name"] == "read_file"
    assert second[-1]["role"] == "user"  # agentd's reminder of the request
    assert second[-2] == {
        "role": "tool",
        "content": "- [ ] water the plants\n",
        "tool_call_id": second[-3]["tool_calls"][0]["id"],
        "name": "read_file",
    }


def test_config_show_warns_about_an_open_state_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A state folder left 0755 by an older start is named in a warning, with the fix."""
    state = tmp_path / "state"
    state.mkdir(mode=0o755)
    os.chmod(state, 0o755)
    monkeypatch.setenv("AGENTD_STATE_DIR", str(state))
    assert cli.main(["config", "show"]) == 0
    out = capsys.readouterr().out
    assert f"# WARNING: {state} is open to others" in out and f"chmod 700 {state}" in out
    os.chmod(state, 0o700)
    assert cli.main(["config", "show"]) == 0
    assert "open to others" not in capsys.readouterr().out
