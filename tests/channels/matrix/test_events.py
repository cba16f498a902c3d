"""The Matrix channel's pure parts: reading events, mentions, HTML, settings (no homeserver)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from agentd.config import MatrixSender, MatrixSettings
from agentd.errors import MatrixError
from channels.matrix.events import Mentions, parse_message, strip_reply_fallback
from channels.matrix.format import HTML_FORMAT, render_parts, to_html
from channels.matrix.senders import Senders

BOT = "@bot:example.org"


def event(content: dict[str, Any], kind: str = "m.room.message") -> dict[str, Any]:
    return {"type": kind, "event_id": "$e", "sender": "@ann:example.org", "content": content}


def test_edit_is_read_as_its_new_content() -> None:
    """An m.replace edit is a message with the new text, not a reply to anything."""
    message = parse_message(
        event(
            {
                "msgtype": "m.text",
                "body": "* fixed",
                "m.new_content": {"msgtype": "m.text", "body": "fixed"},
                "m.relates_to": {"rel_type": "m.replace", "event_id": "$old"},
            }
        )
    )
    assert message is not None and message.edit
    assert (message.text, message.reply_to) == ("fixed", None)


@pytest.mark.parametrize(
    "content",
    [
        pytest.param({"msgtype": "m.notice", "body": "bot talk"}, id="notice"),
        pytest.param({"msgtype": "m.image", "body": "cat.png"}, id="image"),
        pytest.param({}, id="redacted"),
        pytest.param(
            {"m.relates_to": {"rel_type": "m.replace"}, "msgtype": "m.text", "body": "*x"},
            id="edit-without-new-content",
        ),
    ],
)
def test_what_is_not_a_text_message(content: dict[str, Any]) -> None:
    """Notices, media, redacted events and broken edits are not read."""
    assert parse_message(event(content)) is None
    assert parse_message(event({"body": "x"}, kind="m.room.redaction")) is None


def test_thread_and_reply_relations() -> None:
    """A thread message keeps its root; its fallback reply is not taken as a real reply."""
    threaded = parse_message(
        event(
            {
                "msgtype": "m.text",
                "body": "in thread",
                "m.relates_to": {
                    "rel_type": "m.thread",
                    "event_id": "$root",
                    "is_falling_back": True,
                    "m.in_reply_to": {"event_id": "$prev"},
                },
            }
        )
    )
    assert threaded is not None and (threaded.thread, threaded.reply_to) == ("$root", None)
    reply = parse_message(
        event(
            {
                "msgtype": "m.text",
                "body": "> <@bot:example.org> old answer\n\nnew question",
                "m.relates_to": {"m.in_reply_to": {"event_id": "$a"}},
            }
        )
    )
    assert reply is not None and (reply.reply_to, reply.text) == ("$a", "new question")
    assert strip_reply_fallback("no quote") == "no quote"


@pytest.mark.parametrize(
    ("content", "named"),
    [
        pytest.param({"body": "Agent: hi"}, True, id="display-name"),
        pytest.param({"body": "hey @bot:example.org"}, True, id="user-id"),
        pytest.param({"body": "x", "m.mentions": {"user_ids": [BOT]}}, True, id="m.mentions"),
        pytest.param(
            {
                "body": "Agent hi",
                "format": HTML_FORMAT,
                "formatted_body": '<a href="https://matrix.to/#/%40bot%3Aexample.org">A</a>',
            },
            True,
            id="pill",
        ),
        pytest.param({"body": "Agents are fun"}, False, id="inside-a-word"),
        pytest.param({"body": "@bot:example.orgs"}, False, id="another-id"),
    ],
)
def test_mentions(content: dict[str, Any], named: bool) -> None:
    """The bot is named by m.mentions, a pill, its user id or display name as a word."""
    message = parse_message(event({"msgtype": "m.text", **content}))
    assert message is not None
    assert Mentions(BOT, "Agent").named(message) is named


def test_mention_is_stripped() -> None:
    """The model reads the message without the bot's name."""
    mentions = Mentions(BOT, "Agent")
    assert mentions.remove("Agent: what time?") == "what time?"
    assert mentions.remove("so @bot:example.org, what now") == "so what now"


def test_html_escapes_raw_html_and_splits() -> None:
    """Markdown becomes HTML, raw HTML is escaped, long text is split at paragraphs."""
    assert to_html("**b** <script>x</script>") == (
        "<p><strong>b</strong> &lt;script&gt;x&lt;/script&gt;</p>"
    )
    plain = render_parts("just words", 100)[0].content()
    assert plain == {"msgtype": "m.text", "body": "just words"}
    parts = render_parts("\n\n".join(["para " * 40] * 4), 250)
    assert len(parts) == 4 and all(len(p.body) <= 250 for p in parts)


def test_senders_map_to_tenants_deny_by_default() -> None:
    """Listed users get their own tenant or the named one; anyone else is refused."""
    senders = Senders(["@ann:x.org", MatrixSender(user="@bo:x.org", tenant="family")])
    assert senders.tenant_of("@ann:x.org") == "matrix:@ann:x.org"
    assert senders.tenant_of("@bo:x.org") == "family"
    assert senders.tenant_of("@eve:x.org") is None


@pytest.mark.parametrize(
    ("values", "match"),
    [
        pytest.param({"enabled": True, "user_id": BOT}, "without a login", id="no-login"),
        pytest.param({"enabled": True, "access_token": "t"}, "without user_id", id="no-user"),
        pytest.param({"allow_from": ["ann"]}, "not a Matrix user id", id="bad-user"),
        pytest.param({"allow_from": ["@" + "a" * 70 + ":x.org"]}, "give it one", id="long-id"),
        pytest.param(
            {"allow_from": ["@a:x.org", {"user": "@a:x.org", "tenant": "t"}]},
            "listed twice",
            id="two-tenants",
        ),
        pytest.param({"homeserver": "matrix.org"}, "http", id="bad-url"),
    ],
)
def test_settings_refuse(values: dict[str, Any], match: str) -> None:
    """Bad Matrix settings are refused with what to do."""
    with pytest.raises(ValidationError, match=match):
        MatrixSettings(**values)


def test_matrix_error_retryable() -> None:
    """Network failures, rate limits and server errors are retried; refusals are not."""
    assert MatrixError("send", "down").retryable
    assert MatrixError("send", "slow", code="M_LIMIT_EXCEEDED").retryable
    assert not MatrixError("send", "no", code="M_FORBIDDEN").retryable
