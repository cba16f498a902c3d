"""The channel protocol's small values: inbound messages and delivery targets."""

from __future__ import annotations

import pytest

from channels.base import InboundMessage, Target


def test_session_id_is_channel_and_chat() -> None:
    """A message's session is "<channel>:<chat_id>", whoever sent it."""
    msg = InboundMessage(channel="telegram", chat_id="42", sender="ada", text="hi")
    assert msg.session_id == "telegram:42" and msg.meta == {}


def test_request_key_names_channel_chat_and_message() -> None:
    """The idempotency key is the message id in its channel and chat; none without an id."""
    msg = InboundMessage("matrix", "!room:hs", "@ann:hs", "hi", message_id="$ev")
    assert msg.request_key == "matrix:!room:hs:$ev"
    other_chat = InboundMessage("matrix", "!other:hs", "@ann:hs", "hi", message_id="$ev")
    assert other_chat.request_key != msg.request_key
    assert InboundMessage("telegram", "42", "ada", "hi").request_key is None


@pytest.mark.parametrize(
    ("text", "channel", "address"),
    [
        pytest.param("telegram:42", "telegram", "42", id="simple"),
        pytest.param("http:user:7", "http", "user:7", id="colon-in-address"),
    ],
)
def test_target_parse_round_trips(text: str, channel: str, address: str) -> None:
    """Targets parse on the first colon and print back the same."""
    target = Target.parse(text)
    assert (target.channel, target.address) == (channel, address)
    assert str(target) == text


@pytest.mark.parametrize("text", ["telegram", ":42", "telegram:", ""])
def test_target_parse_rejects_malformed(text: str) -> None:
    """A target without channel or address is refused with the expected form."""
    with pytest.raises(ValueError, match="channel:address"):
        Target.parse(text)
