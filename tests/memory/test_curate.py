"""Memories stay current: the model (a stub here) decides add / update / delete / nothing."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import anyio
import pytest

from agentd import said
from agentd.errors import LLMUnavailable
from agentd.memory.curate import about_the_same, decide_forget, decide_save
from agentd.memory.longterm import Memory, MemoryStats
from agentd.messages import Message, ToolCall
from agentd.model.embedders import get_embedder
from agentd.tools.memory import register_memory_tools
from agentd.tools.registry import ToolRegistry

pytestmark = pytest.mark.anyio


@dataclass
class StubModel:
    """Answers with the queued option texts; records what it was offered."""

    answers: list[str | None] = field(default_factory=list)
    offered: list[list[str]] = field(default_factory=list)
    prompts: list[str] = field(default_factory=list)
    fail: bool = False

    async def __call__(self, messages: Sequence[Message], options: Sequence[str]) -> str | None:
        if self.fail:
            raise LLMUnavailable("model server down")
        self.offered.append(list(options))
        self.prompts.append(str(messages[-1].content))
        return self.answers.pop(0)


def action(name: str, number: int | None = None) -> str:
    return json.dumps({"action": name} | ({"id": number} if number is not None else {}))


@dataclass
class FakeStore:
    """An in-memory MemoryAccess: search returns everything, similarity 0.9."""

    memories: dict[str, Memory] = field(default_factory=dict)
    counter: int = 0

    async def save(self, memory: Memory) -> str:
        self.counter += 1
        key = memory.key or f"m{self.counter}"
        self.memories[key] = replace(memory, key=key, ts=memory.ts or self.counter)
        return key

    async def search(
        self, query: str, top_k: int = 5, tags_include: Sequence[str] = ()
    ) -> list[Memory]:
        return [replace(m, score=0.9) for m in self.memories.values()][:top_k]

    async def delete(self, key: str) -> bool:
        return self.memories.pop(key, None) is not None

    async def stats(self) -> MemoryStats:
        return MemoryStats("fake", "", "", None, len(self.memories), None)


PARIS = Memory("I live in Paris.", key="home", ts=1)
TEA = Memory("Meine Lieblingsteesorte ist Sencha.", key="tea", ts=2)


async def test_the_options_are_exactly_the_valid_decisions() -> None:
    """Add, update each candidate by number, or nothing: the grammar's whole choice."""
    model = StubModel([action("update", 2)])
    decision = await decide_save(model, "Ich wohne jetzt in Berlin.", [TEA, PARIS])
    assert decision.action == "update" and decision.memory == PARIS
    assert model.offered == [
        [action("add"), action("update", 1), action("update", 2), action("nothing")]
    ]
    assert "1. Meine Lieblingsteesorte ist Sencha.\n2. I live in Paris." in model.prompts[0]


async def test_no_similar_memory_needs_no_model() -> None:
    """Nothing to compare with: add, without asking."""
    model = StubModel()
    assert (await decide_save(model, "x", [])).action == "add"
    assert (await decide_forget(model, "x", [])).action == "nothing"
    assert model.offered == []


async def test_a_failing_model_adds_and_deletes_nothing() -> None:
    """The old behaviour when the model cannot answer: a save adds, a forget deletes nothing."""
    model = StubModel(fail=True)
    assert (await decide_save(model, "I moved to Berlin.", [PARIS])).action == "add"
    assert (await decide_forget(model, "my address", [PARIS])).action == "nothing"
    unparsable = StubModel([None])
    assert (await decide_save(unparsable, "I moved to Berlin.", [PARIS])).action == "add"


async def _tools(store: FakeStore, model: StubModel) -> ToolRegistry:
    registry = ToolRegistry()
    register_memory_tools(registry, store, model, similar=0.8)
    return registry


async def _call(registry: ToolRegistry, name: str, **args: object) -> str:
    outcome = await registry.call(ToolCall(id="c1", name=name, arguments=json.dumps(args)))
    assert not outcome.error, outcome.content
    return outcome.content


async def test_an_update_replaces_the_memory_it_is_about() -> None:
    """ "I moved to Berlin" after "I live in Paris": one memory, the same key, the new text."""
    store = FakeStore({"home": PARIS})
    registry = await _tools(store, StubModel([action("update", 1)]))
    answer = await _call(registry, "memory_save", content="Ich bin nach Berlin gezogen.")
    assert answer == "updated memory home (it said: I live in Paris.)"
    assert list(store.memories) == ["home"]
    assert store.memories["home"].content == "Ich bin nach Berlin gezogen."
    assert store.memories["home"].ts > PARIS.ts


