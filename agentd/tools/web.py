"""The ``web_fetch`` tool: a page from the web, as readable text, from public addresses only.

Every hop is checked before anything is sent: the host is resolved here, and the request goes
to the address that was checked (the URL's host is replaced by it; ``Host`` and, for HTTPS, the
TLS server name stay the host's), so a DNS answer that changes between the check and the
connection (rebinding) reaches nothing new. Addresses that are not global (private, loopback,
link-local, the cloud metadata address, unique-local, multicast, reserved; IPv4-mapped and
NAT64 IPv6 forms are judged by their IPv4 address) are refused unless the operator allows them
(``tools.web_fetch.allow``). Redirects are followed by hand, each one checked the same way.
The whole fetch has a time limit, the body a size limit; proxies from the environment are not
used. HTML becomes text with selectolax (lexbor); other text types are shown as they are, and
anything else is described by its type and size.
"""

from __future__ import annotations

import ipaddress
import socket
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import anyio
import httpx
import structlog

from agentd.config import WebFetchSettings
from agentd.errors import ToolError
from agentd.tools.fit import cut_to_fit
from agentd.tools.registry import ToolRegistry

log = structlog.get_logger("agentd.tools.web")

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network
_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
_REDIRECTS = frozenset((301, 302, 303, 307, 308))
_TEXT_TYPES = ("text/", "application/json", "application/xml", "application/xhtml")
_DROPPED = "script,style,noscript,template,svg,canvas,iframe,object,head"
_BLOCKS = (
    "address,article,aside,blockquote,br,dd,div,dl,dt,figcaption,figure,footer,form,h1,h2,h3,"
    "h4,h5,h6,header,hr,li,main,nav,ol,p,pre,section,table,td,th,tr,ul"
)
USER_AGENT = "agentd-web-fetch/1 (+https://github.com/agentd)"


def is_public(address: IPAddress) -> bool:
    """Whether ``address`` is a global unicast address (IPv4 inside IPv6 judged as IPv4).

    IPv4 inside IPv6: mapped (``::ffff:a.b.c.d``), NAT64 (``64:ff9b::/96``) and 6to4
    (``2002::/16``) addresses are judged by their IPv4 address; a Teredo address
    (``2001::/32``) is refused when its server or client IPv4 address is not public.
    """
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return is_public(address.ipv4_mapped)
        if address in _NAT64:
            return is_public(ipaddress.IPv4Address(int(address) & 0xFFFFFFFF))
        if address.sixtofour is not None:
            return is_public(address.sixtofour)
        if address.teredo is not None and not all(map(is_public, address.teredo)):
            return False
    special = (
        address.is_multicast
        or address.is_reserved  # e.g. IPv4-compatible IPv6 (::127.0.0.1)
        or address.is_private
        or address.is_loopback
        or address.is_link_local
        or address.is_unspecified
        or (isinstance(address, ipaddress.IPv6Address) and address.is_site_local)
    )
    return address.is_global and not special


@dataclass(frozen=True, slots=True)
class Allowlist:
    """Hosts (by name) and networks that may be fetched although not public."""

    hosts: frozenset[str] = frozenset()
    networks: tuple[IPNetwork, ...] = ()

    @classmethod
    def parse(cls, entries: Sequence[str]) -> Allowlist:
        hosts: set[str] = set()
        networks: list[IPNetwork] = []
        for entry in entries:
            try:
                networks.append(ipaddress.ip_network(entry.strip("[]"), strict=False))
            except ValueError:
                hosts.add(entry.lower().rstrip("."))
        return cls(frozenset(hosts), tuple(networks))

    def allows(self, host: str, address: IPAddress) -> bool:
        return host in self.hosts or any(address in net for net in self.networks)


async def resolve(host: str, port: int) -> list[IPAddress]:
    """The addresses ``host`` resolves to (an address literal is itself)."""
    try:
        return [ipaddress.ip_address(host)]
    except ValueError:
        pass
    try:
        infos = await anyio.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as exc:
        raise ToolError(f"cannot resolve {host!r}: {exc}") from None
    found = [ipaddress.ip_address(str(info[4][0]).split("%", 1)[0]) for info in infos]
    return list(dict.fromkeys(found))


async def checked_address(url: httpx.URL, allow: Allowlist) -> IPAddress:
    """The address to connect to for ``url``; a ToolError when any of the host's is refused."""
    if url.scheme not in ("http", "https"):
        raise ToolError(f"{url.scheme!r} URLs are not fetched: use http or https")
    host = url.host.lower().rstrip(".")
    if not host:
        raise ToolError("the URL has no host")
    addresses = await resolve(host, url.port or (443 if url.scheme == "https" else 80))
    if not addresses:
        raise ToolError(f"{host!r} has no address")
    for address in addresses:
        if not is_public(address) and not allow.allows(host, address):
            raise ToolError(
                f"refused: {host!r} resolves to {address}, which is not a public address "
                "(private, loopback, link-local or metadata); web_fetch reaches public sites only"
            )
    return addresses[0]


def html_to_text(html: str) -> tuple[str, str]:
    """The title and the readable text of an HTML page: one line per block, no scripts."""
    from selectolax.lexbor import LexborHTMLParser

    tree = LexborHTMLParser(html)
    title_node = tree.css_first("title")
    title = " ".join(title_node.text().split()) if title_node is not None else ""
    for node in tree.css(_DROPPED):
        node.decompose()
    for node in tree.css(_BLOCKS):
        node.insert_before("\n")
        node.insert_after("\n")
    root = tree.body or tree.root
    raw = root.text(deep=True, separator="") if root is not None else ""
    lines = (" ".join(line.split()) for line in raw.splitlines())
    return title, "\n".join(line for line in lines if line)


