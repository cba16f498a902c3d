"""GBNF grammars that hold a local model's step to "an answer in words, or valid tool calls".

llama-server samples under a grammar (its ``grammar`` field, GBNF). :func:`tool_step_grammar`
builds one for a set of OpenAI tool schemas: the reply is either

- one or more ``{"name": ..., "arguments": {...}}`` calls, each naming an offered tool with
  arguments that match its JSON schema, or
- prose that does not start like a call (an object whose first key is ``name``, a list of
  objects, a ``<tool_call>``-like tag, the same inside a code fence, or blank), so a reply
  cannot be a call left as text and cannot be empty. (A call the model writes after some prose
  is parsed as a call by :mod:`agentd.model.textcalls`.)

The call forms are the ones small models write: ``<tool_call>`` blocks (the Hermes form Qwen's
template teaches), ```` ```json ```` fences (calls made together are often written one fence
each), or bare objects, one per line.

:func:`answer_grammar` is the prose half alone, for steps that offer no tools.

The JSON Schema subset covered is what tool schemas use: ``type`` (one or a list), ``properties``
and ``required`` (properties keep their order, optional ones may be left out, no others),
``items`` (``minItems`` 0 or 1, ``maxItems``), ``enum``, ``const``, ``anyOf``/``oneOf``, local
``$ref`` to ``$defs``/``definitions``, free-form objects, and two ``pattern`` values:
:data:`ONE_LINE`, a string without a line break (what :class:`~agentd.model.choice.CallRule`
``lines`` holds an argument to), and :data:`DELAY`, a delay such as "45m" or "2h30m" (what its
``shapes`` hold an argument to). Anything else falls back to "any JSON value" of the given
type: a grammar never rejects what the schema allows, the tool's own validation has the last
word.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

#: Calls one step may make: held to one tool, the model wrote the same call 30 times in a row
#: (to the token cap) when nothing bounded them.
MAX_CALLS = 6
CALL_OPEN = "<tool_call>"
CALL_CLOSE = "</tool_call>"

# Prose must not open like a call. It may open with JSON or a fence, but not with an object whose
# first key starts with "name" (a call: held to an exact "name", the model wrote "name "), a
# list of objects, a ```json fence, a tag (small models wrap calls in <tool_call>, <tools>,
# <function>, <json>, <response>...), or blank. After its
# first characters prose is free: restricting all of it made llama.cpp's sampler 5-10x slower
# per token (many live parse stacks) and led the model into answers that ran to the token cap.
# A call written after prose is parsed by agentd.model.textcalls, checked by the registry.
_ANSWER_RULES = {
    "answer": "answer-start .*",
    "answer-start": '[^{[<`\\x00-\\x20] | not-call | "[" [^{\\x00-\\x20] | "`" [^`] | "``" [^`]'
    ' | "```" [a-ik-zA-Z0-9+#-]* "\\n" ([^{[\\x00-\\x20] | not-call)',
    "not-call": '"{" [ \\n]* ([^{" \\n] | "\\"" ([^n ] | "n" ([^a] | "a" ([^m] | "m" [^e]))))',
}

_JSON_RULES = {
    "ws": '(" " | "\\n" " "{0,12})?',
    "string": '"\\"" char* "\\""',
    "char": '[^"\\\\\\x00-\\x1f] | "\\\\" (["\\\\/bfnrt] | "u" hex hex hex hex)',
    "hex": "[0-9a-fA-F]",
    "integer": '"-"? ("0" | [1-9] [0-9]{0,17})',
    "number": 'integer ("." [0-9]+)? ([eE] [-+]? [0-9]+)?',
    "boolean": '"true" | "false"',
    "null": '"null"',
    "value": "object | array | string | number | boolean | null",
    "object": '"{" ws (string ":" ws value ("," ws string ":" ws value)*)? ws "}"',
    "array": '"[" ws (value ("," ws value)*)? ws "]"',
}

#: The one string ``pattern`` the grammar holds to: text on one line (no line break, written
#: raw or as an escape).
ONE_LINE = r"^[^\n\r]*$"
#: A delay from now: seconds ("10s"), minutes ("45m"), hours always with their minutes
#: ("2h0m", "2h30m"), or days ("3d"). Let write "2h", the small model wrote it for "two and a
#: half hours"; made to go on with minutes after the hours, it wrote the half hour ("2h30m").
DELAY = r"^[0-9]{1,4}(s|m|h[0-9]{1,2}m|d)$"
#: Its rule, added to a grammar that uses it.
_DELAY_RULES = {"delay": '"\\"" [0-9]{1,4} ("s" | "m" | "h" [0-9]{1,2} "m" | "d") "\\""'}
#: The line rule's rules, added to a grammar that uses them.
_LINE_RULES = {
    "line": '"\\"" line-char* "\\""',
    "line-char": '[^"\\\\\\x00-\\x1f] | "\\\\" (["\\\\/bft] | "u" line-hex)',
    # \u000a and \u000d are line breaks too.
    "line-hex": '[1-9a-fA-F] hex hex hex | "0" [1-9a-fA-F] hex hex | "00" [1-9a-fA-F] hex '
    '| "000" [0-9b-cB-Ce-fE-F]',
}

_SIMPLE_TYPES = {
    "string": "string",
    "integer": "integer",
    "number": "number",
    "boolean": "boolean",
    "null": "null",
    "object": "object",
    "array": "array",
}


def literal(text: str) -> str:
    """``text`` as a GBNF string literal."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + escaped.replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t") + '"'


