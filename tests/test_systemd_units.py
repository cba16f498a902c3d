"""The shipped systemd units: valid (systemd-analyze verify) and hardened (exposure <= 2.0)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

UNITS = sorted((Path(__file__).parent.parent / "systemd").glob("*.service"))
ANALYZE = shutil.which("systemd-analyze")
needs_analyze = pytest.mark.skipif(
    ANALYZE is None and not __import__("os").environ.get("CI"),
    reason="systemd-analyze is not installed (CI installs it)",
)


def _localised(unit: Path, tmp_path: Path) -> Path:
    """The unit with its /opt/agentd paths pointed at this checkout's executables."""
    venv_bin = Path(sys.executable).parent
    text = unit.read_text().replace("/opt/agentd/.venv/bin", str(venv_bin))
    text = re.sub(r"ExecStart=(\S*llama-server)", f"ExecStart={shutil.which('true')}", text)
    out = tmp_path / unit.name
    out.write_text(text)
    return out


def test_units_exist() -> None:
    """agentd.service ships with the hardening options the daemon relies on."""
    names = {u.name for u in UNITS}
    assert "agentd.service" in names
    text = (Path(__file__).parent.parent / "systemd" / "agentd.service").read_text()
    for option in (
        "Type=notify",
        "WatchdogSec=",
        "RestartPreventExitStatus=65 78",
        "ProtectSystem=strict",
        "NoNewPrivileges=yes",
        "SystemCallFilter=",
        "CapabilityBoundingSet=",
        "RestrictAddressFamilies=",
    ):
        assert option in text, option


@needs_analyze
@pytest.mark.parametrize("unit", UNITS, ids=[u.name for u in UNITS])
def test_unit_verifies(unit: Path, tmp_path: Path) -> None:
    """systemd-analyze verify finds nothing wrong with the unit."""
    assert ANALYZE is not None
    proc = subprocess.run(
        [ANALYZE, "verify", str(_localised(unit, tmp_path))],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr


@needs_analyze
@pytest.mark.parametrize("unit", UNITS, ids=[u.name for u in UNITS])
def test_unit_exposure_at_most_2(unit: Path, tmp_path: Path) -> None:
    """systemd-analyze security rates the unit's exposure at 2.0 or below."""
    assert ANALYZE is not None
    proc = subprocess.run(
        [ANALYZE, "security", "--offline=true", str(_localised(unit, tmp_path))],
        capture_output=True,
        text=True,
        check=False,
    )
    match = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", proc.stdout)
    assert match, proc.stdout + proc.stderr
    assert float(match.group(1)) <= 2.0


def test_the_replica_template_gives_each_instance_its_own_state_and_port() -> None:
    """agentd@PORT.service: state dir, workdir and HTTP port per instance; shared env file."""
    text = (Path(__file__).parent.parent / "systemd" / "agentd@.service").read_text()
    for option in (
        "StateDirectory=agentd/%i",
        "AGENTD_STATE_DIR=/var/lib/agentd/%i/state",
        "AGENTD_CHANNELS__HTTP__PORT=%i",
        "EnvironmentFile=-/etc/agentd/replicas.env",
        "Type=notify",
    ):
        assert option in text, option
