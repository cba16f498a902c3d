"""The intent planner: the model decides whether the request asks for an action, a look-up or
only words."""

from __future__ import annotations

import pytest

from agentd.engine.asking import Asker
from agentd.engine.guards.base import StepRun
from agentd.engine.guards.intent import (
    ACTION,
    ALL_KINDS,
    ANSWER,
    INTENT_EXAMPLES,
    INTENT_HEAD,
    LOOKUP,
    OPTIONS,
    Intent,
    word_of_plan,
    words,
)
from agentd.engine.guards.plan import NONE, PLAN_HEAD
from agentd.engine.guards.read_first import READ_FIRST, ReadFirst
from agentd.model import pinning
from agentd.tools.kinds import FILE, MEMORY, SCHEDULE
from agentd.tools.registry import ToolOutcome
from tests.engine.guards.conftest import (
    ACTING,
    KINDS,
    LOOKING,
    SlotRecording,
    make_plan,
    make_state,
)
from tests.support.fake_model import FakeModel

pytestmark = pytest.mark.anyio


async def decided(word: str | None, request_text: str, model: FakeModel | None = None):  # type: ignore[no-untyped-def]
    """The state and plan of a first step after the model answered the intent with ``word``."""
    model = model or FakeModel()
    model.choices.append(word)
    state = make_state(request_text)
    plan = make_plan(state)
    await Intent(Asker(model)).plan(state, plan)
    return state, plan


@pytest.mark.parametrize(
    "request_text",
    [
        pytest.param("What is in notes.md?", id="en"),
        pytest.param("Was steht in notizen.md?", id="de"),
        pytest.param("メモ.mdの内容を教えて。", id="ja"),
    ],
)
async def test_a_lookup_is_offered_only_the_tools_that_look(request_text: str) -> None:
    """Found a look-up (in any language), the step offers no tool that acts."""
    model = FakeModel()
    state, plan = await decided(LOOKUP, request_text, model)
    assert state.may_act is False
    assert plan.names == frozenset(LOOKING)
    [asked] = model.asked
    assert asked[0].content.startswith(INTENT_HEAD) and request_text in asked[-1].content
    # No tool says what it works on: the rules, the examples of no kind, the request.
    kindless = [e for e in INTENT_EXAMPLES if e[1] in (ACTION, LOOKUP, ANSWER)]
    assert len(asked) == 2 + 2 * len(kindless)
    assert model.options == [(ACTION, LOOKUP, ANSWER)]
    assert state.fired == [("intent", LOOKUP)] and state.requests.used == 1


@pytest.mark.parametrize(
    "request_text",
    [
        pytest.param("Translate 'good morning' into Spanish.", id="en"),
        pytest.param("Übersetze 'guten Morgen' ins Französische.", id="de"),
        pytest.param("「おはよう」を英語に訳してください。", id="ja"),
    ],
)
async def test_an_answer_in_words_is_offered_no_tool(request_text: str) -> None:
    """Found a request for words only, the step (and every later one) offers no tool."""
    model = FakeModel()
    state, plan = await decided(ANSWER, request_text, model)
    assert state.may_act is False and state.words_only
    assert plan.tools is None and plan.answer_only
    later = make_plan(state)
    state.step = 2
    await Intent(Asker(model)).plan(state, later)
    assert later.tools is None and len(model.asked) == 1


async def test_a_request_naming_files_is_a_lookup_whatever_the_word() -> None:
    """A read held by read_first stays: "answer" for a request naming files becomes a look-up."""
    model = FakeModel()
    model.choices.append(ANSWER)
    state = make_state("Summarise notes.md")
    plan = make_plan(state)
    plan.route = READ_FIRST
    await Intent(Asker(model)).plan(state, plan)
    assert not state.words_only and plan.names == frozenset(LOOKING)
    assert state.fired == [("intent", LOOKUP)]


def test_every_worked_example_uses_an_option() -> None:
    """The worked examples answer with the kinds and words the grammar allows, each at least
    once."""
    assert {word for _, word in INTENT_EXAMPLES} == {*ALL_KINDS, ACTION, LOOKUP, ANSWER}
    assert OPTIONS == (*words(ALL_KINDS),)


