"""Is a tool call well-formed, whatever BFCL thinks of its values? And does text look like one?

A call is invalid when its arguments are not a JSON object (``unparseable``), its name is not
among the offered tools (``unknown tool``), or its arguments break the offered JSON schema
(``schema: ...``). The ``jsonschema`` package is not in agentd's environment, so the few
keywords BFCL's converted docs use are checked here: ``type``, ``enum``, ``properties``,
``required``, ``additionalProperties``, ``items``, ``minItems``/``maxItems`` and
``minimum``/``maximum``. Other keywords (``format``, ``default``, BFCL's own ``optional``) and
malformed ones (a boolean ``required`` inside a property) are ignored, as a lenient validator
would.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from bench.bfcl.scorer import RawCall

_JSON_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "boolean": (bool,),
    "array": (list,),
    "object": (dict,),
    "null": (type(None),),
}
#: Text that reads like a tool call the server's parser did not turn into one.
_CALL_TAG = re.compile(r"<tool_call>|<function[=>]")
_NAME_KEY = re.compile(r'"name"\s*:')
_ARGS_KEY = re.compile(r'"(?:arguments|parameters)"\s*:')


def _is_type(value: Any, name: str) -> bool:
    if name == "integer":
        if isinstance(value, bool):
            return False
        return isinstance(value, int) or (isinstance(value, float) and value.is_integer())
    if name == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    kinds = _JSON_TYPES.get(name)
    return kinds is None or isinstance(value, kinds)  # an unknown type name: not checked


def schema_errors(value: Any, schema: Any, where: str = "arguments") -> list[str]:
    """What is wrong with ``value`` under ``schema`` (empty: nothing)."""
    if not isinstance(schema, dict):
        return []
    expected = schema.get("type")
    names = [expected] if isinstance(expected, str) else expected
    if isinstance(names, list) and not any(_is_type(value, n) for n in names):
        return [f"{where}: expected {'/'.join(map(str, names))}, got {type(value).__name__}"]
    enum = schema.get("enum")
    if isinstance(enum, list) and value not in enum:
        return [f"{where}: {value!r} is not one of {enum}"]
    errors: list[str] = []
    if isinstance(value, dict):
        errors += _object_errors(value, schema, where)
    elif isinstance(value, list):
        errors += _array_errors(value, schema, where)
    elif isinstance(value, int | float) and not isinstance(value, bool):
        low, high = schema.get("minimum"), schema.get("maximum")
        if isinstance(low, int | float) and value < low:
            errors.append(f"{where}: {value} is below the minimum {low}")
        if isinstance(high, int | float) and value > high:
            errors.append(f"{where}: {value} is above the maximum {high}")
    return errors


def _object_errors(value: dict[str, Any], schema: dict[str, Any], where: str) -> list[str]:
    errors: list[str] = []
    properties = schema.get("properties")
    properties = properties if isinstance(properties, dict) else {}
    required = schema.get("required")
    if isinstance(required, list):
        errors += [f"{where}: {key!r} is missing" for key in required if key not in value]
    extra = schema.get("additionalProperties", True)
    for key, item in value.items():
        if key in properties:
            errors += schema_errors(item, properties[key], f"{where}.{key}")
        elif extra is False:
            errors.append(f"{where}: unexpected {key!r}")
        elif isinstance(extra, dict):
            errors += schema_errors(item, extra, f"{where}.{key}")
    return errors


def _array_errors(value: list[Any], schema: dict[str, Any], where: str) -> list[str]:
    errors: list[str] = []
    low, high = schema.get("minItems"), schema.get("maxItems")
    if isinstance(low, int) and len(value) < low:
        errors.append(f"{where}: fewer than {low} items")
    if isinstance(high, int) and len(value) > high:
        errors.append(f"{where}: more than {high} items")
    items = schema.get("items")
    for index, item in enumerate(value):
        sub = items[index] if isinstance(items, list) and index < len(items) else items
        errors += schema_errors(item, sub, f"{where}[{index}]")
    return errors


def call_problem(call: RawCall, tools: Sequence[dict[str, Any]]) -> str | None:
    """Why the call is invalid against the offered ``tools``, or None when it is valid."""
    name, arguments = call
    try:
        args = json.loads(arguments)
    except ValueError:
        return "unparseable"
    if not isinstance(args, dict):
        return "unparseable"
    offered = {t["function"]["name"]: t["function"] for t in tools}
    if name not in offered:
        return "unknown tool"
    errors = schema_errors(args, offered[name].get("parameters", {}))
    return f"schema: {'; '.join(errors)}" if errors else None


def looks_like_call(text: str) -> bool:
    """Text that reads like a tool call: a ``<tool_call>`` tag, or JSON with a "name" and
    "arguments" (or "parameters") key."""
    return bool(_CALL_TAG.search(text)) or bool(_NAME_KEY.search(text) and _ARGS_KEY.search(text))
