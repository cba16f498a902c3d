"""Speculative decoding without a draft model: ``--spec`` options of ``bench.draft replay``.

llama-server can draft from the text it already holds (the prompt and what it generated so
far): an n-gram that occurred before proposes the tokens that followed it, and the model
checks them in one batch. That costs no second model, so on two cores it may pay where a draft
model did not. A spec names the type and its sizes in a few letters, e.g.
``ngram-simple:n=3,m=16`` (look up the last 3 tokens, draft up to 16), and becomes the server's
flags; ``m`` also sets ``--spec-draft-n-max``, which caps every type's draft (default 3).
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass

#: The generic caps of a draft, for types that have no sizes of their own under these keys.
_DRAFT_CAPS = {"max": "--spec-draft-n-max", "min": "--spec-draft-n-min"}


def _map_keys(kind: str) -> dict[str, str]:
    return {
        "n": f"--spec-ngram-{kind}-size-n",
        "m": f"--spec-ngram-{kind}-size-m",
        "hits": f"--spec-ngram-{kind}-min-hits",
        **_DRAFT_CAPS,
    }


#: Each draft-free type and its flags by the short key a spec names them with.
SPEC_KEYS: dict[str, dict[str, str]] = {
    "ngram-simple": _map_keys("simple"),
    "ngram-map-k": _map_keys("map-k"),
    "ngram-map-k4v": _map_keys("map-k4v"),
    "ngram-mod": {
        "match": "--spec-ngram-mod-n-match",
        "min": "--spec-ngram-mod-n-min",
        "max": "--spec-ngram-mod-n-max",
    },
    "ngram-cache": dict(_DRAFT_CAPS),
}


@dataclass(frozen=True, slots=True)
class Spec:
    """One draft-free speculation setting: its label in the tables and the server's flags."""

    label: str
    args: tuple[str, ...]


def parse_spec(text: str) -> Spec:
    """``TYPE[:key=N,...]`` as a :class:`Spec`; an unknown type, key or size is refused."""
    kind, _, rest = text.strip().partition(":")
    keys = SPEC_KEYS.get(kind)
    if keys is None:
        raise argparse.ArgumentTypeError(
            f"unknown speculation type {kind!r}: one of {', '.join(SPEC_KEYS)}"
        )
    args = ["--spec-type", kind]
    sizes: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, sep, value = item.partition("=")
        if key not in keys or not sep:
            raise argparse.ArgumentTypeError(
                f"{kind} takes {', '.join(f'{k}=N' for k in keys) or 'no sizes'}, not {item!r}"
            )
        if not value.isdigit():
            raise argparse.ArgumentTypeError(f"{key} must be a whole number, not {value!r}")
        sizes[key] = value
    if "m" in sizes and "max" not in sizes:
        sizes["max"] = sizes["m"]
    for key, value in sizes.items():
        args += [keys[key], value]
    return Spec(text.strip(), tuple(args))
