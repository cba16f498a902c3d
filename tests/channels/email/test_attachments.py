"""Attachments saved into a workdir: safe names, private files, no escape, a size limit."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from channels.email.attachments import MAX_NAME, safe_name, save_attachments
from channels.email.mail import Attachment


@pytest.mark.parametrize(
    ("given", "name"),
    [
        pytest.param("report.pdf", "report.pdf", id="plain"),
        pytest.param("../../etc/passwd", "passwd", id="traversal"),
        pytest.param("..\\..\\boot.ini", "boot.ini", id="backslashes"),
        pytest.param("/abs/path.txt", "path.txt", id="absolute"),
        pytest.param("a\0b.txt", "ab.txt", id="nul"),
        pytest.param("..", "attachment", id="dotdot"),
        pytest.param(".bashrc", "bashrc", id="hidden"),
        pytest.param("", "attachment", id="empty"),
        pytest.param("new\nline\r.txt", "newline.txt", id="control"),
        pytest.param("a b;c|d.txt", "a_b_c_d.txt", id="shell"),
        pytest.param("\uff32\u00e9sum\u00e9.txt", "R\u00e9sum\u00e9.txt", id="unicode"),
    ],
)
def test_safe_name(given: str, name: str) -> None:
    """Hostile names become one harmless path component."""
    assert safe_name(given) == name


def test_huge_name_is_cut_keeping_the_extension() -> None:
    """A name of 10,000 characters is cut to MAX_NAME, its extension kept."""
    got = safe_name("a" * 10_000 + ".pdf")
    assert len(got) == MAX_NAME and got.endswith(".pdf")


def test_saved_private_inside_the_folder(tmp_path: Path) -> None:
    """Files are 0600 in a 0700 folder of the workdir; a taken name gets a suffix."""
    items = [Attachment("x.txt", "text/plain", b"one"), Attachment("x.txt", "text/plain", b"two")]
    saved = save_attachments(items, tmp_path, "mail/in", prefix="7-1", max_bytes=100)
    assert [s.path for s in saved] == ["mail/in/7-1-x.txt", "mail/in/7-1-x-1.txt"]
    assert (tmp_path / "mail/in/7-1-x-1.txt").read_bytes() == b"two"
    for path in (tmp_path / "mail/in").iterdir():
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(tmp_path / "mail").st_mode) == 0o700


def test_over_the_limit_is_listed_not_saved(tmp_path: Path) -> None:
    """An attachment larger than the limit is described but not written."""
    saved = save_attachments(
        [Attachment("big.bin", "application/octet-stream", b"x" * 11)],
        tmp_path,
        "mail",
        prefix="p",
        max_bytes=10,
    )
    assert saved[0].path is None
    assert saved[0].describe() == (
        "big.bin (application/octet-stream, 11 bytes): not saved, over the size limit"
    )
    assert not (tmp_path / "mail").exists()


def test_symlinked_folder_is_refused(tmp_path: Path) -> None:
    """A symlink planted where the folder goes is never followed out of the workdir."""
    outside = tmp_path / "outside"
    outside.mkdir()
    workdir = tmp_path / "workdir"
    workdir.mkdir()
    (workdir / "mail").symlink_to(outside)
    saved = save_attachments(
        [Attachment("a.txt", "text/plain", b"x")], workdir, "mail", prefix="p", max_bytes=10
    )
    assert saved[0].path is None
    assert list(outside.iterdir()) == []


@pytest.mark.parametrize(
    "data",
    [
        pytest.param(b"new", id="other-bytes"),
        # Never taken for the file saved before a restart, whatever it holds.
        pytest.param(b"keep", id="same-bytes"),
    ],
)
def test_symlinked_file_name_is_not_written_through(tmp_path: Path, data: bytes) -> None:
    """A symlink with the attachment's name is skipped; the file gets another name."""
    target = tmp_path / "target"
    target.write_bytes(b"keep")
    folder = tmp_path / "w" / "mail"
    folder.mkdir(parents=True)
    (folder / "p-a.txt").symlink_to(target)
    saved = save_attachments(
        [Attachment("a.txt", "text/plain", data)],
        tmp_path / "w",
        "mail",
        prefix="p",
        max_bytes=10,
    )
    assert saved[0].path == "mail/p-a-1.txt"
    assert target.read_bytes() == b"keep"


def test_the_same_mail_saved_again_keeps_its_names(tmp_path: Path) -> None:
    """Saving a mail's attachments a second time (after a restart) reuses the files holding
    the same bytes, so the turn's text is the same; other bytes still get a new name."""
    items = [Attachment("x.txt", "text/plain", b"one"), Attachment("x.txt", "text/plain", b"two")]
    first = save_attachments(items, tmp_path, "mail", prefix="7-1", max_bytes=100)
    again = save_attachments(items, tmp_path, "mail", prefix="7-1", max_bytes=100)
    assert [s.path for s in again] == [s.path for s in first]
    assert sorted(p.name for p in (tmp_path / "mail").iterdir()) == ["7-1-x-1.txt", "7-1-x.txt"]
    other = save_attachments(
        [Attachment("x.txt", "text/plain", b"three")], tmp_path, "mail", prefix="7-1", max_bytes=9
    )
    assert other[0].path == "mail/7-1-x-2.txt"
