"""The turn's call cache: a call made again with the same arguments is not run again.

Only tools that look are cached (``read_file``, ``current_time``...), and any call of a tool
that acts clears them: a read after an edit sees the new text, a command run again after a
change runs again. An acting call repeated right after itself, with nothing between, is not
run twice (an ``append_file`` sent twice would append twice).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from agentd.messages import ToolCall

#: A call's identity: its name and its arguments with key order and spacing ignored.
CallKey = tuple[str, str]


def call_key(call: ToolCall) -> CallKey:
    """``call``'s identity (see :data:`CallKey`)."""
    try:
        args = json.dumps(json.loads(call.arguments or "{}"), sort_keys=True)
    except ValueError:
        args = call.arguments
    return call.name, args


@dataclass(slots=True)
class CallCache:
    """Successful results of the turn's looking calls, and of its last acting call."""

    _looks: dict[CallKey, str] = field(default_factory=dict)
    _last_act: tuple[CallKey, str] | None = None

    def get(self, key: CallKey) -> str | None:
        """The earlier result of the same call, when it still holds."""
        if self._last_act is not None and self._last_act[0] == key:
            return self._last_act[1]
        return self._looks.get(key)

    def keep(self, key: CallKey, result: str, *, looking: bool) -> None:
        """Remember a successful call; an acting one clears what was looked at before."""
        if looking:
            self._looks[key] = result
            return
        self._looks.clear()
        self._last_act = (key, result)

    def acted(self, key: CallKey) -> None:
        """An acting call ran (failed or not): nothing looked at before holds any longer."""
        self._looks.clear()
        if self._last_act is not None and self._last_act[0] != key:
            self._last_act = None