def choice_grammar(options: Sequence[str], most: int = 1) -> str:
    """GBNF for one of ``options``, or (``most`` above 1) a list of up to ``most`` of them
    joined by ", "."""
    item = " | ".join(literal(o) for o in options)
    if most <= 1:
        return f"root ::= {item}\n"
    tail = ""
    for _ in range(most - 1):
        tail = f'(", " item{" " + tail if tail else ""})?'
    return f"root ::= item {tail}\nitem ::= {item}\n"


class _Builder:
    """Collects rules; one rule per schema node, named after where it sits."""

    def __init__(self, defs: dict[str, Any]) -> None:
        self.rules: dict[str, str] = {}
        self.defs = defs
        self._refs: dict[str, str] = {}
        #: Each object rule's required keys, (key ":" value) rules and optional tail, by name.
        self.objects: dict[str, tuple[tuple[str, ...], dict[str, str], str]] = {}

    def name(self, hint: str) -> str:
        base = re.sub(r"[^a-zA-Z0-9]+", "-", hint).strip("-").lower() or "r"
        name, n = base, 1
        while (
            name in self.rules
            or name in _JSON_RULES
            or name in _ANSWER_RULES
            or name in _LINE_RULES
        ):
            n += 1
            name = f"{base}-{n}"
        self.rules[name] = ""  # reserved
        return name

    def add(self, hint: str, body: str) -> str:
        name = self.name(hint)
        self.rules[name] = body
        return name

    def schema(self, node: Any, hint: str) -> str:
        """A rule matching JSON values of ``node``; returns the rule's name."""
        if not isinstance(node, dict) or not node:
            return "value"
        if "$ref" in node:
            return self._ref(str(node["$ref"]), hint)
        if "const" in node:
            return self.add(hint, literal(json.dumps(node["const"], ensure_ascii=False)))
        if isinstance(node.get("enum"), list) and node["enum"]:
            options = [literal(json.dumps(v, ensure_ascii=False)) for v in node["enum"]]
            return self.add(hint, " | ".join(options))
        for key in ("anyOf", "oneOf"):
            if isinstance(node.get(key), list) and node[key]:
                parts = [self.schema(s, f"{hint}-{i}") for i, s in enumerate(node[key])]
                return self.add(hint, " | ".join(parts))
        kind = node.get("type")
        if isinstance(kind, list):
            parts = [self.schema({**node, "type": k}, f"{hint}-{k}") for k in kind]
            return self.add(hint, " | ".join(parts))
        if kind == "object" or (kind is None and "properties" in node):
            return self._object(node, hint)
        if kind == "array":
            items = node.get("items")
            item = self.schema(items, f"{hint}-item") if isinstance(items, dict) else "value"
            return self.add(hint, _array(item, node))
        if kind == "string" and node.get("pattern") == ONE_LINE:
            self.rules.update(_LINE_RULES)
            return "line"
        if kind == "string" and node.get("pattern") == DELAY:
            self.rules.update(_DELAY_RULES)
            return "delay"
        if isinstance(kind, str) and kind in _SIMPLE_TYPES:
            return _SIMPLE_TYPES[kind]
        return "value"

    def _object(self, node: dict[str, Any], hint: str) -> str:
        props = node.get("properties")
        if not isinstance(props, dict) or not props:
            return "object"
        required = [k for k in props if k in set(node.get("required") or ())]
        optional = [k for k in props if k not in required]
        pairs = {
            key: f"{literal(json.dumps(key, ensure_ascii=False))} "
            f'":" ws {self.schema(props[key], f"{hint}-{key}")}'
            for key in props
        }
        # rest_i: optional properties i.. each maybe present, after at least one property;
        # first_i: the same when none came before (no leading comma).
        rest = '""'
        first = '""'
        for key in reversed(optional):
            if not required:
                first = self.add(f"{hint}-first", f"{pairs[key]} {rest} | {first}")
            rest = self.add(f"{hint}-rest", f'("," ws {pairs[key]})? {rest}')
        if required:
            body = ' "," ws '.join(pairs[k] for k in required)
            name = self.add(hint, f'"{{" ws {body} {rest} ws "}}"')
            self.objects[name] = (tuple(required), pairs, rest)
            return name
        return self.add(hint, f'"{{" ws {first} ws "}}"')

    def after(self, rule: str, done: int) -> str:
        """What follows, in the object of ``rule``, the value of its ``done``-th required key
        up to its closing brace (exclusive)."""
        required, pairs, rest = self.objects[rule]
        return "".join(f' "," ws {pairs[k]}' for k in required[done:]) + f" {rest}"

    def _ref(self, ref: str, hint: str) -> str:
        if ref in self._refs:
            return self._refs[ref]
        match = re.fullmatch(r"#/(?:\$defs|definitions)/(.+)", ref)
        target = self.defs.get(match.group(1)) if match else None
        if not isinstance(target, dict):
            return "value"
        name = self.name(f"def-{match.group(1) if match else hint}")
        self._refs[ref] = name
        self.rules[name] = self.schema(target, f"{name}-body")
        return name


