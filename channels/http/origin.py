"""What a browser can forge, refused before the API sees it: foreign Host, foreign Origin, non-JSON.

Any web page can make a browser send a "simple" request to 127.0.0.1 with no CORS preflight (a
form POST as ``text/plain``, urlencoded or multipart), and a DNS-rebinding page reads the answers
under its own name. So every request passes three checks, in this order:

- ``Host`` names this server (421 otherwise): ``localhost``, a loopback address, the bind address
  unless it is a wildcard, the address the connection arrived on, or one of ``allowed_hosts``;
  any valid port (1-65535). More than one Host or Origin header is 400. A request without
  Host (HTTP/1.0) passes: browsers always send one, and a client that is not a browser could
  write any Host it liked anyway.
- ``Origin``, when present, is one of ``allowed_origins`` or this server's own (its host and port
  are the Host header); anything else, ``null`` included, is 403.
- A POST is ``application/json`` (415 otherwise): a page may send that cross-origin only after a
  preflight, and preflights are answered only for allowed origins.

The probes (``/healthz``, ``/readyz``) skip the Origin and Content-Type checks but not the Host
one, which keeps a rebinding page from reading them. Answers to an allowed origin carry
``Access-Control-Allow-Origin``. This is plain ASGI, so streamed answers pass through unwrapped.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from starlette.datastructures import Headers, MutableHeaders
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from channels.http.wire import ApiError

PROBES = frozenset({"/healthz", "/readyz"})
WILDCARDS = frozenset({"", "0.0.0.0", "::"})
WITH_BODY = frozenset({"POST", "PUT", "PATCH"})
ALLOW_METHODS = "GET, POST, OPTIONS"
ALLOW_HEADERS = "Authorization, Content-Type, X-Session-Id, Idempotency-Key"
EXPOSE_HEADERS = "X-Session-Id, Retry-After"
PREFLIGHT_MAX_AGE = "600"
SHOWN = 100

IP = ipaddress.IPv4Address | ipaddress.IPv6Address


def host_name(value: str) -> str | None:
    """The name in a Host header (or a configured host), canonical, without its port.

    IP addresses come out in ``ipaddress``'s spelling without brackets, names in lower case
    without a trailing dot; None when ``value`` is not ``name[:port]`` or ``[v6][:port]``.
    """
    value = value.strip().lower()
    if value.startswith("["):
        end = value.find("]")
        if end < 0:
            return None
        name, rest = value[1:end], value[end + 1 :]
        if _ip(name) is None:
            return None
    else:
        name = value.partition(":")[0]
        rest = value[len(name) :]
    if rest and not _valid_port(rest):
        return None
    name = name.removesuffix(".")
    if not name:
        return None
    ip = _ip(name)
    return name if ip is None else str(ip)


def _valid_port(rest: str) -> bool:
    """``rest`` is ``:`` and a port number, 1 to 65535 (ASCII digits only)."""
    digits = rest[1:]
    return (
        rest.startswith(":") and digits.isascii() and digits.isdigit() and 1 <= int(digits) <= 65535
    )


def _ip(name: str) -> IP | None:
    try:
        ip = ipaddress.ip_address(name)
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


@dataclass(frozen=True, slots=True)
class BrowserPolicy:
    """Which Host names and Origins this server accepts (see the module docstring)."""

    hosts: frozenset[str]
    origins: frozenset[str]

    @classmethod
    def build(
        cls, *, bind_host: str, allowed_hosts: Iterable[str], allowed_origins: Iterable[str]
    ) -> BrowserPolicy:
        names = {"localhost"}
        configured = list(allowed_hosts)
        if bind_host.strip("[]") not in WILDCARDS:
            configured.append(bind_host)
        for host in configured:
            ip = _ip(host.strip().strip("[]"))
            name = str(ip) if ip is not None else host_name(host)
            if name is not None:
                names.add(name)
        origins = frozenset(o.strip().rstrip("/").lower() for o in allowed_origins)
        return cls(hosts=frozenset(names), origins=origins - {"null"})

    def check_host(self, header: str, server: str | None) -> None:
        """Raise ApiError(421) unless ``header`` names this server (``server``: local address)."""
        name = host_name(header)
        if name is not None and self._ours(name, server):
            return
        raise ApiError(
            421,
            f"Host {header[:SHOWN]!r} does not name this server; add it to "
            "channels.http.allowed_hosts if it should",
            code="invalid_host",
        )

    def _ours(self, name: str, server: str | None) -> bool:
        if name in self.hosts:
            return True
        ip = _ip(name)
        if ip is None:
            return False
        return ip.is_loopback or (server is not None and ip == _ip(server.strip("[]")))

    def check_origin(self, origin: str, host: str | None) -> None:
        """Raise ApiError(403) unless ``origin`` is allowed or this server's own."""
        value = origin.strip().rstrip("/").lower()
        scheme, sep, authority = value.partition("://")
        own = (
            sep
            and scheme in ("http", "https")
            and host is not None
            and authority == host.strip().lower()
        )
        if value != "null" and (value in self.origins or own):
            return
        raise ApiError(
            403,
            f"Origin {origin[:SHOWN]!r} may not call this API; add it to "
            "channels.http.allowed_origins if it should",
            type="permission_error",
            code="origin_not_allowed",
        )


