"""The SDK is imported only when a server is connected, and then off the event loop."""

from __future__ import annotations

import subprocess
import sys

CHECK = """
import sys
import agentd.cli.main, agentd.cli.mcp, agentd.daemon.app, agentd.mcp.servers, agentd.mcp.link
heavy = sorted(m for m in sys.modules if m.split(".")[0] in ("mcp", "mcp_types", "httpx2"))
print(",".join(heavy))
"""


def test_the_daemon_and_cli_modules_do_not_import_the_sdk() -> None:
    """Loading the wiring and the MCP modules leaves mcp, mcp_types and httpx2 unimported."""
    out = subprocess.run(
        [sys.executable, "-c", CHECK], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout.strip() == ""
