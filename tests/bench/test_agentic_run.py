"""The agentic benchmark end to end on a scripted model: a real daemon, real history, scores.

The stub plays a model that does some cases right and others wrong in the ways the suite must
catch (a call written as text, a claim without the action, a repeated call), so this checks the
pipeline (HTTP turns, streamed and not, sessions, memory in Milvus Lite, history reading) and the
scoring together, without the real model.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from agentd.config import Settings, SidecarSettings
from agentd.engine.notes import ANSWER_NOW, REMINDER_HEAD
from bench._agentic_cases import CASES
from bench.agentic import (
    ModelSpec,
    Options,
    daemon_config,
    embedder,
    play_all,
    sandbox_missing,
    share_models,
)
from tests.support.stub_llm import Reply, StubLLM, user_words

pytestmark = [pytest.mark.anyio, pytest.mark.timeout(240)]

PLAYED = ("write_hello", "write_note", "remember_code", "list_files", "two_plus_two")


def _since_user(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The turn so far: from the user's message on (agentd's reminders are not the user's)."""
    last_user = max(
        i for i, m in enumerate(messages) if m["role"] == "user" and not _reminder(m["content"])
    )
    return [
        m for m in messages[last_user:] if not (m["role"] == "user" and _reminder(m["content"]))
    ]


def _reminder(text: str) -> bool:
    return text.startswith(ANSWER_NOW) or text.startswith(REMINDER_HEAD)


def scripted(body: dict[str, Any]) -> Reply:
    """A model that gets write_hello, remember_code and (with a repeat) list_files right."""
    turn = _since_user(body["messages"])
    text, results = turn[0]["content"], [m for m in turn if m["role"] == "tool"]
    text = user_words(text)  # without what memory recalls, put before the request
    if "containing exactly this text: " in text:
        if not results:
            content = text.split("text: ", 1)[1]
            return Reply(tool_calls=[("write_file", {"path": "hello.txt", "content": content})])
        return Reply(text="I've written hello.txt.")
    if text.startswith("Save this in your long-term memory:"):
        if not results:
            fact = text.split(":", 1)[1].strip()
            return Reply(tool_calls=[("memory_save", {"content": fact})])
        return Reply(text="Saved.")
    if text.startswith("What is the door code"):
        if not results:
            return Reply(tool_calls=[("memory_search", {"query": text})])
        code = re.search(r"office is (\d{4})", results[-1]["content"])
        return Reply(text=f"It is {code.group(1) if code else 'unknown'}.")
    if text.startswith("What files"):
        if len(results) < 2:
            return Reply(tool_calls=[("list_dir", {"path": "."})])
        return Reply(text="You have: " + ", ".join(results[-1]["content"].split()))
    if text.startswith("Write a note"):
        return Reply(text="I've saved your note to memory.")
    return Reply(text="<tools><function name=current_time arguments='{}'/></tools>")


async def test_the_suite_scores_effects_and_faults(stub_llm: StubLLM, tmp_path: Path) -> None:
    """Right effects score as such; a leak, a false claim and a repeated call are flagged."""
    stub_llm.fallback = scripted
    cases = [c for c in CASES if c.name in PLAYED]
    results = await play_all(
        stub_llm.url, cases, Options(defaults=(("guards.claims", "off"),)), tmp_path, model="stub"
    )
    by_name = {r.case.name: r for r in results}
    assert set(by_name) == set(PLAYED)
    assert all(not t.error for r in results for t in r.turns)

    hello = by_name["write_hello"]
    assert hello.effect, hello.reason
    assert [c.name for c in hello.turns[0].calls] == ["write_file"]
    assert not hello.problems()

    note = by_name["write_note"]
    assert note.turns[0].say.stream
    assert note.turns[0].answer == "I've saved your note to memory."
    assert not note.effect and note.reason is not None and "no notes.txt" in note.reason
    assert note.flags[0].false_claim

    recall = by_name["remember_code"]
    assert recall.effect, recall.reason
    assert [t.say.session for t in recall.turns] == ["a", "b"]
    assert [c.name for c in recall.turns[1].calls] == ["memory_search"]
    assert not recall.flags[0].false_claim  # "Saved." after memory_save ran

    listing = by_name["list_files"]
    assert listing.effect, listing.reason
    # The model's repeat was answered with the earlier result, not run again.
    # (The stub reuses call ids across steps, so both calls read the last stored result.)
    assert listing.flags[0].repeated == [] and listing.flags[0].stopped >= 1

    math = by_name["two_plus_two"]
    assert not math.effect
    assert math.flags[0].leaked == "<tools>"

    # The daemon's /metrics was read around each turn: its model requests.
    assert all(t.requests is not None and t.requests >= 1 for r in results for t in r.turns)
    assert [t.requests for t in hello.turns] == [2]  # the write, then the answer

    rows = [row for r in results for row in r.rows()]
    assert len(rows) == sum(len(r.turns) for r in results)
    assert {row["language"] for row in rows} == {"en"}
    json.dumps(rows)


