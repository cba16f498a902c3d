"""Who is signed in to the web console: server-side sign-ins behind an opaque cookie.

Signing in POSTs a token (the daemon's local token or a principal's) as JSON; it is checked by
the API's :class:`~channels.http.guard.Authenticator` (same constant-time comparison, same limit
on failures per address) and never stored: the browser gets a random sign-in id in an
``HttpOnly; SameSite=Strict`` cookie (``Secure`` over TLS), and the server keeps which principal
that id stands for, with a CSRF token of its own. Every state-changing console request must carry
that CSRF token in ``X-CSRF-Token`` (a synchronizer token: a page of another site can neither
read it nor guess it) and an ``Origin`` of this server; the API's Host/Origin/JSON checks run
before both. The cookie is read by the console's routes alone: ``/v1`` keeps bearer auth.
"""

from __future__ import annotations

import hmac
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from starlette.requests import Request
from starlette.responses import Response

from channels.http.principals import Principal

COOKIE = "agentd_console"
CSRF_HEADER = "x-csrf-token"
#: A sign-in ends this long after it was made, used or not (seconds).
LIFETIME = 12 * 3600.0
#: A sign-in unused this long ends (seconds).
IDLE = 2 * 3600.0
MAX_SIGNINS = 1000


@dataclass(slots=True)
class SignIn:
    """One signed-in browser: the principal it acts as and its CSRF token."""

    principal: Principal
    csrf: str
    created: float
    used: float


class SignIns:
    """The console's sign-ins by opaque id, bounded (the oldest go first) and expiring."""

    def __init__(
        self, *, clock: Callable[[], float] = time.monotonic, limit: int = MAX_SIGNINS
    ) -> None:
        self._clock = clock
        self._limit = limit
        self._by_id: OrderedDict[str, SignIn] = OrderedDict()

    def __len__(self) -> int:
        return len(self._by_id)

    def create(self, principal: Principal) -> tuple[str, SignIn]:
        """A new sign-in for ``principal``: its cookie value and its record."""
        now = self._clock()
        sid = secrets.token_urlsafe(32)
        signin = SignIn(principal, secrets.token_urlsafe(32), now, now)
        self._by_id[sid] = signin
        while len(self._by_id) > self._limit:
            self._by_id.popitem(last=False)
        return sid, signin

    def get(self, sid: str | None) -> SignIn | None:
        """The live sign-in ``sid`` names, or None (unknown, expired or idle too long)."""
        if not sid:
            return None
        signin = self._by_id.get(sid)
        if signin is None:
            return None
        now = self._clock()
        if now - signin.created > LIFETIME or now - signin.used > IDLE:
            del self._by_id[sid]
            return None
        signin.used = now
        self._by_id.move_to_end(sid)
        return signin

    def end(self, sid: str | None) -> None:
        """Sign ``sid`` out (nothing when it is unknown)."""
        if sid:
            self._by_id.pop(sid, None)


def signin_of(request: Request, signins: SignIns) -> tuple[str | None, SignIn | None]:
    """The request's cookie value and the sign-in it names."""
    sid = request.cookies.get(COOKIE)
    return sid, signins.get(sid)


def csrf_ok(request: Request, signin: SignIn) -> bool:
    """Whether a state-changing request carries the sign-in's CSRF token and an Origin.

    The Origin's value was already checked against this server by the browser guard; here it
    must be present, so a request that leaves it out is not trusted either.
    """
    presented = request.headers.get(CSRF_HEADER, "")
    if "origin" not in request.headers:
        return False
    return hmac.compare_digest(presented.encode(), signin.csrf.encode())


def set_cookie(response: Response, request: Request, sid: str) -> None:
    """Put the sign-in id in an HttpOnly, SameSite=Strict cookie (Secure over TLS)."""
    response.set_cookie(
        COOKIE,
        sid,
        max_age=int(LIFETIME),
        path="/",
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
    )


def clear_cookie(response: Response, request: Request) -> None:
    """Remove the sign-in cookie."""
    response.delete_cookie(
        COOKIE, path="/", httponly=True, samesite="strict", secure=request.url.scheme == "https"
    )
