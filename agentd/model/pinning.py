"""Which llama-server slot a request goes to: a session keeps its own slot.

llama-server keeps one prompt cache per slot and sends a request without ``id_slot`` to the idle
slot whose cache looks most like it, or the one used least recently: a summary, an embedding or
another session's turn can land on the slot that holds this session's prefix, and its next turn
then reads the whole conversation again. :class:`SlotPins` gives each session a slot of its own
among the first ``sessions`` slots, and the work that is no session's turn two slots of its
own: :attr:`SlotPins.background` (compaction summaries) and :attr:`SlotPins.quick` (stateless
requests). Embeddings cannot be pinned (llama-server ignores ``id_slot`` on ``/v1/embeddings``
and gives them the slot used least recently): the chat model's are served by a second server
(:func:`agentd.model.embed_server.open_chat_embedder`).

The questions every turn asks alike go to the background slot too (:attr:`SlotPins.questions`,
:func:`shared_question`): the intent question's prompt (asked by the plan question: its rules,
tools and worked examples, then the request) shares nothing with the session's. On the
session's slot it replaced the session's cached prefix, and the step after it read the system
prompt, the tools and the history again (measured on the first turn after a warm start: 764
tokens for the question, 12 s, then the step cold); on a slot of its own its prefix stays
cached and each question reads only its request. Summaries are rare and run after a turn; while
one is being written on the background slot the questions go to the quick slot (llama-server
would make them wait for the busy slot). On the session's slot, as they went before, a question
replaced the session's prompt: in the 50-turn long session (summaries on, 2 cores) a turn whose
budget dropped old messages while a summary was written read 1,829 tokens again in 34.5 s, the
same turn with no summary running 316 in 6.4 s. A fifth server slot for them made this
llama-server build abort while loading the model (``-c`` 26,624 or 26,880 with ``--parallel 5
--kv-unified-per-slot 8192``: GGML_ASSERT ggml_can_mul_mat), so they share the background slot.

A session keeps its slot across its turns; a session new to the pins takes the slot used least
recently that no running turn holds; when every session slot is held by a running turn, the
new one goes unpinned (llama-server picks). A turn's routing question stays on the session's
slot: it shares the session's prefix, so its cache serves it. A question whose prompt shares
nothing with any other request (whether a step's calls are needed, the intent question that
confirms a planned command) goes to the quick slot
(:func:`question_apart`): anywhere else it would replace a prefix that is read again later.

llama-server's host-memory prompt cache (``--cache-ram``, on by default in the packaged build)
softens each of these evictions: a slot's prompt that another replaced is kept in host memory
and restored for a later request that shares it (on a standalone server an intent question
read 1,093 tokens, another prompt took the slot, and the next intent question read 27 with
1,067 from that cache). What a restore costs against a slot that kept its prompt was not
measured apart; the pins keep each prompt where it is read again.

The slot of the running task is a contextvar (:func:`use`, :func:`current`) that the LLM client
reads when it builds a request; the sidecar sizes the server so that every slot holds a whole
context of its own (:func:`slot_layout`).
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

#: A session as the pins know it: (tenant, session id).
SessionKey = tuple[str, str]

_current: ContextVar[int | None] = ContextVar("agentd_model_slot", default=None)
#: Where the questions every session asks alike go now (None: to the current slot).
QuestionsSlot = Callable[[], int | None]
_questions: ContextVar[QuestionsSlot | None] = ContextVar("agentd_questions_slot", default=None)
#: Where a question whose prompt no other request shares goes (None: to the current slot).
_apart: ContextVar[int | None] = ContextVar("agentd_apart_slot", default=None)


def current() -> int | None:
    """The slot the current task's model requests go to (None: the server picks)."""
    return _current.get()


@contextmanager
def use(
    slot: int | None, questions: QuestionsSlot | None = None, apart: int | None = None
) -> Iterator[None]:
    """Send the model requests made inside this block to ``slot`` (None: the server picks),
    the questions every session asks alike to the slot ``questions()`` names when they are
    asked (None: to ``slot``), and a question that shares its prompt with nothing to
    ``apart`` (None: to ``slot``)."""
    token = _current.set(slot)
    token_q = _questions.set(questions)
    token_a = _apart.set(apart)
    try:
        yield
    finally:
        _apart.reset(token_a)
        _questions.reset(token_q)
        _current.reset(token)


@contextmanager
def shared_question() -> Iterator[None]:
    """Send the requests made inside this block to the questions' slot, when the block runs
    under :func:`use` with one that is free now (a question whose prompt every session
    shares)."""
    questions = _questions.get()
    slot = questions() if questions is not None else None
    if slot is None:
        yield
        return
    with use(slot, questions):
        yield