async def test_the_words_are_the_kinds_of_the_acting_tools_on_offer() -> None:
    """With file, command and memory tools acting, the file and memory kinds are words (a
    command has none: action; schedule is not, nor are its examples), with action, lookup and
    answer."""
    model = FakeModel()
    model.choices.append(LOOKUP)
    state = make_state("Wie spät ist es?", kinds=KINDS)
    await Intent(Asker(model)).plan(state, make_plan(state))
    assert model.options == [("write", "remember", ACTION, LOOKUP, ANSWER)]
    assert words((FILE,)) == ("write", ACTION, LOOKUP, ANSWER)
    [asked] = model.asked
    assert "schedule:" not in asked[0].content and "remember:" in asked[0].content
    shown = [m.content for m in asked[2:-1:2]]
    assert shown and all(w in words((FILE, MEMORY)) for w in shown)
    assert "schedule" not in shown and "remember" in shown and SCHEDULE in ALL_KINDS


@pytest.mark.parametrize(
    ("word", "offered", "doing"),
    [
        pytest.param("remember", {"memory_save", "current_time"}, {"memory_save"}, id="memory"),
        pytest.param(
            "write",
            {"write_file", "append_file", "read_file", "list_dir", "current_time"},
            {"write_file", "append_file"},
            id="file",
        ),
    ],
)
async def test_a_kind_offers_its_tools_first(word: str, offered: set[str], doing: set[str]) -> None:
    """Found the kind of change ("remember that..." is memory, in any language), the first step
    offers that kind's tools and those of no kind; the turn may act with the kind's tools."""
    model = FakeModel()
    model.choices.append(word)
    state = make_state("Acuérdate de que mi color favorito es el turquesa.", kinds=KINDS)
    plan = make_plan(state)
    await Intent(Asker(model)).plan(state, plan)
    assert state.may_act is True and plan.names == frozenset(offered)
    assert state.doing == frozenset(doing) and state.fired == [("intent", word)]
    later = make_plan(state)
    state.step = 2
    await Intent(Asker(model)).plan(state, later)
    assert later.names == state.names  # the next steps offer every tool


async def test_after_a_read_for_a_change_the_route_is_among_the_kind_s_tools() -> None:
    """A file change read first is then routed among the file tools that act, not every one."""
    state = make_state("Change debug=true to debug=false in config.ini", kinds=KINDS)
    state.may_act, state.doing = True, frozenset({"write_file", "append_file"})
    plan = make_plan(state)
    plan.route = READ_FIRST
    calls = (("read_file", '{"path": "config.ini"}'),)
    run = StepRun(plan, calls, (ToolOutcome("debug=true"),), (False,), frozenset())
    following = await ReadFirst(_nothing).after(state, run)
    assert following is not None and following.tools == state.doing


async def test_an_action_keeps_every_tool() -> None:
    """Found an action (several kinds, or a tool of no kind), every tool stays on offer."""
    model = FakeModel()
    model.choices.append(ACTION)
    state = make_state("Recuerda que mi color favorito es el verde.")
    plan = make_plan(state)
    await Intent(Asker(model)).plan(state, plan)
    assert state.may_act is True and plan.names == frozenset((*LOOKING, *ACTING))


async def test_a_later_step_of_a_question_stays_without_acting_tools() -> None:
    """The decision holds for the whole turn: a later step asks nothing and acts nothing."""
    model = FakeModel()
    state = make_state("What is in notes.md?", step=2)
    state.may_act = False
    plan = make_plan(state)
    await Intent(Asker(model)).plan(state, plan)
    assert model.asked == [] and plan.names == frozenset(LOOKING)


@pytest.mark.parametrize(
    ("kwargs", "why"),
    [
        pytest.param({"client": ("mul",)}, "client-led", id="client"),
        pytest.param({"tools": LOOKING}, "nothing acts", id="looking-only"),
        pytest.param({"requests": 1}, "no spare request", id="budget"),
        pytest.param({"step": 2}, "not the first step", id="later"),
    ],
)
async def test_it_does_not_ask_when_there_is_nothing_to_decide(
    kwargs: dict[str, object], why: str
) -> None:
    """No question when the caller leads, no tool acts, no request is spare, or later."""
    model = FakeModel()
    model.choices.append(LOOKUP)
    state = make_state("Write hi to a.txt", **kwargs)  # type: ignore[arg-type]
    plan = make_plan(state)
    before = set(plan.names)
    await Intent(Asker(model)).plan(state, plan)
    assert model.asked == [], why
    assert state.may_act is None and set(plan.names) == before


async def test_no_answer_leaves_the_tools() -> None:
    """When the model cannot say, nothing is taken away."""
    model = FakeModel()
    model.choices.append(None)
    state = make_state("Write hi to a.txt")
    plan = make_plan(state)
    await Intent(Asker(model)).plan(state, plan)
    assert state.may_act is None and plan.names == state.names


