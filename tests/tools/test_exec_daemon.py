"""exec and web_fetch through the daemon: the stub model calls them, the sandbox holds.

One daemon (HTTP channel, admin token and a non-admin principal) serves the module; the stub
model calls the tool named in the user's message and answers with its result, so each test
reads what the tool returned. Escape attempts run as commands a hostile model could send.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest

from agentd.model.sidecar import free_port
from tests.support.bwrap import needs_bwrap
from tests.support.daemon import NotifySocket, daemon, http_token, write_config
from tests.support.stub_llm import StubLLM, running_stub
from tests.support.tool_agent import tool_agent

pytestmark = needs_bwrap

SECRET = "zqdaemonsecretq"
GUEST = "guest-token-0123456789abcdef"
BIG = 5_000_000


@dataclass
class Daemon:
    stub: StubLLM
    url: str
    token: str
    pid: int
    tmp: Path
    web: str

    def call(self, tool: str, arguments: dict[str, Any], *, token: str | None = None) -> str:
        """What the tool returned when the model called it (the reply's ``RESULT:`` part)."""
        import json

        body = {
            "model": "agentd",
            "messages": [{"role": "user", "content": f"TOOL:{tool} {json.dumps(arguments)}"}],
        }
        reply = httpx.post(
            f"{self.url}/v1/chat/completions",
            json=body,
            headers={"Authorization": f"Bearer {token or self.token}"},
            timeout=60,
        )
        reply.raise_for_status()
        text: str = reply.json()["choices"][0]["message"]["content"]
        return text

    def exec(self, command: str, **extra: Any) -> str:
        return self.call("exec", {"command": command, **extra})


class _Site(BaseHTTPRequestHandler):
    """The loopback web server web_fetch is allowed to reach."""

    def do_GET(self) -> None:
        if self.path == "/page":
            self._send(
                b"<html><head><title>Notes page</title><style>p{}</style></head><body>"
                b"<h1>Heading</h1><p>First <b>para</b>.</p><script>secret()</script>"
                b"<ul><li>one</li><li>two</li></ul></body></html>",
                "text/html; charset=utf-8",
            )
        elif self.path.startswith("/redirect"):
            self.send_response(302)
            target = self.path.partition("?to=")[2]
            self.send_header("Location", target)
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif self.path == "/big":
            self._send(b"x" * BIG, "text/plain")
        elif self.path == "/slow":
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", "1000")
            self.end_headers()
            for _ in range(20):
                try:
                    self.wfile.write(b"z")
                    self.wfile.flush()
                except OSError:
                    return
                time.sleep(0.5)
        else:
            self._send(b"\x89PNG....", "image/png")

    def _send(self, body: bytes, kind: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    """The daemon with tight exec limits and web_fetch allowed to reach 127.0.0.1."""
    tmp = tmp_path_factory.mktemp("exec-daemon")
    site = ThreadingHTTPServer(("127.0.0.1", 0), _Site)
    threading.Thread(target=site.serve_forever, daemon=True).start()
    port = free_port()
    with running_stub() as stub:
        stub.fallback = tool_agent
        config = write_config(
            tmp / "config.json",
            tmp,
            stub.url,
            channels={
                "http": {
                    "enabled": True,
                    "port": port,
                    "principals": [{"name": "guest", "tenant": "guests", "token": GUEST}],
                    "rate_limit": {"requests_per_minute": 0},
                }
            },
            cron={"enabled": False},
            tools={
                "exec": {
                    "timeout": 5,
                    "max_timeout": 10,
                    "cpu_seconds": 5,
                    "memory_mb": 256,
                    "max_processes": 32,
                    "max_output_chars": 2000,
                },
                "web_fetch": {"allow": ["127.0.0.1"], "timeout": 3, "max_bytes": 100_000},
            },
            log={"level": "warning"},
        )
        (tmp / "workdir" / "notes.txt").write_text("one\ntwo\nthree\n")
        (tmp / "workdir" / "AGENTS.md").write_text("operator rules\n")
        notify = NotifySocket(tmp / "notify.sock")
        try:
            with daemon(config, notify, env={"SECRET_API_KEY": SECRET}) as proc:
                notify.wait_for("READY=1", timeout=60)
                yield Daemon(
                    stub,
                    f"http://127.0.0.1:{port}",
                    http_token(tmp),
                    proc.pid,
                    tmp,
                    f"http://127.0.0.1:{site.server_address[1]}",
                )
        finally:
            notify.close()
            site.shutdown()
            site.server_close()


def _processes(marker: str) -> list[int]:
    """Processes on this machine whose command line holds ``marker``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:
                continue
            if marker in cmdline:
                found.append(int(entry.name))
    return found


def test_a_normal_command(running: Daemon) -> None:
    """exec runs in the workdir and returns the exit status and output."""
    result = running.exec("wc -l notes.txt && pwd && echo oops >&2; exit 3")
    assert result.startswith("RESULT:exit status: 3")
    assert "3 notes.txt" in result
    assert "/workdir" in result
    assert "--- stderr ---\noops" in result


def test_files_written_stay_in_the_workdir(running: Daemon) -> None:
    """What a command writes in its folder lands in the tenant's workdir."""
    running.exec("echo made > made.txt")
    assert (running.tmp / "workdir" / "made.txt").read_text() == "made\n"


def test_no_shadow_file(running: Daemon) -> None:
    """/etc/shadow is not in the sandbox (only a whitelist of /etc is)."""
    result = running.exec("cat /etc/shadow; ls /etc")
    assert "/etc/shadow: No such file or directory" in result
    assert "passwd" in result
    assert "shadow\n" not in result.split("--- stderr ---")[0]


def test_no_writes_outside_the_workdir(running: Daemon, tmp_path: Path) -> None:
    """The system is read-only and the host's folders are not there."""
    target = tmp_path / "escaped.txt"
    result = running.exec(
        f"echo x > /usr/escaped; echo x > {target}; echo x > ../escaped; touch /etc/passwd"
    )
    assert "Read-only file system" in result
    assert not target.exists()
    assert not Path("/usr/escaped").exists()
    assert not (running.tmp / "escaped").exists()


def test_instruction_files_stay_read_only(running: Daemon) -> None:
    """A command can neither change, remove nor create the agent's instruction files."""
    result = running.exec(
        "echo evil > AGENTS.md; rm -f AGENTS.md; mv AGENTS.md gone.md; "
        "echo evil > HEARTBEAT.md; cat AGENTS.md"
    )
    assert "cannot create AGENTS.md: Read-only file system" in result
    assert "cannot create HEARTBEAT.md: Read-only file system" in result
    workdir = running.tmp / "workdir"
    assert (workdir / "AGENTS.md").read_text() == "operator rules\n"
    heartbeat = workdir / "HEARTBEAT.md"
    assert not heartbeat.exists() or heartbeat.read_text() == ""
    assert not (workdir / "gone.md").exists()


def test_no_network_to_loopback(running: Daemon) -> None:
    """A port listening on the host's 127.0.0.1 cannot be reached from the sandbox."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        server.settimeout(0.5)
        port = server.getsockname()[1]
        script = (
            "import socket\n"
            f"socket.create_connection(('127.0.0.1', {port}), timeout=2)\n"
            "print('connected')"
        )
        result = running.exec(f'python3 -c "{script}"')
        assert "connected" not in result.replace("ConnectionRefusedError", "")
        assert "ConnectionRefusedError" in result or "Network is unreachable" in result
        with pytest.raises(TimeoutError):
            server.accept()


def test_no_daemon_environment_or_process(running: Daemon) -> None:
    """The command sees a scrubbed environment and not the daemon's /proc entry."""
    result = running.exec(
        f"env; cat /proc/{running.pid}/environ; ls /proc/{running.pid}; "
        "cat /proc/1/environ; ls /proc | grep -c '^[0-9]'"
    )
    assert SECRET not in result
    assert "AGENTD" not in result
    assert f"/proc/{running.pid}/environ: No such file or directory" in result
    assert "HOME=/workdir" in result


def test_fork_bomb_is_bounded(running: Daemon) -> None:
    """A fork bomb meets the process limit and the command still ends."""
    started = time.monotonic()
    result = running.exec("f(){ f | f & }; f; sleep 1; echo after", timeout=4)
    assert "fork" in result.lower()
    assert time.monotonic() - started < 20
    assert not _processes("f | f")


def test_memory_hog_is_bounded(running: Daemon) -> None:
    """A process asking for more memory than the limit does not get it."""
    result = running.exec("python3 -c 'x = bytearray(1024 ** 3); print(len(x))'")
    assert "MemoryError" in result
    assert "1073741824" not in result


@pytest.mark.skipif(os.geteuid() != 0, reason="the memory cgroup is made by a root daemon")
def test_memory_of_all_processes_is_bounded(running: Daemon) -> None:
    """Processes each under the per-process limit cannot together pass memory_mb."""
    hog = "python3 -c 'x = bytearray(100 * 1024 ** 2); import time; time.sleep(1); print(\"kept\")'"
    result = running.exec(f"for i in 1 2 3 4 5; do {hog} & done; wait")
    assert 0 < result.count("kept") <= 2


def test_sleep_is_killed_at_the_timeout(running: Daemon) -> None:
    """A command past its timeout is killed, with every process it started."""
    started = time.monotonic()
    result = running.exec("sleep 101.5 & sleep 100.5", timeout=2)
    assert "ran past its timeout of 2s" in result
    assert time.monotonic() - started < 10
    # The command's own arguments: "sleep 10" also matched any host process that sleeps 10+ s.
    assert not _processes("sleep 101.5") and not _processes("sleep 100.5")


def test_huge_output_is_cut(running: Daemon) -> None:
    """100 MB of output is read as it comes and cut with a marker."""
    started = time.monotonic()
    result = running.exec("head -c 100000000 /dev/zero | tr '\\0' a; echo done >&2")
    assert "more bytes; stdout was cut" in result
    assert "99,99" in result  # how many bytes were dropped
    assert "--- stderr ---\ndone" in result
    assert len(result) < 3000
    assert time.monotonic() - started < 30


def test_a_non_admin_caller_is_not_offered_exec(running: Daemon) -> None:
    """The HTTP channel's non-admin principals do not see exec, and cannot call it."""
    before = len(running.stub.requests)
    result = running.call("exec", {"command": "id"}, token=GUEST)
    first = running.stub.requests[before]
    names = {t["function"]["name"] for t in first.get("tools") or []}
    assert "exec" not in names and "read_file" in names
    assert "unknown tool 'exec'" in result


def test_web_fetch_reads_a_page(running: Daemon) -> None:
    """An allowlisted loopback page comes back as readable text, without scripts."""
    result = running.call("web_fetch", {"url": f"{running.web}/page"})
    assert "title: Notes page" in result
    assert "Heading\nFirst para.\none\ntwo" in result
    assert "secret()" not in result


@pytest.mark.parametrize(
    "target",
    [
        pytest.param("http://10.1.2.3/", id="private"),
        pytest.param("http://169.254.169.254/latest/meta-data/", id="metadata"),
        pytest.param("http://[::1]:1/", id="ipv6-loopback"),
        pytest.param("http://[::ffff:192.168.0.1]/", id="ipv4-mapped"),
    ],
)
def test_web_fetch_refuses_a_redirect_to_a_private_address(running: Daemon, target: str) -> None:
    """A redirect from an allowed page to a private address is refused before connecting."""
    result = running.call("web_fetch", {"url": f"{running.web}/redirect?to={target}"})
    assert "not a public address" in result


def test_web_fetch_cuts_a_large_body(running: Daemon) -> None:
    """Only max_bytes of a large body are read, and the text is cut to max_chars."""
    result = running.call("web_fetch", {"url": f"{running.web}/big", "max_chars": 1000})
    assert "only that much was read" in result
    assert "more characters" in result
    assert len(result) < 1500


def test_web_fetch_times_out_on_a_slow_body(running: Daemon) -> None:
    """A body that trickles in is given up at the time limit."""
    started = time.monotonic()
    result = running.call("web_fetch", {"url": f"{running.web}/slow"})
    assert "timed out after 3s" in result
    assert time.monotonic() - started < 8


def test_web_fetch_describes_other_types(running: Daemon) -> None:
    """A non-text body is summarised by its type and size."""
    result = running.call("web_fetch", {"url": f"{running.web}/image.png"})
    assert "image/png content, 8 bytes: not text, not shown" in result


def test_no_sandbox_process_is_left(running: Daemon) -> None:
    """After all of the above, no bwrap of the daemon is running."""
    children = Path(f"/proc/{running.pid}/task/{running.pid}/children")
    pids = children.read_text().split() if children.exists() else []
    names = [
        Path(f"/proc/{p}/comm").read_text().strip() for p in pids if os.path.exists(f"/proc/{p}")
    ]
    assert "bwrap" not in names
