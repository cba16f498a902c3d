"""Intent: what does the request ask for: something done (and to what), something looked up, or
only words?

Before the turn's first step, when tools that act are on offer (writing files, running commands,
saving to memory, scheduling), the model is asked about the request alone, in a short prompt of
its own, under a grammar, in whatever language the request came. Its words name what the request
changes, by the kinds of the turn's acting tools (:mod:`agentd.tools.kinds`: ``write`` a file,
``remember`` a fact, ``schedule`` a task), or ``action`` (a command, several kinds, a tool of no
kind: every tool stays on offer), ``lookup`` and ``answer``. A kind's first step offers that
kind's tools and the tools of no kind ("remember that ..." is offered memory, not
``write_file``; asked in the conversation which tool to call, the model wrote such facts to
files or answered that it had no tool); the next steps offer every tool (a change, then a
command). A look-up's turn is offered only the tools that look (a summary can no longer save a
file). An answer's turn is offered no tool at all: a translation or a capital city is answered
in one request, with no routing question and no call to check. A request that names the
workdir's files and is found to need no action is a look-up (:mod:`.read_first` holds its
read); one that asks for an action is routed first (a command needs no read).

With the plan rule on (the default), the question is the plan question (:mod:`.plan`): one
question a turn instead of the intent question, a routing question and a check. The tools the
model plans say what the request asks for (:func:`word_of_plan`: none, an answer; tools that
look, a look-up; tools of one kind, that kind; else an action) and then lead the steps. A plan
that names ``exec`` or a tool of no kind (either may change anything), or tools of several
kinds, is put to the intent question too, on the quick slot: unless it answers ``action``, only
the acting tools of the kind it names stay in the plan; a look-up keeps its commands, which then
run with the workdir read-only (the turn's tools run under
:func:`agentd.tools.policy.read_only` whenever the request asks for no change); words keep none.
A planned command that an action or a look-up would run is put to one question more
(:mod:`.shown`, its own rule): a request that wants only the command written out gets words.
A plan that saves a memory or schedules a task while the request names a file path (a note for
a named file, planned as a memory) is put to the intent question too: its word for changing
files offers the turn the file tools instead; any other word keeps the plan.

For a small local model only (``serves = "local"``); a capable model chooses its tools itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

import structlog

from agentd.engine.asking import Asker
from agentd.engine.guards.base import Serves
from agentd.engine.guards.plan import ask as ask_plan
from agentd.engine.guards.read_first import READ_FIRST, READ_TOOL, release_read
from agentd.engine.guards.shown import Shown
from agentd.engine.turnstate import REQUEST_CHARS, StepPlan, TurnState
from agentd.messages import Message, assistant, system, user
from agentd.tools.kinds import (
    COMMAND,
    FILE,
    KIND_OF_WORD,
    KINDS,
    MEMORY,
    SCHEDULE,
    WORD_OF_KIND,
    acting_kinds,
    of_kind,
)
from agentd.tools.mentions import named_paths

log = structlog.get_logger("agentd.engine.guards.intent")

ACTION, LOOKUP, ANSWER = "action", "lookup", "answer"
#: Every kind of tool, in the order the question lists them.
ALL_KINDS = tuple(kind for kind, _, _ in KINDS)
#: The words of a turn whose acting tools have every kind.
OPTIONS = (*(word for _, word, _ in KINDS), ACTION, LOOKUP, ANSWER)
INTENT_HEAD = "You sort requests sent to an assistant that has tools. Reply with one word.\n"
#: The line of ``action``: several kinds at once, or what a tool of no kind does.
ACTION_LINE = (
    "action: the user wants a command or script run now (also when the user wants its "
    "output), several of these done, or something else done now.\n"
)
INTENT_TAIL = (
    "lookup: the user wants only a reply in words, and it needs something the assistant has "
    "to look up first: a file's content or a summary of it, the current time or date, a web "
    "page, something the user told it in an earlier conversation.\n"
    "answer: the user wants only a reply in words that needs nothing looked up: a fact "
    "everyone knows, arithmetic, an explanation, a translation of the words given, an example "
    "shown but not carried out, or just a chat."
)
#: Worked examples shown before each request (the same every time for a tool set: the server
#: keeps them in its prompt cache). None is a case of the agentic suite.
INTENT_EXAMPLES = (
    ("Delete the second line of todo.md.", FILE),
    ("What does this error message mean: permission denied?", ANSWER),
    ("Create hello.py with a line that prints hello.", FILE),
    ("Change the port in server.conf to 9090.", FILE),
    ("How many days are there until Friday?", LOOKUP),
    ("Please keep in mind for later that I am vegetarian.", MEMORY),
    ("Give me a short overview of report.txt.", LOOKUP),
    ("Run make test and tell me what fails.", ACTION),
    ("Sorry, long day at work today.", ANSWER),
    ("We just got back from a week in Portugal.", ANSWER),
    ("Remind me tomorrow at nine to call the dentist.", SCHEDULE),
    ("Which reminders have I set?", LOOKUP),
    ("¿Qué significa la palabra «sobremesa»?", ANSWER),
    ("Guarda en tu memoria que soy alérgico a las nueces.", MEMORY),
    ("What is the largest planet in the solar system?", ANSWER),
    ("How do you say 'thank you' in Japanese?", ANSWER),
    ("Wie heißt meine Schwester noch mal?", LOOKUP),
    ("Use grep to find the lines of app.py that mention TODO.", ACTION),
    ("Erinnere mich jeden Montag an den Wochenbericht.", SCHEDULE),
    ("Save my new address in memory and write it to address.txt too.", ACTION),
    ("Écris « à demain » dans le fichier message.txt.", FILE),
    ("What would a command to zip a folder look like? Don't run it.", ANSWER),
    ("今何時ですか？", LOOKUP),  # noqa: RUF001 (a Japanese question mark)
)
INTENT_QUESTION = 'Request: "{request}"\n{words}?'


def words(kinds: tuple[str, ...]) -> tuple[str, ...]:
    """The intent words of a turn whose acting tools have ``kinds``."""
    return (*(WORD_OF_KIND[kind] for kind in kinds), ACTION, LOOKUP, ANSWER)


@cache
def _opening(kinds: tuple[str, ...]) -> tuple[Message, ...]:
    """The rules and worked examples for these words (an example of a kind not on offer
    is left out)."""
    lines = "".join(
        f"{word}: the user wants something done now: {meaning}.\n"
        for kind, word, meaning in KINDS
        if kind in kinds
    )
    rules = INTENT_HEAD + lines + ACTION_LINE + INTENT_TAIL
    shots: list[Message] = []
    for example, label in INTENT_EXAMPLES:
        if label in kinds or label in (ACTION, LOOKUP, ANSWER):
            word = WORD_OF_KIND.get(label, label)
            shots += [user(_question(example, kinds)), assistant(word)]
    return (system(rules), *shots)


def _question(request: str, kinds: tuple[str, ...]) -> str:
    named = words(kinds)
    listed = ", ".join(named[:-1]) + " or " + named[-1]
    return INTENT_QUESTION.format(request=request, words=listed[:1].upper() + listed[1:])


def prompt(request: str, kinds: tuple[str, ...] = ALL_KINDS) -> list[Message]:
    """The intent question for ``request`` (acting tools of ``kinds``): the rules, the worked
    examples, the request."""
    return [*_opening(kinds), user(_question(request[:REQUEST_CHARS], kinds))]


def word_of_plan(state: TurnState, planned: tuple[str, ...]) -> str:
    """The intent word a plan of ``planned`` tools amounts to: no tool, ``answer``; only
    tools that look, ``lookup``; tools of one kind (and of none), that kind's word; else
    ``action`` (a command, several kinds)."""
    if not planned:
        return ANSWER
    if not set(planned) & state.acting:
        return LOOKUP
    kinds = {state.kinds.get(name, "") for name in planned} - {""}
    if len(kinds) == 1:
        (kind,) = kinds
        return WORD_OF_KIND.get(kind, ACTION)
    return ACTION


def doubtful(state: TurnState, planned: tuple[str, ...]) -> bool:
    """Whether the plan is put to the intent question too (:func:`doubtful_tools`)."""
    return doubtful_tools(planned, state.acting, state.kinds)


def doubtful_tools(
    planned: tuple[str, ...], acting: frozenset[str], kinds: Mapping[str, str]
) -> bool:
    """Whether ``planned`` acts beyond what one intent word names: a command or a tool of
    no kind (either may change anything), or tools of several kinds (a change and a save)."""
    doing = {kinds.get(name, "") for name in planned if name in acting}
    return len(doing) > 1 or not doing <= set(WORD_OF_KIND)


def elsewhere(state: TurnState, planned: tuple[str, ...]) -> bool:
    """Whether ``planned`` acts, but not on files nor by a command, while the request names
    a file path (:func:`~agentd.tools.mentions.named_paths`: a file that may not exist yet):
    a note for a named file planned as a memory or a task."""
    doing = {state.kinds.get(name, "") for name in planned if name in state.acting}
    if not doing or doing & {FILE, COMMAND, ""}:
        return False
    return bool(named_paths(state.request))


def confirmed(
    planned: tuple[str, ...], word: str | None, acting: frozenset[str], kinds: Mapping[str, str]
) -> tuple[str, ...]:
    """The plan once the intent question answered ``word`` about it: ``action`` keeps it
    whole; a kind's word keeps the acting tools of that kind; a look-up keeps its commands
    (:func:`read_only_commands`); words or no answer keep none that act. Tools that only
    look stay."""
    if word == ACTION:
        return planned
    keep = KIND_OF_WORD.get(word or "", COMMAND if word == LOOKUP else None)
    return tuple(n for n in planned if n not in acting or (keep and kinds.get(n) == keep))


def read_only_commands(planned: tuple[str, ...], kinds: Mapping[str, str]) -> frozenset[str]:
    """The commands of a look-up's plan: they run with the workdir read-only
    (:func:`agentd.tools.policy.read_only`), so in that turn they only look ("count the
    lines with wc" found to be a look-up still runs ``wc``; a command that would change
    something fails and says why)."""
    return frozenset(n for n in planned if kinds.get(n) == COMMAND)


@dataclass(slots=True)
class Intent:
    """The step planner that asks, once a turn, whether the request asks for an action;
    ``by_plan``: by the plan question (:mod:`.plan`), whose tools then lead the steps."""

    asker: Asker
    by_plan: bool = False
    shown: Shown | None = None
    name: str = "intent"
    serves: Serves = "local"

    async def plan(self, state: TurnState, plan: StepPlan) -> None:
        if state.may_act is None and self._asks(state, plan):
            word = await (self._planned(state, plan) if self.by_plan else self._word(state))
            if word is not None:
                _decide(state, plan, word)
        if state.words_only:
            plan.without_tools()
        elif state.may_act is False and plan.tools:
            plan.only(plan.names & state.looking)

    async def _word(self, state: TurnState, *, apart: bool = False) -> str | None:
        """The intent question; ``apart``: beside the plan question, which holds the
        questions' slot, on the quick slot (each would evict the other's cached prompt)."""
        kinds = acting_kinds(state.acting, state.kinds)
        question = prompt(state.request, kinds)
        options = words(kinds)
        return await self.asker.ask(
            state, "intent", question, options, shared=not apart, apart=apart
        )

    async def _planned(self, state: TurnState, plan: StepPlan) -> str | None:
        if state.schemas is None:
            return await self._word(state)
        planned = await ask_plan(self.asker, state)
        if planned is None:
            return None
        if not planned and plan.route == READ_FIRST:
            return await self._about_files(state, plan)
        for_file = elsewhere(state, planned)
        if for_file or doubtful(state, planned):
            word = await self._word(state, apart=True)
            if for_file and word is not None and KIND_OF_WORD.get(word) == FILE:
                # "Note in garde_meuble.txt that ...", planned as a save to memory or a task:
                # the file was never written (7 of 39 such requests of the suite's recorded
                # runs). Only the word for changing files moves the turn to the file tools.
                state.fire("intent", "file named")
                return word
            if word in (ACTION, LOOKUP) and await self._shown(state, planned):
                word = ANSWER  # the command is written out, not run (:mod:`.shown`)
            if doubtful(state, planned) and word != ACTION:
                # A command (or a tool of no kind) runs only when the intent question too
                # finds that the request asks for an action: planned for summaries of a file
                # and for arithmetic, exec ran them. Tools of several kinds too: planned for a
                # change of one setting, a save to memory ran beside the edit.
                planned = confirmed(planned, word, state.acting, state.kinds)
                state.fire("intent", "unconfirmed")
                if word == LOOKUP:
                    # Its commands look: they run read-only (the loop, as may_act is False).
                    state.looking |= read_only_commands(planned, state.kinds)
                if not planned:
                    return word  # what the intent question found (None: undecided)
        state.planned = planned
        return word_of_plan(state, planned)

    async def _shown(self, state: TurnState, planned: tuple[str, ...]) -> bool:
        """Whether the ``shown`` question finds that the planned command is only to be
        written out (asked when the plan names one that is about to run)."""
        if self.shown is None or COMMAND not in {state.kinds.get(n) for n in planned}:
            return False
        if not await self.shown.only(state):
            return False
        state.fire("shown", "written out")
        return True

    async def _about_files(self, state: TurnState, plan: StepPlan) -> str:
        """A request that names workdir files, planned as no tool: a question about them
        (their content, a summary: the plan said none for some), one that only wants words
        ("which command would rename entwurf.txt? only show it"), or a change of them (the
        plan said none for edits worded "change X from A to B and leave the rest", in
        Spanish and French above all). The intent question, on the quick slot, tells them
        apart: its word for changing files makes the turn a change of them (routed among the
        file tools; the file is read first); ``answer``, and ``action`` (something done that
        is no change of the files, where the plan found no tool to do it: the two questions
        disagree, and the turn does the least), let the read go, for words alone (read, such
        requests were answered with how to call ``read_file``: requests to be shown a command
        were mostly found to be an ``action``); any other word keeps the read of a
        look-up."""
        word = await self._word(state, apart=True)
        if word is not None and KIND_OF_WORD.get(word) == FILE:
            return word
        if word not in (ANSWER, ACTION):
            return LOOKUP
        release_read(state, plan)
        state.named = ()
        state.fire("intent", "no read")
        return ANSWER

    @staticmethod
    def _asks(state: TurnState, plan: StepPlan) -> bool:
        """Only a turn's first step that answers a user's message, with tools that act on
        offer and no call demanded by the caller, asks."""
        return (
            state.step == 1
            and state.fresh
            and not state.client_led
            and not state.rule.must_call
            and bool(plan.names & state.acting)
        )


def _decide(state: TurnState, plan: StepPlan, word: str) -> None:
    """What the turn is offered after the model's ``word`` (see the module docstring)."""
    if word == ANSWER and plan.route == READ_FIRST:
        word = LOOKUP  # the request names the workdir's files: they are read
    acts = word not in (LOOKUP, ANSWER)
    if acts:
        # Routed first among what acts on the request's kind (and the read of a file): a
        # command needs no read, a change by path still reads first (route).
        named = plan.route == READ_FIRST
        release_read(state, plan)
        if word != ACTION:
            kind = KIND_OF_WORD[word]
            state.doing = of_kind(kind, state.acting, state.kinds)
            plan.only(of_kind(kind, plan.names, state.kinds))
        elif named:
            plan.only(state.acting | {READ_TOOL})
    state.may_act = acts
    state.words_only = word == ANSWER
    state.fire("intent", word)
    log.info("turn.intent", intent=word)