def _array(item: str, node: dict[str, Any]) -> str:
    """A list of ``item`` with the node's ``minItems`` (0 or at least 1) and ``maxItems``: a
    list with no bound was written to the token cap (a memory's tags: "CAF", "allocataire",
    "CAF", ... 1,024 tokens, then no call at all)."""
    first = 1 if _int(node.get("minItems")) >= 1 else 0
    most = _int(node.get("maxItems")) if "maxItems" in node else -1
    if most == 0:
        return '"[" ws "]"'
    more = "*" if most < 0 else f"{{0,{most - 1}}}"
    seq = f'{item} ("," ws {item}){more}'
    return f'"[" ws {seq} ws "]"' if first else f'"[" ws ({seq})? ws "]"'


#: The rule of each string pattern the grammar holds to.
_PATTERN_RULES = {ONE_LINE: "line", DELAY: "delay"}
#: Schema keys that make a string more than free text (or not a plain string at all).
_SHAPED = frozenset({"enum", "const", "anyOf", "oneOf", "allOf", "$ref"})


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _call(name: str, args: str) -> str:
    """The grammar of a call of the tool ``name`` whose arguments match the rule ``args``."""
    quoted = literal(json.dumps(name, ensure_ascii=False))
    return f'"{{" ws "\\"name\\":" ws {quoted} "," ws "\\"arguments\\":" ws {args} ws "}}"'


def _render(rules: dict[str, str]) -> str:
    return "\n".join(f"{name} ::= {body}" for name, body in rules.items()) + "\n"


def tool_step_grammar(
    tools: Sequence[dict[str, Any]], *, required: bool = False, single: bool = False
) -> str:
    """The grammar of one step offered ``tools`` (OpenAI ``tools`` entries): prose, or
    ``<tool_call>`` blocks calling them with schema-valid arguments.

    ``required`` leaves prose out (the step calls a tool); ``single`` allows one call, and
    otherwise at most ``MAX_CALLS``.
    """
    builder = _Builder({})
    calls: list[str] = []
    for index, tool in enumerate(tools):
        fn = tool.get("function", tool)
        name = str(fn["name"])
        params = fn.get("parameters") or {}
        builder.defs = {**params.get("definitions", {}), **params.get("$defs", {})}
        args = builder.schema(params, f"t{index}-args") if params else "object"
        calls.append(builder.add(f"t{index}-call", _call(name, args)))
    if not calls:
        return answer_grammar()
    more = f"{{0,{MAX_CALLS - 1}}}"
    again = f"{{1,{MAX_CALLS - 1}}}"  # a second fence and more, one call each
    rules = {
        "root": "calls" if required else "answer | calls",
        # The forms small models write calls in: Hermes tags, a ```json fence, bare JSON.
        "calls": "tagged | fenced | some"
        if single
        else f'tagged ("\\n" tagged){more} | fenced | fence-one ("\\n"{{1,2}} fence-one){again} '
        "| some",
        "fenced": '"```json\\n" some "\\n```"',
        "fence-one": '"```json\\n" callobj "\\n```"',
        "tagged": f'{literal(CALL_OPEN)} "\\n"? callobj "\\n"? {literal(CALL_CLOSE)}',
        "some": "callobj" if single else f'callobj ("\\n" callobj){more}',
        "callobj": " | ".join(calls),
        **({} if required else _ANSWER_RULES),
        **_JSON_RULES,
        **builder.rules,
    }
    return _render(rules)