def test_the_daemon_takes_any_number_of_open_tasks() -> None:
    """Every case plays in one tenant: a run of many reminder cases must not meet the limit."""
    config = daemon_config(Options(), "qwen2.5-coder-1.5b")
    assert Settings.model_validate(config).cron.tasks.max_per_tenant == 0


def test_the_daemon_routes_as_make_run_would_for_each_packaged_model() -> None:
    """The daemon serves a GGUF by path (or a server by URL): a packaged model that is not
    routed (the 0.5B) has routing set off, as the sidecar's auto mode would; --default wins."""
    assert daemon_config(Options(), "qwen2.5-coder-0.5b")["default"]["guards"] == {"route": "off"}
    assert "guards" not in daemon_config(Options(), "qwen2.5-coder-1.5b").get("default", {})
    forced = daemon_config(Options(defaults=(("guards.route", "on"),)), "qwen2.5-coder-0.5b")
    assert forced["default"]["guards"]["route"] == "on"


def test_each_run_s_daemon_serves_the_model_with_its_own_sidecar_as_make_run_does() -> None:
    """With a model spec the daemon starts its own sidecar (the user's slot pins, warm start
    and questions' slot come with it) on a free port; without, it reaches a server by URL."""
    options = Options(sidecar=SidecarSettings(session_slots=3, threads=1))
    spec = ModelSpec("qwen2.5-coder-1.5b", Path("/models/chat.gguf"), Path("/bin/llama-server"))
    sidecar = daemon_config(options, spec.name, spec)["llm"]["sidecar"]
    assert sidecar["enabled"] is True
    assert (sidecar["model_path"], sidecar["binary"]) == ("/models/chat.gguf", "/bin/llama-server")
    assert (sidecar["port"], sidecar["session_slots"], sidecar["threads"]) == (0, 3, 1)
    assert Settings.model_validate({"llm": {"sidecar": sidecar}}).llm.sidecar.enabled
    assert "sidecar" not in daemon_config(options, spec.name)["llm"]


def test_each_run_s_daemon_finds_the_user_s_fetched_models(tmp_path: Path) -> None:
    """The suite's daemon embeds with the user's fetched embedding model, as `make run` does:
    its state dir links to the user's models (once; nothing when none are fetched)."""
    models = tmp_path / "home" / "models"
    models.mkdir(parents=True)
    (models / "e5.bin").write_bytes(b"x")
    state = tmp_path / "run1" / "state"
    share_models(models, state)
    share_models(models, state)  # a second run of the same dir keeps the link
    assert (state / "models").is_symlink()
    assert (state / "models" / "e5.bin").read_bytes() == b"x"
    share_models(tmp_path / "absent", tmp_path / "run2" / "state")
    share_models(None, tmp_path / "run3" / "state")
    assert not (tmp_path / "run2").exists()
    assert not (tmp_path / "run3").exists()


def test_a_missing_sandbox_is_said_before_the_cases(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without bubblewrap every command case fails: the run says so up front."""
    monkeypatch.setattr("bench.agentic.shutil.which", lambda name: None)
    warning = sandbox_missing()
    assert warning is not None and "bubblewrap" in warning
    monkeypatch.setattr("bench.agentic.shutil.which", lambda name: f"/usr/bin/{name}")
    assert sandbox_missing() is None


def test_the_embedding_model_served_is_read_from_the_daemon_s_log(tmp_path: Path) -> None:
    log = tmp_path / "agentd.log"
    log.write_text('{"event": "app.started"}\nnot json\n')
    assert embedder(log) == "the chat model"
    with log.open("a") as out:
        out.write(json.dumps({"event": "memory.embedder_ready", "model": "e5-small"}) + "\n")
    assert embedder(log) == "e5-small"
