"""The tenants section: names, and a tenant's workdir."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentd.config import Settings, load_settings
from agentd.errors import ConfigError


def test_tenant_workdir_is_expanded() -> None:
    """tenants.<name>.workdir takes ~ like workdir does; unset, it is None."""
    settings = Settings(tenants={"a": {"workdir": "~/fam"}, "b": {}})  # type: ignore[dict-item]
    assert settings.tenants["a"].workdir == Path("~/fam").expanduser()
    assert settings.tenants["b"].workdir is None


def test_install_tenant_cannot_be_moved_by_the_tenants_section(tmp_path: Path) -> None:
    """The install's own tenant keeps 'workdir': another folder for it there is a config error."""
    path = tmp_path / "c.json"
    path.write_text('{"tenant": "home", "tenants": {"home": {"workdir": "/srv/x"}}}')
    with pytest.raises(ConfigError, match=r"tenants\.home\.workdir"):
        load_settings(path, environ={})


def test_tenant_name_with_a_trailing_newline_is_refused() -> None:
    """A tenant name must match the pattern as a whole ($ would let a final newline in)."""
    with pytest.raises(ValueError, match="tenant name"):
        Settings(tenants={"a\n": {}})  # type: ignore[dict-item]
