"""The sidecar's slots saved at shutdown and restored at start (a llama-server stand-in)."""

from __future__ import annotations

import json
import stat
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest

from agentd.config import LLMSettings, MemorySettings, Settings, SidecarSettings
from agentd.engine.warmup import Prefix, Warmup
from agentd.messages import Message
from agentd.model import sidecar as sidecar_mod
from agentd.model.pinning import SlotPins
from agentd.model.slots import SlotFiles
from agentd.model.usage import Usage
from tests.support import fake_llama_server

URL = "http://127.0.0.1:8080"


class SlotServer:
    """llama-server's slot endpoints: a slot's tokens written to and read from its file."""

    def __init__(self, directory: Path, tokens: list[int]) -> None:
        self.directory = directory
        self.tokens = tokens
        self.calls: list[tuple[str, int]] = []
        self.refuse = False

    def __call__(self, request: httpx.Request) -> httpx.Response:
        if request.url.path == "/props":
            return httpx.Response(200, json={"total_slots": len(self.tokens)})
        slot = int(request.url.path.rsplit("/", 1)[1])
        action = request.url.params["action"]
        self.calls.append((action, slot))
        if self.refuse:
            return httpx.Response(400, json={"error": {"message": "no"}})
        path = self.directory / json.loads(request.content)["filename"]
        if action == "save":
            path.write_text(str(self.tokens[slot]))
            return httpx.Response(200, json={"id_slot": slot, "n_saved": self.tokens[slot]})
        self.tokens[slot] = int(path.read_text())
        return httpx.Response(200, json={"id_slot": slot, "n_restored": self.tokens[slot]})


def _files(server: SlotServer) -> SlotFiles:
    http = httpx.AsyncClient(transport=httpx.MockTransport(server))
    return SlotFiles(http, URL, server.directory)


@pytest.mark.anyio
async def test_slots_are_saved_and_restored_into_the_same_slots(tmp_path: Path) -> None:
    """Every slot holding a prompt is saved (an empty one leaves no file); a new server gets
    each saved slot back, and only those."""
    old = SlotServer(tmp_path, [3054, 0, 120])
    (tmp_path / "slot-1.bin").write_text("999")  # a previous run's: slot 1 is empty now
    assert await _files(old).save() == 3174
    names = sorted([p.name async for p in anyio.Path(tmp_path).iterdir()])
    assert names == ["slot-0.bin", "slot-2.bin"]
    new = SlotServer(tmp_path, [0, 0, 0])
    assert await _files(new).restore() == 3174
    assert new.tokens == [3054, 0, 120]
    assert [c for c in new.calls if c[0] == "restore"] == [("restore", 0), ("restore", 2)]


@pytest.mark.anyio
async def test_sessions_find_their_slots_again_after_a_restart(tmp_path: Path) -> None:
    """The pins are saved beside the slots and, when slots were restored, taken back: each
    session is pinned to the slot that holds its cache again."""
    old, pins = SlotServer(tmp_path, [3054, 120, 0]), SlotPins(2)
    for session in ("alice", "bob"):
        with pins.hold(("t", session)):
            pass
    http = httpx.AsyncClient(transport=httpx.MockTransport(old))
    await SlotFiles(http, URL, tmp_path, pins).save()
    assert (tmp_path / "pins.json").stat().st_mode & 0o777 == 0o600
    new, after = SlotServer(tmp_path, [0, 0, 0]), SlotPins(2)
    http = httpx.AsyncClient(transport=httpx.MockTransport(new))
    assert await SlotFiles(http, URL, tmp_path, after).restore() == 3174
    with after.hold(("t", "bob")) as bob, after.hold(("t", "alice")) as alice:
        assert (alice, bob) == (0, 1)


@pytest.mark.anyio
async def test_a_warmed_slot_is_copied_into_the_empty_session_slots(tmp_path: Path) -> None:
    """The warm-up's slot is saved once and restored into each target; the file that carried
    it is gone after; a server that refuses copies nothing and raises nothing."""
    server = SlotServer(tmp_path, [1557, 0, 0, 0])
    assert await _files(server).copy(0, [1, 2]) == 2 * 1557
    assert server.tokens == [1557, 1557, 1557, 0]
    assert server.calls == [("save", 0), ("restore", 1), ("restore", 2)]
    assert not [p async for p in anyio.Path(tmp_path).iterdir()]
    server.refuse = True
    assert await _files(server).copy(0, [3]) == 0
    assert server.tokens[3] == 0


def test_the_empty_session_slots_are_those_no_session_took_or_holds() -> None:
    pins = SlotPins(3)
    assert pins.empty() == [0, 1, 2]
    with pins.hold(("t", "a")) as a:
        assert a == 0 and pins.empty() == [1, 2]
    assert pins.empty() == [1, 2]  # a's slot stays a's
    pins.restore({"digest-of-b": 2})
    assert pins.empty() == [1]


