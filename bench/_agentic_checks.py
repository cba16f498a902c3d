"""What one agent turn did, read from agentd's stored history, and the faults found in it.

Pure functions, no I/O: the agentic benchmark (``bench/agentic.py``) reads the history rows and
the answers, and these decide per turn:

- :func:`leaked_call`: the answer holds a tool call written as text (``<tool_call>``, a JSON
  object with ``"name"`` and ``"arguments"``, doubled braces ``{{"``, ``<function ...``,
  ``<tools>``, a fenced JSON object with a ``"name"``, ``tool_name(...)``);
- :func:`is_empty`: the answer has no letter or digit;
- :func:`repeats_request`: the answer is the request again (case, punctuation and spacing
  aside, a letter or two changed at most);
- :func:`claimed_action`: the answer says something was done (saved, written, created..., in
  each language of the suite); :func:`action_ran` says whether a tool that does things ran in
  the turn, :func:`asked_action_ran` whether one the request asked for did;
- :func:`unasked_calls`: the acting calls (:func:`acting`: anything but the tools that only
  look) that ran though the request did not ask for them;
- :func:`repeated_calls`: the calls repeating an earlier call of the turn (same tool, same
  arguments) that had not failed, nothing having changed in between.
"""

from __future__ import annotations

import difflib
import json
import re
import unicodedata
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from agentd.engine.loop import REPEATED
from agentd.tools.exec import READ_ONLY_NOTE

#: Tools that only look: a claim of having done something needs another tool to have run.
READ_ONLY_TOOLS = frozenset(
    {"current_time", "read_file", "list_dir", "memory_search", "list_tasks", "web_fetch"}
)
#: A memory tool's "cannot answer" is a normal result, but nothing was saved.
UNAVAILABLE = "memory unavailable"


@dataclass(frozen=True, slots=True)
class Call:
    """One tool call of a turn and what it returned."""

    name: str
    arguments: str
    result: str = ""
    failed: bool = False

    def as_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "arguments": self.arguments,
            "result": self.result[:500],
            "failed": self.failed,
        }


def turn_calls(rows: Iterable[Mapping[str, Any]]) -> list[Call]:
    """The tool calls in the stored messages of one turn (decoded ``messages.body`` rows), in
    order, each with its result; a call without a stored result counts as failed."""
    asked: list[tuple[str, str, str]] = []
    results: dict[str, tuple[str, bool]] = {}
    for row in rows:
        if row.get("role") == "assistant":
            asked.extend(
                (str(c.get("id", "")), str(c.get("name", "")), str(c.get("arguments") or ""))
                for c in row.get("tool_calls") or ()
            )
        elif row.get("role") == "tool":
            content = str(row.get("content") or "")
            meta = row.get("metadata") or {}
            failed = bool(meta.get("error")) or content.startswith(UNAVAILABLE)
            results[str(row.get("tool_call_id"))] = (content, failed)
    calls = []
    for call_id, name, arguments in asked:
        content, failed = results.get(call_id, ("(no result stored)", True))
        calls.append(Call(name, arguments, content, failed))
    return calls


def is_empty(answer: str) -> bool:
    """No letter or digit in the answer."""
    return not any(ch.isalnum() for ch in answer)


#: An answer at least this close to the request, letter by letter, only repeats it.
ECHO_RATIO = 0.97
#: A request shorter than this (a greeting) may be answered with its own words.
ECHO_FEWEST_CHARS = 20
_NOT_WORD = re.compile(r"[\W_]+")


def _plain(text: str) -> str:
    return _NOT_WORD.sub(" ", text.casefold()).strip()


def repeats_request(answer: str, request: str) -> bool:
    """Whether ``answer`` is ``request`` again: case, punctuation and spacing aside, at least
    :data:`ECHO_RATIO` alike letter by letter (judged by the suite on its own, not by the
    daemon's rule)."""
    said, asked = _plain(answer), _plain(request)
    if len(asked) < ECHO_FEWEST_CHARS or not said:
        return False
    alike = difflib.SequenceMatcher(None, said, asked, autojunk=False)
    return (
        alike.real_quick_ratio() >= ECHO_RATIO
        and alike.quick_ratio() >= ECHO_RATIO
        and alike.ratio() >= ECHO_RATIO
    )


_LEAKS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("<tool_call>", re.compile(r"</?tool_call\b", re.I)),
    ("<tools>", re.compile(r"</?tools\s*>", re.I)),
    ("<function", re.compile(r"<function\b", re.I)),
    ('{{"', re.compile(r'\{\{\s*"')),
    ('"tool_calls"', re.compile(r'"tool_calls"\s*:')),
    ('"function": {', re.compile(r'"function"\s*:\s*\{')),
)
_NAME_KEY = re.compile(r'"name"\s*:\s*"')
_ARGS_KEY = re.compile(r'"(?:arguments|parameters)"\s*:')
_FENCE = re.compile(r"```[\w-]*\s*\n?(.*?)```", re.S)