@dataclass(frozen=True, slots=True)
class Page:
    url: str
    status: int
    content_type: str
    body: bytes
    size: int | None
    truncated: bool
    encoding: str = "utf-8"


async def fetch(
    url: str, settings: WebFetchSettings, *, transport: httpx.AsyncBaseTransport | None = None
) -> Page:
    """GET ``url`` hop by hop (see the module docstring); at most ``settings.max_bytes`` read."""
    allow = Allowlist.parse(settings.allow)
    try:
        current = httpx.URL(url)
    except httpx.InvalidURL as exc:
        raise ToolError(f"not a URL: {exc}") from None
    timeout = httpx.Timeout(settings.timeout)
    try:
        with anyio.fail_after(settings.timeout):
            async with httpx.AsyncClient(
                transport=transport, timeout=timeout, trust_env=False, follow_redirects=False
            ) as client:
                for _ in range(settings.max_redirects + 1):
                    address = await checked_address(current, allow)
                    page, location = await _hop(client, current, address, settings.max_bytes)
                    if location is None:
                        assert page is not None
                        return page
                    try:
                        current = current.join(location)
                    except httpx.InvalidURL as exc:
                        raise ToolError(f"a redirect to a bad URL: {exc}") from None
                    log.info("web_fetch.redirect", to=str(current.copy_with(query=None)))
    except TimeoutError:
        raise ToolError(f"timed out after {settings.timeout:g}s fetching {url}") from None
    except httpx.HTTPError as exc:
        raise ToolError(f"fetching {url} failed: {type(exc).__name__}: {exc}") from None
    raise ToolError(f"more than {settings.max_redirects} redirects; stopped at {current}")


async def _hop(
    client: httpx.AsyncClient, url: httpx.URL, address: IPAddress, max_bytes: int
) -> tuple[Page | None, str | None]:
    """One request to ``address``; the page, or the redirect's location."""
    host = url.host
    headers = {
        "Host": url.netloc.decode("ascii"),
        "User-Agent": USER_AGENT,
        "Accept": "*/*",
        # A compressed body is decoded a chunk at a time, and one small chunk can expand a
        # thousandfold: ask for none (one sent anyway is decoded below, within the limit).
        "Accept-Encoding": "identity",
    }
    extensions = {"sni_hostname": host} if url.scheme == "https" else {}
    target = url.copy_with(host=str(address))
    async with client.stream("GET", target, headers=headers, extensions=extensions) as response:
        location = response.headers.get("location")
        if response.status_code in _REDIRECTS and location:
            return None, location
        kind = response.headers.get("content-type", "").split(";")[0].strip().lower()
        coding = response.headers.get("content-encoding", "").strip().lower()
        inflate = _inflater(coding)
        body = bytearray()
        truncated = False
        if inflate is None and coding not in ("", "identity"):
            kind = f"{coding}-encoded {kind}".strip()  # not decoded: described, not shown
        else:
            async for raw in response.aiter_raw():
                # Decoded here, never past what the limit still takes: a small compressed
                # chunk may expand a thousandfold (httpx's own decoding has no bound).
                try:
                    chunk = (
                        raw
                        if inflate is None
                        else inflate.decompress(raw, max_bytes + 1 - len(body))
                    )
                except zlib.error as exc:
                    raise ToolError(f"the {coding} body of {url} is broken: {exc}") from None
                body += chunk
                if len(body) > max_bytes:
                    del body[max_bytes:]
                    truncated = True
                    break
        length = response.headers.get("content-length")
        size = int(length) if length and length.isdigit() and not coding else None
        encoding = response.charset_encoding or "utf-8"
        page = Page(str(url), response.status_code, kind, bytes(body), size, truncated, encoding)
        return page, None


def _inflater(coding: str) -> Any | None:
    """A bounded decoder of a gzip or deflate body; None for identity and for what is not
    decoded here (br, zstd...: the page is then shown by its type only)."""
    if coding in ("gzip", "x-gzip"):
        return zlib.decompressobj(16 + zlib.MAX_WBITS)
    if coding == "deflate":
        return zlib.decompressobj()
    return None


def render(page: Page, max_chars: int) -> str:
    """What the model reads of a page: a head line, then its text cut to ``max_chars``."""
    head = f"URL: {page.url}\nstatus: {page.status}\ncontent-type: {page.content_type or '?'}"
    shown_size = f"{page.size:,}" if page.size is not None else f"at least {len(page.body):,}"
    if page.truncated:
        head += f"\n(the body is larger than {len(page.body):,} bytes: only that much was read)"
    if not page.content_type.startswith(_TEXT_TYPES) and page.content_type:
        return f"{head}\n{page.content_type} content, {shown_size} bytes: not text, not shown"
    try:
        text = page.body.decode(page.encoding, "replace")
    except LookupError:  # a charset Python does not know
        text = page.body.decode("utf-8", "replace")
    if "html" in page.content_type or (not page.content_type and "<html" in text[:500].lower()):
        title, text = html_to_text(text)
        if title:
            head += f"\ntitle: {title}"
    hint = "call web_fetch with a larger max_chars to see more"
    return f"{head}\n\n{cut_to_fit(text, max_chars, hint=hint)}"


def register_web_tools(registry: ToolRegistry, settings: WebFetchSettings) -> None:
    """Add ``web_fetch``."""
    most = settings.max_chars * 5

    async def web_fetch(url: str, max_chars: int | None = None) -> str:
        """Fetch a public web page as text; a long one is cut (more: max_chars, default
        20000)."""
        limit = min(max_chars if max_chars and max_chars > 0 else settings.max_chars, most)
        page = await fetch(url, settings)
        return render(page, limit)

    registry.add(web_fetch, timeout=settings.timeout + 5, looks=True)