async def test_an_action_lets_go_of_a_held_read_so_the_step_is_routed_first() -> None:
    """Found an action, a read held for the named files waits for the route: a command that
    names a file ("run greet.sh") runs without reading it first."""
    model = FakeModel()
    model.choices.append(ACTION)
    state = make_state("Run greet.sh with sh.")
    state.named = ("greet.sh",)
    plan = make_plan(state)
    plan.route = READ_FIRST
    await Intent(Asker(model)).plan(state, plan)
    assert plan.route is None and not plan.rule.must_call and state.named == ("greet.sh",)
    assert plan.names == frozenset((*ACTING, "read_file"))  # routed among what acts


async def _nothing(request: str) -> list[str]:
    return []


@pytest.mark.parametrize(
    ("planned", "word"),
    [
        pytest.param((), ANSWER, id="none"),
        pytest.param(("read_file",), LOOKUP, id="a-read"),
        pytest.param(("list_dir", "read_file"), LOOKUP, id="looks-only"),
        pytest.param(("write_file",), "write", id="a-file"),
        pytest.param(("read_file", "append_file"), "write", id="read-then-change"),
        pytest.param(("current_time", "memory_save"), "remember", id="kindless-and-memory"),
        pytest.param(("exec",), ACTION, id="a-command"),
        pytest.param(("exec", "append_file", "exec"), ACTION, id="command-and-file"),
        pytest.param(("memory_save", "write_file"), ACTION, id="two-kinds"),
    ],
)
def test_a_plan_says_what_the_request_asks_for(planned: tuple[str, ...], word: str) -> None:
    """No tool: words only; tools that look: a look-up; tools of one kind (beside tools of
    none): that kind; a command or several kinds: an action."""
    assert word_of_plan(make_state(kinds=KINDS), planned) == word


@pytest.mark.parametrize(
    ("answer", "may_act", "offered"),
    [
        pytest.param(NONE, False, None, id="none"),
        pytest.param("read_file", False, set(LOOKING), id="lookup"),
        pytest.param("read_file, append_file", True, {*LOOKING, "write_file", "append_file"}),
    ],
)
async def test_by_plan_the_turn_asks_one_question(
    answer: str, may_act: bool, offered: set[str] | None
) -> None:
    """With the plan rule on, the intent is asked by the plan question alone (on the
    questions' slot): its tools lead the steps; a plan of no tool answers in words."""
    model = FakeModel()
    model.choices.append(answer)
    state = make_state("Hänge 'fertig' an log.txt an.", kinds=KINDS)
    plan = make_plan(state)
    await Intent(Asker(model), by_plan=True).plan(state, plan)
    [asked] = model.asked
    assert asked[0].content.startswith(PLAN_HEAD) and model.options[0][0] == NONE
    assert state.requests.used == 1 and state.may_act is may_act
    assert state.planned == tuple(t for t in answer.split(", ") if t != NONE)
    if offered is None:
        assert state.words_only and plan.tools is None
    else:
        assert plan.names == frozenset(offered)


@pytest.mark.parametrize(
    ("word", "read", "words_only"),
    [
        pytest.param(ANSWER, False, True, id="words-alone-let-the-read-go"),
        pytest.param(LOOKUP, True, False, id="a-question-about-the-file-reads-it"),
        pytest.param(ACTION, False, True, id="the-questions-disagree-the-least-is-done"),
        pytest.param("remember", True, False, id="another-kind-reads-it"),
        pytest.param(None, True, False, id="unsure-reads-it"),
    ],
)
async def test_a_request_naming_files_planned_as_no_tool_asks_whether_to_read_them(
    word: str | None, read: bool, words_only: bool
) -> None:
    """Planned as no tool, a request naming workdir files may ask about them (the plan said
    none for some such questions) or only for words (a command shown, not run): the intent
    question, on the quick slot, decides. ``answer`` lets read_first's read go, and so does
    ``action`` (the plan found no tool for it: the turn does the least); nothing but the word
    for changing files lets the turn act."""
    model = SlotRecording()
    model.choices.extend([NONE, word])
    request = "Mit welchem Befehl benenne ich entwurf.txt um? Zeig ihn nur."
    state = make_state(request, kinds=KINDS)
    plan = make_plan(state)
    plan.route, state.named = READ_FIRST, ("entwurf.txt",)
    with pinning.use(0, questions=lambda: 2, apart=3):
        await Intent(Asker(model), by_plan=True).plan(state, plan)
    assert model.asked[1][0].content.startswith(INTENT_HEAD) and model.slots == [2, 3]
    assert state.may_act is False and state.words_only is words_only
    assert (plan.route == READ_FIRST) is read and (plan.tools is None) is words_only
    assert bool(state.named) is read