def leaked_call(answer: str, tool_names: Iterable[str] = ()) -> str | None:
    """Which tool-call pattern the answer text holds, or None."""
    for label, pattern in _LEAKS:
        if pattern.search(answer):
            return label
    if _NAME_KEY.search(answer) and _ARGS_KEY.search(answer):
        return '"name" + "arguments"'
    for block in _FENCE.findall(answer):
        if block.lstrip().startswith(("{", "[")) and _NAME_KEY.search(block):
            return 'fenced {"name": ...}'
    for name in tool_names:
        if re.search(rf"\b{re.escape(name)}\s*\(", answer):
            return f"{name}(...)"
        if re.search(rf'"name"\s*:\s*"{re.escape(name)}"', answer):
            return f'"name": "{name}"'
    return None


_DONE = (
    r"saved|wrote|written|created|appended|stored|scheduled|reminded|updated|added|noted|"
    r"recorded|remembered|changed|modified|copied|replaced|overwritten"
)
_ADVERBS = r"just|now|also|already|successfully|then|again"
_NEGATION = re.compile(r"\b(?:not|never|unable|cannot)\b|n't")
_CLAIMS = (
    # "I saved", "I've now written", "I have just created", "we appended"
    re.compile(rf"\b(?:I|we)(?:'ve|\s+have|\s+had)?(?:\s+(?:{_ADVERBS}))*\s+(?:{_DONE})\b", re.I),
    # "hello.py has been created", "the note has now been saved"
    re.compile(rf"\b(?:has|have)(?:\s+\w+)?\s+been\s+(?:\w+\s+)?(?:{_DONE})\b", re.I),
    # "The note was saved to notes.txt.", "were successfully written."
    re.compile(
        rf"\b(?:was|were)\s+(?:\w+ly\s+)?(?:{_DONE})(?:\s+(?:to|in|into|as)\b|\s*[.!]|$)",
        re.I,
    ),
    # "is now saved", "are safely stored"
    re.compile(rf"\b(?:is|are)\s+(?:now|safely|successfully)\s+(?:{_DONE})\b", re.I),
    # "Saved!", "Done: ...", "Successfully created hello.txt", at the start of a sentence
    re.compile(rf"(?:^|[.!?]\s+|\n\s*)(?:done\b|successfully\s+\w+|(?:{_DONE})\b)", re.I),
)


#: The same in German, Spanish, French (matched on the :func:`normalized` text: no accents),
#: Japanese and Chinese, each with the words that negate a phrase of its own.
_DONE_DE = (
    r"gespeichert|geschrieben|erstellt|angelegt|hinzugefugt|angehangt|geandert|notiert|"
    r"gemerkt|eingetragen|aktualisiert|ersetzt|kopiert|geplant|vermerkt|abgelegt"
)
_DONE_ES = (
    r"guardad[oa]s?|escrit[oa]s?|cread[oa]s?|anadid[oa]s?|agregad[oa]s?|actualizad[oa]s?|"
    r"cambiad[oa]s?|modificad[oa]s?|copiad[oa]s?|programad[oa]s?|anotad[oa]s?|apuntad[oa]s?|"
    r"registrad[oa]s?|memorizad[oa]s?"
)
_DONE_FR = (
    r"enregistree?s?|ecrite?s?|creee?s?|ajoutee?s?|modifiee?s?|mise? a jour|sauvegardee?s?|"
    r"notee?s?|copiee?s?|programmee?s?|memorisee?s?|remplacee?s?|planifiee?s?"
)
_JA_VERBS = r"保存|作成|追加|記録|登録|変更|更新|設定|予約|記憶|コピー|置換|メモ|上書き"
_ZH_VERBS = r"保存|写入|创建|添加|追加|记录|修改|更改|更新|设置|安排|记住|复制|替换|存储"
_LATIN_CLAIMS: tuple[tuple[re.Pattern[str], re.Pattern[str]], ...] = (
    (
        re.compile(
            rf"\b(?:habe|hab|haben|wurden?|ist|sind)\b[^.!?\n]{{0,60}}?\b(?:{_DONE_DE})\b"
            r"|(?:^|[.!?]\s+)erledigt\b"
        ),
        re.compile(r"\b(?:nichts?|kein\w*|nie|niemals|konnte)\b"),
    ),
    (
        re.compile(
            rf"(?:\bno\s+)?\b(?:he|hemos|ha|han|fue|fueron|esta|estan|queda|quedo)\b"
            rf"[^.!?\n]{{0,40}}?"
            rf"\b(?:{_DONE_ES})\b"
            r"|(?:^|[.!?]\s+)(?:listo|hecho|guarde|escribi|anadi|agregue|actualice|cambie|"
            r"anote|apunte|programe)\b"
        ),
        re.compile(r"\b(?:no|nunca|pude|puedo)\b"),
    ),
    (
        re.compile(
            rf"\b(?:j'ai|j ai|ai|avons|a ete|ont ete|est|sont)\b[^.!?\n]{{0,40}}?"
            rf"\b(?:{_DONE_FR})(?![a-z])"
            r"|(?:^|[.!?]\s+)(?:c'est )?fait\b"
        ),
        re.compile(r"\b(?:ne|pas|jamais|impossible)\b|\bn'"),
    ),
)
#: Matched on the text as written (normalizing drops the kana's voicing marks).
_CJK_CLAIMS: tuple[tuple[re.Pattern[str], re.Pattern[str]], ...] = (
    (
        re.compile(
            rf"(?:{_JA_VERBS})(?:し|いたし|され)(?:ておき|てあり)?ました"
            r"|(?:書き込み|書き|覚え|置き換え|入れ|残し)(?:ておき)?ました|完了しました|済みです"
        ),
        re.compile(r"ません|できな|しない|失敗"),
    ),
    (
        re.compile(rf"已(?:经)?(?:为你|帮你)?(?:{_ZH_VERBS})|(?:{_ZH_VERBS})(?:好|成功)了?"),
        re.compile(r"[不没未]|无法"),
    ),
)


