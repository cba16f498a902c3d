"""``agentd memory save/search/delete/stats`` on Milvus Lite, embeddings from the stub LLM."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentd.cli.main import _parser
from agentd.cli.remote_memory import _memory
from agentd.config import load_settings
from agentd.memory.longterm import memories_text
from tests.support.milvus_server import free_port
from tests.support.stub_llm import StubLLM


def main(argv: list[str]) -> int:
    """The CLI's parse and dispatch, without configuring logging (it binds pytest's stderr)."""
    args = _parser().parse_args(argv)
    code: int = args.handler(args, load_settings())
    return code


def _lines(capsys: pytest.CaptureFixture[str]) -> list[str]:
    """What the command printed, without the log lines of unconfigured structlog."""
    return [line for line in capsys.readouterr().out.splitlines() if " [info " not in line]


@pytest.fixture
def memory_env(stub_llm: StubLLM, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Settings for the CLI: the stub LLM and a Milvus Lite path of the test's own."""
    monkeypatch.setenv("LLAMA_URL", stub_llm.url)
    monkeypatch.setenv("AGENTD_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setenv("AGENTD_LLM__MAX_RETRIES", "0")
    return tmp_path / "state" / "milvus.db"


def test_save_search_delete_stats(memory_env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A saved memory is found (with its tag filter), counted, deleted and gone."""
    assert main(["memory", "save", "Ann likes green tea", "--tag", "pref"]) == 0
    key = _lines(capsys)[-1]
    assert main(["memory", "save", "the car is blue"]) == 0
    capsys.readouterr()

    assert main(["memory", "search", "green tea", "--top-k", "5", "--tag", "PREF"]) == 0
    out = "\n".join(line for line in _lines(capsys) if line.startswith("- "))
    assert key in out and "Ann likes green tea" in out and "[pref]" in out
    assert "car" not in out

    assert main(["memory", "stats"]) == 0
    stats = "\n".join(_lines(capsys))
    assert "milvus-lite" in stats and "memories   2 (tenant default)" in stats

    assert main(["memory", "delete", key]) == 0
    assert main(["memory", "delete", key]) == 1
    assert "no memory" in capsys.readouterr().err
    assert main(["memory", "search", "green tea", "--tag", "pref"]) == 0
    assert "no memories found" in capsys.readouterr().out
    assert memory_env.is_dir()


def test_refused_input_exits_65(memory_env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A key with characters no memory key has is refused with the reason."""
    assert main(["memory", "delete", 'x" or true']) == 65
    assert "not a memory key" in capsys.readouterr().err


def test_unreachable_server_exits_69(
    memory_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """No Milvus at the address: one line saying so, exit 69."""
    monkeypatch.setenv("MILVUS_ADDR", f"http://127.0.0.1:{free_port()}")
    assert main(["memory", "stats"]) == 69
    assert "memory unavailable: cannot open Milvus" in capsys.readouterr().err


def test_memory_off_exits_2(memory_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With MEMORY_EMBED=false the commands refuse to run."""
    monkeypatch.setenv("MEMORY_EMBED", "false")
    assert main(["memory", "stats"]) == 2


def test_tenant_flag_keeps_memories_apart(
    memory_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--tenant saves, finds, counts and deletes only that tenant's memories."""
    assert main(["memory", "save", "Ann likes green tea"]) == 0
    ours = _lines(capsys)[-1]
    assert main(["memory", "save", "Bo likes green tea", "--tenant", "telegram:42"]) == 0
    theirs = _lines(capsys)[-1]

    assert main(["memory", "search", "green tea", "--tenant", "telegram:42"]) == 0
    out = "\n".join(_lines(capsys))
    assert "Bo likes" in out and "Ann likes" not in out
    assert main(["memory", "search", "green tea"]) == 0
    out = "\n".join(_lines(capsys))
    assert "Ann likes" in out and "Bo likes" not in out

    assert main(["memory", "stats", "--tenant", "telegram:42"]) == 0
    assert "memories   1 (tenant telegram:42)" in "\n".join(_lines(capsys))
    assert main(["memory", "delete", ours, "--tenant", "telegram:42"]) == 1
    assert main(["memory", "delete", theirs]) == 1
    assert main(["memory", "delete", theirs, "--tenant", "telegram:42"]) == 0


def test_bad_tenant_name_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    """--tenant with a name outside the tenant pattern stops at parsing (exit 2), naming it."""
    with pytest.raises(SystemExit) as exited:
        _parser().parse_args(["memory", "stats", "--tenant", "../etc"])
    assert exited.value.code == 2
    assert "not a tenant name" in capsys.readouterr().err


def test_a_memory_from_the_daemon_keeps_its_words_and_times() -> None:
    """The CLI through the daemon shows what the daemon answers: the user's words too."""
    row = {"id": "k", "content": "Likes tea.", "ts": 3, "confirmed": 4, "words": "I like tea!"}
    memory = _memory(row)
    assert (memory.words, memory.ts, memory.confirmed) == ("I like tea!", 3, 4)
    assert memories_text([memory]).endswith("\n  said: I like tea!")
