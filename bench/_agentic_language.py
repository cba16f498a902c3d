"""The language an answer is written in, to judge whether a turn answered in the request's.

Quoted text (a file's line, a saved fact, a command) is the user's or a tool's words, not the
answer's: it is taken out first, with files' names. Japanese is told by its kana (when its
script outweighs the Latin letters); ideographs
alone may be Japanese or Chinese and are not judged; other text by ``langid`` (its bundled
model, choosing among the suite's languages). Too little left to tell, or no language likely
enough: None.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from agentd.engine.language import own_words
from bench._agentic_cases import LANGUAGES

KANA = re.compile(r"[\u3040-\u30ff]")
IDEOGRAPHS = re.compile(r"[\u4e00-\u9fff]")
LATIN = re.compile(r"[A-Za-z\u00c0-\u024f]")
WORD = re.compile(r"[^\W\d_]{2,}")
#: The fewest words (outside quotes) an answer needs to be judged.
FEWEST_WORDS = 3
#: How likely the detected language must be.
LIKELY = 0.9


@cache
def _identifier(languages: tuple[str, ...]) -> Any:
    from langid.langid import LanguageIdentifier, model

    identifier = LanguageIdentifier.from_modelstring(model, norm_probs=True)
    identifier.set_languages(list(languages))
    return identifier


def answer_language(text: str) -> str | None:
    """The language of ``text`` (ISO 639-1, e.g. "de"), or None when it cannot be told."""
    own = own_words(text)
    if KANA.search(own) and len(KANA.findall(own) + IDEOGRAPHS.findall(own)) >= len(
        LATIN.findall(own)
    ):
        return "ja"  # mostly Japanese script, not a name in kana inside another language
    own = KANA.sub(" ", IDEOGRAPHS.sub(" ", own))  # ideographs alone: Japanese or Chinese
    if len(WORD.findall(own)) < FEWEST_WORDS:
        return None
    found, likely = _identifier(LANGUAGES).classify(own)
    return str(found) if likely >= LIKELY else None


__all__ = ["answer_language"]