def answer_grammar() -> str:
    """Prose only: a non-empty answer that does not open like a tool call."""
    return _render({"root": "answer", **_ANSWER_RULES})


@dataclass(frozen=True, slots=True)
class CallForm:
    """A form small models write a call in: the text before the object, whether the object is
    laid out a key a line (two spaces deep) or on one line, and the grammar of what may follow
    the first call: ``one`` when it is the step's only call, ``more`` otherwise (rules
    ``callobj``, ``fence-one`` and ``tagged`` defined)."""

    opening: str
    pretty: bool
    one: str
    more: str


FENCED = CallForm(
    "```json\n",
    True,
    '"\\n```"',
    f'("\\n" callobj){{0,{MAX_CALLS - 1}}} "\\n```" '
    f'| "\\n```" ("\\n"{{1,2}} fence-one){{1,{MAX_CALLS - 1}}}',
)
TAGGED = CallForm(
    CALL_OPEN + "\n",
    False,
    f'"\\n"? {literal(CALL_CLOSE)}',
    f'"\\n"? {literal(CALL_CLOSE)} ("\\n" tagged){{0,{MAX_CALLS - 1}}}',
)
BARE = CallForm("", False, '""', f'("\\n" callobj){{0,{MAX_CALLS - 1}}}')


def held_call_start(
    tool: dict[str, Any], *, single: bool = False, form: CallForm = FENCED
) -> tuple[str, str]:
    """For a step held to call ``tool`` (an OpenAI ``tools`` entry, its held arguments an
    ``enum`` of one value): the start of the call in ``form``, and the grammar of the rest of
    the reply.

    The start runs through the arguments held to one value up to the key of the first free
    string (``"content":``) when the required ones lead that way, else through
    ``"arguments":``: it ends where the model's own tokens end. (Cut inside one, after
    ``"content": `` with its space, the model wrote ``": buy..."``; after the opening quote, a
    value opening with punctuation is one token with the quote, `` "-``, so the next step's
    prompt, the call written back whole, left the server's cache there.) The model server
    reads the start as prompt instead of writing it a token at a time (a held ``write_file``:
    13 tokens written instead of 42). After the call, more calls of the tool may follow unless
    ``single``.
    """
    fn = tool.get("function", tool)
    params = fn.get("parameters") or {}
    builder = _Builder({**params.get("definitions", {}), **params.get("$defs", {})})
    args = builder.schema(params, "t0-args") if params else "object"
    name = json.dumps(str(fn["name"]), ensure_ascii=False)
    start = form.opening + (
        f'{{\n  "name": {name},\n  "arguments":'
        if form.pretty
        else f'{{"name": {name}, "arguments":'
    )
    opened = _into_string(params, args, builder, form.pretty)
    if opened is None:
        first = f'ws {args} ws "}}"'
    else:
        start += (" {\n" if form.pretty else " {") + opened[0]
        first = f'ws {opened[1]} {opened[2]} ws "}}" ws "}}"'
    rules = {
        "root": f"{first} ({form.one if single else form.more})",
        "callobj": _call(str(fn["name"]), args),
        "fence-one": '"```json\\n" callobj "\\n```"',
        "tagged": f'{literal(CALL_OPEN)} "\\n"? callobj "\\n"? {literal(CALL_CLOSE)}',
        **_JSON_RULES,
        **builder.rules,
    }
    return start, _render(rules)


def _into_string(
    params: dict[str, Any], args: str, builder: _Builder, pretty: bool
) -> tuple[str, str, str] | None:
    """The arguments' text up to the key of the first required string that is not held to one
    value, when only held ones come before it, the rule of that string (``string``, or
    ``line`` when held to one line) and the grammar of what follows its value; None when the
    required arguments do not lead to one."""
    if args not in builder.objects:
        return None
    props = params["properties"]
    required = builder.objects[args][0]
    indent, after = ("    ", ",\n") if pretty else ("", ", ")
    text = ""
    for index, key in enumerate(required):
        node = props[key] if isinstance(props[key], dict) else {}
        quoted = json.dumps(key, ensure_ascii=False)
        held = node.get("enum")
        if isinstance(held, list) and len(held) == 1 and index + 1 < len(required):
            text += f"{indent}{quoted}: {json.dumps(held[0], ensure_ascii=False)}{after}"
            continue
        if node.get("type") == "string" and not _SHAPED.intersection(node):
            value = _PATTERN_RULES.get(str(node.get("pattern")), "string")
            return f"{text}{indent}{quoted}:", value, builder.after(args, index + 1)
        return None
    return None
