"""The tool policy: which tools a turn offers the model, by audience and tenant.

An *audience* is who is on the other end of a turn: the operator's console, a cron job, a
private or a group Telegram chat, a direct or a group Matrix room, an email sender, an admin or
a non-admin HTTP caller. Each has a rule (``tools.policy.<audience>``), each tenant may have one
more (``tenants.<name>.tools``); a tool is offered only when every rule that applies lets it
through (an ``allow`` list names it, when there is one, and no ``deny`` list does). The runtime
asks :meth:`ToolPolicy.grant` when a turn starts and gives the agent loop the allowed names, so
the model is never shown a tool it may not use, and a call of one anyway is refused like an
unknown tool.

The grant also carries what a tool needs to know about the turn's rights (network in ``exec``'s
sandbox); it is set for the turn's task in a contextvar (:func:`use`, :func:`current`). A turn
whose request asks for no change runs its tools under :func:`read_only`: ``exec`` binds the
workdir read-only, without the network.
"""

from __future__ import annotations

import contextvars
import dataclasses
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Literal, get_args

from agentd.config import Settings, ToolRule, ToolsSettings

Audience = Literal[
    "console",
    "cron",
    "telegram_private",
    "telegram_group",
    "matrix_private",
    "matrix_group",
    "email",
    "http_admin",
    "http_user",
]
AUDIENCES: tuple[Audience, ...] = get_args(Audience)

#: The audience of a turn whose channel did not say: the narrower one of that channel.
_FALLBACK: dict[str, Audience] = {
    "console": "console",
    "cron": "cron",
    "heartbeat": "cron",
    "telegram": "telegram_group",
    "matrix": "matrix_group",
    "email": "email",
    "http": "http_user",
}


def audience_of(channel: str, audience: str | None = None) -> Audience:
    """``audience`` when it is one, else the narrowest audience of ``channel``.

    An unknown channel gets the HTTP non-admin rule: fail closed, never open.
    """
    if audience in AUDIENCES:
        return audience
    return _FALLBACK.get(channel, "http_user")


@dataclass(frozen=True, slots=True)
class Grant:
    """What one turn may use: the tools offered (None: every tool), exec's network, and
    whether exec sees the workdir read-only."""

    tools: frozenset[str] | None = None
    exec_network: bool = False
    exec_read_only: bool = False

    def allows(self, name: str) -> bool:
        return self.tools is None or name in self.tools


_current: contextvars.ContextVar[Grant | None] = contextvars.ContextVar(
    "agentd_tool_grant", default=None
)


def current() -> Grant:
    """The grant of this turn; without one (a tool called outside a turn), the default."""
    return _current.get() or Grant()


@contextmanager
def use(grant: Grant) -> Iterator[Grant]:
    """Set ``grant`` for the block (and the tasks it starts)."""
    token = _current.set(grant)
    try:
        yield grant
    finally:
        _current.reset(token)


@contextmanager
def read_only() -> Iterator[Grant]:
    """The current grant, for the block, with commands that change nothing: exec's sandbox
    binds the workdir read-only and has no network."""
    grant = dataclasses.replace(current(), exec_read_only=True, exec_network=False)
    with use(grant):
        yield grant


def _passes(rule: ToolRule, name: str) -> bool:
    return (rule.allow is None or name in rule.allow) and name not in rule.deny


class ToolPolicy:
    """The rules of one Settings; :meth:`grant` is what a turn of an audience and tenant gets."""

    __slots__ = ("_tenants", "_tools")

    def __init__(self, tools: ToolsSettings, tenants: Mapping[str, ToolRule] | None = None) -> None:
        self._tools = tools
        self._tenants = dict(tenants or {})

    @classmethod
    def from_settings(cls, settings: Settings) -> ToolPolicy:
        return cls(settings.tools, {name: t.tools for name, t in settings.tenants.items()})

    def rules(self, audience: Audience, tenant: str | None = None) -> list[ToolRule]:
        rules = [getattr(self._tools.policy, audience)]
        own = self._tenants.get(tenant) if tenant is not None else None
        if own is not None:
            rules.append(own)
        return rules

    def grant(self, audience: Audience, tenant: str | None, names: Iterable[str]) -> Grant:
        """The tools among ``names`` that ``audience`` in ``tenant`` may use, and exec's network."""
        rules = self.rules(audience, tenant)
        allowed = frozenset(n for n in names if all(_passes(r, n) for r in rules))
        votes = [r.exec_network for r in rules if r.exec_network is not None]
        network = all(votes) if votes else self._tools.exec.network
        return Grant(allowed, network)

    def describe(self, names: Iterable[str]) -> list[str]:
        """One line per audience: the tools it is offered (of ``names``) and exec's network.

        Tenants' own rules are shown after them. ``agentd config show`` prints these.
        """
        names = sorted(names)
        lines = []
        for audience in AUDIENCES:
            grant = self.grant(audience, None, names)
            lines.append(_line(audience, names, grant))
        for tenant in sorted(self._tenants):
            rule = self._tenants[tenant]
            if rule.allow is None and not rule.deny and rule.exec_network is None:
                continue
            for audience in AUDIENCES:
                grant = self.grant(audience, tenant, names)
                lines.append(_line(f"{audience} (tenant {tenant})", names, grant))
        return lines


def _line(who: str, names: list[str], grant: Grant) -> str:
    offered = [n for n in names if grant.allows(n)]
    denied = [n for n in names if not grant.allows(n)]
    text = f"{who}: {', '.join(offered) or '(no tools)'}"
    if denied:
        text += f"; not offered: {', '.join(denied)}"
    if "exec" in offered:
        text += f"; exec network: {'on' if grant.exec_network else 'off'}"
    return text