async def test_files_planned_as_no_tool_are_changed_when_the_intent_says_so() -> None:
    """Planned as no tool, "in persianas.cfg change the closing time from 21:00 to 22:30 and
    leave the rest" is found by the intent question to change files: the turn acts, routed
    among the file tools (the named file is still read before a change by path)."""
    model = FakeModel()
    model.choices.extend([NONE, "write"])
    request = "En persianas.cfg cambia la bajada de las 21:00 a las 22:30 y deja lo demás."
    state = make_state(request, kinds=KINDS)
    plan = make_plan(state)
    plan.route, state.named = READ_FIRST, ("persianas.cfg",)
    await Intent(Asker(model), by_plan=True).plan(state, plan)
    assert state.may_act is True and not state.words_only and plan.route is None
    assert state.doing == frozenset({"write_file", "append_file"})
    assert state.fired[-1] == ("intent", "write")


async def test_a_request_naming_no_file_planned_as_no_tool_asks_nothing_more() -> None:
    model = FakeModel()
    model.choices.append(NONE)
    state = make_state("Wie heißt die Hauptstadt von Peru?", kinds=KINDS)
    plan = make_plan(state)
    await Intent(Asker(model), by_plan=True).plan(state, plan)
    assert len(model.asked) == 1 and state.words_only


@pytest.mark.parametrize(
    ("word", "kept", "may_act"),
    [
        pytest.param(LOOKUP, ("read_file", "exec"), False, id="a-lookup-reads-only"),
        pytest.param(ANSWER, ("read_file",), False, id="words"),
        pytest.param(ACTION, ("read_file", "exec"), True, id="a-command"),
        pytest.param("write", ("read_file",), False, id="a-change"),
        pytest.param(None, ("read_file",), False, id="unsure"),
    ],
)
async def test_a_planned_command_runs_only_when_the_intent_agrees(
    word: str | None, kept: tuple[str, ...], may_act: bool
) -> None:
    """A plan naming exec (no kind of its own: it may change anything) is put to the intent
    question too; unless that finds an action or a look-up, the plan keeps only its other
    tools. A look-up keeps the command, as a tool that looks: the turn runs it read-only."""
    model = SlotRecording()
    model.choices.extend(["read_file, exec", word])
    state = make_state("Résume notes.md en deux phrases.", kinds=KINDS)
    plan = make_plan(state)
    with pinning.use(0, questions=lambda: 2, apart=3):
        await Intent(Asker(model), by_plan=True).plan(state, plan)
    assert model.asked[1][0].content.startswith(INTENT_HEAD) and state.requests.used == 2
    assert model.slots == [2, 3]  # the plan on the questions' slot, the intent on the quick slot
    assert state.planned == kept and state.may_act is may_act
    assert ("exec" in plan.names) is ("exec" in kept)
    assert ("exec" in state.looking) is (word == LOOKUP)


@pytest.mark.parametrize(
    ("word", "may_act", "offered"),
    [
        pytest.param(LOOKUP, False, {*LOOKING, "exec"}, id="a-lookup"),
        pytest.param("remember", True, {"memory_save", "current_time"}, id="a-kind"),
        pytest.param(None, None, {*LOOKING, *ACTING}, id="unsure"),
    ],
)
async def test_a_plan_of_a_command_alone_goes_by_the_intent_word(
    word: str | None, may_act: bool | None, offered: set[str]
) -> None:
    """A plan of exec alone that the intent question does not find an action leaves the turn
    to that word, unplanned (unsure: undecided); a look-up keeps it planned, among the tools
    that look (it runs read-only)."""
    model = FakeModel()
    model.choices.extend(["exec", word])
    state = make_state("What time is it? Use date.", kinds=KINDS)
    plan = make_plan(state)
    await Intent(Asker(model), by_plan=True).plan(state, plan)
    assert state.planned == (("exec",) if word == LOOKUP else ())
    assert state.may_act is may_act and not state.words_only
    assert plan.names == frozenset(offered)


