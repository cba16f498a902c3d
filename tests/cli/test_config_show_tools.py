"""agentd config show: the effective tool policy, and a warning for exec without a sandbox."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
import structlog

from agentd import cli
from agentd.config import Settings


@pytest.fixture(autouse=True)
def _restore_logging() -> Iterator[None]:
    """main() configures logging for the process; undo it after each test."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    structlog.reset_defaults()
    root.handlers[:] = handlers
    root.setLevel(level)


def test_config_show_prints_the_policy(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """config show lists each audience's tools, tenants' own rules, and exec's network."""
    monkeypatch.delenv("AGENTD_CONFIG", raising=False)
    config = tmp_path / "agentd.json"
    config.write_text(
        json.dumps(
            {
                "memory": {"embed": False},
                "tenants": {"kids": {"tools": {"deny": ["web_fetch"]}}},
                "tools": {"policy": {"console": {"exec_network": True}}},
            }
        )
    )
    assert cli.main(["--config", str(config), "config", "show"]) == 0
    out = capsys.readouterr().out
    assert "# tool policy" in out
    assert "#   console: append_file, current_time, edit_file, exec," in out
    assert "exec network: on" in out
    assert "#   telegram_group: " in out and "; not offered: exec" in out
    assert "#   http_user (tenant kids): " in out and "not offered: exec, web_fetch" in out


def test_config_show_flags_running_unsandboxed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """tools.exec.unsandboxed is flagged, louder when bwrap is missing."""
    monkeypatch.delenv("AGENTD_CONFIG", raising=False)
    config = tmp_path / "agentd.json"
    settings = {"exec": {"unsandboxed": True, "bwrap": "no-such-bwrap"}}
    config.write_text(json.dumps({"tools": settings}))
    assert cli.main(["--config", str(config), "config", "show"]) == 0
    assert "# WARNING: tools.exec.unsandboxed is set and bubblewrap is missing" in (
        capsys.readouterr().out
    )
    assert Settings(tools=settings).tools.exec.unsandboxed  # type: ignore[arg-type]
