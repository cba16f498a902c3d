"""The echo guard: an answer after tools that only repeats the request."""

from __future__ import annotations

import pytest

from agentd.engine.guards.base import ACCEPT, Replace, Retry
from agentd.engine.guards.echo import FROM_RESULTS, NO_ANSWER, Echo, repeats
from agentd.engine.notes import ECHO_HEAD
from agentd.messages import ToolCall, assistant, tool_result
from tests.engine.guards.conftest import make_plan, make_state

pytestmark = pytest.mark.anyio

REMIND = "Erinnere mich in 2 Stunden daran, den Zahnarzt anzurufen."
BOOK = "I missed book club last night. Can you sum up what happened? The notes are in club.txt."


def ran(state, name: str, result: str) -> None:  # type: ignore[no-untyped-def]
    """Add a step that called ``name`` and its result to the turn."""
    call = ToolCall("c1", name, "{}")
    messages = [assistant("", [call]), tool_result(call, result)]
    state.conversation.extend(messages)
    state.added.extend(messages)


@pytest.mark.parametrize(
    ("request_text", "answer", "expected"),
    [
        pytest.param(REMIND, REMIND, True, id="de-word-for-word"),
        pytest.param(BOOK, f'"{BOOK}"', True, id="en-quoted"),
        pytest.param(
            "The frame is too quick. In frame.ini set seconds to 20 instead of 5.",
            "The frame is too quick. In frame.ini set seconds to 20 instead of 5",
            True,
            id="en-punctuation-dropped",
        ),
        pytest.param(
            "覚えておいてね。自転車の鍵の番号は7663です。",
            "自転車の鍵の番号は7663です。覚えておいてね。",
            True,
            id="ja-reordered",
        ),
        pytest.param(
            "Rappelle-moi dans 2 heures d'appeler le plombier.",
            "Rappelez-moi dans 2 heures d'appeler le plombier.",
            True,
            id="fr-a-verb-s-other-form",
        ),
        pytest.param(
            "Acuérdate por mí: el código de la caja fuerte es 2874.",
            "Acuerdate por mí: el código de la caja fuerte es 2874.",
            True,
            id="es-an-accent-dropped",
        ),
        pytest.param(
            "Garde en mémoire mon numéro de carte chez le fromager : 4771.",
            "Je garde en mémoire mon numéro de carte chez le fromager : 4771.",
            False,
            id="fr-a-short-word-of-its-own",
        ),
        pytest.param(
            "Copy the contents of source.txt into a new file backup.txt.",
            "I copied the contents of source.txt into a new file backup.txt.",
            False,
            id="en-report-adds-a-word",
        ),
        pytest.param(
            "Rappelle-moi dans 2 heures d'appeler le plombier.",
            "C'est noté : je te rappelle dans 2 heures.",
            False,
            id="fr-own-words",
        ),
        pytest.param(
            "Please remember that the door code of the Krakow office is 2020 from now on.",
            "The door code is 2020.",
            False,
            id="en-part-of-it",
        ),
        pytest.param("Is 17 a prime number?", "17 is a prime number.", False, id="en-yes-no"),
        pytest.param("Ist 17 eine Primzahl?", "17 ist eine Primzahl.", False, id="de-yes-no"),
        pytest.param(
            "ファイルにりんごが含まれていますか？",
            "ファイルにりんごが含まれています。",
            False,
            id="ja-yes-no",
        ),
        pytest.param(
            "사과라는 단어가 파일에 있습니까?",
            "사과라는 단어가 파일에 있습니다.",
            False,
            id="ko-yes-no",
        ),
        pytest.param(
            "사과라는 단어를 파일에 적어 두세요 지금 바로",
            "사과라는 단어를 파일에 적어 두세요 지금 바로",
            True,
            id="ko-word-for-word",
        ),
        pytest.param(
            "Hangul stays whole: 사과라는 단어를 파일에 적어",
            "Hangul stays whole: 사과라는 단어를 파일에 적었",
            False,
            id="ko-syllables-not-letters",
        ),
        pytest.param(" ".join(["word"] * 5000), " ".join(["word"] * 5000), False, id="too-long"),
        pytest.param(
            " ".join(f"w{i}x" for i in range(200)),
            " ".join(f"w{i}x" for i in range(200)),
            False,
            id="too-many-words",
        ),
        pytest.param("Hi there!", "Hi there!", False, id="too-short-to-judge"),
        pytest.param(REMIND, "", False, id="empty"),
    ],
)
def test_repeats(request_text: str, answer: str, expected: bool) -> None:
    """No word of its own and nearly all of the request's, in any script."""
    assert repeats(answer, request_text) is expected


