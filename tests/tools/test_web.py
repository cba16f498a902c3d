"""web_fetch's parts: which addresses are public, the allowlist, HTML to text, the summary."""

from __future__ import annotations

import gzip
import ipaddress
import tracemalloc
import zlib

import httpx
import pytest

from agentd.config import WebFetchSettings
from agentd.errors import ToolError
from agentd.tools import web

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize(
    ("address", "public"),
    [
        pytest.param("93.184.215.14", True, id="public-v4"),
        pytest.param("2606:4700::1111", True, id="public-v6"),
        pytest.param("127.0.0.1", False, id="loopback"),
        pytest.param("10.0.0.1", False, id="private-10"),
        pytest.param("172.16.5.4", False, id="private-172"),
        pytest.param("192.168.1.1", False, id="private-192"),
        pytest.param("100.64.0.1", False, id="shared-cgnat"),
        pytest.param("169.254.169.254", False, id="metadata"),
        pytest.param("0.0.0.0", False, id="unspecified"),
        pytest.param("224.0.0.1", False, id="multicast"),
        pytest.param("::1", False, id="v6-loopback"),
        pytest.param("fe80::1", False, id="v6-link-local"),
        pytest.param("fd00:ec2::254", False, id="v6-metadata-ula"),
        pytest.param("::ffff:127.0.0.1", False, id="v4-mapped-loopback"),
        pytest.param("::ffff:93.184.215.14", True, id="v4-mapped-public"),
        pytest.param("64:ff9b::a00:1", False, id="nat64-private"),
        pytest.param("::127.0.0.1", False, id="v4-compatible"),
        pytest.param("2002:7f00:1::1", False, id="6to4-loopback"),
        pytest.param("2002:a00:1::", False, id="6to4-private-10"),
        pytest.param("2002:c0a8:101::1", False, id="6to4-private-192"),
        pytest.param("2002:a9fe:a9fe::", False, id="6to4-metadata"),
        pytest.param("2002:5db8:d70e::1", True, id="6to4-public"),
        # Teredo: server 65.54.227.120, client obfuscated (bits inverted).
        pytest.param("2001:0:4136:e378:8000:63bf:80ff:fffe", False, id="teredo-client-loopback"),
        pytest.param("2001:0:4136:e378:8000:63bf:f5ff:fffe", False, id="teredo-client-private"),
        pytest.param("2001:0:a00:1:8000:63bf:a247:28f1", False, id="teredo-server-private"),
    ],
)
def test_is_public(address: str, public: bool) -> None:
    """Only global unicast addresses are public; IPv4 inside IPv6 is judged as IPv4."""
    assert web.is_public(ipaddress.ip_address(address)) is public


async def test_the_allowlist_admits_names_and_networks() -> None:
    """Allowed hosts and networks pass; the rest of the private space does not."""
    allow = web.Allowlist.parse(["127.0.0.1", "10.9.0.0/16", "Intranet.Example."])
    assert await web.checked_address(httpx.URL("http://127.0.0.1:8/"), allow)
    assert await web.checked_address(httpx.URL("http://10.9.3.4/"), allow)
    assert allow.allows("intranet.example", ipaddress.ip_address("192.168.0.9"))
    for url in ("http://127.0.0.2/", "http://10.8.0.1/", "ftp://127.0.0.1/"):
        with pytest.raises(ToolError):
            await web.checked_address(httpx.URL(url), allow)


def test_html_to_text_keeps_blocks_and_drops_scripts() -> None:
    """Blocks become lines, inline markup stays in its line, scripts and styles go."""
    title, text = web.html_to_text(
        "<html><head><title> A  page </title></head><body><nav>Home</nav><h1>Title</h1>"
        "<p>Some <a href='/x'>linked</a> text.</p><script>alert(1)</script>"
        "<table><tr><td>a</td><td>b</td></tr></table></body></html>"
    )
    assert title == "A page"
    assert text == "Home\nTitle\nSome linked text.\na\nb"


def test_render_summarises_other_types() -> None:
    """A body that is not text is described by type and size, not shown."""
    page = web.Page("https://x.example/f.zip", 200, "application/zip", b"PK..", 123_456, False)
    assert "application/zip content, 123,456 bytes: not text, not shown" in web.render(page, 100)


async def test_a_connection_goes_to_the_checked_address() -> None:
    """The request is sent to the address that was checked, with the host in Host."""
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        # A stream, as from a socket (content given whole counts as read already).
        return httpx.Response(
            200, stream=httpx.ByteStream(b"hi"), headers={"content-type": "text/plain"}
        )

    settings = WebFetchSettings(allow=["127.0.0.1"])
    page = await web.fetch(
        "http://127.0.0.1:9/a?b=c", settings, transport=httpx.MockTransport(handler)
    )
    assert page.body == b"hi"
    assert seen[0].url.host == "127.0.0.1" and seen[0].headers["host"] == "127.0.0.1:9"


async def _served(body: bytes, headers: dict[str, str], max_bytes: int = 2_000_000) -> web.Page:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, stream=httpx.ByteStream(body), headers=headers)

    settings = WebFetchSettings(allow=["127.0.0.1"], max_bytes=max_bytes)
    return await web.fetch("http://127.0.0.1:9/", settings, transport=httpx.MockTransport(handler))


async def test_a_compressed_bomb_is_cut_while_it_is_decoded() -> None:
    """A server that gzips anyway (we ask for identity): 50 KB that expand to 50 MB are
    decoded only as far as max_bytes, never whole in memory."""
    bomb = gzip.compress(b"\0" * 50_000_000)
    tracemalloc.start()
    try:
        page = await _served(bomb, {"content-type": "text/plain", "content-encoding": "gzip"})
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert page.truncated and len(page.body) == 2_000_000
    assert peak < 20_000_000, peak  # httpx's own decoding held all 50 MB at once


async def test_compressed_text_is_decoded_and_other_codings_are_not_shown() -> None:
    text = b"<p>hello, compressed world</p>"
    for coding, packed in (("gzip", gzip.compress(text)), ("deflate", zlib.compress(text))):
        page = await _served(packed, {"content-type": "text/html", "content-encoding": coding})
        assert page.body == text and not page.truncated
    page = await _served(b"\x1b\x00", {"content-type": "text/html", "content-encoding": "br"})
    assert "br-encoded text/html content" in web.render(page, 100)
    assert "not shown" in web.render(page, 100)
    with pytest.raises(ToolError, match=r"gzip body .* is broken"):
        await _served(b"not gzip", {"content-type": "text/html", "content-encoding": "gzip"})