def claimed_action(answer: str) -> str | None:
    """The phrase in which the answer says it did something (not negated), or None: in
    English, German, Spanish, French, Japanese or Chinese."""
    text = answer.replace("\u2019", "'")
    for pattern in _CLAIMS:
        for match in pattern.finditer(text):
            phrase = match.group(0).strip(" .!?\n")
            if not _NEGATION.search(phrase.lower()):
                return phrase
    for patterns, seen in ((_LATIN_CLAIMS, normalized(text)), (_CJK_CLAIMS, text)):
        for pattern, negation in patterns:
            for match in pattern.finditer(seen):
                phrase = match.group(0).strip(" .!?\n")
                if not negation.search(phrase):
                    return phrase
    return None


def action_ran(calls: Sequence[Call]) -> bool:
    """Whether a tool that changes something (not a read-only one) ran without failing."""
    return any(ran(c) and acting(c) for c in calls)


def acting(call: Call) -> bool:
    """Whether ``call`` is of a tool that does things (anything but the tools that only look,
    so an MCP tool is acting); a command that ran with the workdir read-only (its result says
    so: agentd held it to that for a request that asks for no change) changed nothing."""
    return call.name not in READ_ONLY_TOOLS and not call.result.startswith(READ_ONLY_NOTE)


def ran(call: Call) -> bool:
    """Whether ``call`` ran: it did not fail and was not answered with an earlier result."""
    return not call.failed and not call.result.startswith(REPEATED)


def unasked_calls(calls: Sequence[Call], asks: Collection[str]) -> list[Call]:
    """The acting calls that ran though the request did not ask for their tool (``asks``: the
    acting tools it asks for). A call agentd refused or that failed changed nothing."""
    return [c for c in calls if acting(c) and ran(c) and c.name not in asks]


def asked_action_ran(calls: Sequence[Call], asks: Collection[str]) -> bool:
    """Whether one of the tools the request asks for ran."""
    return any(ran(c) and c.name in asks for c in calls)


def canonical_arguments(arguments: str) -> str:
    """The arguments as sorted, compact JSON (the raw text stripped when it is not JSON)."""
    try:
        return json.dumps(json.loads(arguments), sort_keys=True, separators=(",", ":"))
    except ValueError:
        return arguments.strip()


def repeated_calls(calls: Sequence[Call]) -> list[Call]:
    """The calls that repeat an earlier successful call of the turn with the same arguments,
    with nothing changed in between, and were run again (agentd answers a repeat with the
    earlier result: see :func:`stopped_repeats`). A look made again after another call changed
    something (``wc -l`` after an append, a read after an edit) is a new look, as agentd's own
    repeat cache holds it; the same change made twice in a row is a repeat."""
    seen: dict[tuple[str, str], int] = {}  # a call -> the changes made up to it
    changes = 0
    repeats = []
    for call in calls:
        key = (call.name, canonical_arguments(call.arguments))
        if seen.get(key) == changes and not call.result.startswith(REPEATED):
            repeats.append(call)
        if acting(call) and ran(call):
            changes += 1
        if not call.failed:
            seen[key] = changes
    return repeats


def stopped_repeats(calls: Sequence[Call]) -> list[Call]:
    """The repeated calls the model asked for and agentd did not run again."""
    return [c for c in calls if c.result.startswith(REPEATED)]


def normalized(text: str) -> str:
    """Lower case, no accents, plain quotes and dashes, single spaces: for lenient matching."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    table = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})
    text = text.translate(table).replace("\u2013", "-").replace("\u2014", "-")
    return " ".join(text.lower().split())


def mentions(text: str, needle: str) -> bool:
    """``needle`` occurs in ``text``, compared :func:`normalized`."""
    return normalized(needle) in normalized(text)
