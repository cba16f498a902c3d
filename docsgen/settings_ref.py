"""The settings reference: every key of the settings model, its type, default and env names."""

from __future__ import annotations

import json
import re
import types
import typing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, SecretStr
from pydantic.fields import FieldInfo

from agentd.config.settings import ENV_PREFIX, FLAT_ENV, Settings
from docsgen.markdown import GENERATED, cell, code, table

#: How a key names an entry of a mapping (``tenants.<name>.workdir``) and of a list.
ANY_NAME = "<name>"
ANY_ITEM = "[]"
TOP_LEVEL = "Top-level keys"


@dataclass(frozen=True, slots=True)
class SettingRow:
    """One leaf setting as the reference shows it."""

    key: str
    type: str
    default: str
    env: tuple[str, ...]
    description: str


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    """The pydantic models an annotation holds directly or as a union member."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        return [m for arg in typing.get_args(annotation) for m in _models_in(arg)]
    return []


def _type_name(annotation: Any) -> str:
    """A short, readable name for a field's annotation."""
    if typing.get_origin(annotation) is typing.Literal:
        return " | ".join(json.dumps(a) for a in typing.get_args(annotation))
    text = str(annotation) if not isinstance(annotation, type) else annotation.__name__
    text = re.sub(r"typing\.|pathlib\.|pydantic\.types\.", "", text)
    text = re.sub(r"<class '([\w.]*\.)?(\w+)'>", r"\2", text)
    text = re.sub(r"[\w.]+\.(\w+)", r"\1", text)
    return text.replace("NoneType", "None")


def _default(field: FieldInfo) -> str:
    if field.is_required():
        return "required"
    value = field.get_default(call_default_factory=True)
    if isinstance(value, SecretStr):
        return "(secret)"
    if isinstance(value, BaseModel):
        value = value.model_dump(mode="json")
    if isinstance(value, Path):
        value = str(value)
    try:
        return json.dumps(value, default=str)
    except TypeError:  # pragma: no cover - every default is JSON-able today
        return str(value)


def _env_names(path: tuple[str, ...]) -> tuple[str, ...]:
    if ANY_ITEM in path:
        return ()  # a list is set whole, as JSON, under its own key
    names = [ENV_PREFIX + "__".join(p.upper() for p in path)]
    names += [flat for flat, target in FLAT_ENV.items() if target == path]
    return tuple(names)


def setting_rows(
    model: type[BaseModel] = Settings, prefix: tuple[str, ...] = ()
) -> list[SettingRow]:
    """Every leaf key under ``model``; mappings and lists of models are walked too."""
    rows: list[SettingRow] = []
    for name, field in model.model_fields.items():
        path = (*prefix, name)
        annotation = field.annotation
        origin = typing.get_origin(annotation)
        args = typing.get_args(annotation)
        nested = _models_in(annotation)
        if nested and len(nested) == 1 and nested[0] is annotation:
            rows += setting_rows(nested[0], path)
            continue
        rows.append(
            SettingRow(
                key=".".join(path),
                type=_type_name(annotation),
                default=_default(field),
                env=_env_names(path),
                description=field.description or "",
            )
        )
        if origin is dict and args:
            for inner in _models_in(args[1]):
                rows += setting_rows(inner, (*path, ANY_NAME))
        elif origin is list and args:
            for inner in _models_in(args[0]):
                rows += setting_rows(inner, (*path, ANY_ITEM))
        else:
            for inner in nested:  # an optional section (``X | None``)
                rows += setting_rows(inner, path)
    return rows


def _key(path: str) -> str:
    return path.replace(f".{ANY_ITEM}.", "[].")


INTRO = """# Settings

Every key agentd reads, from the settings model itself. Settings come from (lowest to highest)
the defaults below, the JSON file (`--config PATH`, `$AGENTD_CONFIG` or
`~/.agentd/config.json`), the nested environment variables (`AGENTD_SECTION__KEY`) and the flat
names, which win; see [Configuration](../configuration.md). A key under `<name>` is one entry of
a mapping (`tenants.family.workdir`); `[]` is each item of a list, which is set whole (in the
environment as a JSON value of the list's own variable).

"""


def settings_page() -> str:
    """The settings reference page, one table per top-level section."""
    sections: dict[str, list[SettingRow]] = {}
    for row in setting_rows():
        top = row.key.split(".")[0] if "." in row.key else TOP_LEVEL
        sections.setdefault(top, []).append(row)
    parts = [INTRO, GENERATED]
    for section, rows in sections.items():
        parts.append(f"\n## {section}\n" if section == TOP_LEVEL else f"\n## `{section}`\n")
        parts.append(
            table(
                ["key", "type", "default", "environment", "what it does"],
                (
                    [
                        code(_key(r.key)),
                        cell(r.type),
                        code(r.default),
                        "<br>".join(code(e) for e in r.env) or "-",
                        cell(r.description),
                    ]
                    for r in rows
                ),
            )
        )
        parts.append("")
    return "\n".join(parts)