@contextmanager
def question_apart() -> Iterator[None]:
    """Send the requests made inside this block to the slot for questions whose prompt no
    other request shares (the quick slot), when the block runs under :func:`use` with one:
    on the session's slot such a question replaced the session's cached prompt, on the
    questions' slot the intent question's, and the next request there read it all again."""
    apart = _apart.get()
    if apart is None:
        yield
        return
    with use(apart, _questions.get(), apart):
        yield


def slot_layout(sessions: int) -> int:
    """How many slots the server runs for ``sessions`` pinned sessions: those, plus the
    background and the quick slot."""
    return sessions + 2


def key_digest(key: SessionKey) -> str:
    """A session key as it is written to disk (no tenant or session name in the file)."""
    return hashlib.sha256("\0".join(key).encode()).hexdigest()[:32]


class SlotPins:
    """Session slots ``0 .. sessions-1``, then the background and the quick slot; the
    questions every session asks alike share the background slot."""

    def __init__(self, sessions: int) -> None:
        if sessions < 1:
            raise ValueError("pinning needs at least one session slot")
        self.sessions = sessions
        self.background = sessions
        self.quick = sessions + 1
        self.questions = self.background
        #: Summaries being written on the background slot now.
        self._summarizing = 0
        #: Session slots, the least recently used first, with the session each holds.
        self._order: OrderedDict[int, SessionKey | None] = OrderedDict(
            (slot, None) for slot in range(sessions)
        )
        self._of: dict[SessionKey, int] = {}
        self._held: dict[int, int] = {}
        #: Digests of sessions whose slot was restored from disk, and the slot.
        self._restored: dict[str, int] = {}

    def questions_slot(self) -> int | None:
        """The slot for the questions every session asks alike now: the background slot
        while no summary is written on it, else the quick slot (never a session's)."""
        return self.quick if self._summarizing else self.questions

    @contextmanager
    def summarizing(self) -> Iterator[None]:
        """Send a summary's requests to the background slot (the questions keep off it
        meanwhile)."""
        self._summarizing += 1
        try:
            with use(self.background):
                yield
        finally:
            self._summarizing -= 1

    def slot_of(self, key: SessionKey) -> int | None:
        """The slot ``key`` is pinned to, if any (its slot may be taken by then)."""
        return self._of.get(key)

    def next_free(self) -> int | None:
        """The slot a new session would take now (a warm-up fills it for that session)."""
        return next((s for s in self._order if not self._held.get(s)), None)

    def empty(self) -> list[int]:
        """The session slots no session has taken and no turn holds (a warm-up's copy goes
        there)."""
        restored = set(self._restored.values())
        return [
            s
            for s, key in self._order.items()
            if key is None and not self._held.get(s) and s not in restored
        ]

    @contextmanager
    def hold(self, key: SessionKey) -> Iterator[int | None]:
        """Pin ``key`` for the block (a turn): yields its slot, or None when every session
        slot is held by another running turn."""
        slot = self._take(key)
        if slot is None:
            yield None
            return
        self._held[slot] = self._held.get(slot, 0) + 1
        try:
            yield slot
        finally:
            self._held[slot] -= 1
            if not self._held[slot]:
                del self._held[slot]

    def _take(self, key: SessionKey) -> int | None:
        slot = self._of.get(key)
        if slot is None:
            slot = self._restored.pop(key_digest(key), None)
            if slot is not None and self._order.get(slot) is not None:
                slot = None  # another session took it meanwhile
        if slot is None:
            slot = self.next_free()
            if slot is None:
                return None
        previous = self._order.get(slot)
        if previous is not None and previous != key:
            del self._of[previous]
        self._restored = {d: s for d, s in self._restored.items() if s != slot}
        self._order[slot] = key
        self._order.move_to_end(slot)
        self._of[key] = slot
        return slot

    def snapshot(self) -> dict[str, int]:
        """Which session (by digest) holds which slot, to keep across a restart."""
        kept = {key_digest(k): s for k, s in self._of.items()}
        kept.update({d: s for d, s in self._restored.items() if s not in kept.values()})
        return kept

    def restore(self, saved: dict[str, int]) -> None:
        """Take back a :meth:`snapshot`: those sessions find their slots again (each slot once,
        session slots only)."""
        seen: set[int] = set()
        for digest, slot in saved.items():
            if isinstance(slot, int) and 0 <= slot < self.sessions and slot not in seen:
                seen.add(slot)
                self._restored[digest] = slot
                # A restored slot is used last: new sessions take the empty ones first.
                self._order.move_to_end(slot)


__all__ = [
    "SessionKey",
    "SlotPins",
    "current",
    "key_digest",
    "question_apart",
    "shared_question",
    "slot_layout",
    "use",
]
