"""What a Matrix message event says: its text, whom it mentions, what it relates to.

Pure functions over the event JSON (the ``source`` of a matrix-nio event), so the rules are
tested without a homeserver. An edit (``m.replace``) is read as a message of its own with the
new content; only ``m.text`` counts (``m.notice`` is what bots send, so two bots never answer
each other; media and emotes are not for the model).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote


@dataclass(frozen=True, slots=True)
class Message:
    """A text message as the bot reads it."""

    event_id: str
    sender: str
    text: str
    html: str
    mentions: tuple[str, ...]
    #: The event this one replies to (not a thread's fallback reply).
    reply_to: str | None
    #: The root of the thread this message is in.
    thread: str | None
    edit: bool


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def parse_message(event: dict[str, Any]) -> Message | None:
    """The message ``event`` carries, or None when it is not a text message."""
    if event.get("type") != "m.room.message":
        return None
    content = _dict(event.get("content"))
    relates = _dict(content.get("m.relates_to"))
    rel_type = relates.get("rel_type")
    edit = rel_type == "m.replace"
    body = _dict(content.get("m.new_content")) if edit else content
    if body.get("msgtype") != "m.text" or not isinstance(body.get("body"), str):
        return None
    text = body["body"]
    html = body.get("formatted_body") if body.get("format") == "org.matrix.custom.html" else ""
    mentions = _dict(body.get("m.mentions") or content.get("m.mentions")).get("user_ids") or []
    thread = relates.get("event_id") if rel_type == "m.thread" else None
    reply_to = _dict(relates.get("m.in_reply_to")).get("event_id")
    if thread is not None and relates.get("is_falling_back"):
        reply_to = None  # a thread message's fallback for clients without threads
    if reply_to is not None:
        text = strip_reply_fallback(text)
    return Message(
        event_id=str(event.get("event_id") or ""),
        sender=str(event.get("sender") or ""),
        text=text,
        html=html if isinstance(html, str) else "",
        mentions=tuple(str(m) for m in mentions if isinstance(m, str)),
        reply_to=str(reply_to) if isinstance(reply_to, str) and not edit else None,
        thread=str(thread) if isinstance(thread, str) else None,
        edit=edit,
    )


def strip_reply_fallback(text: str) -> str:
    """``text`` without the quoted ``> `` lines older clients put before a reply."""
    lines = text.split("\n")
    if not lines or not lines[0].startswith("> "):
        return text
    while lines and lines[0].startswith(">"):
        lines.pop(0)
    return "\n".join(lines).lstrip("\n")


class Mentions:
    """How the bot recognises that a message names it: pill, user id or display name."""

    __slots__ = ("_names", "_pattern", "_pills", "user_id")

    def __init__(self, user_id: str, display_name: str | None) -> None:
        self.user_id = user_id
        names = [user_id]
        if display_name and display_name != user_id:
            names.append(display_name)
        self._names = names
        alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
        # A name as a word of its own, optionally followed by the ":" or "," clients add.
        self._pattern = re.compile(rf"(?<![\w@])(?:{alternatives})(?![\w])[:,]?", re.I)
        self._pills = (f"matrix.to/#/{user_id}", f"matrix.to/#/{quote(user_id)}")

    def named(self, message: Message) -> bool:
        """Whether ``message`` mentions the bot (``m.mentions``, a pill, or its name)."""
        if self.user_id in message.mentions:
            return True
        if any(pill in message.html for pill in self._pills):
            return True
        return self._pattern.search(message.text) is not None

    def remove(self, text: str) -> str:
        """``text`` without the bot's name (what the model should not have to read)."""
        return re.sub(r"[ \t]{2,}", " ", self._pattern.sub("", text)).strip()
