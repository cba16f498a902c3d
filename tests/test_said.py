"""The turn's request as memory keeps it: set for a block, clipped, gone after it."""

from __future__ import annotations

from agentd import said


def test_the_request_is_set_for_the_block_only() -> None:
    """Outside a turn there are no words; inside, the request's, whitespace made single."""
    assert said.get() == ""
    with said.use("  Mi gato\nse llama   Pelusa. ") as kept:
        assert kept == said.get() == "Mi gato se llama Pelusa."
    assert said.get() == ""


def test_a_long_request_is_cut() -> None:
    """A pasted page keeps only its first MAX_SAID_CHARS characters."""
    with said.use("猫" * 2000):
        assert said.get() == "猫" * said.MAX_SAID_CHARS
