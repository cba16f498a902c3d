"""Each tenant's workdir: where its file tools are confined and its own ``AGENTS.md`` lives.

The install's own tenant (``tenant``) keeps ``workdir``. Another tenant gets the folder the
config maps it to (``tenants.<name>.workdir``; tenants mapped to one folder share it), else its
own, ``state_dir/tenants/<folder>/workdir``, made (mode 0700) on first use. ``<folder>`` is the
tenant's name with every character but lower-case letters, digits, ``_``, ``.`` and ``-``
written as ``%xx`` (``a:b@C`` is ``a%3ab%40%43``): one path component, never ``.`` or ``..``,
and two names never share one, even on a file system that ignores case.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from agentd.config import TENANT_NAME, Settings
from agentd.tools import workdir_fs

#: Where tenants' own folders live, under the state directory.
TENANTS_DIR = "tenants"
_KEPT = re.compile(r"[a-z0-9_.-]")


def folder_name(tenant: str) -> str:
    """The folder of ``tenant`` under ``state_dir/tenants``; ValueError for a bad name."""
    if not re.fullmatch(TENANT_NAME, tenant):
        raise ValueError(
            f"tenant name {tenant!r}: 1-64 letters, digits and _ . : @ -, "
            "starting with a letter or digit"
        )
    return "".join(c if _KEPT.fullmatch(c) else f"%{ord(c):02x}" for c in tenant)


class Workdirs:
    """The workdir of each tenant, from one Settings (see the module docstring).

    Calling it gives a tenant's workdir, made if missing: pass it where a tenant's files are
    touched, at that moment (the file tools do, with the tenant of the current scope).
    """

    __slots__ = ("_mapped", "_state_dir", "operator", "tenant")

    def __init__(self, settings: Settings) -> None:
        self.operator = settings.workdir
        self.tenant = settings.tenant
        self._state_dir = settings.state_dir
        self._mapped = {
            name: t.workdir for name, t in settings.tenants.items() if t.workdir is not None
        }

    def path(self, tenant: str) -> Path:
        """Where ``tenant``'s workdir is (nothing is made)."""
        if tenant == self.tenant:
            return self.operator
        mapped = self._mapped.get(tenant)
        if mapped is not None:
            return mapped
        return self._state_dir / TENANTS_DIR / folder_name(tenant) / "workdir"

    def is_operators(self, tenant: str) -> bool:
        """Whether ``tenant`` works in the operator's workdir (the install's, or mapped to it)."""
        return _same(self.path(tenant), self.operator)

    def __call__(self, tenant: str) -> Path:
        """``tenant``'s workdir, made (mode 0700) if it does not exist yet."""
        path = self.path(tenant)
        if tenant == self.tenant:
            pass  # the operator's: made at start (`agentd run`), and by the first write
        elif tenant in self._mapped:
            path.mkdir(mode=0o700, parents=True, exist_ok=True)
        else:
            # Walked from the state dir without following symlinks, each folder made 0700.
            parts = (TENANTS_DIR, folder_name(tenant), "workdir")
            with workdir_fs.open_dir(self._state_dir, parts, create=True, mode=0o700):
                pass
        return path


def _same(a: Path, b: Path) -> bool:
    if os.path.normpath(a) == os.path.normpath(b):
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False
