"""Each tenant's workdir: the install's, a configured one, or its own under the state dir."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from agentd import scope as scopes
from agentd.config import Settings
from agentd.daemon.workdirs import Workdirs, folder_name
from agentd.errors import ToolError
from agentd.messages import ToolCall
from agentd.tools.builtin import register_builtin_tools
from agentd.tools.registry import ToolOutcome, ToolRegistry


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    shared = {"workdir": tmp_path / "shared"}
    return Settings(
        workdir=tmp_path / "workdir",
        state_dir=tmp_path / "state",
        tenants={"shared-a": shared, "shared-b": shared},  # type: ignore[dict-item]
    )


def test_install_tenant_keeps_the_workdir(settings: Settings) -> None:
    """The install's own tenant works in settings.workdir."""
    workdirs = Workdirs(settings)
    assert workdirs(settings.tenant) == settings.workdir
    assert workdirs.is_operators(settings.tenant)


def test_other_tenant_gets_its_own_folder_made_0700(settings: Settings) -> None:
    """Another tenant's workdir is state_dir/tenants/<name>/workdir, made 0700 on first use."""
    workdirs = Workdirs(settings)
    expected = settings.state_dir / "tenants" / "family" / "workdir"
    assert workdirs.path("family") == expected
    assert not expected.exists()
    assert workdirs("family") == expected
    for folder in (expected, expected.parent, expected.parent.parent):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700, folder
    assert not workdirs.is_operators("family")


def test_configured_mapping_is_shared(settings: Settings, tmp_path: Path) -> None:
    """tenants.<name>.workdir maps a tenant to a folder; two tenants mapped to one share it."""
    workdirs = Workdirs(settings)
    assert workdirs("shared-a") == workdirs("shared-b") == tmp_path / "shared"
    assert (tmp_path / "shared").is_dir()
    assert not (settings.state_dir / "tenants").exists()


def test_tenant_mapped_to_the_operators_workdir_is_the_operators(
    settings: Settings, tmp_path: Path
) -> None:
    """A tenant mapped to the operator's workdir counts as working there (no own AGENTS.md)."""
    mapped = Settings(
        workdir=settings.workdir,
        state_dir=settings.state_dir,
        tenants={"ops": {"workdir": tmp_path / "x" / ".." / "workdir"}},  # type: ignore[dict-item]
    )
    assert Workdirs(mapped).is_operators("ops")


@pytest.mark.parametrize(
    ("tenant", "folder"),
    [
        pytest.param("family", "family", id="plain"),
        pytest.param("a:b@c", "a%3ab%40c", id="colon-at"),
        pytest.param("telegram:123", "telegram%3a123", id="telegram"),
        pytest.param("Alice", "%41lice", id="upper"),
        pytest.param("a.b_c-d", "a.b_c-d", id="kept"),
    ],
)
def test_folder_name_is_one_safe_component(tenant: str, folder: str) -> None:
    """A tenant name becomes one path component of lower-case letters, digits, _ . - and %xx."""
    assert folder_name(tenant) == folder
    assert Path(folder).name == folder and folder not in (".", "..")


def test_folder_names_never_collide_even_ignoring_case() -> None:
    """Names differing only in case, or in : vs its escape, get different folders."""
    names = ["alice", "Alice", "ALICE", "aLice", "a:b", "a3ab", "a@b", "a.b", "a-b", "a_b"]
    folders = [folder_name(n).lower() for n in names]
    assert len(set(folders)) == len(names)


@pytest.mark.parametrize(
    "tenant",
    [
        pytest.param("..", id="dotdot"),
        pytest.param(".", id="dot"),
        pytest.param("a/b", id="slash"),
        pytest.param("", id="empty"),
        pytest.param("a\n", id="newline"),
        pytest.param("x" * 65, id="too-long"),
    ],
)
def test_bad_tenant_names_get_no_folder(settings: Settings, tenant: str) -> None:
    """A name outside the tenant pattern is refused, never turned into a path."""
    with pytest.raises(ValueError, match="tenant name"):
        Workdirs(settings)(tenant)
    assert not (settings.state_dir / "tenants").exists()


def test_symlinked_tenants_folder_is_refused(settings: Settings, tmp_path: Path) -> None:
    """A symlink planted as state_dir/tenants is not followed when a workdir is made."""
    settings.state_dir.mkdir()
    (tmp_path / "elsewhere").mkdir()
    (settings.state_dir / "tenants").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(ToolError, match="symlink"):
        Workdirs(settings)("family")
    assert list((tmp_path / "elsewhere").iterdir()) == []


async def _call(registry: ToolRegistry, tenant: str, name: str, **args: object) -> ToolOutcome:
    with scopes.use(scopes.Scope(tenant=tenant)):
        return await registry.call(ToolCall("c", name, json.dumps(args)))


@pytest.mark.anyio
async def test_file_tools_in_two_scopes_use_two_folders(settings: Settings) -> None:
    """The same write in two tenants' scopes lands in two folders; neither reads the other's."""
    workdirs = Workdirs(settings)
    registry = ToolRegistry()
    register_builtin_tools(registry, workdirs)
    assert not (await _call(registry, "alice", "write_file", path="n.md", content="A")).error
    assert not (await _call(registry, "bob", "write_file", path="n.md", content="B")).error
    assert (workdirs.path("alice") / "n.md").read_text() == "A"
    assert (workdirs.path("bob") / "n.md").read_text() == "B"
    assert (await _call(registry, "alice", "read_file", path="n.md")).content == "A"
    assert (await _call(registry, "bob", "read_file", path="n.md")).content == "B"
    assert not (await _call(registry, "bob", "write_file", path="only-bob", content="x")).error
    missing = await _call(registry, "alice", "read_file", path="only-bob")
    assert missing.error and "no file" in missing.content
    assert "only-bob" not in (await _call(registry, "alice", "list_dir")).content
    escape = await _call(registry, "alice", "read_file", path="../../bob/workdir/n.md")
    assert escape.error and ".." in escape.content


@pytest.mark.anyio
async def test_file_tools_without_a_scope_fail_closed(settings: Settings) -> None:
    """With a per-tenant resolver, a tool call outside any scope touches no folder."""
    registry = ToolRegistry()
    register_builtin_tools(registry, Workdirs(settings))
    out = await registry.call(ToolCall("c", "write_file", '{"path": "x", "content": "y"}'))
    assert out.error and "scope" in out.content
    assert not settings.state_dir.exists() and not settings.workdir.exists()