async def test_a_repeated_fact_is_marked_confirmed() -> None:
    """A fact already stored is not added twice; its memory gets a confirmed time."""
    store = FakeStore({"tea": TEA})
    registry = await _tools(store, StubModel([action("nothing")]))
    answer = await _call(registry, "memory_save", content="緑茶は煎茶が一番好きです。")
    assert answer.startswith("already remembered as memory tea")
    assert list(store.memories) == ["tea"] and store.memories["tea"].confirmed > 0


async def test_a_new_subject_is_added() -> None:
    """The model says add: a second memory."""
    store = FakeStore({"tea": TEA})
    registry = await _tools(store, StubModel([action("add")]))
    assert (await _call(registry, "memory_save", content="I live in Paris.")).startswith("saved")
    assert len(store.memories) == 2


async def test_forget_deletes_the_memory_the_model_names() -> None:
    """ "Forget my address" deletes the address, not the tea."""
    store = FakeStore({"tea": TEA, "home": PARIS})
    registry = await _tools(store, StubModel([action("delete", 2), action("nothing")]))
    answer = await _call(registry, "memory_forget", what="olvida mi dirección")
    assert answer == "forgot memory home: I live in Paris."
    assert list(store.memories) == ["tea"]
    answer = await _call(registry, "memory_forget", what="my shoe size")
    assert answer.startswith("no memory about that")
    assert list(store.memories) == ["tea"]


async def test_without_a_model_there_is_no_forget_and_saves_add() -> None:
    """No deciding model: memory_forget is not offered and a save always adds."""
    registry = ToolRegistry()
    store = FakeStore({"home": PARIS})
    register_memory_tools(registry, store)
    assert "memory_forget" not in registry
    await _call(registry, "memory_save", content="I moved to Berlin.")
    assert len(store.memories) == 2


async def test_no_similar_memory_saves_without_a_model_call() -> None:
    """Candidates under the similarity floor (and sharing few trigrams) are not shown."""
    store = FakeStore({"tea": TEA})
    model = StubModel()
    registry = ToolRegistry()
    register_memory_tools(registry, store, model, similar=0.95)
    assert (await _call(registry, "memory_save", content="I live in Paris.")).startswith("saved")
    assert model.offered == [] and len(store.memories) == 2


@dataclass
class NearStore(FakeStore):
    """A FakeStore that compares a new fact with stored ones as a store ranking around its
    mean does: each memory's closeness is given, the fact's vector is (1, 0)."""

    closeness: dict[str, float] = field(default_factory=dict)
    asked: list[str] = field(default_factory=list)
    words: list[str] = field(default_factory=list)

    async def neighbours(
        self, content: str, top_k: int, words: str = ""
    ) -> tuple[list[float], list[Memory]]:
        self.asked.append(content)
        self.words.append(words)
        found = [
            replace(m, score=0.9, closeness=self.closeness[m.key]) for m in self.memories.values()
        ]
        return [1.0, 0.0], found[:top_k]


async def test_only_memories_close_around_the_mean_are_offered_for_an_update() -> None:
    """A store's closeness decides the candidates, not the plain cosine every memory of a small
    model reaches: the unrelated memory is never offered, the related one is; the save keeps
    the vector the comparison computed."""
    store = NearStore({"tea": TEA, "home": PARIS}, closeness={"tea": 0.1, "home": 0.55})
    model = StubModel([action("update", 1)])
    registry = await _tools(store, model)
    answer = await _call(registry, "memory_save", content="I moved to Berlin.")
    assert answer == "updated memory home (it said: I live in Paris.)"
    assert model.offered == [[action("add"), action("update", 1), action("nothing")]]
    assert "Sencha" not in model.prompts[0]
    assert store.asked == ["I moved to Berlin."]
    assert store.memories["home"].embedding == (1.0, 0.0)
    assert store.memories["tea"] == TEA


async def test_a_fact_tagged_as_a_stored_one_is_put_to_the_model() -> None:
    """Far apart by vector, the same tags: the model is asked, and its update replaces the
    old address; a fact with other tags is saved beside it without a question."""
    home = replace(PARIS, tags=("address", "location"))
    store = NearStore({"tea": TEA, "home": home}, closeness={"tea": 0.1, "home": 0.1})
    model = StubModel([action("update", 1)])
    registry = await _tools(store, model)
    answer = await _call(
        registry, "memory_save", content="I moved to Berlin.", tags=["Location", "address"]
    )
    assert answer == "updated memory home (it said: I live in Paris.)"
    assert model.offered == [[action("add"), action("update", 1), action("nothing")]]
    assert store.memories["home"].content == "I moved to Berlin."
    answer = await _call(registry, "memory_save", content="I like rooibos.", tags=["tea"])
    assert answer.startswith("saved memory") and len(model.offered) == 1