@pytest.mark.parametrize(
    ("word", "kept", "may_act"),
    [
        pytest.param("write", ("read_file", "write_file"), True, id="a-change"),
        pytest.param("remember", ("read_file", "memory_save"), True, id="a-save"),
        pytest.param(ACTION, ("read_file", "write_file", "memory_save"), True, id="both"),
        pytest.param(LOOKUP, ("read_file",), False, id="a-lookup"),
        pytest.param(None, ("read_file",), False, id="unsure"),
    ],
)
async def test_a_plan_of_two_kinds_keeps_what_the_intent_names(
    word: str | None, kept: tuple[str, ...], may_act: bool
) -> None:
    """A plan acting on two kinds (a change and a save) is put to the intent question too:
    a kind's word keeps that kind's tools, ``action`` all, anything else none that act
    (planned for a change of one setting, a save to memory ran beside the edit)."""
    model = FakeModel()
    model.choices.extend(["read_file, write_file, memory_save", word])
    state = make_state("Set the theme in app.ini to dark; keep the rest.", kinds=KINDS)
    await Intent(Asker(model), by_plan=True).plan(state, make_plan(state))
    assert model.asked[1][0].content.startswith(INTENT_HEAD) and state.requests.used == 2
    assert state.planned == kept and state.may_act is may_act
    assert (("intent", "unconfirmed") in state.fired) is (word != ACTION)


async def test_a_plan_of_one_kind_asks_nothing_more() -> None:
    model = FakeModel()
    model.choices.append("read_file, append_file")
    state = make_state("Add 'done' to log.txt.", kinds=KINDS)
    await Intent(Asker(model), by_plan=True).plan(state, make_plan(state))
    assert len(model.asked) == 1 and state.may_act is True


TASKS = {**KINDS, "schedule_task": SCHEDULE}


@pytest.mark.parametrize(
    ("planned", "request_text"),
    [
        pytest.param(
            "memory_save",
            "Note dans garde_meuble.txt que le box est le 4417.",
            id="fr-memory",
        ),
        pytest.param(
            "schedule_task",
            "Notier mir in werkstatt.txt, dass die Auftragsnummer 5521 ist.",
            id="de-task",
        ),
        pytest.param("memory_save", "合鍵のことを aikagi.txt にメモして。", id="ja-memory"),
    ],
)
async def test_a_note_for_a_named_file_planned_elsewhere_is_written_when_the_intent_says_so(
    planned: str, request_text: str
) -> None:
    """Planned as a save to memory or a task, a request that names a file path (one that
    does not exist yet) is put to the intent question too, on the quick slot: its word for
    changing files offers the turn the file tools, and the plan's save or task is gone."""
    model = SlotRecording()
    model.choices.extend([planned, "write"])
    state = make_state(request_text, tools=(*LOOKING, *ACTING, "schedule_task"), kinds=TASKS)
    plan = make_plan(state)
    with pinning.use(0, questions=lambda: 2, apart=3):
        await Intent(Asker(model), by_plan=True).plan(state, plan)
    assert model.asked[1][0].content.startswith(INTENT_HEAD) and model.slots == [2, 3]
    assert state.planned == () and state.may_act is True
    assert state.doing == frozenset({"write_file", "append_file"})
    assert planned not in plan.names and ("intent", "file named") in state.fired


@pytest.mark.parametrize("word", ["remember", ACTION, LOOKUP, ANSWER, None])
async def test_a_save_naming_a_file_is_kept_unless_the_intent_says_write(
    word: str | None,
) -> None:
    """Any other word keeps the plan as it was: "remember that my settings live in
    config.ini" is a save, and nothing but the file word moves it."""
    model = FakeModel()
    model.choices.extend(["memory_save", word])
    state = make_state("Remember that my settings live in config.ini.", kinds=TASKS)
    await Intent(Asker(model), by_plan=True).plan(state, make_plan(state))
    assert state.requests.used == 2 and state.planned == ("memory_save",)
    assert state.may_act is True and ("intent", "file named") not in state.fired


@pytest.mark.parametrize(
    ("planned", "request_text"),
    [
        pytest.param("memory_save", "Remember that my locker is 1900.", id="no-file-named"),
        pytest.param("append_file", "Add 'done' to log.txt.", id="a-file-tool"),
        pytest.param("read_file", "What is in log.txt?", id="nothing-acts"),
    ],
)
async def test_a_plan_acting_on_files_or_naming_no_file_asks_nothing_more(
    planned: str, request_text: str
) -> None:
    model = FakeModel()
    model.choices.append(planned)
    state = make_state(request_text, kinds=TASKS)
    await Intent(Asker(model), by_plan=True).plan(state, make_plan(state))
    assert len(model.asked) == 1 and state.planned == (planned,)
