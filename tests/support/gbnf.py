"""A small GBNF matcher for tests: does a grammar accept a whole string?

It reads the subset of llama.cpp's GBNF that agentd writes (rules, string literals, character
classes with ranges and negation, ``.``, groups, alternation, ``?``, ``*``, ``+``, ``{m,n}``)
and matches by memoised backtracking over end positions. Unknown syntax raises, so a grammar
that llama.cpp could not read either fails here too (undefined rules included).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", "\\": "\\", '"': '"', "]": "]", "[": "[", "-": "-"}


@dataclass(frozen=True)
class Lit:
    text: str


@dataclass(frozen=True)
class Cls:
    ranges: tuple[tuple[str, str], ...]
    negated: bool


@dataclass(frozen=True)
class Ref:
    name: str


@dataclass(frozen=True)
class Rep:
    node: Node
    low: int
    high: int | None


@dataclass(frozen=True)
class Seq:
    items: tuple[Node, ...]


@dataclass(frozen=True)
class Alt:
    options: tuple[Node, ...]


Node = Lit | Cls | Ref | Rep | Seq | Alt


class _Parser:
    def __init__(self, text: str) -> None:
        self.s = text
        self.i = 0

    def ws(self) -> None:
        while self.i < len(self.s) and self.s[self.i] in " \t":
            self.i += 1

    def char(self, stop: str) -> str:
        c = self.s[self.i]
        if c == "\\":
            nxt = self.s[self.i + 1]
            if nxt == "x":
                self.i += 4
                return chr(int(self.s[self.i - 2 : self.i], 16))
            if nxt == "u":
                self.i += 6
                return chr(int(self.s[self.i - 4 : self.i], 16))
            self.i += 2
            if nxt not in _ESCAPES:
                raise ValueError(f"unknown escape \\{nxt}")
            return _ESCAPES[nxt]
        if c == stop:
            raise ValueError("unexpected end of literal")
        self.i += 1
        return c

    def alt(self) -> Node:
        options = [self.seq()]
        while self.i < len(self.s) and self.s[self.i] == "|":
            self.i += 1
            options.append(self.seq())
        return options[0] if len(options) == 1 else Alt(tuple(options))

    def seq(self) -> Node:
        items: list[Node] = []
        while True:
            self.ws()
            if self.i >= len(self.s) or self.s[self.i] in "|)":
                return Seq(tuple(items))
            items.append(self.postfix(self.atom()))

    def atom(self) -> Node:
        c = self.s[self.i]
        if c == '"':
            self.i += 1
            out = []
            while self.s[self.i] != '"':
                out.append(self.char('"'))
            self.i += 1
            return Lit("".join(out))
        if c == "[":
            self.i += 1
            negated = self.s[self.i] == "^"
            self.i += negated
            ranges = []
            while self.s[self.i] != "]":
                low = self.char("]")
                high = low
                if self.s[self.i] == "-" and self.s[self.i + 1] != "]":
                    self.i += 1
                    high = self.char("]")
                ranges.append((low, high))
            self.i += 1
            return Cls(tuple(ranges), negated)
        if c == ".":
            self.i += 1
            return Cls((), True)
        if c == "(":
            self.i += 1
            node = self.alt()
            if self.s[self.i] != ")":
                raise ValueError(f"expected ) at {self.i}")
            self.i += 1
            return node
        match = re.compile(r"[a-zA-Z0-9-]+").match(self.s, self.i)
        if not match:
            raise ValueError(f"unexpected {c!r} at {self.i} in {self.s!r}")
        self.i = match.end()
        return Ref(match.group())

    def postfix(self, node: Node) -> Node:
        while self.i < len(self.s):
            c = self.s[self.i]
            if c in "?*+":
                self.i += 1
                node = Rep(node, 1 if c == "+" else 0, 1 if c == "?" else None)
            elif c == "{":
                end = self.s.index("}", self.i)
                low, _, high = self.s[self.i + 1 : end].partition(",")
                self.i = end + 1
                top = int(low) if not _ else (int(high) if high.strip() else None)
                node = Rep(node, int(low), top)
            else:
                break
        return node


def parse(grammar: str) -> dict[str, Node]:
    rules: dict[str, Node] = {}
    for line in grammar.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        name, sep, body = line.partition("::=")
        if not sep:
            raise ValueError(f"not a rule: {line!r}")
        parser = _Parser(body.strip())
        rules[name.strip()] = parser.alt()
        if parser.i != len(parser.s):
            raise ValueError(f"trailing text in rule {name.strip()!r}: {parser.s[parser.i :]!r}")
    for node in rules.values():
        _check_refs(node, rules)
    return rules


def _check_refs(node: Node, rules: dict[str, Node]) -> None:
    if isinstance(node, Ref) and node.name not in rules:
        raise ValueError(f"undefined rule {node.name!r}")
    for child in _children(node):
        _check_refs(child, rules)


def _children(node: Node) -> tuple[Node, ...]:
    if isinstance(node, Seq):
        return node.items
    if isinstance(node, Alt):
        return node.options
    if isinstance(node, Rep):
        return (node.node,)
    return ()


def accepts(grammar: str, text: str, root: str = "root") -> bool:
    """Whether ``grammar`` (from ``root``) matches all of ``text``."""
    rules = parse(grammar)

    @cache
    def ends(node: Node, at: int) -> frozenset[int]:
        if isinstance(node, Lit):
            hit = text.startswith(node.text, at)
            return frozenset({at + len(node.text)}) if hit else frozenset()
        if isinstance(node, Cls):
            if at >= len(text):
                return frozenset()
            inside = any(lo <= text[at] <= hi for lo, hi in node.ranges)
            return frozenset({at + 1}) if inside != node.negated else frozenset()
        if isinstance(node, Ref):
            return ends(rules[node.name], at)
        if isinstance(node, Alt):
            return frozenset().union(*(ends(o, at) for o in node.options))
        if isinstance(node, Seq):
            current = frozenset({at})
            for item in node.items:
                if not current:
                    break
                current = frozenset().union(*(ends(item, p) for p in current))
            return current
        # Rep: breadth-first over the count; an unbounded one stops when nothing is new.
        out = {at} if node.low == 0 else set()
        seen = {at}
        current = frozenset({at})
        count = 0
        while current and (node.high is None or count < node.high):
            reached = frozenset().union(*(ends(node.node, p) for p in current))
            count += 1
            if node.high is None:
                reached -= seen
                seen |= reached
            if count >= node.low:
                out |= reached
            current = reached
        return frozenset(out)

    return len(text) in ends(rules[root], 0)