ASKED = "1時間半後に、美容院に予約の電話をするようリマインドしてくれる？"
STATED = "1時間半後に美容院に予約の電話をするようリマインドしてくれる。"


@pytest.mark.parametrize(
    ("request_text", "answer", "acted", "expected"),
    [
        pytest.param(ASKED, STATED, True, True, id="ja-after-an-action"),
        pytest.param(ASKED, STATED, False, False, id="ja-after-look-ups"),
        pytest.param(
            "Can you remind me in an hour to call the dentist?",
            "Can you remind me in an hour to call the dentist.",
            True,
            True,
            id="en-after-an-action",
        ),
        pytest.param(
            "¿Está la palabra manzana en el archivo?",
            "Está la palabra manzana en el archivo.",
            False,
            False,
            id="es-yes-no-answered-after-a-look-up",
        ),
        pytest.param(
            "Is 17 a prime number?", "17 is a prime number.", True, False, id="en-reworded"
        ),
    ],
)
def test_a_question_made_a_statement_letter_for_letter(
    request_text: str, answer: str, acted: bool, expected: bool
) -> None:
    """A request asked as a question and given back as a statement, letter for letter, is an
    echo after a tool acted; after look-ups it may be a yes/no question's answer."""
    assert repeats(answer, request_text, acted=acted) is expected


async def test_a_reminder_asked_as_a_question_and_given_back_is_asked_again() -> None:
    """schedule_task acted, the answer is the request with its question mark a full stop."""
    state = make_state(ASKED)
    ran(state, "schedule_task", "scheduled task t-1 (runs once at 16:00, 1h30m from now)")
    verdict = await Echo().judge(state, make_plan(state), assistant(STATED))
    assert isinstance(verdict, Retry)
    looked = make_state(ASKED)
    ran(looked, "read_file", "...")
    assert await Echo().judge(looked, make_plan(looked), assistant(STATED)) is ACCEPT


async def test_an_echo_is_asked_again_once_then_the_results_stand_in() -> None:
    """Once more in words: what the results mean, the request's language named last; then
    the tool results."""
    state = make_state(REMIND)
    ran(state, "schedule_task", "scheduled task 7 for 16:00")
    guard = Echo()
    plan = make_plan(state)
    assert guard.holds(state, plan)
    first = await guard.judge(state, plan, assistant(REMIND))
    assert isinstance(first, Retry) and first.next.bare
    assert first.next.notes[0].content.startswith(ECHO_HEAD)
    assert first.next.notes[0].content.endswith("mean for me. Write it in German.")
    second = await guard.judge(state, plan, assistant(REMIND))
    assert isinstance(second, Replace)
    assert second.message.content == f"{FROM_RESULTS}\nscheduled task 7 for 16:00"
    assert await guard.judge(state, plan, assistant("Ich erinnere dich um 16 Uhr.")) is ACCEPT


async def test_with_no_spare_request_an_echo_is_replaced_at_once() -> None:
    """The last request is kept for the answer: no asking again, the results stand in."""
    state = make_state(REMIND, requests=1)
    ran(state, "schedule_task", "scheduled")
    verdict = await Echo().judge(state, make_plan(state), assistant(REMIND))
    assert isinstance(verdict, Replace) and verdict.message.content.startswith(FROM_RESULTS)


async def test_with_no_tool_result_to_show_a_second_echo_says_so() -> None:
    """Nothing to show: the answer says the model only repeated the request."""
    state = make_state(REMIND)
    ran(state, "schedule_task", "  ")
    state.retried.add("echo")
    verdict = await Echo().judge(state, make_plan(state), assistant(REMIND))
    assert isinstance(verdict, Replace) and verdict.message.content == NO_ANSWER


async def test_before_any_tool_ran_an_answer_is_not_judged() -> None:
    """Only answers after tools are held back; before, they stream as written."""
    state = make_state(REMIND)
    guard = Echo()
    assert not guard.holds(state, make_plan(state))
    assert await guard.judge(state, make_plan(state), assistant(REMIND)) is ACCEPT


async def test_a_caller_s_own_tool_loop_is_left_alone() -> None:
    """A caller that brought its own tools leads the loop: its answers are not judged."""
    state = make_state(REMIND, client=("lookup",))
    ran(state, "lookup", "x")
    assert await Echo().judge(state, make_plan(state), assistant(REMIND)) is ACCEPT
