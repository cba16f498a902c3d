"""The system prompt: ``SYSTEM.md`` (parent of the workdir) or the fallback, plus ``AGENTS.md``.

Both files are optional. One that exists but cannot be read (a folder, no permission, not
UTF-8; for ``AGENTS.md`` also a symlink or a hard-linked file, which the agent could have
planted in its workdir) is a :class:`~agentd.errors.ConfigError` naming the file: the daemon
refuses to start, and a reload keeps the prompt it had.

A tenant with a workdir of its own gets the operator's prompt and then its own ``AGENTS.md``
(:class:`TenantPrompts`). That file is the tenant's, not the operator's: when it cannot be read,
the error is logged and the tenant's turns go on without it.

With ``date_in_prompt`` (``default.date_in_prompt``) every prompt starts with today's date and
weekday (:func:`today_line`): asked to write today's date into a file, the small local model
wrote one it made up ("2023-10-05") rather than call ``current_time`` first. The date changes
the prompt once a day, so the model server's cached prompt is lost once a day, not per turn.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import anyio
import structlog

from agentd import scope as scopes
from agentd.daemon.workdirs import Workdirs
from agentd.errors import ConfigError, ToolError
from agentd.tools import workdir_fs

log = structlog.get_logger("agentd.daemon.prompt")

#: Tenants whose prompt is kept in memory; a tenant beyond is read again on its next turn.
MAX_CACHED = 1024

FALLBACK_INSTRUCTIONS = """\
You are agentd, a helpful assistant running as a local daemon. Answer concisely and truthfully,
in the language the user wrote in, even when they ask about words of another language.
Use a tool when it gives a better answer than guessing (the time, files in your workdir, your
long-term memory); otherwise answer directly. If a tool returns an error, read it and fix the call
or tell the user what went wrong."""


#: After the date: asked the weekday in New York just after midnight UTC, the model gave the
#: prompt's UTC day instead of calling current_time.
ELSEWHERE = " Another time zone may be on another day: call current_time for it."


def today_line(now: datetime) -> str:
    """The sentence giving the date of ``now`` (an aware datetime, in the local time zone),
    and the UTC date too when that is another day."""
    zone = now.tzname() or "local time"
    utc = now.astimezone(UTC)
    if utc.date() == now.date():
        return f"Today is {now:%A, %Y-%m-%d} ({zone}).{ELSEWHERE}"
    return (
        f"Today is {now:%A, %Y-%m-%d} ({zone}, UTC{now:%z}); in UTC it is {utc:%A, %Y-%m-%d}."
        + ELSEWHERE
    )


def _local_now() -> datetime:
    return datetime.now().astimezone()


def _unreadable(path: Path, why: object) -> ConfigError:
    return ConfigError(
        path.name,
        str(path),
        f"cannot be read ({why}); make it a plain UTF-8 text file (not a symlink or a hard "
        "link) or remove it (it is optional)",
    )


def _read_system(path: Path) -> str | None:
    # The workdir's parent is out of the agent's reach: the operator may symlink SYSTEM.md.
    try:
        text = path.read_text(encoding="utf-8")
    except (FileNotFoundError, NotADirectoryError):
        return None
    except IsADirectoryError:
        raise _unreadable(path, "it is a directory") from None
    except OSError as exc:
        raise _unreadable(path, exc.strerror or exc) from None
    except UnicodeDecodeError as exc:
        raise _unreadable(path, f"not UTF-8: {exc.reason}") from None
    return text.strip() or None


def _read_agents(workdir: Path) -> str | None:
    # In the workdir, where the agent writes: read without following symlinks or hard links.
    try:
        text = workdir_fs.read_text(workdir, ("AGENTS.md",))
    except ToolError as exc:
        raise _unreadable(workdir / "AGENTS.md", exc) from None
    except OSError as exc:
        raise _unreadable(workdir / "AGENTS.md", exc.strerror or exc) from None
    if text is None:
        return None
    return text.strip() or None


def dated_clock(enabled: bool) -> Callable[[], datetime] | None:
    """The clock ``TenantPrompts`` dates prompts with (``default.date_in_prompt``), or None."""
    return _local_now if enabled else None


def build_system_prompt(workdir: Path) -> str:
    """``SYSTEM.md`` replaces the fallback text; ``AGENTS.md`` is appended; both optional.

    Raises :class:`~agentd.errors.ConfigError` naming a file that exists but cannot be read.
    """
    workdir = workdir.expanduser()
    base = _read_system(workdir.parent / "SYSTEM.md") or FALLBACK_INSTRUCTIONS
    agents = _read_agents(workdir)
    return f"{base}\n\n{agents}" if agents else base


def tenant_agents(workdir: Path, tenant: str) -> str | None:
    """A tenant's own ``AGENTS.md`` in ``workdir``, or None: missing, empty or unreadable
    (then the error is logged: a tenant's file never stops its turns or the daemon)."""
    try:
        return _read_agents(workdir.expanduser())
    except ConfigError as exc:
        log.error("prompt.tenant_agents_skipped", tenant=tenant, error=str(exc))
        return None


class TenantPrompts:
    """The system prompt of each scope's tenant, read once and kept until :meth:`reload`.

    A tenant in the operator's workdir gets the operator's prompt; a tenant with a workdir of
    its own gets it followed by that workdir's ``AGENTS.md``, when there is one. Raises
    ConfigError (at start) when the operator's files cannot be read.
    """

    __slots__ = ("_cache", "base", "max_cached", "now", "workdirs")

    def __init__(
        self,
        workdirs: Workdirs,
        *,
        max_cached: int = MAX_CACHED,
        now: Callable[[], datetime] | None = None,
    ) -> None:
        self.workdirs = workdirs
        self.max_cached = max_cached
        #: With a clock (local, aware), each prompt starts with today's date (``today_line``).
        self.now = now
        self.base = build_system_prompt(workdirs.operator)
        self._cache: OrderedDict[str, str] = OrderedDict()

    async def __call__(self, scope: scopes.Scope) -> str:
        """The system prompt for turns in ``scope`` (dated, with a clock)."""
        prompt = await self._for(scope.tenant)
        # First, not last: at the end of the prompt the line made the 1.5B model route 4 of 8
        # requests that need no tool to write_file (against 1 of 8 without it, or first).
        return prompt if self.now is None else f"{today_line(self.now())}\n\n{prompt}"

    async def _for(self, tenant: str) -> str:
        if tenant == self.workdirs.tenant:
            return self.base
        prompt = self._cache.get(tenant)
        if prompt is None:
            base = self.base
            prompt = await anyio.to_thread.run_sync(self._read, tenant, base)
            if base is not self.base:
                return prompt  # a reload came meanwhile: do not keep the old operator's prompt
            self._cache[tenant] = prompt
            while len(self._cache) > self.max_cached:
                self._cache.popitem(last=False)
        else:
            self._cache.move_to_end(tenant)
        return prompt

    def _read(self, tenant: str, base: str) -> str:
        if self.workdirs.is_operators(tenant):
            return base
        own = tenant_agents(self.workdirs.path(tenant), tenant)
        return f"{base}\n\n{own}" if own else base

    def reload(self) -> str:
        """Re-read the operator's files now and every tenant's ``AGENTS.md`` at its next turn.

        Raises ConfigError, keeping the prompts it had, when the operator's files cannot be
        read. Returns the operator's prompt.
        """
        self.base = build_system_prompt(self.workdirs.operator)
        self._cache.clear()
        return self.base
