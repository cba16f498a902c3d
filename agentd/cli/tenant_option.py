"""``--tenant NAME``: the tenant whose data a command reads and changes (default: ``tenant``)."""

from __future__ import annotations

import argparse
import re

from agentd import scope as scopes
from agentd.config import TENANT_NAME, Settings


def tenant_name(text: str) -> str:
    """An argparse type: ``text`` if it is a tenant name, else a usage error naming the rule."""
    if not re.fullmatch(TENANT_NAME, text):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a tenant name: 1-64 letters, digits and _ . : @ -, "
            "starting with a letter or digit"
        )
    return text


def tenant_option(what: str) -> argparse.ArgumentParser:
    """A parent parser with ``--tenant`` for the actions of a command working on ``what``."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--tenant",
        type=tenant_name,
        metavar="NAME",
        help=f"tenant whose {what} to use (default: the install's, settings.tenant)",
    )
    return common


def scope_of(args: argparse.Namespace, settings: Settings) -> scopes.Scope:
    """The scope a command runs in: ``--tenant``, else the install's tenant."""
    return scopes.Scope(tenant=getattr(args, "tenant", None) or settings.tenant)
