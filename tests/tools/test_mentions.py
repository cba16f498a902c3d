"""Which workdir files a message names: only regular files reached as the file tools reach them."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from agentd import scope as scopes
from agentd.tools.mentions import (
    MAX_FILES,
    MAX_LISTED,
    candidates,
    mentioned_files,
    named_paths,
    workdir_files,
    workdir_mentions,
)


def test_candidates_are_path_like_words_trimmed_of_punctuation() -> None:
    text = (
        'In settings.ini, change it; see https://example.org/a.html, "app.conf"? or '
        "./notes/a.md and `b.txt`. Not: hello, 3 cats, /etc/passwd or e.g. this."
    )
    assert candidates(text) == ["settings.ini", "app.conf", "notes/a.md", "b.txt", "e.g"]
    assert candidates("settings.ini and settings.ini again") == ["settings.ini"]


def test_only_regular_files_inside_the_workdir_count(tmp_path: Path) -> None:
    work = tmp_path / "work"
    (work / "notes").mkdir(parents=True)
    (work / "notes" / "a.md").write_text("a")
    (work / "app.conf").write_text("timeout = 11")
    (tmp_path / "secret.txt").write_text("outside")
    (work / "link.txt").symlink_to(tmp_path / "secret.txt")
    (work / "hard.txt").hardlink_to(tmp_path / "secret.txt")
    os.mkfifo(work / "pipe.fifo")
    text = (
        "Read app.conf, notes/a.md, notes/, ../secret.txt, link.txt, hard.txt, pipe.fifo, "
        f"{tmp_path}/secret.txt and missing.txt"
    )
    assert mentioned_files(work, text) == ["app.conf", "notes/a.md"]


def test_at_most_max_files_are_named(tmp_path: Path) -> None:
    for i in range(MAX_FILES + 2):
        (tmp_path / f"f{i}.txt").write_text(str(i))
    text = " ".join(f"f{i}.txt" for i in range(MAX_FILES + 2))
    assert mentioned_files(tmp_path, text) == [f"f{i}.txt" for i in range(MAX_FILES)]


@pytest.mark.anyio
async def test_each_tenant_is_looked_up_in_its_own_workdir(tmp_path: Path) -> None:
    (tmp_path / "ops").mkdir()
    (tmp_path / "family").mkdir()
    (tmp_path / "family" / "list.txt").write_text("milk")
    mentioned = workdir_mentions(lambda tenant: tmp_path / tenant)
    with scopes.use(scopes.Scope(tenant="ops")):
        assert await mentioned("what is in list.txt?") == []
    with scopes.use(scopes.Scope(tenant="family")):
        assert await mentioned("what is in list.txt?") == ["list.txt"]


def test_workdir_files_lists_regular_files_a_few_folders_down(tmp_path: Path) -> None:
    (tmp_path / "a" / "b" / "c" / "d").mkdir(parents=True)
    (tmp_path / "top.md").write_text("x")
    (tmp_path / "a" / "one.txt").write_text("x")
    (tmp_path / "a" / "b" / "two.txt").write_text("x")
    (tmp_path / "a" / "b" / "c" / "deep.txt").write_text("x")  # MAX_DEPTH folders down
    (tmp_path / "a" / "b" / "c" / "d" / "deeper.txt").write_text("x")
    (tmp_path / "outside.txt").write_text("x")
    (tmp_path / "a" / "link.txt").symlink_to(tmp_path / "outside.txt")
    listed = ["a/b/c/deep.txt", "a/b/two.txt", "a/one.txt", "outside.txt", "top.md"]
    assert workdir_files(tmp_path) == listed
    assert workdir_files(tmp_path / "missing") is None


def test_workdir_files_is_none_beyond_max_listed(tmp_path: Path) -> None:
    for i in range(MAX_LISTED):
        (tmp_path / f"f{i}.txt").write_text("x")
    assert len(workdir_files(tmp_path) or ()) == MAX_LISTED
    (tmp_path / "one-more.txt").write_text("x")
    assert workdir_files(tmp_path) is None


def test_names_a_grammar_cannot_hold_are_left_out(tmp_path: Path) -> None:
    """A name of raw bytes (os gives it back with lone surrogates) or with a control character
    would make llama-server refuse the grammar, and grammars would go off for every turn."""
    (tmp_path / "ok.txt").write_text("x")
    (tmp_path / "line\nbreak.txt").write_text("x")
    with open(os.path.join(os.fsencode(tmp_path), b"raw\xff.txt"), "w") as fh:
        fh.write("x")
    assert workdir_files(tmp_path) == ["ok.txt"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Write that trip down in trip.txt, with the city and the date.", ["trip.txt"]),
        ("Copy source.txt into ./backup/copy.md.", ["source.txt", "backup/copy.md"]),
        ("Put pi (3.14) and v1.2 in notes/", []),  # numbers; a folder
        ("Save it to ../outside.txt or /etc/passwd.txt", []),
        ("a.txt b.txt c.txt d.txt e.txt", ["a.txt", "b.txt", "c.txt", "d.txt"]),
        ("See https://example.com/page.html and write page.md", ["page.md"]),
        ("notes.mdを要約してください。", ["notes.md"]),
        ("メモ.txtに「牛乳」と書いて", ["メモ.txt"]),
        ("把 todo.txt里的内容读给我", ["todo.txt"]),
        ("Schreib es in reise.txt.", ["reise.txt"]),
    ],
)
def test_the_paths_a_request_names(text: str, expected: list[str]) -> None:
    assert named_paths(text) == expected
