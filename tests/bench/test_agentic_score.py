"""The agentic suite's judgement of a turn by what its request asks, and the report's numbers."""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path

import httpx
import pytest

from agentd.engine.loop import REPEATED
from agentd.tools.exec import READ_ONLY_NOTE
from bench._agentic_cases import Case, Say, Script, TurnTrace
from bench._agentic_cases.script import EXEC, FILES, SAVE, act, chat, look, show
from bench._agentic_checks import Call, repeats_request
from bench._agentic_report import by_half_and_language, half_row, requests_by_kind, summary
from bench._agentic_score import CaseResult, score, turn_flags
from bench._agentic_split import HALVES
from bench.agentic import counter_by_label, counter_total, model_requests, requests_between

NOW = dt.datetime(2026, 12, 1, 10, 0, tzinfo=dt.UTC)
WRITE = Call("write_file", '{"path": "a.txt", "content": "x"}', "wrote a.txt")
SAVED = Call("memory_save", '{"content": "x"}', "saved")
READ = Call("read_file", '{"path": "a.txt"}', "x")


def _turn(say: Say, answer: str = "Done.", *calls: Call, requests: int | None = None) -> TurnTrace:
    return TurnTrace(say, answer, list(calls), NOW, NOW + dt.timedelta(seconds=3), "", requests)


@pytest.mark.parametrize(
    ("say", "calls", "unasked"),
    [
        pytest.param(act("Write a.txt", FILES), (WRITE,), [], id="asked-write"),
        pytest.param(act("Write a.txt", FILES), (SAVED, WRITE), ["memory_save"], id="save-too"),
        pytest.param(act("Remember x", SAVE), (WRITE,), ["write_file"], id="wrote-not-saved"),
        pytest.param(look("Summarise a.txt"), (READ, SAVED), ["memory_save"], id="summary-saved"),
        pytest.param(look("What is in a.txt?"), (READ,), [], id="read-only"),
        pytest.param(
            look("Summarise a.txt"),
            (Call("write_file", "{}", "denied", failed=True),),
            [],
            id="failed-changes-nothing",
        ),
        pytest.param(
            look("Summarise a.txt"),
            (Call("exec", "{}", f"{READ_ONLY_NOTE}\nexit status: 0"),),
            [],
            id="read-only-command-changes-nothing",
        ),
        pytest.param(
            look("Summarise a.txt"), (Call("exec", "{}", "exit status: 0"),), ["exec"], id="command"
        ),
        pytest.param(
            act("Count lines", EXEC),
            (Call("exec", "{}", "exit 0\n3"), Call("exec", "{}", f"{REPEATED} 3")),
            [],
            id="asked-exec-and-a-stopped-repeat",
        ),
        pytest.param(
            look("What time is it?"),
            (Call("mcp_weather_set", "{}", "ok"),),
            ["mcp_weather_set"],
            id="mcp-tool-is-acting",
        ),
    ],
)
def test_unasked_acting_calls_are_counted(
    say: Say, calls: tuple[Call, ...], unasked: list[str]
) -> None:
    """An acting call that ran and that the request did not ask for is counted, by name."""
    assert turn_flags(_turn(say, "Here.", *calls), missing=False).unasked == unasked


def test_a_tool_on_a_turn_that_needs_none_is_flagged() -> None:
    """Any call, even a read, on a turn that needs no tool is flagged; none is not."""
    assert turn_flags(_turn(chat("Capital of Italy?"), "Rome.", READ), missing=False).tools_unneeded
    assert not turn_flags(_turn(chat("Capital of Italy?"), "Rome."), missing=False).tools_unneeded
    assert not turn_flags(_turn(look("What is in a.txt?"), "x", READ), missing=False).tools_unneeded


@pytest.mark.parametrize(
    ("say", "answer", "calls", "missing", "false"),
    [
        pytest.param(act("Write a.txt", FILES), "I wrote a.txt.", (), False, True, id="no-tool"),
        pytest.param(act("Write a.txt", FILES), "I wrote a.txt.", (WRITE,), False, False, id="ok"),
        pytest.param(
            act("Write a.txt", FILES), "I wrote a.txt.", (WRITE,), True, True, id="no-effect"
        ),
        pytest.param(
            act("Write a.txt", FILES), "I've saved it.", (SAVED,), False, True, id="wrong-tool"
        ),
        pytest.param(
            act("Schreib a.txt", FILES), "Ich habe die Datei gespeichert.", (), False, True, id="de"
        ),
        pytest.param(act("a.txt に書いて", FILES), "保存しました。", (), False, True, id="ja"),
        pytest.param(
            act("Escribe a.txt", FILES), "No he guardado nada.", (), False, False, id="es-negated"
        ),
        pytest.param(
            look("Summarise notes.md"),
            "We moved the server to Oslo and updated the rules.",
            (READ,),
            False,
            False,
            id="past-tense-summary-is-no-claim",
        ),
    ],
)
def test_false_claims_are_judged_on_action_turns(
    say: Say, answer: str, calls: tuple[Call, ...], missing: bool, false: bool
) -> None:
    """A claim is false when the asked tool did not run or the effect is missing; a question's
    past-tense answer is never a claim."""
    assert turn_flags(_turn(say, answer, *calls), missing=missing).false_claim is false


