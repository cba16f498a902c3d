"""The memory suite's end-to-end half: what is told, what is asked, how answers are judged."""

from __future__ import annotations

import pytest

from bench._memory_cases import load
from bench._memory_e2e import (
    REMEMBER,
    WATCHED,
    Outcome,
    Probe,
    abstains,
    judge,
    play,
    probes,
    scores,
    session_events,
    to_tell,
)
from bench._memory_split import HALVES, load_split

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize("half", HALVES)
def test_each_half_asks_every_kind_from_its_own_questions(half: str) -> None:
    """Every probe is a question of its half; all kinds are there, each answerable one judged."""
    facts, questions = load()
    split = load_split()
    chosen = probes(half, questions)
    assert all(split[p.question.id] == half for p in chosen)
    kinds = {p.question.kind for p in chosen}
    assert kinds == {"same", "cross", "update", "never"}
    assert all(p.expect for p in chosen if p.question.kind != "never")
    told = to_tell(chosen, facts)
    assert [f.ts for f in told] == sorted(f.ts for f in told)
    for p in chosen:
        if p.question.kind == "update":
            ids = [f.id for f in told]
            assert ids.index(str(p.question.stale)) < ids.index(str(p.question.answer))


def test_answers_are_judged_by_their_content() -> None:
    """The new value is right, only the old one is stale, not knowing is abstaining."""
    _, questions = load()
    probe = next(p for p in probes("dev", questions) if p.question.kind == "update")
    assert judge(probe, f"It is {probe.expect[0]} now.") == "right"
    assert judge(probe, f"It was {probe.stale[0]}.") == "stale"
    assert judge(probe, "I don't know that.") == "abstained"
    assert judge(probe, "Something else entirely.") == "wrong"
    assert abstains("申し訳ありませんが、その情報はありません。分かりません。")
    assert abstains("")
    assert not abstains("Your cat is called Pixel.")


async def test_a_stub_agent_that_remembers_passes_and_one_that_forgets_does_not() -> None:
    """Played against a stub agent: told facts come back from new sessions; amnesia fails all
    but the never-told questions, and a made-up answer fails those."""
    facts, questions = load()
    chosen = probes("dev", questions)
    by_text = {f.text: f for f in facts}
    expected = {p.question.text: p for p in chosen}
    saved: list[str] = []
    sessions: set[str] = set()

    async def remembering(session: str, text: str) -> str:
        assert session not in sessions, "every turn opens a new session"
        sessions.add(session)
        for lang, prefix in REMEMBER.items():
            if text.startswith(prefix):
                fact = by_text[text.removeprefix(prefix)]
                assert fact.lang == lang
                saved.append(fact.id)
                return "Saved."
        probe = expected[text]
        if probe.question.answer in saved:
            return f"You told me: {probe.expect[0]}."
        return "I don't know."

    told, outcomes = await play(remembering, facts, chosen)
    assert saved == [f.id for f in to_tell(chosen, facts)]
    assert [t.fact.id for t in told] == saved
    assert {t.answer for t in told} == {"Saved."}
    assert all(o.passed for o in outcomes)
    result = scores(outcomes)
    assert result["all"]["passed"] == 1.0
    langs = {name for name in result if name.startswith("lang:")}
    assert langs == {f"lang:{p.question.lang}" for p in chosen}
    assert sum(result[name]["n"] for name in langs) == len(chosen)

    async def forgetting(session: str, text: str) -> str:
        return "I don't know."

    forgot = scores((await play(forgetting, facts, chosen))[1])
    assert forgot["answered"]["passed"] == forgot["update"]["passed"] == 0.0
    assert forgot["abstention"]["passed"] == 1.0

    async def inventing(session: str, text: str) -> str:
        return "It is Tuesday."

    invented = scores((await play(inventing, facts, chosen))[1])
    assert invented["abstention"]["passed"] == 0.0


def test_a_never_told_question_passes_only_by_abstaining() -> None:
    """For a never-told question abstaining is the pass; for others it is not."""
    _, questions = load()
    never = next(q for q in questions if q.kind == "never")
    same = next(q for q in questions if q.kind == "same")
    assert Outcome(Probe(never), "I don't know.", "abstained").passed
    assert not Outcome(Probe(never), "Blue.", "wrong").passed
    assert not Outcome(Probe(same, ("x",)), "I don't know.", "abstained").passed


def test_the_daemon_log_is_read_per_session_and_hostile_lines_are_skipped() -> None:
    """Watched events are grouped by session (its channel prefix dropped), without the fields
    every line has; other events, non-JSON and non-object lines are skipped."""
    lines = [
        '{"event": "turn.tools", "tools": ["memory_save"], "session": "http:memq-tell-0",'
        ' "run_id": "r", "timestamp": "t", "level": "info"}',
        '{"event": "memory.curated", "action": "update", "session": "http:memq-tell-0"}',
        '{"event": "turn.tools", "tools": ["memory_search"], "session": "http:memq-ask-1"}',
        '{"event": "http.request", "session": "http:memq-ask-1"}',
        "not json",
        "[1, 2]",
    ]
    events = session_events(lines, WATCHED)
    assert events == {
        "memq-tell-0": [
            {"event": "turn.tools", "tools": ["memory_save"]},
            {"event": "memory.curated", "action": "update"},
        ],
        "memq-ask-1": [{"event": "turn.tools", "tools": ["memory_search"]}],
    }