async def test_an_update_in_a_turn_keeps_the_users_words() -> None:
    """The fact is compared, and its update stored, with the turn's request beside it."""
    store = NearStore({"home": PARIS}, closeness={"home": 0.55})
    registry = await _tools(store, StubModel([action("update", 1)]))
    with said.use("Ich bin nach Berlin gezogen."):
        await _call(registry, "memory_save", content="The user moved to Berlin.")
    assert store.words == ["Ich bin nach Berlin gezogen."]
    assert store.memories["home"].content == "The user moved to Berlin."
    assert store.memories["home"].words == "Ich bin nach Berlin gezogen."


async def test_nothing_close_around_the_mean_adds_without_a_model_call() -> None:
    """Every memory at plain cosine 0.9 but none close around the mean: added, unasked."""
    store = NearStore({"tea": TEA, "home": PARIS}, closeness={"tea": 0.2, "home": 0.3})
    model = StubModel()
    registry = await _tools(store, model)
    assert (await _call(registry, "memory_save", content="My cat is Pixel.")).startswith("saved")
    assert model.offered == [] and len(store.memories) == 3


async def test_a_slow_decision_adds_the_fact() -> None:
    """A model that does not decide in time: the fact is added, not lost to the tool's
    timeout."""

    async def stuck(messages: Sequence[Message], options: Sequence[str]) -> str | None:
        await anyio.sleep(60)
        return options[1]

    with anyio.fail_after(5):
        decision = await decide_save(stuck, "I moved to Berlin.", [PARIS], within=0.05)
    assert decision.action == "add" and decision.memory is None


@pytest.mark.parametrize(
    ("memory", "similar", "same"),
    [
        pytest.param(replace(PARIS, score=0.9, closeness=0.1), 0.8, False, id="far-around-mean"),
        pytest.param(replace(PARIS, score=0.5, closeness=0.45), 0.8, True, id="close-around-mean"),
        pytest.param(replace(PARIS, score=0.9), 0.8, True, id="no-mean-plain-cosine"),
        pytest.param(replace(PARIS, score=0.7), 0.8, False, id="no-mean-below-floor"),
        pytest.param(replace(PARIS, closeness=0.0), 0.8, True, id="same-words"),
    ],
)
def test_about_the_same(memory: Memory, similar: float, same: bool) -> None:
    """Closeness when the store gives it, else the plain cosine floor; or the fact's words."""
    fact = "I live in Paris now." if memory.closeness == 0.0 else "I moved to Berlin."
    assert about_the_same(fact, memory, similar) is same


@pytest.mark.parametrize(
    ("tags", "stored", "same"),
    [
        pytest.param(("address", "location"), ("Location", " address "), True, id="same-set"),
        pytest.param(("address",), ("address", "location"), False, id="a-subset"),
        pytest.param(("address", "location"), ("address", "work"), False, id="one-shared"),
        pytest.param((), (), False, id="untagged"),
    ],
)
def test_the_same_tags_make_a_candidate_whatever_the_vectors(
    tags: tuple[str, ...], stored: tuple[str, ...], same: bool
) -> None:
    """Two facts the model tagged alike may be about one subject, however far apart their
    vectors (a flat in Reading, a house in Oxford); an untagged pair never counts."""
    memory = Memory("I live in a flat on Elm Road in Reading.", tags=stored, closeness=0.1)
    fact = "I moved to a house on Cherwell Street in Oxford."
    assert about_the_same(fact, memory, 0.8, tags) is same


@pytest.mark.parametrize(
    ("fact", "memory", "same"),
    [
        pytest.param(
            "漫画は『鬼滅の刃』を全巻持っています。",
            Memory("毎週土曜日の午前中に書道教室に通っています。", score=0.87),
            False,
            id="unrelated-same-language",
        ),
        pytest.param(
            "書道教室は日曜日の午後に変わりました。",
            Memory("毎週土曜日の午前中に書道教室に通っています。", score=0.91),
            True,
            id="update",
        ),
    ],
)
def test_a_small_stores_candidates_start_at_e5s_own_cosine(
    fact: str, memory: Memory, same: bool
) -> None:
    """Before the store has a mean, e5's plain-cosine floor keeps two facts of one language
    about different things apart (end to end, a manga collection at 0.87 replaced a
    calligraphy class) and still offers an update."""
    floor = get_embedder("multilingual-e5-small").same_score
    assert floor is not None
    assert about_the_same(fact, memory, floor) is same