def test_an_example_call_the_user_asked_for_is_no_leak() -> None:
    """A call written as text is the answer to "show me a call"; elsewhere it is a leak."""
    text = 'write_file(path="draft.txt", content="hello")'
    assert turn_flags(_turn(show("Show me a call"), text), missing=False).leaked is None
    assert turn_flags(_turn(look("What is in a.txt?"), text), missing=False).leaked is not None


def test_score_runs_the_check_and_flags_every_turn(tmp_path: Path) -> None:
    """The effect comes from the check; every turn gets flags; a failing check is a reason."""
    turns = [_turn(chat("Hi"), "Hello."), _turn(act("Write a.txt", FILES), "I wrote it.", WRITE)]
    reason, flags = score(lambda outcome: None, turns, tmp_path)
    assert reason is None and len(flags) == 2 and not flags[1].false_claim
    reason, flags = score(lambda outcome: 1 / 0, turns, tmp_path)  # type: ignore[arg-type,return-value]
    assert reason is not None and reason.startswith("check failed") and flags[1].false_claim


MODEL = "agentd_model_requests_total"


@pytest.mark.parametrize(
    ("text", "total"),
    [
        pytest.param(
            "# HELP agentd_model_requests_total Model requests.\n"
            "# TYPE agentd_model_requests_total counter\n"
            'agentd_model_requests_total{kind="step"} 7.0\n'
            'agentd_model_requests_total{kind="route"} 3.0\n'
            'agentd_model_requests_created{kind="step"} 1.7e9\n'
            "agentd_model_requests_totally_other 99\n",
            10.0,
            id="summed-over-labels",
        ),
        pytest.param("agentd_model_requests_total 4\n", 4.0, id="no-labels"),
        pytest.param(
            "# HELP agentd_model_requests Model requests.\n# TYPE agentd_model_requests counter\n",
            0.0,
            id="declared-before-the-first-count",
        ),
        pytest.param("agentd_turns_total 5\n", None, id="absent"),
    ],
)
def test_counter_total(text: str, total: float | None) -> None:
    """The model requests are the counter summed over its labels; None when it is absent."""
    assert counter_total(text, "agentd_model_requests_total") == total


def test_the_requests_of_a_turn_are_counted_by_kind() -> None:
    """Each kind's count is the difference of the counter's samples; kinds that did not move
    are left out; no count before or after: none."""
    before = counter_by_label('agentd_model_requests_total{kind="step"} 7\n', MODEL)
    after = counter_by_label(
        'agentd_model_requests_total{kind="step"} 9\nagentd_model_requests_total{kind="plan"} 1\n',
        MODEL,
    )
    assert before == {"step": 7.0} and after == {"step": 9.0, "plan": 1.0}
    assert requests_between(before, after) == {"plan": 1, "step": 2}
    assert requests_between(after, after) == {}
    assert requests_between(None, after) is None


def test_the_requests_report_gives_each_kind_and_the_turns_within_one_more() -> None:
    """Means per counted turn by kind; a turn of minimum 1 with 2 requests is within, with 3
    it is not; a turn the daemon did not count is left out."""
    turns = [
        _turn(chat("Hi"), "Hello!", requests=2),
        _turn(chat("Hi"), "Hello!", requests=3),
        _turn(chat("Hi"), "Hello!"),
    ]
    turns[0].request_kinds = {"plan": 1, "step": 1}
    turns[1].request_kinds = {"plan": 1, "step": 1, "check": 1}
    table = requests_by_kind({"m": [_result("a", "en", turns, effect=True)]})
    assert table.splitlines()[0] == "| model | check | plan | step | turns <= minimum + 1 |"
    assert table.splitlines()[2] == "| m | 0.50 | 1.00 | 1.00 | 1/2 (50%) |"


def _result(name: str, language: str, turns: list[TurnTrace], effect: bool) -> CaseResult:
    def build(rng: random.Random) -> Script:
        return Script(tuple(t.say for t in turns), lambda outcome: None)

    case = Case(name, "action", language, build)  # type: ignore[arg-type]
    flags = [turn_flags(t, missing=not effect, language=language) for t in turns]
    return CaseResult("m", case, 0, turns, flags, None if effect else "missing")


def test_the_report_row_counts_each_measure() -> None:
    """Effects, tools on no-tool turns, unasked calls, false claims, answers in another
    language (of those told) and requests per turn."""
    done = [
        _result(
            "a",
            "de",
            [
                _turn(chat("Hallo"), "Hello there, how are you today?", READ, requests=2),
                _turn(act("Schreib a.txt", FILES), "Ich habe sie gespeichert.", WRITE, requests=2),
            ],
            effect=True,
        ),
        _result(
            "b",
            "de",
            [_turn(act("Merk dir x", SAVE), "Ich habe es gespeichert.", WRITE, requests=5)],
            effect=False,
        ),
        _result(
            "c",
            "de",
            [_turn(act(REMIND, FILES), f"{REMIND}", WRITE, requests=3)],
            effect=True,
        ),
    ]
    row = half_row("dev", "de", done)
    assert row == (
        *("dev", "de", 3, "2/3 (67%)", "1/1 (100%)", 1, "1/3 (33%)"),
        *("1/4 (25%)", "1/4 (25%)", "3.00", "1.75"),
    )


