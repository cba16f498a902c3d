"""Who a request comes from, as the failed-authentication limiter counts sources.

Every loopback address (127.0.0.0/8, ::1, and their IPv4-mapped forms) is one source: a local
process cannot get a fresh budget by moving to 127.0.0.2. An IPv6 address counts by its /64
(one host usually holds the whole /64). Behind a reverse proxy every request comes from the
proxy; ``channels.http.trusted_proxies`` lists the proxies' addresses, and only for a request
from one of them is ``X-Forwarded-For`` read: the source is its right-most address that is not
itself a trusted proxy (what the nearest proxy saw). From anyone else the header is ignored.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence

from starlette.requests import Request

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
LOOPBACK = "loopback"
_V6_PREFIX = 64


def _address(text: str) -> IPAddress | None:
    try:
        address = ipaddress.ip_address(text.strip().strip("[]").split("%", 1)[0])
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def source_key(address: IPAddress | None, raw: str = "") -> str:
    """The limiter's key for ``address`` (see the module docstring); ``raw`` when unparsable."""
    if address is None:
        return f"other:{raw}"
    if address.is_loopback:
        return LOOPBACK
    if isinstance(address, ipaddress.IPv6Address):
        network = ipaddress.IPv6Network((address, _V6_PREFIX), strict=False)
        return f"v6:{network}"
    return f"v4:{address}"


class Sources:
    """Maps a request to its source key, trusting ``X-Forwarded-For`` from listed proxies only."""

    __slots__ = ("_trusted",)

    def __init__(self, trusted_proxies: Sequence[str] = ()) -> None:
        self._trusted = [ipaddress.ip_network(p, strict=False) for p in trusted_proxies]

    def _is_trusted(self, address: IPAddress | None) -> bool:
        return address is not None and any(address in net for net in self._trusted)

    def of(self, request: Request) -> str:
        """The source key of ``request``."""
        peer_text = request.client.host if request.client is not None else ""
        peer = _address(peer_text)
        if not self._is_trusted(peer):
            return source_key(peer, peer_text)
        hops = [h for v in request.headers.getlist("x-forwarded-for") for h in v.split(",")]
        for hop in reversed(hops):
            address = _address(hop)
            if address is None:
                break  # a hop that is not an address: trust nothing before it
            if not self._is_trusted(address):
                return source_key(address)
        return source_key(peer, peer_text)
