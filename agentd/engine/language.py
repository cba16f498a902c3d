"""The language a request is written in, named in English for the notes that ask for the
answer in it.

After tool results a small model answers in the language of the last message it was sent: the
turn's notes are English, so German, Spanish, French and Japanese requests were answered in
English after a tool ran (dev: 25 of 34 such answers), and asking for "the language I wrote
it in" moved few of them. Named ("in Spanish"), the answers came in the request's language.
Told by CLD2 (``pycld2``: Chromium's compact detector, some 80 languages, microseconds), a
statistical model over all its languages, no word list; None when CLD2 is not sure (a short
greeting, a number), and the note then asks for the request's own language unnamed.

Only the request's own words are read: quoted text, code and files' names are someone else's
words (a French request quoting an English line read as English), and a pasted log before the
question would outweigh it, so the detector sees the last :data:`MOST_CHARS` of what is left,
with the characters CLD2 refuses (controls, lone surrogates, noncharacters) made blanks.
Quotes and names are looked for in the last :data:`SCANNED_CHARS` only.
"""

from __future__ import annotations

import re
import unicodedata
from typing import NamedTuple

import pycld2

#: Quoted or fenced spans: the words of a file, a fact or a command, not the writer's own.
QUOTED = re.compile(
    r"```.*?```|`[^`]*`|\"[^\"]*\"|“[^”]*”|„[^“”]*[“”]|«[^»]*»|「[^」]*」|『[^』]*』", re.S
)
#: A file's name, a path or an address (Latin letters and digits around a dot or a slash): no
#: language's word. Only ASCII: in Japanese a name runs into the sentence ("app.confの...").
#: A name starts where a run of its characters starts (the lookbehind): tried from inside a run
#: too, a long run with no dot took quadratic time (100,000 letters: two minutes).
NAMED = re.compile(r"[a-z]+://[\w./~:?=&%#+-]+|(?<![\w~-])[\w~-]*[./][\w./~-]+", re.ASCII)
#: How much of the request, from its end, the detector reads.
MOST_CHARS = 2000
#: How much of the request, from its end, quotes and names are looked for in: a bound on
#: what a hostile request can cost (unclosed quotes are scanned to the end).
SCANNED_CHARS = 4 * MOST_CHARS
#: Unicode categories CLD2 refuses or that carry no language: controls, surrogates,
#: unassigned code points and noncharacters.
REFUSED = frozenset({"Cc", "Cs", "Cn"})
#: Languages CLD2 names by a code word of its own ("NORWEGIAN_N", "ChineseT", "LAOTHIAN").
NAMES = {
    "zh-Hant": "Traditional Chinese",
    "ht": "Haitian Creole",
    "lua": "Luba-Lulua",
    "luo": "Luo",
    "mfe": "Mauritian Creole",
    "nn": "Norwegian Nynorsk",
    "rm": "Romansh",
    "gd": "Scottish Gaelic",
    "war": "Waray",
    "lo": "Lao",
    "ss": "Swati",
}


def own_words(text: str) -> str:
    """``text`` without quoted spans, code and files' names."""
    return NAMED.sub(" ", QUOTED.sub(" ", text))


def _readable(text: str) -> str:
    """The last :data:`MOST_CHARS` of ``text``, the characters CLD2 refuses made blanks."""
    tail = text[-MOST_CHARS:]
    return "".join(" " if unicodedata.category(c) in REFUSED else c for c in tail)


class Told(NamedTuple):
    """A language as CLD2 tells it: its English name ("Spanish") and its code ("es")."""

    name: str
    code: str


def tell(text: str, hint: str = "") -> Told | None:
    """The language ``text`` is written in, or None when it cannot be told reliably.
    ``hint`` (a code) tips CLD2 towards that language."""
    hints = {"hintLanguage": hint} if hint else {}
    try:
        reliable, _, found = pycld2.detect(_readable(own_words(text[-SCANNED_CHARS:])), **hints)
    except pycld2.error:  # anything CLD2 still cannot read: not told
        return None
    name, code = str(found[0][0]), str(found[0][1])
    if not reliable or code in ("un", "xxx") or code.startswith("xx-"):
        return None
    if code in NAMES:
        return Told(NAMES[code], code)
    if "_" in name:
        return None
    return Told(name.title() if name.isupper() else name, code)


def language_of(text: str) -> str | None:
    """The English name of the language ``text`` is written in ("Spanish"), or None when it
    cannot be told reliably."""
    found = tell(text)
    return found.name if found else None


def written_in(text: str, asked: Told) -> bool | None:
    """Whether ``text`` is written in ``asked``: True, False, or None when it cannot be told.

    ``text`` is read with ``asked`` as CLD2's hint: a short answer's few words otherwise read
    as some language that shares them ("Il y a 6 commandes qui partent à Rochefort." as
    Romansh, "Ein Meter hat 100 Zentimeter." as Nynorsk)."""
    written = tell(text, hint=asked.code)
    return None if written is None else written.code == asked.code


__all__ = [
    "MOST_CHARS",
    "NAMED",
    "QUOTED",
    "SCANNED_CHARS",
    "Told",
    "language_of",
    "own_words",
    "tell",
    "written_in",
]