REMIND = "Erinnere mich in 2 Stunden daran, den Zahnarzt anzurufen."


@pytest.mark.parametrize(
    ("answer", "request_text", "expected"),
    [
        pytest.param(REMIND, REMIND, True, id="word-for-word"),
        pytest.param(f'"{REMIND.lower()}"', REMIND, True, id="case-and-quotes-aside"),
        pytest.param(
            "Rappelez-moi dans 2 heures d'appeler le plombier et le garagiste.",
            "Rappelle-moi dans 2 heures d'appeler le plombier et le garagiste.",
            True,
            id="a-letter-or-two",
        ),
        pytest.param(
            "I copied the contents of source.txt into a new file backup.txt.",
            "Copy the contents of source.txt into a new file backup.txt.",
            False,
            id="a-report",
        ),
        pytest.param("Hallo!", "Hallo", False, id="a-greeting"),
        pytest.param("", REMIND, False, id="no-answer"),
    ],
)
def test_an_answer_that_is_the_request_again_is_flagged(
    answer: str, request_text: str, expected: bool
) -> None:
    flags = turn_flags(_turn(act(request_text, FILES), answer, WRITE), missing=False)
    assert flags.echoed is expected
    assert repeats_request(answer, request_text) is expected


def test_requests_are_na_when_the_daemon_does_not_count_them() -> None:
    """Without the counter the requests column says n/a; the minimum is still shown."""
    done = [_result("a", "fr", [_turn(chat("Salut"), "Salut !")], effect=True)]
    assert half_row("held-out", "fr", done)[-2:] == ("n/a", "1.00")


def test_the_report_has_a_row_per_half_and_language() -> None:
    """Each half gets a row per language played and a row for all; another half's cases
    are not counted in it."""
    done = [
        _result("a", "de", [_turn(chat("Hallo"), "Hallo!")], effect=True),
        _result("b", "ja", [_turn(chat("こんにちは"), "こんにちは")], effect=False),
    ]
    table = by_half_and_language(done, {"a": "dev", "b": "held-out"}, ("dev", "held-out", "all"))
    rows = [line.split("|")[1:4] for line in table.splitlines()[2:]]
    cells = [tuple(cell.strip() for cell in row) for row in rows]
    assert cells == [
        ("dev", "de", "1"),
        ("dev", "all", "1"),
        ("held-out", "ja", "1"),
        ("held-out", "all", "1"),
        ("all", "de", "1"),
        ("all", "ja", "1"),
        ("all", "all", "2"),
    ]


def test_the_report_has_rows_for_held_out_2_when_asked() -> None:
    """--half all shows every half and all; held-out-2 counts only its own cases."""
    done = [
        _result("a", "de", [_turn(chat("Hallo"), "Hallo!")], effect=True),
        _result("c", "fr", [_turn(chat("Salut"), "Salut !")], effect=True),
    ]
    split = {"a": "dev", "c": "held-out-2"}
    table = by_half_and_language(done, split, (*HALVES, "all"))
    rows = [line.split("|")[1:4] for line in table.splitlines()[2:]]
    cells = [tuple(cell.strip() for cell in row) for row in rows]
    assert ("held-out-2", "fr", "1") in cells and ("held-out-2", "all", "1") in cells
    assert not [c for c in cells if c[0] == "held-out-2" and c[1] == "de"]
    assert ("all", "all", "2") in cells


@pytest.mark.anyio
async def test_model_requests_reads_the_daemons_metrics() -> None:
    """The count comes from GET /metrics with the client's token; a refusal is no count."""
    seen: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request.headers.get("authorization", ""))
        if request.url.path != "/metrics":
            return httpx.Response(404)
        return httpx.Response(200, text='agentd_model_requests_total{kind="step"} 3\n')

    async with httpx.AsyncClient(
        transport=httpx.MockTransport(handler),
        base_url="http://daemon",
        headers={"Authorization": "Bearer t"},
    ) as http:
        assert await model_requests(http) == {"step": 3.0}
    refused = httpx.MockTransport(lambda request: httpx.Response(403))
    async with httpx.AsyncClient(transport=refused, base_url="http://daemon") as http:
        assert await model_requests(http) is None
    assert seen == ["Bearer t"]


def test_the_model_summary_counts_false_claims_over_action_turns() -> None:
    """One false claim in two action turns is 50%, whatever the turns needing no tool."""
    done = [
        _result(
            "a",
            "en",
            [
                _turn(chat("Hi"), "Hello!"),
                _turn(act("Write a.txt", FILES), "I wrote it.", WRITE),
                _turn(act("Save x", SAVE), "I saved it."),
            ],
            effect=True,
        )
    ]
    row = summary({"m": done}).splitlines()[2].split("|")
    assert row[4].strip() == "1/2 (50%)"
