"""Slot pinning: which llama-server slot each session's requests go to."""

from __future__ import annotations

import pytest

from agentd.model import pinning
from agentd.model.pinning import SlotPins, key_digest, slot_layout

A, B, C = ("t", "a"), ("t", "b"), ("t", "c")


def test_a_session_keeps_its_slot_across_turns() -> None:
    """Each session gets a slot of its own and finds it again on its next turn."""
    pins = SlotPins(2)
    with pins.hold(A) as a:
        pass
    with pins.hold(B) as b:
        pass
    with pins.hold(A) as again:
        pass
    assert (a, b, again) == (0, 1, 0)
    assert (pins.background, pins.quick, pins.questions) == (2, 3, 2) and slot_layout(2) == 4


def test_a_new_session_takes_the_least_recently_used_slot() -> None:
    """With every slot pinned, a new session takes the one used longest ago."""
    pins = SlotPins(2)
    for key in (A, B, A):
        with pins.hold(key):
            pass
    with pins.hold(C) as c:
        assert c == 1  # B's: A was used after it
    assert pins.slot_of(B) is None and pins.slot_of(A) == 0


def test_a_slot_held_by_a_running_turn_is_never_taken() -> None:
    """A turn's slot stays its own while it runs; with every slot held a new turn goes
    unpinned."""
    pins = SlotPins(1)
    with pins.hold(A) as a:
        with pins.hold(B) as b:
            assert b is None
        assert pins.next_free() is None
    assert a == 0 and pins.next_free() == 0


def test_the_same_session_twice_at_once_shares_its_slot() -> None:
    """Two overlapping holds of one session (a turn and its follow-up) share the slot."""
    pins = SlotPins(2)
    with pins.hold(A) as first, pins.hold(A) as second:
        assert first == second == 0
    assert pins.next_free() == 1


def test_pins_survive_a_restart_through_a_snapshot() -> None:
    """After a restart a session finds its restored slot; new sessions take empty ones first."""
    before = SlotPins(3)
    for key in (A, B):
        with before.hold(key):
            pass
    saved = before.snapshot()
    assert set(saved) == {key_digest(A), key_digest(B)}
    assert "t" not in "".join(saved)  # no tenant or session name on disk
    after = SlotPins(3)
    after.restore({**saved, "bad": 7, "dup": 0})
    with after.hold(C) as c:
        assert c == 2
    with after.hold(B) as b, after.hold(A) as a:
        assert (a, b) == (0, 1)


def test_use_sets_the_slot_for_the_block() -> None:
    """The contextvar holds the slot inside the block only."""
    assert pinning.current() is None
    with pinning.use(3):
        assert pinning.current() == 3
        with pinning.use(None):
            assert pinning.current() is None
    assert pinning.current() is None


def test_no_session_slot_is_refused() -> None:
    """Pinning without a session slot is a configuration mistake."""
    with pytest.raises(ValueError, match="session slot"):
        SlotPins(0)


def test_shared_questions_go_to_the_background_slot_unless_a_summary_is_written() -> None:
    """A question every session asks alike goes to the background slot; while a summary is
    written there, to the quick slot (the server would make it wait), never to the session's
    (it would replace the session's cached prompt)."""
    pins = SlotPins(2)
    with pinning.use(0, pins.questions_slot):
        with pinning.shared_question():
            assert pinning.current() == pins.background == 2
        assert pinning.current() == 0
        with pins.summarizing():
            assert pinning.current() == pins.background
        with pins.summarizing(), pinning.use(0, pins.questions_slot):
            with pinning.shared_question():
                assert pinning.current() == pins.quick == 3
            assert pinning.current() == 0
    with pinning.shared_question():  # outside a turn: nothing is named
        assert pinning.current() is None


def test_a_question_apart_goes_to_the_quick_slot() -> None:
    """A question whose prompt nothing else shares goes to the quick slot (it would replace a
    session's or the shared questions' cached prompt anywhere else); unnamed, it stays."""
    pins = SlotPins(2)
    with pinning.use(0, pins.questions_slot, pins.quick):
        with pinning.question_apart():
            assert pinning.current() == pins.quick == 3
            with pinning.shared_question():
                assert pinning.current() == pins.background
        assert pinning.current() == 0
    with pinning.use(1), pinning.question_apart():
        assert pinning.current() == 1
