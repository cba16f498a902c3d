"""Reading received mail: text parts, HTML as text, attachments, threads, automatic mail."""

from __future__ import annotations

from email.message import EmailMessage

import pytest

from channels.email.html import html_to_text
from channels.email.mail import MAX_REFERENCES, parse_mail, without_quote


def _msg(**headers: str) -> EmailMessage:
    msg = EmailMessage()
    for name, value in headers.items():
        msg[name.replace("_", "-")] = value
    return msg


def test_plain_text_is_preferred_over_html() -> None:
    """With both alternatives, the model reads the plain text."""
    msg = _msg(From="a@example.org", To="agent@x.test", Subject="Hi")
    msg.set_content("plain words")
    msg.add_alternative("<p>html words</p>", subtype="html")
    assert parse_mail(bytes(msg)).text == "plain words"


@pytest.mark.parametrize(
    ("html", "text"),
    [
        pytest.param("<p>a</p><p>b</p>", "a\n\nb", id="paragraphs"),
        pytest.param("<ul><li>x</li><li>y</li></ul>", "- x\n- y", id="list"),
        pytest.param("<style>p{}</style><script>evil()</script>ok", "ok", id="hidden"),
        pytest.param('<a href="https://e.org/x">site</a>', "site (https://e.org/x)", id="link"),
        pytest.param('<a href="javascript:x()">site</a>', "site", id="script-link"),
        pytest.param("a&amp;b&lt;c&gt;", "a&b<c>", id="entities"),
        pytest.param("<pre>  kept\n  spaces</pre>", "kept\nspaces", id="pre"),
        pytest.param("<p>unclosed <b>bold", "unclosed bold", id="broken"),
    ],
)
def test_html_as_text(html: str, text: str) -> None:
    """HTML becomes what a reader sees: blocks on lines, no scripts, links kept."""
    assert html_to_text(html) == text


def test_html_only_mail_is_read_as_text() -> None:
    """A mail with only an HTML body reaches the model as text."""
    msg = _msg(From="a@example.org", To="agent@x.test")
    msg.set_content("<div>Hello <i>there</i></div>", subtype="html")
    assert parse_mail(bytes(msg)).text == "Hello there"


def test_threads_and_addresses() -> None:
    """Message-ID, In-Reply-To and References are read; From and recipients lower-cased."""
    msg = _msg(
        From="Alice <Alice@Example.org>",
        To="Agent <agent+s@x.test>",
        Cc="other@x.test",
        Message_ID="<m3@example.org>",
        In_Reply_To="<m2@x.test>",
        References="<m1@example.org> <m2@x.test>",
    )
    msg.set_content("hi")
    mail = parse_mail(bytes(msg))
    assert mail.sender == "alice@example.org" and mail.sender_domain == "example.org"
    assert mail.recipients == ("agent+s@x.test", "other@x.test")
    assert mail.message_id == "m3@example.org"
    assert mail.thread_ids == ("m1@example.org", "m2@x.test")


def test_long_references_keep_the_root() -> None:
    """A huge References header is cut, keeping its first (the thread's root) and the latest."""
    refs = " ".join(f"<r{i}@e.org>" for i in range(500))
    msg = _msg(From="a@e.org", References=refs)
    msg.set_content("x")
    mail = parse_mail(bytes(msg))
    assert len(mail.references) == MAX_REFERENCES
    assert mail.references[0] == "r0@e.org" and mail.references[-1] == "r499@e.org"


def test_two_from_addresses_give_no_sender() -> None:
    """A From with two addresses names nobody (and is refused later)."""
    msg = _msg(From="a@e.org, b@e.org")
    msg.set_content("x")
    assert parse_mail(bytes(msg)).sender == ""


@pytest.mark.parametrize(
    ("name", "value", "automatic"),
    [
        pytest.param("Auto-Submitted", "auto-replied", True, id="auto-submitted"),
        pytest.param("Auto-Submitted", "no", False, id="auto-submitted-no"),
        pytest.param("Precedence", "bulk", True, id="bulk"),
        pytest.param("List-Id", "<list.e.org>", True, id="list"),
        pytest.param("X-Other", "x", False, id="person"),
    ],
)
def test_automatic_mail_is_recognised(name: str, value: str, automatic: bool) -> None:
    """Mail written by a program is marked, so it is never answered (no loops)."""
    msg = _msg(From="a@e.org")
    msg[name] = value
    msg.set_content("x")
    assert parse_mail(bytes(msg)).automatic is automatic


def test_attachments_are_listed_with_their_bytes() -> None:
    """Each attachment keeps its given name, type and bytes."""
    msg = _msg(From="a@e.org")
    msg.set_content("see attached")
    msg.add_attachment(b"\x00\x01", maintype="application", subtype="pdf", filename="r.pdf")
    mail = parse_mail(bytes(msg))
    assert mail.text == "see attached"
    assert [(a.filename, a.content_type, a.data) for a in mail.attachments] == [
        ("r.pdf", "application/pdf", b"\x00\x01")
    ]


def test_garbage_does_not_raise() -> None:
    """Bytes that are no mail at all still parse, to a mail without a sender."""
    mail = parse_mail(b"\xff\xfe\x00garbage\r\n\r\n\x00")
    assert mail.sender == "" and mail.message_id == ""


def test_quoted_tail_is_dropped() -> None:
    """The quoted mail under a reply is not sent to the model again."""
    assert without_quote("my answer\n\n> old\n> older\n") == "my answer"
    assert without_quote("> only a quote") == "> only a quote"
