"""BFCL's function docs as OpenAI ``tools``, the way BFCL prepares them for an OpenAI FC model.

A port of bfcl-eval's ``convert_to_tool`` and ``_cast_to_openai_type``
(``bfcl_eval/model_handler/utils.py``, model style OPENAI_COMPLETIONS, mapping
``GORILLA_TO_OPENAPI``) plus the Python hint its data loader appends to every description
(``_func_doc_language_specific_pre_processing``). bfcl-eval is Apache-2.0, by the gorilla project.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

PYTHON_HINT = " Note that the provided function is in Python 3 syntax."

#: bfcl_eval/constants/type_mappings.py, GORILLA_TO_OPENAPI.
GORILLA_TO_OPENAPI = {
    "integer": "integer",
    "number": "number",
    "float": "number",
    "string": "string",
    "boolean": "boolean",
    "bool": "boolean",
    "array": "array",
    "list": "array",
    "dict": "object",
    "object": "object",
    "tuple": "array",
    "any": "string",
    "byte": "integer",
    "short": "integer",
    "long": "integer",
    "double": "number",
    "char": "string",
    "ArrayList": "array",
    "Array": "array",
    "HashMap": "object",
    "Hashtable": "object",
    "Queue": "array",
    "Stack": "array",
    "Any": "string",
    "String": "string",
    "Bigint": "integer",
}


def openai_name(name: str) -> str:
    """OpenAI tool names match ``^[a-zA-Z0-9_-]{1,64}$``: BFCL turns each "." into "_"."""
    return name.replace(".", "_")


def _cast_to_openai_type(properties: dict[str, Any]) -> dict[str, Any]:
    for value in properties.values():
        if "type" not in value:
            value["type"] = "string"
        else:
            var_type = value["type"]
            if var_type == "float":
                value["format"] = "float"
                value["description"] = value.get("description", "") + " This is a float type value."
            value["type"] = GORILLA_TO_OPENAPI.get(var_type, "string")
        # BFCL supports lists of any, lists of lists of any, lists of dicts, dicts of any.
        if value["type"] in ("array", "object"):
            if "properties" in value:
                value["properties"] = _cast_to_openai_type(value["properties"])
            elif "items" in value:
                items = value["items"]
                items["type"] = GORILLA_TO_OPENAPI[items["type"]]
                if items["type"] == "array" and "items" in items:
                    items["items"]["type"] = GORILLA_TO_OPENAPI[items["items"]["type"]]
                elif items["type"] == "object" and "properties" in items:
                    items["properties"] = _cast_to_openai_type(items["properties"])
    return properties


def to_openai_tools(functions: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """``[{"type": "function", "function": {...}}]`` for BFCL's function docs (copied first)."""
    tools = []
    for item in copy.deepcopy(list(functions)):
        item["description"] = item.get("description", "") + PYTHON_HINT
        item["name"] = openai_name(item["name"])
        params = item.setdefault("parameters", {})
        params["type"] = "object"
        params["properties"] = _cast_to_openai_type(params.get("properties", {}))
        tools.append({"type": "function", "function": item})
    return tools