def check_json(content_type: str | None) -> None:
    """Raise ApiError(415) unless the body is declared ``application/json``."""
    media = (content_type or "").partition(";")[0].strip().lower()
    if media != "application/json":
        shown = repr(content_type[:SHOWN]) if content_type else "none"
        raise ApiError(
            415,
            f"Content-Type must be application/json (got {shown})",
            param="Content-Type",
            code="unsupported_media_type",
        )


class BrowserGuard:
    """Pure ASGI middleware applying a :class:`BrowserPolicy` to every HTTP request."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        policy: BrowserPolicy,
        on_refuse: Callable[[int], None] | None = None,
    ) -> None:
        self.app = app
        self.policy = policy
        self.on_refuse = on_refuse

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        try:
            origin = self._allowed_origin(scope, headers)
        except ApiError as exc:
            await self._refuse(exc, scope, receive, send)
            return
        respond = send if origin is None else _with_cors(origin, send)
        if origin is not None and _is_preflight(scope, headers):
            await _preflight()(scope, receive, respond)
            return
        if scope["method"] in WITH_BODY and scope["path"] not in PROBES:
            try:
                check_json(headers.get("content-type"))
            except ApiError as exc:
                await self._refuse(exc, scope, receive, respond)
                return
        await self.app(scope, receive, respond)

    def _allowed_origin(self, scope: Scope, headers: Headers) -> str | None:
        """The request's Origin when it is present and allowed; raises ApiError when refused."""
        hosts = headers.getlist("host")
        if len(hosts) > 1:
            raise ApiError(400, "more than one Host header", code="invalid_host")
        host = hosts[0] if hosts else None
        if host is not None:
            server = scope.get("server")
            self.policy.check_host(host, server[0] if server else None)
        origins = headers.getlist("origin")
        if len(origins) > 1:
            raise ApiError(400, "more than one Origin header", code="invalid_origin")
        origin = origins[0] if origins else None
        if origin is None or scope["path"] in PROBES:
            return None
        self.policy.check_origin(origin, host)
        return origin

    async def _refuse(self, exc: ApiError, scope: Scope, receive: Receive, send: Send) -> None:
        if self.on_refuse is not None:
            self.on_refuse(exc.status)
        response = JSONResponse(exc.body(), status_code=exc.status, headers=exc.headers)
        await response(scope, receive, send)


def _preflight() -> Response:
    return Response(
        status_code=204,
        headers={
            "Access-Control-Allow-Methods": ALLOW_METHODS,
            "Access-Control-Allow-Headers": ALLOW_HEADERS,
            "Access-Control-Max-Age": PREFLIGHT_MAX_AGE,
        },
    )


def _is_preflight(scope: Scope, headers: Headers) -> bool:
    return scope["method"] == "OPTIONS" and "access-control-request-method" in headers


def _with_cors(origin: str, send: Send) -> Send:
    async def send_allowed(message: Message) -> None:
        if message["type"] == "http.response.start":
            out = MutableHeaders(scope=message)
            out["Access-Control-Allow-Origin"] = origin
            out["Access-Control-Expose-Headers"] = EXPOSE_HEADERS
            out.add_vary_header("Origin")
        await send(message)

    return send_allowed
