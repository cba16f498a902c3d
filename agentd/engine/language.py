"""The language a request is written in, named in English for the notes that ask for the
answer in it.

After tool results a small model answers in the language of the last message it was sent: the
turn's notes are English, so German, Spanish, French and Japanese requests were answered in
English after a tool ran (dev: 19 of 26 such answers), and asking for "the language I wrote
it in" moved few of them. Named ("in Spanish"), the answers came in the request's language.
Told by CLD2 (``pycld2``: Chromium's compact detector, some 80 languages, microseconds), a
statistical model over all its languages, no word list; None when CLD2 is not sure (a short
greeting, a number), and the note then asks for the request's own language unnamed.
"""

from __future__ import annotations

from functools import lru_cache

import pycld2

#: CLD2 names some scripts' variants by a code of its own.
NAMES = {"zh-Hant": "Traditional Chinese"}


@lru_cache(maxsize=256)
def language_of(text: str) -> str | None:
    """The English name of the language ``text`` is written in ("Spanish"), or None when it
    cannot be told reliably."""
    try:
        reliable, _, found = pycld2.detect(text)
    except pycld2.error:  # bytes CLD2 cannot read
        return None
    except UnicodeEncodeError:  # lone surrogates
        return None
    name, code = str(found[0][0]), str(found[0][1])
    if not reliable or code in ("un", "xxx") or "_" in name:
        return None
    return NAMES.get(code) or (name.title() if name.isupper() else name)


__all__ = ["language_of"]
