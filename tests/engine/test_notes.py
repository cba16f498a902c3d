"""The notes a turn sends after the conversation for one model call."""

from __future__ import annotations

from agentd.engine.notes import REMINDER_HEAD, reminder
from tests.engine.guards.conftest import make_state


def test_the_reminder_quotes_the_request() -> None:
    """After tool results the request is quoted as written, in its own language."""
    state = make_state("Cuenta las líneas de datos.txt con wc.")
    note = reminder(state, (("exec", '{"command": "wc -l datos.txt"}'),))
    assert note.content.startswith(REMINDER_HEAD)
    assert '"Cuenta las líneas de datos.txt con wc."' in note.content
    assert "names" not in note.content  # the call used the named file


def test_the_reminder_names_the_files_the_calls_missed() -> None:
    """Calls that used none of the request's workdir files (a translated name) are followed
    by the names the request gave."""
    state = make_state("Cuenta las líneas de datos.txt con wc.")
    state.named = ("datos.txt",)
    note = reminder(state, (("exec", '{"command": "wc -l data.txt"}'),))
    assert "The files my request names: datos.txt." in note.content
    assert "names" not in reminder(state).content  # no calls: nothing to compare
