"""Which tenant an API request acts in, and the refusals that go with it.

Every stored-data endpoint (sessions, memories) acts in the principal's tenant. An admin may
name another with ``?tenant=NAME``; anyone else naming a tenant not its own gets 403
``admin_only``. These helpers are that one rule, shared by every such endpoint.
"""

from __future__ import annotations

import re

from starlette.requests import Request

from agentd import scope as scopes
from agentd.config import TENANT_NAME
from agentd.engine.runtime import Runtime
from channels.http.principals import Principal
from channels.http.wire import ApiError


def admin_only(what: str, who: Principal) -> ApiError:
    """The 403 for a principal asking for what only admins may."""
    return ApiError(
        403,
        f"{what} is for admin principals only; principal {who.name!r} is not one "
        "(channels.http.principals[].admin)",
        type="permission_error",
        code="admin_only",
    )


def tenant_of(request: Request, who: Principal) -> str:
    """The tenant a request acts in: ``?tenant=`` for an admin, else the principal's own."""
    asked = request.query_params.get("tenant")
    if asked is None or asked == who.tenant:
        return who.tenant
    if not re.fullmatch(TENANT_NAME, asked):
        # The refused value is not echoed: it may be anything, a pasted secret included.
        raise ApiError(
            400,
            "tenant is not a tenant name: 1-64 letters, digits and _ . : @ -, "
            "starting with a letter or digit",
            param="tenant",
            code="invalid_tenant",
        )
    if not who.admin:
        raise admin_only(f"acting in another tenant ({asked!r})", who)
    return asked


def tenant_scope(runtime: Runtime, tenant: str) -> scopes.Scope:
    """The scope of ``tenant`` in the runtime's app: what the stores read while serving it."""
    return scopes.Scope(tenant=tenant, app=runtime.default_scope.app)