@pytest.mark.anyio
async def test_a_refusing_or_absent_server_restores_nothing_and_raises_nothing(
    tmp_path: Path,
) -> None:
    """A server that refuses (another build, a bad file) or is gone costs nothing but a log."""
    (tmp_path / "slot-0.bin").write_text("12")
    refusing = SlotServer(tmp_path, [0])
    refusing.refuse = True
    assert await _files(refusing).restore() == 0

    def gone(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("refused", request=request)

    http = httpx.AsyncClient(transport=httpx.MockTransport(gone))
    assert await SlotFiles(http, URL, tmp_path).save() == 0
    assert await SlotFiles(http, URL, tmp_path).restore() == 0


def _settings(tmp_path: Path, **sidecar: object) -> Settings:
    gguf = tmp_path / "model.gguf"
    gguf.write_bytes(b"GGUF")
    options: dict[str, object] = {
        "enabled": True,
        "binary": fake_llama_server.install(tmp_path),
        "model_path": gguf,
        **sidecar,
    }
    return Settings(
        state_dir=tmp_path / "state",
        llm=LLMSettings(sidecar=SidecarSettings.model_validate(options)),
    )


def test_the_sidecar_saves_into_a_private_folder_of_its_configuration(tmp_path: Path) -> None:
    """The server is told a private folder named by model, context, slots and build; another
    configuration's folder goes; keep_slots off passes no folder."""
    stale = tmp_path / "state" / "slots" / "0123456789abcdef"
    stale.mkdir(parents=True)
    (stale / "slot-0.bin").write_text("old")
    sidecar = sidecar_mod.build_sidecar(_settings(tmp_path))
    folder = sidecar.slot_dir
    assert folder is not None and folder.parent == tmp_path / "state" / "slots"
    assert " ".join(sidecar.command).count(f"--slot-save-path {folder}") == 1
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE(folder.parent.stat().st_mode) == 0o700
    assert not stale.exists()
    other = sidecar_mod.build_sidecar(_settings(tmp_path, context=4096))
    assert other.slot_dir != folder and not folder.exists()
    off = sidecar_mod.build_sidecar(_settings(tmp_path, keep_slots=False))
    assert off.slot_dir is None and "--slot-save-path" not in off.command


class Counting:
    """A warm call that counts its requests."""

    def __init__(self) -> None:
        self.sent = 0

    async def __call__(self, messages: list[Message], tools: Any) -> Usage:
        self.sent += 1
        return Usage(10, 1)


async def _first() -> list[Prefix]:
    return [Prefix([])]


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("restored", "requests"),
    [
        pytest.param(3054, 0, id="restored"),
        pytest.param(0, 1, id="none-saved"),
        pytest.param(OSError("disk"), 1, id="failed"),
    ],
)
async def test_restored_slots_stand_in_for_the_warm_up(
    restored: int | Exception, requests: int
) -> None:
    """Saved slots restored: no warm-up request (it would overwrite one); none restored, or
    the restore failed: it is sent."""
    warm = Counting()

    async def restore() -> int:
        if isinstance(restored, Exception):
            raise restored
        return restored

    warmup = Warmup(_first, warm, enabled=True, restore=restore)
    async with anyio.create_task_group() as tg:
        tg.start_soon(warmup.serve)
        with anyio.fail_after(5):
            while warmup.state != "done":  # noqa: ASYNC110 - a plain attribute
                await anyio.sleep(0.01)
        tg.cancel_scope.cancel()
    assert warm.sent == requests


@pytest.mark.anyio
async def test_the_daemon_saves_its_slots_on_exit_and_restores_them_after_a_restart(
    tmp_path: Path,
) -> None:
    """open_app saves every slot before its sidecar stops; the next run's warm-up restores
    them and is done without its request (which the stand-in server would fail)."""
    from agentd.daemon.app import open_app

    settings = _settings(tmp_path).model_copy(
        update={"workdir": tmp_path / "workdir", "memory": MemorySettings(embed=False)}
    )
    (tmp_path / "workdir").mkdir()
    async with open_app(settings) as app:
        assert app.sidecar is not None and app.sidecar.slot_dir is not None
        folder = anyio.Path(app.sidecar.slot_dir)
        assert not [p async for p in folder.iterdir()]
    names = sorted([p.name async for p in folder.iterdir()])
    assert names == ["pins.json", *(f"slot-{i}.bin" for i in range(fake_llama_server.SLOTS))]
    assert (await (folder / "pins.json").stat()).st_mode & 0o777 == 0o600
    async with open_app(settings) as app:
        warmup = app.warmup
        assert warmup is not None and warmup.state == "pending"
        async with anyio.create_task_group() as tg:
            tg.start_soon(warmup.serve)
            with anyio.fail_after(10):
                while warmup.state == "pending":  # noqa: ASYNC110 - a plain attribute
                    await anyio.sleep(0.01)
            tg.cancel_scope.cancel()
        assert warmup.state == "done"
