"""bench/draft.py and bench/_speculation.py: the replay's setups, flags and comparisons."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from agentd.config import Settings
from bench import draft
from bench._speculation import Spec, parse_spec
from bench.draft import Row, Setup, answer_of, setups, summary


def test_an_ngram_spec_becomes_its_flags_and_caps_the_draft_at_m() -> None:
    """n and m are the type's own sizes; m also caps the draft unless max says otherwise."""
    spec = parse_spec("ngram-simple:n=3,m=16")
    assert spec.label == "ngram-simple:n=3,m=16"
    assert spec.args == (
        "--spec-type",
        "ngram-simple",
        "--spec-ngram-simple-size-n",
        "3",
        "--spec-ngram-simple-size-m",
        "16",
        "--spec-draft-n-max",
        "16",
    )
    capped = parse_spec("ngram-map-k:n=2,m=8,max=4,hits=2")
    assert " ".join(capped.args) == (
        "--spec-type ngram-map-k --spec-ngram-map-k-size-n 2 --spec-ngram-map-k-size-m 8 "
        "--spec-draft-n-max 4 --spec-ngram-map-k-min-hits 2"
    )


def test_ngram_mod_has_sizes_of_its_own_and_a_bare_type_none() -> None:
    """ngram-mod's min/max are its own flags; a type without sizes is just the type."""
    mod = parse_spec("ngram-mod:match=4,min=2,max=16")
    assert " ".join(mod.args) == (
        "--spec-type ngram-mod --spec-ngram-mod-n-match 4 --spec-ngram-mod-n-min 2 "
        "--spec-ngram-mod-n-max 16"
    )
    assert parse_spec("ngram-cache").args == ("--spec-type", "ngram-cache")


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("draft-simple", "unknown speculation type"),
        ("ngram-simple:q=3", "ngram-simple takes n=N"),
        ("ngram-simple:n", "not 'n'"),
        ("ngram-simple:n=three", "whole number"),
        ("ngram-mod:n=3", "match=N"),
    ],
)
def test_a_wrong_spec_is_refused_with_what_is_allowed(text: str, says: str) -> None:
    """An unknown type, key or size stops the parser with the allowed choices."""
    with pytest.raises(argparse.ArgumentTypeError, match=says):
        parse_spec(text)


def test_replay_takes_specs_without_a_draft_model() -> None:
    """--spec repeats; --draft-state is no longer required, and a bad spec is a usage error."""
    args = draft.parser().parse_args(
        ["replay", "b.jsonl", "--spec", "ngram-simple:n=3,m=16", "--spec", "ngram-mod"]
    )
    assert [s.label for s in args.spec] == ["ngram-simple:n=3,m=16", "ngram-mod"]
    assert args.draft_state is None and args.lock is None
    with pytest.raises(SystemExit):
        draft.parser().parse_args(["replay", "b.jsonl", "--spec", "ngram-nope"])
    with pytest.raises(SystemExit, match=r"--draft-state .* or --spec"):
        draft._draft_path(args.__class__(draft_state=None, spec=[]))


def test_setups_put_the_plain_server_first() -> None:
    """The plain server comes first (the others are compared with it), then draft, then specs."""
    spec = Spec("ngram-simple", ("--spec-type", "ngram-simple"))
    assert setups(None, [spec]) == [Setup("off"), Setup("ngram-simple", None, spec.args)]
    assert [s.name for s in setups(Path("/d.gguf"), [spec])] == ["off", "draft", "ngram-simple"]


def test_the_command_is_the_sidecars_with_the_spec_flags_last(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A spec's flags follow the sidecar's own command line; a draft setup adds the draft."""
    import agentd.config
    import agentd.model.packages
    import agentd.model.sidecar

    class Loaded:
        settings = Settings(state_dir=tmp_path)

    monkeypatch.setattr(agentd.config, "load_settings", lambda: Loaded())
    monkeypatch.setattr(agentd.model.packages, "resolve_model_file", lambda *a: Path("/m.gguf"))
    monkeypatch.setattr(agentd.model.sidecar, "find_binary", lambda _: Path("/bin/llama"))
    spec = parse_spec("ngram-simple:n=2,m=8")
    cmd = draft._command(Setup(spec.label, None, spec.args), 9, {})
    assert cmd[:3] == ["/bin/llama", "--model", "/m.gguf"]
    assert tuple(cmd[-len(spec.args) :]) == spec.args
    assert "--model-draft" not in cmd
    drafted = draft._command(Setup("draft", Path("/d.gguf")), 9, {"draft_max": 8})
    assert "--model-draft /d.gguf" in " ".join(drafted) and "--spec-draft-n-max 8" in " ".join(
        drafted
    )


def test_an_answer_is_its_text_and_tool_calls_or_the_error() -> None:
    """Replies are compared by content and tool calls; a failed request says its status."""
    call = {"name": "write_file", "arguments": '{"path": "a"}'}
    body = {"choices": [{"message": {"content": None, "tool_calls": [{"function": call}]}}]}
    assert json.loads(answer_of(200, json.dumps(body).encode())) == [None, [call]]
    assert answer_of(500, b'{"error": "grammar"}') == 'HTTP 500: {"error": "grammar"}'


def _row(setup: str, run: int, index: int, wall: float, answer: str, tps: float = 18.0) -> Row:
    return Row(setup, f"{setup}#{run}", index, wall, 100, 60.0, 20, tps, 10, 5, answer)


def test_the_summary_gives_ratios_to_the_plain_server_and_differing_answers() -> None:
    """Session wall ratio off/this, the per-request median ratio, generation on the answers
    that are the plain server's, and the answers unlike off#1's."""
    rows = [_row("off", k, i, 2.0, f"a{i}") for k in (1, 2) for i in range(3)]
    rows += [
        _row("ngram", k, i, 1.0, "x" if (k, i) == (2, 2) else f"a{i}", 36.0)
        for k in (1, 2)
        for i in range(3)
    ]
    out = summary(rows, {"off": [(1024, 2048)], "ngram": [(2048, 4096)]})
    off, ngram = (line.split() for line in out.splitlines()[2:])
    assert off[:7] == ["off", "2", "2.000", "4.000", "1.00x", "1.00x", "1.00x"]
    assert ngram[:7] == ["ngram", "2", "1.000", "2.000", "2.00x", "2.00x", "2.00x"]
    assert "0/4" in off and "1/4" in ngram and "20/40" in ngram
