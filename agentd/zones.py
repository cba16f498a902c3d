"""Time zones by the names people and small models give them.

``current_time`` and ``schedule_task`` take an IANA zone name. Asked the weekday in Tokyo, the
small local model passed "Japan Standard Time" (twice, then answered without the time): a
name that is plainly one zone is taken as that zone. :func:`find_zone` accepts an IANA name
(any case), a city of one ("Tokyo", "new york"), a zone's long name ("Japan Standard Time",
"Central European Time") and a few common abbreviations; an IANA name misspelt with hyphens or
blanks for its underscores, or under another region, is taken by its city ("America/Mexico-City",
given seven times in one turn, is America/Mexico_City); anything else is unknown.
"""

from __future__ import annotations

import re
from functools import cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

#: Abbreviations that are not tzdata names but mean one zone to nearly everyone.
ABBREVIATIONS = {
    "pst": "America/Los_Angeles",
    "pdt": "America/Los_Angeles",
    "mdt": "America/Denver",
    "cdt": "America/Chicago",
    "edt": "America/New_York",
    "jst": "Asia/Tokyo",
    "kst": "Asia/Seoul",
    "bst": "Europe/London",
    "cest": "Europe/Paris",
    "aest": "Australia/Sydney",
    # Long names, as left once "Standard Time" and the like are cut off.
    "pacific": "America/Los_Angeles",
    "mountain": "America/Denver",
    "central": "America/Chicago",
    "eastern": "America/New_York",
    "central european": "Europe/Paris",
    "eastern european": "Europe/Athens",
    "western european": "Europe/Lisbon",
    "greenwich mean": "Europe/London",
    "india": "Asia/Kolkata",
}
_LONG_NAME = re.compile(r"\s+(?:standard|daylight|summer)?\s*time$", re.IGNORECASE)


@cache
def _index() -> tuple[dict[str, str], dict[str, str]]:
    """(lowercased IANA name -> name, lowercased city -> name); read from tzdata once."""
    names = sorted(available_timezones())
    full = {name.casefold(): name for name in names}
    cities: dict[str, str] = {}
    # Continental zones first: "Asia/Tokyo" wins over a legacy alias of the same last part.
    for name in sorted(names, key=lambda n: (n.count("/") == 0, n.startswith("Etc/"), n)):
        cities.setdefault(name.rsplit("/", 1)[-1].casefold(), name)
    return full, cities


def find_zone(name: str) -> ZoneInfo | None:
    """The zone ``name`` means, or None when it names none (or more than one way)."""
    text = " ".join(name.split())
    if not text or "\0" in text or text.startswith(("/", ".")) or ".." in text:
        return None
    for candidate in _names(text):
        try:
            return ZoneInfo(candidate)
        except (ZoneInfoNotFoundError, ValueError):
            continue
    return None


def _names(text: str) -> list[str]:
    full, cities = _index()
    key = text.casefold()
    short = _LONG_NAME.sub("", text).casefold() or key
    found = [text]
    spellings = (key, short, *(w.replace(c, "_") for w in (key, short) for c in " -"))
    for word in dict.fromkeys(spellings):
        found.extend(t[word] for t in (full, ABBREVIATIONS, cities) if word in t)
    for word in dict.fromkeys(w.rsplit("/", 1)[-1] for w in spellings if "/" in w):
        found.extend([cities[word]] if word in cities else [])
    return found
