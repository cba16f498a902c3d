"""A real Milvus standalone server for tests: the PyPI package ``milvus`` (``milvus-server``).

It runs Milvus with an embedded etcd from a data directory. Every port it listens on is chosen
free: the package picks the Milvus ones itself, and the embedded etcd's client and peer ports
(fixed at 2379/2380 otherwise) come from an etcd config file passed as ``ETCD_CONFIG_PATH``.
The server runs in its own process group, so :meth:`kill` ends the wrapper and Milvus together.
A server killed this way takes minutes to start again on the same data (its old etcd sessions
must expire first), so a test that kills one starts a server of its own.
"""

from __future__ import annotations

import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

COMPONENTS = ("proxy", "rootCoord", "queryCoord", "queryNode", "indexNode", "dataCoord", "dataNode")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def server_binary() -> str | None:
    beside = Path(sys.executable).with_name("milvus-server")
    return str(beside) if beside.exists() else shutil.which("milvus-server")


class MilvusServer:
    """One ``milvus-server`` on 127.0.0.1; :meth:`start` returns when it answers."""

    def __init__(self, data_dir: Path, binary: str) -> None:
        self.data_dir = data_dir
        self.binary = binary
        self.port = free_port()
        self._etcd = (free_port(), free_port())
        self._proc: subprocess.Popen[bytes] | None = None

    @property
    def uri(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 120.0) -> None:
        client, peer = self._etcd
        self.data_dir.mkdir(parents=True, exist_ok=True)
        etcd_config = self.data_dir / "etcd.yaml"
        etcd_config.write_text(
            "name: default\n"
            f"listen-client-urls: http://127.0.0.1:{client}\n"
            f"advertise-client-urls: http://127.0.0.1:{client}\n"
            f"listen-peer-urls: http://127.0.0.1:{peer}\n"
            f"initial-advertise-peer-urls: http://127.0.0.1:{peer}\n"
            f"initial-cluster: default=http://127.0.0.1:{peer}\n"
        )
        args = [self.binary, "--data", str(self.data_dir / "milvus")]
        args += ["--proxy-port", str(self.port), "--etcd-port", str(client)]
        for component in COMPONENTS:
            args += ["--extra-config", f"{component}.ip=127.0.0.1"]
        env = {**os.environ, "ETCD_CONFIG_PATH": str(etcd_config)}
        log = (self.data_dir / "server.log").open("ab")
        self._proc = subprocess.Popen(
            args, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True
        )
        log.close()
        self._wait_ready(timeout)

    def _wait_ready(self, timeout: float) -> None:
        from pymilvus import MilvusClient

        logging.getLogger("pymilvus").setLevel(logging.CRITICAL)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._proc is None or self._proc.poll() is not None:
                raise RuntimeError(f"milvus-server exited; see {self.data_dir / 'server.log'}")
            try:
                client = MilvusClient(uri=self.uri, timeout=2)
                client.list_collections(timeout=2)
                client.close()
                return
            except Exception:
                time.sleep(0.3)
        self.kill()
        raise TimeoutError(f"milvus-server did not answer within {timeout:g}s")

    def kill(self) -> None:
        """SIGKILL the server's process group (the crash a test simulates), and reap it."""
        if self._proc is None:
            return
        try:
            os.killpg(self._proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self._proc.wait(timeout=30)
        self._proc = None
