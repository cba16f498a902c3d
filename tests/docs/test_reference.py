"""The generated reference pages name every setting, command, metric and route of the code."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from typing import Any

import pytest

from agentd.cli.main import _parser
from agentd.config import json_schema
from agentd.config.settings import FLAT_ENV
from agentd.metrics import Metrics
from docsgen import reference_pages
from docsgen.http_ref import PURPOSES, route_rows


@pytest.fixture(scope="module")
def pages() -> dict[str, str]:
    return reference_pages()


def _resolve(node: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        node = defs[node["$ref"].rsplit("/", 1)[1]]
    return node


def _schema_keys(node: dict[str, Any], defs: dict[str, Any], prefix: str) -> Iterator[str]:
    """Every key the JSON Schema allows, written as the reference writes them."""
    node = _resolve(node, defs)
    for name, child in node.get("properties", {}).items():
        key = f"{prefix}{name}"
        yield key
        for option in [child, *child.get("anyOf", [])]:
            option = _resolve(option, defs)
            items = _resolve(option.get("items", {}), defs)
            for item in [items, *items.get("anyOf", [])]:
                if "properties" in _resolve(item, defs):
                    yield from _schema_keys(item, defs, f"{key}[].")
            extra = option.get("additionalProperties")
            if isinstance(extra, dict) and "properties" in _resolve(extra, defs):
                yield from _schema_keys(extra, defs, f"{key}.<name>.")
            if "properties" in option:
                yield from _schema_keys(option, defs, f"{key}.")


def test_every_setting_of_the_schema_is_in_the_reference(pages: dict[str, str]) -> None:
    """Each key of the config file's JSON Schema has its row in the settings page (a section
    through the rows of its keys), and the page documents no key the schema lacks."""
    schema = json_schema()
    keys = set(_schema_keys(schema, schema["$defs"], ""))
    assert len(keys) > 150  # the walk reached the nested sections
    rows = [line for line in pages["reference/settings.md"].splitlines() if line.startswith("| `")]
    documented = {row.split("`")[1] for row in rows}
    missing = [
        k
        for k in keys
        if k not in documented and not any(d.startswith(f"{k}.") for d in documented)
    ]
    assert not sorted(missing)
    assert not sorted(documented - keys)


def test_settings_rows_carry_default_and_env_names(pages: dict[str, str]) -> None:
    """A row names the nested env variable, the flat one, and the default."""
    page = pages["reference/settings.md"]
    row = next(line for line in page.splitlines() if line.startswith("| `default.max_steps` |"))
    assert "`8`" in row and "`AGENTD_DEFAULT__MAX_STEPS`" in row and "`AGENT_MAX_STEPS`" in row
    for flat in FLAT_ENV:
        assert f"`{flat}`" in page


def _commands(
    parser: argparse.ArgumentParser, words: tuple[str, ...]
) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    yield words, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                yield from _commands(child, (*words, name))


def test_every_command_and_option_is_in_the_reference(pages: dict[str, str]) -> None:
    """Each command of the parser has a heading, and each of its options a row."""
    page = pages["reference/cli.md"]
    commands = list(_commands(_parser(), ("agentd",)))
    assert len(commands) > 20
    for words, parser in commands:
        assert f" `{' '.join(words)}`\n" in page, words
        for action in parser._actions:
            for flag in action.option_strings:
                if flag not in {"-h", "--help"}:
                    assert flag in page, (words, flag)


def test_every_metric_is_in_the_reference(pages: dict[str, str]) -> None:
    """Each metric family of the registry appears with the sample names /metrics shows."""
    page = pages["reference/metrics.md"]
    families = list(Metrics().registry.collect())
    assert len(families) > 10
    for family in families:
        suffix = {"counter": "_total", "histogram": "_bucket"}.get(family.type, "")
        assert f"`{family.name}{suffix}`" in page, family.name


def test_every_route_is_in_the_reference(pages: dict[str, str]) -> None:
    """Each route of the HTTP app is documented, and nothing documented is gone."""
    page = pages["reference/http-api.md"]
    rows = route_rows()
    assert {r.key for r in rows} == set(PURPOSES)
    for row in rows:
        assert f"| {row.method} | `{row.path}` |" in page


def test_readme_is_a_front_door() -> None:
    """The README stays short, and every page it links to exists."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    text = (root / "README.md").read_text()
    assert len(text.splitlines()) <= 200
    links = re.findall(r"\]\(([^)#:]+)\)", text)
    assert links and all((root / link).is_file() for link in links), links
